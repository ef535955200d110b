"""Pre-screens of task validity beyond the prose (the `validity_checks` table).

Underdetermination is one way a task measures luck; these are the other mechanical ones. Each
check is deterministic, points at what a skeptic re-checks (`ValidityCheck.pointers`, `.command`)
and proposes a validity revision that only `determinacy validity CONFIG accept` applies:

- `leaked`: the prose holds the gold's change (a long gold line, a code block or a diff of
  gold lines): LEAKED, the task is easier than it looks (disputed);
- `test-ids`: a FAIL_TO_PASS id no test can answer (its file is nowhere, or no file at base
  and no line of either patch spells its test's name): UNRUNNABLE (broken);
- `gold-run`: the benchmark harness's own run of the gold, imported: GOLD-FAILS (broken),
  GOLD-FLAKY (disputed);
- `underivable`: a graded literal the gold makes that is a digest, a UUID, a key, a blob or a
  timestamp: RECALL-ONLY (disputed), beside AIRTIGHT's evidence;
- `self-capturing`: a graded test that writes its expected output when it is missing:
  SELF-CAPTURING (disputed);
- `duplicate`: tasks with the same gold patch (the later ones broken: one fix counted once)
  or the same prose with another gold (disputed).

The per-case checks run in the settle phase (`of_case`, cached with it); duplicates and the
gold's runs need every task, and run with the tables (`of_benchmark`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, get_args

from determinacy.records import Check, CodebaseSearch, Prescreen, Task, ValidityCheck

if TYPE_CHECKING:
    from determinacy.prescreens.gold_runs import Run

CHECKS: tuple[str, ...] = get_args(Prescreen)  # in the order REPORT.md lists them
# Bump when what a check finds changes (the settle phase's key carries it).
VERSION = "8"


def of_case(task: Task, search: CodebaseSearch, checks: list[Check],
            leak_min_chars: int) -> list[ValidityCheck]:
    """The checks one case answers alone, in CHECKS order."""
    # Imported where used: a run with nothing to settle reads no patch (nor its lexers).
    from determinacy.prescreens import goldens, leaked, testids, underivable

    return [*leaked.check(task, leak_min_chars), *testids.check(task, search),
            *underivable.check(task, checks), *goldens.check(task)]


def of_benchmark(tasks: list[Task], runs: list[Run]) -> list[ValidityCheck]:
    """The checks that need every task: the gold's imported runs, duplicates."""
    from determinacy.prescreens import duplicates, gold_runs

    return [*gold_runs.check(tasks, runs), *duplicates.check(tasks)]

