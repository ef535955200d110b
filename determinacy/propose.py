"""The mechanical proposer (method §5.1a, §7): constants the hidden test grades and the gold
patch makes, read from syntax trees of whole post-image files.

Pure: patches and a reader of base files in, candidates out. Each file of a patch becomes its
post-image (the base blob with the patch applied in memory, `postimage.py`); a language the
registry knows (`languages/`) is parsed whole and tokens are kept on added lines, with their
role (definition, local, use, import, foreign member), declaration kind, scope and test block;
data files give keys and values (`datafiles.py`); anything else is lexed as before
(`patches.added_tokens`). The test side counts only inside the tests FAIL_TO_PASS names, the
helpers they call and the data files they name. Exhaustive over its own candidate space, so
one pass finds every candidate it ever will.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from determinacy import datafiles, languages
from determinacy.errors import CaseError
from determinacy.patches import (
    DEF,
    IDENTIFIER,
    LOCAL_DEF,
    FileDiff,
    added_tokens,
    parse_patch,
    removed_lines,
    string_literals,
)
from determinacy.paths import is_test_path
from determinacy.postimage import PostImage, base_line, file_line, post_images
from determinacy.prose import words
from determinacy.records import Candidate, Proposal, Sibling

# Words no benchmark can hide: keywords and literals of common languages, and test plumbing.
# Only ever makes certification harder.
COMMON_WORDS = frozenset(
    """
    and as assert async await break case catch class const continue def default defer del
    delete do elif else enum except export extends false final finally for from func function
    global go if impl import in interface is lambda let match mod module new nil none nonlocal
    not null or package pass private protected pub public raise return self static struct super
    switch this throw throws true try type typeof undefined var void while with yield
    test tests expect expected actual result mock fixture assert_equal equal equals string
    int str bool float dict list error err value values key keys name data args kwargs
    """.split()
)

MAX_LOCATIONS = 3
MAX_MIRRORS = 4  # files a new file may mirror (`mirrored`)
# Why a shared constant no FAIL_TO_PASS test grades did not count (its `rule`).
NOT_GRADED_FED = "not graded: a literal the graded test only feeds in, never asserts"
NOT_GRADED_RUN = "not graded: used only outside the tests FAIL_TO_PASS runs"
NOT_GRADED_PASSED = ("not graded: the test asserts only that the code passed on a literal the "
                     "test itself fed in (a call assertion), never the fix's choice")
NOT_GRADED_ECHO = ("not graded: an expected-output file holds a literal the graded test itself "
                   "feeds in (its input echoed back), never the fix's choice")
# A fixed segment of a gold string at least this long, inside a graded test string, is a
# candidate of its own (a message the test embeds in a longer expected text).
MIN_SEGMENT = 12
# Files of a gold patch that are documentation, not what the solver must write.
_DOC_EXT = (".md", ".rst", ".adoc", ".markdown")
_DOC_NAME = re.compile(r"^(changelog|changes|news|history|release[-_ ]?notes)([.-].*)?$", re.I)


def trivial_reason(constant: str, min_length: int) -> str:
    try:
        constant.encode("utf-8")
    except UnicodeEncodeError:
        return "not valid text (a lone surrogate)"
    if "\n" in constant or "\r" in constant or "\0" in constant:
        return "spans lines"
    if len(constant) < min_length:
        return f"shorter than {min_length}"
    if not any(ch.isalnum() for ch in constant):
        return "no letter or digit"
    if constant.lower() in COMMON_WORDS:
        return "common word"
    return ""


@dataclass(frozen=True)
class Occ:
    """One occurrence of a constant on one side, on an added line."""

    value: str
    kind: str  # identifier | string | number
    path: str
    line: int  # in the real file
    role: str  # def | local | use | import | member-use
    decl: str = ""
    scope: str = ""
    owner: str = ""
    language: str = ""  # "" when lexed without a syntax tree
    fragment: bool = False
    asserting: bool = False
    test: str = ""  # the test block it is in
    segments: tuple[str, ...] = ()
    passed_on: bool = False  # in a call assertion's arguments (what the code passed on)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def is_doc(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (path.lower().endswith(_DOC_EXT) or bool(_DOC_NAME.match(name))
            or path.startswith(("docs/", "doc/")))


_FALLBACK_ROLE = {DEF: "def", LOCAL_DEF: "local"}
_GOLDEN = re.compile(r"(^|[/_.-])(expected|golden|want|snapshots?)([/_.-]|$)", re.I)


def _occurrences(fd: FileDiff, img: PostImage | None) -> tuple[list[Occ], Any]:
    """The tokens of one file on its added lines, and its syntax facts (None without)."""
    if img is not None and datafiles.format_of(fd.path):
        # A data file named as expected output (`expected_region.json`, `golden/`) is what a
        # test compares against; any other is input it feeds in.
        golden = bool(_GOLDEN.search(fd.path))
        return [Occ(i.value, "number" if datafiles.is_number(i.value) else "string", fd.path,
                    file_line(img, i.line), "use", decl="key" if i.key else "value",
                    language=datafiles.format_of(fd.path), fragment=img.fragment,
                    asserting=golden)
                for i in datafiles.items(fd.path, img.text, img.added)], None
    facts = languages.analyze(fd.path, img.text, img.added) if img is not None else None
    if facts is None or img is None:
        return [Occ(t.value, t.kind, t.path, t.line, _FALLBACK_ROLE.get(t.defines, "use"))
                for t in added_tokens([fd])], None
    # Import paths never certify (method §7): both patches importing one module is no graded
    # behavior.
    out = [Occ(t.value, t.kind, fd.path, file_line(img, t.line), t.role, decl=t.decl,
               scope=t.scope, owner=t.owner, language=facts.language, fragment=img.fragment,
               asserting=t.asserting, test=t.test, segments=t.fstring_parts,
               passed_on=t.passed_on)
           for t in facts.tokens if t.line in img.added
           and not (t.kind == "string" and t.role == "import")]
    return out, facts


@dataclass
class Side:
    occs: list[Occ]
    facts: dict[str, Any]  # path -> FileFacts
    images: dict[str, PostImage]


def _side(files: list[FileDiff], read: Callable[[str], str | None] | None) -> Side:
    images = {img.path: img for img in post_images(files, read)}
    occs: list[Occ] = []
    facts: dict[str, Any] = {}
    for fd in files:
        if fd.binary:
            continue
        got, f = _occurrences(fd, images.get(fd.path))
        occs += got
        if f is not None:
            facts[fd.path] = f
    return Side(occs, facts, images)


# -- what FAIL_TO_PASS grades --------------------------------------------------------------

_PARAMS = re.compile(r"\[.*\]$")


@functools.lru_cache(maxsize=4096)  # asked for each test block of each file, per id
def _id_parts(test_id: str) -> tuple[str, str]:
    """(file, test name) of a FAIL_TO_PASS id; either may be ""."""
    t = test_id.strip()
    if "::" in t:
        path, _, name = t.partition("::")
        return path, _PARAMS.sub("", name)
    if " | " in t:
        path, _, name = t.partition(" | ")
        return path.strip(), name.strip()
    return "", t


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


@dataclass
class Graded:
    """Which added test lines FAIL_TO_PASS reaches: line ranges per file, and by which ids."""

    ranges: dict[str, list[tuple[int, int, str]]]  # path -> (start, end, id)
    files: dict[str, list[str]]  # path -> ids grading the whole file (data, unscoped)
    unresolved: list[str]  # ids no test block of the patch matched

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
        return sorted(set(got).union(self.files.get(occ.path, [])))


def _block_matches(block: str, path: str, test_id: str) -> bool:
    """Does a test block answer to a FAIL_TO_PASS id, loosely (see `_blocks`)?"""
    file, name = _id_parts(test_id)
    if file and "::" in test_id:  # pytest: the file is exact, the name is a (Class::)test
        return path == file and (block == name or block.split("::")[-1] == name
                                 or name.endswith("::" + block))
    if file:  # a runner naming a (built) file and a suite title: all of that file's blocks
        return True
    top = name.split("/", 1)[0]  # Go: TestX/sub; Java: Class.method or Class#method
    leaf = re.split(r"[.#]", name)[-1]
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
        if "::" not in test_id:
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
        only = _stem(file) if file and "::" not in test_id and _stem(file) in stems else ""
        todo: list[str] = []
        for path, blocks in _blocks(test, test_id, only).items():
            for b in blocks:
                ranges[path].append((b.start, b.end, test_id))
                todo += b.calls
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
            name, stem = path.rsplit("/", 1)[-1], _stem(path)
            by = sorted({i for s in spelled for p, r in ranges.items() for *_, i in r
                         if name in s or (len(stem) >= 4 and stem in s)})
            if by:
                files[path] = by
        else:
            files[path] = ids
    return Graded(dict(ranges), files, [i for i in ids if i not in matched])


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


# -- the candidates --------------------------------------------------------------------------

_RANK = ("identifier", "string", "number")


def crossing(gold: list[Occ], test: list[Occ]) -> tuple[str, str]:
    """(defuse, rule): does a name cross the code-test boundary (method §7)?

    Defined by the gold at module or type level and used (not defined, not bound locally) by
    the test, or the reverse; a string on one side (a registration, a key) naming an
    identifier the other side uses as a keyword or attribute. Imports, locals and members of
    foreign types never cross; a method a test defines on its own type does not either.
    """
    g_roles = {o.role for o in gold if o.kind == "identifier"}
    t_roles = {o.role for o in test if o.kind == "identifier"}
    if (g_roles | t_roles) <= {"import"}:
        return "none", "import or package name"
    # Importing a name is using it (`from pkg.mod import new_function`).
    test_uses = t_roles & {"use", "member-use", "import"}
    gold_uses = g_roles & {"use", "member-use", "import"}
    if "def" in g_roles and test_uses and not t_roles & {"def", "local"}:
        return "gold→test", "defined by the gold, used by the test"
    test_defs = [o for o in test if o.role == "def" and not (o.decl == "method" and o.owner)]
    if test_defs and gold_uses and not g_roles & {"def", "local"}:
        return "test→gold", "defined by the test, used by the gold"
    # A string on one side naming what the other side defines (`getattr(m, "new_func")`,
    # `monkeypatch.setattr(m, "new_func", ...)`). A string naming what the other side only
    # uses is most often a library's attribute (`monkeypatch.setattr(m, "guess_type")`).
    # A parameter is named only by a dict key (`fn(**{"compact": True})`): any other string
    # equal to one is most often a message or a `parametrize("region", ...)` argument name.
    keyed = any(o.kind == "string" and o.decl == "key" for o in test)
    g_named = {o.role for o in gold if o.kind == "identifier"
               and (o.decl != "parameter" or keyed)}
    if any(o.kind == "string" for o in test) and "def" in g_named and "local" not in g_roles:
        return "gold→test", "defined by the gold, named by a string of the test"
    if any(o.kind == "string" for o in gold) and test_defs and "local" not in t_roles:
        return "test→gold", "defined by the test, named by a string of the gold"
    if not g_roles and not t_roles:
        return "", "literal"
    if any(o.role == "def" and o.decl == "method" and o.owner for o in test) \
            and "def" not in g_roles:
        return "none", "a method of the test's own type (a test double the gold calls)"
    if "local" in g_roles | t_roles:
        return "none", "a local variable"
    if any(datafiles.format_of(o.path) for o in gold + test) and not (
            "def" in g_roles or "def" in t_roles):
        return "none", "a key or value of a data file (data defines no name)"
    if g_roles <= {"member-use"} and t_roles <= {"member-use"}:
        return "none", "a member of a type neither patch declares"
    return "none", "neither or both sides define it"


def _loc_key(loc: str) -> tuple[str, int]:
    path, _, line = loc.rpartition(":")
    return path, int(line)


def _locations(occs: Iterable[Occ]) -> list[str]:
    return sorted({o.where for o in occs}, key=_loc_key)[:MAX_LOCATIONS]


def mirrored(created: Iterable[str], listing: Iterable[str]) -> list[str]:
    """Files at base that a file the gold creates mirrors: in the same folder, with the same
    extension, a name of two words or more with exactly one replaced (`bash_completions.go`
    for a new `zsh_completions.go`; a one-word name such as `settings.py` mirrors nothing:
    every module of its folder would), at most MAX_MIRRORS per new file. The names of the
    new file follow theirs (method §6.6)."""
    folders: dict[tuple[str, str], list[tuple[str, list[str]]]] = defaultdict(list)
    for path in listing:
        folder, _, name = path.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        folders[(folder, ext if dot else "")].append((path, words(stem if dot else name)))
    out: set[str] = set()
    for new in created:
        folder, _, name = new.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        mine = words(stem if dot else name)
        out.update(sorted(p for p, theirs in folders.get((folder, ext if dot else ""), ())
                          if p != new and _replaced_part(mine, theirs))[:MAX_MIRRORS])
    return sorted(out)


def propose(gold_patch: str, test_patch: str, test_paths: Sequence[str], min_length: int,
            fail_to_pass: Sequence[str] = (),
            read: Callable[[str], str | None] | None = None,
            mirrors: Sequence[str] = ()) -> Proposal:
    """`read` gives a file's text at base_commit (None: no repository, hunks are parsed as
    fragments and every candidate records it); `mirrors` are the files at base the gold's new
    files mirror (`mirrored`), whose definitions a new name may follow."""
    try:
        gold_files = parse_patch(gold_patch, "gold patch")
        test_files = parse_patch(test_patch, "test patch")
    except CaseError as e:
        return Proposal(candidates=[], gold_files=[], test_files=[], error=str(e))
    binary = sorted({f.path for f in gold_files + test_files if f.binary})
    made = [f for f in gold_files if not is_doc(f.path)]
    for what, files in (("gold patch", made), ("test patch", test_files)):
        if files and all(f.binary for f in files):
            return Proposal(candidates=[], gold_files=_paths(gold_files),
                            test_files=_paths(test_files), binary_files=binary,
                            error=f"{what} changes only binary files: no line to audit")
    gold, test = _side(made, read), _side(test_files, read)
    grading = graded(test, fail_to_pass)
    g_by: dict[str, list[Occ]] = defaultdict(list)
    t_by: dict[str, list[Occ]] = defaultdict(list)
    for o in gold.occs:
        g_by[o.value].append(o)
    graded_ids: dict[Occ, list[str]] = {}
    fed: set[Occ] = set()  # graded, but a literal the test only feeds in
    passed: set[Occ] = set()  # ... or asserts only as what the code passed on
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
    echoed: set[Occ] = set()
    for o in test.occs:
        ids = ids_of[o]
        if ids and o.passed_on and o.kind != "identifier" and (o.value, o.path,
                                                                o.test) in fed_in:
            passed.add(o)
            ids = []
        if ids and o.kind != "identifier" and o.asserting and o.decl == "value" \
                and datafiles.format_of(o.path) and not fed_by.get(o.value, set()).isdisjoint(ids):
            echoed.add(o)
            ids = []
        # A literal grades only where the test asserts it (an assertion, an expected value):
        # a fixture value the test feeds in is the test's choice, not the fix's. (Literals
        # passed to the code under test are left for a rule that can see the call.) Outside a
        # syntax tree (`language` "") every graded literal counts, as before. Ungraded
        # occurrences stay, so a receipt can say why a shared constant did not count.
        if ids and not (o.kind == "identifier" or o.asserting or not o.language):
            fed.add(o)
            ids = []
        graded_ids[o] = ids
        t_by[o.value].append(o)
    defs = _Defs(gold, test, {f.path: f for f in made}, read, mirrors)
    tables = _table_shapes(gold.occs)
    # Test strings fed in (not asserted) longer than one token: texts the code reads.
    inputs = sorted({o.value for o in test.occs if o.kind == "string" and not o.asserting
                     and o.language})
    candidates = []
    for constant in sorted(g_by.keys() & t_by.keys()):
        gs, ts = g_by[constant], t_by[constant]
        kind = min((o.kind for o in gs + ts), key=_RANK.index)
        graded_ts = [o for o in ts if graded_ids[o]]
        defuse, rule = (crossing(gs, graded_ts or ts) if kind == "identifier"
                        else ("", "literal"))
        if not any(graded_ids[o] for o in ts):
            rule = (NOT_GRADED_PASSED if any(o in passed for o in ts)
                    else NOT_GRADED_ECHO if any(o in echoed for o in ts)
                    else NOT_GRADED_FED if any(o in fed for o in ts) else NOT_GRADED_RUN)
        c = _candidate(constant, kind, gs, ts, defuse, rule, graded_ids, min_length, defs)
        if kind != "identifier" and not c.trivial:
            if reason := _data_reason(constant, gs, inputs, tables):
                c = msgspec.structs.replace(c, trivial=reason)
        candidates.append(c)
    # Fixed segments of gold strings inside graded test strings.
    have = {c.constant for c in candidates}
    test_strings = [o for occs in t_by.values() for o in occs
                    if o.kind == "string" and graded_ids[o]]
    for seg, gs in sorted(_segments(gold.occs).items()):
        # Only where the test asserts the longer text: a fixture it feeds in grades nothing.
        ts = [o for o in test_strings if seg in o.value and o.value != seg and o.asserting]
        if seg not in have and ts:
            candidates.append(_candidate(seg, "string", gs, ts, "", "a fixed segment of a "
                                         "gold string inside a graded test string",
                                         graded_ids, min_length, defs))
    return Proposal(candidates=candidates, gold_files=_paths(gold_files),
                    test_files=_paths(test_files), binary_files=binary,
                    unresolved_tests=grading.unresolved,
                    fragments=sorted(p for s in (gold, test) for p, img in s.images.items()
                                     if img.fragment))


# A gold file that adds this many literals of one shape is transcribing a table.
MIN_TABLE = 8


def _shape(value: str) -> str:
    """`KB5039299` -> `aa9999999`, `10.0.19045` -> `99.9.99999`: what rows of one table
    share."""
    return re.sub(r"[A-Za-z]", "a", re.sub(r"[0-9]", "9", value))


def _table_shapes(occs: list[Occ]) -> set[tuple[str, str]]:
    """(path, shape) of the literal tables the gold adds: at least MIN_TABLE distinct
    literals of one shape without a blank (ids, versions, dates, hashes; not messages)."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for o in occs:
        if o.kind != "identifier" and " " not in o.value:
            seen[(o.path, _shape(o.value))].add(o.value)
    return {k for k, values in seen.items() if len(values) >= MIN_TABLE}


