"""Where a run's time goes: wall and CPU seconds per phase (thread-safe, in memory only).

A phase's wall time is the span from its first step's start to its last step's end (steps of
one phase overlap under `--jobs`); its CPU time is the sum over its steps of the CPU of the
thread that ran each, plus what the step handed to other threads or processes and they
reported back (`handed`): a proposal computed in a worker process, a search's scanning
threads. Nothing here reaches a report: timings are the run's, never the audit's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_LOCK = threading.Lock()
_SPANS: dict[str, list[float]] = {}  # phase -> [first start, last end, cpu seconds, steps]
_LOCAL = threading.local()


def reset() -> None:
    with _LOCK:
        _SPANS.clear()


def handed(cpu: float) -> None:
    """CPU seconds spent for the running step elsewhere (a worker process, helper threads)."""
    _LOCAL.handed = getattr(_LOCAL, "handed", 0.0) + cpu


@contextmanager
def step(phase: str) -> Iterator[None]:
    """Time one step of `phase` in this thread."""
    outer = getattr(_LOCAL, "handed", 0.0)
    _LOCAL.handed = 0.0
    wall, cpu = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        end, used = time.perf_counter(), time.thread_time() - cpu + _LOCAL.handed
        _LOCAL.handed = outer
        with _LOCK:
            span = _SPANS.setdefault(phase, [wall, end, 0.0, 0])
            span[0], span[1] = min(span[0], wall), max(span[1], end)
            span[2] += used
            span[3] += 1


def timed(phase: str, fn: Callable[[], T]) -> Callable[[], T]:
    def run() -> T:
        with step(phase):
            return fn()

    return run


def thread_cpu(fn: Callable[..., T]) -> Callable[..., tuple[T, float]]:
    """`fn` that also returns the CPU seconds its thread spent on the call."""

    def run(*args: object) -> tuple[T, float]:
        start = time.thread_time()
        out = fn(*args)
        return out, time.thread_time() - start

    return run


def phases() -> dict[str, dict[str, float]]:
    """phase -> {"wall": s, "cpu": s, "steps": n}, in the order phases first started."""
    with _LOCK:
        spans = sorted(_SPANS.items(), key=lambda kv: kv[1][0])
    return {p: {"wall": round(end - start, 3), "cpu": round(cpu, 3), "steps": int(n)}
            for p, (start, end, cpu, n) in spans}
