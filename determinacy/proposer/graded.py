"""Which added test lines FAIL_TO_PASS grades (method §5.1a), and which test occurrences
inside a graded test still grade nothing: a literal the test only feeds in, a call assertion
on what the code passed on, an expected-output value the test's own input echoes."""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from determinacy.proposer import datafiles
from determinacy.proposer.occurrences import Occ, Side

# Why a shared constant no FAIL_TO_PASS test grades did not count (its `rule`).
NOT_GRADED_FED = "not graded: a literal the graded test only feeds in, never asserts"
NOT_GRADED_RUN = "not graded: used only outside the tests FAIL_TO_PASS runs"
NOT_GRADED_PASSED = ("not graded: the test asserts only what the code did with a literal the "
                     "test itself fed in (a call assertion's argument, or `put(\"P1\")` then "
                     "`assert get(\"P1\") == ...`), never the fix's choice")
NOT_GRADED_TYPE = ("not graded: the test names it only as a type (a TypeScript runner that strips "
                   "types runs the test whatever the name)")
NOT_GRADED_ECHO = ("not graded: an expected-output file holds a literal the graded test itself "
                   "feeds in (its input echoed back), never the fix's choice")

# A parametrized id's parameter part; some benchmarks truncate it (no closing `]`): the test
# it names is the same.
_PARAMS = re.compile(r"\[.*$")


# The head of a pytest id is a file (`tests/test_x.py::...`); a Rust module path
# (`parser::tests::name`) or a PHP class (`Tests\Unit\FooTest::testX`) is not.
_FILE_HEAD = re.compile(r"[^:]*(/|\.[A-Za-z]\w*)(?=::)")


def _pytest(test_id: str) -> bool:
    return bool(_FILE_HEAD.match(test_id.strip()))


@functools.lru_cache(maxsize=4096)  # asked for each test block of each file, per id
def _id_parts(test_id: str) -> tuple[str, str]:
    """(file, test name) of a FAIL_TO_PASS id; either may be "". A `::` id whose head is
    no file is a name: a module path, or a class and its method (its namespace dropped)."""
    t = test_id.strip()
    if _pytest(t):
        path, _, name = t.partition("::")
        return path, _PARAMS.sub("", name)
    if "::" in t:
        return "", t.rsplit("\\", 1)[-1]
    if " | " in t:
        path, _, name = t.partition(" | ")
        return path.strip(), name.strip()
    return "", t


_GO_TEST = "_test.go"


def compile_unit(path: str) -> str | None:
    """The test sources compiled together with `path` into one test binary, by their
    common prefix (None: a language that runs each test file on its own). A name undefined
    in any of them fails every test of the unit: Go builds a package's `_test.go` files
    together, Maven and Gradle a module's whole `src/test/` tree, Cargo every test target of
    a crate."""
    if path.endswith(_GO_TEST):
        return "go:" + path.rpartition("/")[0]
    if path.endswith(".java") and "src/test/" in path:
        return "java:" + path[:path.index("src/test/")]
    if path.endswith(".rs"):
        head = f"/{path}"
        cut = max(head.rfind("/src/"), head.rfind("/tests/"))
        return "rust:" + head[1:cut + 1] if cut >= 0 else None
    return None


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def names_file(text: str, path: str) -> bool:
    """Does a test string spell the file at `path`: its name, or a stem of four characters
    or more (`"config"` for `testdata/config.yml`)?"""
    stem = _stem(path)
    return path.rsplit("/", 1)[-1] in text or (len(stem) >= 4 and stem in text)


