"""One tree's dependency scope: the direct dependencies its manifests declare at base, each
pinned package's sources fetched once per (package, version) into `<store>/packages` and
listed as a library the engine searches like a standard library.

A package no lockfile pins is read at the version its range gave on the base commit's date:
the newest release the range admits that the registry had published by then
(`ranges.newest`), found once per (package, range, date) and kept under
`<store>/packages/<ecosystem>/ranges/`.

What cannot be read is an `Unread` of scope "dependencies": a manifest the mirror lacks or
that does not parse, a range no release of that date satisfies or whose registry gives no
release dates (not pinned), a fetch that failed (offline, not in the registry, a hash
mismatch). A failed fetch is remembered for the rest of the process only:
the next run asks the registry again.
"""

from __future__ import annotations

import functools
import json
import shlex
import threading
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from determinacy import git
from determinacy.codebase import libraries, repos
from determinacy.codebase.dependencies import manifests, ranges, registries
from determinacy.codebase.dependencies.manifests import Pin
from determinacy.config import Config
from determinacy.errors import CaseFailure
from determinacy.records import Unread
from determinacy.store import Store, atomic_write, digest

# The standard library family (codebase/stdlib.FAMILY's values) whose candidates an
# ecosystem's packages may give: a Go name never comes from an npm package.
FAMILY = {"go": "go", "maven": "java", "npm": "ecma", "pypi": "python"}

# A package's files that are its code: (suffixes kept, folders left out at any depth, file
# endings left out). Its own tests and fixtures are no API a solver calls.
_FILES: dict[str, tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]] = {
    "go": ((".go",), frozenset({"testdata", "vendor"}), ("_test.go",)),
    "maven": ((".java",), frozenset(), ()),
    "npm": ((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"),
            frozenset({"test", "tests", "__tests__", "node_modules"}), ()),
    "pypi": ((".py", ".pyi"), frozenset({"test", "tests"}), ()),
}


@dataclass(frozen=True, eq=False)  # one per pin and process (`_listed`): identity is enough
class Package:
    pin: Pin  # the version read: a lockfile's, or the one its range gave (then `spec` is set)
    url: str
    lib: libraries.Library

    @property
    def name(self) -> str:
        return f"{self.pin.name}@{self.pin.version}"


@dataclass
class Read:
    packages: list[Package]
    unread: list[Unread]
    date: str = ""  # the base commit's date (UTC) the ranges were read at, when any was


def ecosystem_of(path: str) -> str:
    """The ecosystem a manifest or lockfile belongs to, by its name."""
    base = path.rsplit("/", 1)[-1]
    if base == "go.mod":
        return "go"
    if base == "pom.xml":
        return "maven"
    if base in ("package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock",
                "pnpm-lock.yaml"):
        return "npm"
    return "pypi"


def read(store: Store, cfg: Config, tree: repos.Tree, families: Sequence[str]) -> Read:
    """The dependency scope of `tree` for a case in `families`: the configured ecosystems'
    pinned packages, fetched and listed."""
    wanted = sorted(e for e, f in FAMILY.items()
                    if f in families and e in cfg.codebase.dependencies)
    out = Read(packages=[], unread=[])
    if not wanted:
        return out
    found = [e for e in tree.entries if e.kind == "blob" and manifests.wanted(e.path)
             and ecosystem_of(e.path) in wanted]
    out.unread += [Unread(path=e.path, why="missing blob", scope="dependencies")
                   for e in found if e.sha in tree.missing]
    pins, unparsed = _pins(tree.git_dir, tuple((e.path, e.sha) for e in found
                                              if e.sha not in tree.missing))
    out.unread += [Unread(path=p, why="unparsed", scope="dependencies") for p in unparsed]
    for pin in pins:
        if pin.ecosystem not in wanted:
            continue
        registry = _registry(cfg, pin.ecosystem)
        if not pin.version:
            when = _commit_time(tree.git_dir, tree.commit)
            version, why, again = _resolved(store, pin, registry, when)
            if not version:
                # A registry that did not answer is asked again; one that dates nothing, or
                # a range nothing of that date satisfies, is what it is.
                out.unread.append(Unread(path=f"{pin.name} ({pin.manifest})",
                                         why="fetch failed" if again else "not pinned",
                                         scope="dependencies", detail=why))
                continue
            pin = pin._replace(version=version, spec=pin.spec or "*")
            out.date = _day(when)
        got = _package(store, pin, registry)
        if isinstance(got, str):
            out.unread.append(Unread(path=f"{pin.name}@{pin.version}", why="fetch failed",
                                     scope="dependencies", detail=got))
        else:
            out.packages.append(got)
    return out


def _registry(cfg: Config, ecosystem: str) -> str:
    """The configured registry: a folder is a file:// URL (npm's folder of tarballs stays a
    folder: its protocol is the folder)."""
    where = cfg.codebase.dependencies[ecosystem]
    if "://" in where:
        return where
    path = cfg.resolve(where)
    return str(path) if ecosystem == "npm" else path.as_uri()


@functools.lru_cache(maxsize=4096)  # a repository's cases share a few manifest states
def _pins(git_dir: Path, files: tuple[tuple[str, str], ...]) -> tuple[list[Pin], list[str]]:
    data = {}
    for (path, _), (_, blob) in zip(files, repos.cat_blobs(git_dir, [s for _, s in files]),
                                    strict=True):
        if blob is None:
            raise CaseFailure(f"cannot read {path} (the mirror changed while it was read?)",
                              transient=True)
        data[path] = blob
    return manifests.pins(data), manifests.unparsed(data)


_FAILED: dict[tuple[Path, Pin, str], str] = {}
_LOCK = threading.Lock()


@functools.lru_cache(maxsize=4096)
def _commit_time(git_dir: Path, commit: str) -> int:
    p = git.run(git_dir, "show", "-s", "--format=%ct", commit)
    try:
        return int(p.stdout.split()[0])
    except (IndexError, ValueError):
        raise CaseFailure(f"cannot read the date of {commit}", transient=True) from None


def _day(when: float) -> str:
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _resolved(store: Store, pin: Pin, registry: str, before: int) -> tuple[str, str, bool]:
    """(the newest release `pin.spec` admits published before `before`, "", False); else
    ("", why there is none, whether the registry could not be read and is asked again). Kept
    on disk once found: releases of a past date do not change."""
    key = digest(json.dumps([pin.ecosystem, pin.name, pin.spec, registry, before]).encode())
    path = store.root / "packages" / pin.ecosystem / "ranges" / f"{key}.json"
    try:
        return json.loads(path.read_bytes())["version"], "", False
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        pass
    try:
        listed = _releases(pin.ecosystem, pin.name, registry)
    except registries.NoDates as e:
        return "", str(e), False
    except registries.FetchError as e:
        return "", str(e), True
    version = ranges.newest(pin.ecosystem, pin.spec, listed, before)
    if not version:
        return "", (f"no release of {pin.name} admitted by {pin.spec or 'any version'!r} was "
                    f"published before {_day(before)}"), False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps({"name": pin.name, "spec": pin.spec, "before": before,
                                   "version": version}).encode() + b"\n")
    return version, "", False


