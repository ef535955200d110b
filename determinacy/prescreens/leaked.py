"""Solution in the prose: the prose holds the gold's change (LEAKED, disputed: the task is
easier than it looks, and a score on it measures copying as much as fixing).

Three mechanical shapes, whitespace normalized: a gold added line of at least `min_chars`
characters that the prose contains, as a prose quotes code (without the `if` or `and` that
joins it to its neighbours, a call's qualifier, its closing `:`, either quote); a fenced
code block of the prose whose lines are mostly gold added lines; a diff in the prose whose
added lines are gold added lines. A declaration's header (`def f(x):`, `func F() error {`,
and the parameter lines of a header spread over several) and a line that only names or
declares (a setting's dotted name, `name: Type`, a Go field) are left out of the first: a
prose that states the interface it wants (SWE-bench Pro's "Interface" section) names it by
design, and names are the determinacy check's business, not this one's. A line the gold
removes and adds back (moved, re-indented) is no part of its change.

Every finding is reported with the share of the gold's distinct added lines (of
`SHOWN_MIN`+ characters) the prose shows. Only a leak of much of the change proposes a
validity revision (disputed): a code block or a diff of gold lines, or a share of
`PROPOSE_SHARE` or more. One quoted line of a long fix (a `replace` directive the
requirements spell out) is a hint the report shows, not a task to dispute.
"""

from __future__ import annotations

import re

from determinacy.prescreens._patch import added, files, normal
from determinacy.proposer.patches import FileDiff
from determinacy.records import Task, ValidityCheck

# Lines this short are `return x`, `}` and `import os`: present in any prose about code.
SHOWN_MIN = 12
PROPOSE_SHARE = 0.25
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADER = re.compile(
    r"^(?:export\s+|pub(?:\([^)]*\))?\s+|public\s+|private\s+|protected\s+|static\s+|"
    r"async\s+|abstract\s+|final\s+)*"
    r"(?:def|class|func|fn|function|interface|struct|enum|trait|impl|type|module)\b")


def _declarations(diffs: list[FileDiff]) -> set[tuple[str, int]]:
    """(path, line) of the gold's lines that are part of a declaration's header: the line
    that opens it (`def f(`, `export function f(`) and, while its parentheses stay open, the
    parameter lines after it. What an interface spec names, line for line."""
    out: set[tuple[str, int]] = set()
    for f in diffs:
        for hunk in f.hunks:
            depth = 0
            for n, text, _ in hunk:
                if depth > 0 or _HEADER.match(text.strip()):
                    out.add((f.path, n))
                    depth = max(0, depth + text.count("(") - text.count(")"))
    return out


