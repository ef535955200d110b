#!/usr/bin/env python3
"""The recorded agent of the demo: canned answers replayed from a file. It is not a model.

    determinacy run examples/demo.toml --agent "python examples/demo/recorded_agent.py"

Speaks the agent protocol (a prompt on stdin, one JSON object on stdout) and answers from
`recorded_answers.json` next to this script, keyed by case and then by phase, using only the
three header lines every prompt starts with:

    DETERMINACY-PHASE: screen|witness|refute
    DETERMINACY-CASE: <instance_id>
    DETERMINACY-PASS: <n>

The rest of the prompt is read and ignored, and the answer does not depend on the pass. A case
or phase with no recorded answer gets `{}` ("no proposal"). Stdlib only; the output is the same
bytes for the same headers. The answers were written by hand so that the demo shows every
verdict class; the tool still checks every quote, snippet and path in them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ANSWERS = Path(__file__).resolve().parent / "recorded_answers.json"
HEADERS = {"DETERMINACY-PHASE": "phase", "DETERMINACY-CASE": "case", "DETERMINACY-PASS": "pass"}


def read_headers(prompt: str) -> dict[str, str]:
    """The values of the three header lines at the top of the prompt ("" when absent)."""
    found = {key: "" for key in HEADERS.values()}
    for line in prompt.splitlines()[: len(HEADERS)]:
        name, sep, value = line.partition(":")
        if sep and name.strip() in HEADERS:
            found[HEADERS[name.strip()]] = value.strip()
    return found


def answer(prompt: str, answers: dict) -> dict:
    head = read_headers(prompt)
    recorded = answers.get(head["case"], {})
    reply = recorded.get(head["phase"]) if isinstance(recorded, dict) else None
    return reply if isinstance(reply, dict) else {}


def main() -> int:
    prompt = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    answers = json.loads(ANSWERS.read_text(encoding="utf-8"))
    sys.stdout.write(json.dumps(answer(prompt, answers), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
