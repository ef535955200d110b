"""Duplicate tasks: two tasks of one benchmark with the same gold patch (its changed lines
and paths, whitespace normalized: the same fix, whatever the headers' hashes and line
numbers say) or the same prose (whitespace and case normalized). The first by source row is
the task; a later one with the same gold is DUPLICATE and proposed broken, so a score counts
one fix once; one with the same prose and another gold is DUPLICATE and disputed (one text,
two fixes graded: the text cannot determine both)."""

from __future__ import annotations

from collections import defaultdict

from determinacy.prescreens._patch import normal
from determinacy.records import Task, ValidityCheck
from determinacy.store import digest

MIN_PROSE = 40  # shorter texts ("Fix the bug.") are alike without being one task


def gold_key(patch: str) -> str:
    lines = []
    for ln in patch.replace("\r\n", "\n").splitlines():
        if ln.startswith(("+++ ", "--- ")) or (ln[:1] in "+-" and normal(ln[1:])):
            lines.append(ln[0] + normal(ln[1:]))
    return digest("\n".join(lines).encode()) if lines else ""


def check(tasks: list[Task]) -> list[ValidityCheck]:
    tasks = sorted(tasks, key=lambda t: (t.row, t.case_id))
    by_gold: dict[str, list[Task]] = defaultdict(list)
    by_prose: dict[str, list[Task]] = defaultdict(list)
    for t in tasks:
        if k := gold_key(t.gold_patch):
            by_gold[k].append(t)
        if len(p := normal(t.prose).casefold()) >= MIN_PROSE:
            by_prose[p].append(t)
    out: dict[tuple[str, str], ValidityCheck] = {}
    for group in by_gold.values():
        for t in group[1:]:
            out[(t.case_id, "gold")] = ValidityCheck(
                case_id=t.case_id, instance_id=t.instance_id, prescreen="duplicate",
                verdict="DUPLICATE", literal=group[0].instance_id, proposed="broken",
                pointers=[f"row {group[0].row}", f"row {t.row}"],
                evidence=f"the same gold patch as `{group[0].instance_id}` (row "
                         f"{group[0].row}): one fix, counted once")
    for group in by_prose.values():
        first = group[0]
        for t in group[1:]:
            if gold_key(t.gold_patch) == gold_key(first.gold_patch):
                continue  # said above
            out[(t.case_id, "prose")] = ValidityCheck(
                case_id=t.case_id, instance_id=t.instance_id, prescreen="duplicate",
                verdict="DUPLICATE", literal=first.instance_id, proposed="disputed",
                pointers=[f"row {first.row}", f"row {t.row}"],
                evidence=f"the same prose as `{first.instance_id}` (row {first.row}) with "
                         "another gold patch: one text, two fixes graded")
    return [out[k] for k in sorted(out)]
