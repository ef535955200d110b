"""A pinned package's sources, got once onto disk with its ecosystem's own protocol.

`fetch(pin, registry, into)` reads `http(s)://` or `file://` registries with `urllib.request`
(a plain folder path is taken as its `file://` URL):

    pypi   a PEP 503 simple index: <index>/<normalized name>/ (on disk: <dir>/<name>/index.html)
    npm    a registry's packument <registry>/<name, / as %2f>, or a folder of `npm pack` tarballs
    go     a GOPROXY list: <proxy>/<case-escaped module>/@v/<case-escaped version>.zip
    maven  <root>/<group as path>/<artifact>/<version>/<artifact>-<version>-sources.jar

Layout under `into`, one folder per (ecosystem, package, version):

    into/<ecosystem>/<quote(name)>@<quote(version)>/
        <archive>       a zip read in place (wheel, sdist .zip, Go module zip, -sources.jar)
        src/            or an extracted .tar.gz / .tgz (npm tarball, sdist)
        origin.json     {"url", "sha256" (of the archive as downloaded), "file", "root"}
        .lock           held while one process fetches: others wait, then find it done

`origin.json` is written last, atomically: its presence means the entry is complete, and a
complete entry is returned without reading the registry again (once per package and version).
Anything else found there without it is what an interrupted fetch left, cleared before the
next try. Downloads go to a temporary file beside their final name and are renamed into place;
tarballs are extracted into a temporary folder (refusing absolute paths, `..`, links leading
out and devices) and renamed to `src/`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import NamedTuple
from urllib.error import HTTPError, URLError
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit
from urllib.request import Request, url2pathname, urlopen

from determinacy.codebase.dependencies.manifests import Pin
from determinacy.codebase.dependencies.ranges import Release
from determinacy.store import atomic_write, digest, temp_file

# Python 3.11.4+ has tarfile's extraction filters: a second guard after the checks here.
HAS_DATA_FILTER = hasattr(tarfile, "data_filter")
_FILTER_ERROR = getattr(tarfile, "FilterError", ())  # absent before 3.11.4: nothing to catch
_HASHES = frozenset({"md5", "sha1", "sha224", "sha256", "sha384", "sha512"})
_CHUNK = 1 << 20


class FetchError(Exception):
    """Why a pin's sources could not be got (the message is one line a user reads: the pin,
    the URL, the reason)."""


class NoDates(FetchError):
    """The registry lists no publish times (a folder of tarballs, a GOPROXY, Maven): a range
    cannot be read at a date there, whatever the next run does."""


class Fetched(NamedTuple):
    """Where a pin's sources are.

    `path`: a zip file read in place (wheel, sdist .zip, Go module zip, Maven -sources.jar) or
    the `src/` folder of an extracted tarball. `url`: the archive's URL (fragment dropped).
    `root`: "" or a prefix ending in "/" that every member under `path` starts with and a
    reader strips to see the package's own top level: the zip's member-name prefix, or for a
    folder the one subfolder to descend into (`path / root`). pypi wheels and Maven jars: ""
    (their top level is the import root); sdists: their single top folder (`name-1.0/`); npm:
    the tarball's single top folder (`package/` as a rule); go: `<module>@<version>/`, the
    module path as written (not case-escaped). A tarball or sdist whose members do not share
    one top folder gets "".
    """

    path: Path
    url: str
    root: str


class _Fail(Exception):
    """A step failed: `fetch` turns it into a FetchError naming the pin. `missing`: the
    registry answered that it has no such thing (404, 410, no such file)."""

    def __init__(self, url: str, reason: str, *, missing: bool = False):
        self.url, self.reason, self.missing = url, reason, missing
        super().__init__(reason)


class _Download(NamedTuple):
    url: str
    tmp: Path  # the bytes, verified, in a temporary file inside the entry
    sha256: str
    filename: str  # the archive's name in the entry (zips keep it)
    kind: str  # "zip" or "tar"
    root: str | None  # what `root` must be ("" or a prefix); None: the single top folder


def _entry_name(pin: Pin) -> str:
    """`name@version`, quoted to one path component; one a file system could not hold (a
    manifest can name anything) keeps its head and a digest of the whole."""
    name = f"{quote(pin.name, safe='')}@{quote(pin.version, safe='')}"
    if len(name.encode()) <= 200:
        return name
    return f"{name[:100]}~{digest(name.encode())[:32]}"


def fetch(pin: Pin, registry: str, into: Path, timeout: float = 60.0) -> Fetched:
    """The pin's sources under `into` (a folder the caller owns, e.g. <store>/packages),
    fetched at most once: when already there, nothing is read from the registry. Raises
    FetchError (pin not exact: version "", not found, a hash mismatch, an archive that will
    not open, a timeout, HTTP error)."""
    label = f"{pin.ecosystem} {pin.name}@{pin.version}"
    if not pin.version:
        raise FetchError(f"{label}: no exact version is pinned (a range only): nothing to fetch")
    get = _PROTOCOLS.get(pin.ecosystem)
    if get is None:
        raise FetchError(f"{label}: unknown ecosystem {pin.ecosystem!r}")
    if not registry.strip():
        raise FetchError(f"{label}: no registry given")
    entry = Path(into) / pin.ecosystem / _entry_name(pin)
    entry.mkdir(parents=True, exist_ok=True)
    with _locked(entry):
        done = _done(entry)
        if done is not None:
            return done
        _clear(entry)  # what an interrupted fetch left
        try:
            return _settle(entry, get(pin, registry.strip(), entry, timeout))
        except _Fail as e:
            _clear(entry)
            reason = f"not found in {registry}" if e.missing else e.reason
            if e.missing and e.reason != "not found":
                reason += f" ({e.reason})"
            raise FetchError(f"{label}: {e.url}: {reason}") from None


def releases(ecosystem: str, name: str, registry: str, timeout: float = 60.0) -> list[Release]:
    """Every release of `name` the registry lists, with its publish time: a PEP 691 simple
    index's upload times (pypi), a full packument's `time` (npm). On disk: `<name>/index.json`
    in the PEP 691 form, or a packument file with `time`. Raises FetchError where the registry
    gives no release times (a folder of tarballs, GOPROXY, Maven)."""
    label = f"{ecosystem} {name}"
    url = registry.strip()
    try:
        if ecosystem == "pypi":
            return _pypi_releases(name, url, timeout)
        if ecosystem == "npm":
            return _npm_releases(name, url, timeout)
    except _Fail as e:
        error = NoDates if e.missing and e.reason.startswith("no release") else FetchError
        raise error(f"{label}: {e.url}: {e.reason}") from None
    raise NoDates(f"{label}: {ecosystem} registries give no release times here")


def _time(value: object) -> float | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _pypi_releases(name: str, registry: str, timeout: float) -> list[Release]:
    index, name = _as_url(registry), _normalize(name)
    local = _local_dir(index)
    page = (local / name / "index.json").as_uri() if local else _child(index, name) + "/"
    try:
        doc = json.loads(_get(page, timeout, "application/vnd.pypi.simple.v1+json"))
        files = doc["files"]
    except (ValueError, KeyError, TypeError):
        raise _Fail(page, "no release times (not a PEP 691 JSON index)", missing=True) from None
    times: dict[str, list[float]] = {}
    yanked: dict[str, bool] = {}
    for f in files if isinstance(files, list) else []:
        if not isinstance(f, dict):
            continue
        version = _pypi_version(str(f.get("filename", "")), name)
        when = _time(f.get("upload-time"))
        if version and when is not None:
            times.setdefault(version, []).append(when)
            yanked[version] = yanked.get(version, True) and bool(f.get("yanked"))
    if files and not times:
        raise _Fail(page, "no release times in the index", missing=True)
    return sorted(Release(v, min(t), yanked[v]) for v, t in times.items())


def _pypi_version(filename: str, name: str) -> str:
    if filename.endswith(".whl"):
        parts = filename[:-4].split("-")
        return parts[1] if len(parts) in (5, 6) and _normalize(parts[0]) == name else ""
    for ext in (".tar.gz", ".zip"):
        if filename.lower().endswith(ext):
            stem = filename[: -len(ext)]
            head, _, version = stem.rpartition("-")
            return version if _normalize(head) == name else ""
    return ""


def _npm_releases(name: str, registry: str, timeout: float) -> list[Release]:
    base, escaped = _as_url(registry), name.replace("/", "%2f")
    local = _local_dir(base)
    if local is not None:
        found = [p for p in (local / escaped, local / escaped / "index.json") if p.is_file()]
        if not found:
            raise _Fail((local / escaped).as_uri(), "no release times (a folder of tarballs)",
                        missing=True)
        packument = found[0].as_uri()
    else:
        packument = _child(base, escaped)
    # The full packument: the abbreviated one (install-v1) has no `time`.
    try:
        doc = json.loads(_get(packument, timeout, "application/json"))
        versions, times = doc["versions"], doc["time"]
    except (ValueError, KeyError, TypeError):
        raise _Fail(packument, "no release times (not a full packument)", missing=True) from None
    out = []
    for version in versions if isinstance(versions, dict) else ():
        when = _time(times.get(version)) if isinstance(times, dict) else None
        if when is not None:
            out.append(Release(version, when, False))
    return sorted(out)


# --- the entry on disk ---------------------------------------------------------------------

@contextlib.contextmanager
def _locked(entry: Path) -> Iterator[None]:
    # Two runs fetching one pin: the second waits, then finds origin.json.
    with open(entry / ".lock", "ab") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def _done(entry: Path) -> Fetched | None:
    try:
        origin = json.loads((entry / "origin.json").read_bytes())
        path = entry / origin["file"]
        if path.exists():
            return Fetched(path, origin["url"], origin["root"])
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        pass
    return None


def _clear(entry: Path) -> None:
    for p in entry.iterdir():
        if p.name == ".lock":
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()


def _settle(entry: Path, got: _Download) -> Fetched:
    """Put the verified download in place (a zip as is, a tarball extracted), then mark the
    entry complete."""
    if got.kind == "tar":
        path, file = entry / "src", "src"
        tmp = Path(tempfile.mkdtemp(dir=entry, prefix=".tmp-"))
        _extract(got.url, got.tmp, tmp)
        os.rename(tmp, path)
        got.tmp.unlink()
        tops = list(path.iterdir())
        single = len(tops) == 1 and tops[0].is_dir() and not tops[0].is_symlink()
        root = f"{tops[0].name}/" if single and got.root is None else (got.root or "")
    else:
        file = _safe_filename(got.url, got.filename)
        names = _zip_names(got.url, got.tmp)
        root = _zip_root(got.url, names, got.root)
        path = entry / file
        os.replace(got.tmp, path)
    origin = {"url": got.url, "sha256": got.sha256, "file": file, "root": root}
    atomic_write(entry / "origin.json", json.dumps(origin, indent=1).encode() + b"\n")
    return Fetched(path, got.url, root)


def _safe_filename(url: str, name: str) -> str:
    # The name comes from the registry: it must stay one plain file in the entry.
    if not name or "/" in name or "\\" in name or name.startswith(".") or name in (
            "src", "origin.json"):
        raise _Fail(url, f"unusable archive file name {name!r}")
    return name


def _zip_names(url: str, tmp: Path) -> list[str]:
    if not zipfile.is_zipfile(tmp):
        raise _Fail(url, "not a zip archive")
    try:
        with zipfile.ZipFile(tmp) as z:
            return z.namelist()
    except (zipfile.BadZipFile, OSError) as e:
        raise _Fail(url, f"the zip archive will not open: {e}") from None


def _zip_root(url: str, names: list[str], want: str | None) -> str:
    if want is None:
        tops = {n.split("/", 1)[0] for n in names}
        top = next(iter(tops)) if len(tops) == 1 else ""
        return f"{top}/" if top and all(n.startswith(f"{top}/") for n in names) else ""
    if want and not all(n.startswith(want) for n in names):
        raise _Fail(url, f"not a module zip: members lie outside {want}")
    return want


def _extract(url: str, archive: Path, dest: Path) -> None:
    """Unpack a tarball into `dest`; an unsafe member (absolute path, `..`, a link leading
    outside, a device) fails the whole archive: a registry serving one is not trusted."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            # Checked here in every case: the "data" filter would strip a leading `/` and
            # extract the member anyway, and an archive naming one is not trusted.
            members = _checked(url, tar, dest)
            if HAS_DATA_FILTER:
                tar.extractall(dest, members=members, filter="data")
            else:
                tar.extractall(dest, members=members)
    except _FILTER_ERROR as e:
        raise _Fail(url, f"unsafe tarball member refused: {e}") from None
    except (tarfile.TarError, EOFError, zlib.error, OSError) as e:
        raise _Fail(url, f"the tarball will not open: {e}") from None


