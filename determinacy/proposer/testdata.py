"""Test data only the gold ships (GOLD-TEST-DATA, method §4): a file the graded test reads
that the gold patch writes and the test patch does not.

Such a constant is unknowable, but not because the prose leaves a name open: every fix that
does not also write that exact file fails, so the task is broken, and a maintainer repairs it
by moving the file into the test patch. A gold file is test data when it sits on a test path
(`testdata/`, `fixtures/`, a snapshot folder), or when it is a data file (YAML, JSON, ...)
whose name a graded test spells (a path literal, a glob over its folder). Pure.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from determinacy.paths import is_test_path
from determinacy.proposer import datafiles
from determinacy.proposer.graded import Graded, names_file
from determinacy.proposer.occurrences import Occ, Side
from determinacy.proposer.patches import FileDiff


def _loads(text: str, path: str) -> bool:
    """Does a test string name `path`: the file's name or stem (`names_file`), or a glob over
    its folder (`testdata/*.yml`)?"""
    if names_file(text, path):
        return True
    pattern = text.strip().lstrip("./")
    return "*" in pattern and "/" in pattern and fnmatch.fnmatch(path, "*" + pattern)


def gold_test_data(made: Sequence[FileDiff], test_files: Sequence[FileDiff], test: Side,
                   grading: Graded, test_paths: Sequence[str]) -> dict[str, str]:
    """Each gold file that is test data -> the graded test line that loads it ("path:line";
    "" when only its place says so: a test path no graded string spells)."""
    written_by_test = {f.path for f in test_files}
    loaders = sorted((o for o in test.occs if o.kind == "string" and grading.ids(o)),
                     key=lambda o: (o.path, o.line))
    out: dict[str, str] = {}
    for f in made:
        if f.binary or f.path in written_by_test:
            continue
        on_test_path = is_test_path(f.path, test_paths)
        if not on_test_path and not datafiles.format_of(f.path):
            continue
        at = next((o.where for o in loaders if _loads(o.value, f.path)), "")
        if on_test_path or at:
            out[f.path] = at
    return out


def only_in_test_data(gs: Sequence[Occ], data: dict[str, str]) -> str:
    """The test-data file of a constant every gold occurrence of which is in one ("" when the
    gold's own code also makes it: then it keeps its own verdict)."""
    if gs and all(o.path in data for o in gs):
        return min(gs, key=lambda o: (o.path, o.line)).path
    return ""
