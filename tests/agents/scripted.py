"""A scripted agent: prints the answer the test recorded for (phase, case[, pass]).

    python scripted.py ANSWERS.json [CALL_LOG]

ANSWERS.json maps a phase to {case_id: answer}; a key "<phase>@<pass>" overrides it for one
pass. An answer is a JSON object (printed as the agent's output), or one of the strings
"GARBAGE" (print text that is no JSON), "FAIL" (exit with status 3) and "SLEEP" (sleep 60 s).
No recorded answer: `{}`. Every call appends "phase case pass" to CALL_LOG when given.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from protocol import headers  # tests/agents/ is on sys.path: the script runs from there


def main() -> int:
    prompt = sys.stdin.read()
    h = headers(prompt)
    phase, case, pass_no = h.get("phase", ""), h.get("case", ""), h.get("pass", "")
    if len(sys.argv) > 2:
        with open(sys.argv[2], "a", encoding="utf-8") as log:
            log.write(f"{phase} {case} {pass_no}\n")
    answers = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    answer = answers.get(f"{phase}@{pass_no}", {}).get(case)
    if answer is None:
        answer = answers.get(phase, {}).get(case, {})
    if answer == "GARBAGE":
        print("I looked at the task carefully and I think it is fine. No JSON today.")
        return 0
    if answer == "FAIL":
        return 3
    if answer == "SLEEP":
        time.sleep(60)
        return 0
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