@dataclass
class Graded:
    """Which added test lines FAIL_TO_PASS reaches: line ranges per file, and by which ids."""

    ranges: dict[str, list[tuple[int, int, str]]]  # path -> (start, end, id)
    files: dict[str, list[str]]  # path -> ids grading the whole file (data, unscoped)
    unresolved: list[str]  # ids no test block of the patch matched
    # compile_unit -> ids grading some test of it: a name any test file of the unit uses
    # fails them all when undefined (`go test` builds a package's `_test.go` files together).
    packages: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Per path, the lines where the set of grading ids changes and the set from there
        # on: a lookup is one bisection (a test patch has many ranges and many tokens).
        self._steps: dict[str, tuple[list[int], list[tuple[str, ...]]]] = {}
        for path, ranges in self.ranges.items():
            events: dict[int, list[tuple[int, str]]] = defaultdict(list)
            for s, e, i in ranges:
                events[s].append((1, i))
                events[e + 1].append((-1, i))
            active: Counter[str] = Counter()
            bounds, sets = sorted(events), []
            for b in bounds:
                for delta, i in events[b]:
                    active[i] += delta
                sets.append(tuple(sorted(i for i, n in active.items() if n > 0)))
            self._steps[path] = bounds, sets

    def ids(self, occ: Occ) -> list[str]:
        got: tuple[str, ...] = ()
        if occ.path in self._steps:
            bounds, sets = self._steps[occ.path]
            k = bisect.bisect_right(bounds, occ.line) - 1
            got = sets[k] if k >= 0 else ()
        out = set(got).union(self.files.get(occ.path, []))
        if occ.kind == "identifier" and (unit := compile_unit(occ.path)) is not None:
            out.update(self.packages.get(unit, ()))
        return sorted(out)


def _block_matches(block: str, path: str, test_id: str) -> bool:
    """Does a test block answer to a FAIL_TO_PASS id, loosely (see `_blocks`)?"""
    file, name = _id_parts(test_id)
    if file and _pytest(test_id):  # pytest: the file is exact, the name is a (Class::)test
        return path == file and (block == name or block.split("::")[-1] == name
                                 or name.endswith("::" + block))
    if file:  # a runner naming a (built) file and a suite title: all of that file's blocks
        return True
    if (plain := _GTEST_PARAM.fullmatch(name)) and _named(block, plain["suite"] + "."
                                                             + plain["name"]):
        return True
    return _named(block, name)


# A parametrized or typed GoogleTest id: `Inst/Suite.Name/0`, `Suite/0.Name`.
_GTEST_PARAM = re.compile(r"(?:\w+/)?(?P<suite>\w+)(?:/\d+)?\.(?P<name>\w+)(?:/\d+)?")


def _named(block: str, name: str) -> bool:
    """Does a test name (no file) name this block?"""
    top = name.split("/", 1)[0]  # Go: TestX/sub; Java: Class.method or Class#method
    leaf = re.split(r"[.#]", name)[-1]
    # A module path names a block by its tail (`crate::parser::tests::name`, block
    # `parser::tests::name`), and a block path an id by its tail.
    if "::" in name and (name.endswith("::" + block) or block.endswith("::" + name)):
        return True
    return block in (name, top) or block.split(".")[-1] == leaf and bool(re.search(r"[.#]",
                                                                                  name))


def _blocks(test: Side, test_id: str, only: str) -> dict[str, list[Any]]:
    """The test blocks an id names, per path. A block whose name is the id's test name
    exactly (a Jest title, a Go subtest `TestX/sub`) wins over looser matches (the whole
    `TestX`, every block of a file an aggregate id like `Suite.js | api tests` names)."""
    file, name = _id_parts(test_id)
    loose: dict[str, list[Any]] = {}
    exact: dict[str, list[Any]] = {}
    for path, f in test.facts.items():
        if only and _stem(path) != only:
            continue
        got = [b for b in f.tests if _block_matches(b.name, path, test_id)]
        if got:
            loose[path] = got
        if not _pytest(test_id):
            hit = [b for b in f.tests if b.name == name]
            if hit:
                exact[path] = hit
    return exact or loose


