"""Settle candidates against the prose and the codebase (method §6). Pure: no git, no files.

A candidate certifies as an AIRTIGHT witness only when every check holds; the receipt command
is what a skeptic runs to see the codebase half for themselves, and each wider scope absence
held over (recent history, standard libraries: `CodebaseSearch.scopes`) adds its own. A
graded constant the gold makes only in test data the test patch does not ship certifies as
GOLD-TEST-DATA, whatever the codebase holds (the task is broken, not underdetermined). Its
Checks (the `candidates` table) feed the verdict, which is decided in `queries/views.sql`
only; what agents propose is settled by `agents/checks.py`. The first check a Check fails is
its settle step there (`settle_steps`, `settled.code`: in_prose, in_codebase, in_stdlib, ...,
README "Settle steps"), read from these fields: a new kind of step gets a new code.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

import msgspec

from determinacy.prose import Prose, words
from determinacy.records import (
    Candidate,
    CaseResult,
    Check,
    CodebaseSearch,
    Proposal,
    ScopeRead,
    Sibling,
    Task,
)


def receipt_command(constant: str, base_commit: str, excluded: list[str]) -> str:
    """`git grep` that prints nothing when `constant` is absent at `base_commit`.

    `-e` makes a constant that starts with `-` a pattern; every argument is shell-quoted.
    """
    cmd = f"git grep -F -n -e {quote(constant)} {shlex.quote(base_commit)}"
    if excluded:
        cmd += " -- . " + " ".join(quote(p) for p in excluded)
    return cmd


def test_data_command(path: str) -> str:
    """Run in a receipt's folder: counts the file's header in each patch (expect 1 in
    gold.diff, 0 in hidden_test.diff: only the gold writes it)."""
    return f"grep -c -F -e {quote('+++ b/' + path)} gold.diff hidden_test.diff"


def quote(s: str) -> str:
    """Always single-quoted, so a reader sees at a glance what is one argument."""
    return "'" + s.replace("'", "'\"'\"'") + "'"


def test_file(test_id: str) -> str:
    """The file a pytest FAIL_TO_PASS id names (`tests/test_x.py::TestA::test_b`), "" for
    any other id. Only pytest ids can be checked: pytest runs the file at that very path,
    while other runners name built files (`test/tests/Suite.js`, whose source lives
    elsewhere) or packages (Go's `TestX`)."""
    head = test_id.strip().split("::", 1)[0]
    return head if head.endswith(".py") and "::" in test_id else ""


def ungraded_reason(task: Task, missing_tests: Sequence[str] = ()) -> str:
    """Why the test patch grades nothing ("" when it may). A test FAIL_TO_PASS does not run
    grades nothing: an empty list, or ids that all name a test file that exists neither at
    base_commit nor in a patch (`missing_tests`, found by the codebase phase)."""
    ids = [i for i in task.fail_to_pass if i.strip()]
    if not ids:
        return "FAIL_TO_PASS is empty: no test is graded"
    if all(i in missing_tests for i in ids):
        return ("every FAIL_TO_PASS id names a test file that exists neither at base_commit "
                f"nor in a patch ({', '.join(sorted(ids)[:3])}): no test is graded")
    return ""


def convention_evidence(c: Candidate, prose: Prose) -> str:
    """Why a solver following the codebase would have written this name or string ("" when
    nothing says so): an existing one of its kind (`Sibling`) with `word` in place of part
    of it, where the prose gives `word`, the base defines it beside the sibling, or the
    proposer found where else it comes from (`Sibling.why`: a name the gold defines, a
    numbered family's range, the new function a string is in); or an existing name that
    differs from it only in case, or by an edit that needs no word (`Sibling.why`)."""
    for s in c.siblings:
        if not s.word and s.why:  # an edit that needs no word (one taken out, glue added)
            return f"`{s.name}` at {s.at} {s.why}"
        if not s.word:
            return f"`{s.name}` at {s.at} differs only in {_case_of(c.kind)}"
        if prose.gives(s.word):
            return f"`{s.name}` at {s.at} {_how(c.constant, s)}, a word of the prose"
        if s.base_at:
            return (f"`{s.name}` at {s.at} {_how(c.constant, s)}, a name the base has beside "
                    f"it at {s.base_at}")
        if s.why:
            return f"`{s.name}` at {s.at} {_how(c.constant, s)}, {s.why}"
    return ""


def _case_of(kind: str) -> str:
    return "case" if kind == "identifier" else "case and punctuation"


def _how(constant: str, s: Sibling) -> str:
    """How the new name or string is the sibling with `word` (for the receipt)."""
    mine, theirs, word = words(constant), words(s.name), words(s.word)
    if mine == word:  # a segment: what its string adds to the sibling
        return f"with `{s.word}` added"
    if any(theirs[i:i + len(mine)] == mine for i in range(len(theirs) - len(mine) + 1)):
        return f"spelled `{s.word}`"
    if len(mine) == len(theirs) and len(word) == 1 and sum(
            a != b for a, b in zip(mine, theirs, strict=True)) == 1:
        return f"with one part replaced by `{s.word}`"
    if word and any(mine[i:i + len(word)] == word and mine[:i] + mine[i + len(word):] == theirs
                    for i in range(len(mine))):
        return f"with `{s.word}` added"
    if len(mine) == len(theirs) and " " in s.word:
        return f"with its words replaced by `{s.word}`"
    return f"with `{s.word}` around the affix they share"


def floor(files: int) -> int:
    """How many of a library's files make a name its vocabulary: 1%, and at least five (two
    modules of a small library spelling a word is no vocabulary)."""
    return max(5, -(-files // 100))


def quoted(constant: str) -> tuple[str, ...]:
    """A constant as a whole string literal of a library's code (and of the grep re-checking
    it): in double, single or back quotes."""
    return tuple(f"{q}{constant}{q}" for q in ('"', "'", "`"))


def held_by(w: ScopeRead, c: Candidate) -> str:
    """Where the scope gives the constant ("" when it does not). History: anywhere (a name a
    recent commit had is a name the task may restore). A standard library or a pinned
    dependency: a literal as a whole string of its code; a name the test defines and the
    gold uses anywhere in it (a method of a standard interface a test double implements); a
    name the gold defines only when it is the library's vocabulary (a whole word in 1% of its
    files, five at least: `main`, `toString`), since that some unrelated package declares the
    same word (`GroupID` in Windows syscalls) does not make the fix's own choice known."""
    if w.scope == "history":
        return w.found.get(c.constant, "")
    if c.kind != "identifier":
        return w.quoted.get(c.constant, "")
    if c.defuse == "test→gold":
        return w.found.get(c.constant, "")
    return w.vocabulary.get(c.constant, "")


def scope_command(w: ScopeRead, c: Candidate) -> str:
    """The scope's re-check for the constant (nothing printed: not given there)."""
    if w.scope != "history" and c.kind != "identifier":
        return w.command.replace("-e {constant}",
                                 " ".join(f"-e {quote(q)}" for q in quoted(c.constant)))
    if w.scope != "history" and c.defuse != "test→gold":
        return w.vocabulary_command.replace("{constant}", quote(c.constant)).replace(
            "{floor}", str(floor(w.files)))
    return w.command.replace("{constant}", quote(c.constant))


def settle(task: Task, proposal: Proposal, search: CodebaseSearch) -> CaseResult:
    prose = Prose(task.prose)
    searched = set(search.searched)
    commit = search.tree.commit if search.tree else task.base_commit
    ungraded = ungraded_reason(task, search.missing_tests)
    checks = []
    for c in proposal.candidates:
        # A generated name is checked as the token of the generator's input it derives
        # from too: what the prose states of it, what the codebase holds.
        probes = (c.constant, c.derived_from) if c.derived_from else (c.constant,)
        in_prose = next(filter(None, map(prose.match, probes)), "")
        was_searched = all(p in searched for p in probes)
        at = next(filter(None, (search.found.get(p, "") for p in probes)), "")
        # A name certifies only when it crosses the code-test boundary (method §7).
        crosses = c.kind != "identifier" or c.defuse in ("gold→test", "test→gold")
        # Only what a FAIL_TO_PASS test reaches grades (method §7); the others are listed so
        # the receipt says why they did not count.
        graded = crosses and bool(c.graded_by) and not c.trivial and not in_prose \
            and not ungraded
        # Absent from the tree, present where else a solver reads (recent history, the
        # standard library): not unknowable either.
        scopes = search.scopes
        as_probed = [msgspec.structs.replace(c, constant=p) for p in probes]
        wider, given = next(((w, h) for w in scopes for k in as_probed
                             if (h := held_by(w, k))), (None, ""))
        if not (graded and was_searched and not at):
            wider, given = None, ""
        holds = graded and was_searched and not at and wider is None
        # A name the codebase's own convention predicts is a hypothesis, never a claim.
        convention = convention_evidence(c, prose) if holds and not c.test_data else ""
        # Test data only the gold ships breaks the task whatever the tree holds: no fix that
        # does not write that very file passes (GOLD-TEST-DATA, counted apart).
        certified = graded if c.test_data else holds and not convention
        checks.append(Check(
            case_id=task.case_id, constant=c.constant, kind=c.kind, gold_at=c.gold_at,
            test_at=c.test_at, trivial=c.trivial, defuse=c.defuse, prose_match=in_prose,
            codebase_searched=was_searched, codebase_at=at,
            codebase_variant=search.variants.get(c.constant, "") if not at else "",
            certified=certified,
            command=test_data_command(c.test_data) if c.test_data
            else receipt_command(probes[-1], commit, search.excluded) if was_searched else "",
            ungraded=ungraded, rule=c.rule, language=c.language,
            decl=c.decl, scope=c.scope, graded_by=c.graded_by, asserting=c.asserting,
            fragment=c.fragment, defined_at=c.defined_at, owner=c.owner,
            new_file=c.new_file, signature=c.signature, convention=convention,
            otherwise=(f"`{c.siblings[0].name}` at {c.siblings[0].at}"
                       if certified and c.siblings and not c.test_data else ""),
            test_data=c.test_data, test_data_at=c.test_data_at,
            found_in=wider.scope if wider else "",
            found_at=f"{wider.read}: {given}" if wider else "",
            absent_from=[f"tree at {commit}", *(w.read for w in scopes if w.command)]
            if certified and not c.test_data else [],
            scope_commands=[scope_command(w, as_probed[-1]) for w in scopes if w.command]
            if certified and not c.test_data else [],
            derived_from=c.derived_from, generator_input=c.generator_input,
        ))
    return CaseResult(case_id=task.case_id, checks=checks, binary_files=proposal.binary_files,
                      tree=search.tree,
                      scopes=[ScopeRead(scope=w.scope, read=w.read, command=w.command,
                                        files=w.files) for w in search.scopes])
