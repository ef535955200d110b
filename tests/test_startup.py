"""Start-up cost: a command imports only what it uses (issue 23, item 11).

`determinacy --help` reads no metadata and loads no plotting, hub, table or syntax-tree
stack; `show` reads the tables (DuckDB) and nothing else heavy; a run with nothing to do
loads neither the proposer nor the wider scopes, and a report whose numbers did not change
redraws no plot, so never imports matplotlib. Each is checked in a fresh process.
(`tests/test_style.py` checks the graph module's own imports.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Audit, new_helper, row, widgets_repo, write_benchmark

# Loaded where they are used: plotting, the hub, parquet, syntax trees, the live bar.
HEAVY = ("matplotlib", "numpy", "huggingface_hub", "pyarrow", "duckdb", "tree_sitter", "rich")
# What a run with nothing to do never needs: the proposer, the diff parser and lexers, the
# wider absence scopes (registries, archives, version ranges).
PROPOSING = ("determinacy.proposer.propose", "determinacy.proposer.patches", "unidiff",
             "pygments", "determinacy.codebase.scopes", "determinacy.codebase.dependencies",
             "tarfile", "ssl")

DRIVER = """
import atexit, json, os, sys
atexit.register(lambda: open(os.environ["LOADED"], "w").write(json.dumps(sorted(sys.modules))))
from determinacy.cli import main
main(sys.argv[1:])
"""


def loaded(tmp: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run `determinacy ARGS` in a fresh process: its result and the modules it loaded."""
    out = tmp / "loaded.json"
    res = subprocess.run([sys.executable, "-c", DRIVER, *args], capture_output=True,
                         text=True, env={**os.environ, "LOADED": str(out)})
    return res, set(json.loads(out.read_text()))


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if n in modules)


def test_help_and_version_load_nothing_heavy(tmp_path: Path) -> None:
    res, mods = loaded(tmp_path, "--help")
    assert res.returncode == 0 and "Commands:" in res.stdout
    assert present(mods, (*HEAVY, "doit", "importlib.metadata")) == []
    res, mods = loaded(tmp_path, "--version")
    assert res.returncode == 0 and res.stdout.startswith("determinacy, version ")
    assert present(mods, (*HEAVY, "doit")) == []


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Audit, Path]:
    tmp = tmp_path_factory.mktemp("startup")
    repo = tmp / "mirrors" / "acme" / "widgets"
    base = widgets_repo(repo)
    rows = [row("acme__widgets-1", base, "Add frobnicate_widget, which returns 2.",
                *new_helper(repo, base))]
    cfg = write_benchmark(tmp / "b", rows, mirror=f"{tmp}/mirrors/{{owner}}/{{name}}")
    audit = Audit(tmp)
    audit.run(cfg)
    return audit, cfg


def test_noop_run_loads_no_proposer_and_draws_nothing(stored: tuple[Audit, Path],
                                                       tmp_path: Path) -> None:
    audit, cfg = stored
    res, mods = loaded(tmp_path, "run", str(cfg), "--store", str(audit.store), "--runs",
                       str(audit.runs), "--json")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["executed"] == 0 and summary["actions_computed"] == 0, summary
    assert present(mods, (*HEAVY, *PROPOSING)) == []
    assert "doit" in mods  # what runs the graph


def test_show_reads_the_tables_only(stored: tuple[Audit, Path], tmp_path: Path) -> None:
    audit, cfg = stored
    res, mods = loaded(tmp_path, "show", str(cfg), "acme__widgets-1", "--store",
                       str(audit.store), "--runs", str(audit.runs))
    assert res.returncode == 0 and "acme__widgets-1" in res.stdout, res.stderr
    assert "duckdb" in mods  # the receipt is a query over the tables
    assert present(mods, tuple(h for h in HEAVY if h != "duckdb") + ("doit", *PROPOSING)) == []


def test_report_with_the_same_numbers_redraws_no_plot(stored: tuple[Audit, Path],
                                                      tmp_path: Path) -> None:
    audit, cfg = stored
    before = (audit.runs / "bench" / "claimable.png").read_bytes()
    res, mods = loaded(tmp_path, "report", str(cfg), "--store", str(audit.store), "--runs",
                       str(audit.runs))
    assert res.returncode == 0, res.stderr
    assert (audit.runs / "bench" / "claimable.png").read_bytes() == before
    assert present(mods, ("matplotlib", "numpy", "tree_sitter", "huggingface_hub")) == []
