"""The codebase at base_commit: mirrors, commit resolution, trees and their blobs, read
straight from the object store (no checkout). The search itself is `codebase/search.py`.

Side effects (git) live here and in `determinacy/git.py`. A claim of absence needs the whole
tree read, so a tree is opened with what it cannot give: blobs the mirror lacks (a partial or
size-capped clone) and submodules (their files live in another repository).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, NamedTuple

from determinacy import git
from determinacy.config import Config, split_repo
from determinacy.errors import CaseFailure
from determinacy.paths import is_test_path
from determinacy.records import TreeState, Unread
from determinacy.store import Store, digest

_HEX = re.compile(r"[0-9a-f]{7,64}")


class BlobCache:
    """Blob bytes by object id, shared by every tree of a run: trees of one repository share
    almost all their blobs, so each is read from git once. An object id names its content, so
    an entry never goes stale; bounded in bytes (least recently used out first)."""

    def __init__(self, max_bytes: int, max_blob: int):
        self.max_bytes, self.max_blob = max_bytes, max_blob
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # doit runs phases in threads

    def get(self, sha: str) -> bytes | None:
        with self._lock:
            data = self._data.get(sha)
            if data is not None:
                self._data.move_to_end(sha)
            return data

    def put(self, sha: str, data: bytes) -> None:
        if len(data) > self.max_blob:
            return
        with self._lock:
            if sha in self._data:
                return
            self._data[sha] = data
            self._size += len(data)
            while self._size > self.max_bytes:
                _, old = self._data.popitem(last=False)
                self._size -= len(old)


BLOBS = BlobCache(max_bytes=384 << 20, max_blob=4 << 20)


def ensure_mirror(store: Store, cfg: Config, repo: str) -> tuple[Path, bool]:
    """The git directory to search for `repo`, and whether the tool may fetch into it.

    A configured local mirror folder is used in place and never written to; a bundle file is
    cloned once into the store; without a mirror, the clone URL is. A configured mirror that
    does not exist is an error unless `codebase.fallback_clone` allows cloning instead.
    """
    local = cfg.mirror_path(repo)
    try:
        local_dir = local is not None and local.is_dir()
        absent = local is not None and not local.exists()
    except OSError as e:  # a name longer than the file system allows, a loop of links
        raise CaseFailure(f"the mirror path {local} configured for {repo} (codebase.mirror) "
                          f"cannot be used: {e.strerror}") from None
    if local is not None and local_dir:
        found = git.git_dir_of(local)
        if found is None:
            raise CaseFailure(f"local mirror {local} for {repo} is not a git repository",
                            transient=True)
        return found, False
    if local is not None and absent and not cfg.codebase.fallback_clone:
        raise CaseFailure(f"the mirror {local} configured for {repo} (codebase.mirror) does not "
                        "exist; fix the path, or set codebase.fallback_clone = true to clone "
                        f"from {cfg.clone_url(repo)} instead", transient=True)
    owner, name = split_repo(repo)
    dest = store.repo_dir(owner, name)
    with store.lock(f"repo-{owner}-{name}"):
        if git.git_dir_of(dest):
            return dest, True
        source = str(local) if local is not None and local.is_file() else cfg.clone_url(repo)
        if (why := git.check_transport(source)) is not None:
            raise CaseFailure(f"cannot clone {repo} from {source}: {why}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".tmp-{name}-"))
        try:
            p = git.transfer(["clone", "--mirror", "--quiet", "--", source,
                              str(tmp / "repo.git")], cwd=tmp, timeout=cfg.codebase.timeout)
            if p.returncode != 0:
                raise CaseFailure(f"cannot clone {repo} from {source}: "
                                f"{git.stderr_reason(p.stderr)}", transient=True)
            os.replace(tmp / "repo.git", dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return dest, True


def _commit_of(git_dir: Path, name: str) -> str | None:
    """The full sha of `name` when it is an unambiguous object-name prefix of a commit.

    Never a ref: a 7-character sha that is also a branch name must not resolve to the branch.
    """
    if len(name) == 40:  # a whole sha: asked of the repository's long-lived reader
        objects = _objects(git_dir, objects_state(git_dir))
        with objects.lock:
            kind = objects.kind(name)
        if kind is not None:
            return name if kind == "commit" else None
    p = git.run(git_dir, "rev-parse", f"--disambiguate={name}")
    objects = p.stdout.decode().split() if p.returncode == 0 else []
    if not objects:
        return None
    check = git.run(git_dir, "cat-file", "--batch-check", input="".join(
        f"{o}\n" for o in objects).encode())
    commits = [f[0] for f in (ln.split() for ln in check.stdout.decode().splitlines())
               if len(f) == 3 and f[1] == "commit"]
    if len(commits) > 1:
        raise CaseFailure(f"base commit {name} is ambiguous: {len(commits)} commits start with "
                        "it; give more of the sha")
    return commits[0] if commits else None


def resolve_commit(store: Store, cfg: Config, git_dir: Path, repo: str, commit: str,
                   may_fetch: bool) -> str:
    name = commit.strip().lower()
    if not _HEX.fullmatch(name):
        raise CaseFailure(f"base commit {commit!r} is not a commit hash")
    # Each phase of a case resolves it: the answer holds while the object store is unchanged
    # (a fetch could make a short sha ambiguous). Only a found commit is kept.
    key = (git_dir, name, objects_state(git_dir))
    if key in _RESOLVED:
        return _RESOLVED[key]
    sha = _commit_of(git_dir, name)
    if sha is None and may_fetch:
        owner, repo_name = split_repo(repo)
        with store.lock(f"repo-{owner}-{repo_name}"):
            git.transfer([f"--git-dir={git_dir}", "fetch", "--quiet", "--prune", "origin"],
                         cwd=git_dir, timeout=cfg.codebase.timeout)
        sha = _commit_of(git_dir, name)
        key = (git_dir, name, objects_state(git_dir))  # the store the answer is from
    if sha is None:
        raise CaseFailure(f"base commit {commit} does not exist in {repo}"
                        + (" (not even after a fetch)" if may_fetch else " (local mirror)"),
                        transient=True)
    _RESOLVED[key] = sha
    return sha


_RESOLVED: dict[tuple[Path, str, str], str] = {}


class Entry(NamedTuple):  # a tuple: a large tree has tens of thousands
    path: str
    mode: str
    kind: str  # blob | commit (a submodule's gitlink)
    sha: str


class Module(NamedTuple):
    """A submodule of a tree (a gitlink) and how it was read: from the local mirror
    `[codebase] submodules` maps it to (`tree`), or not (`why`)."""

    path: str  # its path in the tree that holds the gitlink
    commit: str  # the commit the gitlink names
    url: str = ""  # what .gitmodules says at that tree ("" when it says nothing)
    tree: Tree | None = None  # its tree at `commit`, read from its mirror
    mirror: str = ""  # the mapped mirror ("" when none is)
    why: str = ""  # why it is not read ("" when it is)

    def detail(self) -> str:
        """What an unread submodule's Unread says: the commit, the URL, why."""
        return (f"commit {self.commit}" + (f", url {self.url}" if self.url else "")
                + f"; {self.why}")


