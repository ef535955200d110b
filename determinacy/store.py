"""The content-addressed store: objects, action cache, refs, tables, repositories.

Layout (see store/README.md):

    objects/ab/<hash>            immutable blobs, blake3 of their bytes
    ac/ab/<key>.json             action cache: key -> {"output": <object hash>, "seal": ...}
    locks/<key>                  one flock per action key (and per repository); locks/store:
                                 shared by every run, alone by `store gc` (`share`, `alone`)
    refs/<benchmark>/...         small JSON files doit tracks (targets / file_deps)
    tables/<benchmark>/*.parquet consolidated tables, one file per table
    scores/<benchmark>/...       results, validity revisions and scores (determinacy/score/)
    repos/<owner>/<name>.git     bare mirrors shared by every benchmark
    doit/<benchmark>.sqlite      doit's dependency database (a cache only)

Nothing is edited in place: every write goes to a temporary name in the same folder, is
fsynced and renamed, so a kill at any moment leaves either the old or the new file.

`reach` and `collect` are `store gc`: what each benchmark's tables, refs and scores reach is
kept, the rest of the objects and action entries goes (see `Reach`).

Nothing read back is trusted either: an object is hashed on every read and an action entry
is sealed to its key, so a flipped byte, a truncated file or an entry copied from another key
reads as missing, is removed and computed again (counted as `repaired`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import mmap
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import blake3
import msgspec

from determinacy.errors import StoreError


def digest(data: bytes) -> str:
    return blake3.blake3(data).hexdigest()


_NAME = re.compile(r"[0-9a-f]{64}")


def is_object_name(h: object) -> bool:
    """What `digest` gives: a name read back (from an entry, a ref) that is anything else
    (`../../x`) names no object, and no path is ever made of it."""
    return isinstance(h, str) and _NAME.fullmatch(h) is not None


class DamagedObject(FileNotFoundError):
    """An object whose bytes do not hash to its name: removed, so it reads as missing (and
    every reader that recomputes a missing object recomputes it)."""


def seal(*parts: str | bytes) -> str:
    """What ties a stored record to its place and content (an action entry to its key, a ref
    to its case and phase, a validity revision to its bytes): one copied elsewhere, or edited,
    no longer matches. Against damage, not against someone who rewrites the store on purpose
    (`verify` re-checks claims against git for that)."""
    return digest(b"\0".join(p.encode() if isinstance(p, str) else p for p in parts))[:32]


def write_failure(path: Path, e: OSError) -> StoreError:
    cause = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
             errno.EROFS: "the file system is read-only",
             errno.EACCES: "permission denied", errno.EPERM: "permission denied"}.get(
                 e.errno or 0, e.strerror or str(e))
    return StoreError(f"cannot write {path}: {cause}. Nothing written so far is lost; free "
                      "the space or fix the permissions and run again to resume.")


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask


# A file the store or runs/ gets has the mode `open` would give it: mkstemp makes it 0600,
# which would hide reports from the rest of a group that shares the folder.
FILE_MODE = 0o666 & ~_umask()


def temp_file(folder: Path) -> tuple[int, str]:
    """A new `.tmp-*.part` file in `folder` (a name no reader's glob matches), mode
    FILE_MODE: its descriptor and name."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".part")
    os.fchmod(fd, FILE_MODE)
    return fd, tmp


# A temporary file older than this was left by a killed process: no write takes so long.
STALE_SECONDS = 3600.0


def is_stale_temp(p: Path) -> bool:
    try:
        return p.name.startswith(".tmp-") and time.time() - p.lstat().st_mtime > STALE_SECONDS
    except OSError:
        return False


def _fsynced_temp(path: Path, data: bytes) -> str:
    """`data` in a new temporary file beside `path`, on disk: its name."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = temp_file(path.parent)
    except OSError as e:
        raise write_failure(path, e) from None
    with _unlinked_on_failure(path, tmp):
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    return tmp


@contextlib.contextmanager
def _unlinked_on_failure(path: Path, tmp: str) -> Iterator[None]:
    """On any failure the temporary file goes; an OSError says what the disk refused."""
    try:
        yield
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise write_failure(path, e) from None
        raise


def atomic_write(path: Path, data: bytes) -> None:
    tmp = _fsynced_temp(path, data)
    with _unlinked_on_failure(path, tmp):
        os.replace(tmp, path)


def create_once(path: Path, data: bytes) -> bool:
    """Write `path` unless it exists (then leave it alone): False when it existed. Records
    that are only ever added (never rewritten) are written this way."""
    tmp = _fsynced_temp(path, data)
    try:
        os.link(tmp, path)  # fails if `path` exists: never replaces it
        return True
    except FileExistsError:
        return False
    except OSError as e:
        raise write_failure(path, e) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_if_changed(path: Path, data: bytes) -> bool:
    """Keep the old file (and its mtime) when the bytes are the same: doit then sees no change."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    atomic_write(path, data)
    return True


def write_below(root: Path, rel: str, data: bytes) -> bool:
    """`write_if_changed(root / rel)`, through no link: a symbolic link in the way (a planted
    case folder, a REPORT.md pointing elsewhere) is removed and replaced by a real folder or
    file, never followed out of `root`. `root` itself may be a link the user chose."""
    at = root
    for part in Path(rel).parts:
        at = at / part
        if at.is_symlink():
            try:
                at.unlink()
            except OSError as e:
                raise write_failure(at, e) from None
    return write_if_changed(root / rel, data)


class ActionKey(msgspec.Struct, frozen=True, omit_defaults=True):
    phase: str
    version: str
    params: dict[str, str | int | bool | list[str]] = {}
    inputs: dict[str, str] = {}  # logical name -> object hash


class Stats:
    """Counts what a run computed versus served from the action cache (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.computed: dict[str, int] = {}
        self.cached: dict[str, int] = {}
        self.repaired: list[str] = []  # damaged entries removed, to be computed again

    def add(self, phase: str, cached: bool) -> None:
        with self._lock:
            d = self.cached if cached else self.computed
            d[phase] = d.get(phase, 0) + 1


def _entry_bytes(key: str, output: str) -> bytes:
    return msgspec.json.encode({"output": output, "seal": seal(key, output)}, order="sorted")


def _object_path(h: str) -> str:
    """Where object `h` is, relative to the store's root (DamagedObject for a name that is
    none: it could point anywhere)."""
    if not is_object_name(h):
        raise DamagedObject(f"{h[:80]!r} is not an object name")
    return f"objects/{h[:2]}/{h}"


class Store:
    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self.stats = Stats()
        self._shared: BinaryIO | None = None  # locks/store while `share`d

    # -- objects -------------------------------------------------------------------------
    def _obj(self, h: str) -> Path:
        return self.root / _object_path(h)

    def put(self, data: bytes) -> str:
        h = digest(data)
        p = self._obj(h)
        try:  # a truncated object is rewritten here; a flipped byte, when it is next read
            same = p.stat().st_size == len(data)
        except OSError:
            same = False
        if not same:
            atomic_write(p, data)
        return h

    def get(self, h: str) -> bytes:
        """The bytes of object `h`, checked against their name (DamagedObject, which is a
        FileNotFoundError, when they do not hash to it: the object is then removed)."""
        # A string, not a Path: a no-op run of a large benchmark reads one per phase and case.
        rel = _object_path(h)
        with open(f"{self.root}/{rel}", "rb") as f:
            data = f.read()
        if digest(data) != h:
            self._discard(self.root / rel)
            raise DamagedObject(f"damaged object {rel}: its bytes hash "
                                f"to {digest(data)}; removed, run again to recompute it")
        return data

    def intact(self, h: str) -> bool:
        """Whether object `h` is there and hashes to its name (a damaged one is removed)."""
        try:
            self.get(h)
            return True
        except (OSError, ValueError):
            return False

    def _discard(self, p: Path) -> None:
        with contextlib.suppress(OSError):
            p.unlink()
        self.stats.repaired.append(str(p.relative_to(self.root)))

    def put_json(self, obj: object) -> str:
        return self.put(msgspec.json.encode(obj, order="sorted"))

    # -- locks ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, name: str) -> Iterator[None]:
        p = self.root / "locks" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "a+b") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    # -- action cache --------------------------------------------------------------------
    def _ac(self, key: str) -> Path:
        return self.root / "ac" / key[:2] / f"{key}.json"

    def action(self, key: ActionKey, compute: Callable[[], bytes]) -> str:
        """Return the output object of `key`, computing it at most once across processes.

        `compute` may raise; nothing is cached then, so the next run tries again.
        """
        k = digest(msgspec.json.encode(key, order="sorted"))
        path = self._ac(k)
        with self.lock(f"ac-{k}"):
            out = self._entry(path, k)
            if out is not None and self.intact(out):
                self.stats.add(key.phase, cached=True)
                return out
            out = self.put(compute())
            atomic_write(path, _entry_bytes(k, out))
            self.stats.add(key.phase, cached=False)
            return out

    def _entry(self, path: Path, key: str) -> str | None:
        """The output an action entry names, None when there is none or it is damaged (not
        JSON, not sealed to `key`: then it is removed). An entry written before entries
        were sealed is trusted as it was, and sealed now."""
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        try:
            entry = msgspec.json.decode(raw)
            out = entry["output"]
            ok = is_object_name(out) and (
                entry.get("seal", None) in (None, seal(key, out)))
        except (msgspec.DecodeError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok:
            self._discard(path)
            return None
        if "seal" not in entry:
            atomic_write(path, _entry_bytes(key, out))
        return out

    def check_writable(self) -> None:
        """Fail at once, naming the cause, rather than midway (or as a "corrupted" doit db)."""
        probe = self.root / "locks" / ".write-probe"
        atomic_write(probe, b"")
        with contextlib.suppress(OSError):
            probe.unlink()

    def sweep(self) -> int:
        """Remove the temporary files (and folders) killed processes left: how many."""
        gone = 0
        tops = [t for t in self.root.iterdir() if t.is_dir() and t.name != "repos"]
        for p in sorted((p for t in tops for p in t.rglob(".tmp-*")), reverse=True):
            if not is_stale_temp(p):
                continue
            with contextlib.suppress(OSError):
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p)
                else:
                    p.unlink()
                gone += 1
        return gone

    # -- verification --------------------------------------------------------------------
    def verify(self) -> Iterator[str]:
        """Every mismatch in the store: an object whose bytes do not hash to its name, an
        action entry that does not parse or names a missing or damaged object."""
        bad: set[str] = set()
        for p in sorted((self.root / "objects").glob("*/*")):
            if p.name.startswith(".tmp-"):
                continue
            h = digest(p.read_bytes())
            if h != p.name or p.parent.name != p.name[:2]:
                bad.add(p.name)
                yield f"object {p.relative_to(self.root)}: its bytes hash to {h}"
        for p in sorted((self.root / "ac").glob("*/*.json")):
            where = p.relative_to(self.root)
            try:
                entry = msgspec.json.decode(p.read_bytes())
                out = entry["output"]
                assert is_object_name(out)
            except (msgspec.DecodeError, KeyError, TypeError, AssertionError):
                yield f"action {where}: not a valid entry"
                continue
            if entry.get("seal", seal(p.stem, out)) != seal(p.stem, out):
                yield f"action {where}: its output {out} is not the one sealed to its key"
            elif out in bad:
                yield f"action {where}: its output {out} is damaged"
            elif not self._obj(out).is_file():
                yield f"action {where}: its output {out} is missing"

    # -- merging -------------------------------------------------------------------------
    def merge(self, sources: list[Store], replace: bool = False) -> dict[str, int]:
        """Copy into this store what `sources` hold and it does not (`store merge`): objects,
        action entries, refs (agent passes too), the search cache, library listings, package
        sources, source reads, scores and validity revisions. All of it is named by what it
        holds or by its place, so stores agree wherever two have a file: a file of one name
        with other bytes in two of them is an error naming both, raised before anything is
        copied. An object that does not hash to its name is damaged: another store's copy
        is taken, or none. Not copied: mirrors, doit's db, locks, tables (written again from
        the refs) and each run's own source manifest. `replace`: where this store and a
        source differ, the source's wins (the executor's shard stores are the newer state of
        the same shards); the sources must still agree among themselves. Returns the files
        copied per folder."""
        have: dict[Path, Path] = {}  # relative path -> the file that gives it
        clash: list[str] = []
        for store in [*sources, self] if replace else [self, *sources]:
            for top in MERGED:
                for p in _files(store.root / top):
                    rel = p.relative_to(store.root)
                    if not p.is_file() or p.name.startswith(".") or rel.parts[0] == "refs" \
                            and rel.name == "source.json" and len(rel.parts) == 3:
                        continue
                    if top == "objects":
                        # Named by their bytes: two intact copies are one; a damaged one is
                        # never the copy kept.
                        if rel not in have and digest(p.read_bytes()) == p.name:
                            have[rel] = p
                        continue
                    first = have.setdefault(rel, p)
                    if first is not p and first.read_bytes() != p.read_bytes() \
                            and not (replace and store is self):
                        clash.append(f"{first} and {p}")
        if clash:
            raise StoreError(f"{len(clash)} files of one name hold other bytes in two stores, "
                             f"first {clash[0]}: these are not runs of one audit (nothing "
                             "was copied)")
        copied: dict[str, int] = {}
        for rel, p in sorted(have.items()):
            dst = self.root / rel
            if p == dst:  # ours already
                continue
            if dst.is_file() and (digest(dst.read_bytes()) == dst.name
                                  if rel.parts[0] == "objects"
                                  else dst.read_bytes() == p.read_bytes()):
                continue
            atomic_write(dst, p.read_bytes())
            copied[rel.parts[0]] = copied.get(rel.parts[0], 0) + 1
        return copied

    # -- named places --------------------------------------------------------------------
    def refs(self, benchmark: str) -> Path:
        return self.root / "refs" / benchmark

    def tables(self, benchmark: str) -> Path:
        return self.root / "tables" / benchmark

    def repo_dir(self, owner: str, name: str) -> Path:
        return self.root / "repos" / owner / f"{name}.git"

    def dep_file(self, benchmark: str) -> Path:
        return self.root / "doit" / f"{benchmark}.sqlite"

    # -- in use, and collected -----------------------------------------------------------
    def share(self) -> None:
        """Hold the store as in use (a shared lock on locks/store) until `unshare` or the
        process ends. A run holds it from its first read to its last write, so `store gc`
        (which takes it alone) never collects what a run is making; a run started during a
        collection waits for it."""
        if self._shared is not None:
            return
        p = self.root / "locks" / IN_USE
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            f = open(p, "a+b")  # noqa: SIM115 - held open past this call: the lock is the file's
        except OSError as e:
            raise write_failure(p, e) from None
        fcntl.flock(f.fileno(), fcntl.LOCK_SH)
        self._shared = f

    def unshare(self) -> None:
        if self._shared is not None:
            self._shared.close()
            self._shared = None

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        """The store to this process only (no run holds it), or a StoreError at once."""
        p = self.root / "locks" / IN_USE
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            f = open(p, "a+b")  # noqa: SIM115 - closed below, after the lock
        except OSError as e:
            raise write_failure(p, e) from None
        with f:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreError(f"{self.root} is in use by a run (or `doit`): run this "
                                 "again when it has ended") from None
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    def reach(self, sources: dict[str, str] | None = None, search: str | None = None, *,
              strict: bool = True) -> Reach:
        """What each benchmark's tables, refs and scores reach, and what the caches do
        (see `Reach`). `sources`: the source read (a sources/ name) each benchmark's last run
        used; None keeps every one. `search`: the search cache's current version; None keeps
        every version. `strict`: a damaged object on the way is a StoreError (for `gc`: what
        it names is unknown), else counted in `Reach.damaged` and its names not followed."""
        return _Reacher(self, sources, search, strict).reach()

    def collect(self, reach: Reach, dry_run: bool = False) -> dict[str, Size]:
        """Remove what `reach` found unreached (nothing when `dry_run`): the sizes by kind.
        Entries go before the objects they name, so a kill halfway leaves no entry naming
        a missing object. Call it under `alone()`, with a `reach` made under it."""
        out: dict[str, Size] = {}
        for kind, paths in reach.garbage().items():
            size = out.setdefault(kind, Size())
            for p in paths:
                for f in _files(p):
                    size.add(f)
                if not dry_run:
                    _remove(p)
        if not dry_run:
            for top in ("objects", "ac"):  # the fan-out folders left empty
                for d in (self.root / top).glob("??"):
                    with contextlib.suppress(OSError):
                        d.rmdir()
        return out

    def usage(self) -> dict[str, Size]:
        """Size by kind of every file under the store (each file, hard links too, once)."""
        out: dict[str, Size] = {}
        seen: set[tuple[int, int]] = set()
        for top in sorted(self.root.iterdir()) if self.root.is_dir() else []:
            size = out.setdefault(KINDS.get(top.name, "other") if top.is_dir() else "other",
                                  Size())
            for p in _files(top):
                size.add(p, seen)
        return out


# locks/store: held shared by every run, alone by `store gc`.
IN_USE = "store"

# The store's folders by kind (README "The store"); any other file or folder is "other".
KINDS = {"objects": "objects", "ac": "action cache", "tables": "tables", "refs": "refs",
         "scores": "scores", "sources": "source reads", "search": "search cache",
         "libraries": "library listings", "packages": "packages", "repos": "mirrors",
         "doit": "doit db", "locks": "locks"}
# Per benchmark: the folders (or file) of its own under these.
OWN = ("tables", "refs", "scores")

_NAMED = re.compile(rb"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


class Size(msgspec.Struct):
    files: int = 0
    bytes: int = 0  # as the files' lengths say
    disk: int = 0  # allocated, as `du` counts

    def add(self, p: Path, seen: set[tuple[int, int]] | None = None) -> None:
        try:
            st = p.lstat()
        except OSError:
            return  # gone meanwhile (a run's temporary file)
        if seen is not None:
            if (st.st_dev, st.st_ino) in seen:
                return
            seen.add((st.st_dev, st.st_ino))
        self.files += 1
        self.bytes += st.st_size
        self.disk += st.st_blocks * 512

    def plus(self, other: Size) -> Size:
        return Size(self.files + other.files, self.bytes + other.bytes, self.disk + other.disk)


# What `store merge` copies (Store.merge_from).
MERGED = ("objects", "ac", "refs", "search", "libraries", "packages", "sources", "scores")


def _files(top: Path) -> Iterator[Path]:
    """Every file under `top` (or `top`), links not followed."""
    if not top.is_dir() or top.is_symlink():
        yield top
        return
    for folder, _, names in os.walk(top):
        for n in names:
            yield Path(folder) / n


def _remove(p: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()


def names_in(data: bytes | memoryview) -> set[str]:
    """Every object name (64 hex digits, standing alone) written in `data`: JSON and msgpack
    hold them as text. A stray hash that happens to name an object only keeps it longer."""
    return {m.decode() for m in _NAMED.findall(data)}


def _names_in_file(p: Path) -> set[str]:
    """The object names a kept file holds: in its name and its bytes (a parquet table's
    values, decoded: its pages are compressed). StoreError when a table cannot be read."""
    found = names_in(p.name.encode())
    if p.suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            for batch in pq.ParquetFile(p).iter_batches(batch_size=8192):
                found |= names_in(msgspec.json.encode(batch.to_pylist()))
        except Exception as e:  # noqa: BLE001 - any failure to read is "cannot tell"
            raise StoreError(f"cannot read {p} ({e}): what it names is unknown, so nothing "
                             "is collected; run the benchmark again to rewrite it") from None
        return found
    with open(p, "rb") as f:
        if os.fstat(f.fileno()).st_size:
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                found |= names_in(m)
    return found


class Reach(msgspec.Struct):
    """What is in use, by whom, and what is not. An object is reached when a kept file names
    it (a benchmark's tables, refs and scores; the current source read of its last run; the
    search cache, library listings and any file of a kind the store does not know), or a
    reached object does. An action entry is reached when its output is, or when its output
    names objects and all of them are reached (an agent call's: its pass's result names the
    call's prompt and transcript, not the output); its output is then reached too."""

    root: Path
    present: dict[str, Path]  # object name -> its file
    entries: dict[str, tuple[str, Path]]  # action key -> (output, entry file)
    benchmarks: dict[str, tuple[set[str], set[str]]]  # name -> (objects, action keys)
    own: dict[str, list[Path]]  # name -> its own files and folders (tables, refs, ...)
    shared: tuple[set[str], set[str]]  # what the caches and unknown files reach
    dropped_sources: list[Path]
    dropped_search: list[Path]
    damaged: list[str]

    def objects(self) -> set[str]:
        return set().union(self.shared[0], *(o for o, _ in self.benchmarks.values()))

    def keys(self) -> set[str]:
        return set().union(self.shared[1], *(k for _, k in self.benchmarks.values()))

    def footprint(self) -> dict[str, dict[str, Size]]:
        """Per benchmark: the objects and action entries it reaches ("shared": those of them
        another benchmark reaches too), its own files (tables, refs, scores, doit db, source
        read) and their total. Under "": each object and entry counted once."""
        counts: dict[str, int] = {}
        for objs, _ in self.benchmarks.values():
            for h in objs:
                counts[h] = counts.get(h, 0) + 1

        def size(paths: Iterable[Path]) -> Size:
            out = Size()
            for p in paths:
                for f in _files(p):
                    out.add(f)
            return out

        def row(objs: set[str], keys: set[str], own: Size) -> dict[str, Size]:
            got = {"objects": size(self.present[h] for h in objs),
                   "shared": size(self.present[h] for h in objs if counts[h] > 1),
                   "action entries": size(self.entries[k][1] for k in keys), "files": own}
            got["total"] = got["objects"].plus(got["action entries"]).plus(own)
            return got

        out = {b: row(objs, keys, size(p for p in self.own[b] if p.exists()))
               for b, (objs, keys) in sorted(self.benchmarks.items())}
        every = Size()
        for r in out.values():
            every = every.plus(r["files"])
        out[""] = row(set().union(*(o for o, _ in self.benchmarks.values())),
                      set().union(*(k for _, k in self.benchmarks.values())), every)
        return out

    def garbage(self) -> dict[str, list[Path]]:
        """What nothing reaches, by kind, in the order it is removed."""
        keys, objects = self.keys(), self.objects()
        locks = self.root / "locks"
        stale_locks = [p for p in sorted(locks.glob("ac-*")) if p.name[3:] not in keys]
        return {
            "action cache": [p for k, (_, p) in sorted(self.entries.items()) if k not in keys],
            "objects": [p for h, p in sorted(self.present.items()) if h not in objects],
            "source reads": self.dropped_sources,
            "search cache": self.dropped_search,
            "locks": stale_locks,
        }


class _Reacher:
    def __init__(self, store: Store, sources: dict[str, str] | None, search: str | None,
                 strict: bool):
        self.store, self.root, self.strict = store, store.root, strict
        self.sources, self.search = sources, search
        self.present = {p.name: p for p in self._listed("objects", "*/*")
                        if is_object_name(p.name) and p.parent.name == p.name[:2]}
        self.entries: dict[str, tuple[str, Path]] = {}
        for p in self._listed("ac", "*/*.json"):
            with contextlib.suppress(OSError, msgspec.DecodeError, KeyError, TypeError):
                out = msgspec.json.decode(p.read_bytes())["output"]
                if is_object_name(out):  # else a damaged entry: left for `run` to redo
                    self.entries[p.stem] = (out, p)
        self._names: dict[str, set[str]] = {}
        self.damaged: list[str] = []  # what could not be read (not `strict`)

    def _listed(self, top: str, pattern: str) -> list[Path]:
        return sorted(p for p in (self.root / top).glob(pattern)
                      if not p.name.startswith(".tmp-"))

    def names(self, h: str) -> set[str]:
        """The object names object `h` holds (read once)."""
        if h not in self._names:
            data = self.present[h].read_bytes()
            if digest(data) != h:
                where = self.present[h].relative_to(self.root)
                if self.strict:
                    raise StoreError(f"damaged object {where}: what it names is unknown, so "
                                     "nothing is collected; `determinacy store verify` lists "
                                     "the damage, and a run repairs it")
                self.damaged.append(str(where))
                data = b""
            self._names[h] = names_in(data) & self.present.keys()
        return self._names[h]

    def close(self, seeds: set[str]) -> tuple[set[str], set[str]]:
        reached: set[str] = set()
        keys: set[str] = set()

        def visit(start: Iterable[str]) -> None:
            stack = [h for h in start if h in self.present]
            while stack:
                h = stack.pop()
                if h not in reached:
                    reached.add(h)
                    stack.extend(n for n in self.names(h) if n not in reached)

        visit(seeds)
        pending = dict(self.entries)
        while hit := [k for k, (out, _) in pending.items() if out in reached or (
                out in self.present and self.names(out) and self.names(out) <= reached)]:
            for k in hit:
                keys.add(k)
                visit([pending.pop(k)[0]])
        return reached, keys

    def _seeds(self, paths: Iterable[Path]) -> set[str]:
        found: set[str] = set()
        for top in paths:
            for p in _files(top):
                if p.is_file() and not p.name.startswith(".tmp-"):
                    try:
                        found |= _names_in_file(p)
                    except StoreError:
                        if self.strict:
                            raise
                        self.damaged.append(str(p.relative_to(self.root)))
        return found

    def reach(self) -> Reach:
        root = self.root
        names = sorted({p.name for top in OWN for p in (root / top).glob("*") if p.is_dir()})
        memos = self._listed("sources", "*")
        kept = set(self.sources.values()) if self.sources is not None else None
        benchmarks, owned = {}, {}
        for b in names:
            own = owned[b] = [root / top / b for top in OWN]
            if self.sources is not None and b in self.sources:
                own.append(root / "sources" / self.sources[b])
            benchmarks[b] = self.close(self._seeds(p for p in own if p.exists()))
            own.extend(sorted((root / "doit").glob(f"{glob.escape(b)}.sqlite*")))
        searched = sorted((root / "search").glob("*"))
        dropped_search = [p for p in searched if self.search is not None and p.is_dir()
                          and p.name != self.search and not p.name.startswith(".tmp-")]
        # The caches every benchmark shares, and whatever the store does not know (kept,
        # with what it names). Mirrors, packages, doit's db and locks name no object.
        shared = [root / "libraries", *(p for p in searched if p not in dropped_search),
                  *(m for m in memos if kept is None),
                  *(p for p in root.iterdir() if p.name not in KINDS)]
        return Reach(
            root=root, present=self.present, entries=self.entries, benchmarks=benchmarks,
            own=owned,
            shared=self.close(self._seeds(p for p in shared if p.exists())),
            dropped_sources=[m for m in memos if kept is not None and m.name not in kept],
            dropped_search=dropped_search, damaged=self.damaged)
