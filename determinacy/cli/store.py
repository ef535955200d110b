"""`determinacy store ...`: looking after the store."""

from __future__ import annotations

import sys

import click

from determinacy.cli.common import open_store, store_option
from determinacy.errors import DeterminacyError


@click.group()
def store() -> None:
    """Look after the store (objects, action cache, tables, mirrors)."""


@store.command("verify")
@store_option
def store_verify(store_dir: str | None) -> None:
    """Rehash every object, check every action-cache entry (its output there, intact and
    sealed to its key), every stored results file and score set (named by its hash) and
    every validity revision; exit 1 on any mismatch.

    `run` checks what it reads the same way, and computes a damaged object or entry again
    (counted in its summary); this finds the ones no run has read since. A damaged validity
    revision is a person's decision: restore it from a backup.
    """
    s = open_store(store_dir)
    if not s.root.is_dir():
        raise DeterminacyError(f"no store at {s.root}")
    from determinacy.score import stored, validity

    problems = [*s.verify(), *stored.damaged(s), *validity.damaged(s)]
    for line in problems:
        click.echo(line)
    if swept := s.sweep():
        click.echo(f"removed {swept} temporary files that killed runs left (.tmp-*)", err=True)
    objects = sum(1 for _ in (s.root / "objects").glob("*/*"))
    actions = sum(1 for _ in (s.root / "ac").glob("*/*.json"))
    click.echo(f"{objects} objects, {actions} action entries: "
               + (f"{len(problems)} problems" if problems else "all match"), err=True)
    sys.exit(1 if problems else 0)