@dataclass
class Tree:
    """The tree at one commit of a mirror: its entries and what of it cannot be read. A
    submodule `[codebase] submodules` maps to a mirror having its commit is read from there
    (`modules`): its files count as the tree's, under its path."""

    git_dir: Path
    commit: str
    entries: list[Entry]
    missing: frozenset[str]  # blob shas the mirror lacks
    modules: tuple[Module, ...] = ()  # each gitlink of `entries` (none: not looked at)

    def searched(self, skipped: Sequence[str]) -> list[Entry]:
        """This repository's own entries a search leaving out the globs `skipped` reads."""
        return [e for e in self.entries if not (skipped and is_test_path(e.path, skipped))]

    def blobs(self, skipped: Sequence[str] = ()) -> frozenset[str]:
        """The readable blobs of this repository's own entries a search leaving out the
        globs `skipped` reads (those of submodules are in other mirrors: `readable`)."""
        return frozenset(e.sha for e in self.searched(skipped)
                         if e.kind == "blob" and e.sha not in self.missing)

    def files(self, skipped: Sequence[str] = ()) -> Iterator[tuple[str, Entry, Tree]]:
        """(path, entry, the tree it is an entry of) of every file a search leaving out the
        globs `skipped` reads, those of the submodules read under their path (nested ones
        too); a gitlink not read is an entry of kind "commit"."""
        for path, e, owner in self._all(""):
            if not (skipped and is_test_path(path, skipped)):
                yield path, e, owner

    def _all(self, prefix: str) -> Iterator[tuple[str, Entry, Tree]]:
        read = {m.path: m.tree for m in self.modules if m.tree is not None}
        for e in self.entries:
            sub = read.get(e.path) if e.kind == "commit" else None
            if sub is not None:
                yield from sub._all(f"{prefix}{e.path}/")
            else:
                yield prefix + e.path, e, self

    def readable(self, skipped: Sequence[str] = ()) -> list[tuple[str, str]]:
        """(path, blob) of every readable file `files` gives, in tree order."""
        return [(path, e.sha) for path, e, owner in self.files(skipped)
                if e.kind == "blob" and e.sha not in owner.missing]

    def state(self, skipped: Sequence[str] = ()) -> TreeState:
        """What a search leaving out the globs `skipped` reads, and what it cannot."""
        unread = []
        blobs = 0
        for path, e, owner in self.files(skipped):
            if e.kind == "commit":
                module = owner.module(e.path)
                unread.append(Unread(path=path, why="submodule",
                                     detail=module.detail() if module else ""))
            else:
                blobs += 1
                if e.sha in owner.missing:
                    unread.append(Unread(path=path, why="missing blob"))
        return TreeState(commit=self.commit, blobs=blobs, unread=unread,
                         ignored=ignored(self.git_dir))

    def module(self, path: str) -> Module | None:
        return next((m for m in self.modules if m.path == path), None)

    @functools.cached_property
    def _where(self) -> dict[str, Path]:
        """The git directory of each blob only a submodule's mirror holds."""
        if not any(m.tree is not None for m in self.modules):
            return {}
        own = {e.sha for e in self.entries if e.kind == "blob" and e.sha not in self.missing}
        out: dict[str, Path] = {}
        for _, e, owner in self.files():
            if owner is not self and e.kind == "blob" and e.sha not in own \
                    and e.sha not in owner.missing:
                out.setdefault(e.sha, owner.git_dir)
        return out

    @property
    def source(self) -> Path | Callable[[list[str]], Iterator[tuple[str, bytes | None]]]:
        """Where a search reads the blobs of `readable`: this mirror, or (submodules read)
        each blob from the mirror that holds it."""
        return self.git_dir if not self._where else self._cat

    def _cat(self, shas: list[str]) -> Iterator[tuple[str, bytes | None]]:
        """Each blob's bytes (None: no mirror gives it), grouped by the mirror read (each
        answer names its sha)."""
        by: dict[Path, list[str]] = {}
        for sha in shas:
            by.setdefault(self._where.get(sha, self.git_dir), []).append(sha)
        for git_dir, part in by.items():
            yield from cat_blobs(git_dir, part)

    def _read(self, shas: list[str]) -> Iterator[tuple[str, bytes]]:
        """Each blob's bytes: from the run's cache, the others streamed through one
        `git cat-file --batch` per mirror (and cached)."""
        for sha, data in self._cat(shas):
            if data is None:
                raise CaseFailure(f"cannot read blob {sha} at {self.commit} (the mirror changed "
                                "while it was read?)", transient=True)
            BLOBS.put(sha, data)
            yield sha, data

    @functools.cached_property
    def _blobs(self) -> dict[str, str]:
        """Path -> sha of every readable blob (built once: post-images read many files)."""
        if not any(m.tree is not None for m in self.modules):
            return {e.path: e.sha for e in self.entries
                    if e.kind == "blob" and e.sha not in self.missing}
        return dict(self.readable())

    def lacks(self, path: str) -> bool:
        """`path` is in the tree, but what it holds cannot be read here (a blob the mirror
        lacks, a submodule not read): unknown, never "no such file"."""
        return path in self._unreadable

    @functools.cached_property
    def _unreadable(self) -> frozenset[str]:
        return frozenset(path for path, e, owner in self.files()
                         if e.kind == "commit" or e.sha in owner.missing)

    def preload(self, paths: Iterable[str]) -> None:
        """Bring the blobs of `paths` into the run's cache through one `git cat-file --batch`
        (per mirror), so reading each of them (`read`) costs no process of its own."""
        shas = sorted({self._blobs[p] for p in paths if p in self._blobs})
        for _ in self._read([s for s in shas if BLOBS.get(s) is None]):
            pass

    def read(self, path: str) -> str | None:
        """A file's text at the commit, or None when there is no such readable file."""
        sha = self._blobs.get(path)
        if sha is None:
            return None
        data = BLOBS.get(sha)
        if data is None:
            p = git.run(self._where.get(sha, self.git_dir), "cat-file", "blob", sha)
            if p.returncode:
                return None
            data = p.stdout
            BLOBS.put(sha, data)
        return data.decode(errors="replace")


