"""Grammars and compiled queries, loaded on first use of a language and kept for the process.

The only module that imports tree_sitter and the grammar wheels, and only inside functions:
`import determinacy.languages` stays cheap for the many commands that never parse.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from determinacy.languages._model import DECLS, QUERY_KINDS, Language

if TYPE_CHECKING:
    import tree_sitter

# Every capture name a query may use; `_name` captures only feed predicates. Checked when a
# query compiles, so a typo fails loudly instead of silently classifying nothing.
_CAPTURE = re.compile(
    r"_.*"
    r"|(definition|local|reference)(\.(?P<decl>[a-z-]+))?"
    r"|member\.(access|write|key|object|target)"
    r"|string|string\.text|string\.key|number|import|docstring|interpolation|assert|assert\.called|assert\.via|assert\.via\.name|call"
    r"|scope\.(function|class|block|name|owner|receiver)"
    r"|test\.(case|name|group|group\.name|fixture)"
)


class QuerySetupError(RuntimeError):
    """A query file does not compile against its grammar, or uses an unknown capture."""


@cache
def grammar(lang: Language) -> tree_sitter.Language:
    import tree_sitter

    module = importlib.import_module(lang.grammar)
    return tree_sitter.Language(getattr(module, lang.entry)())


@cache
def query(lang: Language, kind: str) -> tree_sitter.Query:
    import tree_sitter

    if kind not in QUERY_KINDS:
        raise QuerySetupError(f"unknown query kind {kind!r}")
    try:
        q = tree_sitter.Query(grammar(lang), lang.query_source(kind))
    except tree_sitter.QueryError as e:
        raise QuerySetupError(f"{lang.name} {kind} query: {e}") from None
    for i in range(q.capture_count):
        name = q.capture_name(i)
        m = _CAPTURE.fullmatch(name)
        if m is None or (m.group("decl") and m.group("decl") not in DECLS):
            raise QuerySetupError(f"{lang.name} {kind} query: unknown capture @{name}")
    return q


# A catch-all name pattern: one node type, captured as a bare @reference, nothing else.
_BARE = re.compile(r"\(\s*([a-z_]+)\s*\)\s*@reference")


@dataclass(frozen=True)
class Split:
    """The defuse query in two: `rest`, without its catch-all name patterns (about half of a
    file's matches), run over the whole file; `bare`, those patterns alone, run only where a
    token is wanted. `bare_rank` gives, per node type, the index of the first catch-all
    pattern that captures it: such a node is a bare @reference wherever it is, so a reader
    of one can tell without running the query (`_extract`)."""

    rest: tree_sitter.Query
    bare: tree_sitter.Query
    bare_rank: dict[str, int]


@cache
def split_defuse(lang: Language) -> Split | None:
    """None when the language's defuse query has no catch-all pattern to set apart."""
    import tree_sitter

    source = lang.query_source("defuse").encode("utf-8")
    rest, bare = (tree_sitter.Query(grammar(lang), source.decode("utf-8")) for _ in range(2))
    rank: dict[str, int] = {}
    for i in range(rest.pattern_count):
        text = source[rest.start_byte_for_pattern(i):rest.end_byte_for_pattern(i)].decode()
        text = re.sub(r";[^\n]*", "", text).strip()
        m = _BARE.fullmatch(text)
        if m is not None:
            rank.setdefault(m.group(1), i)
            rest.disable_pattern(i)
        else:
            bare.disable_pattern(i)
    return Split(rest, bare, rank) if rank else None


def parse(lang: Language, src: bytes) -> tree_sitter.Tree:
    import tree_sitter

    # A parser per call: cheap, and no parser is shared between threads.
    return tree_sitter.Parser(grammar(lang)).parse(src)


def matches(lang: Language, kind: str, root: tree_sitter.Node
            ) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    return run(query(lang, kind), root)


def run(q: tree_sitter.Query, root: tree_sitter.Node, span: tuple[int, int] | None = None
        ) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    """The matches of `q` under `root`; with `span` (bytes), those that intersect it."""
    import tree_sitter

    cursor = tree_sitter.QueryCursor(q)
    if span is not None:
        cursor.set_byte_range(*span)
    return cursor.matches(root)
