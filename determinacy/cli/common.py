"""What the commands share: where the config and the store are, the exit statuses, the text
formats query results print in."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from determinacy.config import Config, load_config
from determinacy.errors import DeterminacyError
from determinacy.store import Store


def default_config() -> Path:
    """The shipped demo benchmark: examples/ of the checkout, or the copy inside the wheel."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "examples" / "demo.toml",
                      here.parent / "examples" / "demo.toml"):
        if candidate.is_file():
            return candidate
    raise DeterminacyError("the demo benchmark (examples/demo.toml) is not installed")


def find_config(config: str | None = None) -> Path:
    """The config to audit, as people expect to find it: the one given, else
    $DETERMINACY_CONFIG, else determinacy.toml in the current folder, else the shipped demo."""
    if config:
        return Path(config)
    if os.environ.get("DETERMINACY_CONFIG"):
        return Path(os.environ["DETERMINACY_CONFIG"])
    if Path("determinacy.toml").is_file():
        return Path("determinacy.toml")
    return default_config()


def load(config: str | None) -> Config:
    return load_config(find_config(config))


store_option = click.option(
    "--store", "store_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_STORE",
    show_envvar=True, default=None,
    help="Store folder (objects, cache, tables, mirrors). Default: the config's `store` "
    "(relative to the config's folder), else ./store.")


def open_store(store_dir: str | None, cfg: Config | None = None) -> Store:
    return Store(store_dir or (cfg.store_dir() if cfg is not None else "store"))
runs_option = click.option(
    "--runs", "runs_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_RUNS",
    show_envvar=True, default="runs", show_default=True,
    help="Where reports go: RUNS/<benchmark>/.")


# Exit statuses of `determinacy run` (documented in its --help).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_ERROR_CASES = 0, 1, 2, 3



def formatted(cols: list[str], data: list[tuple[Any, ...]], fmt: str) -> str:
    """Query results as text: markdown, csv, json (one array) or jsonl (an object a line)."""
    import csv
    import io

    from determinacy.reports.markdown import md_table

    if fmt == "markdown":
        return md_table(cols, data)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(cols)
        w.writerows(data)
        return buf.getvalue()
    if fmt == "json":
        return json.dumps([dict(zip(cols, r)) for r in data], default=str, sort_keys=True) + "\n"
    return "".join(json.dumps(dict(zip(cols, r)), default=str, sort_keys=True) + "\n"
                   for r in data)

