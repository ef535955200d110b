"""Which captured spans (scopes, tests, regions) hold each token: sweeps, no tree walk.

Every span is a syntax node, so any two are nested or disjoint and a stack suffices. Only
the innermost span and each span's parent are kept: a full chain per token would cost
depth x tokens on deeply nested input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Interval(Generic[T]):
    start: int  # byte offsets, end exclusive
    end: int
    item: T


def _ordered(intervals: Sequence[Interval[T]]) -> list[Interval[T]]:
    return sorted(intervals, key=lambda iv: (iv.start, -iv.end))


def innermost(intervals: Sequence[Interval[T]], points: Sequence[int]) -> list[T | None]:
    """For each of the sorted `points`, the item of the smallest interval holding it."""
    ordered = _ordered(intervals)
    out: list[T | None] = []
    stack: list[Interval[T]] = []
    nxt = 0
    for p in points:
        while nxt < len(ordered) and ordered[nxt].start <= p:
            iv = ordered[nxt]
            nxt += 1
            while stack and stack[-1].end <= iv.start:
                stack.pop()
            stack.append(iv)
        while stack and stack[-1].end <= p:
            stack.pop()
        out.append(stack[-1].item if stack else None)
    return out


def parents(intervals: Sequence[Interval[T]]) -> list[tuple[T, T | None]]:
    """Each interval's item with the item of the smallest interval around it, outermost
    first."""
    out: list[tuple[T, T | None]] = []
    stack: list[Interval[T]] = []
    for iv in _ordered(intervals):
        while stack and stack[-1].end <= iv.start:
            stack.pop()
        out.append((iv.item, stack[-1].item if stack else None))
        stack.append(iv)
    return out


class _Spanned(Protocol):
    @property
    def start_point(self) -> tuple[int, int]: ...
    @property
    def end_point(self) -> tuple[int, int]: ...


def line_span(node: _Spanned) -> tuple[int, int]:
    """1-based first and last line of a node (a node ending at a line's start ends before)."""
    (r0, _), (r1, c1) = node.start_point, node.end_point
    if c1 == 0 and r1 > r0:
        r1 -= 1
    return r0 + 1, r1 + 1
