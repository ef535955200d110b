"""What the pre-screens read of a patch: its files, its added lines with their `path:line`."""

from __future__ import annotations

from determinacy.errors import CaseFailure
from determinacy.proposer.patches import FileDiff, parse_patch


def normal(text: str) -> str:
    """Whitespace runs as one space, the ends stripped: indentation and wrapping differ
    between a diff and a prose quoting it."""
    return " ".join(text.split())


def files(patch: str, what: str) -> list[FileDiff]:
    """The patch's files; none when it does not parse (the case is an ERROR already, and a
    pre-screen claims nothing of what it cannot read)."""
    try:
        return parse_patch(patch, what)
    except CaseFailure:
        return []


def added(diffs: list[FileDiff]) -> list[tuple[str, int, str]]:
    """(path, line, text) of each added line, in order."""
    return [(f.path, n, t.rstrip("\n")) for f in diffs if not f.binary for h in f.hunks
            for n, t, is_added in h if is_added]
