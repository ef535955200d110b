"""Processes for the proposer, the one phase that is pure Python work on the CPU: the run's
threads (`--jobs`) share one interpreter lock, so its parses would otherwise take turns.

A call hands a worker everything it reads (the patches and the base files they touch) and
takes back the encoded proposal. Without a pool (`--jobs 1`, tests, other commands) the
same function runs in the calling thread. A worker that asks for a file it was not handed
says so, and the call is made again in the caller, whose reader has the whole tree.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import msgspec

from determinacy import clock

_POOL: ProcessPoolExecutor | None = None
_JOBS = 1
_LOCK = threading.Lock()


class _Unlisted(Exception):
    """A worker's proposer asked for a file the caller did not hand it."""


def start(jobs: int) -> None:
    """Let the run's proposals use `jobs` processes (none for one job). They start with the
    first proposal, so a run with nothing to propose starts none."""
    global _JOBS
    with _LOCK:
        _JOBS = jobs


def parallel() -> bool:
    """Whether proposals run in processes (the run's threads then mostly wait on them)."""
    return _JOBS > 1


def _pool() -> ProcessPoolExecutor | None:
    """Spawned, not forked: the run has threads, and a forked child inherits their locks in
    whatever state."""
    global _POOL
    with _LOCK:
        if _JOBS > 1 and _POOL is None:
            _POOL = ProcessPoolExecutor(_JOBS, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_setup)
        return _POOL


def _worker_setup() -> None:
    # Ctrl-C reaches the whole process group: the run stops its workers itself (`stop`).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A run killed outright (SIGKILL) stops nothing: a worker would wait for work forever.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def stop() -> None:
    global _POOL, _JOBS
    with _LOCK:
        pool, _POOL, _JOBS = _POOL, None, 1
    if pool is not None:
        pool.shutdown(cancel_futures=True)


def proposal(gold: str, test: str, test_paths: Sequence[str], min_length: int,
             fail_to_pass: Sequence[str], read: Callable[[str], str | None],
             paths: Iterable[str], mirrors: Sequence[str] = ()) -> bytes:
    """The encoded proposal of `propose`, whose post-images read base files through `read`:
    in a worker when the run has a pool (handed the texts of `paths`, the files the patches
    touch and the `mirrors`), else here. (`propose` reports a bad patch in the proposal,
    never by raising.)"""
    args = (gold, test, list(test_paths), min_length, list(fail_to_pass), list(mirrors))
    pool = _pool()
    if pool is not None:
        texts = {p: read(p) for p in sorted(paths)}
        try:
            out, cpu = pool.submit(_in_worker, *args, texts).result()
            clock.handed(cpu)
            return out
        except (BrokenProcessPool, _Unlisted):
            pass  # computed here instead (a worker died, or needed another file)
    return _propose(*args, read)


def _in_worker(gold: str, test: str, test_paths: list[str], min_length: int,
               fail_to_pass: list[str], mirrors: list[str],
               texts: dict[str, str | None]) -> tuple[bytes, float]:
    """The proposal, and the CPU seconds the worker spent on it (the run's clock)."""
    start = time.process_time()

    def read(path: str) -> str | None:
        if path not in texts:
            raise _Unlisted(path)
        return texts[path]

    out = _propose(gold, test, test_paths, min_length, fail_to_pass, mirrors, read)
    return out, time.process_time() - start


def _propose(gold: str, test: str, test_paths: list[str], min_length: int,
             fail_to_pass: list[str], mirrors: list[str],
             read: Callable[[str], str | None]) -> bytes:
    # Imported on the first proposal (in each worker): a no-op run makes none.
    from determinacy.proposer.propose import propose

    return msgspec.json.encode(propose(gold, test, test_paths, min_length,
                                       fail_to_pass=fail_to_pass, read=read, mirrors=mirrors),
                               order="sorted")