def cat_blobs(git_dir: Path, shas: list[str]) -> Iterator[tuple[str, bytes | None]]:
    """Each blob's bytes in the order of `shas` (None: the mirror cannot give it): from the
    run's cache, the others streamed through one `git cat-file --batch`."""
    cached = {s: d for s in shas if (d := BLOBS.get(s)) is not None}
    fresh = _cat(git_dir, [s for s in shas if s not in cached])
    try:
        for sha in shas:
            data = cached.get(sha)
            if data is None:
                got, data = next(fresh)
                assert got == sha  # `fresh` reads the uncached ones in the same order
            yield sha, data
    finally:
        fresh.close()  # a reader that stops early ends the git process


def _cat(git_dir: Path, shas: list[str]) -> Iterator[tuple[str, bytes | None]]:
    if not shas:
        return
    proc = git.popen(git_dir, "cat-file", "--batch")
    assert proc.stdin is not None and proc.stdout is not None

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):
            for s in shas:
                proc.stdin.write(f"{s}\n".encode())  # type: ignore[union-attr]
            proc.stdin.close()  # type: ignore[union-attr]

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        for n, sha in enumerate(shas):
            answer = _answer(proc.stdout, sha)
            if answer is False:  # out of step: nothing after it can be trusted
                for rest in shas[n:]:
                    yield rest, None
                return
            yield sha, answer[1] if answer else None
    finally:
        proc.kill()
        proc.wait()
        writer.join()


def _tree_items(data: bytes) -> list[tuple[str, str, str]]:
    """(mode, name, sha) of each entry of a raw tree object, in its order."""
    out = []
    at = 0
    while at < len(data):
        space = data.index(b" ", at)
        nul = data.index(b"\0", space)
        out.append((data[at:space].decode(), data[space + 1:nul].decode("utf-8", "replace"),
                    data[nul + 1:nul + 21].hex()))
        at = nul + 21
    return out