def _checked(url: str, tar: tarfile.TarFile, dest: Path) -> list[tarfile.TarInfo]:
    """The members, when each stays inside `dest` (what the "data" filter checks, on a Python
    without it too)."""
    base = os.path.realpath(dest)

    def inside(p: str) -> bool:
        return os.path.commonpath([base, os.path.normpath(p)]) == base

    out = []
    for m in tar.getmembers():
        parts = PurePosixPath(m.name).parts
        bad = ("an absolute path" if m.name.startswith("/") or os.path.isabs(m.name)
               else "a `..` path" if ".." in parts
               else "a device or fifo" if not (m.isfile() or m.isdir() or m.issym()
                                               or m.islnk())
               else "")
        if not bad and (m.issym() or m.islnk()):
            # A symlink's target is relative to its folder, a hard link's to the archive root.
            start = os.path.join(base, os.path.dirname(m.name)) if m.issym() else base
            if os.path.isabs(m.linkname) or not inside(os.path.join(start, m.linkname)):
                bad = f"a link to {m.linkname!r} outside"
        if bad:
            raise _Fail(url, f"unsafe tarball member refused: {m.name!r} is {bad}")
        out.append(m)
    return out


# --- reading URLs --------------------------------------------------------------------------

def _as_url(registry: str) -> str:
    return registry if "://" in registry else Path(registry).expanduser().resolve().as_uri()


