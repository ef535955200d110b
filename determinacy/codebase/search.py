"""The codebase search engine: each distinct blob of a repository read once for every
constant of every task, and each (blob, constant) pair searched once, ever.

A *batch* searches a set of blobs for a set of constants and is stored (`SearchBatch`, an
object, named in `search/<version>/<repo>/`), so a new task, pass or candidate searches only
the pairs no batch covers. An answer for one tree maps the hits back to its entries: the first
entry in tree order whose blob holds the constant, and the line. A blob that cannot be read
covers nothing: absence stays unknown wherever it is (callers fail closed).
"""

from __future__ import annotations

import functools
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from determinacy import clock
from determinacy.codebase import repos
from determinacy.codebase.scan import IDENTIFIER, Scanner, first_line, searchable_constant
from determinacy.errors import CaseFailure
from determinacy.records import SearchBatch
from determinacy.store import Store, atomic_write, digest

# Bump when what a hit means changes (the forms searched, how lines count): old batches are
# then never read again.
VERSION = "2"
# Blobs are scanned in windows of about this many bytes (bounded memory, work for each core).
WINDOW = 4 << 20


@dataclass(frozen=True)
class Found:
    """One tree's answer: constant -> first "path:line", for hits and for case variants."""

    hits: dict[str, str]
    variants: dict[str, str]


Pair = tuple[bool, str]  # (variant, constant): what a batch searched
# Where blobs are read from: a git directory, or a function giving each sha's bytes (None: it
# cannot), each answer naming its sha, for blobs that are no one repository's (a library's
# files on disk, a tree with submodules read from their mirrors).
Reader = Callable[[list[str]], Iterator[tuple[str, bytes | None]]]
Blobs = Path | Reader


def _reader(src: Blobs) -> Reader:
    return functools.partial(repos.cat_blobs, src) if isinstance(src, Path) else src