def _answer(stdout: IO[bytes], sha: str) -> tuple[str, bytes] | None | Literal[False]:
    """One answer of `git cat-file --batch` to `sha`: (type, bytes); None when the object is
    missing; False when the answer is out of step (or there is none)."""
    header = stdout.readline().split()
    if len(header) == 2 and header[0].decode() == sha and header[1] == b"missing":
        return None
    if len(header) != 3 or header[0].decode() != sha:
        return False
    data = stdout.read(int(header[2]))
    stdout.read(1)
    return header[1].decode(), data


def list_tree(git_dir: Path, commit: str, state: str | None = None) -> Tree:
    """Every entry of the tree at `commit`, and which of its blobs the mirror lacks.

    Read through the repository's long-lived object readers (`_Objects`): trees of one
    repository share most subtrees, and two processes per repository replace two per tree.
    `state` is `objects_state(git_dir)` when the caller has it."""
    state = objects_state(git_dir) if state is None else state
    objects = _objects(git_dir, state)
    with objects.lock:
        entries = objects.entries(commit)
    blobs = [e.sha for e in entries if e.kind == "blob"]
    return Tree(git_dir=git_dir, commit=commit, entries=entries,
                missing=absent_blobs(git_dir, blobs, [commit], state))


def absent_blobs(git_dir: Path, blobs: list[str], commits: Sequence[str],
                 state: str | None = None) -> frozenset[str]:
    """Which of `blobs` (of the trees at `commits`) the mirror lacks."""
    state = objects_state(git_dir) if state is None else state
    objects = _objects(git_dir, state)
    with objects.lock:
        missing = objects.missing(blobs) if not objects.partial else objects.known(blobs)
    if missing is None:  # a partial clone: ask in the way that never fetches
        survey(git_dir, commits, state)
        with objects.lock:
            missing = objects.known(blobs)
        if missing is None:
            raise CaseFailure(f"incomplete tree: cannot tell which objects at {commits[0]} "
                              "the mirror holds", transient=True)
    return missing


def survey(git_dir: Path, commits: Sequence[str], state: str | None = None) -> None:
    """In a partial clone, learn which objects of the trees at `commits` the store holds,
    through one `rev-list --missing=print` (which lists what is absent without fetching it):
    asked per tree, the process costs more than the answer. Elsewhere it does nothing: a
    blob's presence is asked of `cat-file --batch-check` as its tree is listed."""
    objects = _objects(git_dir, objects_state(git_dir) if state is None else state)
    if not objects.partial or not commits:
        return
    r = git.run(git_dir, "rev-list", "--objects", "--no-walk", "--missing=print", "--stdin",
                input="".join(f"{c}\n" for c in commits).encode())
    if r.returncode != 0:
        raise CaseFailure(f"incomplete tree: cannot list the objects at {commits[0]}"
                        f"{' and others' if len(commits) > 1 else ''} "
                        f"({git.stderr_reason(r.stderr)})", transient=True)
    with objects.lock:
        for ln in r.stdout.splitlines():
            if ln.startswith(b"?"):
                objects.present[ln[1:].decode()] = False
            elif ln:
                objects.present[ln.split(b" ", 1)[0].decode()] = True