def graded(test: Side, fail_to_pass: Sequence[str]) -> Graded:
    """Test blocks named by FAIL_TO_PASS, the helpers they call (by name, transitively, across
    the test patch's files), module-level code of their files (tables, fixtures), and data
    files whose name a graded block spells. A file no syntax tree covers is graded whole
    (unscoped), as is every file when no id names any block (an id format not understood)."""
    ranges: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    ids = [i for i in fail_to_pass if i.strip()]
    functions: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for path, f in test.facts.items():
        for name, (s, e) in f.functions.items():
            functions[name].append((path, s, e))
    # A graded test that builds a test-local type (`FakeStream(...)`) reaches its methods:
    # the code under test calls them.
    methods: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for path, f in test.facts.items():
        for t in f.tokens:
            span = f.functions.get(t.value)
            if t.role == "def" and t.decl == "method" and t.owner and span \
                    and span[0] <= t.line <= span[1]:
                methods[t.owner].append((path, *span))
    stems = {_stem(p) for p in test.facts}
    matched: set[str] = set()
    for test_id in ids:
        file, _ = _id_parts(test_id)
        # A runner naming a built file (`Suite.js`) of this patch grades that file's blocks.
        only = _stem(file) if file and not _pytest(test_id) and _stem(file) in stems else ""
        todo: list[str] = []
        for path, blocks in _blocks(test, test_id, only).items():
            for b in blocks:
                ranges[path].append((b.start, b.end, test_id))
                todo += b.calls
                if "RunSpecs" in b.calls and path.endswith(_GO_TEST):
                    # A Ginkgo suite function runs every spec of its package.
                    for p in test.facts:
                        if compile_unit(p) == compile_unit(path):
                            ranges[p].append((1, 10**9, test_id))
            matched.add(test_id)
            ranges[path] += _module_level(test.facts[path], test_id)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                for path, s, e in functions.get(name, ()):
                    ranges[path].append((s, e, test_id))
                    todo += test.facts[path].calls.get(name, ())
                for path, s, e in methods.get(name, ()):
                    ranges[path].append((s, e, test_id))
    files: dict[str, list[str]] = {}
    for path in sorted({o.path for o in test.occs}):
        if path in test.facts:
            if not matched:
                ranges[path].append((1, 10**9, "(unscoped: no FAIL_TO_PASS id names a test "
                                               "of the patch)"))
        elif datafiles.format_of(path) and matched:
            spelled = [o.value for o in test.occs if o.kind == "string"
                       and any(s <= o.line <= e for s, e, _ in ranges.get(o.path, ()))]
            by = sorted({i for s in spelled for p, r in ranges.items() for *_, i in r
                         if names_file(s, path)})
            if by:
                files[path] = by
        else:
            files[path] = ids
    packages: dict[str, set[str]] = defaultdict(set)
    for path, rs in ranges.items():
        if matched and (unit := compile_unit(path)) is not None:
            packages[unit].update(i for *_, i in rs)
    return Graded(dict(ranges), files, [i for i in ids if i not in matched],
                  {k: sorted(v) for k, v in packages.items()})


def _module_level(f: Any, test_id: str) -> list[tuple[int, int, str]]:
    """Lines of a test file outside every function and test block: its tables and
    fixtures (a Jest test is an anonymous callback, so its block counts as a function)."""
    out, line = [], 1
    spans = [*f.functions.values(), *((b.start, b.end) for b in f.tests)]
    for s, e in sorted(spans):
        if s > line:
            out.append((line, s - 1, test_id))
        line = max(line, e + 1)
    out.append((line, 10**9, test_id))
    return out


@dataclass
class Grades:
    """Per test occurrence, the FAIL_TO_PASS ids it is graded by (empty: none), and why one a
    graded test holds still grades nothing."""

    ids: dict[Occ, list[str]] = field(default_factory=dict)
    ungraded: dict[Occ, str] = field(default_factory=dict)  # occurrence -> a NOT_GRADED_* rule

    def why_not(self, occs: Sequence[Occ]) -> str:
        """The rule of a constant none of whose test occurrences grades (the strongest)."""
        told = {self.ungraded[o] for o in occs if o in self.ungraded}
        return next((r for r in (NOT_GRADED_TYPE, NOT_GRADED_PASSED, NOT_GRADED_ECHO,
                                 NOT_GRADED_FED)
                     if r in told), NOT_GRADED_RUN)


