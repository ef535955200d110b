"""The supervisor an agent runs under, so that nothing it starts outlives its call or the run.

    python -I supervise.py TIMEOUT LIFELINE_FD STATUS_FD TOKEN -- ARGV...

(`determinacy.agents.calls.run_agent` starts it; run -> supervisor -> agent, the agent sharing the
supervisor's stdin, stdout and stderr.) The supervisor
- becomes a child subreaper (Linux), so descendants orphaned by a double fork or `setsid`
  reparent to it instead of to init and stay findable by walking parent links in /proc;
- puts a random marker in the agent's environment (DETERMINACY_AGENT_TOKEN=TOKEN), so that
  descendants which got out of the tree anyway (the supervisor itself was killed) are found
  in /proc/*/environ;
- starts the agent in a session of its own, and enforces the timeout itself;
- holds the read end of a "lifeline" pipe whose only write end is in the run: end of file
  means the run is gone (even by SIGKILL, where no code of the run runs), so it kills the
  agent's tree and exits; SIGTERM, SIGINT and SIGHUP do the same;
- when the agent's main process exits, kills every leftover descendant (one that keeps the
  agent's stdout open would otherwise block the reader forever), reaps them and reports on
  STATUS_FD one JSON line: {"exit", "timed_out", "stopped", "leftovers_killed"}.
  Before that it reports {"pid"} (the agent's), or {"errno"} if the agent could not start.

Without /proc (macOS, the BSDs) only the agent's process group is killed: descendants that
called setsid there are out of reach. This runs once per call, so it imports little (no json,
no subprocess, no typing) and nothing outside the standard library.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import sys
import time
from collections.abc import Iterable

TOKEN_VAR = "DETERMINACY_AGENT_TOKEN"
HAVE_PROC = os.path.isdir("/proc/self")

# -- finding and killing an agent's processes (the run uses these too) ------------------------


def _stat(pid: str) -> tuple[int, str] | None:
    """(parent pid, state) of a process from /proc/<pid>/stat, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    # The command name is in parentheses and may itself hold spaces and parentheses.
    fields = data[data.rfind(b")") + 2:].split()
    return int(fields[1]), fields[0].decode()


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return marker in b"\0" + f.read()
    except OSError:  # gone, or another user's process
        return False


def scan(root: int | None, token: str) -> set[int]:
    """Live (not zombie) processes below `root` by parent links, plus every process whose
    environment holds `token`; never `root` itself nor this process. Needs /proc."""
    parent: dict[int, int] = {}
    dead: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit() and (st := _stat(name)) is not None:
            parent[int(name)] = st[0]
            if st[1] in ("Z", "X"):
                dead.add(int(name))
    found: set[int] = set()
    if root is not None:
        children: dict[int, list[int]] = {}
        for pid, ppid in parent.items():
            children.setdefault(ppid, []).append(pid)
        todo = list(children.get(root, []))
        while todo:
            pid = todo.pop()
            if pid not in found:
                found.add(pid)
                todo += children.get(pid, [])
    marker = f"\0{TOKEN_VAR}={token}\0".encode()
    found |= {pid for pid in parent.keys() - found - dead if _has_marker(pid, marker)}
    return found - dead - {os.getpid(), root or 0}


def kill(pid: int, group: bool = False) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)


def sweep(root: int | None, token: str, groups: Iterable[int] = (), *, reap: bool = False,
          patience: float = 2.0) -> set[int]:
    """SIGKILL every process `scan` finds, and the process groups `groups`, again and again
    until none is left (a process may fork while we kill it); returns what `scan` found.
    Without /proc only the groups are killed."""
    killed: set[int] = set()
    end = time.monotonic() + patience
    while True:
        live = scan(root, token) if HAVE_PROC else set()
        for g in groups:
            kill(g, group=True)
        groups = ()
        for pid in live:
            kill(pid)
        killed |= live
        if reap:
            reap_all()
        if not live or time.monotonic() > end:
            return killed
        time.sleep(0.005)  # SIGKILL is not synchronous: let them turn into zombies


