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

import re
from collections import defaultdict
from collections.abc import Callable, Sequence

import msgspec

from determinacy.errors import CaseFailure
from determinacy.paths import is_test_path
from determinacy.proposer.convention import Defs
from determinacy.proposer.crossing import crossing, dotted_names
from determinacy.proposer.generated import derivation, input_tokens
from determinacy.proposer.graded import graded, grades
from determinacy.proposer.imports import foreign
from determinacy.proposer.occurrences import Occ, locations, read_side
from determinacy.proposer.patches import FileDiff, deleted_paths, parse_patch
from determinacy.proposer.testdata import gold_test_data, only_in_test_data
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

# A fixed segment of a gold string at least this long, inside a graded test string, is a
# candidate of its own (a message the test embeds in a longer expected text).
MIN_SEGMENT = 12
# Files of a gold patch that are documentation, not what the solver must write.
_DOC_EXT = (".md", ".mdx", ".rst", ".adoc", ".markdown")
# A documentation folder at any depth (`packages/docs/`, `site/doc/`): its examples quote
# what the test feeds in, and no solver is graded on them.
_DOC_DIR = re.compile(r"(^|/)docs?/")
_DOC_NAME = re.compile(r"^(changelog|changes|news|history|release[-_ ]?notes)([.-].*)?$", re.I)
# Scratch and benchmark code a gold may touch beside the fix (`playground.ts`,
# `packages/bench/`): no solver is graded on it, and nothing ships it.
_SCRATCH = re.compile(r"(^|/)((playgrounds?|scratch|bench|benchmarks?)/|(playground|scratch)"
                      r"\.[^/]+$)", re.I)


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


def is_doc(path: str) -> bool:
    """Documentation, a changelog, or scratch and benchmark code: no part of the fix."""
    name = path.rsplit("/", 1)[-1]
    return (path.lower().endswith(_DOC_EXT) or bool(_DOC_NAME.match(name))
            or bool(_DOC_DIR.search(path)) or bool(_SCRATCH.search(path)))



_RANK = ("identifier", "string", "number")


def propose(gold_patch: str, test_patch: str, test_paths: Sequence[str], min_length: int,
            fail_to_pass: Sequence[str] = (),
            read: Callable[[str], str | None] | None = None,
            mirrors: Sequence[str] = ()) -> Proposal:
    """`read` gives a file's text at base_commit (None: no repository, hunks are parsed as
    fragments and every candidate records it); `mirrors` are the other files at base whose
    definitions a new name may follow (`convention.related`: its package, what a new file
    mirrors)."""
    try:
        gold_files = parse_patch(gold_patch, "gold patch")
        test_files = parse_patch(test_patch, "test patch")
    except CaseFailure as e:
        return Proposal(candidates=[], gold_files=[], test_files=[], error=str(e))
    binary = sorted({f.path for f in gold_files + test_files if f.binary})
    made = [f for f in gold_files if not is_doc(f.path)]
    for what, files in (("gold patch", made), ("test patch", test_files)):
        if files and all(f.binary for f in files):
            return Proposal(candidates=[], gold_files=_paths(gold_files),
                            test_files=_paths(test_files), binary_files=binary,
                            error=f"{what} changes only binary files: no line to audit")
    gold, test = read_side(made, read), read_side(test_files, read)
    test.occs += dotted_names(test.occs, gold.occs)
    grading = graded(test, fail_to_pass)
    judged = grades(test, grading, frozenset(o.value for o in gold.occs
                                             if o.role == "def" and o.kind == "identifier"))
    graded_ids = judged.ids
    g_by: dict[str, list[Occ]] = defaultdict(list)
    t_by: dict[str, list[Occ]] = defaultdict(list)
    for o in gold.occs:
        g_by[o.value].append(o)
    for o in test.occs:
        t_by[o.value].append(o)
    defs = Defs(gold, test, {f.path: f for f in made}, read, mirrors,
                sorted(p for p in deleted_paths(gold_patch) if not is_doc(p)))
    tables = _table_shapes(gold.occs)
    data = gold_test_data(made, test_files, test, grading, test_paths)
    # Test strings fed in (not asserted) longer than one token: texts the code reads.
    inputs = sorted({o.value for o in test.occs if o.kind == "string" and not o.asserting
                     and o.language})
    generator_inputs = input_tokens(made)
    manifests = [img.text for side in (gold, test) for p, img in side.images.items()
                 if p.rsplit("/", 1)[-1] == "package.json"]
    root = read("package.json") if read else None
    imported = foreign(test.images, read, manifests + ([root] if root else []))
    candidates = []
    for constant in sorted(g_by.keys() & t_by.keys()):
        gs, ts = g_by[constant], t_by[constant]
        kind = min((o.kind for o in gs + ts), key=_RANK.index)
        graded_ts = [o for o in ts if graded_ids[o]]
        defuse, rule = (crossing(gs, graded_ts or ts) if kind == "identifier"
                        else ("", "literal"))
        outside = sorted({imported[(o.path, o.value)] for o in graded_ts or ts
                          if (o.path, o.value) in imported})
        if kind == "identifier" and outside and all((o.path, o.value) in imported
                                                    for o in graded_ts or ts):
            # The test's name is another module's, whatever the gold defines.
            defuse, rule = "none", f"imported by the test from `{outside[0]}`, not the gold's"
        if not any(graded_ids[o] for o in ts):
            rule = judged.why_not(ts)
        c = _candidate(constant, kind, gs, ts, defuse, rule, graded_ids, min_length, defs,
                       data)
        if kind != "identifier" and not c.trivial:
            if reason := _data_reason(constant, gs, inputs, tables):
                c = msgspec.structs.replace(c, trivial=reason)
        if defuse == "gold→test":
            token, at = derivation(constant, {o.path for o in gs}, gold.images,
                                   generator_inputs)
            if token:
                c = msgspec.structs.replace(c, derived_from=token, generator_input=at)
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
                                         graded_ids, min_length, defs, data))
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
               defs: Defs, data: dict[str, str]) -> Candidate:
    first_g = min(gs, key=lambda o: (o.path, o.line))
    d = next((o for o in sorted(gs, key=lambda o: (o.path, o.line)) if o.role == "def"),
             None) if kind == "identifier" else None
    t_def = next((o for o in ts if o.role == "def"), None)
    where = d or t_def
    data_file = only_in_test_data(gs, data)
    return Candidate(
        constant=constant, kind=kind,  # type: ignore[arg-type]
        gold_at=locations(gs), test_at=locations(ts),
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
        test_data=data_file, test_data_at=data.get(data_file, ""),
    )


def implementation(gold: list[FileDiff], test_paths: Sequence[str]) -> list[FileDiff]:
    """The gold patch's files outside test paths (what the agent tiers quote from)."""
    return [f for f in gold if not is_test_path(f.path, test_paths)]


def _paths(files: list[FileDiff]) -> list[str]:
    return sorted(f.path for f in files)
