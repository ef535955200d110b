"""`run --executor dask`: the shards of an audit as the tasks of a Dask cluster.

Each shard is `determinacy run CONFIG --shard I/N` in a process of its own on a worker,
writing a store of its own (`<store>.shards/I-of-N`, a folder every worker must reach: on one
machine any, on a cluster a shared filesystem). A worker that is lost takes its shard's
process with it (it dies with the worker's thread that started it), and the scheduler runs
the shard again on another worker, in the same shard store: what the lost attempt finished,
agent calls included, is served from that store's action cache, never computed twice. When
every shard is done their stores are merged into the local store (`Store.merge`; what an
earlier run left there under the same names gives way to the shards'), whose
tables are then written from them all (`graph.merge_tables`), and the report rendered: the
same bytes as one unsharded run.

Dask is an optional dependency (`pip install 'determinacy[dask]'`): `distributed` is
imported only here, only when this executor runs.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from determinacy.errors import DeterminacyError

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _dies_with_parent() -> None:
    """In the shard's process, before exec: SIGTERM when the worker thread that started it
    is gone (Linux; elsewhere a lost worker's shard runs on, into its own store, and the
    store's locks keep the retry from computing anything twice)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def run_shard(argv: list[str]) -> tuple[int, str]:
    """One shard on a worker: the CLI in a process of its own. Exit 0 or 3 (completed, some
    cases ERROR) is done; anything else raises, and Dask runs the shard again."""
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", *argv], capture_output=True,
                       text=True, preexec_fn=_dies_with_parent)
    if p.returncode not in (0, 3):
        raise RuntimeError(f"shard {argv[argv.index('--shard') + 1]} exited {p.returncode}: "
                           f"{p.stderr[-2000:]}")
    return p.returncode, p.stderr[-2000:]


def shard_store(store: Path, index: int, count: int) -> Path:
    return store.parent / f"{store.name}.shards" / f"{index}-of-{count}"


def run_on_dask(config: str, store: Path, count: int, scheduler: str | None, workers: int,
                extra: list[str], echo: Callable[[str], None]) -> list[int]:
    """Run the `count` shards of CONFIG on the cluster at `scheduler` (None: a local cluster
    of `workers` processes), each into its shard store; return their exit codes."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DeterminacyError("--executor dask needs Dask: pip install 'determinacy[dask]' "
                               "(or `uv sync --extra dask`)") from None
    cluster: Any = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    client = Client(scheduler or cluster)
    try:
        echo(f"dask: {len(client.scheduler_info()['workers'])} workers at "
             f"{client.scheduler.address}; {count} shards")
        futures = [client.submit(run_shard, [
            "run", config, "--shard", f"{i}/{count}", "--store",
            str(shard_store(store, i, count)), "--runs",
            str(shard_store(store, i, count) / "runs"), "--quiet", *extra],
            key=f"determinacy-shard-{i}-of-{count}", pure=False, retries=2)
            for i in range(count)]
        return [code for code, _ in client.gather(futures)]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
