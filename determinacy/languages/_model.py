"""The facts a syntax tree yields about one file, and the description of a language.

Pure data: importing this module imports no grammar (tree_sitter is loaded on first parse).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent

Kind = Literal["identifier", "string", "number"]
ROLES = frozenset({"def", "local", "use", "import", "member-use"})
DECLS = frozenset({
    "function", "class", "method", "field", "variable", "constant", "parameter",
    "enum-member", "type", "key", "label", "binding",
})
# The query files of a language, one per kind: `defuse` (scopes, definitions, uses,
# literals, docstrings) feeds the proposer; `tests` (test blocks, assertions, calls) feeds
# the test-reachability steps.
QUERY_KINDS = ("defuse", "tests")


@dataclass(frozen=True)
class Tok:
    kind: Kind
    value: str
    line: int
    role: str
    decl: str = ""
    scope: str = ""
    owner: str = ""
    asserting: bool = False
    test: str = ""
    fstring_parts: tuple[str, ...] = ()
    # In the arguments of a call assertion (`mock.assert_called_with(...)`,
    # `expect(fn).toHaveBeenCalledWith(...)`): what the code passed on, not what it returned;
    # or a literal an assertion hands to a call (`assert store.get("P1") == 5`): the actual
    # side's input.
    passed_on: bool = False


@dataclass(frozen=True)
class TestBlock:
    name: str
    start: int
    end: int
    calls: frozenset[str]

    __test__ = False  # pytest: a data class, not a test class


@dataclass(frozen=True)
class FileFacts:
    language: str
    tokens: tuple[Tok, ...]
    tests: tuple[TestBlock, ...]
    functions: dict[str, tuple[int, int]]
    calls: dict[str, frozenset[str]]
    has_errors: bool


@dataclass(frozen=True)
class Language:
    """One entry of the registry: what a query cannot say, as data."""

    name: str
    extensions: tuple[str, ...]
    grammar: str  # the module of the grammar wheel, imported on first use
    entry: str  # its function that returns the compiled grammar
    distribution: str  # the wheel's name, whose version goes into queries_digest()
    defuse: tuple[str, ...]  # query files of each kind, concatenated in this order
    tests: tuple[str, ...]
    # Keywords that name the object a method runs on (`this`); Python's `self` and a Go
    # receiver are ordinary parameters, which the scope query captures instead.
    receivers: frozenset[str] = frozenset()
    test_separator: str = "::"
    # Join every enclosing group's name (pytest `A::B::test_x`, Jest `outer inner title`), or
    # only the innermost one (JUnit reports `Class.method`, nested classes included).
    test_outer_groups: bool = True
    # Jest/Mocha reporters also show a test under its bare title: list it under both names.
    test_bare_titles: bool = False

    def query_files(self, kind: str) -> tuple[Path, ...]:
        files: tuple[str, ...] = getattr(self, kind)
        return tuple(HERE / f for f in files)

    def query_source(self, kind: str) -> str:
        return "\n".join(p.read_text(encoding="utf-8") for p in self.query_files(kind))
