"""doit plumbing: a dependency database that survives kills, and the progress display.

Stock doit backends write their database only when a run ends; a SIGKILL then loses the whole
run's records. This one writes each task's record as it is saved (sqlite WAL). It is still only
a cache: the store's action cache is what guarantees nothing is computed twice.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
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
        }


LAST = Summary()
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
    """A live line on a terminal; one line per executed task otherwise."""

    desc = "determinacy progress"

    def __init__(self, outstream: Any, options: dict[str, Any]):
        super().__init__(outstream, options)
        global LAST
        LAST = self.summary = Summary()
        self.tty = bool(getattr(outstream, "isatty", lambda: False)())

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        self.summary.total = sum(1 for t in tasks.values() if not t.has_subtask)

    def execute_task(self, task: Any) -> None:
        pass

    def _done(self) -> int:
        s = self.summary
        return sum(s.executed.values()) + s.up_to_date + s.failed

    def _line(self, task: Any, note: str = "") -> None:
        s = self.summary
        if self.tty:
            ran = " ".join(f"{k} {v}" for k, v in sorted(s.executed.items()))
            self.outstream.write(f"\r\x1b[K[{self._done()}/{s.total}] ran: {ran or '-'} · "
                                 f"up to date {s.up_to_date} · errors {s.errors_raised} · "
                                 f"cache hits {_cache_hits()}")
            if note:
                self.outstream.write(f"\n{note}\n")
        else:
            self.outstream.write(f"{task.name}{': ' + note if note else ''}\n")
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
            self._line(task, f"ERROR {err}" if err else "")

    def skip_uptodate(self, task: Any) -> None:
        if task.has_subtask:
            return
        with _LOCK:
            self.summary.up_to_date += 1
            if self.tty:
                self._line(task)

    def add_failure(self, task: Any, fail: Any) -> None:
        with _LOCK:
            self.summary.failed += 1
        super().add_failure(task, fail)

    def complete_run(self) -> None:
        if self.tty:
            self.outstream.write("\n")
        s = self.summary.as_dict()
        by = ", ".join(f"{k} {v}" for k, v in s["executed_by_phase"].items())
        self.outstream.write(
            f"{s['tasks']} tasks: {s['executed']} executed{f' ({by})' if by else ''}, "
            f"{s['up_to_date']} up to date, {s['failed']} failed; "
            f"{s['errors_raised']} errors raised; actions {s['actions_computed']} computed, "
            f"{s['actions_cached']} from the cache\n")
        super().complete_run()


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
