"""`doit` entry point: the same task graph as `determinacy run`.

    doit                                  # the demo benchmark
    doit config=examples/swebench-pro.toml
    DETERMINACY_CONFIG=my.toml doit

Store and reports go where `determinacy run` puts them (DETERMINACY_STORE, DETERMINACY_RUNS).
"""

import os
import signal
from pathlib import Path

from doit import get_var

from determinacy import dodb
from determinacy.cli import _term, default_config
from determinacy.config import load_config
from determinacy.graph import Audit, build_graph, doit_config, prepare
from determinacy.store import Store

_config = get_var("config", os.environ.get("DETERMINACY_CONFIG")) or str(default_config())
_limit = get_var("limit", os.environ.get("DETERMINACY_LIMIT"))
_audit = prepare(Audit(
    cfg=load_config(_config),
    store=Store(os.environ.get("DETERMINACY_STORE", "store")),
    runs=Path(os.environ.get("DETERMINACY_RUNS", "runs")),
    limit=int(_limit) if _limit else None,
))
signal.signal(signal.SIGTERM, _term)

dodb.STATS = _audit.store.stats
DOIT_CONFIG = doit_config(_audit)
globals().update(build_graph(_audit))
