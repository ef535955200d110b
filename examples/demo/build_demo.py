#!/usr/bin/env python3
"""Build the offline demo benchmark: a tiny real repository plus tasks with known verdicts.

    python examples/demo/build_demo.py          # (re)write the bundle, tasks.jsonl, expected.json
    python examples/demo/build_demo.py --check  # also apply every patch and run its tests, and
                                                # check recorded_answers.json against them

Stdlib only. The repository "acme/widgets" is created from the sources below, in a temporary
folder, with fixed authors, dates and git settings, so every commit SHA is reproducible. Each task
edits a checkout of its base commit; its gold patch (package files) and test patch (tests/) are
`git diff` output against that base. The fixes are never committed: the bundle holds the base
history only. The expected verdicts in EXPECTED are written by hand from the certification rules,
not computed by running determinacy; so are the answers of the recorded agent
(recorded_agent.py, recorded_answers.json: canned answers, not a model) and the verdicts they
are expected to earn (AGENT_EXPECTED_BY_N).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = "acme/widgets"
BUNDLE = HERE / "widgets.bundle"
TASKS = HERE / "tasks.jsonl"
EXPECTED = HERE / "expected.json"

# -- git plumbing, isolated from the user's configuration --------------------------------------

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "ACME Developer",
    "GIT_AUTHOR_EMAIL": "dev@acme.example",
    "GIT_COMMITTER_NAME": "ACME Developer",
    "GIT_COMMITTER_EMAIL": "dev@acme.example",
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
    "TZ": "UTC",
}
GIT_OPTS = [
    "-c", "init.defaultBranch=main",
    "-c", "commit.gpgsign=false",
    "-c", "tag.gpgsign=false",
    "-c", "core.hooksPath=" + os.devnull,
    "-c", "core.autocrlf=false",
    "-c", "core.abbrev=7",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "pack.threads=1",
    "-c", "color.ui=false",
]


def git(cwd: Path, *args: str, date: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    proc = subprocess.run(["git", *GIT_OPTS, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, encoding="utf-8")
    if proc.returncode:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}:\n{proc.stderr}")
    return proc.stdout


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


# -- the base history ----------------------------------------------------------------------------
# Each commit: (name, date, message, {path: full new content}).

C1_FILES = {
    "README.md": """\
# widgets

Small inventory helpers for the ACME warehouse: stock keeping, money formatting,
prices and a command line tool.

Run the tests with `python -m pytest`.
""",
    "pyproject.toml": """\
[project]
name = "widgets"
version = "0.1.0"
description = "Inventory helpers for the ACME warehouse"
requires-python = ">=3.9"

[tool.pytest.ini_options]
pythonpath = ["."]
testpaths = ["tests"]
""",
    ".gitignore": """\
__pycache__/
*.pyc
.pytest_cache/
inventory.json
""",
    "widgets/__init__.py": '''\
"""Inventory helpers for the ACME warehouse."""

__version__ = "0.1.0"
''',
    "widgets/errors.py": '''\
"""Exceptions raised by the widgets package."""


class WidgetError(Exception):
    """Base class for every error raised by widgets."""


class UnknownSkuError(WidgetError, KeyError):
    def __init__(self, sku):
        super().__init__(sku)
        self.sku = sku

    def __str__(self):
        return f"unknown sku: {self.sku}"


class InvalidQuantityError(WidgetError, ValueError):
    pass


class OutOfStockError(WidgetError):
    def __init__(self, sku, requested, available):
        super().__init__(f"{sku}: requested {requested}, only {available} in stock")
        self.sku = sku
        self.requested = requested
        self.available = available


class UnsupportedCurrencyError(WidgetError, ValueError):
    pass
''',
    "widgets/inventory.py": '''\
"""Stock keeping: items and the inventory that holds them."""

from dataclasses import dataclass

from widgets.errors import InvalidQuantityError, OutOfStockError, UnknownSkuError

LOW_STOCK_THRESHOLD = 5


@dataclass
class Item:
    sku: str
    name: str
    price_cents: int
    quantity: int = 0

    def to_dict(self):
        return {
            "sku": self.sku,
            "name": self.name,
            "price_cents": self.price_cents,
            "quantity": self.quantity,
        }

    @classmethod
    def from_dict(cls, data):
        return cls(
            sku=data["sku"],
            name=data["name"],
            price_cents=int(data["price_cents"]),
            quantity=int(data.get("quantity", 0)),
        )


class Inventory:
    def __init__(self, items=()):
        self._items = {}
        for item in items:
            self.add(item)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items.values())

    def __contains__(self, sku):
        return sku in self._items

    def add(self, item):
        if item.quantity < 0:
            raise InvalidQuantityError(f"quantity must not be negative: {item.quantity}")
        if item.sku in self._items:
            raise ValueError(f"duplicate sku: {item.sku}")
        self._items[item.sku] = item

    def get(self, sku):
        try:
            return self._items[sku]
        except KeyError:
            raise UnknownSkuError(sku) from None

    def remove(self, sku, qty):
        item = self.get(sku)
        if qty > item.quantity:
            raise OutOfStockError(sku, qty, item.quantity)
        item.quantity -= qty
        return item

    def set_price(self, sku, price_cents):
        self.get(sku).price_cents = price_cents

    def total_value(self):
        return sum(item.price_cents * item.quantity for item in self._items.values())

    def low_stock(self, threshold=LOW_STOCK_THRESHOLD):
        return [item for item in self._items.values() if item.quantity <= threshold]

    def to_dict(self):
        return {"items": [item.to_dict() for item in self._items.values() if item.quantity > 0]}

    @classmethod
    def from_dict(cls, data):
        return cls(Item.from_dict(row) for row in data.get("items", []))
''',
    "widgets/formatting.py": '''\
"""Text output: money, colors and plain tables."""

from widgets.errors import UnsupportedCurrencyError

CURRENCY_SYMBOLS = {
    "USD": "$",
    "CAD": "C$",
    "AUD": "A$",
}

ANSI_CODES = {
    "red": "\\033[31m",
    "green": "\\033[32m",
    "yellow": "\\033[33m",
    "bold": "\\033[1m",
}
ANSI_RESET = "\\033[0m"


def format_money(cents, currency="USD"):
    try:
        symbol = CURRENCY_SYMBOLS[currency]
    except KeyError:
        raise UnsupportedCurrencyError(f"unsupported currency: {currency}") from None
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{symbol}{whole:,}.{frac:02d}"


def colorize(text, color):
    return f"{ANSI_CODES[color]}{text}{ANSI_RESET}"


def format_table(rows, headers):
    """Render rows (lists of cells) as a left-aligned text table."""
    table = [list(headers)] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[col]) for row in table) for col in range(len(headers))]
    lines = []
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)]
        lines.append("  ".join(cells).rstrip())
    return "\\n".join(lines)
''',
    "tests/test_inventory.py": '''\
import pytest

from widgets.errors import InvalidQuantityError, OutOfStockError, UnknownSkuError
from widgets.inventory import Inventory, Item


def make_inventory():
    return Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])


def test_get_unknown_sku():
    with pytest.raises(UnknownSkuError):
        make_inventory().get("NOPE-0")


def test_add_rejects_negative_quantity():
    with pytest.raises(InvalidQuantityError):
        Inventory([Item(sku="X-1", name="Broken", price_cents=1, quantity=-1)])


def test_remove_decrements_quantity():
    inv = make_inventory()
    inv.remove("SPR-1", 4)
    assert inv.get("SPR-1").quantity == 6


def test_remove_more_than_available():
    inv = make_inventory()
    with pytest.raises(OutOfStockError):
        inv.remove("GEAR-9", 3)


def test_total_value():
    assert make_inventory().total_value() == 10 * 250 + 2 * 1000


def test_low_stock():
    assert [item.sku for item in make_inventory().low_stock()] == ["GEAR-9"]


def test_round_trip_dict():
    inv = make_inventory()
    again = Inventory.from_dict(inv.to_dict())
    assert again.to_dict() == inv.to_dict()
''',
    "tests/test_formatting.py": '''\
import pytest

from widgets.errors import UnsupportedCurrencyError
from widgets.formatting import colorize, format_money, format_table


def test_format_money_usd():
    assert format_money(1999) == "$19.99"


def test_format_money_thousands_separator():
    assert format_money(123456789) == "$1,234,567.89"


def test_format_money_negative():
    assert format_money(-250, "CAD") == "-C$2.50"


def test_format_money_rejects_unknown_currency():
    with pytest.raises(UnsupportedCurrencyError):
        format_money(500, "GBP")


def test_colorize_wraps_text():
    assert colorize("hi", "red") == "\\033[31mhi\\033[0m"


def test_format_table_aligns_columns():
    out = format_table([["a", "1"], ["bbb", "22"]], ["NAME", "QTY"])
    assert out.splitlines() == ["NAME  QTY", "a     1", "bbb   22"]
''',
}

C2_FILES = {
    "widgets/pricing.py": '''\
"""Prices: discounts and order totals."""

# (minimum quantity, percent off), best tier first.
BULK_TIERS = [(100, 10), (50, 5)]


def apply_discount(price_cents, percent):
    if not 0 <= percent <= 100:
        raise ValueError(f"percent out of range: {percent}")
    return round(price_cents * (100 - percent) / 100)


def bulk_discount(quantity):
    for min_qty, percent in BULK_TIERS:
        if quantity >= min_qty:
            return percent
    return 0


def order_total(item, quantity):
    unit = apply_discount(item.price_cents, bulk_discount(quantity))
    return unit * quantity
''',
    "tests/test_pricing.py": '''\
import pytest

from widgets.inventory import Item
from widgets.pricing import apply_discount, bulk_discount, order_total


def test_apply_discount():
    assert apply_discount(1000, 15) == 850


def test_apply_discount_rejects_bad_percent():
    with pytest.raises(ValueError):
        apply_discount(1000, 120)


def test_bulk_discount_tiers():
    assert bulk_discount(1) == 0
    assert bulk_discount(50) == 5
    assert bulk_discount(100) == 10


def test_order_total_uses_bulk_discount():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=500)
    assert order_total(item, 100) == 225 * 100
''',
}

C3_FILES = {
    "pyproject.toml": """\
[project]
name = "widgets"
version = "0.2.0"
description = "Inventory helpers for the ACME warehouse"
requires-python = ">=3.9"

[project.scripts]
widgets = "widgets.cli:main"

[tool.pytest.ini_options]
pythonpath = ["."]
testpaths = ["tests"]
""",
    "widgets/__init__.py": '''\
"""Inventory helpers for the ACME warehouse."""

__version__ = "0.2.0"
''',
    "widgets/__main__.py": """\
from widgets.cli import main

raise SystemExit(main())
""",
    "widgets/cli.py": '''\
"""Command line interface: `python -m widgets --file inventory.json list`."""

import argparse
import json
from pathlib import Path

from widgets.formatting import colorize, format_money, format_table
from widgets.inventory import LOW_STOCK_THRESHOLD, Inventory, Item


def load_inventory(path):
    path = Path(path)
    if not path.exists():
        return Inventory()
    return Inventory.from_dict(json.loads(path.read_text(encoding="utf-8")))


def save_inventory(inventory, path):
    text = json.dumps(inventory.to_dict(), indent=2, sort_keys=True)
    Path(path).write_text(text + "\\n", encoding="utf-8")


def list_lines(inventory, color=True):
    rows = []
    for item in inventory:
        qty = str(item.quantity)
        if color and item.quantity <= LOW_STOCK_THRESHOLD:
            qty = colorize(qty, "red")
        rows.append([item.sku, item.name, format_money(item.price_cents), qty])
    return format_table(rows, ["SKU", "NAME", "PRICE", "QTY"]).splitlines()


def build_parser():
    parser = argparse.ArgumentParser(prog="widgets", description="Manage an inventory file.")
    parser.add_argument("--file", default="inventory.json", help="inventory JSON file")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="show every item")
    value = sub.add_parser("value", help="print the total stock value")
    value.add_argument("--currency", default="USD")
    add = sub.add_parser("add", help="add a new item")
    add.add_argument("sku")
    add.add_argument("name")
    add.add_argument("price_cents", type=int)
    add.add_argument("quantity", type=int)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    inventory = load_inventory(args.file)
    if args.command == "list":
        for line in list_lines(inventory):
            print(line)
    elif args.command == "value":
        print(format_money(inventory.total_value(), args.currency))
    elif args.command == "add":
        inventory.add(Item(args.sku, args.name, args.price_cents, args.quantity))
        save_inventory(inventory, args.file)
    return 0
''',
    "tests/test_cli.py": '''\
import json

from widgets.cli import main

SAMPLE = {
    "items": [
        {"sku": "SPR-1", "name": "Sprocket", "price_cents": 250, "quantity": 3},
        {"sku": "GEAR-9", "name": "Gear", "price_cents": 1000, "quantity": 40},
    ]
}


def write_sample(tmp_path):
    path = tmp_path / "inventory.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    return path


def test_list_prints_every_item(tmp_path, capsys):
    path = write_sample(tmp_path)
    assert main(["--file", str(path), "list"]) == 0
    out = capsys.readouterr().out
    assert "Sprocket" in out and "Gear" in out


def test_list_highlights_low_stock(tmp_path, capsys):
    path = write_sample(tmp_path)
    main(["--file", str(path), "list"])
    assert "\\033[31m3\\033[0m" in capsys.readouterr().out


def test_value_prints_total(tmp_path, capsys):
    path = write_sample(tmp_path)
    assert main(["--file", str(path), "value"]) == 0
    assert capsys.readouterr().out.strip() == "$407.50"


def test_add_saves_new_item(tmp_path):
    path = write_sample(tmp_path)
    assert main(["--file", str(path), "add", "BOLT-3", "Bolt", "15", "100"]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [row["sku"] for row in data["items"]] == ["SPR-1", "GEAR-9", "BOLT-3"]
''',
}

C4_FILES = {
    "widgets/pricing.py": C2_FILES["widgets/pricing.py"].replace(
        '"""Prices: discounts and order totals."""\n',
        '"""Prices: discounts, order totals, shipping and sales tax."""\n',
    ).replace(
        "BULK_TIERS = [(100, 10), (50, 5)]\n",
        'BULK_TIERS = [(100, 10), (50, 5)]\n'
        "\n"
        "FLAT_SHIPPING_CENTS = 595\n"
        "\n"
        "# Sales tax by region; unknown regions are not taxed.\n"
        'TAX_RATES = {"CA": 0.0725, "NY": 0.04, "TX": 0.0625}\n',
    ) + '''\


def shipping_cost(subtotal_cents):
    return FLAT_SHIPPING_CENTS


def tax_for(subtotal_cents, region):
    rate = TAX_RATES.get(region, 0.0)
    return round(subtotal_cents * rate)
''',
    "tests/test_pricing.py": C2_FILES["tests/test_pricing.py"].replace(
        "from widgets.pricing import apply_discount, bulk_discount, order_total\n",
        "from widgets.pricing import (\n"
        "    FLAT_SHIPPING_CENTS,\n"
        "    apply_discount,\n"
        "    bulk_discount,\n"
        "    order_total,\n"
        "    shipping_cost,\n"
        "    tax_for,\n"
        ")\n",
    ) + '''\


def test_shipping_cost_is_flat():
    assert shipping_cost(1000) == FLAT_SHIPPING_CENTS


def test_tax_for_known_region():
    assert tax_for(10000, "CA") == 725


def test_tax_for_unknown_region_is_zero():
    assert tax_for(10000, "ZZ") == 0
''',
}

# C5 gives the agent tiers something to point at: two live modules that print a date two
# different ways (ISO in reports, day-first in receipts) and one more upper-case table header.
C5_FILES = {
    "widgets/reports.py": '''\
"""Reports for the warehouse office."""

from widgets.formatting import format_money, format_table


def stock_report(inventory, day):
    """The daily stock report: a dated title, then one row per item with its stock value."""
    rows = [
        [item.sku, item.name, item.quantity, format_money(item.price_cents * item.quantity)]
        for item in inventory
    ]
    title = "Stock report " + day.strftime("%Y-%m-%d")
    table = format_table(rows, ["SKU", "NAME", "QTY", "VALUE"])
    return "\\n".join([title, table])
''',
    "widgets/receipts.py": '''\
"""Printed receipts for counter sales."""

from widgets.formatting import format_money
from widgets.pricing import order_total


def receipt_lines(item, quantity, day):
    """A counter-sale receipt: shop and date, the sale, the total to pay."""
    total = order_total(item, quantity)
    return [
        "ACME Warehouse " + day.strftime("%d/%m/%Y"),
        f"{quantity} x {item.name}",
        "TOTAL " + format_money(total),
    ]
''',
    "tests/test_reports.py": '''\
from datetime import date

from widgets.inventory import Inventory, Item
from widgets.reports import stock_report


def test_stock_report_is_dated_and_valued():
    inv = Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)])
    assert stock_report(inv, date(2024, 5, 6)).splitlines() == [
        "Stock report 2024-05-06",
        "SKU    NAME      QTY  VALUE",
        "SPR-1  Sprocket  10   $25.00",
    ]
''',
    "tests/test_receipts.py": '''\
from datetime import date

from widgets.inventory import Item
from widgets.receipts import receipt_lines


def test_receipt_lines():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=500)
    assert receipt_lines(item, 4, date(2024, 5, 6)) == [
        "ACME Warehouse 06/05/2024",
        "4 x Sprocket",
        "TOTAL $10.00",
    ]
''',
}

# C6 gives tasks 16-30 their base: exporters in two formats (a naming convention to follow),
# a backup writer, project defaults read from setup.cfg, and a CLI whose help is its module
# docstring.
C6_CLI_DOC = '''\
"""Manage the ACME warehouse inventory file from the command line.

    python -m widgets [--file PATH] COMMAND ...