def _local_dir(url: str) -> Path | None:
    parts = urlsplit(url)
    return Path(url2pathname(parts.path)) if parts.scheme == "file" else None


def _child(base: str, path: str) -> str:
    """`path` (already escaped as the protocol wants) under the registry URL `base`; on disk
    `path` names the files themselves (their names may hold `%`, `!`, `@`)."""
    local = _local_dir(base)
    if local is not None:
        return (local / path).as_uri()
    return base.rstrip("/") + "/" + quote(path, safe="/!@+%:")


@contextlib.contextmanager
def _reading(url: str, timeout: float) -> Iterator[None]:
    """urllib's and the socket's errors as one reason a user reads."""
    try:
        yield
    except HTTPError as e:
        if e.code in (404, 410):
            raise _Fail(url, "not found", missing=True) from None
        raise _Fail(url, f"HTTP {e.code} {e.reason}") from None
    except URLError as e:
        if isinstance(e.reason, FileNotFoundError | NotADirectoryError):
            raise _Fail(url, "not found", missing=True) from None
        if isinstance(e.reason, TimeoutError):
            raise _Fail(url, f"timed out after {timeout:g} s") from None
        raise _Fail(url, f"cannot read: {e.reason}") from None
    except TimeoutError:
        raise _Fail(url, f"timed out after {timeout:g} s") from None
    except ValueError as e:  # urllib: "unknown url type"
        raise _Fail(url, f"not a URL that can be read: {e}") from None
    except OSError as e:  # a connection reset or an incomplete read midway
        raise _Fail(url, f"cannot read: {e}") from None