@dataclass
class _Cache:
    """What the stored batches of one repository say, in memory."""

    loaded: set[str] = field(default_factory=set)
    blobsets: list[frozenset[str]] = field(default_factory=list)
    batches_of: dict[Pair, list[int]] = field(default_factory=dict)  # -> blobsets
    hits: dict[Pair, set[str]] = field(default_factory=dict)  # -> blobs holding it
    lines: dict[tuple[str, str, bool], int] = field(default_factory=dict)
    unions: dict[tuple[int, ...], frozenset[str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, batch: SearchBatch, blobs: list[str]) -> None:
        n = len(self.blobsets)
        self.blobsets.append(frozenset(blobs))
        for c, holding in zip(batch.constants, batch.found, strict=True):
            self.batches_of.setdefault((batch.variant, c), []).append(n)
            if holding:
                self.hits.setdefault((batch.variant, c), set()).update(
                    [blobs[b] for b in holding])
        self.unions.clear()

    def covered(self, pair: Pair) -> frozenset[str]:
        key = tuple(self.batches_of.get(pair, ()))
        if key not in self.unions:
            self.unions[key] = frozenset().union(*(self.blobsets[i] for i in key))
        return self.unions[key]

    def gaps(self, wants: Iterable[tuple[frozenset[str], Sequence[str]]], variant: bool
             ) -> tuple[set[str], set[str]]:
        """The blobs and constants of one batch covering every pair `wants` asks and no
        batch has searched (the union: searching a few more pairs costs less than a pass)."""
        blobs: set[str] = set()
        constants: set[str] = set()
        for tree_blobs, patterns in wants:
            by_cover: dict[tuple[int, ...], list[str]] = {}
            for c in patterns:
                by_cover.setdefault(tuple(self.batches_of.get((variant, c), ())), []).append(c)
            for group in by_cover.values():
                need = tree_blobs - self.covered((variant, group[0]))
                if need:
                    blobs |= need
                    constants.update(group)
        return blobs, constants

    def absent(self, tree_blobs: frozenset[str], patterns: Sequence[str]) -> list[str]:
        """The identifiers of `patterns` no blob of the tree holds exactly (known: covered)."""
        return [c for c in patterns if IDENTIFIER.fullmatch(c)
                and self.hits.get((False, c), set()).isdisjoint(tree_blobs)]


class Engine:
    """The search of one store (None: in memory only, for a process that keeps nothing)."""

    def __init__(self, store: Store | None):
        self.store = store
        self._caches: dict[str, _Cache] = {}
        self._lock = threading.Lock()

    def _index(self, repo: str) -> Path | None:
        if self.store is None:
            return None
        return self.store.root / "search" / VERSION / repo.replace("/", "+")

    def marked(self, repo: str, mark: str) -> bool:
        """Whether a caller noted `mark` (a digest of what it asked) as covered before."""
        index = self._index(repo)
        return index is not None and (index / "marks" / mark).exists()

    def mark(self, repo: str, marks: Iterable[str]) -> None:
        index = self._index(repo)
        if index is not None:
            for m in marks:
                atomic_write(index / "marks" / m, b"")

    def _cache(self, repo: str) -> _Cache:
        with self._lock:
            return self._caches.setdefault(repo, _Cache())

    def _load(self, repo: str, cache: _Cache) -> None:
        """Read the batches other runs (or processes) stored since the last look."""
        index = self._index(repo)
        if self.store is None or index is None or not index.is_dir():
            return
        for name in sorted(set(os.listdir(index)) - cache.loaded):
            if name.startswith(".") or name == "marks":
                continue
            try:
                data = self.store.get(name)
                batch = msgspec.json.decode(data, type=SearchBatch)
                listing = self.store.get(batch.blobs)
            except (OSError, msgspec.DecodeError):
                continue  # a damaged entry covers nothing: its pairs are searched again
            # A damaged object that still parses would say "absent" wrongly: check its hash.
            if digest(data) != name or digest(listing) != batch.blobs:
                continue
            blobs = listing.decode("ascii", "replace").split()
            if len(batch.found) != len(batch.constants):
                continue
            cache.loaded.add(name)
            cache.add(batch, blobs)

    def ensure(self, git_dir: Blobs, repo: str,
               wants: Iterable[tuple[frozenset[str], Sequence[str]]],
               variants: bool = True) -> None:
        """Search, in one pass over the blobs, every (blob, constant) pair of `wants` that no
        batch covers; then (`variants`), in a second pass, the identifiers a tree lacks in
        other letter case. Blobs that cannot be read are left uncovered."""
        cache = self._cache(repo)
        wants = [(b, [c for c in ps if searchable_constant(c)]) for b, ps in wants]
        with cache.lock:
            self._load(repo, cache)
            self._pass(git_dir, repo, cache, cache.gaps(wants, False), False)
            if not variants:
                return
            lacking = [(b, cache.absent(b, ps)) for b, ps in wants]
            self._pass(git_dir, repo, cache, cache.gaps(lacking, True), True)

    def _pass(self, git_dir: Blobs, repo: str, cache: _Cache,
              gap: tuple[set[str], set[str]], variant: bool) -> None:
        blobs, constants = gap
        if not blobs or not constants:
            return
        batch, read = _search(git_dir, sorted(blobs), sorted(constants), variant)
        if self.store is not None:
            listing = self.store.put("".join(f"{s}\n" for s in read).encode())
            batch = msgspec.structs.replace(batch, blobs=listing)
            name = self.store.put_json(batch)
            index = self._index(repo)
            assert index is not None
            atomic_write(index / name, b"")
            cache.loaded.add(name)
        cache.add(batch, read)

    def find(self, tree: repos.Tree, repo: str, patterns: Sequence[str],
             skipped: Sequence[str] = ()) -> Found:
        """Each pattern's first "path:line" in the tree (path order), over every readable
        blob of the entries `skipped` leaves in; for identifiers it lacks, the first in
        other letter case. Callers must not conclude absence where
        `tree.state(skipped).unread` is not empty. The files of the submodules read from
        their mirrors are the tree's, under their path."""
        hits, variants = self._first(tree.source, repo, tree.readable(skipped), patterns,
                                     tree.commit)
        return Found(hits=hits, variants=variants)

    def locate(self, git_dir: Blobs, repo: str, entries: Sequence[tuple[str, str]],
               patterns: Sequence[str], where: str) -> dict[str, str]:
        """Each pattern's first "label:line" over `entries` ((label, blob), in the order a
        reader is shown them): the same search as `find`, for blobs that are no tree's
        (an ancestor's changed files, a library's). Every blob must be readable."""
        return self._first(git_dir, repo, entries, patterns, where, variants=False)[0]

    def holding(self, repo: str, constant: str) -> frozenset[str]:
        """The blobs a stored batch found `constant` in (exactly)."""
        cache = self._cache(repo)
        with cache.lock:
            return frozenset(cache.hits.get((False, constant), ()))

    def _first(self, git_dir: Blobs, repo: str, entries: Sequence[tuple[str, str]],
               patterns: Sequence[str], where: str, variants: bool = True
               ) -> tuple[dict[str, str], dict[str, str]]:
        first: dict[str, tuple[int, str]] = {}
        for n, (label, sha) in enumerate(entries):
            first.setdefault(sha, (n, label))
        blobs = frozenset(first)
        todo = sorted({p for p in patterns if searchable_constant(p)})
        self.ensure(git_dir, repo, [(blobs, todo)], variants)
        cache = self._cache(repo)
        with cache.lock:
            unread, _ = cache.gaps([(blobs, todo)], False)
            if unread:
                raise CaseFailure(f"cannot read blob {min(unread)} at {where} (the mirror "
                                  "changed while it was read?)", transient=True)
            chosen: dict[tuple[str, str, bool], str] = {}  # (constant, blob, variant) -> label
            for c in todo:
                for variant in (False, True) if variants else (False,):
                    there = [first[b] for b in cache.hits.get((variant, c), ()) if b in first]
                    if there:
                        n, label = min(there)
                        chosen[(c, entries[n][1], variant)] = label
                        break
            lines = self._lines(git_dir, cache, list(chosen))
        hits = {c: f"{label}:{lines[(c, b, v)]}" for (c, b, v), label in chosen.items()
                if not v}
        cased = {c: f"{label}:{lines[(c, b, v)]}" for (c, b, v), label in chosen.items() if v}
        return hits, cased

    def _lines(self, git_dir: Blobs, cache: _Cache, wanted: list[tuple[str, str, bool]]
               ) -> dict[tuple[str, str, bool], int]:
        """The line of each (constant, blob, variant) a reader is shown: read from the blob
        once it is chosen, remembered for the process."""
        todo = sorted({b for c, b, v in wanted if (c, b, v) not in cache.lines})
        if todo:
            data = {sha: d for sha, d in _reader(git_dir)(todo) if d is not None}
            if lost := sorted(set(todo) - set(data)):
                raise CaseFailure(f"cannot read blob {lost[0]} (the mirror changed while it was "
                                "read?)", transient=True)
            for c, b, v in wanted:
                if (c, b, v) not in cache.lines and b in data:
                    cache.lines[(c, b, v)] = first_line(data[b], c, v)
        return {k: cache.lines[k] for k in wanted}


def _search(git_dir: Blobs, blobs: list[str], constants: list[str], variant: bool
            ) -> tuple[SearchBatch, list[str]]:
    """Every blob streamed once, every constant looked for in it: the batch and the blobs
    actually read (in order; the batch's indices refer to them). Windows of blobs are
    scanned while git inflates the next ones; at most a few are held at once. (The automaton
    searches without the interpreter lock but makes each match a Python object under it: on
    a pass with millions of matches, more scanning threads, or worker processes fed through
    pipes, measured no faster than one.)"""
    scanner = Scanner(constants, variant)
    read: list[str] = []
    found: list[list[int]] = [[] for _ in constants]
    kept: dict[int, bytes] = {}  # blobs scanned, not yet collected

    @clock.thread_cpu
    def scan(window: list[bytes]) -> list[set[int]]:
        return [scanner.scan(d) for d in window]

    def collect(start: int, done: Future[tuple[list[set[int]], float]]) -> None:
        holding, cpu = done.result()
        clock.handed(cpu)
        for b, holds in enumerate(holding, start):
            for c in holds:
                found[c].append(b)
            # Kept at hand: the variant pass reads the same blobs, and a case shows a line.
            repos.BLOBS.put(read[b], kept.pop(b))

    workers = max(1, min(4, os.cpu_count() or 1))
    pending: deque[tuple[int, Future[tuple[list[set[int]], float]]]] = deque()
    window: list[bytes] = []
    size = 0
    with ThreadPoolExecutor(workers) as pool:
        for sha, data in _reader(git_dir)(blobs):
            if data is None:
                continue
            kept[len(read)] = data
            read.append(sha)
            window.append(data)
            size += len(data)
            if size >= WINDOW:
                pending.append((len(read) - len(window), pool.submit(scan, window)))
                window, size = [], 0
                while len(pending) > 2 * workers:
                    collect(*pending.popleft())
        if window:
            pending.append((len(read) - len(window), pool.submit(scan, window)))
        while pending:
            collect(*pending.popleft())
    return SearchBatch(blobs="", constants=constants, variant=variant, found=found), read


_ENGINES: dict[str, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def engine(store: Store | None) -> Engine:
    """The process's engine for `store` (its in-memory cache is shared by every phase)."""
    key = str(store.root) if store is not None else ""
    with _ENGINES_LOCK:
        if key not in _ENGINES:
            _ENGINES[key] = Engine(store)
        return _ENGINES[key]
