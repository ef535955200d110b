"""Command line: `determinacy run | report | show | export | validate | init | diff | hints |
sql | verify | store | score | validity | schemas | examples | plan`. One module per family of
commands; this one builds the group."""

from __future__ import annotations

import sys
from typing import Any

import click

from determinacy.cli import examples, read, run, schemas, score, source, store
from determinacy.cli.common import EXIT_FAILED, EXIT_USAGE, find_config
from determinacy.cli.run import _term, agent_setups
from determinacy.errors import DeterminacyError, StoreError

__all__ = ["main", "find_config", "agent_setups", "_term"]


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StoreError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(EXIT_FAILED)
        except DeterminacyError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(EXIT_USAGE)


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # click's version_option wants the version up front: read it only when it is asked for.
    if value and not ctx.resilient_parsing:
        from determinacy import __version__

        click.echo(f"determinacy, version {__version__}")
        ctx.exit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_version, help="Show the version and exit.")
def main() -> None:
    """Audit a SWE-bench-style benchmark: which graded behaviors does the task text determine?

    Every claim comes with a receipt a skeptic can re-run. Without CONFIG, `run` audits the
    shipped offline demo benchmark. CONFIG is a file, or the name of an example shipped with
    the tool (`determinacy examples` lists them: `determinacy run demo-history`); a file of
    that path in the current folder wins over the name.

    \b
    Environment:
      DETERMINACY_CONFIG  the config a command given none reads (a file or an example's
                          name; default: ./determinacy.toml, else the demo)
      DETERMINACY_STORE   the store folder (--store; default: store)
      DETERMINACY_RUNS    where reports go (--runs; default: runs)
    POSIX only (Linux, macOS): the store locks with fcntl.
    """


for command in (run.run, run.plan, read.report, read.show, source.validate, source.init, read.diff,
                read.hints, read.export, read.sql, read.verify_claims, store.store,
                score.score_cmd, score.validity, schemas.schemas, examples.examples):
    main.add_command(command)
