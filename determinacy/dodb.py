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

import msgspec
from doit.dependency import SqliteDB
from doit.reporter import ConsoleReporter

from determinacy import causes, signals


class _Codec:
    """doit's JSON codec, by msgspec: the same JSON, read and written several times faster
    (a no-op run of a large benchmark decodes every task's record)."""

    def encode(self, data: Any) -> str:
        return msgspec.json.encode(data).decode()

    def decode(self, data: str) -> Any:
        return msgspec.json.decode(data)


class WalSqliteDB(SqliteDB):
    desc = "sqlite3, WAL, written through per task"

    def __init__(self, name: str, codec: Any, **kwargs: Any):
        super().__init__(name, _Codec(), **kwargs)  # in place of doit's own: the same JSON

    def _sqlite3(self, name: str) -> sqlite3.Connection:
        conn = super()._sqlite3(name)
        conn.isolation_level = None
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    _stored: dict[str, Any] | None = None

    def _get_task_data(self, task_id: str) -> Any:
        # Every record in one query at the first lookup: asked one by one, a no-op run of
        # 24,000 cases made 72,000 queries. Each is taken once (doit caches it then).
        if self._stored is None:
            self._stored = {r["task_id"]: r["task_data"]
                            for r in self._conn.execute("select task_id, task_data from doit")}
        return self._stored.pop(task_id, None) or {}

    # The key doit sets last when it saves a task (`Dependency.save_success` sets its values,
    # result and each file_dep's state, then `deps:`), and the only one `ignore` sets.
    LAST_KEYS = frozenset({"deps:", "ignore:"})

    def set(self, task_id: str, dependency: str, value: Any) -> None:
        super().set(task_id, dependency, value)
        # Once per record, when it is whole: written at every key, a task with 24,000
        # file_deps (a large benchmark's tables) encoded its growing record 24,000 times.
        if dependency in self.LAST_KEYS:
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


def _phase(name: str) -> str:
    return name.split(":", 1)[0]


# The order phases run in, and are shown in; a phase not named here comes after them.
ORDER = ("propose", "search", "codebase", "settle", "screen", "witness", "refute", "tables",
         "report")


