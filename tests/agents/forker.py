"""An agent that leaves a grandchild behind, holding its stdout open.

    python forker.py PIDDIR MODE

The agent writes its pid to PIDDIR/<case>/agent, then double-forks: the middle child calls
setsid (unless MODE is answer-same-session) and exits, so the grandchild is an orphan in a
session of its own with the agent's stdout still open. The grandchild writes its pid to
PIDDIR/<case>/grandchild and execs a bare interpreter with an empty environment (no marker
of the caller's survives) that sleeps for an hour. Once that file exists the agent, per MODE:
- answer, answer-same-session: prints `{}` and exits 0;
- hang: sleeps for an hour without answering.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from protocol import headers  # tests/agents/ is on sys.path: the script runs from there

SLEEPER = "import time; time.sleep(3600)  # determinacy-test-grandchild"


def publish(path: Path, pid: int) -> None:
    """Write a pid file whole (a reader polls for it)."""
    path.with_suffix(".part").write_text(str(pid))
    os.replace(path.with_suffix(".part"), path)


def main() -> int:
    mode = sys.argv[2]
    piddir = Path(sys.argv[1]) / (headers(sys.stdin.read()).get("case") or "none")
    piddir.mkdir(parents=True, exist_ok=True)
    publish(piddir / "agent", os.getpid())
    middle = os.fork()
    if middle == 0:
        if mode != "answer-same-session":
            os.setsid()
        if os.fork() == 0:
            publish(piddir / "grandchild", os.getpid())
            os.execve(sys.executable, [sys.executable, "-c", SLEEPER], {})
        os._exit(0)
    os.waitpid(middle, 0)
    while not (piddir / "grandchild").exists():
        time.sleep(0.01)
    if mode == "hang":
        time.sleep(3600)
    print("{}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
