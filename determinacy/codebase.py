"""The codebase at base_commit: local mirrors and fixed-string search of a tree, no checkout.

Side effects (git) live here and nowhere else. Arguments go to git as a list, never a shell;
patterns go through a file (`-f`), so a constant starting with `-` is a pattern, not a flag.
"""

from __future__ import annotations

import bisect
import itertools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from determinacy.config import Config, split_repo
from determinacy.errors import CaseError
from determinacy.store import Store

_ENV = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "LC_ALL": "C"}
_MATCH = re.compile(rb"([^\0]*)\0([0-9]+)\0([^\n]*)\n")


def git(git_dir: Path, *args: str, check: bool = True, timeout: float | None = None,
        input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    cmd = ["git", f"--git-dir={git_dir}", *args]
    p = subprocess.run(cmd, capture_output=True, env=_ENV, timeout=timeout, input=input)
    if check and p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, cmd, p.stdout, p.stderr)
    return p


def _is_git_dir(path: Path) -> Path | None:
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    if (path / ".git" / "HEAD").is_file():
        return path / ".git"
    return None


def ensure_mirror(store: Store, cfg: Config, repo: str) -> tuple[Path, bool]:
    """The git directory to search for `repo`, and whether it may be fetched into.

    A local mirror folder is used in place (read-only); a bundle file or the clone URL is
    cloned once into the store, shared by every benchmark.
    """
    local = cfg.mirror_path(repo)
    if local is not None and local.is_dir():
        found = _is_git_dir(local)
        if found is None:
            raise CaseError(f"local mirror {local} for {repo} is not a git repository",
                            transient=True)
        return found, False
    owner, name = split_repo(repo)
    dest = store.repo_dir(owner, name)
    with store.lock(f"repo-{owner}-{name}"):
        if _is_git_dir(dest):
            return dest, True
        source = str(local) if local is not None and local.is_file() else cfg.clone_url(repo)
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".tmp-{name}-"))
        try:
            p = subprocess.run(
                ["git", "clone", "--mirror", "--quiet", "--", source, str(tmp / "repo.git")],
                capture_output=True, env=_ENV,
            )
            if p.returncode != 0:
                msg = p.stderr.decode(errors="replace").strip().splitlines()
                raise CaseError(f"cannot clone {repo} from {source}: "
                                f"{msg[-1] if msg else 'git clone failed'}", transient=True)
            os.replace(tmp / "repo.git", dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return dest, True


def resolve_commit(store: Store, git_dir: Path, repo: str, commit: str, may_fetch: bool) -> str:
    def lookup() -> str | None:
        p = git(git_dir, "rev-parse", "--verify", "--quiet", "--end-of-options",
                f"{commit}^{{commit}}", check=False)
        return p.stdout.decode().strip() if p.returncode == 0 else None

    sha = lookup()
    if sha is None and may_fetch:
        owner, name = split_repo(repo)
        with store.lock(f"repo-{owner}-{name}"):
            git(git_dir, "fetch", "--quiet", "--prune", "origin", check=False)
        sha = lookup()
    if sha is None:
        raise CaseError(f"base commit {commit} does not exist in {repo}"
                        + (" (not even after a fetch)" if may_fetch else " (local mirror)"),
                        transient=True)
    return sha


def open_tree(store: Store, cfg: Config, repo: str, commit: str) -> tuple[Path, str]:
    """The git directory holding `repo` and the full sha of `commit` in it (cloning or
    fetching once when needed): what every search and read at base_commit starts from."""
    git_dir, may_fetch = ensure_mirror(store, cfg, repo)
    return git_dir, resolve_commit(store, git_dir, repo, commit, may_fetch)


def search_tree(git_dir: Path, commit: str, patterns: Sequence[str],
                excluded: Sequence[str] = ()) -> dict[str, str]:
    """Map each pattern found in the tree at `commit` to its first `path:line`.

    One `git grep -F` call prints every line that holds any pattern; which patterns each line
    holds is then read off those lines. (Asking git for the matches alone, `-o`, would hide a
    pattern that overlaps another match on the same line: `foo` inside a reported `foobar`.)
    """
    todo = sorted({p for p in patterns if p and "\n" not in p and "\0" not in p})
    if not todo:
        return {}
    prefix = f"{commit}:".encode()
    pathspec = ["--", ".", *excluded] if excluded else []
    with tempfile.TemporaryDirectory(prefix="determinacy-grep-") as tmp:
        pfile = Path(tmp) / "patterns"
        # Callers never pass lone surrogates (trivial_reason); surrogatepass keeps it total.
        pfile.write_bytes(b"".join(p.encode("utf-8", "surrogatepass") + b"\n" for p in todo))
        p = git(git_dir, "grep", "-F", "-n", "-z", "--text", "--no-color", "--no-textconv",
                "-f", str(pfile), commit, *pathspec, check=False)
    if p.returncode not in (0, 1):
        raise CaseError(f"git grep failed at {commit}: "
                        f"{p.stderr.decode(errors='replace').strip()}", transient=True)
    where: list[tuple[bytes, bytes]] = []
    texts: list[bytes] = []
    for m in _MATCH.finditer(p.stdout):
        raw = m.group(1)
        where.append((raw[len(prefix):] if raw.startswith(prefix) else raw, m.group(2)))
        texts.append(m.group(3))
    # git prints files in path order and lines in order: the first hit is the first location.
    joined = b"\n".join(texts)
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    found = {}
    for pattern in todo:
        at = joined.find(pattern.encode("utf-8", "surrogatepass"))
        if at != -1:
            path, line = where[bisect.bisect_right(starts, at) - 1]
            found[pattern] = f"{path.decode(errors='replace')}:{int(line)}"
    return found


def read_file(git_dir: Path, commit: str, path: str) -> str | None:
    """A file's text at `commit`, or None when there is no such file."""
    try:
        p = git(git_dir, "cat-file", "blob", f"{commit}:{path}", check=False)
    except (ValueError, UnicodeEncodeError):  # NUL or a lone surrogate: no such path
        return None
    return p.stdout.decode(errors="replace") if p.returncode == 0 else None
