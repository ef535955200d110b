"""Termination signals reach the main thread, the one that handles them.

The kernel hands a signal sent to the process to any thread that does not block it. Python
runs the handler in the main thread only, and only once that thread wakes: a main thread
asleep on doit's result queue slept through a SIGINT handed to a worker thread while every
worker waited on a hung agent (the run ignored it). So every other thread blocks them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

STOP = frozenset({signal.SIGINT, signal.SIGTERM})


def off_main() -> None:
    """Block the termination signals in this thread, unless it is the main one (cheap: call
    it at the start of anything a worker thread runs)."""
    if threading.current_thread() is not threading.main_thread():
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP)


@contextmanager
def for_new_threads() -> Iterator[None]:
    """Threads started inside inherit a mask that blocks the termination signals; the
    calling thread's mask is restored on return."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
