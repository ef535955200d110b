"""Keys and values of data files (YAML, JSON, TOML, INI/cfg): what a test may read from them.

Data files define nothing in the code's sense: a requirement pin `somelib>=1.4` in setup.cfg
is a value, not a definition of `somelib`. Every key and scalar value is a string token with
its line; comments yield nothing. The lexing is line-based on purpose: it works on a hunk
fragment as well as on a whole file, and never fails.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

FORMATS = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".toml": "toml", ".ini": "ini",
           ".cfg": "ini", ".conf": "ini", ".properties": "ini"}


@dataclass(frozen=True)
class Item:
    value: str
    line: int
    key: bool  # a mapping key (else a value)


def format_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1].lower()
    dot = name.rfind(".")
    return FORMATS.get(name[dot:], "") if dot != -1 else ""


_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'')
_NUMBER = re.compile(r"^[+-]?(?:\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|0x[0-9a-fA-F_]+)$")
_JSON_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)')
_YAML_KEY = re.compile(r'^\s*(?:-\s+)?("(?:[^"\\]|\\.)*"|\'[^\']*\'|[^\s#:][^:#]*?)\s*:(?:\s+|$)')
_ASSIGN = re.compile(r"^\s*([^=:#;\[\s][^=:#;]*?)\s*[=:]\s*(.*)$")


def _unquote(text: str) -> str:
    m = _QUOTED.fullmatch(text.strip())
    if m:
        return m.group(1) if m.group(1) is not None else m.group(2)
    return text.strip()


def _strip_comment(text: str) -> str:
    """Drop a ` #` comment that is outside quotes."""
    if "#" not in text:
        return text.rstrip()
    out, quote = [], ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            break
        out.append(ch)
    return "".join(out).rstrip()


def _scalars(text: str) -> list[str]:
    """Values on the right of a key, or list items: quoted strings, or the plain scalar."""
    text = text.strip()
    if not text or text in ("|", ">", "|-", ">-", "{", "[", "{}", "[]"):
        return []
    if text[0] in "[{":
        inner = text.strip("[]{} ,")
        return [v for part in inner.split(",") if (v := _unquote(part))]
    return [_unquote(text)]


def items(path: str, text: str, lines: Collection[int] | None = None) -> list[Item]:
    """Every key and scalar value of a data file, by line (1-based); of `lines` only, when
    given (each line is read on its own)."""
    fmt = format_of(path)
    out: list[Item] = []
    # Lines as a diff counts them (str.splitlines also splits at \x1c, \x85, ...).
    for n, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if lines is not None and n not in lines:
            continue
        if fmt == "json":
            for m in _JSON_TOKEN.finditer(raw):
                if m.group(1) is not None:
                    out.append(Item(m.group(1), n, key=bool(m.group(2))))
                else:
                    out.append(Item(m.group(3), n, key=False))
            continue
        line = _strip_comment(raw)
        if not line.strip() or line.lstrip().startswith((";", "//")):
            continue
        if fmt == "yaml":
            m = _YAML_KEY.match(line)
            if m:
                out.append(Item(_unquote(m.group(1)), n, key=True))
                rest = line[m.end():]
            else:
                rest = re.sub(r"^\s*-\s*", "", line)
            out += [Item(v, n, key=False) for v in _scalars(rest)]
        else:  # toml, ini: `key = value`, `[section]`
            stripped = line.strip()
            if stripped.startswith("[") and stripped.endswith("]") and "=" not in stripped:
                out += [Item(part, n, key=True) for part in stripped.strip("[]").split(".")
                        if part]
                continue
            m = _ASSIGN.match(line)
            if fmt == "ini" and line[:1].isspace():  # a continuation line: all of it a value
                out.append(Item(stripped, n, key=False))
            elif m:
                out.append(Item(_unquote(m.group(1)), n, key=True))
                out += [Item(v, n, key=False) for v in _scalars(m.group(2))]
            else:
                out += [Item(v, n, key=False) for v in _scalars(line)]
    return [i for i in out if i.value and not (not i.key and i.value in ("true", "false",
                                                                          "null", "~"))]


def is_number(value: str) -> bool:
    return bool(_NUMBER.match(value))
