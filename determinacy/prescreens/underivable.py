"""Values nobody can derive: a graded literal the gold makes and the test asserts that is a
digest, a UUID, a long base64 blob, a random-looking key or a timestamp (RECALL-ONLY,
disputed). No reading of the prose or the code leads to such a value: a solver gets it right
by recalling the upstream fix, so the case goes with AIRTIGHT's evidence when it certifies.
Only literals neither the prose nor the codebase (nor a wider scope) holds are marked.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from determinacy.records import Check, Task, ValidityCheck

_HEX = re.compile(r"(?:sha(?:1|224|256|384|512)[:-]|md5[:-])?[0-9a-f]+|[0-9A-F]+")
_DIGEST_LENGTHS = {32, 40, 56, 64, 96, 128}
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                   r"[0-9a-fA-F]{12}")
_B64 = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_-]{24,}={0,2}")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                  r"(?:Z|[+-]\d{2}:?\d{2})?")
_EPOCH = re.compile(r"1[0-9]{9}(?:[0-9]{3})?(?:\.[0-9]+)?")
_WORDISH = re.compile(r"[a-z]{4,}|[A-Z][a-z]{3,}")


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(k / n * math.log2(k / n) for k in Counter(s).values())


def shape(value: str) -> str:
    """What kind of value nobody derives `value` is ("" when it is not one)."""
    if _HEX.fullmatch(value):
        digits = re.sub(r"^(?:sha\d+|md5)[:-]", "", value)
        if len(digits) in _DIGEST_LENGTHS and re.search(r"[0-9]", digits) \
                and re.search(r"[a-fA-F]", digits):
            return f"a {len(digits) * 4}-bit hex digest"
    if _UUID.fullmatch(value):
        return "a UUID"
    if _ISO.fullmatch(value):
        return "a timestamp"
    if _EPOCH.fullmatch(value):
        return "a Unix timestamp"
    if _B64.fullmatch(value) and re.search(r"[A-Z]", value) and re.search(r"[a-z]", value) \
            and len(re.findall(r"[0-9]", value)) >= 2 and not _wordy(value):
        return "a base64 blob" if len(value) >= 40 or value.endswith("=") \
            else "a random-looking key"
    return ""


def _wordy(value: str) -> bool:
    """Words make up much of it (`someLongIdentifierName2`): a name, not a key."""
    return sum(map(len, _WORDISH.findall(value))) * 2 >= len(value) or _entropy(value) < 3.5


def check(task: Task, checks: list[Check]) -> list[ValidityCheck]:
    out = []
    for c in checks:
        if c.kind == "identifier" or not (c.asserting and c.gold_at and c.test_at
                                          and c.graded_by) or c.prose_match \
                or c.codebase_at or c.found_in:
            continue
        if not (what := shape(c.constant)):
            continue
        out.append(ValidityCheck(
            case_id=task.case_id, instance_id=task.instance_id, prescreen="underivable",
            verdict="RECALL-ONLY", literal=c.constant, proposed="disputed",
            pointers=[c.gold_at[0], c.test_at[0]],
            evidence=f"the test asserts `{c.constant}`, {what}, which the gold writes at "
                     f"{c.gold_at[0]}: no reading of the prose or the code derives it"))
    return out