def _blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Fenced code blocks: (1-based line of the first body line, body lines)."""
    out, start, body = [], 0, None
    for i, ln in enumerate(lines, 1):
        if _FENCE.match(ln):
            if body is None:
                start, body = i + 1, []
            else:
                out.append((start, body))
                body = None
        elif body is not None:
            body.append(ln)
    return out


# What a prose quoting a line of code leaves off: the keyword or operator that joins it to
# its neighbours (`if`, `and`, `return`), one qualifier (`qtutils.` of a call), the
# punctuation that ends it. Quotes are one kind: a prose writes "6.2.3" where the code has '.
_LEAD = re.compile(r"^(?:(?:if|elif|else|and|or|not|return|await|yield|while|case|assert|"
                   r"throw|[})\]]|&&|\|\|)\s+)+")
_QUALIFIER = re.compile(r"^[A-Za-z_]\w*\.(?=[A-Za-z_]\w*\()")
_TAIL = re.compile(r"(?:\s*(?:[:{;,]|&&|\|\||\band\b|\bor\b))+$")


def _core(line: str) -> str:
    """A gold line as a prose would quote it (see _LEAD)."""
    return _QUALIFIER.sub("", _TAIL.sub("", _LEAD.sub("", line.replace("'", '"'))))


# What a line that only declares looks like once its keyword is gone: a dotted name alone (a
# setting, a constant, a linter's `Lint/UselessAssignment` key), `name: Type` or
# `name?: Type` (a member, a parameter), a Go field `Name Type` with its tag, a method with
# typed parameters (`f(x: T): R`).
_ONLY_NAMES = re.compile(
    r"[\w.$/@-]+|[\w$]+\??\s*:\s*\S.*|[A-Z]\w*\s+[\w.*\[\]]+(?:\s+`[^`]*`)?"
    r"|[\w$]+\s*\([\w$]+\??\s*:[^)]*\)\s*:.*")


def _names_only(core: str) -> bool:
    """Does the quoted part only name or declare (the determinacy check's business)?"""
    return bool(_ONLY_NAMES.fullmatch(core))


def check(task: Task, min_chars: int) -> list[ValidityCheck]:
    diffs = files(task.gold_patch, "the gold patch")
    headers = _declarations(diffs)
    gold = [(p, n, normal(t)) for p, n, t in added(diffs)]
    # A line the gold removes and adds back (moved, re-indented) is no part of its change:
    # a traceback in the prose may quote it.
    moved = {normal(ln[1:]) for ln in task.gold_patch.splitlines()
             if ln.startswith("-") and not ln.startswith("---")}
    gold = [(p, n, t) for p, n, t in gold if len(t) >= SHOWN_MIN and t not in moved]
    declared = {t for p, n, t in gold if (p, n) in headers}
    if not gold or not task.prose.strip():
        return []
    lines = task.prose.splitlines()
    flat = [normal(ln).replace("'", '"') for ln in lines]
    whole = normal(task.prose).replace("'", '"')
    where = {t: f"{p}:{n}" for p, n, t in reversed(gold)}  # each text's first place
    shown = sorted({t for _, _, t in gold if _core(t) in whole})
    share = round(len(shown) / len(where), 3)

    def prose_at(text: str) -> str:
        i = next((i for i, ln in enumerate(flat) if _core(text) in ln), None)
        return f"prose:{i + 1}" if i is not None else "prose"

    found: list[tuple[str, list[str]]] = []  # (what, pointers)
    block = False  # a code block or a diff of gold lines
    long_lines = [t for t in shown if len(_core(t)) >= min_chars and t not in declared
                  and not _names_only(_core(t))]
    if long_lines:
        t = max(long_lines, key=lambda t: (len(t), t))
        found.append((f"{len(long_lines)} gold line(s) of {min_chars}+ characters, such as "
                      f"`{t}`", [prose_at(t), where[t]]))
    for start, body in _blocks(lines):
        body_n = [normal(b) for b in body if len(normal(b)) >= SHOWN_MIN]
        if body_n and any(b.startswith(("+", "-")) for b in body_n):
            plus = [b[1:].strip() for b in body_n if b.startswith("+") and
                    not b.startswith("+++")]
            hit = [b for b in plus if b in where]
            if len(hit) >= 2:
                found.append((f"a diff of {len(hit)} gold added lines at prose:{start}",
                              [f"prose:{start}", where[hit[0]]]))
                block = True
                continue
        hit = [b for b in body_n if b in where]
        if len(hit) >= 3 and 2 * len(hit) > len(body_n):
            found.append((f"a code block at prose:{start} of whose {len(body_n)} lines "
                          f"{len(hit)} are gold added lines", [f"prose:{start}", where[hit[0]]]))
            block = True
    if not found:
        return []
    return [ValidityCheck(
        case_id=task.case_id, instance_id=task.instance_id, prescreen="leaked", verdict="LEAKED",
        evidence=f"the prose shows the gold's change: {'; '.join(w for w, _ in found)} "
                 f"({len(shown)} of the gold's {len(where)} distinct added lines are in the "
                 "prose)",
        pointers=sorted({p for _, ps in found for p in ps}),
        proposed="disputed" if block or share >= PROPOSE_SHARE else "", share=share,
        literal=found[0][0])]