class _Objects:
    """One object store read through `git cat-file --batch` (commits and trees) and
    `--batch-check` (whether a blob is there, without reading it; no lazy fetch: see
    `git.popen`). Answers are cached: they hold while the store's fingerprint does."""

    def __init__(self, git_dir: Path):
        self.git_dir = git_dir
        self.lock = threading.Lock()
        # A partial clone's missing objects are "promised": asking for one tries a fetch,
        # so presence is asked of `rev-list --missing=print` instead (`survey`).
        self.partial = any((git_dir / "objects" / "pack").glob("*.promisor"))
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._trees: dict[tuple[str, str], list[Entry]] = {}  # (tree, prefix) -> its files
        self.present: dict[str, bool] = {}  # blob sha -> in the store (asked once)

    def _proc(self, mode: str) -> subprocess.Popen[bytes]:
        proc = self._procs.get(mode)
        if proc is None or proc.poll() is not None:
            proc = self._procs[mode] = git.popen(self.git_dir, "cat-file", mode)
        return proc

    def close(self) -> None:
        for proc in self._procs.values():
            proc.kill()
            proc.wait()
        self._procs.clear()

    def _object(self, sha: str, commit: str) -> tuple[str, bytes]:
        return self._batch([sha], commit)[sha]

    def _batch(self, shas: list[str], commit: str) -> dict[str, tuple[str, bytes]]:
        """Objects `shas`, asked a pipe's worth at a time: one round trip for many."""
        proc = self._proc("--batch")
        assert proc.stdin is not None and proc.stdout is not None
        out: dict[str, tuple[str, bytes]] = {}
        for i in range(0, len(shas), 512):  # 21 KiB of names: git reads them all before
            part = shas[i:i + 512]          # it writes, so neither side waits on the other
            proc.stdin.write("".join(f"{s}\n" for s in part).encode())
            proc.stdin.flush()
            for sha in part:
                answer = _answer(proc.stdout, sha)
                if not answer:
                    if answer is False:
                        self.close()  # out of step or gone: start afresh next time
                    raise CaseFailure(
                        f"incomplete tree: cannot list the tree at {commit} (object {sha} "
                        + ("is missing)" if answer is None else "gave no answer)"),
                        transient=True)
                out[sha] = answer
        return out

    def entries(self, commit: str) -> list[Entry]:
        kind, data = self._object(commit, commit)
        if kind != "commit" or not data.startswith(b"tree "):
            raise CaseFailure(f"incomplete tree: {commit} is not a commit ({kind})",
                            transient=True)
        root = data[5:data.index(b"\n")].decode()
        read = self._new_trees(root, commit)
        return list(self._flat(root, "", read))  # a copy: the kept lists stay kept

    def _new_trees(self, root: str, commit: str) -> dict[str, list[tuple[str, str, str]]]:
        """The tree objects under `root` not yet listed at their place, read a level of the
        tree at a time (asked one by one, a tree of 6,000 folders was 6,000 round trips)."""
        read: dict[str, list[tuple[str, str, str]]] = {}
        level = [(root, "")]
        while level := [(t, p) for t, p in level if (t, p) not in self._trees]:
            got = self._batch(sorted({t for t, _ in level} - set(read)), commit)
            for tree, (kind, data) in got.items():
                if kind != "tree":
                    raise CaseFailure(f"incomplete tree: cannot list the tree at {commit} "
                                      f"(object {tree} is a {kind})", transient=True)
                read[tree] = _tree_items(data)
            level = [(sha, f"{prefix}{name}/") for tree, prefix in level
                     for mode, name, sha in read[tree] if mode == "40000"]
        return read

    def _flat(self, tree: str, prefix: str,
              read: dict[str, list[tuple[str, str, str]]]) -> list[Entry]:
        """Every file under `tree`, its path under `prefix`, in `git ls-tree -r` order. Kept
        by (tree, prefix): a commit's listing is then made of the lists of the subtrees it
        shares with others, and only a changed subtree makes new entries."""
        key = (tree, prefix)
        if key in self._trees:
            return self._trees[key]
        out: list[Entry] = []
        for mode, name, sha in read[tree]:
            if mode == "40000":
                out.extend(self._flat(sha, f"{prefix}{name}/", read))
            else:
                out.append(Entry(prefix + name, mode.zfill(6),
                                 "commit" if mode == "160000" else "blob", sha))
        self._trees[key] = out
        return out

    def kind(self, sha: str) -> str | None:
        """The type of object `sha` (`missing` when the store lacks it); None when git gives
        no answer."""
        proc = self._proc("--batch-check")
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{sha}\n".encode())
        proc.stdin.flush()
        answer = proc.stdout.readline().split()
        if not answer or answer[0].decode() != sha:
            self.close()  # out of step or gone: start afresh next time
            return None
        return answer[1].decode()

    def missing(self, shas: list[str]) -> frozenset[str] | None:
        """The blobs of `shas` the store does not have (asked once each); None when git
        gives no answer (then it is asked of `rev-list`)."""
        unknown = sorted({s for s in shas if s not in self.present})
        for i in range(0, len(unknown), 512):  # a pipe's worth each way
            part = unknown[i:i + 512]
            proc = self._proc("--batch-check")
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("".join(f"{s}\n" for s in part).encode())
            proc.stdin.flush()
            for sha in part:
                answer = proc.stdout.readline().split()
                if not answer or answer[0].decode() != sha:
                    self.close()  # never a guess: the caller lists the tree another way
                    self.partial = True
                    return None
                self.present[sha] = answer[1:2] != [b"missing"]
        return frozenset(s for s in shas if not self.present[s])

    def known(self, shas: list[str]) -> frozenset[str] | None:
        """The blobs of `shas` a survey found missing; None unless it saw every one."""
        present = self.present
        if any(s not in present for s in shas):
            return None
        return frozenset(s for s in shas if not present[s])


# The readers of the few repositories in use (each holds two git processes).
_OBJECTS: OrderedDict[Path, tuple[str, _Objects]] = OrderedDict()
_OBJECTS_LOCK = threading.Lock()


def _objects(git_dir: Path, state: str) -> _Objects:
    """The readers of `git_dir` for its current fingerprint (a changed store starts afresh)."""
    with _OBJECTS_LOCK:
        held = _OBJECTS.get(git_dir)
        if held is not None and held[0] == state:
            _OBJECTS.move_to_end(git_dir)
            return held[1]
        if held is not None:
            del _OBJECTS[git_dir]
            _retire(held[1])
        _OBJECTS[git_dir] = (state, _Objects(git_dir))
        while len(_OBJECTS) > 8:
            _retire(_OBJECTS.popitem(last=False)[1][1])
        return _OBJECTS[git_dir][1]


def _retire(objects: _Objects) -> None:
    with objects.lock:  # a reader still listing a tree finishes first
        objects.close()


