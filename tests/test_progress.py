"""The progress display moves as the work is done: each phase's steps count as they end, long
before any case has passed its last phase, and the run's summary fits a terminal."""

from __future__ import annotations

import io
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from determinacy import dodb


@dataclass
class FakeTask:
    """What the reporter reads of a doit task."""

    name: str
    has_subtask: bool = False
    values: dict[str, Any] = field(default_factory=dict)


def graph(cases: int, repos: int = 1) -> dict[str, FakeTask]:
    """The tasks `build_graph` makes for `cases` cases: groups, a step per phase and case, a
    search per repository, the tables and the report."""
    ids = [f"c-{i}" for i in range(cases)]
    tasks = [FakeTask(p, has_subtask=True) for p in ("propose", "search", "codebase", "settle")]
    tasks += [FakeTask(f"{p}:{i}") for p in ("propose", "codebase", "settle") for i in ids]
    tasks += [FakeTask(f"search:acme+r{i}") for i in range(repos)]
    tasks += [FakeTask("tables"), FakeTask("report")]
    return {t.name: t for t in tasks}


@pytest.fixture
def reporter(monkeypatch: pytest.MonkeyPatch) -> tuple[dodb.ProgressReporter, io.StringIO]:
    monkeypatch.setattr(dodb, "QUIET", False)
    monkeypatch.setattr(dodb, "CASE_PHASE", "settle")
    monkeypatch.setattr(dodb, "STATS", None)
    monkeypatch.setattr(dodb.ProgressReporter, "EVERY", 0.0)  # a line at every step
    out = io.StringIO()  # not a terminal: lines
    return dodb.ProgressReporter(out, {}), out


def test_phase_counts_advance_before_any_case_is_done(reporter: Any) -> None:
    rep, out = reporter
    tasks = graph(3)
    rep.initialize(tasks, ["report"])
    rep.add_success(tasks["propose:c-0"])
    rep.skip_uptodate(tasks["propose:c-1"])  # a cached step counts as done too
    rep.add_success(tasks["propose:c-2"])
    rep.add_success(tasks["search:acme+r0"])
    rep.add_success(tasks["codebase:c-0"])
    lines = [ln for ln in out.getvalue().splitlines() if ln.startswith("[")]
    first = next(ln for ln in lines if ln.startswith("[1/12 steps, "))
    assert first.endswith("] propose 1/3 · search 0/1 · codebase 0/3 · settle 0/3 · "
                             "tables 0/1 · report 0/1"), lines
    assert re.search(r"\d+\.\d steps/s · \d+\.\d s · ETA \d+\.\d s\]", first), first
    assert lines[-1].startswith("[5/12 steps, ")
    assert "propose 3/3 · search 1/1 · codebase 1/3 · settle 0/3" in lines[-1]
    assert rep.cases_done == 0  # no case has passed its last phase: the work still showed

    for name in ("codebase:c-1", "codebase:c-2", "settle:c-0", "settle:c-1", "settle:c-2",
                 "tables", "report"):
        rep.add_success(tasks[name])
    rep.complete_run()
    text = out.getvalue()
    assert "[12/12 steps, " in text and "settle 3/3 · tables 1/1 · report 1/1" in text
    summary = text.splitlines()[-2:]
    assert summary[0].startswith("3/3 cases in ") and "steps: 11 run, 1 up to date, 0 failed" \
        in summary[0], summary
    assert summary[1] == "actions: 0 computed, 0 from the cache", summary


def test_lines_keep_coming_while_one_long_step_runs(reporter: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rep, out = reporter
    monkeypatch.setattr(dodb.ProgressReporter, "EVERY", 0.2)
    tasks = graph(2)
    rep.initialize(tasks, ["report"])
    rep.add_success(tasks["propose:c-0"])
    # Nothing else ends: the search of a large repository, an agent call.
    deadline = time.monotonic() + 5
    while out.getvalue().count("\n") < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    rep.complete_run()
    ticks = [ln for ln in out.getvalue().splitlines() if ln.startswith("[1/9 steps")]
    assert len(ticks) >= 2, out.getvalue()
    assert all(ln.endswith("propose 1/2 · search 0/1 · codebase 0/2 · settle 0/2 · tables 0/1"
                           " · report 0/1") for ln in ticks)


def test_summary_fits_80_columns_however_large_the_run(reporter: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rep, _ = reporter

    class Stats:
        computed = {"propose": 812_345}
        cached = {"settle": 912_345}
        repaired = list(range(1234))

    monkeypatch.setattr(dodb, "STATS", Stats())
    rep.initialize(graph(3), ["report"])
    rep.cases, rep.cases_done = 21_345, 21_345
    s = rep.summary
    s.executed = {"propose": 21_345, "codebase": 21_345, "settle": 21_345}
    s.up_to_date, s.failed, s.errors_raised = 45_678, 123, 4_567
    rep.start -= 4 * 3600  # a long run
    lines = rep.summary_lines()
    assert all(len(ln) <= 80 for ln in lines), lines
    text = "\n".join(lines)
    for part in ("21345/21345 cases in 4 h 00 min", "steps: 64035 run, 45678 up to date, "
                 "123 failed", "4567 errors raised", "actions: 812345 computed, 912345 from "
                 "the cache", "1234 damaged store entries found and computed again"):
        assert part in text, lines


def test_the_summary_says_where_the_time_went(audit: Any) -> None:
    """`--json` gives each phase's wall and CPU seconds (the proposals' CPU counted in the
    worker processes that spent it) and the peak RSS; a no-op rerun has no phase steps."""
    first = audit.run(None, "--jobs", "2")
    seconds = first["seconds"]
    for phase in ("propose", "codebase", "settle", "tables", "report"):
        assert seconds[phase]["steps"] == first["executed_by_phase"][phase], (phase, seconds)
        assert 0 <= seconds[phase]["wall"] <= seconds["all"]["wall"], (phase, seconds)
    assert seconds["propose"]["cpu"] > 0 and seconds["search"]["steps"] >= 1, seconds
    # The workers' CPU is in the run's total, which no phase's exceeds.
    assert seconds["all"]["cpu"] >= seconds["propose"]["cpu"], seconds
    assert first["peak_rss_mib"] > 10, first
    again = audit.run(None)
    assert set(again["seconds"]) == {"prepare", "all"}, again["seconds"]
