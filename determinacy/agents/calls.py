"""Calling an agent: any CLI that reads a prompt on stdin and prints an answer on stdout.

Argument lists only, never a shell. A call that cannot start, times out, exits non-zero, is
killed by a signal or prints no JSON object raises a transient CaseFailure: it is recorded,
never cached, and tried again next run. The prompt and the transcript are stored as objects
either way; processes the agent leaves behind are killed, and the transcript counts them.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

import msgspec

from determinacy.agents import supervise
from determinacy.errors import CaseFailure
from determinacy.records import AgentCall
from determinacy.store import Store

PROMPTS = Path(__file__).resolve().parent / "prompts"


def prompt_template(phase: str) -> str:
    return (PROMPTS / f"{phase}.md").read_text(encoding="utf-8")


def render(phase: str, case_id: str, pass_no: int, fields: dict[str, str]) -> str:
    """The prompt: three header lines any agent (or recorded answer script) can dispatch on,
    then the phase's template with the materials substituted ($name placeholders)."""
    head = (f"DETERMINACY-PHASE: {phase}\nDETERMINACY-CASE: {case_id}\n"
            f"DETERMINACY-PASS: {pass_no}\n\n")
    return head + Template(prompt_template(phase)).substitute(fields)


def shorten(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[:limit] + f"\n[... shortened by determinacy: {len(text) - limit} more "\
        "characters not shown ...]\n", True


_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.S)


def parse_answer(stdout: str) -> dict[str, Any]:
    """The JSON object an agent printed: the whole output, a fenced block, or the outermost
    {...}. Raises ValueError when there is none."""
    candidates = [stdout.strip()]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(stdout)]
    first, last = stdout.find("{"), stdout.rfind("}")
    if first != -1 and last > first:
        candidates.append(stdout[first : last + 1])
    for text in candidates:
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(obj, dict):
            return obj
    raise ValueError("no JSON object in the agent's output")


def call(store: Store, argv: list[str], prompt: str, timeout: float, *, phase: str,
         case_id: str, pass_no: int, truncated: list[str]) -> tuple[AgentCall, dict[str, Any]]:
    prompt_hash = store.put(prompt.encode())
    env = {**os.environ, "DETERMINACY_PHASE": phase}
    # Under a supervisor: every read is bounded by the timeout, and nothing the agent starts
    # outlives the call or the run (see supervise.py).
    got = run_agent(argv, prompt.encode(), timeout, env)
    answer: dict[str, Any] = {}
    if (problem := _problem(got, argv, timeout)) is None:
        try:
            answer = parse_answer(got.stdout.decode(errors="replace"))
        except ValueError:
            problem = "the agent printed no JSON object"
    transcript = store.put(msgspec.json.encode(
        {"stdout": got.stdout.decode(errors="replace"),
         "stderr": got.stderr.decode(errors="replace"), "exit": got.exit,
         "timed_out": got.timed_out, "leftovers_killed": got.leftovers_killed,
         "error": problem,
         **({"cut": {"stdout": got.cut[0], "stderr": got.cut[1]}} if any(got.cut) else {})},
        order="sorted"))
    if problem is not None:
        raise CaseFailure(f"{phase}: {problem} (prompt {prompt_hash[:12]}, transcript "
                        f"{transcript[:12]})", transient=True)
    record = AgentCall(phase=phase, case_id=case_id, pass_no=pass_no, argv=argv,
                       prompt=prompt_hash, transcript=transcript, truncated=truncated)
    return record, answer


def _problem(got: Outcome, argv: list[str], timeout: float) -> str | None:
    """Why a call gave no answer, naming the cause; None when it ran to a clean exit."""
    if got.start_error is not None:
        return f"could not start the agent {argv[0] if argv else ''!r}: {got.start_error}"
    if got.stopped:
        return "the agent was killed: the run is stopping"
    if got.timed_out:
        return f"the agent timed out after {timeout:g} s"
    if got.lost is not None:
        return f"the agent's supervisor died without a report ({got.lost})"
    if got.exit is None:
        return "the agent's exit status is unknown"
    if got.exit < 0:
        try:
            name = f" ({signal.Signals(-got.exit).name})"
        except ValueError:
            name = ""
        return f"the agent was killed by signal {-got.exit}{name}"
    if got.exit != 0:
        return f"the agent exited with status {got.exit}"
    if got.cut[0]:
        return (f"the agent printed {MAX_OUTPUT + got.cut[0]:,} bytes on stdout; the first "
                f"{MAX_OUTPUT:,} are kept, no answer is read from a cut output")
    return None


