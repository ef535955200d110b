"""The Markdown writers REPORT.md, CLAIMS.md, receipts and SCORES.md share: cells, inline
code, prose values and tables. Every value read from data (a model name, an instance id, a
constant, an error message) reaches Markdown through one of them, so none can open a heading,
a list, a link or raw HTML, and a control character is shown, never printed. Pure."""

from __future__ import annotations

import decimal
import re
from typing import Any

# C0 and C1 controls (tab and newline apart: each writer says what they become), and the
# bidirectional and line-separator formatting characters that reorder or split what is shown.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e"
                      "\u2066-\u2069\u2028\u2029]")


def visible(s: str) -> str:
    """`s` with each control character written as its escape (`\\x00`, `\\u202e`)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100
                        else f"\\u{ord(m[0]):04x}", s)


def text(v: Any) -> str:
    """A data value inside a Markdown line: one line, no HTML, no link, no code fence."""
    # `<` opens HTML and `&` an entity; `>` quotes only at a line's start, where no value is.
    s = str(v).replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;")
    for c in "[]`":  # a link, a code span; emphasis only styles, so `_` and `*` stay
        s = s.replace(c, "\\" + c)
    return visible(s.replace("\r", "\\r").replace("\n", "\\n").replace("\t", " "))


def block(v: str) -> list[str]:
    """A fenced code block of `v` (an error message): shown verbatim, its control characters
    escaped, under a fence longer than any run of backticks inside."""
    v = visible(v.replace("\r\n", "\n").replace("\r", "\n"))
    fence = "```"
    while fence in v:
        fence += "`"
    return [fence, *v.split("\n"), fence]


def md_cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float | decimal.Decimal):
        v = f"{v:.3g}"
    if isinstance(v, list):
        v = ", ".join(map(str, v))
    return visible(str(v).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ")
                   .replace("&", "&amp;").replace("<", "&lt;").replace("[", "\\[")
                   .replace("]", "\\]").replace("\n", "<br>").replace("\t", " "))


def code(v: str) -> str:
    """Inline code that survives any backticks inside (CommonMark: a longer fence), on one
    line, its control characters shown."""
    v = visible(v.replace("\r", "\\r").replace("\n", "\\n"))
    if not v:
        return ""
    fence = "`"
    while fence in v:
        fence += "`"
    pad = " " if v.startswith("`") or v.endswith("`") else ""
    return f"{fence}{pad}{v}{pad}{fence}"


def code_cell(v: Any) -> str:
    """Inline code in a table cell. A backslash inside a code span is literal, so it is not
    doubled; a pipe is `\\|`, which GFM turns back into `|` before it reads the span (the raw
    text then differs from the command: `verbatim` lists such commands)."""
    return code(str(v)).replace("|", "\\|")


def verbatim(title: str, commands: list[tuple[str, str]]) -> list[str]:
    """The commands a table shows escaped (those with a `|`), as a fenced block to paste:
    `(label, command)` pairs, each label a comment line. [] when there are none."""
    shown = [(label, c) for label, c in commands if "|" in c]
    if not shown:
        return []
    lines = [ln for label, c in shown for ln in (f"# {visible(label)}", visible(c))]
    return [title, "", *block("\n".join(lines)), ""]


def md_table(cols: list[str], data: list[tuple[Any, ...]], code_cols: tuple[str, ...] = ()) -> str:
    if not data:
        return "_(none)_\n"
    lines = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for r in data:
        cells = [code_cell(v) if c in code_cols and v else md_cell(v) for c, v in zip(cols, r)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
