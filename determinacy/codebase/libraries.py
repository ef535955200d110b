"""Code a solver reads that is not the repository's: folders and archives on disk (a standard
library's sources), searched in place by the same engine as a tree.

A library is listed once per content: its manifest (every kept file's path, size and
modification time, or an archive member's CRC) names a stored listing of (path, blob id),
the ids git would give the files, so the engine's stored batches cover each file once for
every constant, in every later run. Files are read where they are; one that changed since
its listing reads as missing (the engine then fails the case as transient, never absent).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import msgspec

from determinacy.errors import CaseFailure
from determinacy.store import Store, atomic_write, digest

# The search engine's name for libraries (its batches' folder): blob ids are content hashes,
# so every library shares one cache.
REPO = "libraries"


class Source(NamedTuple):
    """Files to read as one library: a folder or a zip, the members `wanted` keeps (by their
    path inside it, "/"-separated); a folder's subfolders `pruned` says (by their path) are
    not walked, and only its `roots` are. `grep` is the shell command a skeptic runs over the
    same files, `{constant}` standing for the quoted constant (nothing printed: absent);
    `words` lists the files holding it as a whole word, printing nothing when they are fewer
    than `{floor}`."""

    label: str  # what a receipt names: "python 3.11.7 standard library"
    path: Path
    wanted: Callable[[str], bool]
    grep: str
    words: str
    pruned: Callable[[str], bool] = lambda rel: False
    roots: tuple[str, ...] = ("",)
    version: str = ""  # a standard library's version, when the toolchain says it: "3.11.7"


def blob_id(data: bytes) -> str:
    """The id `git hash-object` gives these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def members(source: Source) -> list[tuple[str, int, int]]:
    """(path, size, mtime_ns or CRC) of every file the library keeps, in path order."""
    if zipfile.is_zipfile(source.path):
        with zipfile.ZipFile(source.path) as z:
            return sorted((i.filename, i.file_size, i.CRC) for i in z.infolist()
                          if not i.is_dir() and source.wanted(i.filename))
    found = []
    for top, dirs, files in (w for r in source.roots for w in os.walk(source.path / r)):
        rel = os.path.relpath(top, source.path).replace(os.sep, "/")
        dirs[:] = sorted(d for d in dirs if not source.pruned(d if rel == "." else f"{rel}/{d}"))
        for name in files:
            path = name if rel == "." else f"{rel}/{name}"
            try:
                st = os.stat(os.path.join(top, name))
            except OSError:
                continue
            if source.wanted(path) and os.path.isfile(os.path.join(top, name)):
                found.append((path, st.st_size, st.st_mtime_ns))
    return sorted(found)


@dataclass
class Library:
    source: Source
    entries: list[tuple[str, str]]  # (path, blob id), path order
    listing: str  # the stored object holding `entries`: what a cache key names

    def read(self, shas: list[str]) -> Iterator[tuple[str, bytes | None]]:
        """Each blob's bytes in the order of `shas`; None when its file is gone or changed."""
        where = {sha: path for path, sha in reversed(self.entries)}
        with _opened(self.source) as read:
            for sha in shas:
                data = read(where[sha]) if sha in where else None
                yield sha, data if data is not None and blob_id(data) == sha else None


def files(source: Source) -> Iterator[tuple[str, bytes | None]]:
    """Every kept file's bytes, read now (None: unreadable): what `verify` checks itself."""
    with _opened(source) as read:
        for path, _, _ in members(source):
            yield path, read(path)


@contextlib.contextmanager
def _opened(source: Source) -> Iterator[Callable[[str], bytes | None]]:
    """A reader of the library's files by path (None: unreadable), the archive open once."""
    if not zipfile.is_zipfile(source.path):
        yield lambda path: _quietly(lambda: (source.path / path).read_bytes())
        return
    with zipfile.ZipFile(source.path) as z:
        yield lambda path: _quietly(lambda: z.read(path))


def _quietly(read: Callable[[], bytes]) -> bytes | None:
    try:
        return read()
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


_LOADED: dict[tuple[Path, str], Library] = {}
_LOCK = threading.Lock()


def load(store: Store, source: Source) -> Library:
    """The library's listing: from the store when its manifest was listed before, else read
    (every file hashed once) and stored. Once per process for each manifest."""
    listed = members(source)
    if not listed:
        raise CaseFailure(f"{source.label}: no source files under {source.path}")
    manifest = digest(msgspec.json.encode([str(source.path), listed]))
    key = (store.root, manifest)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        ref = store.root / "libraries" / manifest
        stored = _stored(store, ref)
        if stored is None:
            entries = _listing(source)
            stored = store.put_json(entries), entries
            atomic_write(ref, stored[0].encode())
        _LOADED[key] = Library(source, stored[1], stored[0])
        return _LOADED[key]


def _listing(source: Source) -> list[tuple[str, str]]:
    """(path, blob id) of every file: each read and hashed once."""
    out = []
    for path, data in files(source):
        if data is None:
            raise CaseFailure(f"{source.label}: cannot read {path}", transient=True)
        out.append((path, blob_id(data)))
    return out


def _stored(store: Store, ref: Path) -> tuple[str, list[tuple[str, str]]] | None:
    """(listing object, entries) a run stored before."""
    try:
        name = ref.read_text().strip()
        return name, [(p, b) for p, b in msgspec.json.decode(store.get(name),
                                                              type=list[tuple[str, str]])]
    except (OSError, ValueError, msgspec.DecodeError):
        return None  # never listed, or a damaged entry: listed again
