"""A lying agent: every answer is built to look plausible and to fail a mechanical check.

    python liar.py [BASE_CONSTANT ...]

It reads the prompt (headers and the materials) and, per phase:
- screen: behaviors with invented prose clauses, with gold snippets copied from the gold
  patch's added lines (so the case gets GAPs and reaches the witness phase) or invented, and
  with test ids that are not FAIL_TO_PASS ids;
- witness: a witness of every kind: constants taken from the prose, invented, present at base
  (the BASE_CONSTANTs given on the command line), only in the test or only in the gold patch;
  precedents at paths that do not exist, in test files, with snippets not in the file, and with
  values not in the snippet; clauses not in the prose; an unknown kind;
- refute: comparable=true for every candidate 1..20.
"""

from __future__ import annotations

import json
import re
import sys
import zlib

from protocol import headers  # tests/agents/ is on sys.path: the script runs from there

SECTIONS = ("FAIL_TO_PASS", "PROSE", "GOLD PATCH", "HIDDEN TEST PATCH", "GAPS", "CANDIDATES")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


def sections(prompt: str) -> dict[str, str]:
    """The materials under the template's own headings (the prose may hold `##` lines too)."""
    names = "|".join(re.escape(s) for s in SECTIONS)
    parts = re.split(rf"^## ({names})\n", prompt, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def added(patch: str) -> list[str]:
    return [ln[1:] for ln in patch.splitlines() if ln.startswith("+") and not ln.startswith("+++")]


def context(patch: str) -> list[tuple[str, str]]:
    """(path, line) of the diff's context lines: real text of files at the base commit."""
    out, path = [], ""
    for ln in patch.splitlines():
        if ln.startswith("--- a/"):
            path = ln[len("--- a/"):]
        elif ln.startswith("--- "):
            path = ""
        elif ln.startswith(" ") and path and ln.strip():
            out.append((path, ln[1:]))
    return out


def tokens(lines: list[str]) -> set[str]:
    return {t for ln in lines for t in TOKEN.findall(ln)}


def screen(s: dict[str, str], case: str) -> dict[str, object]:
    f2p = [t for t in s.get("FAIL_TO_PASS", "").splitlines() if t.strip()]
    real_id = f2p[0] if f2p else "tests/test_x.py::test_x"
    gold = [ln.strip() for ln in added(s.get("GOLD PATCH", "")) if len(ln.strip()) >= 6]
    behaviors: list[dict[str, str]] = []
    for i, snippet in enumerate(gold[:3] or ["return frobnicated"]):
        behaviors.append({"test_id": real_id, "behavior": f"invented behavior {i}",
                          "prose_clause": f"the issue clearly demands that {case} frobnicates "
                                          f"every quux number {i}",
                          "gold_snippet": snippet})
    behaviors += [
        {"test_id": "tests/test_invented.py::test_not_in_fail_to_pass",
         "behavior": "graded by a test nobody runs",
         "prose_clause": "the maintainers said so on the mailing list",
         "gold_snippet": gold[0] if gold else "x"},
        {"test_id": real_id, "behavior": "implemented nowhere",
         "prose_clause": "as documented in the style guide of the project",
         "gold_snippet": "def entirely_invented_helper(quux): return quux * 42"},
        {"test_id": "", "behavior": "no id at all", "prose_clause": "", "gold_snippet": ""},
    ]
    return {"behaviors": behaviors}


def witness(s: dict[str, str], case: str, base_constants: list[str]) -> dict[str, object]:
    prose = s.get("PROSE", "")
    gold, test = s.get("GOLD PATCH", ""), s.get("HIDDEN TEST PATCH", "")
    gold_added, test_added = added(gold), added(test)
    gold_line = next((ln.strip() for ln in gold_added if len(ln.strip()) >= 6), "return 1")
    test_line = next((ln.strip() for ln in test_added if "assert" in ln), "assert True")
    prose_words = sorted({w for w in TOKEN.findall(prose) if len(w) >= 5})[:4]
    only_test = sorted(tokens(test_added) - tokens(gold_added))[:4]
    only_gold = sorted(tokens(gold_added) - tokens(test_added))[:4]
    invented = f"Zq{zlib.crc32(case.encode()) % 10**6}Invented"
    constants = [*prose_words, invented, "totally_invented_name", *base_constants, *only_test,
                 *only_gold]
    out: list[dict[str, object]] = []
    for c in constants:
        out.append({"kind": "airtight", "behavior": f"pins {c}", "r1": c, "r2": "something else",
                    "constant": c, "test_assertion": f"assert x == {c!r}",
                    "gold_anchor": f"return {c!r}  # invented anchor"})
        out.append({"kind": "AIRTIGHT", "constant": c, "test_assertion": test_line,
                    "gold_anchor": gold_line})
    ctx_gold = context(gold)
    ctx_test = context(test)
    live_path, live_line = ctx_gold[0] if ctx_gold else ("pkg/__init__.py", "import os")
    test_path, test_ctx = ctx_test[0] if ctx_test else ("tests/test_x.py", "def test_x():")
    precedents = [
        {"path": "pkg/does_not_exist.py", "snippet": 'FORMAT = "%Y/%m/%d"', "value": "%Y/%m/%d"},
        {"path": "src/legacy/nowhere.py", "snippet": "SEPARATOR = ';'", "value": ";"},
        {"path": test_path, "snippet": test_ctx, "value": test_ctx.strip()[:8]},
        {"path": live_path, "snippet": 'DEFAULT = "invented-value-9"', "value": "invented-value-9"},
        {"path": live_path, "snippet": live_line, "value": "zz-not-in-that-snippet"},
        {"path": "/etc/passwd", "snippet": "root", "value": "root"},
        {"path": "../outside.py", "snippet": "x = 1", "value": "1"},
    ]
    for kind in ("misdetermined", "plural", "determined_codebase"):
        out.append({"kind": kind, "behavior": "decided elsewhere", "r1": "one way",
                    "r2": "the other way", "gold_value": gold_line, "test_assertion": test_line,
                    "precedents": precedents})
    out += [
        {"kind": "prose_affirmative", "r1": "a", "r2": "b",
         "prose_clause": "the issue explicitly asks for the opposite behaviour of the test"},
        {"kind": "prose_affirmative", "prose_clause": prose_words[0] if prose_words else ""},
        {"kind": "borderline", "r1": "a convention might bind", "r2": "or not"},
        {"kind": "super_airtight", "constant": "anything", "r1": "x", "r2": "y"},
        {"kind": "airtight", "constant": 42},
        "not even an object",
    ]
    return {"witnesses": out}


def main() -> int:
    prompt = sys.stdin.read()
    h = headers(prompt)
    s = sections(prompt)
    phase, case = h.get("phase", ""), h.get("case", "")
    if phase == "screen":
        answer: dict[str, object] = screen(s, case)
    elif phase == "witness":
        answer = witness(s, case, sys.argv[1:])
    else:
        answer = {"refutations": [{"candidate": n, "comparable": True, "reason": "same thing"}
                                  for n in range(1, 21)]}
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
