"""Which captured spans (scopes, tests, regions) hold each token: sweeps, no tree walk.

Every span is a syntax node, so any two are nested or disjoint and a stack suffices. Only
the innermost span and each span's parent are kept: a full chain per token would cost
depth x tokens on deeply nested input.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, overload

T = TypeVar("T")


@dataclass(frozen=True)
class Interval(Generic[T]):
    start: int  # byte offsets, end exclusive
    end: int
    item: T


def _ordered(intervals: Sequence[Interval[T]]) -> list[Interval[T]]:
    return sorted(intervals, key=lambda iv: (iv.start, -iv.end))


@overload
def innermost(intervals: Sequence[Interval[T]], points: Sequence[int]) -> list[T | None]: ...


@overload
def innermost(intervals: Sequence[Interval[T]], points: Sequence[int], outside: T
              ) -> list[T]: ...


def innermost(intervals: Sequence[Interval[T]], points: Sequence[int],
              outside: T | None = None) -> list[T | None]:
    """For each of the sorted `points`, the item of the smallest interval holding it
    (`outside` for a point no interval holds)."""
    # Between two interval boundaries the innermost interval does not change: fill each such
    # run of points with one slice (found by bisection) instead of visiting every point.
    out: list[T | None] = [outside] * len(points)
    stack: list[Interval[T]] = []
    pos = 0  # the points before `pos` are filled

    def fill(to: int) -> None:
        nonlocal pos
        if stack and to > pos:
            lo, hi = bisect_left(points, pos), bisect_left(points, to)
            out[lo:hi] = [stack[-1].item] * (hi - lo)
        pos = max(pos, to)

    for iv in _ordered(intervals):
        while stack and stack[-1].end <= iv.start:
            fill(stack[-1].end)
            stack.pop()
        fill(iv.start)
        stack.append(iv)
    while stack:
        fill(stack[-1].end)
        stack.pop()
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
