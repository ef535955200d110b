"""Absence beyond the tree at base: the scopes a case's search also reads (method §6).

`plan` does the git and filesystem reads that decide what there is to search (the history's
changed-away blobs, which of them the mirror lacks, each standard library's listing): its
`key` goes into the codebase phase's action key, so a deepened mirror
or an upgraded toolchain searches again. `search` then asks the engine. What a scope could
not read is an `Unread` of that scope: the case is partial there, never absent.
"""

from __future__ import annotations

import collections
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from determinacy.codebase import declared, history, libraries, repos, stdlib
from determinacy.codebase.dependencies import scope as dependencies
from determinacy.codebase.scan import IDENTIFIER
from determinacy.codebase.search import Engine
from determinacy.config import Config
from determinacy.paths import is_test_path
from determinacy.records import ScopeRead, Unread
from determinacy.settle import floor, quoted
from determinacy.store import Store


@dataclass
class Library:
    family: str
    label: str
    lib: libraries.Library | None = None  # None when not read (no sources)


@dataclass
class Plan:
    commit: str
    depth: int
    held: list[history.Held] = field(default_factory=list)
    missing: frozenset[str] = frozenset()
    walk: history.Walk | None = None
    libraries: list[Library] = field(default_factory=list)
    packages: list[dependencies.Package] = field(default_factory=list)
    ranges_date: str = ""  # the date the unpinned packages' ranges were read at
    declarations: dict[str, declared.Declared] = field(default_factory=dict)  # family: the tree's
    unread: list[Unread] = field(default_factory=list)

    def key(self) -> dict[str, object]:
        return {"history": [self.depth, self.walk.ancestors if self.walk else [],
                            self.walk.shallow if self.walk else "",
                            [list(h) for h in self.held], sorted(self.missing)],
                "stdlib": [[lib.family, lib.label, lib.lib.listing if lib.lib else ""]
                           for lib in self.libraries],
                "dependencies": [[list(pkg.pin[:3]), pkg.pin.spec, pkg.url, pkg.lib.listing]
                                 for pkg in self.packages] + [self.ranges_date]}


def plan(store: Store, cfg: Config, tree: repos.Tree, families: Sequence[str],
         skipped: Sequence[str]) -> Plan:
    p = Plan(commit=tree.commit, depth=cfg.codebase.history)
    if p.depth:
        p.walk = _walk(tree.git_dir, tree.commit, p.depth)
        p.held = _held(p.walk, skipped)
        if p.held:
            p.missing = repos.absent_blobs(tree.git_dir, sorted({h.blob for h in p.held}),
                                           p.walk.ancestors)
        p.unread += [Unread(path=f"{h.commit}:{h.path}", why="missing blob", scope="history")
                     for h in p.held if h.blob in p.missing]
        if p.walk.shallow:
            p.unread.append(Unread(path=f"before {p.walk.shallow}", why="shallow history",
                                   scope="history"))
    if cfg.codebase.stdlib != "off":
        for family in sorted(set(families)):
            lib = _library(store, cfg, family)
            p.libraries.append(lib)
            if lib.lib is None and cfg.codebase.stdlib == "require":
                p.unread.append(Unread(path=f"{family} standard library", why="no sources",
                                       scope="stdlib"))
            if (decl := _declared(tree, family)) is not None:
                p.declarations[family] = decl
                version = lib.lib.source.version if lib.lib else ""
                # Like a library not found: under "auto" said, under "require" unread.
                if version and declared.newer(decl, version) \
                        and cfg.codebase.stdlib == "require":
                    p.unread.append(Unread(
                        path=f"{family} standard library", why="older version", scope="stdlib",
                        detail=f"the repository declares {decl.text()}; the sources read are "
                               f"{version}"))
    if cfg.codebase.dependencies:
        read = dependencies.read(store, cfg, tree, families)
        p.packages, p.unread = read.packages, [*p.unread, *read.unread]
        p.ranges_date = read.date
    return p