# -- running the agent's process -------------------------------------------------------------

SUPERVISOR = supervise.__file__
SLACK = 5.0  # seconds the run waits beyond the timeout before it kills the supervisor itself
GRACE = 2.0  # seconds to wait for pipes to close once the supervisor has reported or died
_CHUNK = 1 << 16
MAX_OUTPUT = 8 << 20  # bytes of each of stdout and stderr an agent call keeps

_LIVE: dict[int, int] = {}  # call number -> write end of its lifeline, for calls in flight
_NUMBERS = itertools.count()  # fd numbers are reused: calls are told apart by a number
_STOPPING: list[bool] = []  # non-empty once the run is stopping


def stop_agents() -> None:
    """Kill every agent now running (safe in a signal handler): closing a lifeline makes its
    supervisor kill the agent's tree. Calls made after this fail at once."""
    _STOPPING.append(True)
    for key in list(_LIVE):
        _release(key)


def _release(key: int) -> None:
    fd = _LIVE.pop(key, None)  # atomic: of the call and a signal handler, one closes it
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


@dataclass(frozen=True)
class Outcome:
    """What became of one agent call."""

    stdout: bytes = b""
    stderr: bytes = b""
    exit: int | None = None  # as subprocess has it: -N = killed by signal N; None: no exit
    timed_out: bool = False
    leftovers_killed: int | None = 0  # None: not counted (no /proc, or the supervisor died)
    start_error: str | None = None  # the agent could not be started
    stopped: bool = False  # the run is stopping: the agent was killed
    lost: str | None = None  # the supervisor died without a report
    # Bytes of stdout and stderr read past MAX_OUTPUT and not kept (an agent that prints
    # gigabytes is drained, never stored whole).
    cut: tuple[int, int] = (0, 0)


def run_agent(argv: list[str], stdin: bytes, timeout: float, env: dict[str, str]) -> Outcome:
    """Run `argv` under the supervisor with `stdin` as its input, for at most `timeout` s.

    Every read is bounded: by the timeout (plus SLACK should the supervisor hang), and once
    the supervisor has reported, by GRACE: a pipe something out of reach still holds open is
    given up, never waited on."""
    if _STOPPING:
        return Outcome(stopped=True)
    if not argv:
        return Outcome(start_error="empty command")
    token = os.urandom(16).hex()
    life_r, life_w = os.pipe()  # both ends close-on-exec: no other child of the run gets one
    stat_r, stat_w = os.pipe()
    key = next(_NUMBERS)
    _LIVE[key] = life_w  # registered first: a stop from now on reaches this call
    # -I: the supervisor needs no site, no PYTHON* settings, not even this package's path.
    cmd = [sys.executable, "-I", SUPERVISOR, repr(timeout), str(life_r), str(stat_w), token,
           "--", *argv]
    try:
        # Its own session too: a terminal's Ctrl-C reaches the run only, which then closes
        # the lifeline; and its process group is ours to kill should it hang.
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, pass_fds=(life_r, stat_w),
                                start_new_session=True)
    except OSError as e:
        _release(key)
        os.close(stat_r)
        return Outcome(start_error=f"cannot run the supervisor {sys.executable}: {e}")
    finally:
        os.close(life_r)
        os.close(stat_w)
    agent: list[int] = []
    try:
        return _talk(proc, stdin, timeout, stat_r, agent)
    finally:
        _release(key)  # the supervisor, if still there, kills the agent's tree and exits
        try:
            proc.wait(GRACE)
        except subprocess.TimeoutExpired:
            supervise.kill(proc.pid, group=True)
            proc.wait()
        finally:
            if proc.returncode not in (0, 127):
                # The supervisor died before its sweep: kill what carries the token (without
                # /proc, the agent's process group).
                supervise.sweep(None, token, [] if supervise.HAVE_PROC else agent)
            for f in (proc.stdin, proc.stdout, proc.stderr):
                if f is not None:
                    with contextlib.suppress(OSError):
                        f.close()
            os.close(stat_r)


