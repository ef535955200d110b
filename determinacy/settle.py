"""Settle candidates against the prose and the codebase (method §6). Pure: no git, no files.

A candidate certifies as an AIRTIGHT witness only when every check holds; the receipt command
is what a skeptic runs to see the codebase half for themselves.
"""

from __future__ import annotations

import shlex

from determinacy.prose import Prose
from determinacy.records import CaseResult, Check, CodebaseSearch, Proposal, Task


def receipt_command(constant: str, base_commit: str, excluded: list[str]) -> str:
    """`git grep` that prints nothing when `constant` is absent at `base_commit`.

    `-e` makes a constant that starts with `-` a pattern; every argument is shell-quoted.
    """
    cmd = f"git grep -F -n -e {quote(constant)} {shlex.quote(base_commit)}"
    if excluded:
        cmd += " -- . " + " ".join(quote(p) for p in excluded)
    return cmd


def quote(s: str) -> str:
    """Always single-quoted, so a reader sees at a glance what is one argument."""
    return "'" + s.replace("'", "'\"'\"'") + "'"


def settle(task: Task, proposal: Proposal, search: CodebaseSearch) -> CaseResult:
    prose = Prose(task.prose)
    searched = set(search.searched)
    checks = []
    for c in proposal.candidates:
        in_prose = prose.match(c.constant)
        was_searched = c.constant in searched
        at = search.found.get(c.constant, "")
        # A name certifies only when it crosses the code-test boundary (method §7).
        crosses = c.kind != "identifier" or c.defuse in ("gold→test", "test→gold")
        certified = crosses and not c.trivial and not in_prose and was_searched and not at
        checks.append(Check(
            case_id=task.case_id, constant=c.constant, kind=c.kind, gold_at=c.gold_at,
            test_at=c.test_at, trivial=c.trivial, defuse=c.defuse, prose_match=in_prose,
            codebase_searched=was_searched, codebase_at=at, certified=certified,
            command=receipt_command(c.constant, task.base_commit, search.excluded)
            if was_searched else "",
        ))
    return CaseResult(case_id=task.case_id, checks=checks, binary_files=proposal.binary_files)