Commands:
  list     show every item, low-stock quantities in red
  value    print the total stock value (--currency USD, CAD or AUD)
  add      add a new item: SKU NAME PRICE_CENTS QUANTITY

The inventory is a JSON file: inventory.json in the current folder
unless --file names another one. Every command reads the whole file;
add writes it back with its keys sorted and two-space indentation,
so that the file stays easy to compare between two days.

Prices are whole cents everywhere: 250 means $2.50. Quantities are
whole units and never negative.

The exit status is 0 on success and 2 when the command line is wrong.
"""
'''

C6_FILES = {
    "widgets/cli.py": C3_FILES["widgets/cli.py"].replace(
        '"""Command line interface: `python -m widgets --file inventory.json list`."""\n',
        C6_CLI_DOC,
    ).replace(
        '    parser = argparse.ArgumentParser(prog="widgets", description="Manage an inventory '
        'file.")\n',
        '    parser = argparse.ArgumentParser(prog="widgets", description=__doc__,\n'
        "                                     "
        "formatter_class=argparse.RawDescriptionHelpFormatter)\n",
    ),
    "widgets/exporters.py": '''\
"""Exporters: the inventory as text for other tools.

Each exporter is a class whose export(inventory) method returns the whole text; the
nightly jobs pick one by the format the receiving tool reads.
"""

import json


class CsvExporter:
    """Comma-separated values, one line per item, for spreadsheets."""

    def export(self, inventory):
        lines = ["sku,name,price_cents,quantity"]
        for item in inventory:
            lines.append(f"{item.sku},{item.name},{item.price_cents},{item.quantity}")
        return "\\n".join(lines) + "\\n"


class JsonExporter:
    """The inventory's dictionary form as JSON, for the web dashboard."""

    def export(self, inventory):
        return json.dumps(inventory.to_dict(), indent=2, sort_keys=True) + "\\n"
''',
    "widgets/backup.py": '''\
"""Nightly backups: the inventory written over the previous backup file."""

import json


def write_backup(inventory, stream):
    """Write the inventory as JSON to `stream`, an open text file, over what it held."""
    stream.seek(0)
    stream.write(json.dumps(inventory.to_dict(), sort_keys=True))
''',
    "widgets/settings.py": '''\
"""Project defaults: the [widgets] section of setup.cfg, for the warehouse scripts."""

import configparser
from pathlib import Path
from types import SimpleNamespace

SETUP_CFG = Path(__file__).resolve().parent.parent / "setup.cfg"


def _value(text):
    return int(text) if text.isdigit() else text


def load_settings(path=SETUP_CFG):
    parser = configparser.ConfigParser()
    parser.read(path, encoding="utf-8")
    section = parser["widgets"] if parser.has_section("widgets") else {}
    return SimpleNamespace(**{key: _value(value) for key, value in section.items()})
''',
    "setup.cfg": """\
[widgets]
# Defaults the warehouse scripts read through widgets.settings.load_settings().
currency = USD
""",
    "tests/test_exporters.py": '''\
import json

from widgets.exporters import CsvExporter, JsonExporter
from widgets.inventory import Inventory, Item


def make_inventory():
    return Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)])


def test_csv_export():
    assert CsvExporter().export(make_inventory()).splitlines() == [
        "sku,name,price_cents,quantity",
        "SPR-1,Sprocket,250,10",
    ]


def test_json_export():
    assert json.loads(JsonExporter().export(make_inventory())) == make_inventory().to_dict()
''',
    "tests/test_backup.py": '''\
import io
import json

from widgets.backup import write_backup
from widgets.inventory import Inventory, Item


def test_write_backup_writes_json():
    inv = Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)])
    stream = io.StringIO()
    write_backup(inv, stream)
    assert json.loads(stream.getvalue()) == inv.to_dict()
''',
    "tests/test_settings.py": '''\
from widgets.settings import load_settings


def test_settings_from_setup_cfg():
    assert load_settings().currency == "USD"


def test_settings_without_the_section(tmp_path):
    path = tmp_path / "setup.cfg"
    path.write_text("[metadata]\\nname = other\\n", encoding="utf-8")
    assert vars(load_settings(path)) == {}
''',
    "tests/test_cli.py": C3_FILES["tests/test_cli.py"] + '''\


def test_help_lists_the_commands(capsys):
    try:
        main(["--help"])
    except SystemExit as stop:
        assert stop.code == 0
    out = capsys.readouterr().out
    assert "Commands:" in out and "whole cents" in out
''',
}

# C7 gives tasks 32-48 their base: inventory stores (JSON and CSV files), listings for a
# marketplace, the supplier's web service, storage locations, version flags and stock status
# lines: families of names and messages for new ones to follow (or not).
C7_FILES = {
    "pyproject.toml": C3_FILES["pyproject.toml"].replace('version = "0.2.0"',
                                                         'version = "0.3.0"'),
    "widgets/__init__.py": C3_FILES["widgets/__init__.py"].replace('"0.2.0"', '"0.3.0"'),
    "widgets/storage.py": '''\
"""Where an inventory is kept between runs: a JSON file (what the command line uses) or a
CSV file (what the office's spreadsheet opens)."""

import csv
import json
from pathlib import Path

from widgets.errors import WidgetError
from widgets.inventory import Inventory, Item

CSV_FIELDS = ["sku", "name", "price_cents", "quantity"]


class StoreError(WidgetError):
    """The stored inventory cannot be read."""


class JsonFileStore:
    """The inventory as one JSON document."""

    def __init__(self, path):
        self.path = Path(path)

    def load(self):
        if not self.path.exists():
            raise StoreError("inventory file not found")
        return Inventory.from_dict(json.loads(self.path.read_text(encoding="utf-8")))

    def save(self, inventory):
        text = json.dumps(inventory.to_dict(), indent=2, sort_keys=True)
        self.path.write_text(text + "\\n", encoding="utf-8")


class CsvFileStore:
    """The inventory as CSV, one row per item."""

    def __init__(self, path):
        self.path = Path(path)

    def load(self):
        if not self.path.exists():
            raise StoreError("inventory file not found")
        with self.path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != CSV_FIELDS:
                raise StoreError("bad header in inventory file")
            return Inventory([Item.from_dict(row) for row in reader])

    def save(self, inventory):
        with self.path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            writer.writeheader()
            for item in inventory:
                writer.writerow(item.to_dict())
''',
    "widgets/marketplaces/__init__.py": '''\
"""Listings of our stock on other people's shops."""
''',
    "widgets/marketplaces/amazon/__init__.py": '''\
"""Amazon Seller Central."""
''',
    "widgets/marketplaces/amazon/listing.py": '''\
"""An item as a line of Amazon's inventory flat file (tab-separated)."""


class AmazonListing:
    def __init__(self, item):
        self.item = item

    def line(self):
        price = f"{self.item.price_cents // 100}.{self.item.price_cents % 100:02d}"
        return "\\t".join([self.item.sku, self.item.name, price, str(self.item.quantity)])
''',
    "widgets/sync.py": '''\
"""Stock levels from the supplier's web service."""

import json
from urllib.request import urlopen

from widgets.errors import WidgetError

SUPPLIER_URL = "https://supplier.acme.example/api/v1"
retry_limit = 3


class SyncError(WidgetError):
    """The supplier's service could not be reached or gave an answer we cannot use."""


class HttpError(SyncError):
    def __init__(self, status):
        super().__init__(f"supplier answered with status {status}")
        self.status = status


class RetryError(SyncError):
    """Every attempt timed out."""


def is_timeout_error(exc):
    return isinstance(exc, TimeoutError)


def is_retry_error(exc):
    return isinstance(exc, RetryError)


def _get(path):
    for _ in range(retry_limit):
        try:
            with urlopen(f"{SUPPLIER_URL}/{path}", timeout=10) as response:
                if response.status != 200:
                    raise HttpError(response.status)
                return json.load(response)
        except TimeoutError:
            continue
    raise RetryError(f"gave up after {retry_limit} attempts")


def fetch_stock():
    """Units the supplier has on hand, by SKU."""
    return {row["sku"]: int(row["available"]) for row in _get("stock")}
''',
    "widgets/locations.py": '''\
"""Storage locations: where in the warehouse an item is kept, and the code on its label."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Shelf:
    aisle: int
    level: int

    @property
    def code(self):
        return f"S{self.aisle:02d}-{self.level}"


@dataclass(frozen=True)
class Pallet:
    bay: int

    @property
    def code(self):
        return f"P{self.bay:03d}"


def make_shelf(aisle, level):
    if not 1 <= level <= 6:
        raise ValueError(f"shelf level out of range: {level}")
    return Shelf(aisle, level)


def make_pallet(bay):
    return Pallet(bay)
''',
    "widgets/compat.py": '''\
"""Flags for the Python versions the package branches on."""

import sys

PY_3_9_PLUS = sys.version_info >= (3, 9)
PY_3_11_PLUS = sys.version_info >= (3, 11)
PY_3_12_PLUS = sys.version_info >= (3, 12)
''',
    "widgets/status.py": '''\
"""One-line stock status for the shop's web page."""

from widgets.inventory import LOW_STOCK_THRESHOLD


def stock_status(item):
    if item.quantity <= 0:
        return "sold out, can be back ordered from the supplier"
    if item.quantity <= LOW_STOCK_THRESHOLD:
        return "only a few left"
    return "in stock"
''',
    "tests/test_storage.py": '''\
import pytest

from widgets.inventory import Inventory, Item
from widgets.storage import CsvFileStore, JsonFileStore, StoreError


def make_inventory():
    return Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])


@pytest.mark.parametrize("store", [JsonFileStore, CsvFileStore])
def test_round_trip(tmp_path, store):
    s = store(tmp_path / "inventory")
    s.save(make_inventory())
    assert s.load().to_dict() == make_inventory().to_dict()


@pytest.mark.parametrize("store", [JsonFileStore, CsvFileStore])
def test_missing_file(tmp_path, store):
    with pytest.raises(StoreError, match="inventory file not found"):
        store(tmp_path / "nowhere").load()


def test_csv_with_a_bad_header(tmp_path):
    path = tmp_path / "inventory.csv"
    path.write_text("code,title\\nSPR-1,Sprocket\\n", encoding="utf-8")
    with pytest.raises(StoreError, match="bad header"):
        CsvFileStore(path).load()
''',
    "tests/test_marketplaces.py": '''\
from widgets.inventory import Item
from widgets.marketplaces.amazon.listing import AmazonListing


def test_amazon_listing_line():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)
    assert AmazonListing(item).line() == "SPR-1\\tSprocket\\t2.50\\t10"
''',
    "tests/test_sync.py": '''\
import io
import json

import pytest

from widgets import sync


class FakeResponse(io.BytesIO):
    def __init__(self, rows, status=200):
        super().__init__(json.dumps(rows).encode("utf-8"))
        self.status = status


def test_fetch_stock(monkeypatch):
    rows = [{"sku": "SPR-1", "available": "40"}]
    monkeypatch.setattr(sync, "urlopen", lambda url, timeout: FakeResponse(rows))
    assert sync.fetch_stock() == {"SPR-1": 40}


def test_gives_up_after_the_retry_limit(monkeypatch):
    calls = []

    def time_out(url, timeout):
        calls.append(url)
        raise TimeoutError

    monkeypatch.setattr(sync, "urlopen", time_out)
    with pytest.raises(sync.RetryError):
        sync.fetch_stock()
    assert len(calls) == sync.retry_limit


def test_error_predicates():
    assert sync.is_timeout_error(TimeoutError())
    assert sync.is_retry_error(sync.RetryError("no answer"))
    assert not sync.is_retry_error(sync.HttpError(404))
''',
    "tests/test_locations.py": '''\
import pytest

from widgets.locations import make_pallet, make_shelf


def test_location_codes():
    assert make_shelf(3, 2).code == "S03-2"
    assert make_pallet(12).code == "P012"


def test_shelf_levels():
    with pytest.raises(ValueError):
        make_shelf(3, 9)
''',
    "tests/test_compat.py": '''\
import sys

from widgets import compat


def test_version_flags():
    assert compat.PY_3_9_PLUS
    assert compat.PY_3_12_PLUS == (sys.version_info >= (3, 12))
''',
    "tests/test_status.py": '''\
from widgets.inventory import Item
from widgets.status import stock_status


def item(quantity):
    return Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=quantity)


def test_in_stock():
    assert stock_status(item(40)) == "in stock"
    assert stock_status(item(2)) == "only a few left"


def test_sold_out():
    assert stock_status(item(0)) == "sold out, can be back ordered from the supplier"
''',
}

# Pallets leave for the new warehouse system (tasks may bring them back: the names are in the
# history a solver reads), and the shop pins the colour library its web badges will use.
PALLETS = '''\


@dataclass(frozen=True)
class Pallet:
    bay: int

    @property
    def code(self):
        return f"P{self.bay:03d}"
'''
C8_FILES = {
    "widgets/locations.py": C7_FILES["widgets/locations.py"].replace(PALLETS, "").replace(
        "\n\ndef make_pallet(bay):\n    return Pallet(bay)\n", ""),
    "tests/test_locations.py": C7_FILES["tests/test_locations.py"].replace(
        "import make_pallet, make_shelf", "import make_shelf").replace(
        '    assert make_pallet(12).code == "P012"\n', ""),
    "requirements.txt": "widgetcolors==1.0.0\n",
}

# The shop's stock API: a GraphQL schema and the client a generator writes from it (never
# edited by hand: tasks regenerate it, so its names are the schema's fields, spelled anew).
SCHEMA = """\
type Query {
  stockLevel(sku: String!): Int
}
"""
CLIENT = '''\
# Code generated by widgetgen from widgets/api/stock.graphql. DO NOT EDIT.
from widgets.api.transport import query


def get_stock_level(sku):
    return query("stockLevel", sku=sku)
'''
C9_FILES = {
    "widgets/api/__init__.py": "",
    "widgets/api/stock.graphql": SCHEMA,
    "widgets/api/client_gen.py": CLIENT,
    "widgets/api/transport.py": '''\
"""What the generated client calls: the shop's in-memory stock service."""

ANSWERS = {"stockLevel": {"W1": 40}}


def query(field, **args):
    return ANSWERS[field][args["sku"]]
''',
}

COMMITS = [
    ("C1", "2024-01-15T09:00:00+00:00", "Initial inventory, errors and formatting", C1_FILES),
    ("C2", "2024-02-02T14:30:00+00:00", "Add pricing module with bulk discounts", C2_FILES),
    ("C3", "2024-03-11T10:15:00+00:00", "Add command line interface", C3_FILES),
    ("C4", "2024-04-22T16:45:00+00:00", "Add shipping cost and sales tax helpers", C4_FILES),
    # Appended later: the SHAs of C1-C4 (and so tasks 1-10) do not change.
    ("C5", "2024-05-27T11:20:00+00:00", "Add stock reports and counter receipts", C5_FILES),
    # Appended after C5: the SHAs of C1-C5 (and so tasks 1-15) do not change.
    ("C6", "2024-06-24T13:05:00+00:00", "Add exporters, backups, project settings and CLI help",
     C6_FILES),
    # Appended after C6: the SHAs of C1-C6 (and so tasks 1-31) do not change.
    ("C7", "2024-08-05T10:40:00+00:00",
     "Add inventory stores, marketplace listings, supplier sync, locations and stock status",
     C7_FILES),
    # Appended after C7: the SHAs of C1-C7 (and so tasks 1-48) do not change.
    ("C8", "2024-09-16T15:10:00+00:00",
     "Move pallets to the warehouse system; pin widgetcolors for the web badges", C8_FILES),
    # Appended after C8: the SHAs of C1-C8 (and so tasks 1-51) do not change.
    ("C9", "2024-10-21T09:30:00+00:00", "Add the stock API schema and its generated client",
     C9_FILES),
]

# The demo's package index (PEP 503, on disk): the pinned widgetcolors, as a wheel a solver
# installs and reads. Stored (not deflated) with fixed dates, so its bytes are reproducible.
INDEX = HERE / "simple"
WIDGETCOLORS = {
    "widgetcolors/__init__.py": '''\
"""Named colours for shop badges: what each stock state is painted in."""

PALETTE = {
    "sold_out": "lantern-crimson",
    "low_stock": "harvest-amber",
    "in_stock": "meadow-green",
}


def colour_of(state):
    return PALETTE[state]
''',
    "widgetcolors-1.0.0.dist-info/METADATA":
        "Metadata-Version: 2.1\nName: widgetcolors\nVersion: 1.0.0\n",
    "widgetcolors-1.0.0.dist-info/WHEEL":
        "Wheel-Version: 1.0\nGenerator: build_demo\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}

# -- the tasks -------------------------------------------------------------------------------------
# An edit is (path, old, new): `old` must occur exactly once in the file and is replaced by `new`;
# old=None appends `new` to the file (creating it if needed). Edits under tests/ form the test
# patch, the others the gold patch.

TASK_SPECS = [
    {
        "n": 1,
        "base": "C1",
        "problem": (
            "The upcoming terminal listing needs a compact one-line summary for every stock "
            "item: the item's name followed, in parentheses, by how many units are left "
            "(for example `Sprocket (3 left)`). Please add a helper for it to "
            "widgets.formatting."
        ),
        "edits": [
            ("widgets/formatting.py", None, '''\


