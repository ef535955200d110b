"""The content-addressed store: objects, action cache, refs, tables, repositories.

Layout (see store/README.md):

    objects/ab/<hash>            immutable blobs, blake3 of their bytes
    ac/ab/<key>.json             action cache: key -> {"output": <object hash>, "seal": ...}
    locks/<key>                  one flock per action key (and per repository)
    refs/<benchmark>/...         small JSON files doit tracks (targets / file_deps)
    tables/<benchmark>/*.parquet consolidated tables, one file per table
    scores/<benchmark>/...       results, validity revisions and scores (determinacy/score/)
    repos/<owner>/<name>.git     bare mirrors shared by every benchmark
    doit/<benchmark>.sqlite      doit's dependency database (a cache only)

Nothing is edited in place: every write goes to a temporary name in the same folder, is
fsynced and renamed, so a kill at any moment leaves either the old or the new file.

Nothing read back is trusted either: an object is hashed on every read and an action entry
is sealed to its key, so a flipped byte, a truncated file or an entry copied from another key
reads as missing, is removed and computed again (counted as `repaired`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

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


class Store:
    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self.stats = Stats()

    # -- objects -------------------------------------------------------------------------
    def _obj(self, h: str) -> Path:
        if not is_object_name(h):
            raise DamagedObject(f"{h[:80]!r} is not an object name")
        return self.root / "objects" / h[:2] / h

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
        p = self._obj(h)
        data = p.read_bytes()
        if digest(data) != h:
            self._discard(p)
            raise DamagedObject(f"damaged object {p.relative_to(self.root)}: its bytes hash "
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

    # -- named places --------------------------------------------------------------------
    def refs(self, benchmark: str) -> Path:
        return self.root / "refs" / benchmark

    def tables(self, benchmark: str) -> Path:
        return self.root / "tables" / benchmark

    def repo_dir(self, owner: str, name: str) -> Path:
        return self.root / "repos" / owner / f"{name}.git"

    def dep_file(self, benchmark: str) -> Path:
        return self.root / "doit" / f"{benchmark}.sqlite"