def _clock(seconds: float) -> str:
    """A duration for people: `4.2 s`, `3 min 05 s`, `1 h 02 min`."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    m, s = divmod(int(seconds), 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"


def _packed(parts: list[str], width: int = 80) -> list[str]:
    """`parts` joined by "; " into as few lines of at most `width` columns as they go in."""
    lines: list[str] = []
    for p in parts:
        if lines and len(lines[-1]) + 2 + len(p) <= width:
            lines[-1] += f"; {p}"
        else:
            lines.append(p)
    return lines


class ProgressReporter(ConsoleReporter):
    """Progress on stderr, counted as the work is done: each phase's steps done of its total
    (a step is one phase of one case, one repository's search, the tables, the report), with
    the rate and ETA of all steps since the run started. On a terminal a live display (rich),
    a row per phase; else a line every `EVERY` seconds while the run goes, even while one
    long step runs. `QUIET`: none of it, only errors. Stdout is left to the results."""

    desc = "determinacy progress"
    EVERY = 5.0

    def __init__(self, outstream: Any, options: dict[str, Any]):
        super().__init__(outstream, options)
        global LAST
        LAST = self.summary = Summary()
        self.tty = bool(getattr(outstream, "isatty", lambda: False)())
        self.phases: dict[str, list[int]] = {}  # phase -> [steps done, steps]
        self.steps = self.done = 0
        self.cases = self.cases_done = 0
        self.start = self.last = time.monotonic()
        self.bar: Any = None
        self.rows: dict[str, Any] = {}  # phase (and "all") -> its row of the live display
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self.causes_seen: set[str] = set()  # the causes of the errors shown so far

    def initialize(self, tasks: dict[str, Any], selected_tasks: list[str]) -> None:
        totals: dict[str, int] = {}
        for t in tasks.values():
            if not t.has_subtask:
                totals[_phase(t.name)] = totals.get(_phase(t.name), 0) + 1
        rank = {p: i for i, p in enumerate(ORDER)}
        self.phases = {p: [0, totals[p]]
                       for p in sorted(totals, key=lambda p: (rank.get(p, len(ORDER)), p))}
        self.summary.total = self.steps = sum(totals.values())
        self.cases = totals.get(CASE_PHASE, 0)
        self.start = self.last = time.monotonic()
        if QUIET:
            return
        with signals.for_new_threads():  # the display's thread leaves SIGINT to the main one
            if self.tty:
                self.bar = _live(self)
                self.bar.start()
            else:
                self._ticker = threading.Thread(target=self._lines, name="progress",
                                                daemon=True)
                self._ticker.start()

    def execute_task(self, task: Any) -> None:
        pass

    def rate_eta(self) -> tuple[float, float, float | None]:
        """(seconds since the start, steps per second since then, seconds left at that rate)."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        return elapsed, rate, (self.steps - self.done) / rate if rate > 0 else None

    def counts(self) -> str:
        """Each phase's steps done of its total: `propose 40/51 · search 0/1 · ...`."""
        return " · ".join(f"{p} {d}/{n}" for p, (d, n) in self.phases.items())

    def status(self) -> str:
        """Rate, time and ETA of all steps, and the errors so far."""
        elapsed, rate, eta = self.rate_eta()
        errors = self.summary.errors_raised
        return (f"{rate:.1f} steps/s · {_clock(elapsed)} · ETA "
                f"{_clock(eta) if eta is not None else '-'}"
                + (f" · {errors} error{'s' if errors != 1 else ''}" if errors else ""))

    def line(self) -> str:
        """The progress line of a stream that is not a terminal."""
        return f"[{self.done}/{self.steps} steps, {self.status()}] {self.counts()}"

    def _lines(self) -> None:
        """A line when one is due, also while no step ends (a long search, an agent call)."""
        while not self._stop.wait(min(max(self.EVERY, 0.2), 1.0)):
            with _LOCK:
                self._due()

    def _due(self) -> None:
        now = time.monotonic()
        if now - self.last >= self.EVERY:
            self.last = now
            self.outstream.write(self.line() + "\n")
            self.outstream.flush()

    def _tick(self, task: Any, note: str = "") -> None:
        phase = _phase(task.name)
        if phase in self.phases:
            self.phases[phase][0] += 1
        self.done += 1
        if phase == CASE_PHASE:
            self.cases_done += 1
        if QUIET:
            if note:
                self.outstream.write(f"{note}\n")
            return
        if self.bar is not None:
            if phase in self.rows:
                self.bar.update(self.rows[phase], completed=self.phases[phase][0])
            self.bar.update(self.rows["all"], completed=self.done)
            if note:
                self.bar.console.print(note, markup=False, highlight=False)
            return
        if note:
            self.outstream.write(f"{note}\n")
        self._due()
        self.outstream.flush()

    def add_success(self, task: Any) -> None:
        if task.has_subtask:
            return
        with _LOCK:
            phase = _phase(task.name)
            self.summary.executed[phase] = self.summary.executed.get(phase, 0) + 1
            err = (task.values or {}).get("error", "")
            note = ""
            if err:
                self.summary.errors_raised += 1
                self.summary.error_lines.append(f"{task.name}: {err}")
                note = self._first_of_cause(phase, task.name, err)
            self._tick(task, note)

    def _first_of_cause(self, phase: str, name: str, err: str) -> str:
        """One line for the first error of each cause this run ("" for the others: the end
        of the run counts them by cause, and each receipt has its whole message)."""
        cause = causes.cause_of(phase, err)
        if cause.code in self.causes_seen:
            return ""
        self.causes_seen.add(cause.code)
        return (f"ERROR {name}: [{cause.title}] {causes.first_line(err, 200)} (others of "
                "this cause: counted at the end)")

    def skip_uptodate(self, task: Any) -> None:
        if task.has_subtask:
            return
        with _LOCK:
            self.summary.up_to_date += 1
            self._tick(task)

    def skip_ignore(self, task: Any) -> None:
        if not task.has_subtask:
            with _LOCK:
                self._tick(task)
        super().skip_ignore(task)

    def add_failure(self, task: Any, fail: Any) -> None:
        with _LOCK:
            self.summary.failed += 1
            if not task.has_subtask:
                self._tick(task)
        super().add_failure(task, fail)

    def summary_lines(self) -> list[str]:
        """What the run did, in lines of at most 80 columns (`--json` has it all)."""
        s = self.summary.as_dict()
        elapsed = max(time.monotonic() - self.start, 1e-9)
        parts = [f"{self.cases_done}/{self.cases} cases in {_clock(elapsed)} "
                 f"({self.cases_done / elapsed:.1f} cases/s)",
                 f"steps: {s['executed']} run, {s['up_to_date']} up to date, "
                 f"{s['failed']} failed"]
        if s["errors_raised"]:
            parts.append(f"{s['errors_raised']} errors raised")
        parts.append(f"actions: {s['actions_computed']} computed, {s['actions_cached']} "
                     "from the cache")
        if s["repaired"]:
            parts.append(f"{s['repaired']} damaged store entries found and computed again")
        return _packed(parts)

    def complete_run(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self.bar is not None:
            self.bar.stop()
        if not QUIET:
            self.outstream.write("".join(f"{line}\n" for line in self.summary_lines()))
        super().complete_run()


def _live(rep: ProgressReporter) -> Any:
    """The terminal display: a row per phase, then all steps with rate, time and ETA. Drawn
    at each refresh, so the time moves while a long step runs."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
    from rich.table import Column
    from rich.text import Text

    class Status(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(rep.status() if task.description == "all" else "")

    width = max(len(p) for p in (*rep.phases, "all"))
    bar = Progress(TextColumn(f"{{task.description:<{width}}}"), BarColumn(bar_width=24),
                   MofNCompleteColumn(table_column=Column(justify="right")), Status(),
                   console=Console(file=rep.outstream), transient=False)
    for phase, (done, total) in rep.phases.items():
        rep.rows[phase] = bar.add_task(phase, total=total, completed=done)
    rep.rows["all"] = bar.add_task("all", total=rep.steps or None, completed=rep.done)
    return bar
