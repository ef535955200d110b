"""What the rule matrix's checks say, shared by `test_rules.py` and the languages written as
data (`rules_<lang>.py`): the rule texts a candidate carries and the usual checks, as the
fields of `test_rules.Want`."""

from __future__ import annotations

from typing import Any

from determinacy.proposer.crossing import NOT_KEYWORD
from determinacy.proposer.graded import NOT_GRADED_PASSED

__all__ = ["ABSENT", "CROSS", "FED", "FOREIGN", "IMPORT", "LOCAL", "LOCAL_W", "MARK", "NAMED",
           "NOT_GRADED_PASSED", "NOT_KEYWORD", "SCOPE_CHECKS", "SEGMENT", "SHIP_CHECKS",
           "UNGRADED", "crosses", "literal"]

CROSS = "defined by the gold, used by the test"
NAMED = "defined by the gold, named by a string of the test"
LOCAL = "a local variable"
IMPORT = "import or package name"
FOREIGN = "a member of a type neither patch declares"
SEGMENT = "a fixed segment of a gold string inside a graded test string"
MARK = "<<>>"  # where a case's snippet goes in a scaffold file


def crosses(decl: str | None = None, rule: str = CROSS) -> dict[str, Any]:
    return {"defuse": "gold→test", "rule": rule, "kind": "identifier", "decl": decl}


def literal(kind: str = "string", rule: str = "literal") -> dict[str, Any]:
    return {"defuse": "", "rule": rule, "kind": kind, "asserting": True}


LOCAL_W = {"defuse": "none", "rule": LOCAL, "kind": "identifier"}
ABSENT = {"absent": True}
UNGRADED = {"graded": False, "absent_ok": True}
FED = {"graded": False, "absent_ok": True, "asserting": False}  # and never asserted
# The shipping snippets every language writes: the literal the code chooses grades, the one
# the test feeds in does not, nor one only a sibling test (not run) asserts.
SHIP_CHECKS = [("positive", "free shipping over threshold", literal()),
               ("negative-fed", "eu-west-3", FED),
               ("negative-not-run", "standard shipping rate", UNGRADED)]
SCOPE_CHECKS = [SHIP_CHECKS[0], SHIP_CHECKS[2]]
