"""`determinacy validate`: a config checked against its source before any audit."""

from __future__ import annotations

import sys

import click

from determinacy.cli.common import EXIT_ERROR_CASES, EXIT_OK, load


@click.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--rows", "show", type=click.IntRange(min=0), default=3, show_default=True,
              help="How many first rows to show the mapping on.")
def validate(config: str | None, show: int) -> None:
    """Check CONFIG against its source without auditing anything: the field mapping applied
    to the first rows, mapped fields that rows lack, unmapped columns that look like prose,
    and every row that is not a task (say, a FAIL_TO_PASS that does not parse).

    Exit status 0 when there is nothing to warn about, 3 otherwise.
    """
    from determinacy.sources.rows import validate as check

    cfg = load(config)
    v = check(cfg, show)
    click.echo(f"source: {', '.join(map(str, v.files))} ({v.rows} rows, {v.tasks} tasks)")
    for n, fields in v.shown:
        click.echo(f"row {n}:")
        for key, value in fields.items():
            click.echo(f"  fields.{key}: {value}")
    warnings = [f"fields.{k} is missing from {n} of {v.rows} rows" for k, n in v.missing.items()]
    warnings += [f"column `{c}` looks like prose the solver is given, but no fields.prose entry "
                 "reads it: a constant it states would be certified wrongly" for c in v.prose_like]
    warnings += v.bad
    for w in warnings:
        click.echo(f"warning: {w}")
    click.echo(f"{len(warnings)} warnings" if warnings else "ok: every row is a task")
    sys.exit(EXIT_ERROR_CASES if warnings else EXIT_OK)