@atexit.register
def _close_objects() -> None:
    with _OBJECTS_LOCK:
        for _, objects in _OBJECTS.values():
            objects.close()


def open_tree(store: Store, cfg: Config, repo: str, commit: str) -> Tree:
    """The tree of `repo` at `commit` (cloning or fetching once when needed), its mapped
    submodules read from their mirrors: what every search and read at base_commit starts
    from. The phases of one case each open it: the listing is kept for as long as the object
    stores are unchanged."""
    return with_submodules(cfg, repo, listed(*resolve(store, cfg, repo, commit)))


# Submodules inside submodules are read this deep at most (a cycle of mirrors ends sooner).
MAX_NESTING = 8
UNMAPPED = "no mirror for it in [codebase] submodules"


def with_submodules(cfg: Config, repo: str, tree: Tree) -> Tree:
    """`tree` with each gitlink looked at (`Tree.modules`): a submodule `[codebase]
    submodules` maps to a mirror that has its commit is read from there (and its own
    submodules in turn); any other stays unread, with why. Never fetched: a URL in
    .gitmodules is the repository's say, and what it serves changes over time."""
    if not any(e.kind == "commit" for e in tree.entries):
        return tree
    mirrors = tuple((k, str(cfg.resolve(cfg.codebase.submodules[k])))
                    for k in cfg.submodule_keys(repo))
    key = (tree.git_dir, tree.commit, objects_state(tree.git_dir), repo, cfg.clone_url(repo),
           mirrors, tuple(_dir_state(Path(m)) for _, m in mirrors))
    with _EXPANDED_LOCK:
        if key in _EXPANDED:
            _EXPANDED.move_to_end(key)
            return _EXPANDED[key]
    out = _expand(cfg, repo, tree, "", cfg.clone_url(repo), frozenset())
    with _EXPANDED_LOCK:
        _EXPANDED[key] = out
        while len(_EXPANDED) > 64:
            _EXPANDED.popitem(last=False)
    return out


_EXPANDED: OrderedDict[tuple[object, ...], Tree] = OrderedDict()
_EXPANDED_LOCK = threading.Lock()


def _expand(cfg: Config, repo: str, tree: Tree, prefix: str, url: str,
            seen: frozenset[tuple[Path, str]]) -> Tree:
    """`tree` (at `prefix` in the repository, fetched from `url`) with its gitlinks read."""
    links = [e for e in tree.entries if e.kind == "commit"]
    if not links:
        return tree
    urls = gitmodules(tree)
    modules = []
    for e in links:
        sub_url = absolute_url(urls.get(e.path, ""), url)
        mapped = cfg.submodule_mirror(repo, prefix + e.path, sub_url)
        if mapped is None:
            modules.append(Module(e.path, e.sha, sub_url, why=UNMAPPED))
            continue
        sub, why = _module_tree(mapped, e.sha, seen)
        if sub is not None:
            sub = _expand(cfg, repo, sub, f"{prefix}{e.path}/", sub_url or str(mapped[1]),
                          seen | {(sub.git_dir, e.sha)})
        modules.append(Module(e.path, e.sha, sub_url, tree=sub, mirror=str(mapped[1]),
                              why=why))
    return dataclasses.replace(tree, modules=tuple(modules))


def _module_tree(mapped: tuple[str, Path], commit: str, seen: frozenset[tuple[Path, str]]
                 ) -> tuple[Tree | None, str]:
    """The tree at `commit` of the mirror `[codebase] submodules` maps (key, folder), or
    (None, why not)."""
    key, mirror = mapped
    where = f"its mirror {mirror} ([codebase] submodules: {key})"
    try:
        git_dir = git.git_dir_of(mirror)
    except OSError as err:
        return None, f"{where} cannot be used: {err.strerror}"
    if git_dir is None:
        return None, f"{where} is not a git repository"
    if (git_dir, commit) in seen or len(seen) >= MAX_NESTING:
        return None, f"nested more than {MAX_NESTING} deep (or in a cycle)"
    if not _has_commit(git_dir, commit):
        return None, f"{where} lacks the commit"
    try:
        return listed(git_dir, commit), ""
    except CaseFailure as err:
        return None, f"{where} cannot list it ({err})"


def _has_commit(git_dir: Path, sha: str) -> bool:
    p = git.run(git_dir, "cat-file", "-t", sha)
    return p.returncode == 0 and p.stdout.strip() == b"commit"


def gitmodules(tree: Tree) -> dict[str, str]:
    """Submodule path -> URL, as the tree's .gitmodules says ({} when it says nothing)."""
    entry = next((e for e in tree.entries if e.path == ".gitmodules" and e.kind == "blob"
                  and e.sha not in tree.missing), None)
    return dict(_gitmodules(tree.git_dir, entry.sha)) if entry is not None else {}


