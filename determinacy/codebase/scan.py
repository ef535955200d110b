"""Every constant of a batch looked for in one blob at once (Aho-Corasick): pure, no git.

A constant counts as found in a blob when its exact bytes occur in the raw blob (what
`git grep -F --text` reads) or in the blob's text re-encoded as UTF-8 when it is UTF-16 or
Latin-1. An identifier that occurs only with other letter case is a *case variant*: recorded
for the reader, never a hit.
"""

from __future__ import annotations

import operator
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import ahocorasick_rs

IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def searchable_constant(constant: str) -> bool:
    """What a fixed-string line search can find: not empty, on one line, no NUL."""
    return bool(constant) and "\n" not in constant and "\0" not in constant


def encode(constant: str) -> bytes:
    return constant.encode("utf-8", "surrogatepass")


class Scanner:
    """One automaton run once over a blob. Exact: which constants the blob holds. Variant
    (for identifiers a tree lacks): which the lower-cased blob holds lower-cased (ASCII
    letters only) but the blob does not hold exactly. Only *which* is computed here: the line
    of the one occurrence a reader is shown is found afterwards (`first_line`)."""

    def __init__(self, constants: Sequence[str], variant: bool = False,
                 backend: str | None = None):
        self.constants = list(constants)
        self.variant = variant
        self._bytes = [encode(c) for c in self.constants]
        self.latin1 = any(not b.isascii() for b in self._bytes)
        self._automaton = _Automaton([b.lower() for b in self._bytes] if variant
                                     else self._bytes, range(len(self._bytes)), backend)

    def scan(self, data: bytes) -> set[int]:
        """Indices of the constants found, over the blob's searchable forms."""
        forms = searchable(data, self.latin1)
        if not self.variant:
            return set().union(*(self._automaton.found(f) for f in forms))
        lowered = set().union(*(self._automaton.found(f.lower()) for f in forms))
        return {i for i in lowered if not any(self._bytes[i] in f for f in forms)}


class _Automaton:
    """Patterns (bytes, duplicates allowed) and the constant indices they stand for. Which
    patterns a blob holds is asked of Hyperscan where it is installed (each pattern reported
    once per blob, however often it occurs: `elf` inside every `self` costs one report), else
    of ahocorasick-rs (every occurrence reported, then made a set): the same answers."""

    def __init__(self, patterns: Sequence[bytes], ids: Iterable[int],
                 backend: str | None = None):
        distinct = sorted(set(patterns))
        slot = {p: n for n, p in enumerate(distinct)}
        self._ids: list[list[int]] = [[] for _ in distinct]
        for p, i in zip(patterns, ids):
            self._ids[slot[p]].append(i)
        # Slot n stands for constant n alone (distinct sorted constants, the usual batch):
        # the slots found are the answer.
        self._same = all(ids == [n] for n, ids in enumerate(self._ids))
        self._ac: ahocorasick_rs.BytesAhoCorasick | None = None
        self._hs: Any = None
        if distinct and (backend or BACKEND) == "hyperscan":
            self._hs = _hyperscan(distinct)
        if distinct and self._hs is None:
            self._ac = ahocorasick_rs.BytesAhoCorasick(
                distinct, implementation=ahocorasick_rs.Implementation.DFA)

    def found(self, data: bytes) -> set[int]:
        if self._hs is not None:
            slots = self._hs(data)
        elif self._ac is not None:
            # Overlapping: a constant inside or across another one's match is still reported.
            slots = set(map(_FIRST, self._ac.find_matches_as_indexes(data, overlapping=True)))
        else:
            return set()
        if self._same:
            return slots
        return {i for s in slots for i in self._ids[s]}


_FIRST = operator.itemgetter(0)


def _backend() -> str:
    try:
        import hyperscan  # noqa: F401
    except ImportError:  # no wheel for this platform
        return "ahocorasick"
    return "hyperscan"


BACKEND = _backend()


def _hyperscan(patterns: list[bytes]) -> Callable[[bytes], set[int]] | None:
    """Which of `patterns` (literal bytes) a blob holds, by one Hyperscan block scan. Its
    scratch space is per thread: the scanning threads of a pass share the database."""
    import hyperscan

    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        db.compile(expressions=patterns, ids=list(range(len(patterns))),
                   elements=len(patterns), flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(patterns),
                   literal=True)
    except hyperscan.error:  # a set it cannot compile: the other automaton takes it
        return None
    local = threading.local()

    def on_match(slot: int, start: int, end: int, flags: int, found: set[int]) -> None:
        found.add(slot)

    def found(data: bytes) -> set[int]:
        scratch = getattr(local, "scratch", None)
        if scratch is None:
            scratch = local.scratch = hyperscan.Scratch(db)
        out: set[int] = set()
        if data:
            db.scan(data, match_event_handler=on_match, context=out, scratch=scratch)
        return out

    return found


def first_line(data: bytes, constant: str, variant: bool = False) -> int:
    """The 1-based line of the constant's first occurrence in the first searchable form of
    the blob that holds it (any letter case when `variant`); 0 when it does not occur."""
    needle = encode(constant)
    for form in searchable(data, not needle.isascii()):
        hay, pin = (form.lower(), needle.lower()) if variant else (form, needle)
        at = hay.find(pin)
        if at >= 0:
            return form.count(b"\n", 0, at) + 1
    return 0


def searchable(data: bytes, latin1: bool = True) -> list[bytes]:
    """The byte strings a constant is looked for in: the raw blob, and its text re-encoded as
    UTF-8 when it is UTF-16 (BOM or the NUL pattern of ASCII text) or, for non-ASCII
    constants, Latin-1 (not UTF-8, no NUL)."""
    out = [data]
    encoding = _utf16(data)
    if encoding:
        out.append(data.decode(encoding, "replace").encode("utf-8"))
    elif latin1 and b"\0" not in data and not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            out.append(data.decode("latin-1").encode("utf-8"))
    return out


def _utf16(data: bytes) -> str:
    if data[:4] in (b"\xff\xfe\0\0", b"\0\0\xfe\xff"):
        return "utf-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    head = data[:4096]
    if len(head) < 4 or len(data) % 2:
        return ""
    half = len(head) // 2
    odd, even = head[1::2].count(0), head[0::2].count(0)
    if odd > 0.4 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.4 * half and odd < 0.05 * half:
        return "utf-16-be"
    return ""
