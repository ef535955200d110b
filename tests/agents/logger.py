"""An agent that logs each question, thinks a little, then answers `{}`.

    python logger.py LOG [SECONDS]

Appends "phase case pass" to LOG on entry (flushed at once), sleeps SECONDS (default 0.2),
prints `{}`.
"""

from __future__ import annotations

import sys
import time

from protocol import headers  # tests/agents/ is on sys.path: the script runs from there


def main() -> int:
    h = headers(sys.stdin.read())
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(f"{h.get('phase', '')} {h.get('case', '')} {h.get('pass', '')}\n")
    time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 0.2)
    print("{}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