def warm(engine: Engine, store: Store, cfg: Config, git_dir: Path, repo: str,
         cases: Sequence[tuple[str, Sequence[str], Sequence[str], Sequence[str]]],
         skipped: Sequence[str]) -> None:
    """Search the wider scopes of many cases ((commit, patterns, families, literals) each) in
    one pass per scope: what their codebase phases then ask is answered from the engine's
    cache."""
    if cfg.codebase.history:
        held: list[tuple[frozenset[str], Sequence[str]]] = []
        for commit, patterns, _, _ in cases:
            walk = _walk(git_dir, commit, cfg.codebase.history)
            held.append((frozenset(h.blob for h in _held(walk, skipped)), patterns))
        engine.ensure(git_dir, repo, held, variants=False)
    if cfg.codebase.stdlib != "off":
        wanted: dict[str, set[str]] = {}
        for _, patterns, fams, lits in cases:
            for family in fams:
                wanted.setdefault(family, set()).update(_forms(patterns, lits))
        for family, every in sorted(wanted.items()):
            lib = _library(store, cfg, family).lib
            if lib is not None:
                _ensure(engine, lib, every)
    if cfg.codebase.dependencies:
        per: dict[dependencies.Package, set[str]] = {}
        for commit, patterns, fams, lits in cases:
            tree = repos.listed(git_dir, commit)
            for pkg in dependencies.read(store, cfg, tree, fams).packages:
                per.setdefault(pkg, set()).update(_forms(patterns, lits))
        for pkg, every in sorted(per.items(), key=lambda kv: kv[0].name):
            _ensure(engine, pkg.lib, every)


def _ensure(engine: Engine, lib: libraries.Library, patterns: set[str]) -> None:
    engine.ensure(lib.read, libraries.REPO,
                  [(frozenset(b for _, b in lib.entries), sorted(patterns))], variants=False)


def _forms(patterns: Sequence[str], literals: Sequence[str]) -> list[str]:
    """What a library is searched for: every constant, and each literal's quoted forms."""
    return [*patterns, *(q for c in literals for q in quoted(c))]


def _held(walk: history.Walk, skipped: Sequence[str]) -> list[history.Held]:
    """What the history search reads: the lenient policy's test paths left out."""
    return [h for h in walk.held if not (skipped and is_test_path(h.path, skipped))]


@functools.lru_cache(maxsize=4096)  # the search task and each case's phase walk it alike
def _walk(git_dir: Path, commit: str, depth: int) -> history.Walk:
    return history.walk(git_dir, commit, depth)


def _declared(tree: repos.Tree, family: str) -> declared.Declared | None:
    """The language version the tree's root files declare for the family (a blob the mirror
    lacks declares nothing here: the tree scope already counts it unread)."""
    names = declared.READERS.get(family, ((), None))[0]
    files = [e for e in tree.entries if e.kind == "blob" and e.path in names
             and e.sha not in tree.missing]
    data = {e.path: blob for e, (_, blob) in zip(
        files, repos.cat_blobs(tree.git_dir, [e.sha for e in files]), strict=True)
        if blob is not None}
    return declared.declared(family, data)


def _library(store: Store, cfg: Config, family: str) -> Library:
    return _loaded(store, family, stdlib.for_config(cfg, family))


@functools.lru_cache(maxsize=64)  # listed once per process: a folder walk costs ~50 ms
def _loaded(store: Store, family: str, source: libraries.Source | None) -> Library:
    if source is None:
        return Library(family=family, label=f"{family} standard library: no sources found "
                       "on this machine (not read)")
    return Library(family=family, label=source.label, lib=libraries.load(store, source))


def search(engine: Engine, git_dir: Path, repo: str, p: Plan, patterns: Sequence[str],
           literals: Sequence[str], names: Sequence[str], excluded: Sequence[str]
           ) -> list[ScopeRead]:
    """Each scope's hits for `patterns`, in scope order (history, then each library): each
    library's for the `literals` as whole strings too, and whether the gold's `names` are
    its vocabulary."""
    out = []
    if p.walk is not None:
        readable = [(f"{h.commit}:{h.path}", h.blob) for h in p.held if h.blob not in p.missing]
        found = engine.locate(git_dir, repo, readable, patterns, "history") if readable else {}
        out.append(ScopeRead(scope="history", read=history.described(p.walk.ancestors),
                             command=history.command(p.commit, len(p.walk.ancestors), excluded)
                             if p.walk.ancestors else "",
                             found=found))
    for lib in p.libraries:
        if lib.lib is None:
            out.append(ScopeRead(scope="stdlib", read=lib.label, command=""))
            continue
        found, whole, words = _read_library(engine, lib.lib, patterns, literals, names)
        n = len(lib.lib.entries)
        decl = p.declarations.get(lib.family)
        said = ""
        if decl is not None:
            said = f"; the repository declares {decl.text()}" + (
                ", newer than these sources" if declared.newer(decl, lib.lib.source.version)
                else "")
        out.append(ScopeRead(scope="stdlib", read=f"{lib.label}, {n} file{'s' if n > 1 else ''}"
                             + said,
                             found=found, quoted=whole, command=lib.lib.source.grep,
                             vocabulary=words, vocabulary_command=lib.lib.source.words,
                             files=n))
    if p.packages:
        out.append(_dependencies(engine, p.packages, patterns, literals, names, p.ranges_date))
    elif any(u.scope == "dependencies" for u in p.unread):
        out.append(ScopeRead(scope="dependencies", command="",
                             read="dependencies: no pinned package could be read"))
    return out


