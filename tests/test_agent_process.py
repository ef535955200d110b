"""Agent processes: nothing an agent starts outlives its call or the run; a timeout bounds every
read; an answer received before a kill is never asked for again. Real processes, real signals.

The agents are scripts in tests/agents/: `forker` leaves an orphaned grandchild (double fork,
setsid, empty environment) holding its stdout open; `logger` logs each question it is asked.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import ROOT, Audit, new_helper, row, widgets_repo, write_benchmark

from determinacy.agents import calls
from determinacy.errors import CaseFailure
from determinacy.store import Store

AGENTS = ROOT / "tests" / "agents"
PROMPT = "DETERMINACY-PHASE: screen\nDETERMINACY-CASE: {case}\nDETERMINACY-PASS: 1\n\nhello\n"

# Killing descendants that called setsid needs Linux (a subreaper and /proc); elsewhere the
# supervisor only kills the agent's process group.
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="subreaper and /proc are Linux's")


def command(name: str, *args: object) -> list[str]:
    return [sys.executable, str(AGENTS / f"{name}.py"), *map(str, args)]


# -- processes ---------------------------------------------------------------------------------


def dead(pid: int) -> bool:
    """Gone, or a zombie (exited; its parent, or init after a reparenting, reaps it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2:].split()[0] in (b"Z", b"X")


