"""`determinacy examples`: the example configs shipped with the tool (in the wheel, or
examples/ of a checkout), listed, and copied out with the files they refer to so they can be
edited. Every command that takes CONFIG also takes a shipped example's name."""

from __future__ import annotations

import filecmp
import shutil
import tomllib
from pathlib import Path
from typing import Any

import click

from determinacy.cli.common import example_names, examples_dir, shipped_example
from determinacy.errors import ConfigError, DeterminacyError

# The config keys that hold paths relative to the config's folder (`store` is where output
# goes, never copied). A value that is a URL, absolute or climbs out of the folder is not
# the example's to ship.
_PATH_KEYS = (("source", "jsonl"), ("source", "parquet"), ("source", "csv"), ("source", "git"),
              ("source", "issues"), ("codebase", "mirror"))
_PATH_TABLES = (("codebase", "dependencies"), ("codebase", "stdlib_paths"))


def description(path: Path) -> str:
    """The first line of the config's `description` ("" when it has none or does not parse:
    the listing never fails on one example)."""
    try:
        text = tomllib.loads(path.read_text(encoding="utf-8")).get("description", "")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


def referred(raw: dict[str, Any]) -> list[str]:
    """The first component of every relative path the config names (the file or folder
    beside it to copy), sorted; a `{name}` template or a glob in it is kept as a glob."""
    values: list[str] = []
    for table, key in _PATH_KEYS:
        value = raw.get(table, {}).get(key)
        values += value if isinstance(value, list) else [value] if value else []
    for table, key in _PATH_TABLES:
        values += [v for v in raw.get(table, {}).get(key, {}).values() if isinstance(v, str)]
    tops = set()
    for value in values:
        if "://" in value or value.startswith(("/", "~")):
            continue
        top = Path(value).parts[0] if Path(value).parts else ""
        if top in ("", ".", ".."):
            continue
        tops.add(_template_glob(top))
    return sorted(tops)


def _template_glob(part: str) -> str:
    """`{name}.bundle` as the glob `*.bundle` (a template's fields are the repo's parts)."""
    out, depth = [], 0
    for ch in part:
        if ch == "{":
            depth += 1
            if depth == 1:
                out.append("*")
        elif ch == "}":
            depth = max(0, depth - 1)
        elif not depth:
            out.append(ch)
    return "".join(out)


def plan(name: str, dest: Path) -> tuple[Path, list[tuple[Path, Path]]]:
    """Where the config goes and every (source file, target file) of a copy of example NAME
    into DEST (a folder, or a .toml file name)."""
    source = shipped_example(name)
    if source is None:
        raise DeterminacyError(f"no shipped example {name!r} (`determinacy examples`: "
                               f"{', '.join(example_names())})")
    target = dest if dest.suffix.lower() == ".toml" else dest / source.name
    try:
        raw = tomllib.loads(source.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(source, "", f"not valid TOML: {e}") from None
    files = [(source, target)]
    for pattern in referred(raw):
        for found in sorted(source.parent.glob(pattern)):
            inner = sorted(found.rglob("*")) if found.is_dir() else [found]
            files += [(f, target.parent / f.relative_to(source.parent)) for f in inner
                      if f.is_file() and "__pycache__" not in f.parts]
    return target, files


@click.group(invoke_without_command=True)
@click.pass_context
def examples(ctx: click.Context) -> None:
    """List the example configs shipped with the tool, each with its description. Any
    command's CONFIG may be one of these names (`determinacy run demo-history`); a file of that
    path in the current folder wins over the name. `determinacy examples copy NAME` writes one
    out to edit."""
    if ctx.invoked_subcommand is not None:
        return
    names = example_names()
    width = max(map(len, names))
    for name in names:
        click.echo(f"{name:<{width}}  {description(examples_dir() / f'{name}.toml')}".rstrip())
    click.echo("run one: `determinacy run NAME`; copy one to edit: `determinacy examples copy "
               "NAME`", err=True)


@examples.command("copy", short_help="Copy one out to edit, with the files it refers to.")
@click.argument("name")
@click.argument("dest", required=False, default="examples",
                type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite files that exist and differ.")
def copy(name: str, dest: Path, force: bool) -> None:
    """Copy the shipped example NAME (and the files it refers to, such as the demo's demo/
    folder) into DEST, a folder (default: ./examples, the layout of a checkout) or a .toml
    file name; prints the config's path. A file already there with the same bytes is left
    alone; one that differs stops the copy unless --force.

    \b
    Example:
      determinacy examples copy demo                 # examples/demo.toml, examples/demo/
      determinacy examples copy swebench-pro my.toml
    """
    target, files = plan(name, dest)
    clash = [t for s, t in files if t.exists() and not _same(s, t)]
    if clash and not force:
        shown = ", ".join(map(str, clash[:5])) + (f" (and {len(clash) - 5} more)"
                                                  if len(clash) > 5 else "")
        raise DeterminacyError(f"{_files(len(clash))} there already, with other bytes: "
                               f"{shown}; --force overwrites them")
    written = 0
    for source, to in files:
        if to.exists() and _same(source, to):
            continue
        try:
            to.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, to)  # the bytes only: an installed file may be read-only
        except OSError as e:  # DEST's folder is a file, no permission, ...
            raise DeterminacyError(f"cannot write {to}: {e.strerror}") from None
        if source.stat().st_mode & 0o111:
            to.chmod(to.stat().st_mode | 0o111)
        written += 1
    kept = len(files) - written
    click.echo(f"{_files(written)} written under {target.parent}/"
               + (f" ({_files(kept)} there already)" if kept else ""), err=True)
    click.echo(target)


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def _same(a: Path, b: Path) -> bool:
    """B already holds A's bytes (or is A: a checkout's examples/ copied onto itself)."""
    try:
        return a.samefile(b) or filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False
