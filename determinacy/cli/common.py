"""What the commands share: where the config and the store are, the exit statuses, the text
formats query results print in."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from determinacy.config import Config, load_config
from determinacy.errors import ConfigError, DeterminacyError
from determinacy.store import Store


def examples_dir() -> Path:
    """The shipped example configs and the demo's files: the copy inside the wheel, else
    examples/ of the checkout."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "examples", here.parent / "examples"):
        if (candidate / "demo.toml").is_file():
            return candidate
    raise DeterminacyError("the shipped examples (examples/demo.toml) are not installed")


def example_names() -> list[str]:
    return sorted(p.stem for p in examples_dir().glob("*.toml"))


def shipped_example(name: str) -> Path | None:
    """The shipped example NAME (or NAME.toml), if there is one: a bare name, never a path."""
    stem = name.removesuffix(".toml")
    if not stem or "/" in name or stem.startswith("."):
        return None
    path = examples_dir() / f"{stem}.toml"
    return path if path.is_file() else None


def default_config() -> Path:
    """The shipped demo benchmark: examples/ of the checkout, or the copy inside the wheel."""
    return examples_dir() / "demo.toml"


def chosen_config() -> Path | None:
    """The config the user chose without naming it: $DETERMINACY_CONFIG, else determinacy.toml
    in the current folder."""
    if chosen := os.environ.get("DETERMINACY_CONFIG"):
        return Path(chosen) if Path(chosen).exists() else shipped_example(chosen) or Path(chosen)
    if Path("determinacy.toml").is_file():
        return Path("determinacy.toml")
    return None


def find_config(config: str | None = None) -> Path:
    """The config to audit, as people expect to find it: the file given, else NAME.toml in
    the current folder, else the shipped example of that name, else $DETERMINACY_CONFIG, else
    determinacy.toml in the current folder, else the shipped demo."""
    if config:
        path = Path(config)
        if path.is_file():
            return path
        # A name: the user's copy in this folder (`examples copy demo .`), else the shipped one.
        if "/" not in config and not config.endswith(".toml") and Path(f"{config}.toml").is_file():
            return Path(f"{config}.toml")
        if shipped := shipped_example(config):
            return shipped
        if path.is_dir():
            raise ConfigError(path, "", "a folder, not a config file")
        if not path.exists() and "/" not in config:
            raise ConfigError(path, "", "no such config file, and no shipped example of that "
                              f"name (`determinacy examples`: {', '.join(example_names())})")
        return path  # load_config names what is wrong with it
    return chosen_config() or default_config()


def demo_results(cfg: Config) -> list[Path]:
    """The demo's recorded results (made up: no real model's), when CFG is the demo (the
    shipped one, or a copy with its demo/ folder beside it); else none."""
    folder = cfg.resolve("demo/results")
    if cfg.name != "demo" or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file())


def load(config: str | None) -> Config:
    return load_config(find_config(config))


dataset_option = click.option(
    "--dataset", metavar="NAME", help="A Hugging Face dataset (owner/name) to read with no "
    "config: its columns must match a known layout (SWE-bench, SWE-bench Pro). Needs the "
    "`hf` extra.")
split_option = click.option("--split", metavar="S", help="The dataset's split (with "
                            "--dataset; default: test).")


def config_or_dataset(config: str | None, dataset: str | None, split: str | None) -> Config:
    """The config a command reads: CONFIG, or the one `--dataset NAME --split S` builds."""
    from determinacy.config import dataset_config

    if dataset is None:
        if split is not None:
            raise DeterminacyError("--split is read only with --dataset")
        return load(config)
    if config is not None:
        raise DeterminacyError("give CONFIG or --dataset, not both")
    return dataset_config(dataset, split or "test")