def reap_all() -> None:
    """Reap every child that has exited (orphans reparented to the subreaper included)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


# -- the supervisor ---------------------------------------------------------------------------


def _subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_child_subreaper = 36  # <linux/prctl.h>
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_child_subreaper, 1, 0, 0, 0)


def _report(fd: int, **fields: int | bool | None) -> None:
    """One JSON line of numbers, booleans and nulls (json itself costs startup time)."""
    text = ", ".join(f'"{k}": ' + ("null" if v is None else str(v).lower() if
                                   isinstance(v, bool) else str(int(v)))
                     for k, v in sorted(fields.items()))
    with contextlib.suppress(OSError):  # the run may be gone already: nobody to tell
        os.write(fd, ("{" + text + "}\n").encode())


def _agent_exited(agent: int) -> tuple[bool, int | None]:
    """(exited, its wait status if it had to be reaped to know). Orphans reparented to us are
    reaped on the way; where waitid exists the agent is left a zombie, so its pid, and its
    process group id, cannot be reused before we have killed that group."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except AttributeError:  # no waitid (macOS): no subreaper there either, no orphans
            pid, status = os.waitpid(agent, os.WNOHANG)
            return (True, status) if pid else (False, None)
        if info is None:
            return False, None
        if info.si_pid == agent:
            return True, None
        with contextlib.suppress(ChildProcessError):
            os.waitpid(info.si_pid, 0)


def supervise(argv: list[str], timeout: float, lifeline: int, status_fd: int,
              token: str) -> int:
    _subreaper()
    for fd in (lifeline, status_fd):
        os.set_inheritable(fd, False)  # the agent gets neither
    stop: list[int] = []
    wake_r, wake_w = os.pipe()
    for fd in (wake_r, wake_w):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_w)  # a signal (SIGCHLD above all) wakes the select below
    signal.signal(signal.SIGCHLD, lambda s, f: None)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: stop.append(s))
    try:
        # A session of its own: its process group is ours to kill, and no terminal's signal
        # reaches it. SIGPIPE back to default, as Python had set it to ignored.
        agent = os.posix_spawnp(argv[0], argv, {**os.environ, TOKEN_VAR: token}, setsid=True,
                                setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except OSError as e:
        _report(status_fd, errno=e.errno or 0)
        return 127
    _report(status_fd, pid=agent)
    # Let go of the agent's stdin and stdout: once the agent's tree is gone the run reads
    # end of file, without waiting for this process to exit.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)

    deadline = time.monotonic() + timeout
    sel = selectors.DefaultSelector()
    sel.register(lifeline, selectors.EVENT_READ)
    sel.register(wake_r, selectors.EVENT_READ)
    timed_out = stopped = False
    while True:
        exited, status = _agent_exited(agent)
        if exited:
            break
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        if stop:
            stopped = True
            break
        for key, _ in sel.select(left):
            if key.fd == wake_r:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 512)
            elif not os.read(lifeline, 512):  # the run never writes: readable means EOF
                stopped = True
        if stopped:
            break
    me = os.getpid()
    alive = scan(me, token) if HAVE_PROC else set()  # counted before the group kill below
    # The agent's group while its leader is unreaped (so the group id is still ours), then
    # everything below us or carrying our token.
    kill(agent, group=True)
    if status is None:
        _, status = os.waitpid(agent, 0)
    killed = alive | sweep(me, token, reap=True)
    reap_all()
    _report(status_fd, exit=None if (timed_out or stopped) else os.waitstatus_to_exitcode(status),
            timed_out=timed_out, stopped=stopped,
            leftovers_killed=len(killed - {agent}) if HAVE_PROC else None)
    return 0


def main(args: list[str]) -> int:
    timeout, lifeline, status, token, dashes, *argv = args
    if dashes != "--" or not argv:
        print(f"usage: {sys.argv[0]} TIMEOUT LIFELINE_FD STATUS_FD TOKEN -- ARGV...",
              file=sys.stderr)
        return 2
    return supervise(argv, float(timeout), int(lifeline), int(status), token)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