def all_dead(pids: list[int], within: float) -> bool:
    end = time.monotonic() + within
    while not all(dead(p) for p in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def wait_for(predicate: Callable[[], bool], within: float, what: str) -> None:
    end = time.monotonic() + within
    while not predicate():
        if time.monotonic() > end:
            pytest.fail(f"waited {within:g} s for {what}")
        time.sleep(0.02)


def pids(piddir: Path, case: str) -> list[int]:
    """The forker's agent and grandchild, once both have written their pid files."""
    d = piddir / case
    wait_for(lambda: (d / "grandchild").exists(), 20, f"the grandchild of {case}")
    return [int((d / name).read_text()) for name in ("agent", "grandchild")]


@pytest.fixture
def piddir(tmp_path: Path) -> Iterator[Path]:
    """Where the forker writes its pids; whatever a failing test leaves alive is killed."""
    d = tmp_path / "pids"
    yield d
    for f in d.glob("*/*"):
        if f.suffix == ".part":
            continue
        pid = int(f.read_text())
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"forker.py" in cmdline or b"determinacy-test-grandchild" in cmdline:
                os.kill(pid, signal.SIGKILL)


def ask(tmp_path: Path, argv: list[str], timeout: float, case: str = "c1",
        limit: float = 15) -> tuple[Any, float]:
    """calls.call in a thread, so that a call that never returns fails the test instead of
    hanging it. Returns (the answer or the exception, seconds it took)."""
    store = Store(tmp_path / "store")
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(calls.call(store, argv, PROMPT.format(case=case), timeout,
                                     phase="screen", case_id=case, pass_no=1, truncated=[]))
        except Exception as e:
            result.append(e)

    start = time.monotonic()
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(limit)
    assert not t.is_alive(), f"the call did not return within {limit:g} s"
    return result[0], time.monotonic() - start


def transcript(tmp_path: Path, rec: Any) -> dict[str, Any]:
    return json.loads(Store(tmp_path / "store").get(rec.transcript))


# -- one call ----------------------------------------------------------------------------------


def test_answer_with_a_setsid_grandchild_holding_stdout(tmp_path: Path, piddir: Path) -> None:
    got, took = ask(tmp_path, command("forker", piddir, "answer"), timeout=30)
    assert not isinstance(got, BaseException), got
    rec, answer = got
    assert answer == {} and took < 5, took
    t = transcript(tmp_path, rec)
    assert t["exit"] == 0 and t["timed_out"] is False and t["leftovers_killed"] >= 1, t
    assert all_dead(pids(piddir, "c1"), within=1)


def test_answer_left_stdout_open_is_not_a_timeout(tmp_path: Path, piddir: Path) -> None:
    # The grandchild stays in the agent's own session and process group.
    got, took = ask(tmp_path, command("forker", piddir, "answer-same-session"), timeout=2)
    assert not isinstance(got, BaseException), got
    rec, answer = got
    assert answer == {} and took < 2, took
    t = transcript(tmp_path, rec)
    assert t["timed_out"] is False and t["leftovers_killed"] >= 1 and t["error"] is None, t
    assert all_dead(pids(piddir, "c1"), within=1)


def test_hanging_agent_times_out_and_its_tree_dies(tmp_path: Path, piddir: Path) -> None:
    got, took = ask(tmp_path, command("forker", piddir, "hang"), timeout=1)
    assert isinstance(got, CaseFailure) and got.transient, got
    assert "timed out after 1 s" in str(got)
    assert 1 <= took < 3, took
    assert all_dead(pids(piddir, "c1"), within=1)


@pytest.mark.parametrize(("argv", "message"), [
    (["/nonexistent/agent", "-p"], "could not start the agent '/nonexistent/agent'"),
    ([sys.executable, "-c", "import sys; sys.exit(3)"], "exited with status 3"),
    ([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"],
     "killed by signal 9 (SIGKILL)"),
    ([sys.executable, "-c", "print('no braces here')"], "printed no JSON"),
    ([sys.executable, "-c", "import time; time.sleep(30)"], "timed out after 0.5 s"),
])
def test_failures_name_their_cause(tmp_path: Path, argv: list[str], message: str) -> None:
    got, took = ask(tmp_path, argv, timeout=0.5)
    assert isinstance(got, CaseFailure) and got.transient, got
    assert message in str(got), got
    assert took < 3, took
    # The transcript is stored either way, named by the message, and names the cause too.
    h = str(got).rsplit("transcript ", 1)[1].rstrip(")")
    objects = list((tmp_path / "store" / "objects").glob(f"*/{h}*"))
    assert len(objects) == 1, str(got)
    assert message in json.loads(objects[0].read_bytes())["error"]


def test_large_prompt_to_an_agent_that_never_reads(tmp_path: Path) -> None:
    # The prompt does not fit in a pipe: writing it must not block past the timeout.
    store = Store(tmp_path / "store")
    argv = [sys.executable, "-c", "import time; time.sleep(30)"]
    start = time.monotonic()
    with pytest.raises(CaseFailure, match="timed out after 0.5 s"):
        calls.call(store, argv, PROMPT.format(case="c1") + "x" * 5_000_000, 0.5,
                   phase="screen", case_id="c1", pass_no=1, truncated=[])
    assert time.monotonic() - start < 3


def test_hung_supervisor_is_killed_at_the_safety_deadline(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # The supervisor itself stops responding: the run kills it at timeout + SLACK, and
    # kills the agent it left behind by the marker in the agent's environment.
    monkeypatch.setattr(calls, "SLACK", 0.5)
    monkeypatch.setattr(calls, "GRACE", 0.5)
    pidfile = tmp_path / "agent.pid"
    argv = [sys.executable, "-c", "import os, sys, time; open(sys.argv[1], 'w')"
            ".write(str(os.getpid())); time.sleep(30)", str(pidfile)]
    result: list[Any] = []
    start = time.monotonic()
    t = threading.Thread(target=lambda: result.append(ask(tmp_path, argv, timeout=1.5)[0]),
                         daemon=True)
    t.start()
    wait_for(lambda: pidfile.exists() and pidfile.read_text() != "", 5, "the agent")
    pid = int(pidfile.read_text())
    supervisor = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    assert b"supervise.py" in Path(f"/proc/{supervisor}/cmdline").read_bytes()
    os.kill(supervisor, signal.SIGSTOP)
    t.join(10)
    assert result and isinstance(result[0], CaseFailure), result
    assert "timed out after 1.5 s" in str(result[0])
    assert time.monotonic() - start < 1.5 + 0.5 + 2
    assert all_dead([pid, supervisor], within=1)


# -- the run stops -----------------------------------------------------------------------------


@dataclass
class Bench:
    mirror: str
    rows: list[dict[str, Any]]

    def write(self, folder: Path, n: int) -> Path:
        return write_benchmark(folder, self.rows[:n], mirror=self.mirror)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    root = tmp_path_factory.mktemp("mirrors")
    repo = root / "acme" / "widgets"
    base = widgets_repo(repo)
    rows = []
    for i in range(8):
        fn = f"frobnicate_{i}_widget"
        gold, test = new_helper(repo, base, fn, i, inline_import=True)
        rows.append(row(f"task-{i}", base, f"Add `{fn}` to pkg.core.", gold, test))
    return Bench(mirror=f"{root}/{{owner}}/{{name}}", rows=rows)


def start_run(tmp: Path, cfg: Path, argv: list[str], *extra: str) -> subprocess.Popen[bytes]:
    """`determinacy run` as a real process of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "determinacy.cli", "run", str(cfg), "--store",
         str(tmp / "store"), "--runs", str(tmp / "runs"), "--agent", shlex.join(argv), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)


@pytest.mark.parametrize(("sig", "jobs"), [(signal.SIGTERM, 1), (signal.SIGTERM, 2),
                                           (signal.SIGINT, 2), (signal.SIGKILL, 1)],
                         ids=["sigterm", "sigterm-threads", "sigint-threads", "sigkill"])
def test_agents_die_with_the_run(tmp_path: Path, piddir: Path, bench: Bench, sig: int,
                                 jobs: int) -> None:
    cfg = bench.write(tmp_path / "bench", jobs)
    run = start_run(tmp_path, cfg, command("forker", piddir, "hang"), "--agent-timeout", "60",
                    "--jobs", str(jobs))
    try:
        # With two jobs two agents are in flight at once, each called from a worker thread.
        procs = [p for i in range(jobs) for p in pids(piddir, f"task-{i}")]
        assert not any(dead(p) for p in procs)
        run.send_signal(sig)
        run.wait(10)
    finally:
        run.kill()
        run.wait()
    assert all_dead(procs, within=2), [p for p in procs if not dead(p)]


# -- killed runs resume without asking twice ---------------------------------------------------


def answered(store: Path) -> set[tuple[str, str]]:
    """(phase, case) of every answer in the store's action cache."""
    out = set()
    for entry in (store / "ac").glob("*/*.json"):
        h = json.loads(entry.read_bytes())["output"]
        with contextlib.suppress(ValueError, msgspec.DecodeError):
            obj = json.loads((store / "objects" / h[:2] / h).read_bytes())
            if isinstance(obj, dict) and set(obj) == {"call", "answer"}:
                out.add((obj["call"]["phase"], obj["call"]["case_id"]))
    return out


def asked(log: Path) -> list[tuple[str, str]]:
    if not log.exists():
        return []
    return [(ln.split()[0], ln.split()[1]) for ln in log.read_text().splitlines()]


# The kill lands mid-call (no delay), or later: between calls, or while the answer is stored.
@pytest.mark.parametrize(("after", "delay"), [(1, 0.0), (3, 0.1), (5, 0.25)])
def test_sigkill_then_resume_never_asks_an_answered_prompt(tmp_path: Path, bench: Bench,
                                                           after: int, delay: float) -> None:
    n = 7
    cfg = bench.write(tmp_path / "bench", n)
    log = tmp_path / "asked.log"
    argv = command("logger", log, 0.2)  # each call takes 0.2 s
    run = start_run(tmp_path, cfg, argv)
    try:
        wait_for(lambda: len(asked(log)) >= after, 20, f"{after} questions")
        time.sleep(delay)
        run.send_signal(signal.SIGKILL)
        run.wait(10)
    finally:
        run.kill()
        run.wait()
    # SIGKILL cannot be caught: an agent the run had just started is orphaned and may still
    # write its line. Count what was asked once the log is quiet for longer than a call.
    before, quiet = asked(log), False
    while not quiet:
        time.sleep(0.5)
        now = asked(log)
        before, quiet = now, now == before
    stored = answered(tmp_path / "store")
    assert len(stored) < n, "the run was over before the kill: it proves nothing"
    # Only what was in flight at the kill (one call, one job) was asked and not stored.
    assert stored <= set(before) and len(set(before) - stored) <= 1, (before, stored)

    audit = Audit(tmp_path)
    summary = audit.run(cfg, "--agent", shlex.join(argv))
    assert summary["exit"] == 0, summary
    again = asked(log)[len(before):]
    assert not set(again) & stored, (again, stored)  # a stored answer is never bought twice
    assert sorted(again) == sorted({("screen", f"task-{i}") for i in range(n)} - stored)
    assert answered(tmp_path / "store") == {("screen", f"task-{i}") for i in range(n)}


def test_an_agent_that_prints_gigabytes_is_drained_and_cut(tmp_path: Path) -> None:
    """24 MiB on stdout (then an answer): read to the end so the agent is not blocked, kept
    up to MAX_OUTPUT, and no answer is read from what was cut; the transcript says how much."""
    store = Store(tmp_path / "store")
    argv = [sys.executable, "-c", "import sys; w = sys.stdout.write\n"
            "for _ in range(24): w('x' * (1 << 20))\n"
            "w('{\"behaviors\": []}'); sys.stderr.write('e' * (9 << 20))"]
    with pytest.raises(CaseFailure, match=r"printed 25,165,841 bytes on stdout; the first "
                                          r"8,388,608 are kept"):
        calls.call(store, argv, PROMPT.format(case="c1"), 30, phase="screen", case_id="c1",
                   pass_no=1, truncated=[])
    [transcript] = [json.loads(p.read_bytes()) for p in (store.root / "objects").glob("*/*")
                    if b'"cut"' in p.read_bytes()]
    assert transcript["cut"] == {"stdout": 25_165_841 - calls.MAX_OUTPUT,
                                 "stderr": (9 << 20) - calls.MAX_OUTPUT}
    assert len(transcript["stdout"]) == calls.MAX_OUTPUT
