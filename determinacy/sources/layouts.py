"""Column layouts a source needs no [fields] table for, detected from the columns of its rows.

- SWE-bench (and the datasets that copy its columns: Verified, Lite, Multimodal, SWE-Gym,
  SWE-rebench, ...): `instance_id, repo, base_commit, patch, test_patch, FAIL_TO_PASS,
  problem_statement`, optional `PASS_TO_PASS`.
- SWE-bench Pro: the same with `fail_to_pass` and `pass_to_pass` in lower case, and two more
  texts its solvers are shown, `requirements` and `interface`.

Whichever layout matches, `requirements`, `interface` (when present) join the prose: a text
the solver is shown and the audit does not read would let a constant it states be certified
absent. `image_assets` (SWE-bench Multimodal) becomes `fields.images`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from determinacy.config import FieldsCfg


@dataclass(frozen=True)
class Layout:
    name: str
    fail_to_pass: str
    pass_to_pass: str


LAYOUTS = (Layout("SWE-bench", "FAIL_TO_PASS", "PASS_TO_PASS"),
           Layout("SWE-bench Pro", "fail_to_pass", "pass_to_pass"))
# fields.<key> -> the column every layout reads it from.
COMMON = {"instance_id": "instance_id", "repo": "repo", "base_commit": "base_commit",
          "gold_patch": "patch", "test_patch": "test_patch"}
PROSE = "problem_statement"
EXTRA_PROSE = ("requirements", "interface")
IMAGES = "image_assets"


def required(layout: Layout) -> list[str]:
    return [*COMMON.values(), layout.fail_to_pass, PROSE]


def detect(columns: Collection[str]) -> tuple[Layout, FieldsCfg] | None:
    """The first layout whose required columns are all there, and the mapping it gives."""
    for layout in LAYOUTS:
        if all(c in columns for c in required(layout)):
            return layout, FieldsCfg(
                **COMMON, fail_to_pass=layout.fail_to_pass,
                pass_to_pass=layout.pass_to_pass if layout.pass_to_pass in columns else None,
                prose=[PROSE, *(c for c in EXTRA_PROSE if c in columns)],
                images=IMAGES if IMAGES in columns else None)
    return None


def lacking(columns: Collection[str]) -> str:
    """What each layout lacks (for the error when none matches)."""
    return "; ".join(f"{layout.name} needs {', '.join(f'`{c}`' for c in missing)}"
                     for layout in LAYOUTS
                     if (missing := [c for c in required(layout) if c not in columns]))


def describe(name: str, fields: FieldsCfg) -> str:
    """`the SWE-bench Pro layout (fail_to_pass, pass_to_pass; prose: ...)`, for messages."""
    tests = ", ".join(c for c in (fields.fail_to_pass, fields.pass_to_pass) if isinstance(c, str))
    return f"the {name} layout ({tests}; prose: {', '.join(fields.prose)})"