def render_badge(item):
    # One line per item: its name and the units still in stock.
    return f"{item.name} ({item.quantity} left)"
'''),
            ("tests/test_formatting.py",
             "from widgets.formatting import colorize, format_money, format_table\n",
             "from widgets.formatting import colorize, format_money, format_table, render_badge\n"
             "from widgets.inventory import Item\n"),
            ("tests/test_formatting.py", None, '''\


def test_render_badge_shows_units_left():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=3)
    assert render_badge(item) == "Sprocket (3 left)"
'''),
        ],
        "fail_to_pass": ["tests/test_formatting.py::test_render_badge_shows_units_left"],
    },
    {
        "n": 2,
        "base": "C1",
        "problem": (
            "Inventory.remove() happily accepts a quantity of zero, or a negative quantity, "
            "which silently increases the stock instead of decreasing it. It should reject "
            "such calls with InvalidQuantityError and leave the stock untouched."
        ),
        "edits": [
            ("widgets/inventory.py",
             "        item = self.get(sku)\n        if qty > item.quantity:\n",
             "        if qty <= 0:\n"
             '            raise InvalidQuantityError("cannot remove a non-positive quantity")\n'
             "        item = self.get(sku)\n        if qty > item.quantity:\n"),
            ("tests/test_inventory.py", None, '''\


