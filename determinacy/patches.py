"""Parse unified diffs and lex their added lines into tokens (comments skipped).

Parsing uses `unidiff`; lexing uses Pygments' lexer for each file's type, run over the hunk's
new side (context lines included, so a lexer sees the string or comment an added line sits in),
keeping only tokens that start on added lines. Files no lexer knows get a small regex fallback.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.token import Comment, Keyword, Name, Number, String, Token
from pygments.util import ClassNotFound
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError as UnidiffError

from determinacy.errors import CaseError


@dataclass(frozen=True)
class Tok:
    kind: str  # identifier | string | number
    value: str
    path: str
    line: int


@dataclass
class FileDiff:
    path: str
    binary: bool
    # Each hunk as its new-side lines: (line number, text, is_added).
    hunks: list[list[tuple[int, str, bool]]] = field(default_factory=list)


def parse_patch(text: str, what: str) -> list[FileDiff]:
    """Parse a unified diff. Raises CaseError (deterministic) when it is not one."""
    try:
        patch = PatchSet(text)
    except UnidiffError as e:
        raise CaseError(f"{what} does not parse as a unified diff: {e}") from None
    except Exception as e:  # unidiff raises plain errors on some malformed hunks
        raise CaseError(f"{what} does not parse as a unified diff: {type(e).__name__}: {e}") \
            from None
    if not len(patch):
        raise CaseError(f"{what} holds no file diff (expected `diff --git` / `---` / `+++`)")
    files = []
    for pf in patch:
        path = pf.path
        if pf.is_removed_file:
            continue
        fd = FileDiff(path=path, binary=bool(pf.is_binary_file))
        for hunk in pf:
            lines = [
                (ln.target_line_no, ln.value, ln.is_added)
                for ln in hunk
                if ln.is_added or ln.is_context
            ]
            fd.hunks.append(lines)
        files.append(fd)
    return files


# Token types that are names a test can hinge on. Builtins, keywords and decorators are the
# language's, never the task's.
_SKIP_NAMES = (Name.Builtin, Name.Exception, Name.Decorator)


@lru_cache(maxsize=512)
def _lexer(key: str) -> Lexer | None:
    try:
        lexer = get_lexer_for_filename(key, stripnl=False, ensurenl=False, stripall=False)
    except ClassNotFound:
        return None
    return None if isinstance(lexer, TextLexer) else lexer


def lexer_for(path: str) -> Lexer | None:
    name = path.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    # Cache by extension (or by name for extension-less files like Makefile).
    return _lexer(f"x.{ext}" if ext else name)


_QUOTES = "\"'`"


def _string_pieces(text: str, start_line: int) -> Iterator[tuple[str, int]]:
    """A string literal's source text without delimiters, one piece per line, stripped."""
    for i, part in enumerate(text.split("\n")):
        piece = part.strip().strip(_QUOTES).strip()
        if piece:
            yield piece, start_line + i


_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_FALLBACK = re.compile(
    r"""(?P<s>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"|(?P<n>\b\d[\d_.]*\b)"
    r"|(?P<i>[A-Za-z_][A-Za-z0-9_]*)"
)


def _lex_fallback(text: str) -> Iterator[tuple[str, str, int]]:
    for m in _FALLBACK.finditer(text):
        kind = "string" if m.group("s") else "number" if m.group("n") else "identifier"
        yield kind, m.group(0), m.start()


def _lex(lexer: Lexer, text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, raw text, offset) for names, string literals and numbers; comments dropped."""
    buf: list[str] = []
    buf_at = 0
    for offset, ttype, value in lexer.get_tokens_unprocessed(text):
        if ttype in String and ttype not in String.Doc and ttype not in String.Interpol \
                and ttype not in String.Affix:
            if not buf:
                buf_at = offset
            buf.append(value)
            continue
        if buf:
            yield "string", "".join(buf), buf_at
            buf = []
        if ttype in Comment or ttype in String or ttype in Keyword:
            continue
        if ttype in Number:
            yield "number", value, offset
        elif ttype in Name.Tag:
            # Keys of JSON/YAML/XML: quoted or not, they are literal data a test may pin.
            yield "string", value, offset
        elif ttype in Name and not any(ttype in s for s in _SKIP_NAMES):
            for m in _IDENT.finditer(value):
                yield "identifier", m.group(0), offset + m.start()
        elif ttype in Token.Text or ttype in Token.Other or ttype in Token.Error:
            # Some lexers leave unknown spans as Text/Other; take names from them too.
            if ttype not in Token.Text.Whitespace:
                for m in _IDENT.finditer(value):
                    if len(m.group(0)) > 1:
                        yield "identifier", m.group(0), offset + m.start()
    if buf:
        yield "string", "".join(buf), buf_at


def added_tokens(files: list[FileDiff]) -> Iterator[Tok]:
    for fd in files:
        if fd.binary:
            continue
        lexer = lexer_for(fd.path)
        for hunk in fd.hunks:
            if not any(added for _, _, added in hunk):
                continue
            text = "".join(t if t.endswith("\n") else t + "\n" for _, t, _ in hunk)
            starts, pos = [], 0
            for _, t, _ in hunk:
                starts.append(pos)
                pos += len(t) if t.endswith("\n") else len(t) + 1
            tokens = _lex(lexer, text) if lexer else _lex_fallback(text)
            for kind, raw, offset in tokens:
                idx = _line_index(starts, offset)
                if kind == "string":
                    first = hunk[idx][0]
                    for piece, ln in _string_pieces(raw, first):
                        j = idx + (ln - first)
                        if j < len(hunk) and hunk[j][2]:
                            yield Tok("string", piece, fd.path, ln)
                elif hunk[idx][2]:
                    yield Tok(kind, raw, fd.path, hunk[idx][0])


def _line_index(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo
