"""Absence over recent history: what the first-parent commits before base held (method §6).

A solver reads `git log`: a name a recent commit removed, and the task restores, is not
unknowable. The files an ancestor held that base does not are exactly the old sides of the
changes between them, so one `git log --raw` over the last N commits lists every blob to
search, each with the commit that last held it. A shallow mirror that ends inside those N
commits cannot say what came before: that end is unread, never absent.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from determinacy import git
from determinacy.errors import CaseFailure

_NULL = "0" * 40


class Held(NamedTuple):
    """A blob an ancestor held at `path`, changed or removed by the commit after it."""

    commit: str  # the ancestor that holds it
    path: str
    blob: str
    mode: str


class Walk(NamedTuple):
    ancestors: list[str]  # the first-parent commits before base read, nearest first
    held: list[Held]  # nearest ancestor first, then path order
    shallow: str  # the commit whose parents the mirror lacks ("" when none)


def parse_log(out: bytes) -> list[tuple[str, list[str], list[tuple[str, str, str]]]]:
    """`git log -z --raw --format=%x01%H %P` -> (commit, parents, [(mode, blob, path)] of the
    old side of each change against the first parent). Pure."""
    commits = []
    for chunk in out.split(b"\x01")[1:]:
        head, _, rest = chunk.partition(b"\0")
        shas = head.decode("ascii", "replace").split()
        fields = rest.lstrip(b"\n").split(b"\0")
        old = []
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            parts = meta.decode("ascii", "replace").lstrip(":").split()
            if len(parts) == 5 and parts[2] != _NULL:
                old.append((parts[0], parts[2], path.decode("utf-8", "surrogateescape")))
        commits.append((shas[0], shas[1:], old))
    return commits


def walk(git_dir: Path, commit: str, depth: int) -> Walk:
    """The blobs the `depth` first-parent commits before `commit` held that it does not."""
    p = git.run(git_dir, "log", "--first-parent", "--diff-merges=first-parent", "--raw",
                "--no-renames", "--no-abbrev", "-z", "--format=%x01%H %P", f"-n{depth}",
                commit, "--")
    if p.returncode:
        raise CaseFailure(f"cannot read the history before {commit}: "
                          f"{git.stderr_reason(p.stderr)}", transient=True)
    shallow = _shallow(git_dir)
    ancestors: list[str] = []
    held: list[Held] = []
    end = ""
    for sha, parents, old in parse_log(p.stdout):
        if not parents:  # the first commit, or where a shallow mirror ends
            end = sha if sha in shallow else ""
            break
        ancestors.append(parents[0])
        held += sorted(Held(parents[0], path, blob, mode) for mode, blob, path in old
                       if mode not in ("160000", "000000"))
    return Walk(ancestors=ancestors, held=held, shallow=end)


def _shallow(git_dir: Path) -> frozenset[str]:
    try:
        return frozenset((git_dir / "shallow").read_text().split())
    except OSError:
        return frozenset()


def described(ancestors: list[str]) -> str:
    """What was read, for receipts: base's own tree is the tree scope."""
    if not ancestors:
        return "history: nothing before base (its first commit)"
    n = len(ancestors)
    span = ancestors[0][:12] if n == 1 else f"{ancestors[0][:12]} back to {ancestors[-1][:12]}"
    return f"history: {n} first-parent commit{'s' if n > 1 else ''} before base ({span})"


def command(commit: str, ancestors: int, excluded: Sequence[str]) -> str:
    """What a skeptic runs: git grep over the trees of base and the ancestors read (nothing
    printed when absent from all of them). `{constant}` stands for the quoted constant."""
    cmd = (f"git grep -F -n -e {{constant}} $(git rev-list --first-parent -n {ancestors + 1} "
           f"{shlex.quote(commit)})")
    if excluded:
        cmd += " -- . " + " ".join(shlex.quote(p) for p in excluded)
    return cmd