def _read_library(engine: Engine, lib: libraries.Library, patterns: Sequence[str],
                  literals: Sequence[str], names: Sequence[str]
                  ) -> tuple[dict[str, str], ...]:
    """A library's hits: constants anywhere, literals as whole strings (a constant's first
    quoted form found, in quote order), names as its vocabulary."""
    forms = {q: c for c in literals for q in quoted(c)}
    found = engine.locate(lib.read, libraries.REPO, lib.entries, _forms(patterns, literals),
                          lib.source.label)
    whole: dict[str, str] = {}
    for q in sorted(forms):
        if q in found:
            whole.setdefault(forms[q], found[q])
    return ({c: found[c] for c in patterns if c in found}, whole,
            _vocabulary(engine, lib, {c: found[c] for c in names if c in found}))


def _dependencies(engine: Engine, packages: Sequence[dependencies.Package],
                  patterns: Sequence[str], literals: Sequence[str], names: Sequence[str],
                  date: str = "") -> ScopeRead:
    """One scope for all of a case's pinned packages: each hit is "<package>@<version>:
    <path>:<line>", the first package (in name order) holding it; the commands read each
    package's files in turn. Packages read at the version their range gave on `date` are
    counted as such."""
    found: dict[str, str] = {}
    whole: dict[str, str] = {}
    words: dict[str, str] = {}
    for pkg in sorted(packages, key=lambda pkg: pkg.name):
        for mine, theirs in zip((found, whole, words),
                                _read_library(engine, pkg.lib, patterns, literals, names),
                                strict=True):
            for c, at in theirs.items():
                mine.setdefault(c, f"{pkg.name}:{at}")
    shown = sorted(packages, key=lambda pkg: pkg.name)
    n = sum(len(pkg.lib.entries) for pkg in shown)
    names = ", ".join(pkg.name for pkg in shown[:5]) \
        + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")
    ranged = sum(bool(pkg.pin.spec) for pkg in shown)
    at = (f"; {ranged} of them unpinned, read at the newest release their range admitted on "
          f"{date} (the base commit's date)" if ranged else "")
    return ScopeRead(
        scope="dependencies",
        read=f"dependencies: {len(shown)} pinned package{'s' if len(shown) > 1 else ''} "
             f"({names}), {n} file{'s' if n != 1 else ''}{at}",
        found=found, quoted=whole, vocabulary=words,
        command="; ".join(pkg.lib.source.grep for pkg in shown),
        vocabulary_command="; ".join(pkg.lib.source.words.replace(
            "{floor}", str(floor(len(pkg.lib.entries)))) for pkg in shown),
        files=n)


_WORDS: dict[tuple[str, str], int] = {}


def _vocabulary(engine: Engine, lib: libraries.Library, found: dict[str, str]
                ) -> dict[str, str]:
    """The found names the library holds as a whole word in `floor` of its files or more
    (a substring count first: only names past it are read again)."""
    ids = {b for _, b in lib.entries}
    least = floor(len(lib.entries))
    out = {}
    for c in sorted(found):
        if not IDENTIFIER.fullmatch(c):
            continue
        held = engine.holding(libraries.REPO, c) & ids
        if sum(b in held for _, b in lib.entries) < least:
            continue
        key = (lib.listing, c)
        if key not in _WORDS:  # a common name is read again once per process, not per case
            word = re.compile(rb"(?<![A-Za-z0-9_$])" + re.escape(c.encode())
                              + rb"(?![A-Za-z0-9_$])")
            files = collections.Counter(b for _, b in lib.entries if b in held)
            n = 0
            for b, data in lib.read(sorted(held)):
                if data is not None and word.search(data):
                    n += files[b]  # files, not contents
                    if n >= least:
                        break  # enough: a common name is not read through all its files
            _WORDS[key] = n
        if _WORDS[key] >= least:
            out[c] = f"a whole word in {least} of its {len(lib.entries)} files or more, {found[c]}"
    return out
