"""An agent that logs when it starts and when it has answered, answering `{}` in between.

    python timed.py LOG SECONDS

Appends "start phase case pass pid" to LOG on entry and "done phase case pass" once its
answer is printed, with SECONDS of thinking between: a call killed while it thinks has a
start and no done.
"""

from __future__ import annotations

import os
import sys
import time

from protocol import headers  # tests/agents/ is on sys.path: the script runs from there


def main() -> int:
    h = headers(sys.stdin.read())
    what = f"{h.get('phase', '')} {h.get('case', '')} {h.get('pass', '')}"
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(f"start {what} {os.getpid()}\n")
    time.sleep(float(sys.argv[2]))
    print("{}", flush=True)
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(f"done {what}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
