"""The one generic reader: query captures of any language -> FileFacts.

Capture names carry the meaning (the vocabulary is in `README.md` beside this file); this
module knows no node type of any grammar. Where two token captures land on one node, a bare
`@reference` (the catch-all for every name) loses to any other, and among the others the
pattern written first wins (a language's files are concatenated in the order it lists them).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from determinacy.languages import _grammar
from determinacy.languages._literals import content_span, decode, fixed_parts
from determinacy.languages._model import FileFacts, Language
from determinacy.languages._nesting import Interval, innermost, line_span
from determinacy.languages._roles import Draft, Roles, Scope
from determinacy.languages._tests import TestFacts, test_facts

if TYPE_CHECKING:
    from tree_sitter import Node

_REGIONS = ("import", "docstring", "interpolation", "assert")
_TOKEN_HEADS = ("definition", "local", "reference", "member", "string", "number")
_HELPERS = ("member.object", "member.target")
_NAME_HEADS = ("definition", "local", "reference", "member")
_SCOPE_KEYS = ("scope.function", "scope.class", "scope.block")  # the first present wins
# Added to a bare @reference's pattern index, so it loses to any other capture. An int, not a
# (fallback, index) tuple: one object fewer per capture for the garbage collector to visit.
_FALLBACK = 1 << 30


@cache
def _role(capture: str) -> str:
    """What a capture name contributes: "region", "access", "token", or "" (nothing)."""
    if capture in _REGIONS:
        return "region"
    if capture == "member.access":
        return "access"
    if capture.split(".")[0] in _TOKEN_HEADS and capture not in _HELPERS:
        return "token"
    return ""


@dataclass(slots=True)
class _Capture:
    """The winning token capture on one node, with the helper node of its match."""

    rank: int  # the pattern index, plus _FALLBACK for a bare @reference: lowest wins
    name: str
    node: Node
    helper: Node | None = None


@dataclass
class _Captures:
    tokens: dict[int, _Capture] = field(default_factory=dict)
    regions: dict[str, list[Node]] = field(default_factory=lambda: {r: [] for r in _REGIONS})
    scopes: dict[int, Scope] = field(default_factory=dict)
    accesses: list[tuple[int, Node, Node | None]] = field(default_factory=list)
    names: list[Node] = field(default_factory=list)  # the nodes naming a scope
    # Node type -> its catch-all pattern, for the types whose bare @reference captures were
    # not all run (`_Split`): such a node is one wherever it is (`bare`).
    bare_rank: dict[str, int] = field(default_factory=dict)

    def bare(self, node: Node) -> None:
        """Give `node` the bare @reference capture the whole query would have, if any."""
        rank = self.bare_rank.get(node.type) if node.is_named else None
        if rank is not None:
            self._token(_Capture(rank + _FALLBACK, "reference", node))

    def add(self, matches: list[tuple[int, dict[str, list[Node]]]], src: bytes) -> None:
        """Every match of the defuse query, in its order."""
        # A million matches on a large diff: their loop is kept free of calls and generators.
        tokens, regions = self.tokens, self.regions
        for pattern, caps in matches:
            for key in _SCOPE_KEYS:
                if key in caps:
                    self._scope(key, caps, src)
                    break
            helper = (caps["member.object"][0] if "member.object" in caps
                      else caps["member.target"][0] if "member.target" in caps else None)
            for name, nodes in caps.items():
                what = _role(name)
                if what == "token":
                    rank = pattern + _FALLBACK if name == "reference" else pattern
                    for node in nodes:
                        old = tokens.get(node.id)
                        if old is None or rank < old.rank:
                            tokens[node.id] = _Capture(rank, name, node, helper)
                elif what == "region":
                    regions[name].extend(nodes)
                elif what == "access":
                    self.accesses += [(pattern, node, helper) for node in nodes]

    def _token(self, cap: _Capture) -> None:
        old = self.tokens.get(cap.node.id)
        if old is None or cap.rank < old.rank:
            self.tokens[cap.node.id] = cap

    def resolve_accesses(self) -> None:
        """`@member.access` marks `obj.attr` by its node; the member read is its last child
        that is a token (after the object, before any argument list)."""
        for pattern, node, obj in self.accesses:
            for child in reversed(node.children):
                if obj is not None and child.id == obj.id:
                    continue
                if child.id not in self.tokens:
                    self.bare(child)  # a token of the whole reading, wherever it is
                if child.id in self.tokens:
                    self._token(_Capture(pattern, "member.read", child, obj))
                    break

    def _scope(self, key: str, caps: dict[str, list[Node]], src: bytes) -> None:
        node = caps[key][0]
        sc = self.scopes.get(node.id)
        if sc is None:
            kind = key.removeprefix("scope.")
            sc = self.scopes[node.id] = Scope(node.start_byte, node.end_byte, kind, node)
        # One scope may be described by several patterns (its name by one, its receiver by
        # another): each fills in what it knows.
        if "scope.name" in caps and not sc.name:
            sc.name_id = caps["scope.name"][0].id
            sc.name = _text(caps["scope.name"][0], src)
            self.names.append(caps["scope.name"][0])
        if "scope.owner" in caps:
            sc.owner = _text(caps["scope.owner"][0], src)
        if "scope.receiver" in caps:
            sc.receiver = _text(caps["scope.receiver"][0], src)


def _text(node: Node, src: bytes) -> str:
    return decode(src[node.start_byte:node.end_byte])


def extract(lang: Language, text: str, lines: Collection[int] | None = None,
            strings: bool = False) -> tuple[FileFacts, tuple[int, ...]]:
    """The facts of one file, and each token's start column (in bytes, for the fixtures).
    With `lines` (1-based), the tokens are those that start on them and every token that
    declares (a definition, a local, an import, a field set on the receiver): all a role
    depends on, at a fraction of the cost on a large file with a small diff; with `strings`
    too, every string literal. Each token kept is the very token the whole file's facts hold."""
    with _collector_paused():
        return _extract(lang, text, lines, strings)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The query matches of a large file are a million containers that live until it is
    done and hold no reference cycle: the garbage collector, run over and over while they are
    made, frees nothing and took up to a third of the time. Collection resumes on return."""
    if not gc.isenabled():  # paused already (by a caller, or by another thread in here)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _extract(lang: Language, text: str, lines: Collection[int] | None, strings: bool = False
             ) -> tuple[FileFacts, tuple[int, ...]]:
    src = text.encode("utf-8", "surrogatepass")
    # Grammars read a NUL byte as the end of input: parse a copy with blanks in their place
    # (same offsets) and read every token's text from the original.
    tree = _grammar.parse(lang, src.replace(b"\0", b" "))
    root = tree.root_node
    caps = _Captures()
    split = _grammar.split_defuse(lang) if lines is not None else None
    if split is None:
        caps.add(_grammar.matches(lang, "defuse", root), src)
    else:
        # Only some tokens are wanted: the catch-all names (never a declaration, never
        # kept unless wanted) are captured where a wanted token may be one.
        caps.add(_grammar.run(split.rest, root), src)
        caps.bare_rank = split.bare_rank
        spans = _line_spans(src, lines) + [(n.start_byte, n.end_byte)
                                           for n in caps.regions["import"]]
        for span in _merged(spans):
            caps.add(_grammar.run(split.bare, root, span), src)
        for node in caps.names:
            caps.bare(node)
    caps.resolve_accesses()
    interp = {n.id for n in caps.regions["interpolation"]}
    tests = test_facts(lang, root, src, interp)
    scopes = Scope.link(caps.scopes.values())
    if split is not None:
        # A built string's later uses, all of them (`_asserted_locals`).
        for _, value in tests.vias:
            fn = _function_around(scopes, value.start_byte)
            end = fn.end if fn is not None else len(src)
            caps.add(_grammar.run(split.bare, root, (value.end_byte, end)), src)
    cands = sorted(caps.tokens.values(), key=lambda c: c.node.start_byte)
    at = [c.node.start_byte for c in cands]
    asserts = caps.regions["assert"] + tests.asserts
    asserts += _asserted_locals(tests, cands, asserts, scopes, src)
    imported = _inside(caps.regions["import"], at)
    if lines is not None:
        kept = _kept(cands, imported, _line_mask(src, lines),
                     {s.name_id for s in scopes}, strings)
        cands = [cands[i] for i in kept]
        imported = [imported[i] for i in kept]
        at = [at[i] for i in kept]
    dropped = _inside(caps.regions["docstring"], at)
    asserting = _inside(asserts, at)
    passed_on = _inside(tests.called_with, at)
    ids = {n.id for n in asserts}
    passed_on = [p or a and c.name in _LITERALS and _handed_on(c.node, ids, tests.callees)
                 for p, a, c in zip(passed_on, asserting, cands)]
    in_scope = innermost([Interval(s.start, s.end, s) for s in scopes], at)
    in_test = innermost(tests.spans, at)
    # A test comparing a literal (`if err.Error() != "..." {`, Go's assertion idiom) checks
    # the code's output against it.
    asserting = [a or (t is not None and c.name in _LITERALS and _compared(c.node))
                 for a, t, c in zip(asserting, in_test, cands)]
    roles = Roles(lang, src)
    drafts: list[Draft] = []
    members: list[tuple[_Capture, Draft, Scope | None]] = []  # only members have a 2nd pass
    cols: list[int] = []
    for cap, drop, inner, imp, asserts, test, passed in zip(cands, dropped, in_scope, imported,
                                                            asserting, in_test, passed_on):
        d = None if drop else _draft(cap, src, interp)
        if d is None:
            continue
        own = None
        if inner is not None and inner.name_id == cap.node.id:
            # A scope's own name is declared in the scope around it.
            own, inner = inner, inner.parent
        roles.first_pass(cap.name, d, inner, own, imp)
        row, col = _start(cap, src)
        d.line, d.asserting, d.test, d.passed_on = row + 1, asserts, test or "", passed
        roles.declare(d, cap.node)
        drafts.append(d)
        if cap.name.startswith("member."):
            members.append((cap, d, inner))
        cols.append(col)
    # Attributes set on the receiver declare members first, so a read before its
    # assignment (a method above __init__) still finds it.
    for cap, d, inner in members:
        roles.writes(cap.name, d, cap.helper, inner, cap.node)
    for cap, d, inner in members:
        roles.reads(cap.name, d, cap.helper, inner)
    facts = FileFacts(
        language=lang.name, tokens=tuple(d.tok() for d in drafts), tests=tests.blocks,
        functions=_functions(scopes), calls=tests.calls_by(scopes),
        has_errors=tree.root_node.has_error)
    return facts, tuple(cols)


# What a token's capture may declare (the rest only reads what declarations say).
_DECLARES = ("definition", "local", "member.write")


def _kept(cands: list[_Capture], imported: list[bool], on_lines: bytearray,
          scope_names: set[int], strings: bool) -> list[int]:
    """Indices of the tokens to keep: on a wanted line, or able to declare something (a
    scope's own name may be any capture; markup text starts after its leading blanks, so it
    is always kept), or a string literal when `strings`."""
    return [i for i, (c, imp) in enumerate(zip(cands, imported))
            if imp or on_lines[c.node.start_byte] or c.name.startswith(_DECLARES)
            or c.name == "string.text" or c.node.id in scope_names
            or strings and c.name.startswith("string")]


def _line_mask(src: bytes, lines: Collection[int]) -> bytearray:
    """1 at each byte of the wanted lines (1-based), 0 elsewhere."""
    starts = [0, *(m.end() for m in re.finditer(b"\n", src))]
    mask = bytearray(len(src) + 1)
    for ln in lines:
        if 1 <= ln <= len(starts):
            end = starts[ln] if ln < len(starts) else len(mask)
            mask[starts[ln - 1]:end] = b"\1" * (end - starts[ln - 1])
    return mask


def _start(cap: _Capture, src: bytes) -> tuple[int, int]:
    """Row and byte column where the token starts: markup text starts at its first
    non-blank character (it usually opens with the line break after a tag)."""
    if cap.name != "string.text":
        return cap.node.start_point
    row, col = cap.node.start_point
    text = src[cap.node.start_byte:cap.node.end_byte]
    blank = text[:len(text) - len(text.lstrip())]
    if b"\n" not in blank:
        return row, col + len(blank)
    return row + blank.count(b"\n"), len(blank) - blank.rindex(b"\n") - 1


def _draft(cap: _Capture, src: bytes, interp: set[int]) -> Draft | None:
    node = cap.node
    if cap.name.startswith(_NAME_HEADS):
        return Draft("identifier", _text(node, src))
    if cap.name == "number":
        return Draft("number", _text(node, src))
    if cap.name == "string.text":  # markup text (JSX): no quotes, surrounding blanks dropped
        value = decode(src[node.start_byte:node.end_byte].strip())
        return Draft("string", value) if value else None
    start, end = content_span(node, src)
    return Draft("string", decode(src[start:end]), decl="key" if cap.name == "string.key" else "",
                 parts=fixed_parts(node, src, interp, (start, end)))


_COMPARE = frozenset({"==", "!=", "===", "!=="})  # operators: anonymous nodes of every grammar
_LITERALS = frozenset({"string", "number"})


def _asserted_locals(tests: TestFacts, cands: list[_Capture], asserts: list[Node],
                     scopes: list[Scope], src: bytes) -> list[Node]:
    """The values of one-step string building (`want := fmt.Sprintf(...)`, `expected =
    f"..."`) whose local is, at every later use in its function, asserted: inside an
    assertion or compared (`if got != want`). A local also handed to the code under test is
    the test's input, never its expectation."""
    vias = tests.vias
    if not vias:
        return []
    names = {_text(n, src) for n, _ in vias}
    uses = [c.node for c in cands if c.name.startswith("reference")
            and _text(c.node, src) in names]
    inside = _inside(asserts, [u.start_byte for u in uses])
    ids = {n.id for n in asserts}
    out = []
    for name, value in vias:
        local = _text(name, src)
        fn = _function_around(scopes, value.start_byte)
        end = fn.end if fn is not None else len(src)
        later = [(u, ok) for u, ok in zip(uses, inside)
                 if value.end_byte <= u.start_byte < end and _text(u, src) == local]
        if later and all(ok and not _handed_on(u, ids, tests.callees) or _compared(u)
                         for u, ok in later):
            out.append(value)
    return out


