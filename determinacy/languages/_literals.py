"""String literals: their content without prefix and quotes, and their fixed segments.

Works on any grammar: a literal whose first and last children are its delimiters (Python's
`string_start`/`string_end`, the quote tokens of JS, Go and Java) is cut between them; a leaf
literal (a Go rune, a Java char) is cut by the quote characters it starts with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

_OPENER = re.compile(rb'[A-Za-z]*("""|\'\'\'|"|\'|`)')
_CLOSER = re.compile(rb'("""|\'\'\'|"|\'|`)')
_SYMBOL = re.compile(rb":[A-Za-z_]\w*[?!=]?")
# printf verbs (`%s`, `%-5d`, `%(name)s`, Go's `%+v`, C's `%ld`, `%zu`, Ruby's `%<n>s`,
# `%{n}`) and str.format / i18n fields (`{}`, `{0}`, `{name!r:>8}`, Rust's `{:?}` and
# `{:>w$}`); `%%` and `{{` are escapes, not placeholders.
_PLACEHOLDER = re.compile(
    r"%\{[A-Za-z_]\w*\}"
    r"|%(?:\([A-Za-z_][\w.]*\)|<[A-Za-z_]\w*>)?[-#0+]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
    r"(?:hh|ll|[hljztLq])?[a-zA-Z]"
    r"|(?<!\{)\{[\w.!:<>^=+\-#,\[\]?$]*\}(?!\})"
)


class _Node(Protocol):
    # The part of tree_sitter.Node this module reads (no import of tree_sitter needed).
    @property
    def start_byte(self) -> int: ...
    @property
    def end_byte(self) -> int: ...
    @property
    def children(self) -> Sequence[_Node]: ...
    @property
    def id(self) -> int: ...


def decode(b: bytes) -> str:
    try:
        return b.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:  # a cut through a multi-byte character in broken input
        return b.decode("utf-8", "replace")


def content_span(node: _Node, src: bytes) -> tuple[int, int]:
    """Byte range of the literal's content: inside its delimiters."""
    kids = node.children
    if len(kids) >= 2:
        first, last = kids[0], kids[-1]
        if (_OPENER.fullmatch(src[first.start_byte:first.end_byte])
                and _CLOSER.fullmatch(src[last.start_byte:last.end_byte])
                and first.end_byte <= last.start_byte):
            return first.end_byte, last.start_byte
    start, end = node.start_byte, node.end_byte
    m = _OPENER.match(src, start, end)
    if m is None:
        # A symbol (Ruby's `:name`) is the name it spells: its sigil is no part of it.
        if _SYMBOL.fullmatch(src, start, end):
            return start + 1, end
        return start, end
    quote = m.group(1)
    start = m.end()
    if end - start >= len(quote) and src[end - len(quote):end] == quote:
        end -= len(quote)
    return start, max(start, end)


def fixed_parts(node: _Node, src: bytes, interpolations: set[int],
                span: tuple[int, int]) -> tuple[str, ...]:
    """The literal's fixed segments (its content is `span`) when it is a format or template
    string, else ()."""
    start, end = span
    holes = [(k.start_byte, k.end_byte) for k in node.children if k.id in interpolations]
    pieces: list[str] = []
    split = bool(holes)
    at = start
    for h_start, h_end in holes:
        pieces.append(decode(src[at:max(at, h_start)]))
        at = max(at, h_end)
    pieces.append(decode(src[at:max(at, end)]))
    out: list[str] = []
    for piece in pieces:
        parts = _PLACEHOLDER.split(piece)
        split = split or len(parts) > 1
        out.extend(p for p in parts if p)
    return tuple(out) if split else ()
