"""The mechanical proposer (method §5.1a): constants in the added lines of both patches.

Pure: patches in, candidates out. Exhaustive over its own candidate space, so one pass finds
every candidate it ever will.
"""

from __future__ import annotations

from collections.abc import Sequence

from determinacy.errors import CaseError
from determinacy.patches import DEF, FileDiff, Tok, added_tokens, parse_patch
from determinacy.paths import is_test_path
from determinacy.records import Candidate, Proposal

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


class _Seen:
    __slots__ = ("kind", "locs", "defines", "strong", "uses")

    def __init__(self, kind: str):
        self.kind, self.locs = kind, []
        self.defines = self.strong = self.uses = 0


_RANK = ("identifier", "string", "number")


def _index(tokens: list[Tok]) -> dict[str, _Seen]:
    out: dict[str, _Seen] = {}
    for t in tokens:
        seen = out.setdefault(t.value, _Seen(t.kind))
        if _RANK.index(t.kind) < _RANK.index(seen.kind):
            seen.kind = t.kind
        seen.locs.append(f"{t.path}:{t.line}")
        if t.defines:
            seen.defines += 1
            seen.strong += t.defines == DEF
        else:
            seen.uses += 1  # a name read, called, imported, or the same text as a literal
    return out


def defuse(gold: _Seen, test: _Seen) -> str:
    """Does a name cross the code-test boundary (method §7)? Defined on one side and only used
    on the other. A name both define is local to each; a name neither defines comes from the
    codebase or a library: a correct fix cannot fail on it. From test to gold only a real
    definition counts (a function, class, method, attribute, parameter, key), not a variable
    that may be local to the test."""
    if gold.defines and not test.defines and test.uses:
        return "gold→test"
    if test.strong and not gold.defines and gold.uses:
        return "test→gold"
    return "none"


def _locations(locs: list[str]) -> list[str]:
    def key(loc: str) -> tuple[str, int]:
        path, _, line = loc.rpartition(":")
        return path, int(line)

    return sorted(set(locs), key=key)[:MAX_LOCATIONS]


def propose(gold_patch: str, test_patch: str, test_paths: Sequence[str],
            min_length: int) -> Proposal:
    try:
        gold = parse_patch(gold_patch, "gold patch")
        test = parse_patch(test_patch, "test patch")
    except CaseError as e:
        return Proposal(candidates=[], gold_files=[], test_files=[], error=str(e))
    gold_src = implementation(gold, test_paths)
    binary = sorted({f.path for f in gold + test if f.binary})
    for what, files in (("gold patch", gold_src), ("test patch", test)):
        if files and all(f.binary for f in files):
            return Proposal(candidates=[], gold_files=_paths(gold), test_files=_paths(test),
                            binary_files=binary,
                            error=f"{what} changes only binary files: no line to audit")
    g, t = _index(list(added_tokens(gold_src))), _index(list(added_tokens(test)))
    candidates = []
    for constant in sorted(g.keys() & t.keys()):
        gs, ts = g[constant], t[constant]
        kind = min(gs.kind, ts.kind, key=_RANK.index)
        candidates.append(Candidate(
            constant=constant, kind=kind, gold_at=_locations(gs.locs),
            test_at=_locations(ts.locs), trivial=trivial_reason(constant, min_length),
            defuse=defuse(gs, ts) if kind == "identifier" else "",
        ))
    return Proposal(candidates=candidates, gold_files=_paths(gold), test_files=_paths(test),
                    binary_files=binary)


def implementation(gold: list[FileDiff], test_paths: Sequence[str]) -> list[FileDiff]:
    """The gold patch's files outside test paths: test files it touches are not the fix."""
    return [f for f in gold if not is_test_path(f.path, test_paths)]


def _paths(files: list[FileDiff]) -> list[str]:
    return sorted(f.path for f in files)