def _request(url: str, accept: str = "*/*") -> Request:
    return Request(url, headers={"User-Agent": "determinacy", "Accept": accept})


def _get(url: str, timeout: float, accept: str = "*/*") -> bytes:
    """A small document (an index page, a packument, a checksum file)."""
    with _reading(url, timeout), urlopen(_request(url, accept), timeout=timeout) as r:
        return r.read()


def _download(url: str, entry: Path, timeout: float, expected: dict[str, str]) -> tuple[Path,
                                                                                      str]:
    """`url`'s bytes in a temporary file in `entry`, checked against `expected` (algorithm ->
    hex digest): the file and its sha256."""
    hashes = {a: hashlib.new(a) for a in {"sha256", *expected}}
    fd, name = temp_file(entry)
    tmp = Path(name)
    try:
        with (os.fdopen(fd, "wb") as f, _reading(url, timeout),
              urlopen(_request(url), timeout=timeout) as r):
            while chunk := r.read(_CHUNK):
                f.write(chunk)
                for h in hashes.values():
                    h.update(chunk)
            f.flush()
            os.fsync(f.fileno())
        for algo, want in sorted(expected.items()):
            got = hashes[algo].hexdigest()
            if got != want.lower():
                raise _Fail(url, f"{algo} mismatch: the registry says {want.lower()}, "
                                 f"the file hashes to {got}")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp, hashes["sha256"].hexdigest()