@functools.lru_cache(maxsize=256)
def _gitmodules(git_dir: Path, blob: str) -> tuple[tuple[str, str], ...]:
    # git's own reading of the file (quoting, sections); includes are off for a blob.
    p = git.run(git_dir, "config", f"--blob={blob}", "-z", "--list")
    if p.returncode:
        return ()
    paths: dict[str, str] = {}
    urls: dict[str, str] = {}
    for item in p.stdout.decode("utf-8", "replace").split("\0"):
        key, _, value = item.partition("\n")
        section, _, rest = key.partition(".")
        name, _, var = rest.rpartition(".")
        if section == "submodule" and name and var == "path":
            paths[name] = value
        elif section == "submodule" and name and var == "url":
            urls[name] = value
    return tuple(sorted((path, urls.get(name, "")) for name, path in paths.items()))


def absolute_url(url: str, base: str) -> str:
    """A .gitmodules URL as git reads it: `./x` and `../x` are relative to the URL of the
    repository that holds it (`base`)."""
    if not url.startswith(("./", "../")) or not base:
        return url
    at = base.rstrip("/")
    at = at[:-4] if at.endswith(".git") else at
    rest = url
    while rest.startswith(("./", "../")):
        if rest.startswith("../"):
            cut = max(at.rfind("/"), at.rfind(":"))
            at = at[:cut] if cut > 0 else at
        rest = rest.split("/", 1)[1]
    return f"{at}/{rest}"


def resolve(store: Store, cfg: Config, repo: str, commit: str) -> tuple[Path, str]:
    """The mirror of `repo` (cloned or fetched once when needed) and the full sha of
    `commit` in it."""
    git_dir, may_fetch = ensure_mirror(store, cfg, repo)
    return git_dir, resolve_commit(store, cfg, git_dir, repo, commit, may_fetch)


def listed(git_dir: Path, sha: str) -> Tree:
    """The tree at a resolved commit, kept for as long as the object store is unchanged."""
    return _listed(git_dir, sha, objects_state(git_dir))


@functools.lru_cache(maxsize=64)  # a repository's search lists its cases' trees first
def _listed(git_dir: Path, commit: str, state: str) -> Tree:
    return list_tree(git_dir, commit, state)


def describe(u: Unread) -> str:
    if u.why == "submodule":
        return f"{u.path} (submodule: {u.detail or 'its files are in another repository'})"
    if u.why == "shallow history":
        return f"the history {u.path} (the mirror is shallow)"
    if u.why == "no sources":
        return f"the {u.path} (no sources found: set [codebase] stdlib_paths)"
    if u.why == "older version":
        return f"the {u.path} of the declared version ({u.detail}: set [codebase] stdlib_paths)"
    if u.scope == "history":
        return f"{u.path} in history ({u.why})"
    if u.scope == "dependencies":
        return f"dependency {u.path} ({u.why}{': ' + u.detail if u.detail else ''})"
    return f"{u.path} ({u.why}, " + (f"{u.size} bytes)" if u.size >= 0 else "size unknown)")


def describe_unread(unread: Sequence[Unread], limit: int = 5) -> str:
    shown = ", ".join(describe(u) for u in unread[:limit])
    more = f" and {len(unread) - limit} more" if len(unread) > limit else ""
    return shown + more


# How `unread_summary` counts each (scope, why) of an Unread: (one, several).
_KINDS = {
    ("", "missing blob"): ("1 blob missing", "{n} blobs missing"),
    ("", "submodule"): ("a submodule", "{n} submodules"),
    ("history", "missing blob"): ("1 history blob missing", "{n} history blobs missing"),
    ("history", "shallow history"): ("shallow history", "shallow history"),
    ("stdlib", "no sources"): ("no standard-library sources",
                               "no sources of {n} standard libraries"),
    ("stdlib", "older version"): ("an older standard library", "{n} older standard libraries"),
    ("dependencies", "missing blob"): ("1 manifest blob missing", "{n} manifest blobs missing"),
    ("dependencies", "unparsed"): ("a manifest unparsed", "{n} manifests unparsed"),
    ("dependencies", "not pinned"): ("a dependency not pinned", "{n} dependencies not pinned"),
    ("dependencies", "fetch failed"): ("a dependency not fetched",
                                       "{n} dependencies not fetched"),
}


def unread_summary(unread: Sequence[Unread]) -> str:
    """What of a tree and its scopes could not be read, counted by kind ("1 blob missing, a
    submodule"): the detail `determinacy.causes` groups an incomplete tree's cases by."""
    counts: dict[tuple[str, str], int] = {}
    for u in unread:
        counts[(u.scope, u.why)] = counts.get((u.scope, u.why), 0) + 1
    order = list(_KINDS)  # a fixed order: two cases missing the same kinds read the same
    parts = []
    for kind, n in sorted(counts.items(), key=lambda kv: (
            order.index(kv[0]) if kv[0] in order else len(order), kv[0])):
        one, several = _KINDS.get(kind, (f"1 {kind[1]}", f"{{n}} {kind[1]}"))
        parts.append(one if n == 1 else several.format(n=n))
    return ", ".join(parts)


def _first_up(s: str) -> str:
    return s[:1].upper() + s[1:]


