"""`determinacy validate`: a config checked against its source and mirrors before any audit;
`determinacy init`: a commented config written from a data file's columns."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from determinacy.cli.common import (
    EXIT_ERROR_CASES,
    EXIT_OK,
    config_or_dataset,
    dataset_option,
    split_option,
)
from determinacy.config import Config
from determinacy.errors import ConfigError, DeterminacyError


@click.command()
@click.argument("config", required=False)
@dataset_option
@split_option
@click.option("--rows", "show", type=click.IntRange(min=0), default=3, show_default=True,
              help="How many first rows to show the mapping on.")
@click.option("--commits", type=click.IntRange(min=0), default=20, show_default=True,
              help="Base commits looked up in each repository's mirror (spread over its "
              "rows; 0: none).")
def validate(config: str | None, dataset: str | None, split: str | None, show: int,
             commits: int) -> None:
    """Check CONFIG against its source and mirrors without auditing anything: what `run`
    checks first. Shows the field mapping (the config's [fields], or the layout detected from
    the columns) applied to the first rows, and warns once per cause of: mapped fields rows
    lack, unmapped columns that look like prose, rows that are not tasks (say, a FAIL_TO_PASS
    that does not parse), tasks whose FAIL_TO_PASS is empty (they grade nothing), a mirror
    that is missing or not a git repository or bundle, and base commits a mirror lacks.

    Exit status 0 when there is nothing to warn about, 3 otherwise.
    """
    from determinacy.sources.rows import validate as check

    cfg = config_or_dataset(config, dataset, split)
    v = check(cfg, show, commits)
    click.echo(f"source: {', '.join(map(str, v.files))} ({v.rows} rows, {v.tasks} tasks)")
    if v.layout:
        click.echo(f"fields: no [fields] table: {v.layout}, detected from the columns")
    for n, fields in v.shown:
        click.echo(f"row {n}:")
        for key, value in fields.items():
            click.echo(f"  fields.{key}: {value}")
    warnings = [f"fields.{k} is missing from {n} of {v.rows} rows" for k, n in v.missing.items()]
    warnings += [f"column `{c}` looks like prose the solver is given, but no fields.prose entry "
                 "reads it: a constant it states would be certified wrongly" for c in v.prose_like]
    warnings += v.bad
    if v.ungraded:
        warnings.append(f"{v.ungraded} of {v.rows} rows: FAIL_TO_PASS empty (fields.fail_to_pass "
                        f"reads {v.fail_to_pass}): they grade nothing, so none of their "
                        "constants can be claimed")
    warnings += v.mirrors
    for w in warnings:
        click.echo(f"warning: {w}")
    for note in v.notes:
        click.echo(f"note: {note}")
    found = (f"; {v.commits_checked} base commits found in the mirrors"
             if v.commits_checked and not v.mirrors else "")
    click.echo(f"{len(warnings)} warnings" if warnings else f"ok: every row is a task{found}")
    sys.exit(EXIT_ERROR_CASES if warnings else EXIT_OK)


@click.command()
@click.argument("datafile", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", default="determinacy.toml", show_default=True,
              type=click.Path(dir_okay=False), help="The config file to write.")
@click.option("--mirror", metavar="TEMPLATE", help="[codebase] mirror: local mirrors, as "
              "a path template with {owner} and {name} (e.g. /srv/mirrors/{owner}/{name}.git).")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
def init(datafile: str, output: str, mirror: str | None, force: bool) -> None:
    """Write a commented config for DATAFILE (jsonl, json lines, parquet or csv) from its
    columns: the [fields] mapping of the layout they match (SWE-bench, SWE-bench Pro), and
    every optional key commented out at its default. `determinacy validate OUTPUT` then shows
    the mapping on the first rows.

    Exit status 0, or 3 when the columns match no known layout (the keys it could not map
    say FIXME).
    """
    from determinacy.sources.config_text import benchmark_name, config_text, source_key

    data, out = Path(datafile), Path(output)
    if out.exists() and not force:
        raise DeterminacyError(f"{out} exists: give --force to replace it, or -o another file")
    kind = source_key(data)
    columns = _columns(data, kind)
    # Relative to the config's folder when it is below it (the pair can move together).
    where = os.path.relpath(data.resolve(), out.resolve().parent)
    if where.startswith(".."):
        where = str(data.resolve())
    text, layout = config_text(where, columns, name=benchmark_name(data), kind=kind,
                               mirror=mirror)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise DeterminacyError(f"cannot write {out}: {e.strerror}") from None
    if layout:
        click.echo(f"wrote {out}: the {layout} layout, from the columns of {data}")
        return
    click.echo(f"wrote {out}, but the columns of {data} match no known layout: map the keys "
               "that say FIXME in its [fields] table", err=True)
    sys.exit(EXIT_ERROR_CASES)


def _columns(data: Path, kind: str, rows: int = 100) -> dict[str, None]:
    """The columns of the file's first rows, in order (a JSON array is not JSON lines)."""
    from determinacy.config import SourceCfg
    from determinacy.sources.files import iter_rows

    cfg = Config(name="init", source=SourceCfg(**{kind: str(data)}), file=str(data))
    columns: dict[str, None] = {}
    objects = 0
    for n, row in iter_rows(cfg, [data]):
        if isinstance(row, dict):
            objects += 1
            columns.update(dict.fromkeys(str(k) for k in row))
        if n >= rows:
            break
    if not objects:
        raise ConfigError(data, f"source.{kind}", "no row is an object with columns (a "
                          "JSON array? write it as JSON lines, one object a line)")
    return columns
