"""What `run` would meet in the mirrors, checked before any audit (`determinacy validate`).

Each repository's configured mirror must exist and be a git repository or a git bundle, and a
sample of its tasks' base commits must be in it: a local mirror is never fetched into, so a
commit it lacks is an ERROR case at run time. Each problem is one line per repository, with
the rows it concerns counted, however many rows share it.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from determinacy import git
from determinacy.config import Config
from determinacy.errors import CaseFailure

# The first bytes of a git bundle (v2 or v3).
_BUNDLE = (b"# v2 git bundle\n", b"# v3 git bundle\n")


@dataclass(frozen=True)
class Row:
    """What the check needs of a task: its row, repository and base commit."""

    row: int
    repo: str
    base_commit: str


@dataclass
class Preflight:
    problems: list[str] = field(default_factory=list)  # each makes run's cases ERROR
    notes: list[str] = field(default_factory=list)  # what run will do, not a problem
    checked: int = 0  # base commits looked up


def _rows(n: int) -> str:
    return f"{n} row{'s' if n != 1 else ''}"


def sample(rows: Sequence[Row], most: int) -> list[Row]:
    """At most `most` rows, spread evenly from the first to the last (the same every run)."""
    if most <= 0:
        return []
    if len(rows) <= most:
        return list(rows)
    if most == 1:
        return [rows[0]]
    return [rows[round(i * (len(rows) - 1) / (most - 1))] for i in range(most)]


def check(cfg: Config, rows: Sequence[Row], commits: int = 20) -> Preflight:
    """The mirror of every repository the rows name, and `commits` base commits of each."""
    out = Preflight()
    by_repo: dict[str, list[Row]] = {}
    for r in rows:
        by_repo.setdefault(r.repo, []).append(r)
    unmirrored = []
    for repo, its in by_repo.items():
        local = cfg.mirror_path(repo)
        if local is None:
            unmirrored.append(repo)
            continue
        where = f"{_rows(len(its))} of repo {repo}"
        try:
            is_dir, exists = local.is_dir(), local.exists()
        except OSError as e:  # a name longer than the file system allows, a loop of links
            out.problems.append(f"mirror path {local} cannot be used ({e.strerror}): {where}")
            continue
        if not exists:
            if cfg.codebase.fallback_clone:
                out.notes.append(f"mirror {local} missing: {where} are cloned from "
                                 f"{cfg.clone_url(repo)} instead (codebase.fallback_clone)")
            else:
                out.problems.append(f"mirror {local} missing: {where} (codebase.mirror; set "
                                    "codebase.fallback_clone = true to clone instead)")
            continue
        if not is_dir:
            if not _is_bundle(local):
                out.problems.append(f"mirror {local} is neither a git repository nor a git "
                                    f"bundle: {where}")
            continue  # a bundle's commits are known once it is cloned into the store
        git_dir = git.git_dir_of(local)
        if git_dir is None:
            out.problems.append(f"mirror {local} is not a git repository (a bare repository or "
                                f"a clone): {where}")
            continue
        picked = sample(its, commits)
        out.checked += len(picked)
        if picked and (problem := _commits(git_dir, local, repo, picked)):
            out.problems.append(problem)
    if unmirrored:
        shown = ", ".join(unmirrored[:5]) + (f" and {len(unmirrored) - 5} more"
                                             if len(unmirrored) > 5 else "")
        out.notes.append(f"no mirror configured (codebase.mirror) for {shown}: run clones "
                         f"from {cfg.codebase.clone_url} (needs the network)")
    return out


def _is_bundle(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(16) in _BUNDLE
    except OSError:
        return False


def _commits(git_dir: Path, local: Path, repo: str, picked: list[Row]) -> str:
    """The base commits of `picked` the mirror lacks (or cannot tell apart), as one line."""
    names = [f"{r.base_commit}^{{commit}}" for r in picked]
    try:
        p = git.run(git_dir, "cat-file", "--batch-check",
                    input="".join(f"{n}\n" for n in names).encode())
    except CaseFailure as e:
        return f"mirror {local} cannot be read ({e}): {_rows(len(picked))} of repo {repo}"
    answers = p.stdout.decode(errors="replace").splitlines()
    if p.returncode != 0 or len(answers) != len(names):
        return (f"mirror {local} cannot be read (git cat-file: {git.stderr_reason(p.stderr)}): "
                f"{_rows(len(picked))} of repo {repo}")
    bad = [(r, a.rsplit(" ", 1)[-1]) for r, a in zip(picked, answers, strict=True)
           if a.split(" ", 2)[1:2] != ["commit"]]
    if not bad:
        return ""
    shown = ", ".join(f"{r.base_commit[:12]} (row {r.row}"
                      + (", ambiguous" if why == "ambiguous" else "") + ")" for r, why in bad[:5])
    more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
    return (f"mirror {local} lacks {len(bad)} of the {len(picked)} base commits checked of repo "
            f"{repo}: {shown}{more}; a local mirror is never fetched into: update it "
            f"(`git -C {shlex.quote(str(local))} fetch`) or point codebase.mirror at a "
            "complete one")
