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
from unidiff import Hunk, PatchSet
from unidiff.constants import DEV_NULL, RE_PATCH_FILE_PREFIX
from unidiff.errors import UnidiffParseError as UnidiffError

from determinacy.errors import CaseFailure


@dataclass(frozen=True)
class Tok:
    kind: str  # identifier | string | number
    value: str
    path: str
    line: int
    defines: int = 0  # a name at a definition site: NOT_DEF, LOCAL_DEF or DEF


@dataclass(frozen=True)
class RawHunk:
    """A hunk as the diff gives it, both sides: what applying it to the base needs."""

    source_start: int  # the header's old-side start (0 with source_length 0: before line 1)
    source_length: int
    # Every body line in order: (" " | "-" | "+", text). The text keeps its "\n" unless the
    # diff marks it "\ No newline at end of file" (the marker itself is not a line here).
    lines: list[tuple[str, str]]


@dataclass
class FileDiff:
    path: str
    binary: bool
    # Each hunk as its new-side lines: (line number, text, is_added).
    hunks: list[list[tuple[int, str, bool]]] = field(default_factory=list)
    # Below: what a post-image needs (postimage.py); the lexing above ignores it.
    raw: list[RawHunk] = field(default_factory=list)  # the same hunks, both sides
    new_file: bool = False  # the old side is /dev/null
    old_path: str | None = None  # the path at base when it differs (rename, copy)


def parse_patch(text: str, what: str) -> list[FileDiff]:
    """Parse a unified diff. Raises CaseFailure (deterministic) when it is not one."""
    # unidiff splits lines on "\n" only: with CRLF every header and path keeps its "\r" (then
    # `x.py\r` has no lexer and is no test path). Dropping it changes no line number.
    text = text.replace("\r\n", "\n")
    try:
        patch = PatchSet(text)
    except UnidiffError as e:
        raise CaseFailure(f"{what} does not parse as a unified diff: {e}") from None
    except Exception as e:  # unidiff raises plain errors on some malformed hunks
        raise CaseFailure(f"{what} does not parse as a unified diff: {type(e).__name__}: {e}") \
            from None
    if not len(patch):
        raise CaseFailure(
            f"{what} does not parse as a unified diff: no `diff --git` or `---`/`+++` header"
        )
    files = []
    for pf in patch:
        path = pf.path
        if pf.is_removed_file:
            continue
        fd = FileDiff(path=path, binary=bool(pf.is_binary_file),
                      new_file=pf.source_file == DEV_NULL,
                      old_path=_unprefixed(pf.source_file) if pf.is_rename else None)
        for hunk in pf:
            lines = [
                (ln.target_line_no, ln.value, ln.is_added)
                for ln in hunk
                if ln.is_added or ln.is_context
            ]
            fd.hunks.append(lines)
            fd.raw.append(RawHunk(hunk.source_start, hunk.source_length, _both_sides(hunk)))
        files.append(fd)
    return files


def _both_sides(hunk: Hunk) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for ln in hunk:
        if ln.line_type in ("+", "-", " "):
            out.append((ln.line_type, ln.value))
        elif ln.line_type == "\\" and out and out[-1][1].endswith("\n"):
            # unidiff keeps the "\n" of a line the marker says has none.
            out[-1] = (out[-1][0], out[-1][1][:-1])
    return out


def _unprefixed(name: str) -> str:
    """A header's file name as `PatchedFile.path` spells paths (a/ or b/ dropped, quotes
    kept), so an old path and a new one read the same way."""
    quoted = len(name) > 1 and name.startswith('"') and name.endswith('"')
    inner = name[1:-1] if quoted else name
    if RE_PATCH_FILE_PREFIX.match(inner):
        inner = inner[2:]
    return f'"{inner}"' if quoted else inner


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


IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_FALLBACK = re.compile(
    r"""(?P<s>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"|(?P<n>\b\d[\d_.]*\b)"
    r"|(?P<i>[A-Za-z_][A-Za-z0-9_]*)"
)


def _lex_fallback(text: str) -> Iterator[tuple[str, str, int, int]]:
    for m in _FALLBACK.finditer(text):
        kind = "string" if m.group("s") else "number" if m.group("n") else "identifier"
        yield kind, m.group(0), m.start(), NOT_DEF


@dataclass
class _Lexeme:
    kind: str  # identifier | string | number | keyword | punct
    value: str
    offset: int
    ttype: object
    defines: int = 0  # NOT_DEF, LOCAL_DEF or DEF


def _lexemes(lexer: Lexer, text: str) -> list[_Lexeme]:
    """Significant tokens: names, literals (string pieces merged), keywords, punctuation."""
    out: list[_Lexeme] = []
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
            out.append(_Lexeme("string", "".join(buf), buf_at, String))
            buf = []
        if ttype in Comment or ttype in String or not value.strip():
            continue
        if ttype in Keyword:
            out.append(_Lexeme("keyword", value.strip(), offset, ttype))
        elif ttype in Number:
            out.append(_Lexeme("number", value, offset, ttype))
        elif ttype in Name.Tag:
            # Keys of JSON/YAML/XML: quoted or not, they are literal data a test may pin.
            out.append(_Lexeme("string", value, offset, ttype))
        elif ttype in Name:
            # Builtins and decorators are the language's, not the task's: kept for context only.
            kind = "name" if any(ttype in s for s in _SKIP_NAMES) else "identifier"
            for m in IDENTIFIER.finditer(value):
                out.append(_Lexeme(kind, m.group(0), offset + m.start(), ttype))
        elif ttype in Token.Operator or ttype in Token.Punctuation:
            out.append(_Lexeme("punct", value.strip(), offset, ttype))
        elif ttype in Token.Text or ttype in Token.Other or ttype in Token.Error:
            # Some lexers leave unknown spans as Text/Other; take names from them too.
            for m in IDENTIFIER.finditer(value):
                if len(m.group(0)) > 1:
                    out.append(_Lexeme("identifier", m.group(0), offset + m.start(), ttype))
    if buf:
        out.append(_Lexeme("string", "".join(buf), buf_at, String))
    return out


# Keywords after which the next name is being declared, in the languages benchmarks use.
DEF_KEYWORDS = frozenset(
    "def class func function fn type interface struct enum trait module namespace record "
    "object".split()
)
VAR_KEYWORDS = frozenset("let const var val".split())
# Definition strength. A plain variable (`x = ...`, `const x`) may be a local: it crosses from
# gold to test (a module constant the test imports) but never from test to gold, since code
# cannot read a test's locals by name.
NOT_DEF, LOCAL_DEF, DEF = 0, 1, 2


def mark_definitions(lx: list[_Lexeme], python_like: bool, text: str) -> None:
    """Mark names at definition sites (method §7 DefUse). Conservative: a name both patches
    define, or neither does, never certifies, so a missed definition costs a claim, not a lie.

    DEF: the lexer tags a function or class name; a declaring keyword precedes it (`def`,
    `func`, `class`, ... also past a Go receiver); an attribute is assigned (`self.x =`); a
    parameter of a signature; outside Python, a key of a `{...}` literal or member list
    (`{key: ...`, `, key:`, or a `key:` that starts its line; never `case X:`).
    LOCAL_DEF: a plain variable assigned (`=`, `:=`) outside a call's parentheses, or declared
    with `let`/`const`/`var`/`val`.
    """
    stack: list[tuple[str, bool]] = []  # open brackets: (char, is a signature)
    last_def = -1
    for i, t in enumerate(lx):
        if t.kind == "punct":
            if t.value in ("(", "[", "{"):
                stack.append((t.value, t.value == "(" and last_def == i - 1))
            elif t.value in (")", "]", "}") and stack:
                stack.pop()
            continue
        if t.kind != "identifier":
            continue
        prev = lx[i - 1] if i else None
        nxt = lx[i + 1] if i + 1 < len(lx) else None
        inner, signature = stack[-1] if stack else ("", False)
        level = DEF if (t.ttype in Name.Function or t.ttype in Name.Class) else NOT_DEF
        if prev is not None and prev.kind == "keyword" and prev.value in DEF_KEYWORDS:
            level = DEF
        elif prev is not None and prev.kind == "keyword" and prev.value in VAR_KEYWORDS:
            level = max(level, LOCAL_DEF)
        elif prev is not None and prev.value == ")" and _after_receiver(lx, i - 1):
            level = DEF
        if nxt is not None and nxt.kind == "punct":
            if nxt.value in ("=", ":=") and not (inner == "(" and not signature):
                attribute = prev is not None and prev.value == "."
                level = max(level, DEF if attribute or signature else LOCAL_DEF)
            elif nxt.value == ":" and inner == "{" and not python_like and _is_key(lx, i, text):
                level = DEF
        if signature and prev is not None and prev.value in ("(", ","):
            level = DEF
        t.defines = level
        if level:
            last_def = i


def _is_key(lx: list[_Lexeme], i: int, text: str) -> bool:
    if i == 0:
        return True
    prev = lx[i - 1]
    if prev.value in ("{", ",", ";"):
        return True
    if prev.value in ("case", "default", "."):
        return False
    return "\n" in text[prev.offset : lx[i].offset]


def _after_receiver(lx: list[_Lexeme], close: int) -> bool:
    """`func (r *Recv) Name(`: the `)` at `close` ends a receiver right after `func`."""
    depth = 0
    for j in range(close, -1, -1):
        if lx[j].value == ")":
            depth += 1
        elif lx[j].value == "(":
            depth -= 1
            if depth == 0:
                return j > 0 and lx[j - 1].kind == "keyword" and lx[j - 1].value == "func"
    return False


def _lex(lexer: Lexer, text: str) -> Iterator[tuple[str, str, int, int]]:
    """(kind, raw text, offset, defines) for names, string literals and numbers."""
    lx = _lexemes(lexer, text)
    mark_definitions(lx, python_like="python" in lexer.name.lower(), text=text)
    imports = module_strings(lx, text if lexer.name == "Go" else "")
    for i, t in enumerate(lx):
        if t.kind in ("identifier", "string", "number") and i not in imports:
            yield t.kind, t.value, t.offset, t.defines


_GO_IMPORT_SPEC = re.compile(r'[ \t]*(?:[A-Za-z_.][A-Za-z0-9_]*[ \t]+)?"[^"\n]*"[ \t]*')


def module_strings(lx: list[_Lexeme], go_text: str = "") -> set[int]:
    """Indexes of strings that name a module to import (`import "x"`, `import (...)`,
    `from "x"`, `require("x")`): both patches importing one module is not a graded behavior.
    With `go_text`, a Go line holding only `[alias] "path"` is an import spec too (the hunk
    may not show the `import (` that opened its block)."""
    out: set[int] = set()
    block = -1  # depth of an open `import (` block
    depth = 0
    for i, t in enumerate(lx):
        if t.kind == "punct" and t.value == "(":
            depth += 1
            if i and lx[i - 1].kind == "keyword" and lx[i - 1].value == "import":
                block = depth
        elif t.kind == "punct" and t.value == ")":
            if depth == block:
                block = -1
            depth -= 1
        if t.kind != "string":
            continue
        p1 = lx[i - 1] if i else None
        p2 = lx[i - 2] if i > 1 else None
        if block != -1 or (p1 is not None and p1.value in ("import", "from")) or (
            p1 is not None and p1.value == "(" and p2 is not None and p2.value == "require"
        ) or (p2 is not None and p2.value == "import" and p1 is not None
              and p1.kind in ("identifier", "name", "punct")):
            out.add(i)
        elif go_text:
            start = go_text.rfind("\n", 0, t.offset) + 1
            end = go_text.find("\n", t.offset)
            if _GO_IMPORT_SPEC.fullmatch(go_text[start : end if end != -1 else None]):
                out.add(i)
    return out


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
            for kind, raw, offset, defines in tokens:
                idx = _line_index(starts, offset)
                if kind == "string":
                    first = hunk[idx][0]
                    for piece, ln in _string_pieces(raw, first):
                        j = idx + (ln - first)
                        if j < len(hunk) and hunk[j][2]:
                            yield Tok("string", piece, fd.path, ln)
                elif hunk[idx][2]:
                    yield Tok(kind, raw, fd.path, hunk[idx][0], defines)


def removed_lines(fd: FileDiff) -> set[int]:
    """The base_commit line numbers of the lines the patch removes."""
    out: set[int] = set()
    for h in fd.raw:
        line = h.source_start
        for tag, _ in h.lines:
            if tag == "-":
                out.add(line)
            if tag != "+":
                line += 1
    return out


def string_literals(path: str, text: str) -> set[tuple[int, int]] | None:
    """The (start, end) offsets of the content of each whole string literal of a file, its
    quotes left out; comments and docstrings are none. None when no lexer knows the path."""
    lexer = lexer_for(path)
    if lexer is None:
        return None
    out: set[tuple[int, int]] = set()
    for lx in _lexemes(lexer, text):
        v = lx.value
        q = 3 if v[:3] in ('"""', "'''") and len(v) >= 6 else 1
        if lx.kind == "string" and len(v) >= 2 * q and v[0] in "\"'`" and v[-1] == v[0]:
            out.add((lx.offset + q, lx.offset + len(v) - q))
    return out


def _line_index(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def added_text(files: list[FileDiff]) -> str:
    """Every added line of `files`, in order: what a quote "from the added lines" must match."""
    return "\n".join(t.rstrip("\n") for f in files if not f.binary for h in f.hunks
                     for _, t, added in h if added)


_PATH_LINE = re.compile(r"^(?:--- a/|\+\+\+ b/|rename from |copy from )(.+?)\t?$", re.M)


_NEW_PATH = re.compile(r"^\+\+\+ b/(.+?)\t?$", re.M)


def new_paths(text: str) -> set[str]:
    """Paths a patch leaves (its `+++ b/` side), cheaply."""
    return set(_NEW_PATH.findall(text.replace("\r\n", "\n")))


_CREATED = re.compile(r"^--- /dev/null\t?\n\+\+\+ b/(.+?)\t?$", re.M)


def created_paths(text: str) -> set[str]:
    """Paths a patch creates (`--- /dev/null`, then `+++ b/`), cheaply."""
    return set(_CREATED.findall(text.replace("\r\n", "\n")))


_DELETED = re.compile(r"^--- a/(.+?)\t?\n\+\+\+ /dev/null\t?$", re.M)


def deleted_paths(text: str) -> set[str]:
    """Paths a patch deletes (`--- a/`, then `+++ /dev/null`), cheaply."""
    return set(_DELETED.findall(text.replace("\r\n", "\n")))


def touched_paths(text: str) -> set[str]:
    """Paths a patch reads or writes at base (old names of renames included), cheaply."""
    return set(_PATH_LINE.findall(text.replace("\r\n", "\n")))