def require_complete(state: TreeState, cfg: Config) -> None:
    """Fail closed: absence over a tree that was not read whole is unknown. (Not transient,
    but for a failed fetch: the mirror's state is part of what makes the phase stale, see
    `mirror_state`.)"""
    if state.unread and cfg.policy.unreadable == "error":
        ways = []
        if any(u.why == "submodule" for u in state.unread):
            ways.append("map each submodule to a local mirror ([codebase] submodules, by path "
                        "or URL)")
        if any(u.why != "submodule" for u in state.unread):
            ways.append("use a complete mirror (README: complete mirrors)")
        raise CaseFailure(
            f"incomplete {'tree' if not state.unread[0].scope else 'scope'} at {state.commit} "
            f"({unread_summary(state.unread)}): {describe_unread(state.unread)} could not be "
            f"read, so absence cannot be concluded. {_first_up('; or '.join(ways))}; or set "
            '[policy] unreadable = "exclude" to certify over the readable part, counted apart.',
            # A fetch that failed may succeed next run (a mirror's state is tracked apart).
            transient=any(u.why == "fetch failed" for u in state.unread))


def mirror_state(cfg: Config, repo: str) -> str:
    """A cheap fingerprint of what a mirror holds: its pack files, alternates and loose-object
    folders (a fetch adds a pack, a copied object changes its folder). Objects are never
    rewritten in place, so an unchanged fingerprint means the same readable trees. The
    mirrors `[codebase] submodules` names for the repository count too (a mapping added, a
    commit fetched into one, makes its cases stale)."""
    own = _mirror_state(cfg, repo)
    subs = "".join(f"\nsubmodule {k}: {_dir_state(cfg.resolve(cfg.codebase.submodules[k]))}"
                   for k in cfg.submodule_keys(repo))
    return own + subs


def mirror_bytes(cfg: Config, repo: str) -> int:
    """The size of a local mirror's packs (a bundle's size; 0 when unknown): how much its
    search reads, roughly, to schedule the largest first."""
    local = cfg.mirror_path(repo)
    try:
        if local is None or not local.exists():
            return 0
        if local.is_file():
            return local.stat().st_size
        git_dir = git.git_dir_of(local)
        packs = (git_dir / "objects" / "pack").glob("*.pack") if git_dir else ()
        return sum(p.stat().st_size for p in packs)
    except OSError:
        return 0


def _dir_state(path: Path) -> str:
    """`objects_state` of a mirror folder ("" when it is none)."""
    try:
        git_dir = git.git_dir_of(path)
    except OSError as e:
        return f"unusable: {e.strerror}"
    return objects_state(git_dir) if git_dir is not None else ""


def _mirror_state(cfg: Config, repo: str) -> str:
    local = cfg.mirror_path(repo)
    try:
        if local is None or not local.exists():
            return ""  # a clone the tool made itself, whole (it fetches only for a missing one)
        if local.is_file():  # a bundle, cloned into the store once
            st = local.stat()
            return f"bundle {st.st_size} {st.st_mtime_ns}"
    except OSError as e:  # opening it says so, as the case's error
        return f"unusable: {e.strerror}"
    git_dir = git.git_dir_of(local)
    return objects_state(git_dir) if git_dir is not None else ""


def ignored(git_dir: Path) -> list[str]:
    """What of the mirror `git.run` ignores and a skeptic's `git clone --mirror` would copy:
    replace refs (loose or packed) and a grafts file. Read from the files, no process, once
    per state of those files (a mirror's packed-refs can be large and every case asks)."""
    stamp = []
    for part in ("packed-refs", "refs/replace", "info/grafts"):
        try:
            st = (git_dir / part).stat()
            stamp.append((st.st_size, st.st_mtime_ns))
        except OSError:
            stamp.append(None)
    return list(_ignored(git_dir, tuple(stamp)))


@functools.lru_cache(maxsize=64)
def _ignored(git_dir: Path, stamp: tuple[object, ...]) -> tuple[str, ...]:
    refs = {str(p.relative_to(git_dir)) for p in (git_dir / "refs" / "replace").rglob("*")
            if p.is_file()}
    with contextlib.suppress(OSError):
        refs |= {ln.split(" ", 1)[1] for ln in (git_dir / "packed-refs")
                 .read_text(errors="replace").splitlines()
                 if ln[:1] not in ("#", "^") and " refs/replace/" in ln}
    out = [f"{len(refs)} replace ref{'s' if len(refs) > 1 else ''} (refs/replace/)"] if refs else []
    with contextlib.suppress(OSError):
        if (git_dir / "info" / "grafts").read_text(errors="replace").strip():
            out.append("a grafts file (info/grafts)")
    return tuple(out)


def objects_state(git_dir: Path) -> str:
    """Stat-based fingerprint of a git directory's object store (packs, alternates, loose
    object folders): about 260 stats, no object read."""
    objects = git_dir / "objects"
    parts = []
    for p in sorted([*objects.glob("pack/*"), *objects.glob("info/*"), objects,
                     *objects.glob("[0-9a-f][0-9a-f]")]):
        with contextlib.suppress(OSError):
            st = p.stat()
            parts.append(f"{p.relative_to(git_dir)} {st.st_size} {st.st_mtime_ns}")
    return digest("\n".join(parts).encode())
