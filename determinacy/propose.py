"""The mechanical proposer (method §5.1a): constants in the added lines of both patches.

Pure: patches in, candidates out. Exhaustive over its own candidate space, so one pass finds
every candidate it ever will.
"""

from __future__ import annotations

from collections.abc import Sequence

from determinacy.errors import CaseError
from determinacy.patches import FileDiff, Tok, added_tokens, parse_patch
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
    if "\n" in constant or "\r" in constant or "\0" in constant:
        return "spans lines"
    if len(constant) < min_length:
        return f"shorter than {min_length}"
    if not any(ch.isalnum() for ch in constant):
        return "no letter or digit"
    if constant.lower() in COMMON_WORDS:
        return "common word"
    return ""


def _index(tokens: list[Tok]) -> dict[str, tuple[str, list[str]]]:
    out: dict[str, tuple[str, list[str]]] = {}
    rank = {"identifier": 0, "string": 1, "number": 2}
    for t in tokens:
        kind, locs = out.get(t.value, (t.kind, []))
        if rank[t.kind] < rank[kind]:
            kind = t.kind
        locs.append(f"{t.path}:{t.line}")
        out[t.value] = (kind, locs)
    return out


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
    # The gold side is the fix: test files it touches are test code, not implementation.
    gold_src = [f for f in gold if not is_test_path(f.path, test_paths)]
    binary = sorted({f.path for f in gold + test if f.binary})
    for what, files in (("gold patch", gold_src), ("test patch", test)):
        if files and all(f.binary for f in files):
            return Proposal(candidates=[], gold_files=_paths(gold), test_files=_paths(test),
                            binary_files=binary,
                            error=f"{what} changes only binary files: no line to audit")
    g, t = _index(list(added_tokens(gold_src))), _index(list(added_tokens(test)))
    candidates = []
    for constant in sorted(g.keys() & t.keys()):
        gk, gl = g[constant]
        tk, tl = t[constant]
        kind = gk if gk == tk else min(gk, tk, key=["identifier", "string", "number"].index)
        candidates.append(Candidate(
            constant=constant, kind=kind, gold_at=_locations(gl), test_at=_locations(tl),
            trivial=trivial_reason(constant, min_length),
        ))
    return Proposal(candidates=candidates, gold_files=_paths(gold), test_files=_paths(test),
                    binary_files=binary)


def _paths(files: list[FileDiff]) -> list[str]:
    return sorted(f.path for f in files)