def _talk(proc: subprocess.Popen[bytes], stdin: bytes, timeout: float, stat_r: int,
          agent: list[int]) -> Outcome:
    """Feed stdin; read stdout, stderr and the status pipe; all under one deadline."""
    feed, out, err = proc.stdin, proc.stdout, proc.stderr
    assert feed is not None and out is not None and err is not None
    o, e = out.fileno(), err.fileno()
    data: dict[int, list[bytes]] = {o: [], e: []}
    size = {o: 0, e: 0}
    reading = {o, e, stat_r}
    sel = selectors.DefaultSelector()
    for fd in reading:
        sel.register(fd, selectors.EVENT_READ)
    w = feed.fileno()
    os.set_blocking(w, False)
    view, sent = memoryview(stdin), 0
    writing = bool(stdin)
    if writing:
        sel.register(w, selectors.EVENT_WRITE)
    else:
        feed.close()

    def done_writing() -> None:
        nonlocal writing
        if writing:
            writing = False
            sel.unregister(w)
            feed.close()

    hard = time.monotonic() + timeout + SLACK
    give_up = hard
    report: dict[str, Any] | None = None
    pending = b""
    while reading and (left := give_up - time.monotonic()) > 0:
        for k, _ in sel.select(left):
            if k.fd == w:
                if not writing:  # closed earlier in this same batch of events
                    continue
                try:
                    sent += os.write(w, view[sent:sent + _CHUNK])
                except BlockingIOError:
                    continue
                except BrokenPipeError:  # the agent will not read the rest: fine
                    sent = len(view)
                if sent >= len(view):
                    done_writing()
                continue
            chunk = os.read(k.fd, _CHUNK)
            if not chunk:
                sel.unregister(k.fd)
                reading.discard(k.fd)
                if k.fd == stat_r:  # the supervisor is gone, whether it reported or not
                    give_up = min(give_up, time.monotonic() + GRACE)
                continue
            if k.fd != stat_r:
                if (room := MAX_OUTPUT - size[k.fd]) > 0:
                    data[k.fd].append(chunk[:room])
                size[k.fd] += len(chunk)
                continue
            *lines, pending = (pending + chunk).split(b"\n")
            for msg in map(json.loads, lines):
                if "pid" in msg:
                    agent.append(msg["pid"])
                    continue
                # The agent's tree is gone: what is left to read comes at once; a pipe
                # still open after GRACE is held by something out of reach.
                report = msg
                give_up = min(give_up, time.monotonic() + GRACE)
                done_writing()
    sel.close()
    stdout, stderr = b"".join(data[o]), b"".join(data[e])
    done = functools.partial(Outcome, stdout, stderr, cut=(size[o] - len(stdout),
                                                           size[e] - len(stderr)))
    if report is None:
        if _STOPPING:
            return done(stopped=True, leftovers_killed=None)
        if time.monotonic() >= hard:
            return done(timed_out=True, leftovers_killed=None)
        code = proc.poll()
        return done(leftovers_killed=None,
                       lost="it hung" if code is None else f"it exited with {code}")
    if "errno" in report:
        return done(start_error=os.strerror(report["errno"]))
    return done(exit=report["exit"], timed_out=report["timed_out"],
                   stopped=report["stopped"], leftovers_killed=report["leftovers_killed"])


def text_field(obj: Any, key: str) -> str:
    """A string field of an agent's JSON object; anything else counts as empty."""
    v = obj.get(key, "") if isinstance(obj, dict) else ""
    return v if isinstance(v, str) else ""


def list_field(obj: Any, key: str) -> list[Any]:
    v = obj.get(key, []) if isinstance(obj, dict) else []
    return v if isinstance(v, list) else []
