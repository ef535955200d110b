"""Test blocks, assertion regions and calls, read from a language's `*-tests.scm` captures."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from determinacy.languages import _grammar
from determinacy.languages._literals import content_span, decode
from determinacy.languages._model import Language, TestBlock
from determinacy.languages._nesting import Interval, innermost, line_span, parents

if TYPE_CHECKING:
    from tree_sitter import Node

    from determinacy.languages._roles import Scope


@dataclass(eq=False)
class _Block:
    node: Node
    title: str
    is_case: bool
    full: str = ""
    calls: set[str] = field(default_factory=set)
    parent: _Block | None = None


@dataclass
class TestFacts:
    blocks: tuple[TestBlock, ...]
    spans: list[Interval[str]]  # each named test case's bytes and full name, for Tok.test
    asserts: list[Node]
    calls: list[tuple[int, str]]  # (start byte, called name), sorted
    called_with: list[Node] = field(default_factory=list)  # call assertions' arguments
    # (local's name, value) of each one-step string building (`msg := fmt.Sprintf(...)`):
    # the value is asserted when every later use of the local is (`_extract`).
    vias: list[tuple[Node, Node]] = field(default_factory=list)
    callees: set[int] = field(default_factory=set)  # ids of the `@call` nodes

    __test__ = False

    def called(self, start: int, end: int) -> set[str]:
        lo = bisect.bisect_left(self.calls, (start, ""))
        hi = bisect.bisect_left(self.calls, (end, ""))
        return {name for _, name in self.calls[lo:hi]}

    def calls_by(self, scopes: Iterable[Scope]) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {}
        for s in scopes:
            if s.kind == "function" and s.name:
                out.setdefault(s.name, set()).update(self.called(s.start, s.end))
        return {k: frozenset(v) for k, v in out.items()}


def _text(node: Node, src: bytes) -> str:
    return decode(src[node.start_byte:node.end_byte])


def _called(node: Node, src: bytes) -> str:
    """A `@call` node names the called function by itself (a leaf) or by its last leaf
    child: the attribute of `obj.attr`, the method name of an invocation."""
    if not node.children:
        return _text(node, src)
    leaves = [k for k in node.children if k.is_named and not k.children]
    return _text(leaves[-1], src) if leaves else ""


def _title(node: Node, src: bytes, interp: set[int]) -> str | None:
    """A test's name as written: an identifier, or a literal string; None for a computed one
    (a template with substitutions), which names no test a runner could report."""
    if not node.children:
        return _text(node, src)
    if any(k.id in interp for k in node.children):
        return None
    start, end = content_span(node, src)
    return decode(src[start:end])


def test_facts(lang: Language, root: Node, src: bytes, interp: set[int]) -> TestFacts:
    cases: dict[int, _Block] = {}
    groups: list[_Block] = []
    fixtures: list[Node] = []
    asserts: list[Node] = []
    called_with: list[Node] = []
    calls: list[tuple[int, str]] = []
    vias: list[tuple[Node, Node]] = []
    callees: set[int] = set()
    for _, caps in _grammar.matches(lang, "tests", root):
        if "assert.via" in caps and "assert.via.name" in caps:
            vias.append((caps["assert.via.name"][0], caps["assert.via"][0]))
        if "test.case" in caps and "test.name" in caps:
            node, name = caps["test.case"][0], caps["test.name"][0]
            title = _title(name, src, interp)
            old = cases.get(name.id)
            # One test may match several patterns (a decorated and a bare definition):
            # keep its widest node.
            if title is not None and (old is None or _width(node) > _width(old.node)):
                cases[name.id] = _Block(node, title, True)
        if "test.group" in caps and "test.group.name" in caps:
            title = _title(caps["test.group.name"][0], src, interp)
            if title is not None:
                groups.append(_Block(caps["test.group"][0], title, False))
        fixtures.extend(caps.get("test.fixture", ()))
        asserts.extend(caps.get("assert", ()))
        asserts.extend(caps.get("assert.called", ()))
        called_with.extend(caps.get("assert.called", ()))
        calls.extend((n.start_byte, name) for n in caps.get("call", ())
                     if (name := _called(n, src)))
        callees.update(n.id for n in caps.get("call", ()))
    calls.sort()
    facts = TestFacts((), [], asserts, calls, called_with, vias, callees)
    named = _name_cases(lang, list(cases.values()), groups)
    for block in named:
        block.calls = facts.called(block.node.start_byte, block.node.end_byte)
    _add_fixtures(named, fixtures, src)
    facts.blocks = _emit(lang, named)
    facts.spans = [Interval(b.node.start_byte, b.node.end_byte, b.full) for b in named]
    return facts


def _width(node: Node) -> int:
    return node.end_byte - node.start_byte


def _name_cases(lang: Language, cases: list[_Block], groups: list[_Block]) -> list[_Block]:
    """Each case's full name: the titles of the groups and cases around it, joined."""
    spans = [Interval(b.node.start_byte, b.node.end_byte, b) for b in cases + groups]
    for block, parent in parents(spans):
        block.parent = parent
    for case in cases:
        outer: list[str] = []
        up = case.parent
        while up is not None and (lang.test_outer_groups or not outer):
            outer.append(up.title)
            up = up.parent
        case.full = lang.test_separator.join([*reversed(outer), case.title])
    return sorted(cases, key=lambda b: b.node.start_byte)


def _add_fixtures(cases: list[_Block], fixtures: list[Node], src: bytes) -> None:
    """pytest: a test's parameters name the fixtures it runs, as if it called them."""
    spans = [Interval(b.node.start_byte, b.node.end_byte, b) for b in cases]
    fixtures.sort(key=lambda n: n.start_byte)
    for node, case in zip(fixtures, innermost(spans, [n.start_byte for n in fixtures])):
        if case is not None:
            case.calls.add(_text(node, src))


def _emit(lang: Language, cases: list[_Block]) -> tuple[TestBlock, ...]:
    out: dict[tuple[str, int, int], TestBlock] = {}
    for b in cases:
        start, end = line_span(b.node)
        names = [b.full, b.title] if lang.test_bare_titles else [b.full]
        for name in names:
            out.setdefault((name, start, end), TestBlock(name, start, end, frozenset(b.calls)))
    return tuple(sorted(out.values(), key=lambda t: (t.start, t.end, t.name)))
