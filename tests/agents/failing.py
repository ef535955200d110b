"""An agent that crashes: exit status 3."""

import sys

sys.stdin.read()
print("agent: out of credits", file=sys.stderr)
sys.exit(3)
