"""doit plumbing: a dependency database that survives kills, and the progress display.

Stock doit backends write their database only when a run ends; a SIGKILL then loses the whole
run's records. This one writes each task's record as it is saved (sqlite WAL). It is still only
a cache: the store's action cache is what guarantees nothing is computed twice.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from doit.dependency import SqliteDB
from doit.reporter import ConsoleReporter


class WalSqliteDB(SqliteDB):
    desc = "sqlite3, WAL, written through per task"

    def _sqlite3(self, name: str) -> sqlite3.Connection:
        conn = super()._sqlite3(name)
        conn.isolation_level = None
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def set(self, task_id: str, dependency: str, value: Any) -> None:
        super().set(task_id, dependency, value)
        self._conn.execute("insert or replace into doit values (?,?)",
                           (task_id, self.codec.encode(self._cache[task_id])))
        self._dirty.discard(task_id)


class Summary:
    """What the last run did; the CLI prints it (and `--json` emits it)."""

    def __init__(self) -> None:
        self.total = 0
        self.executed: dict[str, int] = {}
        self.up_to_date = 0
        self.failed = 0
        self.errors_raised = 0  # by the tasks this run executed (the verdicts count all)
        self.error_lines: list[str] = []

    def as_dict(self) -> dict[str, Any]:
        computed, cached = _action_counts()
        return {
            "actions_computed": computed,
            "actions_cached": cached,
            "tasks": self.total,
            "executed": sum(self.executed.values()),
            "executed_by_phase": dict(sorted(self.executed.items())),
            "up_to_date": self.up_to_date,
            "failed": self.failed,
            "errors_raised": self.errors_raised,
            # Damaged store entries found (hash or seal) and removed: computed again.
            "repaired": len(STATS.repaired) if STATS is not None else 0,
        }


LAST = Summary()
# Set by the graph loader: the phase whose tasks count cases, and whether to show progress.
CASE_PHASE = "settle"
QUIET = False
# The action-cache counters of the store the running graph uses (set by the graph loader).
STATS: Any = None
_LOCK = threading.Lock()


def _action_counts() -> tuple[int, int]:
    if STATS is None:
        return 0, 0
    return sum(STATS.computed.values()), sum(STATS.cached.values())


def _cache_hits() -> int:
    return _action_counts()[1]


def _phase(name: str) -> str:
    return name.split(":", 1)[0]


class ProgressReporter(ConsoleReporter):
    """Progress on stderr, counted in cases (a case is done when its last phase, `CASE_PHASE`,
    is): a live bar with rate and ETA on a terminal (rich), else a line every `EVERY` seconds
    at most. `QUIET`: none of it, only errors. Stdout is left to the results."""

    desc = "determinacy progress"
    EVERY = 5.0

    def __init__(self, outstream: Any, options: dict[str, Any]):
        super().__init__(outstream, options)
        global LAST
        LAST = self.summary = Summary()
        self.tty = bool(getattr(outstream, "isatty", lambda: False)())
        self.cases = self.cases_done = 0
        self.start = self.last = time.monotonic()
        self.bar: Any = None

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        self.summary.total = sum(1 for t in tasks.values() if not t.has_subtask)
        self.cases = sum(1 for t in tasks.values()
                         if not t.has_subtask and _phase(t.name) == CASE_PHASE)
        self.start = self.last = time.monotonic()
        if self.tty and not QUIET:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                                TextColumn("ETA"), TimeRemainingColumn(),
                                TextColumn("{task.fields[note]}"),
                                console=Console(file=self.outstream), transient=False)
            self.bar.add_task("cases", total=self.cases or None, rate="", note="")
            self.bar.start()

    def execute_task(self, task: Any) -> None:
        pass

    def _status(self) -> tuple[str, str]:
        """(rate, the rest of the line): cases per second, then what ran."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.cases_done / elapsed
        left = self.cases - self.cases_done
        eta = f"{left / rate:.0f} s" if rate > 0 else "-"
        s = self.summary
        ran = " ".join(f"{k} {v}" for k, v in sorted(s.executed.items()))
        return (f"{rate:.1f} cases/s",
                f"ETA {eta} · ran: {ran or '-'} · up to date {s.up_to_date} · "
                f"errors {s.errors_raised} · cache hits {_cache_hits()}")

    def _tick(self, task: Any, note: str = "") -> None:
        if _phase(task.name) == CASE_PHASE:
            self.cases_done += 1
        if QUIET:
            if note:
                self.outstream.write(f"{note}\n")
            return
        rate, rest = self._status()
        if self.bar is not None:
            self.bar.update(self.bar.task_ids[0], completed=self.cases_done, rate=rate,
                            note=f"errors {self.summary.errors_raised}")
            if note:
                self.bar.console.print(note, markup=False, highlight=False)
            return
        now = time.monotonic()
        if note:
            self.outstream.write(f"{note}\n")
        if now - self.last >= self.EVERY:
            self.last = now
            self.outstream.write(f"[{self.cases_done}/{self.cases} cases] {rate} · {rest}\n")
        self.outstream.flush()

    def add_success(self, task: Any) -> None:
        if task.has_subtask:
            return
        with _LOCK:
            phase = _phase(task.name)
            self.summary.executed[phase] = self.summary.executed.get(phase, 0) + 1
            err = (task.values or {}).get("error", "")
            if err:
                self.summary.errors_raised += 1
                self.summary.error_lines.append(f"{task.name}: {err}")
            self._tick(task, f"ERROR {task.name}: {err}" if err else "")

    def skip_uptodate(self, task: Any) -> None:
        if task.has_subtask:
            return
        with _LOCK:
            self.summary.up_to_date += 1
            self._tick(task)

    def add_failure(self, task: Any, fail: Any) -> None:
        with _LOCK:
            self.summary.failed += 1
        super().add_failure(task, fail)

    def complete_run(self) -> None:
        if self.bar is not None:
            self.bar.stop()
        if not QUIET:
            s = self.summary.as_dict()
            by = ", ".join(f"{k} {v}" for k, v in s["executed_by_phase"].items())
            rate, _ = self._status()
            self.outstream.write(
                f"{self.cases_done} of {self.cases} cases ({rate}); {s['tasks']} tasks: "
                f"{s['executed']} executed{f' ({by})' if by else ''}, "
                f"{s['up_to_date']} up to date, {s['failed']} failed; "
                f"{s['errors_raised']} errors raised; actions {s['actions_computed']} "
                f"computed, {s['actions_cached']} from the cache"
                + (f"; {s['repaired']} damaged store entries found and computed again"
                   if s["repaired"] else "") + "\n")
        super().complete_run()
