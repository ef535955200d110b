"""Grammars and compiled queries, loaded on first use of a language and kept for the process.

The only module that imports tree_sitter and the grammar wheels, and only inside functions:
`import determinacy.languages` stays cheap for the many commands that never parse.
"""

from __future__ import annotations

import importlib
import re
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


def parse(lang: Language, src: bytes) -> tree_sitter.Tree:
    import tree_sitter

    # A parser per call: cheap, and no parser is shared between threads.
    return tree_sitter.Parser(grammar(lang)).parse(src)


def matches(lang: Language, kind: str, root: tree_sitter.Node
            ) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    import tree_sitter

    return tree_sitter.QueryCursor(query(lang, kind)).matches(root)