def reading_config(config: str | None, store_dir: str | None, dataset: str | None = None,
                   split: str | None = None) -> Config:
    """The whole config a reading command needs (report, hints, export, verify, score,
    validity): CONFIG or --dataset, else the chosen config (see chosen_config), else the demo's
    when the one benchmark the store holds is the demo's. A store holding another benchmark
    is an error naming it: the demo is never read in its place."""
    if config or dataset or chosen_config():
        return config_or_dataset(config, dataset, split)
    demo = load(None)
    _, name = stored_benchmark(None, store_dir)
    if name != demo.name:
        raise DeterminacyError(f"the store holds benchmark {name!r}, not the demo: pass its "
                               "CONFIG (or --dataset NAME) to this command")
    return demo


store_option = click.option(
    "--store", "store_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_STORE",
    show_envvar=True, default=None,
    help="Store folder (objects, cache, tables, mirrors). Default: the config's `store` "
    "(relative to the config's folder), else ./store.")


def open_store(store_dir: str | None, cfg: Config | None = None) -> Store:
    return Store(store_dir or (cfg.store_dir() if cfg is not None else "store"))


def stored_benchmark(config: str | None, store_dir: str | None) -> tuple[Store, str]:
    """The store and the benchmark a reading command (`show`, `sql`) reads: CONFIG's, else
    the chosen config's (see chosen_config), else the one benchmark the store holds (named on
    stderr). Only the name is needed: the tables are read, never the source."""
    if config or chosen_config():
        cfg = load(config)
        return open_store(store_dir, cfg), cfg.name
    store = open_store(store_dir)
    shown = f"{(store_dir or 'store').rstrip('/')}/"
    tables = store.root / "tables"
    names = sorted(p.name for p in tables.iterdir()
                   if p.is_dir() and any(p.glob("*.parquet"))) if tables.is_dir() else []
    if not names:
        raise DeterminacyError(f"no stored audit in {shown}: run `determinacy run CONFIG` "
                               "first (or give --store)")
    if len(names) > 1:
        raise DeterminacyError(f"{len(names)} benchmarks in {shown} ({', '.join(names)}): "
                               "pass CONFIG (its file, or a shipped example's name)")
    click.echo(f"benchmark {names[0]!r} (the only one in {shown})", err=True)
    return store, names[0]


runs_option = click.option(
    "--runs", "runs_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_RUNS",
    show_envvar=True, default="runs", show_default=True,
    help="Where reports go: RUNS/<benchmark>/.")


# Exit statuses of `determinacy run` (documented in its --help).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_ERROR_CASES = 0, 1, 2, 3



# The formats `sql` and `export` write (`emit`).
FORMATS = ("markdown", "csv", "json", "jsonl", "parquet")


def format_option(default: str) -> Any:
    return click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default=default, show_default=True,
        help="markdown (a table), csv, json (one array of objects), jsonl (an object a line) "
        "or parquet (needs --out). NULL is empty in markdown and csv, null in JSON.")


out_option = click.option("--out", type=click.Path(dir_okay=False), default=None,
                          help="File to write (default: stdout; parquet needs a file).")


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


def emit(con: Any, query: str, fmt: str, out: str | None) -> None:
    """Run `query` on the DuckDB connection and write its rows in `fmt` (FORMATS) to the file
    `out`, else to stdout: what `sql` and `export` print. A query that fails is a
    DeterminacyError naming DuckDB's message."""
    from determinacy.reports.query import rows

    if fmt == "parquet" and not out:
        raise click.UsageError("--format parquet needs --out FILE")
    try:
        if fmt == "parquet":
            rel = con.sql(query)
            # DuckDB may reach no file (`connect`): pyarrow writes.
            table = rel.to_arrow_table() if rel is not None else None
        else:
            cols, data = rows(con, query)
    except Exception as e:  # duckdb raises many error types; all mean "the query is wrong"
        raise DeterminacyError(f"query failed: {e}") from None
    if not out:
        click.echo(formatted(cols, data, fmt), nl=False)
        return
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(table if table is not None else pa.table({}), out)
        else:
            Path(out).write_text(formatted(cols, data, fmt), encoding="utf-8")
    except OSError as e:
        raise DeterminacyError(f"cannot write {out}: {e.strerror or e}") from None