def grades(test: Side, grading: Graded, defined: frozenset[str] = frozenset()) -> Grades:
    """Which ids grade each occurrence of the test side: those whose blocks hold it
    (`Graded.ids`), unless it is a literal the test itself chose (`_ungraded`). A string
    spelling a name the gold `defined` in a reflective call (`getattr(m, "new_func")`,
    `mock.patch(...)`, `jest.spyOn(obj, "m")`) is a use of that name, as an identifier would
    be: never an input the test chose. Elsewhere (`["DOMException", "Error"]`, a runtime's
    names) it is a literal like any other."""
    # Literals each test block feeds in: a call assertion naming one of them checks only that
    # the code handed the test's own value on (`f(b"x")`, then `m.assert_called_with(b"x")`).
    fed_in = {(o.value, o.path, o.test) for o in test.occs
              if o.kind != "identifier" and o.language and o.test and not o.asserting}
    ids_of = {o: grading.ids(o) for o in test.occs}
    # Literals the graded tests feed in, from their code or an input data file, and the ids
    # of the tests that do: a value of an expected-output file (a golden snapshot) one of
    # those tests compares against echoes the test's own input back (`"lockfilePath":
    # "mix.lock"` for the `mix.lock` the test hands the parser). Its keys are the fix's.
    fed_by: dict[str, set[str]] = defaultdict(set)
    for o in test.occs:
        if o.kind != "identifier" and o.language and not o.asserting:
            fed_by[o.value].update(ids_of[o])
    typed = _type_only(test.occs)
    out = Grades()
    for o in test.occs:
        ids = ids_of[o]
        why = (NOT_GRADED_TYPE if o.value in typed and ids
               else _ungraded(o, ids, fed_in, fed_by)
               if ids and not (o.value in defined and _reflects(test, o)) else "")
        if why:
            out.ungraded[o] = why
        out.ids[o] = [] if why else ids
    return out


# Calls that reach an attribute by its name in a string.
_REFLECT = re.compile(r"\b(?:getattr|setattr|hasattr|delattr|patch(?:\.object)?|spyOn|getMethod|"
                      r"getDeclaredMethod|getField|getDeclaredField|FieldByName|MethodByName)\s*\(")


def _reflects(test: Side, o: Occ) -> bool:
    """Is the occurrence on a line that calls a reflective function?"""
    img = test.images.get(o.path)
    return img is not None and bool(_REFLECT.search(img.line(o.line)))


# Languages whose tests often run with their types stripped (esbuild, tsx, Babel, swc).
_STRIPPED = frozenset({"typescript", "tsx"})


def _type_only(occs: Sequence[Occ]) -> set[str]:
    """Names the test side spells only in TypeScript type positions (and the imports that
    bring them in): a runner that strips types never looks them up. Type tests (`*.test-d.ts`,
    run by the compiler) are the exception."""
    typed: set[str] = set()
    valued: set[str] = set()
    for o in occs:
        if o.kind != "identifier":
            continue
        stripped = o.language in _STRIPPED and not o.path.endswith((".test-d.ts",
                                                                     ".test-d.tsx"))
        if stripped and o.decl == "type" and o.role in ("use", "member-use"):
            typed.add(o.value)
        elif not (stripped and o.role == "import"):  # an import alone says nothing
            valued.add(o.value)
    return typed - valued


def _ungraded(o: Occ, ids: list[str], fed_in: set[tuple[str, str, str]],
              fed_by: dict[str, set[str]]) -> str:
    """Why an occurrence inside a graded test still grades nothing ("": it grades). A name
    always grades; a literal grades only where the test asserts it (an assertion, an expected
    value): a fixture value the test feeds in is the test's choice, not the fix's. Outside a
    syntax tree (`language` "") every graded literal counts. Ungraded occurrences stay, so a
    receipt can say why a shared constant did not count."""
    if o.kind == "identifier":
        return ""
    if o.passed_on and (o.value, o.path, o.test) in fed_in:
        return NOT_GRADED_PASSED
    if o.asserting and o.decl == "value" and datafiles.format_of(o.path) \
            and not fed_by.get(o.value, set()).isdisjoint(ids):
        return NOT_GRADED_ECHO
    if o.language and not o.asserting:
        return NOT_GRADED_FED
    return ""