def _function_around(scopes: list[Scope], at: int) -> Scope | None:
    """The innermost function scope holding byte `at`."""
    return min((s for s in scopes if s.kind == "function" and s.start <= at < s.end),
               key=lambda s: s.end - s.start, default=None)


def _line_spans(src: bytes, lines: Collection[int]) -> list[tuple[int, int]]:
    """The byte spans of the wanted lines (1-based), each run of lines as one span."""
    starts = [0, *(m.end() for m in re.finditer(b"\n", src))]
    out: list[tuple[int, int]] = []
    for ln in sorted(ln for ln in lines if 1 <= ln <= len(starts)):
        a, b = starts[ln - 1], starts[ln] if ln < len(starts) else len(src)
        if out and out[-1][1] >= a:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and out[-1][1] >= a:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _compared(node: Node) -> bool:
    parent = node.parent
    return parent is not None and any(k.type in _COMPARE for k in parent.children)


def _handed_on(node: Node, asserts: set[int], callees: set[int]) -> bool:
    """An argument of a call that is no assertion (`expect(parse(input))`): the code under
    test reads it. The call is a `@call` node or has one as its callee."""
    args = node.parent
    call = args.parent if args is not None else None
    if call is None or args.id in asserts or call.id in asserts:
        return False
    # The callee precedes its arguments: only that sibling is looked at (a macro's flat
    # token tree may hold thousands of children).
    before = args.prev_named_sibling
    return call.id in callees or (before is not None and before.id in callees)


def _inside(regions: list[Node], at: list[int]) -> list[bool]:
    spans = [Interval(n.start_byte, n.end_byte, True) for n in regions]
    return innermost(spans, at, False)


def _functions(scopes: list[Scope]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for s in scopes:
        if s.kind == "function" and s.name:
            out.setdefault(s.name, line_span(s.node))
    return out
