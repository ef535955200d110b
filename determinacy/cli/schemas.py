"""`determinacy schemas`: the JSON Schema of every stored record."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from determinacy.errors import DeterminacyError


@click.command()
@click.option("--check", is_flag=True, help="Exit 1 if schemas/ differs from the structs.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder to write (default: schemas/ of the checkout it runs from).")
def schemas(check: bool, out: str | None) -> None:
    """Write the JSON Schema of every stored record to schemas/ (or check it is current).
    An installed tool checks its own packaged copy; to write, give --out."""
    from determinacy.schemas import schema_files

    here = Path(__file__).resolve().parent.parent
    checkout = here.parent / "schemas" if (here.parent / "pyproject.toml").is_file() else None
    if out:
        folder = Path(out)
    elif checkout is not None:
        folder = checkout
    elif check:
        folder = here / "_data" / "schemas"
    else:
        raise DeterminacyError("not run from a checkout of determinacy: give --out DIR to say "
                               "where the schemas go")
    stale = []
    for name, text in schema_files().items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        click.echo(f"schemas out of date: {', '.join(stale)}; run `determinacy schemas`", err=True)
        sys.exit(1)


