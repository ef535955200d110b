"""What the pre-screens read of a patch: its added lines with their `path:line`."""

from __future__ import annotations

from determinacy.errors import CaseFailure
from determinacy.proposer.patches import parse_patch


def normal(text: str) -> str:
    """Whitespace runs as one space, the ends stripped: indentation and wrapping differ
    between a diff and a prose quoting it."""
    return " ".join(text.split())


def added(patch: str, what: str) -> list[tuple[str, int, str]]:
    """(path, line, text) of each added line, in order; none when the patch does not parse
    (the case is an ERROR already, and a pre-screen claims nothing of what it cannot read)."""
    try:
        files = parse_patch(patch, what)
    except CaseFailure:
        return []
    return [(f.path, n, t.rstrip("\n")) for f in files if not f.binary for h in f.hunks
            for n, t, is_added in h if is_added]