_RELEASES: dict[tuple[str, str, str], list[ranges.Release] | registries.FetchError] = {}


def _releases(ecosystem: str, name: str, registry: str) -> list[ranges.Release]:
    """The registry's release list, read once per process (a failure too: the next run asks
    again)."""
    key = (ecosystem, name, registry)
    with _LOCK:
        got = _RELEASES.get(key)
    if got is None:
        try:
            got = registries.releases(ecosystem, name, registry)
        except registries.FetchError as e:
            got = e
        with _LOCK:
            _RELEASES[key] = got
    if isinstance(got, registries.FetchError):
        raise got
    return got


def _package(store: Store, pin: Pin, registry: str) -> Package | str:
    """The pin's package, listed; or why it could not be fetched (asked once per process)."""
    key = (store.root, pin._replace(manifest=""), registry)
    with _LOCK:
        if key in _FAILED:
            return _FAILED[key]
    try:
        return _listed(store, key[1], registry)
    except (registries.FetchError, CaseFailure) as e:
        with _LOCK:
            _FAILED[key] = str(e)
        return str(e)


@functools.lru_cache(maxsize=4096)
def _listed(store: Store, pin: Pin, registry: str) -> Package:
    got = registries.fetch(pin, registry, store.root / "packages")
    src = source(pin, got.path, got.root, got.url)
    if not libraries.members(src):
        # Binaries only (Qt's libraries in a wheel): read whole, and nothing a solver reads.
        return Package(pin=pin, url=got.url,
                       lib=libraries.Library(src, [], store.put_json([])))
    return Package(pin=pin, url=got.url, lib=libraries.load(store, src))


def source(pin: Pin, path: Path, root: str, url: str) -> libraries.Source:
    """The package's code under `path` (a zip read in place, or a folder), members under
    `root`, with the grep a skeptic runs over the same files: fetched from `url` into a
    temporary folder (never this store's copy, which a skeptic does not have)."""
    suffixes, left_out, endings = _FILES[pin.ecosystem]
    root = root if not root or root.endswith("/") else root + "/"

    def keep(member: str) -> bool:
        if root and not member.startswith(root):
            return False
        parts = member[len(root):].split("/")
        return not left_out.intersection(parts[:-1]) and parts[-1].endswith(suffixes) \
            and not parts[-1].endswith(endings or ("\0",))

    unpack = ('unzip -qo "$d/a" -d "$d/x"' if zipfile.is_zipfile(path)
              else 'mkdir "$d/x" && tar -xzf "$d/a" -C "$d/x"')
    opts = [*(f"--include={shlex.quote('*' + s)}" for s in suffixes),
            *(f"--exclude={shlex.quote('*' + e)}" for e in endings),
            *(f"--exclude-dir={shlex.quote(d)}" for d in sorted(left_out))]
    where = '"$d/x"' + (f"/{shlex.quote(root.rstrip('/'))}" if root else "")
    grep = (f'd=$(mktemp -d) && curl -sSfL {shlex.quote(url)} -o "$d/a" && {unpack} && '
            f"grep -rnF {' '.join(opts)} -e {{constant}} -- {where}")
    words = (grep.replace("grep -rnF", "grep -rlwF", 1)
             + " | awk 'END {if (NR >= {floor}) print NR \" files\"}'")
    label = f"{pin.name}@{pin.version}"
    if zipfile.is_zipfile(path):
        return libraries.Source(label=label, path=path, wanted=keep, grep=grep, words=words)
    pruned: Callable[[str], bool] = lambda rel: rel.rsplit("/", 1)[-1] in left_out  # noqa: E731
    return libraries.Source(label=label, path=path, wanted=keep, grep=grep, words=words,
                            pruned=pruned, roots=(root.rstrip("/"),) if root else ("",))