def _data_reason(constant: str, gs: list[Occ], inputs: list[str],
                 tables: set[tuple[str, str]]) -> str:
    """Why a literal is data the world fixes rather than a choice of the fix ("" if not).

    The graded test feeds it in inside a longer text (the output of a tool or a file the
    code reads: `CFBundleIdentifier: com.apple.Safari`): the code must read back what its
    input says, so any faithful fix writes it. Or every gold occurrence is a row of a table
    the gold transcribes (a release list, a catalog of ids): what the world published, which
    a task cannot be expected to restate and a solver may know or not."""
    if any(constant in text and text != constant for text in inputs):
        return "the test's input carries it: data the code reads, not the fix's choice"
    if all((o.path, _shape(o.value)) in tables for o in gs):
        return (f"a row of a data table the gold transcribes (≥ {MIN_TABLE} literals of one "
                "shape in one file): published data, not the fix's choice")
    return ""


def _segments(occs: list[Occ]) -> dict[str, list[Occ]]:
    out: dict[str, list[Occ]] = defaultdict(list)
    for o in occs:
        if o.kind != "string":
            continue
        for part in o.segments or (o.value,):
            part = part.strip()
            if len(part) >= MIN_SEGMENT:
                out[part].append(o)
    return out


def _candidate(constant: str, kind: str, gs: list[Occ], ts: list[Occ], defuse: str,
               rule: str, graded_ids: dict[Occ, list[str]], min_length: int,
               defs: _Defs) -> Candidate:
    first_g = min(gs, key=lambda o: (o.path, o.line))
    d = next((o for o in sorted(gs, key=lambda o: (o.path, o.line)) if o.role == "def"),
             None) if kind == "identifier" else None
    t_def = next((o for o in ts if o.role == "def"), None)
    where = d or t_def
    return Candidate(
        constant=constant, kind=kind,  # type: ignore[arg-type]
        gold_at=_locations(gs), test_at=_locations(ts),
        trivial=trivial_reason(constant, min_length), defuse=defuse, rule=rule,
        language=first_g.language, decl=where.decl if where else first_g.decl,
        scope=first_g.scope, graded_by=sorted({i for o in ts for i in graded_ids.get(o, ())}),
        asserting=any(o.asserting for o in ts),
        fragment=any(o.fragment for o in gs + ts),
        defined_at=where.where if where else "", owner=where.owner if where else "",
        new_file=defs.is_new(where.path) if where else False,
        signature=defs.signature(d) if d else "",
        siblings=(defs.siblings(d) if d and defuse == "gold→test"
                  else defs.text_siblings(constant, gs) if kind == "string" else []),
    )


