"""The codebase at base_commit: mirrors, commit resolution, trees and their blobs, read
straight from the object store (no checkout). The search itself is `codebase/search.py`.

Side effects (git) live here and in `determinacy/git.py`. A claim of absence needs the whole
tree read, so a tree is opened with what it cannot give: blobs the mirror lacks (a partial or
size-capped clone) and submodules (their files live in another repository).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
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


@dataclass
class Tree:
    """The tree at one commit of a mirror: its entries and what of it cannot be read."""

    git_dir: Path
    commit: str
    entries: list[Entry]
    missing: frozenset[str]  # blob shas the mirror lacks

    def searched(self, skipped: Sequence[str]) -> list[Entry]:
        return [e for e in self.entries if not (skipped and is_test_path(e.path, skipped))]

    def blobs(self, skipped: Sequence[str] = ()) -> frozenset[str]:
        """The readable blobs a search leaving out the globs `skipped` reads."""
        return frozenset(e.sha for e in self.searched(skipped)
                         if e.kind == "blob" and e.sha not in self.missing)

    def state(self, skipped: Sequence[str] = ()) -> TreeState:
        """What a search leaving out the globs `skipped` reads, and what it cannot."""
        unread = []
        entries = self.searched(skipped)
        for e in entries:
            if e.kind == "commit":
                unread.append(Unread(path=e.path, why="submodule"))
            elif e.sha in self.missing:
                unread.append(Unread(path=e.path, why="missing blob"))
        return TreeState(commit=self.commit, blobs=sum(e.kind == "blob" for e in entries),
                         unread=unread, ignored=ignored(self.git_dir))

    def _read(self, shas: list[str]) -> Iterator[tuple[str, bytes]]:
        """Each blob's bytes in the order of `shas`: from the run's cache, the others
        streamed through one `git cat-file --batch` (and cached)."""
        for sha, data in cat_blobs(self.git_dir, shas):
            if data is None:
                raise CaseFailure(f"cannot read blob {sha} at {self.commit} (the mirror changed "
                                "while it was read?)", transient=True)
            BLOBS.put(sha, data)
            yield sha, data

    @functools.cached_property
    def _blobs(self) -> dict[str, str]:
        """Path -> sha of every readable blob (built once: post-images read many files)."""
        return {e.path: e.sha for e in self.entries
                if e.kind == "blob" and e.sha not in self.missing}

    def lacks(self, path: str) -> bool:
        """`path` is in the tree, but what it holds cannot be read here (a blob the mirror
        lacks, a submodule): unknown, never "no such file"."""
        return path in self._unreadable

    @functools.cached_property
    def _unreadable(self) -> frozenset[str]:
        return frozenset(e.path for e in self.entries
                         if e.kind == "commit" or e.sha in self.missing)

    def preload(self, paths: Iterable[str]) -> None:
        """Bring the blobs of `paths` into the run's cache through one `git cat-file --batch`,
        so reading each of them (`read`) costs no process of its own."""
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
            p = git.run(self.git_dir, "cat-file", "blob", sha)
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
        proc = self._proc("--batch")
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{sha}\n".encode())
        proc.stdin.flush()
        answer = _answer(proc.stdout, sha)
        if not answer:
            if answer is False:
                self.close()  # out of step or gone: start afresh next time
            raise CaseFailure(f"incomplete tree: cannot list the tree at {commit} (object {sha} "
                            + ("is missing)" if answer is None else "gave no answer)"),
                            transient=True)
        return answer

    def entries(self, commit: str) -> list[Entry]:
        kind, data = self._object(commit, commit)
        if kind != "commit" or not data.startswith(b"tree "):
            raise CaseFailure(f"incomplete tree: {commit} is not a commit ({kind})",
                            transient=True)
        root = data[5:data.index(b"\n")].decode()
        return list(self._flat(root, commit))  # a copy: the kept lists are never handed out

    def _flat(self, tree: str, commit: str, prefix: str = "") -> list[Entry]:
        """Every file under `tree`, its path under `prefix`, in `git ls-tree -r` order. Kept
        by (tree, prefix): a commit's listing is then made of the lists of the subtrees it
        shares with others, and only a changed subtree makes new entries."""
        key = (tree, prefix)
        if key in self._trees:
            return self._trees[key]
        kind, data = self._object(tree, commit)
        if kind != "tree":
            raise CaseFailure(f"incomplete tree: cannot list the tree at {commit} (object {tree} "
                            f"is a {kind})", transient=True)
        out: list[Entry] = []
        at = 0
        while at < len(data):
            space = data.index(b" ", at)
            nul = data.index(b"\0", space)
            mode = data[at:space].decode()
            name = data[space + 1:nul].decode("utf-8", "replace")
            sha = data[nul + 1:nul + 21].hex()
            at = nul + 21
            if mode == "40000":
                out.extend(self._flat(sha, commit, f"{prefix}{name}/"))
            else:
                out.append(Entry(prefix + name, mode.zfill(6),
                                 "commit" if mode == "160000" else "blob", sha))
        self._trees[key] = out
        return out

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
    """The tree of `repo` at `commit` (cloning or fetching once when needed): what every
    search and read at base_commit starts from. The phases of one case each open it: the
    listing is kept for as long as the object store is unchanged."""
    return listed(*resolve(store, cfg, repo, commit))


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
        return f"{u.path} (submodule: its files are in another repository)"
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


def require_complete(state: TreeState, cfg: Config) -> None:
    """Fail closed: absence over a tree that was not read whole is unknown. (Not transient,
    but for a failed fetch: the mirror's state is part of what makes the phase stale, see
    `mirror_state`.)"""
    if state.unread and cfg.policy.unreadable == "error":
        raise CaseFailure(
            f"incomplete {'tree' if not state.unread[0].scope else 'scope'} at {state.commit}: "
            f"{describe_unread(state.unread)} could not be read, so absence cannot be "
            "concluded. Use a complete mirror (README: complete mirrors) or set [policy] "
            'unreadable = "exclude" to certify over the readable part, counted apart.',
            # A fetch that failed may succeed next run (a mirror's state is tracked apart).
            transient=any(u.why == "fetch failed" for u in state.unread))


def mirror_state(cfg: Config, repo: str) -> str:
    """A cheap fingerprint of what a mirror holds: its pack files, alternates and loose-object
    folders (a fetch adds a pack, a copied object changes its folder). Objects are never
    rewritten in place, so an unchanged fingerprint means the same readable trees."""
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
