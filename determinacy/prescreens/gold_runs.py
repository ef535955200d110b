"""The answer key's own run: the benchmark harness's run of the gold patch, imported from its
report files (`[validity] gold_runs`, read by score/results.py in any format it reads). A gold
that fails every run that names it is GOLD-FAILS (broken: no fix can be graded a pass against
a key that fails); one that passes in some runs and fails in others is GOLD-FLAKY (disputed).
An error, or a task a run does not name, says nothing: unknown is never a failure."""

from __future__ import annotations

import msgspec

from determinacy.records import Task, ValidityCheck


class Run(msgspec.Struct, frozen=True, kw_only=True):
    """One run's outcome for one instance, as read from its file."""

    instance_id: str
    outcome: str  # pass | fail | error | missing
    where: str  # "path (what in it)"


def check(tasks: list[Task], runs: list[Run]) -> list[ValidityCheck]:
    seen: dict[str, list[Run]] = {}
    for r in runs:
        if r.outcome in ("pass", "fail"):
            seen.setdefault(r.instance_id, []).append(r)
    out = []
    for t in sorted(tasks, key=lambda t: (t.row, t.case_id)):
        got = seen.get(t.instance_id, [])
        fails = [r for r in got if r.outcome == "fail"]
        if not fails:
            continue
        flaky = len(fails) < len(got)
        where = sorted({r.where for r in fails})
        out.append(ValidityCheck(
            case_id=t.case_id, instance_id=t.instance_id, prescreen="gold-run",
            verdict="GOLD-FLAKY" if flaky else "GOLD-FAILS",
            proposed="disputed" if flaky else "broken", literal=t.instance_id, pointers=where,
            evidence=(f"the gold passed {len(got) - len(fails)} of the {len(got)} runs that "
                      "graded it: its own grader is flaky" if flaky else
                      f"the gold fails its own grader ({len(fails)} run(s) of {len(got)})")))
    return out