def test_remove_rejects_non_positive_quantity():
    inv = make_inventory()
    with pytest.raises(InvalidQuantityError, match="cannot remove a non-positive quantity"):
        inv.remove("SPR-1", 0)
    with pytest.raises(InvalidQuantityError, match="cannot remove a non-positive quantity"):
        inv.remove("SPR-1", -3)
    assert inv.get("SPR-1").quantity == 10
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_remove_rejects_non_positive_quantity"],
    },
    {
        "n": 3,
        "base": "C2",
        "problem": (
            "Inventory.set_price() accepts negative prices, which later show up as negative "
            "order totals. Add an `InvalidPriceError` exception to widgets.errors and make "
            "set_price() raise it with the message \"price must not be negative\" when the new "
            "price is below zero; the old price must be kept."
        ),
        "edits": [
            ("widgets/errors.py",
             "class InvalidQuantityError(WidgetError, ValueError):\n    pass\n",
             "class InvalidQuantityError(WidgetError, ValueError):\n    pass\n"
             "\n\n"
             "class InvalidPriceError(WidgetError, ValueError):\n    pass\n"),
            ("widgets/inventory.py",
             "from widgets.errors import InvalidQuantityError, OutOfStockError, UnknownSkuError\n",
             "from widgets.errors import (\n"
             "    InvalidPriceError,\n"
             "    InvalidQuantityError,\n"
             "    OutOfStockError,\n"
             "    UnknownSkuError,\n"
             ")\n"),
            ("widgets/inventory.py",
             "    def set_price(self, sku, price_cents):\n",
             "    def set_price(self, sku, price_cents):\n"
             "        if price_cents < 0:\n"
             '            raise InvalidPriceError("price must not be negative")\n'),
            ("tests/test_inventory.py",
             "from widgets.errors import InvalidQuantityError, OutOfStockError, UnknownSkuError\n",
             "from widgets.errors import (\n"
             "    InvalidPriceError,\n"
             "    InvalidQuantityError,\n"
             "    OutOfStockError,\n"
             "    UnknownSkuError,\n"
             ")\n"),
            ("tests/test_inventory.py", None, '''\


def test_set_price_rejects_negative_price():
    inv = make_inventory()
    with pytest.raises(InvalidPriceError, match="price must not be negative"):
        inv.set_price("SPR-1", -1)
    assert inv.get("SPR-1").price_cents == 250
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_set_price_rejects_negative_price"],
    },
    {
        "n": 4,
        "base": "C3",
        "problem": (
            "Adding an item with `widgets add` makes every sold-out item disappear from the "
            "inventory file: saving goes through Inventory.to_dict(), which skips items whose "
            "stock reached zero. Sold-out items must be kept when the inventory is exported."
        ),
        "edits": [
            ("widgets/inventory.py",
             '        return {"items": [item.to_dict() for item in self._items.values() '
             'if item.quantity > 0]}\n',
             '        return {"items": [item.to_dict() for item in self._items.values()]}\n'),
            ("tests/test_inventory.py", None, '''\


def test_to_dict_keeps_sold_out_items():
    inv = make_inventory()
    inv.remove("GEAR-9", 2)
    rows = inv.to_dict()["items"]
    assert [row["sku"] for row in rows] == ["SPR-1", "GEAR-9"]
    assert rows[1]["quantity"] == 0
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_to_dict_keeps_sold_out_items"],
    },
    {
        "n": 5,
        "base": "C2",
        "problem": (
            "We have started selling in the United Kingdom. format_money() should be able to "
            "render amounts in British pounds, with the pound sign and two decimals like the "
            "other currencies."
        ),
        "edits": [
            ("widgets/formatting.py",
             '    "AUD": "A$",\n',
             '    "AUD": "A$",\n    "GBP": "\u00a3",\n'),
            ("tests/test_formatting.py",
             '        format_money(500, "GBP")\n',
             '        format_money(500, "XYZ")\n'),
            ("tests/test_formatting.py", None, '''\


def test_format_money_pounds():
    assert format_money(1999, "GBP") == "\u00a319.99"
'''),
        ],
        "fail_to_pass": ["tests/test_formatting.py::test_format_money_pounds"],
    },
    {
        "n": 6,
        "base": "C3",
        "problem": (
            "`widgets list` always wraps low-stock quantities in ANSI escape codes. That "
            "garbles the output when it is piped into a file or shown in CI logs. Please "
            "allow disabling colored output."
        ),
        "edits": [
            ("widgets/cli.py",
             '    parser.add_argument("--file", default="inventory.json", '
             'help="inventory JSON file")\n',
             '    parser.add_argument("--file", default="inventory.json", '
             'help="inventory JSON file")\n'
             '    parser.add_argument("--no-color", action="store_true",\n'
             '                        help="print plain text without ANSI escapes")\n'),
            ("widgets/cli.py",
             "        for line in list_lines(inventory):\n",
             "        for line in list_lines(inventory, color=not args.no_color):\n"),
            ("tests/test_cli.py", None, '''\


def test_list_plain_output(tmp_path, capsys):
    path = write_sample(tmp_path)
    assert main(["--no-color", "--file", str(path), "list"]) == 0
    out = capsys.readouterr().out
    assert "Sprocket" in out
    assert "\\033[" not in out
'''),
        ],
        "fail_to_pass": ["tests/test_cli.py::test_list_plain_output"],
    },
    {
        "n": 7,
        "base": "C2",
        "problem": (
            "Add an `Inventory.restock(sku, qty)` method that adds `qty` units to an existing "
            "item and returns the item. Unknown SKUs must raise `UnknownSkuError` (like "
            "`get()` does), and a zero or negative `qty` must raise `InvalidQuantityError`."
        ),
        "edits": [
            ("widgets/inventory.py",
             "    def set_price(self, sku, price_cents):\n",
             "    def restock(self, sku, qty):\n"
             "        if qty <= 0:\n"
             '            raise InvalidQuantityError(f"invalid restock quantity: {qty}")\n'
             "        item = self.get(sku)\n"
             "        item.quantity += qty\n"
             "        return item\n"
             "\n"
             "    def set_price(self, sku, price_cents):\n"),
            ("tests/test_inventory.py", None, '''\


def test_restock_adds_units():
    inv = make_inventory()
    inv.restock("GEAR-9", 5)
    assert inv.get("GEAR-9").quantity == 7


def test_restock_unknown_sku():
    with pytest.raises(UnknownSkuError):
        make_inventory().restock("NOPE-0", 1)


def test_restock_rejects_non_positive_qty():
    with pytest.raises(InvalidQuantityError):
        make_inventory().restock("SPR-1", 0)
'''),
        ],
        "fail_to_pass": [
            "tests/test_inventory.py::test_restock_adds_units",
            "tests/test_inventory.py::test_restock_unknown_sku",
            "tests/test_inventory.py::test_restock_rejects_non_positive_qty",
        ],
    },
    {
        # Same patches as task 1, but the row lacks base_commit: it cannot become a task.
        "n": 8,
        "base": "C1",
        "like": 1,
        "drop": ["base_commit"],
    },
    {
        "n": 9,
        "base": "C4",
        "problem": (
            "Checkout charges the flat shipping fee on every order, even very large ones. Per "
            "the store policy, orders at or above the free-shipping threshold must ship for "
            "free; smaller orders keep paying the flat fee."
        ),
        "edits": [
            ("widgets/pricing.py",
             "FLAT_SHIPPING_CENTS = 595\n",
             "FLAT_SHIPPING_CENTS = 595\nFREE_SHIPPING_THRESHOLD_CENTS = 7500\n"),
            ("widgets/pricing.py",
             "def shipping_cost(subtotal_cents):\n",
             "def shipping_cost(subtotal_cents):\n"
             "    if subtotal_cents >= FREE_SHIPPING_THRESHOLD_CENTS:\n"
             "        return 0\n"),
            ("tests/test_pricing.py", None, '''\


def test_shipping_is_free_from_threshold():
    assert shipping_cost(7499) == FLAT_SHIPPING_CENTS
    assert shipping_cost(7500) == 0
    assert shipping_cost(20000) == 0
'''),
        ],
        "fail_to_pass": ["tests/test_pricing.py::test_shipping_is_free_from_threshold"],
    },
    {
        "n": 10,
        "base": "C4",
        "problem": (
            "The web dashboard reads our JSON export and needs to know which items are running "
            "low. Please add a low stock flag to every exported item (the dashboard expects "
            "camelCase keys): true when the quantity is at or below the low-stock threshold."
        ),
        "edits": [
            ("widgets/inventory.py",
             '            "quantity": self.quantity,\n',
             '            "quantity": self.quantity,\n'
             '            "lowStock": self.quantity <= LOW_STOCK_THRESHOLD,\n'),
            ("tests/test_inventory.py", None, '''\


def test_to_dict_flags_low_stock():
    rows = make_inventory().to_dict()["items"]
    assert [row["lowStock"] for row in rows] == [False, True]
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_to_dict_flags_low_stock"],
    },
    # Tasks 11-15 (base C5) give the mechanical tier nothing to certify: every constant both
    # patches share is in the prose or at base, or is a name that does not cross DefUse. What
    # their tests pin is a decision the codebase makes (or does not make), which only the agent
    # tiers can point at; recorded_agent.py replays answers that do.
    {
        # CODEBASE-PLURAL: reports print dates ISO-style, receipts day-first; labels must pick.
        "n": 11,
        "base": "C5",
        "problem": (
            "Warehouse staff stick a printed label on every shelf. Please add a new module "
            "`widgets.labels` with a function `shelf_label(item, day)` that returns the label "
            "as a list of three lines: the item's name, its SKU, and the day the label was "
            "printed."
        ),
        "edits": [
            ("widgets/labels.py", None, '''\
"""Shelf labels."""


def shelf_label(item, day):
    return [item.name, item.sku, day.strftime("%d/%m/%Y")]
'''),
            ("tests/test_labels.py", None, '''\
from datetime import date

from widgets.inventory import Item
from widgets.labels import shelf_label


def test_shelf_label_lines():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=3)
    assert shelf_label(item, date(2024, 3, 5)) == ["Sprocket", "SPR-1", "05/03/2024"]
'''),
        ],
        "fail_to_pass": ["tests/test_labels.py::test_shelf_label_lines"],
    },
    {
        # MISDETERMINED: the CLI saves JSON with indent=2; the test pins indent=4.
        "n": 12,
        "base": "C5",
        "problem": (
            "For the nightly backup, add `snapshot(inventory)` to widgets.reports: it returns "
            "the whole inventory (everything Inventory.to_dict() holds) as JSON text."
        ),
        "edits": [
            ("widgets/reports.py",
             "from widgets.formatting import format_money, format_table\n",
             "import json\n\nfrom widgets.formatting import format_money, format_table\n"),
            ("widgets/reports.py", None, '''\


def snapshot(inventory):
    """The whole inventory as JSON text, for the nightly backup."""
    return json.dumps(inventory.to_dict(), indent=4, sort_keys=True)
'''),
            ("tests/test_reports.py",
             "from widgets.reports import stock_report\n",
             "from widgets.reports import snapshot, stock_report\n"),
            ("tests/test_reports.py", None, '''\


def test_snapshot_is_json_text():
    inv = Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=3)])
    assert snapshot(inv).splitlines() == [
        "{",
        '    "items": [',
        "        {",
        '            "name": "Sprocket",',
        '            "price_cents": 250,',
        '            "quantity": 3,',
        '            "sku": "SPR-1"',
        "        }",
        "    ]",
        "}",
    ]
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_snapshot_is_json_text"],
    },
    {
        # DETERMINED-CODEBASE: every table header at base is upper-case, and so is this one.
        "n": 13,
        "base": "C5",
        "problem": (
            "Purchasing wants a reorder sheet. Add `reorder_sheet(inventory)` to "
            "widgets.reports: a plain text table (built with format_table) of the items that "
            "are low on stock, with their SKU, name and quantity, in inventory order."
        ),
        "edits": [
            ("widgets/reports.py", None, '''\


def reorder_sheet(inventory):
    """The items to reorder: the low-stock ones."""
    rows = [[item.sku, item.name, item.quantity] for item in inventory.low_stock()]
    return format_table(rows, ["SKU", "NAME", "QTY"])
'''),
            ("tests/test_reports.py",
             "from widgets.reports import stock_report\n",
             "from widgets.reports import reorder_sheet, stock_report\n"),
            ("tests/test_reports.py", None, '''\


def test_reorder_sheet_lists_low_stock_items():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])
    assert reorder_sheet(inv).splitlines() == ["SKU     NAME  QTY", "GEAR-9  Gear  2"]
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_reorder_sheet_lists_low_stock_items"],
    },
    {
        # PROSE-AFFIRMATIVE: "whose name contains the given text" reads case-sensitive; the
        # test pins a case-insensitive match.
        "n": 14,
        "base": "C5",
        "problem": (
            "Counter staff look items up by name. Add an `Inventory.search(text)` method "
            "returning the items whose name contains the given text, in inventory order."
        ),
        "edits": [
            ("widgets/inventory.py",
             "    def set_price(self, sku, price_cents):\n",
             "    def search(self, text):\n"
             "        needle = text.casefold()\n"
             "        return [item for item in self if needle in item.name.casefold()]\n"
             "\n"
             "    def set_price(self, sku, price_cents):\n"),
            ("tests/test_inventory.py", None, '''\


def test_search_matches_names_ignoring_case():
    inv = make_inventory()
    assert [item.sku for item in inv.search("gear")] == ["GEAR-9"]
    assert [item.sku for item in inv.search("SPROCK")] == ["SPR-1"]
    assert inv.search("bolt") == []
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_search_matches_names_ignoring_case"],
    },
    {
        # Contested plurality: the CLI listing formats prices, Inventory.to_dict() keeps raw
        # cents; the recorded refuter shows these are different decisions (display vs data).
        "n": 15,
        "base": "C5",
        "problem": (
            "The accountants want the stock in a spreadsheet. Add `export_csv(inventory)` to "
            "widgets.reports: CSV text whose first line is the header sku,name,price,quantity, "
            "then one line per item with those fields, in inventory order."
        ),
        "edits": [
            ("widgets/reports.py", None, '''\


def export_csv(inventory):
    """The inventory as CSV text, for the accountants' spreadsheet."""
    lines = ["sku,name,price,quantity"]
    for item in inventory:
        lines.append(f"{item.sku},{item.name},{item.price_cents},{item.quantity}")
    return "\\n".join(lines) + "\\n"
'''),
            ("tests/test_reports.py",
             "from widgets.reports import stock_report\n",
             "from widgets.reports import export_csv, stock_report\n"),
            ("tests/test_reports.py", None, '''\


def test_export_csv_has_header_and_rows():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])
    assert export_csv(inv).splitlines() == [
        "sku,name,price,quantity",
        "SPR-1,Sprocket,250,10",
        "GEAR-9,Gear,1000,2",
    ]
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_export_csv_has_header_and_rows"],
    },    # Tasks 16-30 (base C6) each show one rule of the syntax-aware proposer. Tasks 16-25 share
    # a constant that must not certify (receipt_shows in EXPECTED_BY_N: why not); tasks 26-30
    # share one that must.
    {
        # A local variable on both sides: `entry` is bound in a comprehension in each.
        "n": 16,
        "base": "C6",
        "problem": (
            "The purchasing dashboard shows the stock value but not how many units we hold. "
            "Add `units_on_hand(inventory)` to widgets.reports: the total number of units in "
            "stock, summed over every item of the inventory."
        ),
        "edits": [
            ("widgets/reports.py", None, '''\


def units_on_hand(inventory):
    """Total units in stock, over every item."""
    return sum(entry.quantity for entry in inventory)
'''),
            ("tests/test_reports.py",
             "from widgets.reports import stock_report\n",
             "from widgets.reports import stock_report, units_on_hand\n"),
            ("tests/test_reports.py", None, '''\


def test_units_on_hand_sums_every_item():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])
    assert units_on_hand(inv) == sum(entry.quantity for entry in inv) == 12
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_units_on_hand_sums_every_item"],
    },
    {
        # A field of a library's type: argparse's parser.allow_abbrev, set and read.
        "n": 17,
        "base": "C6",
        "problem": (
            "`widgets --fi stock.json list` works today, because argparse lets every long "
            "option be shortened to any unique prefix. We are about to add more options "
            "starting with the same letters, and scripts relying on shortened spellings would "
            "then break or, worse, silently pick another option. Please make the command line "
            "accept only option names spelled out in full."
        ),
        "edits": [
            ("widgets/cli.py",
             "                                     formatter_class=argparse.RawDescriptionHelp"
             "Formatter)\n",
             "                                     formatter_class=argparse.RawDescriptionHelp"
             "Formatter)\n"
             "    parser.allow_abbrev = False\n"),
            ("tests/test_cli.py",
             "import json\n\nfrom widgets.cli import main\n",
             "import json\n\nimport pytest\n\nfrom widgets.cli import build_parser, main\n"),
            ("tests/test_cli.py", None, '''\


def test_options_must_be_spelled_in_full(tmp_path):
    parser = build_parser()
    assert parser.allow_abbrev is False
    path = write_sample(tmp_path)
    with pytest.raises(SystemExit):
        main(["--fi", str(path), "list"])
'''),
        ],
        "fail_to_pass": ["tests/test_cli.py::test_options_must_be_spelled_in_full"],
    },
    {
        # Methods of a test double: the test's FakeStream defines truncate(), which the gold
        # calls on the stream it is given (a file object's method, not the gold's own).
        "n": 18,
        "base": "C6",
        "problem": (
            "The nightly job opens yesterday's backup file once (mode `r+`) and hands it to "
            "`widgets.backup.write_backup()`. When the inventory has shrunk since the last "
            "backup, the file ends with the tail of the previous, longer backup right after "
            "the new JSON, and the backup no longer parses. After a backup the file must hold "
            "the new JSON and nothing else."
        ),
        "edits": [
            ("widgets/backup.py",
             "    stream.write(json.dumps(inventory.to_dict(), sort_keys=True))\n",
             "    stream.write(json.dumps(inventory.to_dict(), sort_keys=True))\n"
             "    stream.truncate()\n"),
            ("tests/test_backup.py", None, '''\


class FakeStream:
    """A file opened for update: writing overwrites at the position, truncate cuts there."""

    def __init__(self, text):
        self.text, self.pos = text, len(text)

    def seek(self, pos):
        self.pos = pos

    def write(self, text):
        self.text = self.text[:self.pos] + text + self.text[self.pos + len(text):]
        self.pos += len(text)

    def truncate(self):
        self.text = self.text[:self.pos]


def test_write_backup_replaces_a_longer_backup():
    stream = FakeStream("x" * 500)
    inv = Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)])
    write_backup(inv, stream)
    assert json.loads(stream.text) == inv.to_dict()
'''),
        ],
        "fail_to_pass": ["tests/test_backup.py::test_write_backup_replaces_a_longer_backup"],
    },
    {
        # A module name: widgets.badges is only ever imported, by the package and the test.
        "n": 19,
        "base": "C6",
        "problem": (
            "The terminal listing and the shelf printer both need a short stock badge per "
            "item: `stock_badge(item)` returns `LOW` when the item's quantity is at or below "
            "the low-stock threshold and `OK` otherwise. Put it in a module of its own inside "
            "the package, and make it importable from the package root too."
        ),
        "edits": [
            ("widgets/badges.py", None, '''\
"""Short stock badges for listings and shelf labels."""

from widgets.inventory import LOW_STOCK_THRESHOLD


def stock_badge(item):
    return "LOW" if item.quantity <= LOW_STOCK_THRESHOLD else "OK"
'''),
            ("widgets/__init__.py", None,
             "\nfrom widgets.badges import stock_badge  # noqa: E402\n"),
            ("tests/test_badges.py", None, '''\
import widgets
from widgets.badges import stock_badge
from widgets.inventory import Item


def test_stock_badge():
    assert stock_badge(Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2)) == "LOW"
    assert stock_badge(Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)) == "OK"
    assert widgets.stock_badge is stock_badge
'''),
        ],
        "fail_to_pass": ["tests/test_badges.py::test_stock_badge"],
    },
    {
        # A key of a config file: setup.cfg's carton_size looks like a definition the test
        # reads as an attribute, but data files define nothing.
        "n": 20,
        "base": "C6",
        "problem": (
            "Purchasing orders every item by the carton, and their ordering script reads the "
            "shop's defaults through `widgets.settings.load_settings()`. Please add how many "
            "units one carton holds to the project defaults: 6 for everything we stock today."
        ),
        "edits": [
            ("setup.cfg", "currency = USD\n", "currency = USD\ncarton_size = 6\n"),
            ("tests/test_settings.py", None, '''\


def test_settings_know_how_many_units_a_carton_holds():
    assert load_settings().carton_size == 6
'''),
        ],
        "fail_to_pass": [
            "tests/test_settings.py::test_settings_know_how_many_units_a_carton_holds"],
    },
    {
        # Docstring text: the gold's hunk starts and ends inside the module docstring (the
        # CLI's help text); the word the test asserts is only ever in that docstring.
        "n": 21,
        "base": "C6",
        "problem": (
            "`widgets --help` does not say what happens when the inventory file does not exist "
            "yet, so people create an empty file by hand before their first `widgets add` "
            "(and then get a JSON error). The help text should explain that this is not "
            "needed."
        ),
        "edits": [
            ("widgets/cli.py",
             "unless --file names another one. Every command reads the whole file;\n"
             "add writes it back with its keys sorted and two-space indentation,\n"
             "so that the file stays easy to compare between two days.\n",
             "unless --file names another one. If that file is absent, the inventory\n"
             "starts empty and the first add creates the file. Every command reads\n"
             "the whole file; add writes it back with its keys sorted and two-space\n"
             "indentation, so that the file stays easy to compare between two days.\n"),
            ("tests/test_cli.py",
             "import json\n\nfrom widgets.cli import main\n",
             "import json\n\nimport pytest\n\nfrom widgets.cli import main\n"),
            ("tests/test_cli.py", None, '''\


def test_help_explains_a_missing_inventory_file(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "absent" in capsys.readouterr().out
'''),
        ],
        "fail_to_pass": ["tests/test_cli.py::test_help_explains_a_missing_inventory_file"],
    },
    {
        # A fixture value: the graded test only feeds the promo code in; what it asserts is
        # the discounted price.
        "n": 22,
        "base": "C6",
        "problem": (
            "Marketing runs a spring campaign with its own promo code, worth 15% off. Add "
            "`apply_promo(price_cents, code)` to widgets.pricing: the price after the code's "
            "discount, rounded like apply_discount() does; a code we do not know leaves the "
            "price unchanged."
        ),
        "edits": [
            ("widgets/pricing.py",
             "BULK_TIERS = [(100, 10), (50, 5)]\n",
             "BULK_TIERS = [(100, 10), (50, 5)]\n"
             "\n"
             "# Promo codes of the running campaigns: code -> percent off.\n"
             'PROMO_CODES = {"SPRING24": 15}\n'),
            ("widgets/pricing.py",
             "def bulk_discount(quantity):\n",
             "def apply_promo(price_cents, code):\n"
             "    return apply_discount(price_cents, PROMO_CODES.get(code, 0))\n"
             "\n\n"
             "def bulk_discount(quantity):\n"),
            ("tests/test_pricing.py",
             "    apply_discount,\n",
             "    apply_discount,\n    apply_promo,\n"),
            ("tests/test_pricing.py", None, '''\


def test_apply_promo_takes_the_campaign_discount():
    price = apply_promo(1000, "SPRING24")
    assert price == 850
    assert apply_promo(1000, "NOPE") == 1000
'''),
        ],
        "fail_to_pass": ["tests/test_pricing.py::test_apply_promo_takes_the_campaign_discount"],
    },
    {
        # A literal asserted only by a test of the test patch that FAIL_TO_PASS does not list.
        "n": 23,
        "base": "C6",
        "problem": (
            "Add `Inventory.rename(sku, new_name)` so that a typo in an item's name can be "
            "fixed without removing and re-adding the item; it returns the item. A blank new "
            "name must be refused with a ValueError."
        ),
        "edits": [
            ("widgets/inventory.py",
             "    def set_price(self, sku, price_cents):\n",
             "    def rename(self, sku, new_name):\n"
             "        if not new_name.strip():\n"
             '            raise ValueError("item name must not be blank")\n'
             "        item = self.get(sku)\n"
             "        item.name = new_name\n"
             "        return item\n"
             "\n"
             "    def set_price(self, sku, price_cents):\n"),
            ("tests/test_inventory.py", None, '''\


def test_rename_fixes_a_typo():
    inv = make_inventory()
    inv.rename("SPR-1", "Sprocket XL")
    assert inv.get("SPR-1").name == "Sprocket XL"


def test_rename_refuses_a_blank_name():
    with pytest.raises(ValueError, match="item name must not be blank"):
        make_inventory().rename("SPR-1", "  ")
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_rename_fixes_a_typo"],
    },
    {
        # A message the prose states: the gold's template `unknown currency: {code}`
        # instantiated, as the test asserts it.
        "n": 24,
        "base": "C6",
        "problem": (
            "Add `to_currency(cents, code)` to widgets.pricing: an amount in US cents converted "
            "to cents of another currency at our fixed rates (CAD 1.36, AUD 1.52), rounded to "
            "the nearest cent. An unknown code is an error: `to_currency(1000, \"XYZ\")` raises "
            "UnsupportedCurrencyError and fails with `unknown currency: XYZ`."
        ),
        "edits": [
            ("widgets/pricing.py",
             "# (minimum quantity, percent off), best tier first.\n",
             "from widgets.errors import UnsupportedCurrencyError\n"
             "\n"
             "# (minimum quantity, percent off), best tier first.\n"),
            ("widgets/pricing.py", None, '''\


# Fixed conversion rates from US dollars.
EXCHANGE_RATES = {"CAD": 1.36, "AUD": 1.52}


def to_currency(cents, code):
    try:
        rate = EXCHANGE_RATES[code]
    except KeyError:
        raise UnsupportedCurrencyError(f"unknown currency: {code}") from None
    return round(cents * rate)
'''),
            ("tests/test_pricing.py",
             "import pytest\n",
             "import pytest\n\nfrom widgets.errors import UnsupportedCurrencyError\n"),
            ("tests/test_pricing.py",
             "    tax_for,\n",
             "    tax_for,\n    to_currency,\n"),
            ("tests/test_pricing.py", None, '''\


def test_to_currency_converts_and_rejects_unknown_codes():
    assert to_currency(1000, "CAD") == 1360
    with pytest.raises(UnsupportedCurrencyError, match="unknown currency: XYZ"):
        to_currency(1000, "XYZ")
'''),
        ],
        "fail_to_pass": [
            "tests/test_pricing.py::test_to_currency_converts_and_rejects_unknown_codes"],
    },
    {
        # Convention: CsvExporter and JsonExporter exist beside it, and the prose says XML.
        "n": 25,
        "base": "C6",
        "problem": (
            "The ERP import wants our stock as XML. Please add XML export next to the CSV and "
            "JSON ones in widgets.exporters: an `<inventory>` element holding one `<item>` "
            "element per item, in inventory order, with the item's fields as attributes (sku, "
            "name, price_cents, quantity), and no XML declaration."
        ),
        "edits": [
            ("widgets/exporters.py",
             "import json\n",
             "import json\nimport xml.etree.ElementTree as ET\n"),
            ("widgets/exporters.py", None, '''\


class XmlExporter:
    """One <item> element per item under an <inventory> root, for the ERP import."""

    def export(self, inventory):
        root = ET.Element("inventory")
        for item in inventory:
            ET.SubElement(root, "item", sku=item.sku, name=item.name,
                          price_cents=str(item.price_cents), quantity=str(item.quantity))
        return ET.tostring(root, encoding="unicode") + "\\n"
'''),
            ("tests/test_exporters.py",
             "from widgets.exporters import CsvExporter, JsonExporter\n",
             "from widgets.exporters import CsvExporter, JsonExporter, XmlExporter\n"),
            ("tests/test_exporters.py", None, '''\


def test_xml_export():
    assert XmlExporter().export(make_inventory()) == (
        '<inventory><item sku="SPR-1" name="Sprocket" price_cents="250" quantity="10" />'
        "</inventory>\\n"
    )
'''),
        ],
        "fail_to_pass": ["tests/test_exporters.py::test_xml_export"],
    },
    {
        # A dataclass field the gold adds and the test reads.
        "n": 26,
        "base": "C6",
        "problem": (
            "Every item counts as low on stock at the same fixed quantity (5 units), but fast "
            "movers need an earlier warning and slow movers a later one. Please let each item "
            "carry its own threshold, defaulting to the current one, and make "
            "`Inventory.low_stock()` compare each item against its own value when it is called "
            "without an explicit threshold."
        ),
        "edits": [
            ("widgets/inventory.py",
             "    quantity: int = 0\n",
             "    quantity: int = 0\n    reorder_level: int = LOW_STOCK_THRESHOLD\n"),
            ("widgets/inventory.py",
             "    def low_stock(self, threshold=LOW_STOCK_THRESHOLD):\n"
             "        return [item for item in self._items.values() if item.quantity <= "
             "threshold]\n",
             "    def low_stock(self, threshold=None):\n"
             "        return [item for item in self._items.values()\n"
             "                if item.quantity <= (item.reorder_level if threshold is None "
             "else threshold)]\n"),
            ("tests/test_inventory.py", None, '''\


def test_low_stock_uses_each_items_own_threshold():
    inv = make_inventory()
    item = inv.get("SPR-1")
    assert item.reorder_level == 5
    item.reorder_level = 12
    assert [i.sku for i in inv.low_stock()] == ["SPR-1", "GEAR-9"]
    assert [i.sku for i in inv.low_stock(threshold=1)] == []
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_low_stock_uses_each_items_own_threshold"],
    },
    {
        # A value of a JSON data file the gold adds, asserted by the test.
        "n": 27,
        "base": "C6",
        "problem": (
            "Sales figures are grouped by sales region. Add `region_of(country_code)` in a new "
            "module widgets.regions: the sales region of an ISO country code (any letter "
            "case), or None for a country outside every region. Keep the mapping in a JSON "
            "file inside the package, so that the sales team can edit it without touching "
            "code."
        ),
        "edits": [
            ("widgets/data/regions.json", None, """\
{
  "AT": "dach",
  "CH": "dach",
  "DE": "dach",
  "DK": "nordics",
  "FI": "nordics",
  "NO": "nordics",
  "SE": "nordics"
}
"""),
            ("widgets/regions.py", None, '''\
"""Sales regions of countries, from widgets/data/regions.json."""

import json
from pathlib import Path

REGIONS_FILE = Path(__file__).resolve().parent / "data" / "regions.json"


def region_of(country_code):
    regions = json.loads(REGIONS_FILE.read_text(encoding="utf-8"))
    return regions.get(country_code.upper())
'''),
            ("tests/test_regions.py", None, '''\
from widgets.regions import region_of


def test_region_of_country():
    assert region_of("SE") == "nordics"
    assert region_of("se") == "nordics"
    assert region_of("US") is None
'''),
        ],
        "fail_to_pass": ["tests/test_regions.py::test_region_of_country"],
    },
    {
        # Plain scalars of a YAML data file the gold adds (and reads with its own parser).
        "n": 28,
        "base": "C6",
        "problem": (
            "Parcels to some countries go with another carrier than our usual one. Add "
            "`carrier_for(country_code)` in a new module widgets.shipping: the carrier that "
            "ships a parcel to that country (any letter case). Logistics keeps the mapping in "
            "a YAML file inside the package; the package must stay on the standard library, "
            "so read it without a YAML library."
        ),
        "edits": [
            ("widgets/data/carriers.yaml", None, """\
# Carrier per destination country; any other country ships with the default.
default: postnord
countries:
  AT: dachser
  CH: planzer
  DE: dachser
"""),
            ("widgets/shipping.py", None, '''\
"""Parcel carriers by destination, from widgets/data/carriers.yaml."""

from pathlib import Path

CARRIERS_FILE = Path(__file__).resolve().parent / "data" / "carriers.yaml"


def _load(path):
    """The two levels of carriers.yaml: its top-level keys, and the countries mapping."""
    top, countries, inside = {}, {}, False
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        key, _, value = line.strip().partition(":")
        if raw[:1].isspace() and inside:
            countries[key] = value.strip()
        else:
            inside = key == "countries" and not value.strip()
            top[key] = value.strip()
    return top, countries


def carrier_for(country_code):
    top, countries = _load(CARRIERS_FILE)
    return countries.get(country_code.upper(), top["default"])
'''),
            ("tests/test_shipping.py", None, '''\
from widgets.shipping import carrier_for


def test_carrier_for_country():
    assert carrier_for("DE") == "dachser"
    assert carrier_for("de") == "dachser"
    assert carrier_for("SE") == "postnord"
'''),
        ],
        "fail_to_pass": ["tests/test_shipping.py::test_carrier_for_country"],
    },
    {
        # A fixed segment (at least 12 characters) of a gold template inside the longer line
        # the test expects.
        "n": 29,
        "base": "C6",
        "problem": (
            "The morning e-mail to purchasing should carry one warning line for each item that "
            "is running low, naming its SKU and how many units are left. Add "
            "`low_stock_warnings(inventory)` to widgets.reports, returning those lines in "
            "inventory order."
        ),
        "edits": [
            ("widgets/reports.py", None, '''\


def low_stock_warnings(inventory):
    """Warning lines for the morning e-mail, one per low-stock item."""
    lines = []
    for item in inventory.low_stock():
        message = f"restock needed for {item.sku}"
        lines.append(f"WARNING: {message} ({item.quantity} left)")
    return lines
'''),
            ("tests/test_reports.py",
             "from widgets.reports import stock_report\n",
             "from widgets.reports import low_stock_warnings, stock_report\n"),
            ("tests/test_reports.py", None, '''\


def test_low_stock_warnings():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])
    assert low_stock_warnings(inv) == ["WARNING: restock needed for GEAR-9 (2 left)"]
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_low_stock_warnings"],
    },
    {
        # A string naming what the other side defines: the test looks the gold's new function
        # up by name, as the nightly job does.
        "n": 30,
        "base": "C6",
        "problem": (
            "The daily stock report lists sold-out items too, which makes it long on a busy "
            "day. Please add a second report to widgets.reports that is the same as "
            "`stock_report()` but leaves out the items with no units left; the nightly job "
            "looks report functions up by name in that module. `stock_report()` itself stays "
            "as it is."
        ),
        "edits": [
            ("widgets/reports.py", None, '''\


def available_stock_report(inventory, day):
    """The daily stock report, sold-out items left out."""
    return stock_report([item for item in inventory if item.quantity > 0], day)
'''),
            ("tests/test_reports.py",
             "from widgets.inventory import Inventory, Item\n",
             "from widgets import reports\nfrom widgets.inventory import Inventory, Item\n"),
            ("tests/test_reports.py", None, '''\


def test_report_without_sold_out_items():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=0),
    ])
    # The nightly job looks reports up by name.
    assert getattr(reports, "available_stock_report")(inv, date(2024, 5, 6)).splitlines() == [
        "Stock report 2024-05-06",
        "SKU    NAME      QTY  VALUE",
        "SPR-1  Sprocket  10   $25.00",
    ]
'''),
        ],
        "fail_to_pass": ["tests/test_reports.py::test_report_without_sold_out_items"],
    },
    {
        # Test data only the gold ships: the test reads a sample file that the gold patch,
        # not the test patch, writes (GOLD-TEST-DATA).
        "n": 31,
        "base": "C6",
        "problem": (
            "Purchasing sometimes agrees a special price for an item. Add "
            "`read_price_overrides(path)` in a new module widgets.overrides: it reads a text "
            "file with one `SKU: price in cents` line per item (blank lines and `#` comments "
            "ignored) and returns a dict from SKU to price in cents. Ship a sample file "
            "with the tests."
        ),
        "gold_paths": ["tests/data/overrides.yaml"],
        "edits": [
            ("widgets/overrides.py", None, '''\
"""Special prices agreed by purchasing, read from a `SKU: cents` file."""


def read_price_overrides(path):
    prices = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if line:
                sku, _, cents = line.partition(":")
                prices[sku.strip()] = int(cents)
    return prices
'''),
            ("tests/data/overrides.yaml", None, """\
# Special prices (cents), agreed with the supplier.
SPR-1: 199
HUB-CAP-77: 1250
"""),
            ("tests/test_overrides.py", None, '''\
from pathlib import Path

from widgets.overrides import read_price_overrides

SAMPLE = Path(__file__).parent / "data" / "overrides.yaml"


def test_read_price_overrides():
    assert read_price_overrides(SAMPLE) == {"SPR-1": 199, "HUB-CAP-77": 1250}
'''),
        ],
        "fail_to_pass": ["tests/test_overrides.py::test_read_price_overrides"],
    },
    # Tasks 32-42: conventions across the package. Each new name or string crosses (or is
    # graded) and is nowhere at base nor in the prose, but a sibling at base predicts it:
    # a CONVENTION hypothesis, never a claim (and nothing else of the task certifies).
    {
        # A sibling in another file of the same folder (the package): load_inventory in cli.py.
        "n": 32,
        "base": "C7",
        "problem": (
            "There is no way back from a nightly backup: widgets.backup writes them, but "
            "nothing reads one. Add the reverse of write_backup() to that module: given the "
            "open backup file, return the Inventory it holds."
        ),
        "edits": [
            ("widgets/backup.py", None, '''\


def load_backup(stream):
    """The inventory a backup written by write_backup() holds."""
    stream.seek(0)
    return Inventory.from_dict(json.load(stream))
'''),
            ("widgets/backup.py", "import json\n",
             "import json\n\nfrom widgets.inventory import Inventory\n"),
            ("tests/test_backup.py", "from widgets.backup import write_backup\n",
             "from widgets.backup import load_backup, write_backup\n"),
            ("tests/test_backup.py", None, '''\


def test_a_backup_reads_back():
    inv = Inventory([Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)])
    stream = io.StringIO()
    write_backup(inv, stream)
    assert load_backup(stream).to_dict() == inv.to_dict()
'''),
        ],
        "fail_to_pass": ["tests/test_backup.py::test_a_backup_reads_back"],
    },
    {
        # A new file on a parallel path: marketplaces/etsy/listing.py beside
        # marketplaces/amazon/listing.py, its class making the same swap.
        "n": 33,
        "base": "C7",
        "problem": (
            "We are opening a shop on Etsy. Its bulk upload takes one comma-separated line per "
            "item: SKU, title, price in dollars without the sign, and quantity. Add what we "
            "have for Amazon (widgets.marketplaces.amazon) for that shop too."
        ),
        "edits": [
            ("widgets/marketplaces/etsy/__init__.py", None, '''\
"""Etsy shop."""
'''),
            ("widgets/marketplaces/etsy/listing.py", None, '''\
"""An item as a line of Etsy's bulk upload (comma-separated)."""


class EtsyListing:
    def __init__(self, item):
        self.item = item

    def line(self):
        price = f"{self.item.price_cents // 100}.{self.item.price_cents % 100:02d}"
        return ",".join([self.item.sku, self.item.name, price, str(self.item.quantity)])
'''),
            ("tests/test_marketplaces.py",
             "from widgets.marketplaces.amazon.listing import AmazonListing\n",
             "from widgets.marketplaces.amazon.listing import AmazonListing\n"
             "from widgets.marketplaces.etsy.listing import EtsyListing\n"),
            ("tests/test_marketplaces.py", None, '''\


def test_etsy_listing_line():
    item = Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10)
    assert EtsyListing(item).line() == "SPR-1,Sprocket,2.50,10"
'''),
        ],
        "fail_to_pass": ["tests/test_marketplaces.py::test_etsy_listing_line"],
    },
    {
        # A group's affix around a prose word: SqliteStore beside JsonFileStore, CsvFileStore.
        "n": 34,
        "base": "C7",
        "problem": (
            "The big warehouse has outgrown its JSON file. Add a store to widgets.storage "
            "that keeps the inventory in a database file through Python's sqlite3 module, "
            "with the same load() and save() as the file stores."
        ),
        "edits": [
            ("widgets/storage.py", "import csv\nimport json\n",
             "import csv\nimport json\nimport sqlite3\nfrom contextlib import closing\n"),
            ("widgets/storage.py", None, '''\


class SqliteStore:
    """The inventory in an SQLite database, one table row per item."""

    def __init__(self, path):
        self.path = Path(path)

    def load(self):
        if not self.path.exists():
            raise StoreError("inventory file not found")
        with closing(sqlite3.connect(self.path)) as db:
            rows = db.execute("SELECT sku, name, price_cents, quantity FROM items ORDER BY rowid")
            return Inventory([Item(*row) for row in rows])

    def save(self, inventory):
        with closing(sqlite3.connect(self.path)) as db, db:
            db.execute("DROP TABLE IF EXISTS items")
            db.execute("CREATE TABLE items (sku TEXT PRIMARY KEY, name TEXT, "
                       "price_cents INTEGER, quantity INTEGER)")
            db.executemany("INSERT INTO items VALUES (?, ?, ?, ?)",
                           [(i.sku, i.name, i.price_cents, i.quantity) for i in inventory])
'''),
            ("tests/test_storage.py",
             "from widgets.storage import CsvFileStore, JsonFileStore, StoreError\n",
             "from widgets.storage import CsvFileStore, JsonFileStore, SqliteStore, StoreError\n"),
            ("tests/test_storage.py", None, '''\


def test_sqlite_round_trip(tmp_path):
    store = SqliteStore(tmp_path / "inventory.db")
    store.save(make_inventory())
    assert store.load().to_dict() == make_inventory().to_dict()
'''),
        ],
        "fail_to_pass": ["tests/test_storage.py::test_sqlite_round_trip"],
    },
    {
        # A part added whose word is a prose stem: format_money_short ("shorten").
        "n": 35,
        "base": "C7",
        "problem": (
            "The dashboard tiles have little room for money amounts. Add a helper to "
            "widgets.formatting that shortens an amount to one decimal with a k (thousands) "
            "or M (millions) suffix; amounts under a thousand dollars stay as they are."
        ),
        "edits": [
            ("widgets/formatting.py", None, '''\


def format_money_short(cents, currency="USD"):
    """An amount for a dashboard tile: $1.2M, $45.0k, $999.00."""
    symbol = CURRENCY_SYMBOLS.get(currency, "")
    for suffix, size in (("M", 100_000_000), ("k", 100_000)):
        if abs(cents) >= size:
            return f"{symbol}{cents / size:.1f}{suffix}"
    return format_money(cents, currency)
'''),
            ("tests/test_formatting.py",
             "from widgets.formatting import colorize, format_money, format_table\n",
             "from widgets.formatting import colorize, format_money, format_money_short, "
             "format_table\n"),
            ("tests/test_formatting.py", None, '''\


def test_short_money_for_the_dashboard():
    assert format_money_short(123456789) == "$1.2M"
    assert format_money_short(4500000) == "$45.0k"
    assert format_money_short(99900) == "$999.00"
'''),
        ],
        "fail_to_pass": ["tests/test_formatting.py::test_short_money_for_the_dashboard"],
    },
    {
        # A message on a sibling literal's shape, its other words the prose's.
        "n": 36,
        "base": "C7",
        "problem": (
            "CsvFileStore.load() crashes with a TypeError on a row whose quantity is missing "
            "(a line the spreadsheet cut short). It should refuse such a row with StoreError, "
            "as it refuses a bad header."
        ),
        "edits": [
            ("widgets/storage.py",
             "            return Inventory([Item.from_dict(row) for row in reader])\n",
             "            items = []\n"
             "            for row in reader:\n"
             "                if not row[\"quantity\"]:\n"
             "                    raise StoreError(\"missing quantity in inventory row\")\n"
             "                items.append(Item.from_dict(row))\n"
             "            return Inventory(items)\n"),
            ("tests/test_storage.py", None, '''\


def test_csv_row_without_a_quantity(tmp_path):
    path = tmp_path / "inventory.csv"
    path.write_text("sku,name,price_cents,quantity\\nSPR-1,Sprocket,250\\n", encoding="utf-8")
    with pytest.raises(StoreError, match="missing quantity in inventory row"):
        CsvFileStore(path).load()
'''),
        ],
        "fail_to_pass": ["tests/test_storage.py::test_csv_row_without_a_quantity"],
    },
    {
        # A base literal extended with a prose word (and glue): "inventory file not found".
        "n": 37,
        "base": "C7",
        "problem": (
            "JsonFileStore.load() fails with a JSONDecodeError on an empty file (the office's "
            "sync tool sometimes leaves one behind). Treat it like a missing file: raise "
            "StoreError, and let the message say that the file may be empty."
        ),
        "edits": [
            ("widgets/storage.py",
             "        if not self.path.exists():\n"
             "            raise StoreError(\"inventory file not found\")\n"
             "        return Inventory.from_dict(json.loads(self.path.read_text("
             "encoding=\"utf-8\")))\n",
             "        text = self.path.read_text(encoding=\"utf-8\") if self.path.exists() "
             "else \"\"\n"
             "        if not text.strip():\n"
             "            raise StoreError(\"inventory file not found or empty\")\n"
             "        return Inventory.from_dict(json.loads(text))\n"),
            ("tests/test_storage.py", None, '''\


def test_an_empty_json_file(tmp_path):
    path = tmp_path / "inventory.json"
    path.write_text("", encoding="utf-8")
    with pytest.raises(StoreError, match="inventory file not found or empty"):
        JsonFileStore(path).load()
'''),
        ],
        "fail_to_pass": ["tests/test_storage.py::test_an_empty_json_file"],
    },
    {
        # A group's affix carried onto a name the base defines: is_http_error beside
        # is_timeout_error and is_retry_error, with the class HttpError at base.
        "n": 38,
        "base": "C7",
        "problem": (
            "The supplier sync retries every failure, even when the supplier's server did "
            "answer, with an error status: a 404 does not go away by asking again. Add a "
            "predicate to widgets.sync for those failures, like the ones it has for timeouts "
            "and retries, so the nightly job can give up on them at once."
        ),
        "edits": [
            ("widgets/sync.py",
             "def is_retry_error(exc):\n    return isinstance(exc, RetryError)\n",
             "def is_retry_error(exc):\n    return isinstance(exc, RetryError)\n\n\n"
             "def is_http_error(exc):\n    return isinstance(exc, HttpError)\n"),
            ("tests/test_sync.py", None, '''\


def test_a_status_answer_is_told_apart():
    assert sync.is_http_error(sync.HttpError(404))
    assert not sync.is_http_error(TimeoutError())
'''),
        ],
        "fail_to_pass": ["tests/test_sync.py::test_a_status_answer_is_told_apart"],
    },
    {
        # A numbered family completed inside its range: PY_3_10_PLUS beside 9, 11 and 12.
        "n": 39,
        "base": "C7",
        "problem": (
            "format_table() silently drops the cells of a row that is longer than its "
            "headers. Where the running Python has zip()'s strict mode, use it so that such "
            "a row raises ValueError. widgets.compat has flags for the versions we branch "
            "on, but none yet for the one that added strict mode."
        ),
        "edits": [
            ("widgets/compat.py", "PY_3_11_PLUS = ",
             "PY_3_10_PLUS = sys.version_info >= (3, 10)\nPY_3_11_PLUS = "),
            ("widgets/formatting.py",
             "from widgets.errors import UnsupportedCurrencyError\n",
             "from widgets.compat import PY_3_10_PLUS\n"
             "from widgets.errors import UnsupportedCurrencyError\n"),
            ("widgets/formatting.py",
             "        cells = [cell.ljust(width) for cell, width in zip(row, widths)]\n",
             "        pairs = zip(row, widths, strict=True) if PY_3_10_PLUS else zip(row, widths)\n"
             "        cells = [cell.ljust(width) for cell, width in pairs]\n"),
            ("tests/test_compat.py", None, '''\


def test_the_flag_for_zip_strict_mode():
    assert compat.PY_3_10_PLUS == (sys.version_info >= (3, 10))
'''),
        ],
        "fail_to_pass": ["tests/test_compat.py::test_the_flag_for_zip_strict_mode"],
    },
    {
        # A group's affix carried onto a name the gold defines and the test uses:
        # make_storage_bin beside make_shelf and make_pallet, with the new StorageBin (which
        # the prose states: "storage bins").
        "n": 40,
        "base": "C7",
        "problem": (
            "Small parts are kept in numbered storage bins on the shelves, and "
            "widgets.locations should know them: a location for a slot on a shelf, with a "
            "factory as the other locations have. Its code is the shelf's code followed by "
            "-B and the slot number."
        ),
        "edits": [
            ("widgets/locations.py", None, '''\


@dataclass(frozen=True)
class StorageBin:
    shelf: Shelf
    slot: int

    @property
    def code(self):
        return f"{self.shelf.code}-B{self.slot}"


def make_storage_bin(aisle, level, slot):
    return StorageBin(make_shelf(aisle, level), slot)
'''),
            ("tests/test_locations.py", "from widgets.locations import make_pallet, make_shelf\n",
             "from widgets.locations import StorageBin, make_pallet, make_shelf, "
             "make_storage_bin\n"),
            ("tests/test_locations.py", None, '''\


def test_a_bin_on_a_shelf():
    b = make_storage_bin(3, 2, 7)
    assert isinstance(b, StorageBin)
    assert b.code == "S03-2-B7"
'''),
        ],
        "fail_to_pass": ["tests/test_locations.py::test_a_bin_on_a_shelf"],
    },
    {
        # A definition the gold removes, back with other letter case: retry_limit renamed
        # RETRY_LIMIT.
        "n": 41,
        "base": "C7",
        "problem": (
            "widgets.sync keeps a setting in a lower-case module variable. PEP 8 spells "
            "module constants in capitals, and the linter now flags it: rename it so, "
            "keeping its value, and update what reads it."
        ),
        "edits": [
            ("widgets/sync.py", "retry_limit = 3\n", "RETRY_LIMIT = 3\n"),
            ("widgets/sync.py", "    for _ in range(retry_limit):\n",
             "    for _ in range(RETRY_LIMIT):\n"),
            ("widgets/sync.py", '    raise RetryError(f"gave up after {retry_limit} attempts")\n',
             '    raise RetryError(f"gave up after {RETRY_LIMIT} attempts")\n'),
            ("tests/test_sync.py", "    assert len(calls) == sync.retry_limit\n",
             "    assert len(calls) == sync.RETRY_LIMIT\n"),
        ],
        "fail_to_pass": ["tests/test_sync.py::test_gives_up_after_the_retry_limit"],
    },
    {
        # A base string respelled as the prose spells it: "back ordered" -> "back-ordered".
        "n": 42,
        "base": "C7",
        "problem": (
            "The style guide of the marketing team writes back-ordered with a hyphen, and "
            "the status line the shop's page shows for a sold-out item should too."
        ),
        "edits": [
            ("widgets/status.py", '"sold out, can be back ordered from the supplier"',
             '"sold out, can be back-ordered from the supplier"'),
            ("tests/test_status.py",
             '    assert stock_status(item(0)) == "sold out, can be back ordered from the '
             'supplier"\n',
             '    assert stock_status(item(0)) == "sold out, can be back-ordered from the '
             'supplier"\n'),
        ],
        "fail_to_pass": ["tests/test_status.py::test_sold_out"],
    },
    # Tasks 43-46: constants a test grades in ways easy to miss, each certified.
    {
        # A parametrized test's id cut short by the benchmark (no closing `]`): the test it
        # names (in a file no other FAIL_TO_PASS id reaches) still grades handling_fee.
        "n": 43,
        "base": "C7",
        "problem": (
            "Orders shipped to Europe pay an extra fee for the customs paperwork, on top of "
            "the flat shipping rate. Let `shipping_cost()` take the destination region as a "
            "second argument and add that fee for the EU regions (4.50 dollars); other "
            "regions, and a call without a region, keep the flat rate."
        ),
        "edits": [
            ("widgets/pricing.py",
             "def shipping_cost(subtotal_cents):\n    return FLAT_SHIPPING_CENTS\n",
             "# Customs paperwork for shipments to the EU, in cents.\n"
             "EU_REGIONS = (\"eu-west\", \"eu-north\", \"eu-south\")\n\n\n"
             "def handling_fee(region):\n"
             "    return 450 if region in EU_REGIONS else 0\n\n\n"
             "def shipping_cost(subtotal_cents, region=None):\n"
             "    return FLAT_SHIPPING_CENTS + handling_fee(region)\n"),
            ("tests/test_pricing.py", None, '''\


def test_shipping_cost_outside_the_eu():
    assert shipping_cost(1000, "us-east") == FLAT_SHIPPING_CENTS
'''),
            ("tests/test_customs.py", None, '''\
import pytest

from widgets.formatting import format_money
from widgets.pricing import handling_fee


@pytest.mark.parametrize(("region", "fee"), [("eu-west", "$4.50"), ("eu-north", "$4.50")])
def test_handling_fee(region, fee):
    assert format_money(handling_fee(region)) == fee
'''),
        ],
        "fail_to_pass": ["tests/test_pricing.py::test_shipping_cost_outside_the_eu",
                         "tests/test_customs.py::test_handling_fee[eu-we"],
    },
    {
        # An expected message built in a local, then asserted.
        "n": 44,
        "base": "C7",
        "problem": (
            "`widgets value` on a new, empty inventory prints $0.00, which the office reads "
            "as a bug. For an inventory without any item it should print a line saying so "
            "instead, and still exit with 0."
        ),
        "edits": [
            ("widgets/cli.py",
             "    elif args.command == \"value\":\n"
             "        print(format_money(inventory.total_value(), args.currency))\n",
             "    elif args.command == \"value\":\n"
             "        if not len(inventory):\n"
             "            print(\"the inventory file has no items yet\")\n"
             "        else:\n"
             "            print(format_money(inventory.total_value(), args.currency))\n"),
            ("tests/test_cli.py", None, '''\


def test_value_of_an_empty_inventory(tmp_path, capsys):
    expected = "the inventory file has no items yet"
    assert main(["--file", str(tmp_path / "new.json"), "value"]) == 0
    assert capsys.readouterr().out.strip() == expected
'''),
        ],
        "fail_to_pass": ["tests/test_cli.py::test_value_of_an_empty_inventory"],
    },
    {
        # A gold function the test names only in a mock.patch target, outside any assert.
        "n": 45,
        "base": "C7",
        "problem": (
            "Add `refresh_prices(inventory)` to widgets.sync: it asks the supplier's web "
            "service for its current price list (the `prices` endpoint, rows with `sku` and "
            "`price_cents`) and sets the price of every item the supplier lists; the other "
            "items keep theirs. Keep the network call in its own function, as for stock."
        ),
        "edits": [
            ("widgets/sync.py", None, '''\


def fetch_supplier_prices():
    """The supplier's current prices in cents, by SKU."""
    return {row["sku"]: int(row["price_cents"]) for row in _get("prices")}


def refresh_prices(inventory):
    prices = fetch_supplier_prices()
    for item in inventory:
        if item.sku in prices:
            item.price_cents = prices[item.sku]
'''),
            ("tests/test_sync.py", "import io\nimport json\n",
             "import io\nimport json\nfrom unittest import mock\n"),
            ("tests/test_sync.py", "from widgets import sync\n",
             "from widgets import sync\nfrom widgets.inventory import Inventory, Item\n"),
            ("tests/test_sync.py", None, '''\


def test_refresh_prices_takes_the_supplier_prices():
    inv = Inventory([
        Item(sku="SPR-1", name="Sprocket", price_cents=250, quantity=10),
        Item(sku="GEAR-9", name="Gear", price_cents=1000, quantity=2),
    ])
    with mock.patch("widgets.sync.fetch_supplier_prices", return_value={"SPR-1": 199}):
        sync.refresh_prices(inv)
    assert [item.price_cents for item in inv] == [199, 1000]
'''),
        ],
        "fail_to_pass": ["tests/test_sync.py::test_refresh_prices_takes_the_supplier_prices"],
    },
    {
        # A literal the test compares (`if ... != "...": raise AssertionError(...)`).
        "n": 46,
        "base": "C7",
        "problem": (
            "Invoices for regions where `tax_for()` charges nothing should carry a short "
            "note saying so. Add `tax_note(region)` to widgets.pricing: that note for such a "
            "region, an empty string for the others."
        ),
        "edits": [
            ("widgets/pricing.py", None, '''\


def tax_note(region):
    return "" if region in TAX_RATES else "no sales tax collected"
'''),
            ("tests/test_pricing.py", "    tax_for,\n", "    tax_for,\n    tax_note,\n"),
            ("tests/test_pricing.py", None, '''\


def test_tax_note():
    assert tax_note("CA") == ""
    note = tax_note("ZZ")
    if note != "no sales tax collected":
        raise AssertionError(f"unexpected note: {note!r}")
'''),
        ],
        "fail_to_pass": ["tests/test_pricing.py::test_tax_note"],
    },
    # Tasks 47-48: a literal both patches have that grades nothing.
    {
        # A literal the test feeds in and then hands to a call inside its assertion.
        "n": 47,
        "base": "C7",
        "problem": (
            "Counter staff and the web shop both set units aside for customers. Add "
            "`Inventory.reserve(sku, qty, order)` and `Inventory.reserved(order)`, a dict "
            "from SKU to the units set aside for that order. Counter sales have no order "
            "number: let the order default to one for them."
        ),
        "edits": [
            ("widgets/inventory.py", "LOW_STOCK_THRESHOLD = 5\n",
             "LOW_STOCK_THRESHOLD = 5\n# The order counter sales are reserved under.\n"
             "WALK_IN = \"walk-in\"\n"),
            ("widgets/inventory.py",
             "    def set_price(self, sku, price_cents):\n",
             "    def reserve(self, sku, qty, order=WALK_IN):\n"
             "        self.get(sku)\n"
             "        held = self.__dict__.setdefault(\"_reserved\", {}).setdefault(order, {})\n"
             "        held[sku] = held.get(sku, 0) + qty\n\n"
             "    def reserved(self, order=WALK_IN):\n"
             "        return dict(self.__dict__.get(\"_reserved\", {}).get(order, {}))\n\n"
             "    def set_price(self, sku, price_cents):\n"),
            ("tests/test_inventory.py", None, '''\


def test_reservations_are_kept_per_order():
    inv = make_inventory()
    inv.reserve("SPR-1", 2, "walk-in")
    inv.reserve("GEAR-9", 1, "web-1042")
    assert inv.reserved("walk-in") == {"SPR-1": 2}
'''),
        ],
        "fail_to_pass": ["tests/test_inventory.py::test_reservations_are_kept_per_order"],
    },
    {
        # A literal the gold writes only in its documentation (website/docs/*.mdx).
        "n": 48,
        "base": "C7",
        "problem": (
            "Support keeps asking people which release they run. Add a `--version` option "
            "to the command line that prints the program's name and version and exits, and "
            "document it on the website's command line page."
        ),
        "edits": [
            ("widgets/cli.py",
             "from widgets.formatting import colorize, format_money, format_table\n",
             "from widgets import __version__\n"
             "from widgets.formatting import colorize, format_money, format_table\n"),
            ("widgets/cli.py", '    sub = parser.add_subparsers(dest="command", required=True)\n',
             '    parser.add_argument("--version", action="version",\n'
             '                        version=f"%(prog)s {__version__}")\n'
             '    sub = parser.add_subparsers(dest="command", required=True)\n'),
            ("website/docs/cli.mdx", None, """\
---
title: Command line
---

## Which version

`widgets --version` prints the program's name and its version, then exits:

```console
$ widgets --version
widgets 0.3.0
```
"""),
            ("tests/test_cli.py", None, '''\


def test_version_option(capsys):
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert capsys.readouterr().out.strip() == "widgets 0.3.0"
'''),
        ],
        "fail_to_pass": ["tests/test_cli.py::test_version_option"],
    },
    # Tasks 49-51: absence beyond the tree (recent history, the standard library, a pinned
    # dependency): each scope removes a constant the tree lacks, and keeps another claim.
    {
        # A name the commit before base removed: the task restores it.
        "n": 49,
        "base": "C8",
        "problem": (
            "A few pallets stay in the old building after all. Bring back the pallet "
            "locations: a pallet in bay 12 is labelled P012."
        ),
        "edits": [
            ("widgets/locations.py", None, PALLETS + '''\


def make_pallet(bay):
    return Pallet(bay)
'''),
            ("tests/test_locations.py", "from widgets.locations import make_shelf\n",
             "from widgets.locations import make_pallet, make_shelf\n"),
            ("tests/test_locations.py", None, '''\


def test_pallet_codes():
    assert make_pallet(12).code == "P012"
'''),
        ],
        "fail_to_pass": ["tests/test_locations.py::test_pallet_codes"],
    },
    {
        # A literal the standard library spells as a whole string (http's reason phrases),
        # and a name of the fix's own.
        "n": 50,
        "base": "C8",
        "problem": (
            "The web shop's error page should say in words what went wrong: add a helper "
            "to widgets.status that gives the standard HTTP reason phrase for the codes the "
            "shop answers with (404 and 503)."
        ),
        "edits": [
            ("widgets/status.py", None, '''\


# The reason phrases of RFC 9110, as browsers show them.
PHRASES = {404: "Not Found", 503: "Service Unavailable"}


def status_words(code):
    return PHRASES[code]
'''),
            ("tests/test_status.py", "from widgets.status import stock_status\n",
             "from widgets.status import status_words, stock_status\n"),
            ("tests/test_status.py", None, '''\


def test_status_words():
    assert status_words(404) == "Not Found"
    assert status_words(503) == "Service Unavailable"
'''),
        ],
        "fail_to_pass": ["tests/test_status.py::test_status_words"],
    },
    {
        # A literal the pinned widgetcolors spells (requirements.txt at base), and a name
        # of the fix's own.
        "n": 51,
        "base": "C8",
        "problem": (
            "Paint the web badge of a sold-out item in the sold-out colour of our colour "
            "library (widgetcolors, pinned in requirements.txt). Add the helper to "
            "widgets.status; the badge code calls it with an item."
        ),
        "edits": [
            ("widgets/status.py", None, '''\


def badge_paint(item):
    """The badge colour of a sold-out item (widgetcolors' palette), else None."""
    return "lantern-crimson" if item.quantity <= 0 else None
'''),
            ("tests/test_status.py", "from widgets.status import stock_status\n",
             "from widgets.status import badge_paint, stock_status\n"),
            ("tests/test_status.py", None, '''\


def test_badge_paint():
    assert badge_paint(item(0)) == "lantern-crimson"
    assert badge_paint(item(3)) is None
'''),
        ],
        "fail_to_pass": ["tests/test_status.py::test_badge_paint"],
    },
    {
        # Names a generator derives: the gold adds two fields to the schema and regenerates
        # the client. The prose names one field (so its getter is determined); the other's
        # name is nowhere a solver reads.
        "n": 52,
        "base": "C9",
        "problem": (
            "The stock API should tell how many items of a SKU wait for a restock: add a "
            "restockPending field to the stock query. Also expose how warm each shelf runs, "
            "so the store can move chocolate away from the heaters. Regenerate the client."
        ),
        "edits": [
            ("widgets/api/stock.graphql", "  stockLevel(sku: String!): Int\n",
             "  stockLevel(sku: String!): Int\n  restockPending(sku: String!): Int\n"
             "  shelfHeat(sku: String!): Int\n"),
            ("widgets/api/client_gen.py", None, '''\


def get_restock_pending(sku):
    return query("restockPending", sku=sku)


def get_shelf_heat(sku):
    return query("shelfHeat", sku=sku)
'''),
            ("widgets/api/transport.py", 'ANSWERS = {"stockLevel": {"W1": 40}}\n',
             'ANSWERS = {"stockLevel": {"W1": 40}, "restockPending": {"W1": 3},\n'
             '           "shelfHeat": {"W1": 7}}\n'),
            ("tests/test_api.py", None, '''\
from widgets.api.client_gen import get_restock_pending, get_shelf_heat


def test_restock_and_heat():
    assert get_restock_pending("W1") == 3
    assert get_shelf_heat("W1") == 7
'''),
        ],
        "fail_to_pass": ["tests/test_api.py::test_restock_and_heat"],
    },
]

# Hand-written expectations (strict policy = the demo.toml default; lenient skips test paths at
# base). "constants" lists exactly the constants expected to certify under strict.
EXPECTED_BY_N = {
    1: {
        "verdict": "AIRTIGHT", "constants": ["render_badge"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["render_badge"],
        "why": "The test calls render_badge(), a new function of the gold patch: not in the "
               "prose (no 'render badge' words) nor anywhere at base. The other shared names "
               "(item, name, quantity) exist in widgets/ at base.",
    },
    2: {
        "verdict": "AIRTIGHT", "constants": ["cannot remove a non-positive quantity"],
        "lenient_verdict": "AIRTIGHT",
        "lenient_constants": ["cannot remove a non-positive quantity"],
        "why": "The test matches the exact new error message, which the prose never states "
               "and which is nowhere at base; the only other shared name, "
               "InvalidQuantityError, is in the prose and in widgets/errors.py.",
    },
    3: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "The prose quotes both the new name InvalidPriceError and the exact message "
               "'price must not be negative'; every other shared name exists at base.",
    },
    4: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "The test checks the 'items' key of to_dict(): both already exist in "
               "widgets/inventory.py at base (and the prose names them): nothing new is graded.",
    },
    5: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["GBP"],
        "why": "'GBP' is not in the prose (it speaks of British pounds) and not in widgets/, "
               "but tests/test_formatting.py at base already uses it: strict absence fails, "
               "lenient (test paths skipped) certifies it.",
    },
    6: {
        "verdict": "AIRTIGHT", "constants": ["--no-color"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["--no-color"],
        "why": "The test passes the new flag '--no-color'; the prose only says 'disabling "
               "colored output' (no 'no color' word run) and the flag is nowhere at base. "
               "The derived attribute no_color appears in the gold patch only.",
    },
    7: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "restock is named in the prose; get, quantity, UnknownSkuError and "
               "InvalidQuantityError exist at base: the test grades nothing beyond the prose.",
    },
    8: {
        "verdict": "ERROR", "constants": [],
        "lenient_verdict": "ERROR", "lenient_constants": [],
        "why": "Malformed row: the base_commit field is missing, so no task can be built.",
    },
    9: {
        "verdict": "AIRTIGHT", "constants": ["7500"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["7500"],
        "why": "The test pins the threshold 7500 (cents); the prose only mentions a "
               "free-shipping threshold without its value, and 7500 is nowhere at base.",
    },
    10: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "The new key 'lowStock' is neither an exact nor a case-insensitive substring "
               "of the prose, but its words form the run 'low stock' in it.",
    },
    11: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "The only new name the test uses, shelf_label, is quoted in the prose; item, "
               "sku and name are used by both patches without crossing DefUse. The pinned date "
               "'05/03/2024' is test data, and the gold's format string '%d/%m/%Y' is not in "
               "the test.",
    },
    12: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "snapshot is quoted in the prose; the four-space layout the test pins shows up "
               "only as whole expected lines, which the gold never spells (it says indent=4).",
    },
    13: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "reorder_sheet is quoted in the prose; the test pins the header row as one "
               "string ('SKU     NAME  QTY') that the gold's list of headers never equals.",
    },
    14: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "search is quoted in the prose; the case-insensitive match the test pins is "
               "behavior (casefold in the gold, 'gear' in the test), not a shared constant.",
    },
    15: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "why": "export_csv and the header 'sku,name,price,quantity' are quoted in the prose; "
               "price_cents, sku and quantity exist at base and cross no DefUse boundary.",
    },
    # Tasks 16-48: "receipt_shows" lists text RECEIPT.md must contain (why a constant did or
    # did not certify); "receipt_lacks", text it must not.
    16: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`entry` | identifier | name does not cross: a local variable"],
        "why": "entry is bound in a comprehension on both sides, in the gold's units_on_hand "
               "and in the test's expected sum: a local variable never crosses, although it "
               "is nowhere at base nor in the prose. units_on_hand is quoted in the prose.",
    },
    17: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`allow_abbrev` | identifier | name does not cross: a member of a "
                          "type neither patch declares"],
        "why": "The gold sets parser.allow_abbrev and the test reads it: an attribute of "
               "argparse's parser, a type neither patch declares, so no definition crosses "
               "(allow_abbrev is nowhere at base, and the prose never says it).",
    },
    18: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`truncate` | identifier | name does not cross: a method of the "
                          "test's own type"],
        "why": "truncate is a method the test's own FakeStream defines and the gold calls on "
               "the stream it is given (a file object's method): a test double's methods do "
               "not cross, although truncate is nowhere at base nor in the prose.",
    },
    19: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`badges` | identifier | name does not cross: import or package "
                          "name"],
        "why": "The new module's name badges only ever appears in imports (widgets/__init__.py "
               "and the test): import paths never certify. stock_badge and LOW are quoted in "
               "the prose.",
    },
    20: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`carton_size` | identifier | name does not cross: a key or value "
                          "of a data file"],
        "why": "carton_size is a key the gold adds to setup.cfg and the test reads as an "
               "attribute: data files define nothing, so no definition crosses (the key is "
               "nowhere at base nor in the prose; its value 6 is trivial).",
    },
    21: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["## Mechanical tier: no certified constant"],
        "receipt_lacks": ["`absent`"],
        "why": "The gold's only hunk starts and ends inside cli.py's module docstring (the "
               "--help text); the test asserts the word 'absent', nowhere at base nor in the "
               "prose, but docstrings yield no token: nothing is proposed.",
    },
    22: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`SPRING24` | string | not graded: a literal the graded test only "
                          "feeds in"],
        "why": "The promo code SPRING24 is in the gold's table and the graded test, but the "
               "test only passes it in and asserts the price: a fixture value grades nothing. "
               "apply_promo is quoted in the prose.",
    },
    23: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`item name must not be blank` | string | not graded: used only "
                          "outside the tests FAIL_TO_PASS runs"],
        "why": "The message 'item name must not be blank' is asserted only by "
               "test_rename_refuses_a_blank_name, which FAIL_TO_PASS does not list: no graded "
               "test reaches it. rename is quoted in the prose.",
    },
    24: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["`unknown currency:` | string | in prose (exact)"],
        "why": "The fixed segment 'unknown currency:' of the gold's template, inside the "
               "test's expected 'unknown currency: XYZ', is stated by the prose, which quotes "
               "the whole message; to_currency and CAD are quoted too.",
    },
    25: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["CONVENTION", "`XmlExporter`", "`CsvExporter`",
                          "widgets/exporters.py:10"],
        "why": "XmlExporter crosses (the gold defines it, the test imports it) and is nowhere "
               "at base nor in the prose, but it follows its siblings CsvExporter and "
               "JsonExporter in widgets/exporters.py with one part replaced by the prose's "
               "word XML: a convention hypothesis, never certified.",
    },
    26: {
        "verdict": "AIRTIGHT", "constants": ["reorder_level"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["reorder_level"],
        "receipt_shows": ["| `reorder_level` | identifier | CERTIFIED |"],
        "why": "reorder_level is a dataclass field the gold adds to Item (an annotated class "
               "attribute) and the test reads and sets on an item; the prose speaks of each "
               "item's own threshold, never of a reorder level.",
    },
    27: {
        "verdict": "AIRTIGHT", "constants": ["nordics"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["nordics"],
        "receipt_shows": ["| `nordics` | string | CERTIFIED |"],
        "why": "'nordics' is a value of widgets/data/regions.json, a data file the gold adds, "
               "and the test asserts region_of('SE') == 'nordics'; the prose never names a "
               "region. region_of is quoted in the prose; 'SE' is too short.",
    },
    28: {
        "verdict": "AIRTIGHT", "constants": ["dachser", "postnord"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["dachser", "postnord"],
        "receipt_shows": ["| `dachser` | string | CERTIFIED |",
                          "| `postnord` | string | CERTIFIED |"],
        "why": "'dachser' and 'postnord' are plain scalars of widgets/data/carriers.yaml, which "
               "the gold adds and reads with its own line parser; the test asserts both "
               "carriers, and the prose names none.",
    },
    29: {
        "verdict": "AIRTIGHT", "constants": ["restock needed for"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["restock needed for"],
        "receipt_shows": ["| `restock needed for` | string | CERTIFIED |"],
        "why": "'restock needed for' is a fixed segment of the gold's template "
               "f'restock needed for {item.sku}', inside the longer line the test expects "
               "('WARNING: restock needed for GEAR-9 (2 left)'); the prose never words it.",
    },
    30: {
        "verdict": "AIRTIGHT", "constants": ["available_stock_report"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["available_stock_report"],
        "receipt_shows": ["| `available_stock_report` | identifier | CERTIFIED |"],
        "why": "The gold defines the function available_stock_report; the test names it in a "
               "string (getattr(reports, 'available_stock_report')): a string naming what the "
               "other side defines crosses. The prose asks for a second report, never by "
               "that name.",
    },
    31: {
        "verdict": "GOLD-TEST-DATA", "constants": ["1250", "199", "HUB-CAP-77", "SPR-1"],
        "lenient_verdict": "GOLD-TEST-DATA",
        "lenient_constants": ["1250", "199", "HUB-CAP-77", "SPR-1"],
        "receipt_shows": ["## Test data only the gold ships (GOLD-TEST-DATA)",
                          "| `HUB-CAP-77` | `tests/data/overrides.yaml` |"],
        "why": "The test reads tests/data/overrides.yaml, which the gold patch writes and the "
               "test patch does not, and asserts the SKUs and prices in it: no fix that does "
               "not write that very file passes (SPR-1 is at base, which does not matter: "
               "the file is still missing). A broken task, counted apart from AIRTIGHT.",
    },
    # Tasks 32-42: a convention predicts the new name or string (the receipt's CONVENTION
    # line names the sibling and how the constant follows it); nothing certifies.
    32: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `load_backup` | identifier | CONVENTION (hypothesis): "
                          "`load_inventory` at widgets/cli.py:29 with one part replaced by "
                          "`backup`, a word of the prose |"],
        "why": "load_backup (new in widgets/backup.py, called by the test) follows "
               "load_inventory in cli.py, another module of the same package, with the "
               "prose's word backup in place of inventory. write_backup, in backup.py itself, "
               "would need the word load, which the prose never says.",
    },
    33: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `EtsyListing` | identifier | CONVENTION (hypothesis): "
                          "`AmazonListing` at widgets/marketplaces/amazon/listing.py:4 with "
                          "one part replaced by `etsy`, a word of the prose |"],
        "why": "The gold's new widgets/marketplaces/etsy/listing.py sits on a parallel path "
               "to widgets/marketplaces/amazon/listing.py (one folder word swapped), and its "
               "class EtsyListing makes the same swap in AmazonListing; the prose says Etsy.",
    },
    34: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `SqliteStore` | identifier | CONVENTION (hypothesis): "
                          "`JsonFileStore` at widgets/storage.py:18 with `Sqlite` around the "
                          "affix they share, a word of the prose |"],
        "why": "JsonFileStore and CsvFileStore share the affix Store; SqliteStore is that "
               "affix around the prose's word sqlite (from 'sqlite3'). load and save are in "
               "the prose.",
    },
    35: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `format_money_short` | identifier | CONVENTION (hypothesis): "
                          "`format_money` at widgets/formatting.py:20 with `short` added, a "
                          "word of the prose |"],
        "why": "format_money_short is format_money with one part added, short, whose stem "
               "the prose's 'shortens' shares.",
    },
    36: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `missing quantity in inventory row` | string | CONVENTION "
                          "(hypothesis): `bad header in inventory file` at "
                          "widgets/storage.py:46 with its words replaced by `missing quantity "
                          "row`, a word of the prose |"],
        "why": "The new message has the shape of storage.py's 'bad header in inventory file' "
               "(the same punctuation, 'in inventory' kept) with its other words the prose's: "
               "missing, quantity, row.",
    },
    37: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `inventory file not found or empty` | string | CONVENTION "
                          "(hypothesis): `inventory file not found` at widgets/storage.py:26 "
                          "with `or empty` added, a word of the prose |"],
        "why": "The new message is the base literal 'inventory file not found' extended with "
               "glue (or) and the prose's word empty.",
    },
    38: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `is_http_error` | identifier | CONVENTION (hypothesis): "
                          "`is_timeout_error` at widgets/sync.py:26 with `http_error` around the "
                          "affix they share, a name the base has beside it at "
                          "widgets/sync.py:16 |"],
        "why": "is_timeout_error and is_retry_error share the affix is_..._error, and "
               "is_http_error carries it onto HttpError, a class sync.py defines at base. The "
               "prose never says HTTP: the word comes from the base, not the prose.",
    },
    39: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `PY_3_10_PLUS` | identifier | CONVENTION (hypothesis): "
                          "`PY_3_9_PLUS` at widgets/compat.py:5 with one part replaced by "
                          "`10`, a number inside the family's range (9 to 12) |"],
        "why": "compat.py has PY_3_9_PLUS, PY_3_11_PLUS and PY_3_12_PLUS; PY_3_10_PLUS "
               "completes the numbered family inside its range. The prose names no version.",
    },
    40: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `make_storage_bin` | identifier | CONVENTION (hypothesis): "
                          "`make_shelf` at widgets/locations.py:25 with `storage_bin` around the "
                          "affix they share, a name the gold defines at widgets/locations.py:36 |"],
        "why": "make_shelf and make_pallet share the affix make_; make_storage_bin carries it "
               "onto StorageBin, a class the gold defines and the test uses too. The prose "
               "states StorageBin ('storage bins') but never gives storage_bin as a word.",
    },
    41: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `RETRY_LIMIT` | identifier | CONVENTION (hypothesis): "
                          "`retry_limit` at widgets/sync.py:9 differs only in case |"],
        "why": "The gold removes retry_limit and defines RETRY_LIMIT: a case-only rename of "
               "a definition of its own file. The prose asks for capitals but never says "
               "retry limit.",
    },
    42: {
        "verdict": "CONVENTION", "constants": [],
        "lenient_verdict": "CONVENTION", "lenient_constants": [],
        "receipt_shows": ["| `sold out, can be back-ordered from the supplier` | string | "
                          "CONVENTION (hypothesis): `sold out, can be back ordered from the "
                          "supplier` at widgets/status.py:8 spelled `back-ordered`, a word of "
                          "the prose |"],
        "why": "The status line the test pins is status.py's base literal respelled as the "
               "prose spells back-ordered; the prose never quotes the line.",
    },
    # Tasks 43-46: constants graded in ways easy to miss, each certified.
    43: {
        "verdict": "AIRTIGHT", "constants": ["handling_fee"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["handling_fee"],
        "receipt_shows": ["| `handling_fee` | identifier | CERTIFIED |"],
        "why": "handling_fee is used only in tests/test_customs.py, whose FAIL_TO_PASS id the "
               "benchmark cut short ('test_handling_fee[eu-we', no closing bracket): the id "
               "still names the parametrized test. The prose speaks of an extra fee, never of "
               "a handling fee.",
    },
    44: {
        "verdict": "AIRTIGHT", "constants": ["the inventory file has no items yet"],
        "lenient_verdict": "AIRTIGHT",
        "lenient_constants": ["the inventory file has no items yet"],
        "receipt_shows": ["| `the inventory file has no items yet` | string | CERTIFIED |"],
        "why": "The test builds the expected line in a local (expected = '...') and asserts "
               "the output equals it: the literal is asserted. The prose only asks for a line "
               "saying the inventory is empty.",
    },
    45: {
        "verdict": "AIRTIGHT", "constants": ["fetch_supplier_prices"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["fetch_supplier_prices"],
        "receipt_shows": ["| `fetch_supplier_prices` | identifier | CERTIFIED |"],
        "why": "The test names the gold's new fetch_supplier_prices only in its "
               "mock.patch('widgets.sync.fetch_supplier_prices', ...) target, outside any "
               "assert: a string naming what the gold defines is a use, and a fix that names "
               "its network call otherwise fails. refresh_prices is in the prose.",
    },
    46: {
        "verdict": "AIRTIGHT", "constants": ["no sales tax collected"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["no sales tax collected"],
        "receipt_shows": ["| `no sales tax collected` | string | CERTIFIED |"],
        "why": "The test compares the note with the literal (if note != '...': raise "
               "AssertionError(...)): a literal a test compares is asserted. tax_note is in "
               "the prose; its wording is not.",
    },
    # Tasks 47-48: a literal both patches have that grades nothing.
    47: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["| `walk-in` | string | not graded: the test asserts only what the "
                          "code did with a literal the test itself fed in"],
        "why": "'walk-in' is the gold's default order and nowhere at base nor in the prose, "
               "but the test feeds it in (reserve(..., 'walk-in')) and then hands it to "
               "reserved('walk-in') inside its assertion: the test reads back its own input. "
               "reserve and reserved are in the prose.",
    },
    48: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["## Mechanical tier: no certified constant",
                          "| `--version` | string | not graded: a literal the graded test "
                          "only feeds in"],
        "receipt_lacks": ["`widgets 0.3.0`"],
        "why": "The test asserts 'widgets 0.3.0', which the gold writes only in "
               "website/docs/cli.mdx (its code builds it from %(prog)s and __version__): "
               "documentation is no code the solver writes, so the literal is never a "
               "candidate. --version is in the prose, and only fed in.",
    },
    # Tasks 49-51: absence beyond the tree.
    49: {
        "verdict": "NO_CLAIM", "constants": [],
        "lenient_verdict": "NO_CLAIM", "lenient_constants": [],
        "receipt_shows": ["| `make_pallet` | identifier | in history: 7 first-parent commits"],
        "why": "make_pallet is absent from the tree at base, but the commit before base "
               "removed it (widgets/locations.py): a solver reading `git log -p` restores the "
               "very name, so absence over recent history does not hold.",
    },
    50: {
        "verdict": "AIRTIGHT", "constants": ["status_words"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["status_words"],
        "receipt_shows": ["| `Not Found` | string | in the python ",
                          "| `Service Unavailable` | string | in the python "],
        "why": "The reason phrases are nowhere at base nor in the prose, but Python's http "
               "module spells each as a whole string ('Not Found', 'Service Unavailable'): "
               "a solver reads them there. The helper's name status_words is the fix's own.",
    },
    51: {
        "verdict": "AIRTIGHT", "constants": ["badge_paint"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["badge_paint"],
        "receipt_shows": ["| `lantern-crimson` | string | in dependencies: 1 pinned package "
                          "(widgetcolors@1.0.0), 1 file: widgetcolors@1.0.0:"],
        "why": "'lantern-crimson' is absent from the tree and the prose, but the widgetcolors "
               "1.0.0 that requirements.txt pins spells it in its palette: a solver installs "
               "and reads it. The helper's name badge_paint is the fix's own.",
    },
    52: {
        "verdict": "AIRTIGHT", "constants": ["get_shelf_heat"],
        "lenient_verdict": "AIRTIGHT", "lenient_constants": ["get_shelf_heat"],
        "receipt_shows": ["`get_shelf_heat` is generated from `shelfHeat` "
                          "(widgets/api/stock.graphql:4)"],
        "receipt_lacks": ["| `get_restock_pending` | identifier | certified"],
        "why": "client_gen.py is a generator's output (its DO NOT EDIT header): widgetgen "
               "spells get_restock_pending from the schema field restockPending, which the "
               "prose names, so that name is determined. get_shelf_heat comes from shelfHeat, "
               "a field the prose only describes ('how warm each shelf runs'): shelfWarmth "
               "would be as faithful, and the test fails it.",
    },
}

# What `determinacy run examples/demo.toml --agent "python examples/demo/recorded_agent.py"`
# (strict policy) is expected to give, with the recorded answers in recorded_answers.json.
# Written by hand from the settlement rules; `--check` re-derives them from the answers.
AGENT_EXPECTED_BY_N = {
    1: ("AIRTIGHT", "The mechanical tier certifies render_badge; the recorded airtight witness "
                    "for the helper's name (a GAP) verifies too."),
    2: ("AIRTIGHT", "The exact error message is a GAP and the recorded airtight witness "
                    "verifies, as the mechanical tier does."),
    3: ("ENTAILED", "The screen quotes a verbatim covering clause for each behavior: the "
                    "exception, its module and message, and keeping the old price."),
    4: ("ENTAILED", "'Sold-out items must be kept when the inventory is exported' covers the "
                    "one graded behavior."),
    5: ("UNWITNESSED", "The currency code GBP is a GAP; the recorded airtight proposal fails "
                       "the strict absence check (tests/test_formatting.py has GBP at base) "
                       "and nothing else is proposed."),
    6: ("AIRTIGHT", "The flag name is a GAP; --no-color verifies as airtight, as the "
                    "mechanical tier certifies it."),
    7: ("ENTAILED", "Each of the three FAIL_TO_PASS tests has a verbatim covering clause."),
    8: ("ERROR", "Malformed row: no base_commit. The agent is never asked."),
    9: ("AIRTIGHT", "The threshold value is a GAP; 7500 verifies as airtight, as the mechanical "
                    "tier certifies it."),
    10: ("BORDERLINE", "The key's exact name is a GAP; the prose's camelCase convention might "
                       "bind it (lowStock) but isLowStock fits it too: a borderline hypothesis, "
                       "no conflict to point at."),
    11: ("CODEBASE-PLURAL", "The date format is a GAP. Live code prints dates two ways: "
                            "widgets/reports.py '%Y-%m-%d', widgets/receipts.py '%d/%m/%Y'; "
                            "the recorded refuter fails to refute that they are one decision."),
    12: ("MISDETERMINED", "The JSON layout is a GAP. widgets/cli.py already writes the "
                          "inventory's JSON with indent=2; gold and test pin indent=4; the "
                          "recorded refuter fails to refute comparability."),
    13: ("DETERMINED-CODEBASE", "The header spelling is a GAP, but widgets/reports.py and "
                                "widgets/cli.py both write upper-case headers, as gold does."),
    14: ("PROSE-AFFIRMATIVE", "Case-insensitivity is a GAP; the prose's verbatim 'returning "
                              "the items whose name contains the given text' describes a "
                              "faithful case-sensitive contract the test would fail."),
    15: ("UNWITNESSED", "The price format is a GAP. The plurality candidate (cli.py formats "
                        "money, Inventory.to_dict() keeps cents) is refuted by the recorded "
                        "refuter (comparable=false): a contested hypothesis, and no other "
                        "witness verifies."),
    # Tasks 16-51 have no recorded answers: the recorded agent answers {} ("no proposal").
    **{n: ("NO_CLAIM", "No recorded answers: the screen lists no behavior, so the agent tiers "
                       "add nothing to the mechanical NO_CLAIM.") for n in range(16, 25)},
    25: ("CONVENTION", "No recorded answers: the agent tiers add nothing to the mechanical "
                       "CONVENTION hypothesis."),
    **{n: ("AIRTIGHT", "No recorded answers: the mechanical tier's certified constant stands.")
       for n in range(26, 31)},
    31: ("GOLD-TEST-DATA", "No recorded answers: the mechanical tier's test-data claim stands."),
    **{n: ("CONVENTION", "No recorded answers: the agent tiers add nothing to the mechanical "
                         "CONVENTION hypothesis.") for n in range(32, 43)},
    **{n: ("AIRTIGHT", "No recorded answers: the mechanical tier's certified constant stands.")
       for n in range(43, 47)},
    **{n: ("NO_CLAIM", "No recorded answers: the screen lists no behavior, so the agent tiers "
                       "add nothing to the mechanical NO_CLAIM.") for n in (47, 48, 49)},
    **{n: ("AIRTIGHT", "No recorded answers: the mechanical tier's certified constant stands.")
       for n in (50, 51, 52)},
}


def instance_id(n: int) -> str:
    return f"acme__widgets-{n}"


# -- building --------------------------------------------------------------------------------------


def build_history(repo: Path) -> dict[str, str]:
    git(repo, "init", "-q")
    shas = {}
    for name, date, message, files in COMMITS:
        write_tree(repo, files)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--no-verify", "-m", message, date=date)
        shas[name] = git(repo, "rev-parse", "HEAD").strip()
    return shas


def apply_edits(repo: Path, edits) -> None:
    for rel, old, new in edits:
        path = repo / rel
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if old is None:
            text += new
        else:
            count = text.count(old)
            if count != 1:
                raise SystemExit(f"edit of {rel}: expected 1 occurrence, found {count}:\n{old}")
            text = text.replace(old, new)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def make_patches(repo: Path, base: str, edits, gold_paths=()) -> tuple[str, str]:
    """The gold patch: every edit outside tests/, and the test files of `gold_paths` (test
    data some benchmarks ship with the gold); the test patch: the rest of tests/."""
    git(repo, "checkout", "-q", "--detach", base)
    apply_edits(repo, edits)
    git(repo, "add", "-A")
    diff = ["diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames", base, "--"]
    gold = git(repo, *diff, ".", ":(exclude)tests")
    if gold_paths:  # a second diff: an exclude pathspec wins over any include
        gold += git(repo, *diff, *gold_paths)
    test = git(repo, *diff, "tests", *(f":(exclude){p}" for p in gold_paths))
    git(repo, "reset", "-q", "--hard", base)
    git(repo, "clean", "-q", "-fdx")
    if not gold or not test:
        raise SystemExit(f"empty patch for base {base}")
    return gold, test


def write_index(root: Path) -> None:
    """The package index: simple/widgetcolors/index.html and the wheel it links to."""
    import hashlib
    import io
    import zipfile

    buf = io.BytesIO()
    names = sorted(WIDGETCOLORS)
    record = "".join(f"{n},,\n" for n in names) + "widgetcolors-1.0.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, text in [*((n, WIDGETCOLORS[n]) for n in names),
                           ("widgetcolors-1.0.0.dist-info/RECORD", record)]:
            info = zipfile.ZipInfo(name, date_time=(2024, 9, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, text.encode("utf-8"))
    wheel = buf.getvalue()
    name = "widgetcolors-1.0.0-py3-none-any.whl"
    folder = root / "widgetcolors"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(wheel)
    sha = hashlib.sha256(wheel).hexdigest()
    (folder / "index.html").write_text(
        "<!DOCTYPE html>\n<html><body>\n"
        f'<a href="{name}#sha256={sha}">{name}</a>\n</body></html>\n', encoding="utf-8")
    (root / "index.html").write_text(
        '<!DOCTYPE html>\n<html><body>\n<a href="widgetcolors/">widgetcolors</a>\n'
        "</body></html>\n", encoding="utf-8")


def build(out_bundle: Path, out_tasks: Path, out_expected: Path) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="widgets-demo-") as tmp:
        repo = Path(tmp) / "widgets"
        repo.mkdir()
        shas = build_history(repo)
        # The bundle holds the base history only (branch main); fixes are never committed.
        git(repo, "checkout", "-q", "main")
        git(repo, "bundle", "create", "-q", str(out_bundle), "--all")

        rows, by_n = [], {}
        for spec in TASK_SPECS:
            n = spec["n"]
            if "like" in spec:
                row = dict(by_n[spec["like"]])
                row["instance_id"] = instance_id(n)
            else:
                gold, test = make_patches(repo, shas[spec["base"]], spec["edits"],
                                          spec.get("gold_paths", ()))
                row = {
                    "instance_id": instance_id(n),
                    "repo": REPO,
                    "base_commit": shas[spec["base"]],
                    "problem_statement": spec["problem"],
                    "patch": gold,
                    "test_patch": test,
                    "FAIL_TO_PASS": spec["fail_to_pass"],
                    "PASS_TO_PASS": [],
                }
            by_n[n] = row
            for field in spec.get("drop", []):
                row.pop(field, None)
            rows.append(row)
        git(repo, "checkout", "-q", "main")

    write_index(INDEX)
    with out_tasks.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, sort_keys=True) + "\n")
    expected = {}
    for n in sorted(EXPECTED_BY_N):
        verdict, why = AGENT_EXPECTED_BY_N[n]
        expected[instance_id(n)] = {**EXPECTED_BY_N[n], "agent_verdict": verdict,
                                    "agent_why": why}
    out_expected.write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n",
                            encoding="utf-8")
    return rows


# -- optional check: patches apply, F2P tests fail before the gold patch and pass after ----------


def run_pytest(cwd: Path, ids: list[str]) -> int:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *ids],
                          cwd=cwd, env=env, capture_output=True, text=True)
    return proc.returncode


def pytest_ids(cwd: Path, ids: list[str]) -> list[str]:
    """FAIL_TO_PASS as pytest takes it: a parametrized id that the benchmark cut short (no
    closing `]`, as some do) stands for the collected ids it begins (itself if none does)."""
    out = []
    for test_id in ids:
        if "[" not in test_id or test_id.endswith("]"):
            out.append(test_id)
            continue
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only",
                               "-p", "no:cacheprovider", test_id.split("[", 1)[0]],
                              cwd=cwd, capture_output=True, text=True)
        out += [line for line in proc.stdout.splitlines() if line.startswith(test_id)] \
            or [test_id]
    return out


def check(rows: list[dict]) -> bool:
    ok = True
    with tempfile.TemporaryDirectory(prefix="widgets-check-") as tmp:
        clone = Path(tmp) / "clone"
        git(Path(tmp), "clone", "-q", str(BUNDLE), str(clone))
        for row in rows:
            iid = row["instance_id"]
            if "base_commit" not in row:
                print(f"{iid}: no base_commit (malformed on purpose), skipped")
                continue
            base = row["base_commit"]
            git(clone, "checkout", "-q", "--detach", base)
            git(clone, "clean", "-q", "-fdx")
            gold, test = Path(tmp) / "gold.diff", Path(tmp) / "test.diff"
            gold.write_text(row["patch"], encoding="utf-8")
            test.write_text(row["test_patch"], encoding="utf-8")
            git(clone, "apply", "--check", str(gold))
            git(clone, "apply", "--check", str(test))
            base_suite = run_pytest(clone, [])
            git(clone, "apply", str(test))
            git(clone, "apply", str(gold))  # collected with the fix: its tests import it
            ids = pytest_ids(clone, row["FAIL_TO_PASS"])
            git(clone, "apply", "-R", str(gold))
            before = run_pytest(clone, ids)
            git(clone, "apply", str(gold))
            after = run_pytest(clone, ids)
            full = run_pytest(clone, [])
            good = base_suite == 0 and before != 0 and after == 0 and full == 0
            ok &= good
            print(f"{iid}: base suite rc={base_suite}, F2P without gold rc={before}, "
                  f"with gold rc={after}, full suite with gold rc={full}: "
                  f"{'ok' if good else 'FAILED'}")
            git(clone, "reset", "-q", "--hard", base)
            git(clone, "clean", "-q", "-fdx")
    return ok


# -- optional check: the recorded agent's answers hold up against the real materials -----------
# A restatement of the settlement rules (method §3-5), for the demo's own consistency only: it
# re-derives each task's agent verdict from recorded_answers.json so that a rebuilt bundle or an
# edited answer cannot silently drift from AGENT_EXPECTED_BY_N. The tool's settlers are the
# authority; this check only makes sure every quote, snippet, path and value is really there.

ANSWERS = HERE / "recorded_answers.json"
STRENGTH = ["AIRTIGHT", "MISDETERMINED", "CODEBASE-PLURAL", "GOLD-TEST-DATA",
            "DETERMINED-CODEBASE",
            "CONVENTION", "PROSE-AFFIRMATIVE", "BORDERLINE", "UNWITNESSED", "ENTAILED",
            "NO_CLAIM"]
# Mechanical verdicts that stand whatever the agent answers.
MECHANICAL = ("AIRTIGHT", "GOLD-TEST-DATA", "CONVENTION")
NOT_LIVE = ("tests/", "vendor/", "examples/", "fixtures/", "deprecated/")
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _added(patch: str) -> str:
    return "\n".join(line[1:] for line in patch.splitlines()
                     if line.startswith("+") and not line.startswith("+++"))


def _in_prose(constant: str, prose: str) -> bool:
    words = " ".join(w.lower() for w in _WORDS.findall(constant))
    prose_words = " " + " ".join(w.lower() for w in _WORDS.findall(prose)) + " "
    return (constant in prose or constant.casefold() in prose.casefold()
            or bool(words) and f" {words} " in prose_words)


def _live(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return not (any(path.startswith(p) or f"/{p}" in path for p in NOT_LIVE)
                or name.startswith("test_"))


def agent_verdict(row: dict, answers: dict, mechanical: str, clone: Path,
                  problems: list[str]) -> str:
    """The verdict the recorded answers should earn; every failed quote goes to `problems`."""
    if mechanical == "ERROR":
        return "ERROR"
    iid, base, prose = row["instance_id"], row["base_commit"], row["problem_statement"]
    gold, test = _flat(_added(row["patch"])), _flat(_added(row["test_patch"]))

    def in_gold(s: str) -> bool:
        return bool(_flat(s)) and _flat(s) in gold

    def in_prose(s: str) -> bool:
        return len(s.split()) >= 3 and _flat(s).casefold() in _flat(prose).casefold()

    rec = answers.get(iid, {})
    labels = []
    for b in rec.get("screen", {}).get("behaviors", []):
        if b["test_id"] not in row["FAIL_TO_PASS"]:
            problems.append(f"{iid}: screen test_id not in FAIL_TO_PASS: {b['test_id']}")
        if not in_gold(b["gold_snippet"]):
            problems.append(f"{iid}: gold_snippet not in gold added lines: {b['gold_snippet']}")
            continue
        if b["prose_clause"] and not in_prose(b["prose_clause"]):
            problems.append(f"{iid}: prose_clause not in prose: {b['prose_clause']}")
        labels.append("COVERED" if in_prose(b["prose_clause"]) else "GAP")
    found = [mechanical] if mechanical in MECHANICAL else []
    if "GAP" in labels:
        found.append("UNWITNESSED")
        candidates = []
        for w in rec.get("witness", {}).get("witnesses", []):
            for key in ("gold_anchor", "gold_value"):
                if w[key] and not in_gold(w[key]):
                    problems.append(f"{iid}: {key} not in gold added lines: {w[key]}")
            c = w["constant"]
            if w["kind"] == "airtight":
                absent = subprocess.run(["git", "grep", "-q", "-F", "-e", c, base, "--"],
                                        cwd=clone, capture_output=True).returncode == 1
                if (c in test and (c in gold or in_gold(w["gold_anchor"])) and absent
                        and not _in_prose(c, prose) and len(c) >= 3):
                    found.append("AIRTIGHT")
            elif w["kind"] == "prose_affirmative" and in_prose(w["prose_clause"]):
                found.append("PROSE-AFFIRMATIVE")
            elif w["kind"] == "borderline" and in_gold(w["gold_anchor"]):
                found.append("BORDERLINE")
            if w["kind"] not in ("misdetermined", "plural", "determined_codebase"):
                continue
            verified = []
            for p in w["precedents"]:
                show = subprocess.run(["git", "show", f"{base}:{p['path']}"], cwd=clone,
                                      capture_output=True, text=True)
                ok = (show.returncode == 0 and _live(p["path"])
                      and _flat(p["snippet"]) in _flat(show.stdout)
                      and p["value"] in p["snippet"])
                if not ok:
                    problems.append(f"{iid}: precedent does not verify: {p}")
                else:
                    verified.append(p)
            if not in_gold(w["gold_value"]):
                continue
            pins = _flat(w["test_assertion"]) in test
            if w["kind"] in ("misdetermined", "plural") and not pins:
                problems.append(f"{iid}: test_assertion not in test added lines: "
                                f"{w['test_assertion']}")
            if pins and any(a["path"] != b["path"] and a["value"] != b["value"]
                            for a in verified for b in verified):
                candidates.append("CODEBASE-PLURAL")
            elif pins and any(p["value"] != w["gold_value"] for p in verified):
                candidates.append("MISDETERMINED")
            elif any(p["value"] == w["gold_value"] for p in verified):
                found.append("DETERMINED-CODEBASE")
        refuted = {r["candidate"]: r["comparable"]
                   for r in rec.get("refute", {}).get("refutations", [])}
        for number, kind in enumerate(candidates, 1):
            if refuted.get(number) is True:
                found.append(kind)
    elif labels:
        found.append("ENTAILED")
    return min(found, key=STRENGTH.index) if found else "NO_CLAIM"


def check_recorded(rows: list[dict]) -> bool:
    answers = json.loads(ANSWERS.read_text(encoding="utf-8"))
    problems: list[str] = []
    verdicts = {}
    with tempfile.TemporaryDirectory(prefix="widgets-recorded-") as tmp:
        clone = Path(tmp) / "clone"
        git(Path(tmp), "clone", "-q", "--no-checkout", str(BUNDLE), str(clone))
        for row in rows:
            n = int(row["instance_id"].rsplit("-", 1)[1])
            verdicts[n] = agent_verdict(row, answers, EXPECTED_BY_N[n]["verdict"], clone,
                                        problems)
    for n, verdict in sorted(verdicts.items()):
        want = AGENT_EXPECTED_BY_N[n][0]
        if verdict != want:
            problems.append(f"{instance_id(n)}: recorded answers give {verdict}, "
                            f"expected agent_verdict {want}")
    unknown = sorted(set(answers) - {instance_id(n) for n in verdicts})
    problems += [f"{iid}: recorded answers for a case that is not in tasks.jsonl"
                 for iid in unknown]
    print(f"recorded answers: {len(verdicts)} tasks, agent verdicts "
          f"{', '.join(f'{n}={v}' for n, v in sorted(verdicts.items()))}")
    for p in problems:
        print(f"  PROBLEM {p}")
    return not problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="apply every patch to a clone of the bundle and run its tests; "
                             "check the recorded agent's answers against the real materials")
    args = parser.parse_args(argv)
    rows = build(BUNDLE, TASKS, EXPECTED)
    print(f"wrote {BUNDLE.name} ({BUNDLE.stat().st_size} bytes), {TASKS.name} ({len(rows)} rows), "
          f"{EXPECTED.name}")
    if args.check and not all([check(rows), check_recorded(rows)]):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
