"""Every constant of a batch looked for in one blob at once (Aho-Corasick): pure, no git.

A constant counts as found in a blob when its exact bytes occur in the raw blob (what
`git grep -F --text` reads) or in the blob's text re-encoded as UTF-8 when it is UTF-16 or
Latin-1. An identifier that occurs only with other letter case is a *case variant*: recorded
for the reader, never a hit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import ahocorasick_rs

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def searchable_constant(constant: str) -> bool:
    """What a fixed-string line search can find: not empty, on one line, no NUL."""
    return bool(constant) and "\n" not in constant and "\0" not in constant


def encode(constant: str) -> bytes:
    return constant.encode("utf-8", "surrogatepass")


class Scanner:
    """One automaton over the lower-cased constants: a blob is lower-cased (ASCII letters
    only, so offsets stay put) and scanned once; each constant it may hold is then confirmed
    exactly with `bytes.find`. Exact hits are a subset of the case-insensitive ones."""

    def __init__(self, constants: Sequence[str]):
        self.constants = list(constants)
        self._exact = [encode(c) for c in self.constants]
        self._lower = [b.lower() for b in self._exact]
        self._identifier = [bool(_IDENTIFIER.fullmatch(c)) for c in self.constants]
        distinct = sorted(set(self._lower))
        self._by_lower: list[list[int]] = [[] for _ in distinct]
        slot = {p: i for i, p in enumerate(distinct)}
        for i, p in enumerate(self._lower):
            self._by_lower[slot[p]].append(i)
        self.latin1 = any(not b.isascii() for b in self._exact)
        self._ac = ahocorasick_rs.BytesAhoCorasick(
            distinct, implementation=ahocorasick_rs.Implementation.DFA) if distinct else None

    def scan(self, data: bytes) -> tuple[dict[int, int], dict[int, int]]:
        """(constant index -> first line of an exact hit, identifier index -> first line of a
        case variant where there is no exact hit), over the blob's searchable forms in order."""
        exact: dict[int, int] = {}
        variant: dict[int, int] = {}
        if self._ac is None:
            return exact, variant
        for form in searchable(data, self.latin1):
            low = form.lower()
            slots = {m[0] for m in self._ac.find_matches_as_indexes(low, overlapping=True)}
            for s in slots:
                for i in self._by_lower[s]:
                    if i in exact:
                        continue
                    at = form.find(self._exact[i])
                    if at >= 0:
                        exact[i] = form.count(b"\n", 0, at) + 1
                    elif self._identifier[i] and i not in variant:
                        at = low.find(self._lower[i])
                        variant[i] = low.count(b"\n", 0, at) + 1
        for i in exact:
            variant.pop(i, None)
        return exact, variant


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