class _Defs:
    """What the gold's files say around a definition: the names and literals its file
    already had at base (for convention, method §7) and a callable's declaration line."""

    def __init__(self, gold: Side, test: Side, diffs: dict[str, FileDiff],
                 read: Callable[[str], str | None] | None = None, mirrors: Sequence[str] = ()):
        self.gold, self.diffs, self.read, self.mirrors = gold, diffs, read, list(mirrors)
        self.new = {p for s in (gold, test) for p, img in s.images.items() if img.new_file}
        self._base: dict[str, list[Any]] | None = None
        self._names: dict[str, set[str]] = {}
        self._texts: dict[str, str | None] = {}
        # Syntax facts of base files, each parsed once, and only for a name or string that
        # may follow one of its names or literals (a cheap text check first).
        self._facts: dict[str, Any] = {}

    def is_new(self, path: str) -> bool:
        return path in self.new

    def _at_base(self, path: str) -> str:
        """The file's path at base_commit (its old name when the gold renames it)."""
        fd = self.diffs.get(path)
        return (fd.old_path or path) if fd is not None else path

    def _base_text(self, path: str) -> str | None:
        """The text at base of a gold file (by its path after the patch) or a mirror."""
        if path not in self._texts:
            self._texts[path] = self.read(self._at_base(path)) if self.read else None
        return self._texts[path]

    def _base_facts(self, path: str) -> Any:
        """The syntax facts of a whole file at base (None: no grammar reads it)."""
        if path not in self._facts:
            text = self._base_text(path)
            self._facts[path] = (languages.analyze(self._at_base(path), text)
                                 if text is not None else None)
        return self._facts[path]

    def _names_in(self, text: str) -> set[str]:
        """The distinct names a text spells (a superset of its definitions)."""
        if text not in self._names:
            self._names[text] = set(IDENTIFIER.findall(text))
        return self._names[text]

    def _may_follow(self, mine: list[str], text: str | None) -> bool:
        """Whether some name `text` spells is `mine` with one part replaced: only then is the
        file parsed for its definitions."""
        return text is not None and any(_replaced_part(mine, words(n))
                                        for n in self._names_in(text))

    def _base_defs(self) -> dict[str, list[Any]]:
        """path -> definitions on lines the gold did not add (so they exist at base)."""
        if self._base is None:
            self._base = {}
            for path, f in self.gold.facts.items():
                img = self.gold.images[path]
                if not img.fragment and not img.new_file:
                    self._base[path] = [t for t in f.tokens if t.role == "def"
                                        and t.line not in img.added]
        return self._base

    def _removed_defs(self, path: str, mine: list[str]) -> list[Any]:
        """The definitions on the lines the gold removes from `path` (base lines), read from
        the whole base file: what a rename leaves behind."""
        fd = self.diffs[path]
        removed = "".join(text for h in fd.raw for tag, text in h.lines if tag == "-")
        if not self._may_follow(mine, removed):
            return []
        lines = removed_lines(fd)
        facts = self._base_facts(path)
        return [t for t in facts.tokens if t.role == "def" and t.line in lines] \
            if facts is not None else []

    def siblings(self, d: Occ) -> list[Sibling]:
        """Existing names `d` follows: same declaration kind, scope and owner in its file
        (or, for a new file, in the files it mirrors), with exactly one of its camel/snake
        parts replaced (the new part is `word`); so is a definition the gold removes from
        its file altogether (a rename: `context_defaults` for a new `context_settings`); or
        any existing definition of the gold's files that differs from it only in case."""
        mine = words(d.value)
        group = (d.decl, d.scope, d.owner)
        out: dict[str, Sibling] = {}
        img = self.gold.images.get(d.path)
        if d.path in self.diffs and img is not None and not img.fragment:
            for t in self._removed_defs(d.path, mine):
                word = _replaced_part(mine, words(t.value))
                # Still in the file after the patch: a name the gold kept, not one it renamed.
                if word and (t.decl, t.scope, t.owner) == group and t.value not in out \
                        and t.value not in self._names_in(img.text):
                    out[t.value] = Sibling(name=t.value, word=word,
                                           at=f"{self._at_base(d.path)}:{t.line}")
        for path, toks in self._base_defs().items():
            fd = self.diffs[path]
            for t in toks:
                if t.value == d.value or t.value in out:
                    continue
                at = f"{self._at_base(path)}:{{}}"
                if t.value.casefold() == d.value.casefold():
                    out[t.value] = Sibling(name=t.value, at=at.format(base_line(fd, t.line)))
                elif path == d.path and (t.decl, t.scope, t.owner) == group:
                    word = _replaced_part(mine, words(t.value))
                    if word:
                        out[t.value] = Sibling(name=t.value,
                                               at=at.format(base_line(fd, t.line)), word=word)
        if self.is_new(d.path):
            # A new file's names follow the file it mirrors (same kind, scope and owner).
            for path in self.mirrors:
                facts = (self._base_facts(path)
                         if self._may_follow(mine, self._base_text(path)) else None)
                for t in facts.tokens if facts is not None else ():
                    if t.role == "def" and t.value not in out \
                            and (t.decl, t.scope, t.owner) == group:
                        word = _replaced_part(mine, words(t.value))
                        if word:
                            out[t.value] = Sibling(name=t.value, at=f"{path}:{t.line}",
                                                   word=word)
        return sorted(out.values(), key=lambda s: (s.word != "", _loc_key(s.at)))[
            :MAX_LOCATIONS]

    def text_siblings(self, constant: str, gs: list[Occ]) -> list[Sibling]:
        """Existing strings a new string follows: a whole literal (or data-file key or
        value) that the base version of a file of its gold occurrences holds, the same text
        with exactly one of its words replaced (the new word is `word`): `"Windows 11
        Version 24H2"` beside a new `"Windows 11 Version 25H2"`, also where the gold edits
        that literal in place."""
        mine = words(constant)
        if len(mine) < 2:
            return []
        # Each word in turn left open; a literal starts at a quote (no backtracking into
        # a long run of letters).
        ones = [re.compile(re.escape(constant[:r.start()]) + _RUN.pattern
                           + re.escape(constant[r.end():])) for r in _RUN.finditer(constant)]
        out: dict[str, Sibling] = {}
        for path in sorted({o.path for o in gs}):
            img = self.gold.images.get(path)
            text = self._base_text(path) if img is not None and not img.new_file else None
            if text is None or path not in self.diffs:
                continue
            for found, line in self._base_strings(path, text, ones):
                word = _replaced_part(mine, words(found))
                if word and found not in out:
                    out[found] = Sibling(name=found, word=word,
                                         at=f"{self._at_base(path)}:{line}")
        return sorted(out.values(), key=lambda s: _loc_key(s.at))[:MAX_LOCATIONS]

    def _base_strings(self, path: str, text: str, patterns: list[re.Pattern[str]]
                      ) -> Iterator[tuple[str, int]]:
        """(text, line) of each string of a gold file at base that one of `patterns` matches
        whole: a data file's keys and values; elsewhere, the content of a whole string
        literal, as its syntax tree (else its lexer) reads it: never a comment, a docstring or
        part of a longer string."""
        at_base = self._at_base(path)
        if datafiles.format_of(at_base):
            for item in datafiles.items(at_base, text):
                if any(p.fullmatch(item.value) for p in patterns):
                    yield item.value, item.line
            return
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
        hits = []  # text between two equal quotes, first: few survive, the parse is for them
        for p in patterns:
            for hit in re.finditer(f"(?<=[\"'`])(?:{p.pattern})(?=[\"'`])", text):
                a, b = hit.span()
                if text[a - 1] == text[b]:
                    hits.append((hit.group(), bisect.bisect_right(starts, a), a, b))
        if not hits:
            return
        facts = self._base_facts(path)
        if facts is not None:
            strings = {(t.value, t.line) for t in facts.tokens if t.kind == "string"}
            yield from ((h, line) for h, line, _, _ in hits if (h, line) in strings)
            return
        spans = string_literals(at_base, text)
        yield from ((h, line) for h, line, a, b in hits if spans is None or (a, b) in spans)

    def signature(self, d: Occ) -> str:
        """A callable's declaration from its name to the body's opening (`:` or `{`), at
        most a few lines, blanks collapsed."""
        img = self.gold.images.get(d.path)
        if d.decl not in ("function", "method") or img is None or img.fragment:
            return ""
        lines = img.text.split("\n")[d.line - 1:d.line + 5]
        text = " ".join(x.strip() for x in lines)
        end = min((i for i in (_body_start(text),) if i >= 0), default=len(text))
        return re.sub(r"\s+", " ", text[:end]).strip()[:300]


def _body_start(text: str) -> int:
    """Where a declaration's body opens: the first `{`, or a `:` that ends a line's
    parameter list (Python), whichever comes first outside brackets."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth <= 0 and (ch == "{" or ch == ":" and text[i + 1:i + 2] in (" ", "")):
            return i
    return -1


_RUN = re.compile(r"[A-Za-z0-9]+")  # a word of a string, as `text_siblings` swaps one


def _replaced_part(new: list[str], old: list[str]) -> str:
    """The part of `new` that replaces exactly one part of `old` (same number of parts, at
    least two), or ""."""
    if len(new) != len(old) or len(new) < 2:
        return ""
    diff = [i for i, (a, b) in enumerate(zip(new, old, strict=True)) if a != b]
    return new[diff[0]] if len(diff) == 1 else ""


def implementation(gold: list[FileDiff], test_paths: Sequence[str]) -> list[FileDiff]:
    """The gold patch's files outside test paths (what the agent tiers quote from)."""
    return [f for f in gold if not is_test_path(f.path, test_paths)]


def _paths(files: list[FileDiff]) -> list[str]:
    return sorted(f.path for f in files)
