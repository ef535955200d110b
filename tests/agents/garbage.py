"""An agent that answers prose, never JSON (and exits 0)."""

import sys

sys.stdin.read()
print("Sure! Here is my analysis: the task looks determinate to me. Let me know if you need")
print("anything else. (no braces anywhere in this answer)")