# --- pypi ----------------------------------------------------------------------------------

def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and dict(attrs).get("href"):
            self.links.append(dict(attrs))


def _pypi_rank(filename: str, name: str, version: str) -> int | None:
    """0 a pure py3 wheel, 1 another none-any wheel, 2 an sdist .tar.gz, 3 an sdist .zip,
    4 a Linux x86-64 wheel, 5 any other platform's wheel (a package that ships compiled
    wheels only still ships its Python API in them: what `pip install` gives a solver);
    None: not a source-bearing file of this exact version."""
    version = version.lower()
    if filename.endswith(".whl"):
        parts = filename[:-4].split("-")  # name-version[-build]-py-abi-platform
        if (len(parts) not in (5, 6) or _normalize(parts[0]) != name
                or parts[1].lower() != version):
            return None
        if parts[-2:] != ["none", "any"]:
            return 4 if "linux" in parts[-1] and "x86_64" in parts[-1] else 5
        return 0 if "py3" in parts[-3].split(".") else 1
    for rank, ext in ((2, ".tar.gz"), (3, ".zip")):
        if filename.lower().endswith(ext):
            stem = filename[: -len(ext)].lower()
            if stem.endswith(f"-{version}") and _normalize(stem[: -len(version) - 1]) == name:
                return rank
    return None


def _pypi(pin: Pin, registry: str, entry: Path, timeout: float) -> _Download:
    index, name = _as_url(registry), _normalize(pin.name)
    local = _local_dir(index)
    page = (local / name / "index.html").as_uri() if local else _child(index, name) + "/"
    parser = _Anchors()
    parser.feed(_get(page, timeout, "text/html").decode("utf-8", "replace"))
    choices = []
    for a in parser.links:
        url, fragment = urldefrag(urljoin(page, a["href"] or ""))
        filename = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
        rank = _pypi_rank(filename, name, pin.version)
        if rank is not None:  # a yanked file only when nothing else serves the version
            choices.append(("data-yanked" in a, rank, filename, url, fragment))
    if not choices:
        raise _Fail(page, f"no wheel or sdist of version {pin.version}", missing=True)
    _, rank, filename, url, fragment = min(choices)
    algo, _, want = fragment.partition("=")
    expected = {algo: want} if algo in _HASHES and want else {}
    tmp, sha256 = _download(url, entry, timeout, expected)
    kind = "tar" if rank == 2 else "zip"
    return _Download(url, tmp, sha256, filename, kind, "" if rank < 2 else None)


# --- npm -----------------------------------------------------------------------------------

def _npm_pack_name(pin: Pin) -> str:
    # `npm pack`: @scope/name@1.0.0 -> scope-name-1.0.0.tgz
    return f"{pin.name.removeprefix('@').replace('/', '-')}-{pin.version}.tgz"


def _integrity(url: str, dist: dict[str, object]) -> dict[str, str]:
    """`dist.integrity` (SRI: `sha512-<base64>`, maybe several) and `dist.shasum` (sha1 hex)
    as algorithm -> hex digest."""
    out: dict[str, str] = {}
    for item in str(dist.get("integrity") or "").split():
        algo, _, b64 = item.partition("-")
        if algo in _HASHES:
            try:
                out[algo] = base64.b64decode(b64.split("?")[0], validate=True).hex()
            except (binascii.Error, ValueError):
                raise _Fail(url, f"malformed integrity {item!r}") from None
    if dist.get("shasum"):
        out.setdefault("sha1", str(dist["shasum"]))
    return out


