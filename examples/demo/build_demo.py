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

COMMITS = [
    ("C1", "2024-01-15T09:00:00+00:00", "Initial inventory, errors and formatting", C1_FILES),
    ("C2", "2024-02-02T14:30:00+00:00", "Add pricing module with bulk discounts", C2_FILES),
    ("C3", "2024-03-11T10:15:00+00:00", "Add command line interface", C3_FILES),
    ("C4", "2024-04-22T16:45:00+00:00", "Add shipping cost and sales tax helpers", C4_FILES),
    # Appended later: the SHAs of C1-C4 (and so tasks 1-10) do not change.
    ("C5", "2024-05-27T11:20:00+00:00", "Add stock reports and counter receipts", C5_FILES),
]

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


def make_patches(repo: Path, base: str, edits) -> tuple[str, str]:
    git(repo, "checkout", "-q", "--detach", base)
    apply_edits(repo, edits)
    git(repo, "add", "-A")
    diff = ["diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames", base, "--"]
    gold = git(repo, *diff, ".", ":(exclude)tests")
    test = git(repo, *diff, "tests")
    git(repo, "reset", "-q", "--hard", base)
    git(repo, "clean", "-q", "-fdx")
    if not gold or not test:
        raise SystemExit(f"empty patch for base {base}")
    return gold, test


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
                gold, test = make_patches(repo, shas[spec["base"]], spec["edits"])
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
            before = run_pytest(clone, row["FAIL_TO_PASS"])
            git(clone, "apply", str(gold))
            after = run_pytest(clone, row["FAIL_TO_PASS"])
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
STRENGTH = ["AIRTIGHT", "MISDETERMINED", "CODEBASE-PLURAL", "DETERMINED-CODEBASE",
            "PROSE-AFFIRMATIVE", "BORDERLINE", "UNWITNESSED", "ENTAILED", "NO_CLAIM"]
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
    found = [mechanical] if mechanical == "AIRTIGHT" else []
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
