"""The one generic reader: query captures of any language -> FileFacts.

Capture names carry the meaning (the vocabulary is in `README.md` beside this file); this
module knows no node type of any grammar. Where two token captures land on one node, a bare
`@reference` (the catch-all for every name) loses to any other, and among the others the
pattern written first wins (a language's files are concatenated in the order it lists them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from determinacy.languages import _grammar
from determinacy.languages._literals import content_span, decode, fixed_parts
from determinacy.languages._model import FileFacts, Language
from determinacy.languages._nesting import Interval, innermost, line_span
from determinacy.languages._roles import Draft, Roles, Scope
from determinacy.languages._tests import test_facts

if TYPE_CHECKING:
    from tree_sitter import Node

_REGIONS = ("import", "docstring", "interpolation", "assert")
_TOKEN_HEADS = ("definition", "local", "reference", "member", "string", "number")
_HELPERS = ("member.object", "member.target")
_NAME_HEADS = ("definition", "local", "reference", "member")


@dataclass
class _Capture:
    """The winning token capture on one node, with the helper node of its match."""

    rank: tuple[bool, int]  # (a bare @reference fallback, pattern index): lowest wins
    name: str
    node: Node
    helper: Node | None = None


@dataclass
class _Captures:
    tokens: dict[int, _Capture] = field(default_factory=dict)
    regions: dict[str, list[Node]] = field(default_factory=lambda: {r: [] for r in _REGIONS})
    scopes: dict[int, Scope] = field(default_factory=dict)
    accesses: list[tuple[int, Node, Node | None]] = field(default_factory=list)

    def add(self, pattern: int, caps: dict[str, list[Node]], src: bytes) -> None:
        self._scope(caps, src)
        helper = next((caps[h][0] for h in _HELPERS if h in caps), None)
        for name, nodes in caps.items():
            if name in _REGIONS:
                self.regions[name].extend(nodes)
            elif name == "member.access":
                self.accesses += [(pattern, node, helper) for node in nodes]
            elif name.split(".")[0] in _TOKEN_HEADS and name not in _HELPERS:
                for node in nodes:
                    self._token(_Capture((name == "reference", pattern), name, node, helper))

    def _token(self, cap: _Capture) -> None:
        old = self.tokens.get(cap.node.id)
        if old is None or cap.rank < old.rank:
            self.tokens[cap.node.id] = cap

    def resolve_accesses(self) -> None:
        """`@member.access` marks `obj.attr` by its node; the member read is its last child
        that is a token (after the object, before any argument list)."""
        for pattern, node, obj in self.accesses:
            for child in reversed(node.children):
                if child.id in self.tokens and (obj is None or child.id != obj.id):
                    self._token(_Capture((False, pattern), "member.read", child, obj))
                    break

    def _scope(self, caps: dict[str, list[Node]], src: bytes) -> None:
        kind = next((k for k in ("function", "class", "block") if f"scope.{k}" in caps), "")
        if not kind:
            return
        node = caps[f"scope.{kind}"][0]
        sc = self.scopes.setdefault(node.id, Scope(node.start_byte, node.end_byte, kind, node))
        # One scope may be described by several patterns (its name by one, its receiver by
        # another): each fills in what it knows.
        if "scope.name" in caps and not sc.name:
            sc.name_id = caps["scope.name"][0].id
            sc.name = _text(caps["scope.name"][0], src)
        if "scope.owner" in caps:
            sc.owner = _text(caps["scope.owner"][0], src)
        if "scope.receiver" in caps:
            sc.receiver = _text(caps["scope.receiver"][0], src)


def _text(node: Node, src: bytes) -> str:
    return decode(src[node.start_byte:node.end_byte])


def extract(lang: Language, text: str) -> tuple[FileFacts, tuple[int, ...]]:
    """The facts of one file, and each token's start column (in bytes, for the fixtures)."""
    src = text.encode("utf-8", "surrogatepass")
    # Grammars read a NUL byte as the end of input: parse a copy with blanks in their place
    # (same offsets) and read every token's text from the original.
    tree = _grammar.parse(lang, src.replace(b"\0", b" "))
    caps = _Captures()
    for pattern, found in _grammar.matches(lang, "defuse", tree.root_node):
        caps.add(pattern, found, src)
    caps.resolve_accesses()
    interp = {n.id for n in caps.regions["interpolation"]}
    tests = test_facts(lang, tree.root_node, src, interp)
    scopes = Scope.link(caps.scopes.values())
    cands = sorted(caps.tokens.values(), key=lambda c: c.node.start_byte)
    at = [c.node.start_byte for c in cands]
    dropped = _inside(caps.regions["docstring"], at)
    imported = _inside(caps.regions["import"], at)
    asserting = _inside(caps.regions["assert"] + tests.asserts, at)
    in_scope = innermost([Interval(s.start, s.end, s) for s in scopes], at)
    in_test = innermost(tests.spans, at)
    roles = Roles(lang, src)
    drafts: list[tuple[_Capture, Draft, Scope | None]] = []
    cols: list[int] = []
    for i, cap in enumerate(cands):
        d = None if dropped[i] else _draft(cap, src, interp)
        if d is None:
            continue
        inner = in_scope[i]
        own = None
        if inner is not None and inner.name_id == cap.node.id:
            # A scope's own name is declared in the scope around it.
            own, inner = inner, inner.parent
        roles.first_pass(cap.name, d, inner, own, imported[i])
        row, col = _start(cap, src)
        d.line, d.asserting, d.test = row + 1, asserting[i], in_test[i] or ""
        roles.declare(d, cap.node)
        drafts.append((cap, d, inner))
        cols.append(col)
    # Attributes set on the receiver declare members first, so a read before its
    # assignment (a method above __init__) still finds it.
    for cap, d, inner in drafts:
        roles.writes(cap.name, d, cap.helper, inner, cap.node)
    for cap, d, inner in drafts:
        roles.reads(cap.name, d, cap.helper, inner)
    facts = FileFacts(
        language=lang.name, tokens=tuple(d.tok() for _, d, _ in drafts), tests=tests.blocks,
        functions=_functions(scopes), calls=tests.calls_by(scopes),
        has_errors=tree.root_node.has_error)
    return facts, tuple(cols)


def _start(cap: _Capture, src: bytes) -> tuple[int, int]:
    """Row and byte column where the token starts: markup text starts at its first
    non-blank character (it usually opens with the line break after a tag)."""
    row, col = cap.node.start_point
    if cap.name != "string.text":
        return row, col
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
    return Draft("string", decode(src[start:end]),
                 parts=fixed_parts(node, src, interp, (start, end)))


def _inside(regions: list[Node], at: list[int]) -> list[bool]:
    spans = [Interval(n.start_byte, n.end_byte, True) for n in regions]
    return [bool(hit) for hit in innermost(spans, at)]


def _functions(scopes: list[Scope]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for s in scopes:
        if s.kind == "function" and s.name:
            out.setdefault(s.name, line_span(s.node))
    return out