def _npm(pin: Pin, registry: str, entry: Path, timeout: float) -> _Download:
    base = _as_url(registry)
    escaped = pin.name.replace("/", "%2f")
    local = _local_dir(base)
    if local is not None:
        # On disk: a packument file (or folder with index.json), else `npm pack` tarballs.
        found = [p for p in (local / escaped, local / escaped / "index.json") if p.is_file()]
        if not found:
            tarball = local / _npm_pack_name(pin)
            if not tarball.is_file():
                raise _Fail(tarball.as_uri(), "not found", missing=True)
            url = tarball.as_uri()
            tmp, sha256 = _download(url, entry, timeout, {})
            return _Download(url, tmp, sha256, tarball.name, "tar", None)
        packument = found[0].as_uri()
    else:
        packument = _child(base, escaped)
    # The abbreviated packument (install-v1) carries `dist`; a registry may send the full one.
    body = _get(packument, timeout, "application/vnd.npm.install-v1+json; q=1.0, "
                                    "application/json; q=0.8")
    try:
        doc = json.loads(body)
        dist = doc.get("versions", {}).get(pin.version, {}).get("dist")
    except (ValueError, AttributeError):
        raise _Fail(packument, "not a JSON packument") from None
    if not isinstance(dist, dict) or not dist.get("tarball"):
        raise _Fail(packument, f"no version {pin.version} in the packument", missing=True)
    url = urljoin(packument, str(dist["tarball"]))
    tmp, sha256 = _download(url, entry, timeout, _integrity(url, dist))
    return _Download(url, tmp, sha256, _npm_pack_name(pin), "tar", None)


# --- go ------------------------------------------------------------------------------------

def _case_escape(s: str) -> str:
    """The module proxy's case-encoding: each uppercase letter -> `!` + its lowercase."""
    return re.sub(r"[A-Z]", lambda m: "!" + m.group().lower(), s)


def _goproxy(value: str) -> list[tuple[str, bool]]:
    """GOPROXY's entries, each with whether any error (`|` after it) or only not-found (`,`)
    moves on to the next."""
    return [(m.group(1).strip(), m.group(2) == "|")
            for m in re.finditer(r"([^,|]*)([,|]?)", value) if m.group(1).strip()]


def _go(pin: Pin, registry: str, entry: Path, timeout: float) -> _Download:
    path = f"{_case_escape(pin.name)}/@v/{_case_escape(pin.version)}.zip"
    prefix = f"{pin.name}@{pin.version}/"
    direct, last = False, None
    for proxy, on_any_error in _goproxy(registry):
        if proxy == "off":
            raise _Fail(registry, "GOPROXY is off: module downloads are disabled")
        if proxy == "direct":
            direct = True  # fetching from version control is not done here
            continue
        url = _child(_as_url(proxy), path)
        try:
            tmp, sha256 = _download(url, entry, timeout, {})
        except _Fail as e:
            if e.missing or on_any_error:
                last = e
                continue
            raise
        return _Download(url, tmp, sha256, _case_escape(pin.version) + ".zip", "zip", prefix)
    note = "`direct` (fetching from version control) is not supported" if direct else ""
    if last is None:
        raise _Fail(registry, note or "no proxy in GOPROXY", missing=bool(note))
    if last.missing:
        raise _Fail(last.url, note or "not found", missing=True)
    raise last


# --- maven ---------------------------------------------------------------------------------

def _maven(pin: Pin, registry: str, entry: Path, timeout: float) -> _Download:
    group, _, artifact = pin.name.partition(":")
    if not group or not artifact or ":" in artifact:
        raise _Fail(registry, f"a Maven name is group:artifact, not {pin.name!r}")
    filename = f"{artifact}-{pin.version}-sources.jar"
    url = _child(_as_url(registry),
                 f"{group.replace('.', '/')}/{artifact}/{pin.version}/{filename}")
    expected: dict[str, str] = {}
    for algo, size in (("sha1", 40), ("sha256", 64)):  # the sibling checksum, if published
        try:
            text = _get(f"{url}.{algo}", timeout).decode("ascii", "replace").split()
        except _Fail as e:
            if e.missing:
                continue
            raise
        if not text or not re.fullmatch(rf"[0-9a-fA-F]{{{size}}}", text[0]):
            raise _Fail(f"{url}.{algo}", "malformed checksum file")
        expected[algo] = text[0]
        break
    tmp, sha256 = _download(url, entry, timeout, expected)
    return _Download(url, tmp, sha256, filename, "zip", "")


_PROTOCOLS = {"pypi": _pypi, "npm": _npm, "go": _go, "maven": _maven}
