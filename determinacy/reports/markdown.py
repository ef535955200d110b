"""The Markdown writers REPORT.md, CLAIMS.md, receipts and SCORES.md share: cells, inline
code and tables. Pure."""

from __future__ import annotations

import decimal
from typing import Any


def md_cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float | decimal.Decimal):
        v = f"{v:.3g}"
    if isinstance(v, list):
        v = ", ".join(map(str, v))
    return str(v).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ") \
        .replace("\n", "<br>")


def code(v: str) -> str:
    """Inline code that survives any backticks inside (CommonMark: a longer fence)."""
    if not v:
        return ""
    fence = "`"
    while fence in v:
        fence += "`"
    pad = " " if v.startswith("`") or v.endswith("`") else ""
    return f"{fence}{pad}{v}{pad}{fence}"


def md_table(cols: list[str], data: list[tuple[Any, ...]], code_cols: tuple[str, ...] = ()) -> str:
    if not data:
        return "_(none)_\n"
    lines = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for r in data:
        cells = [md_cell(code(str(v)) if c in code_cols and v else v) for c, v in zip(cols, r)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
