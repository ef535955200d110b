"""An agent that never answers in time: it sleeps far longer than any test's --agent-timeout."""

import sys
import time

sys.stdin.read()
time.sleep(60)
print("{}")
