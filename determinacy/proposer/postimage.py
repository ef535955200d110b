"""Post-images: each file as a patch leaves it, built in memory from its blob at base.

A hunk alone is often not valid syntax: it may start inside a docstring or a string, so a
parser sees ERROR nodes where the file has none. The whole file after the patch parses as the
author's editor did, and each of its lines is known to be added or not.

Applying is exact, never fuzzy: every context and removed line must be the base's line at the
position its hunk header gives (after CRLF -> LF, which `parse_patch` applies to the patch
too; the file's last line may differ in its final newline, or a final lone "\\r" the
normalization took from the diff). A patch that does not fit its base is not guessed at: the
result is then a *fragment*, the hunks' new sides joined, with the reason why. Nothing here
raises on a patch's content.

Line numbers are split by "\\n" only, as git, unidiff and tree-sitter count rows (never
`str.splitlines`, which also splits on "\\x0c", "\\u2028" and others).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from determinacy.proposer.patches import FileDiff, RawHunk


@dataclass(frozen=True)
class PostImage:
    path: str
    text: str  # the whole file after the patch (LF line ends)
    added: frozenset[int]  # 1-based line numbers in `text` that the patch added
    # True when the base file was not available or did not match the hunks: `text` is then only
    # the hunks' new sides joined (a blank line between two hunks), so its syntax is partial.
    fragment: bool
    new_file: bool  # the patch creates the file
    why: str = ""  # when fragment: why ("no repository", "base file missing", "context ...")
    # For a fragment, the real file's new-side line number of each line of `text` (0 for the
    # blank line between two hunks); empty otherwise, where the lines are the file's own.
    line_map: tuple[int, ...] = field(default=(), repr=False)

    @cached_property
    def _lines(self) -> list[str]:
        return self.text.split("\n")

    def line(self, n: int) -> str:
        """Line `n` (1-based) of `text`, "" past its ends; the text is split once."""
        return self._lines[n - 1] if 0 < n <= len(self._lines) else ""


def file_line(img: PostImage, line: int) -> int:
    """The new-side line number in the real file of line `line` of `img.text` (what a receipt
    prints as `path:line`): the identity unless `img` is a fragment. 0 for the blank line a
    fragment puts between two hunks, which is no line of the file."""
    if not img.fragment:
        return line
    if not 1 <= line <= len(img.line_map):
        raise ValueError(f"{img.path}: line {line} is not in the fragment "
                         f"(1..{len(img.line_map)})")
    return img.line_map[line - 1]


def base_line(fd: FileDiff, line: int) -> int:
    """The base_commit line of post-image line `line` that the patch kept (context or
    outside every hunk): new-side numbers shift by what the hunks before it add and remove."""
    delta = 0  # new-side minus old-side line number past the hunks so far
    for h in fd.raw:
        old = h.source_start if h.source_length else h.source_start + 1
        new = old + delta
        if line < new:
            break
        for tag, _ in h.lines:
            if tag == " ":
                if new == line:
                    return old
                old, new = old + 1, new + 1
            elif tag == "-":
                old += 1
            else:
                new += 1
        delta = new - old
    return line - delta


def post_images(files: list[FileDiff],
                read: Callable[[str], str | None] | None) -> list[PostImage]:
    """The post-image of each text file `files` leaves (a deleted or binary one leaves none),
    reading bases with `read` (e.g. `Tree.read`; None: no repository, every image a fragment).
    """
    out: list[PostImage] = []
    for fd in files:
        if fd.binary:
            continue
        if fd.new_file:
            out.append(apply(fd, None))
            continue
        if read is None:
            out.append(_fragment(fd, "no repository"))
            continue
        base = read(fd.old_path or fd.path)
        if base is None and fd.old_path:
            # unidiff calls any two differing header names a rename, also a non-git diff's
            # `--- x.py.orig` / `+++ x.py`; the context check below rejects a wrong file.
            base = read(fd.path)
        out.append(_fragment(fd, "base file missing") if base is None else apply(fd, base))
    return out


def apply(diff: FileDiff, base_text: str | None) -> PostImage:
    """`diff` applied to `base_text` (the file at base; ignored for a new file, whose base is
    empty). A fragment, with `why`, when the base is None or does not match the hunks."""
    if diff.binary:
        return _fragment(diff, "binary diff")
    if diff.new_file:
        base_text = ""
    elif base_text is None:
        return _fragment(diff, "base file missing")
    if diff.hunks and not diff.raw:
        # A FileDiff built by hand, without the old sides: nothing to check the base against.
        return _fragment(diff, "the diff carries no old side to check the base against")
    result = _patched(base_text.replace("\r\n", "\n"), diff.raw)
    if isinstance(result, str):
        return _fragment(diff, result)
    text, added = result
    return PostImage(diff.path, text, added, fragment=False, new_file=diff.new_file)


def _patched(base: str, hunks: list[RawHunk]) -> tuple[str, frozenset[int]] | str:
    """The patched text and its added lines, or why the hunks do not apply. One pass over the
    base and the hunks: base lines between hunks are copied as slices, never searched."""
    old = base.split("\n")
    old_nl = old[-1] == ""  # the base ends with a newline (or is empty)
    if old_nl:
        old.pop()
    n = len(old)
    out: list[str] = []  # lines without their "\n"
    added: list[int] = []
    nl = True  # whether the last line put in `out` ends with "\n": only the file's last may not
    pos = 0  # the next base line (0-based) not yet copied or consumed
    for h in hunks:
        # `-s,0` (nothing removed or kept) inserts after line s; `-s,l` starts at line s.
        start = h.source_start - 1 if h.source_length else h.source_start
        if start < pos:
            return f"context mismatch at line {max(start, 0) + 1} (hunks overlap or are out " \
                   "of order)"
        if start > n:
            return f"context mismatch at line {start + 1} (the base has {n} lines)"
        if start > pos:
            if not nl:
                return f"context mismatch at line {pos + 1} (the patch ends the file before it)"
            out.extend(old[pos:start])
            nl = start < n or old_nl
        i = start
        for op, value in h.lines:
            has_nl = value.endswith("\n")
            text = value[:-1] if has_nl else value
            if op != "+":
                if i >= n:
                    return f"context mismatch at line {i + 1} (the base has {n} lines)"
                if i == n - 1:
                    # The last line: its final newline (and a lone "\r" before the end, which
                    # the diff's CRLF normalization may have eaten) is tolerated.
                    ok = old[i].rstrip("\r") == text.rstrip("\r")
                else:
                    ok = has_nl and old[i] == text
                if not ok:
                    return f"context mismatch at line {i + 1}"
                i += 1
                if op == "-":
                    continue
                text = old[i - 1]  # a kept line is the base's own
            if not nl:
                return f"context mismatch at line {i} (the patch ends the file before it)"
            out.append(text)
            nl = has_nl  # the new side says whether this line has its "\n"
            if op == "+":
                added.append(len(out))
        pos = i
    if pos < n:
        if not nl:
            return f"context mismatch at line {pos + 1} (the patch ends the file before it)"
        out.extend(old[pos:])
        nl = old_nl
    return "\n".join(out) + ("\n" if out and nl else ""), frozenset(added)


def _fragment(diff: FileDiff, why: str) -> PostImage:
    """The hunks' new sides (context and added lines) joined, a blank line between two hunks,
    with the map back to the real file's line numbers."""
    parts: list[str] = []
    line_map: list[int] = []
    added: list[int] = []
    for hunk in diff.hunks:
        if not hunk:
            continue  # a hunk that only removes (-U0) has no new side to show
        if parts:
            parts.append("\n")
            line_map.append(0)
        for ln, text, is_added in hunk:
            parts.append(text if text.endswith("\n") else text + "\n")
            line_map.append(ln)
            if is_added:
                added.append(len(line_map))
    return PostImage(diff.path, "".join(parts), frozenset(added), fragment=True,
                     new_file=diff.new_file, why=why, line_map=tuple(line_map))
