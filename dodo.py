"""`doit` entry point: the same task graph as `determinacy run`.

    doit                                  # the demo benchmark
    doit config=examples/swebench-pro.toml
    DETERMINACY_CONFIG=my.toml doit       # or determinacy.toml in the current folder
    doit agent="python examples/demo/recorded_agent.py" passes=2   # agent tiers, as `run`

Store and reports go where `determinacy run` puts them (DETERMINACY_STORE, else the config's
`store`, else ./store; DETERMINACY_RUNS).
"""

import os
import signal
import sys
from pathlib import Path

from doit import get_var

from determinacy import dodb
from determinacy.cli import _term, agent_setups, find_config
from determinacy.config import load_config
from determinacy.errors import DeterminacyError
from determinacy.graph import Audit, build_graph, doit_config, prepare
from determinacy.store import Store

try:
    _limit = get_var("limit", os.environ.get("DETERMINACY_LIMIT"))
    _cfg = load_config(find_config(get_var("config")))
    _pass, _passes, _timeout = get_var("pass"), get_var("passes"), get_var("agent_timeout")
    _audit = prepare(Audit(
        cfg=_cfg,
        store=Store(os.environ.get("DETERMINACY_STORE") or _cfg.store_dir()),
        runs=Path(os.environ.get("DETERMINACY_RUNS", "runs")),
        limit=int(_limit) if _limit else None,
        agents=agent_setups(_cfg, get_var("agent"), get_var("refuter"),
                            int(_pass) if _pass else None, int(_passes) if _passes else None,
                            float(_timeout) if _timeout else None),
    ))
except (DeterminacyError, ValueError) as e:  # the same one line as `determinacy run`
    print(f"error: {e}", file=sys.stderr)
    sys.exit(2)
signal.signal(signal.SIGTERM, _term)

dodb.STATS = _audit.store.stats
DOIT_CONFIG = doit_config(_audit)
globals().update(build_graph(_audit))
