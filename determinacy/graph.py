"""The task graph: one doit task per (phase, case), then `tables` and `report`.

`build_graph` is the only place the graph is defined; `determinacy run` and `dodo.py` both load
it, so either one resumes what the other left.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from doit.cmd_base import TaskLoader2
from doit.loader import generate_tasks
from doit.tools import config_changed

from determinacy import __version__, dodb, phases
from determinacy.config import Config, config_digest
from determinacy.dodb import ProgressReporter
from determinacy.records import CaseError, Check, RunInfo, Task
from determinacy.source import Loaded, load_tasks
from determinacy.store import Store, write_if_changed
from determinacy.tables import TABLES, error_row, task_row, write_tables


@dataclass
class Audit:
    """Everything one audit run needs: config, store, where reports go, and the tasks."""

    cfg: Config
    store: Store
    runs: Path
    limit: int | None = None
    loaded: Loaded = field(default_factory=Loaded)

    @property
    def name(self) -> str:
        return self.cfg.name

    @property
    def out(self) -> Path:
        return self.runs / self.cfg.name

    def ref(self, phase: str, case_id: str) -> Path:
        return self.store.refs(self.name) / phase / f"{case_id}.json"

    @property
    def source_ref(self) -> Path:
        return self.store.refs(self.name) / "source.json"

    def table(self, name: str) -> Path:
        return self.store.tables(self.name) / f"{name}.parquet"

    def run_info(self) -> RunInfo:
        src = self.cfg.source
        return RunInfo(
            benchmark=self.name, description=self.cfg.description, tool_version=__version__,
            config_digest=config_digest(self.cfg),
            source=f"jsonl:{Path(src.jsonl).name}" if src.jsonl
            else f"parquet:{Path(src.parquet).name}" if src.parquet
            else f"hf:{src.hf_dataset}[{src.split}]",
            source_revision=self.loaded.revision, absence=self.cfg.policy.absence,
            test_paths=list(self.cfg.policy.test_paths), min_length=self.cfg.policy.min_length,
            passes=[], agent="",
        )


def prepare(audit: Audit) -> Audit:
    """Read the source and record what was read: the graph's first, cheap, step."""
    audit.loaded = load_tasks(audit.cfg, audit.limit)
    manifest = {
        "tasks": sorted([t.case_id, phases.task_inputs(audit.store, t)["task"]]
                        for t in audit.loaded.tasks),
        "errors": [msgspec.to_builtins(e) for e in sorted(audit.loaded.errors,
                                                           key=lambda e: (e.row, e.case_id))],
        "run": msgspec.to_builtins(audit.run_info()),
    }
    # Unchanged bytes keep the old mtime: doit then sees nothing to redo.
    write_if_changed(audit.source_ref, msgspec.json.encode(manifest, order="sorted"))
    return audit


def _origin_error(ref: phases.Ref, phase: str) -> dict[str, str]:
    """doit `values` of a phase: the error it raised itself (propagated ones are not repeated)."""
    if ref.error is not None and ref.error.phase == phase:
        return {"error": ref.error.message}
    return {"error": ""}


def _no_retry(path: Path) -> Callable[[], bool]:
    return lambda: not phases.ref_needs_retry(path)


def build_graph(audit: Audit) -> dict[str, Callable[[], Any]]:
    """Task creators by doit name. Not called `task_*` on purpose (doit would collect them)."""
    store, cfg = audit.store, audit.cfg
    tasks = audit.loaded.tasks

    def task_propose() -> Any:
        """Parse both patches and propose candidate constants."""
        params = phases.propose_params(cfg)
        for t in tasks:
            out = audit.ref("propose", t.case_id)
            inputs = phases.task_inputs(store, t)

            def action(t: Task = t, out: Path = out) -> dict[str, str]:
                return _origin_error(phases.run_propose(store, cfg, t, out), "propose")

            yield {
                "name": t.case_id, "actions": [action], "targets": [str(out)],
                "uptodate": [config_changed({"v": phases.VERSIONS["propose"], **params,
                                             "gold": inputs["gold"], "test": inputs["test"]}),
                             _no_retry(out)],
            }

    def task_codebase() -> Any:
        """Search the tree at base_commit for every candidate (one batched git grep)."""
        for t in tasks:
            up, out = audit.ref("propose", t.case_id), audit.ref("codebase", t.case_id)

            def action(t: Task = t, up: Path = up, out: Path = out) -> dict[str, str]:
                return _origin_error(phases.run_codebase(store, cfg, t, up, out), "codebase")

            yield {
                "name": t.case_id, "actions": [action], "file_dep": [str(up)],
                "targets": [str(out)],
                "uptodate": [config_changed({"v": phases.VERSIONS["codebase"],
                                             **phases.codebase_params(cfg, t)}),
                             _no_retry(out)],
            }

    def task_settle() -> Any:
        """Settle candidates against prose and codebase; certify AIRTIGHT witnesses."""
        for t in tasks:
            p, c = audit.ref("propose", t.case_id), audit.ref("codebase", t.case_id)
            out = audit.ref("settle", t.case_id)

            def action(t: Task = t, p: Path = p, c: Path = c, out: Path = out) -> dict[str, str]:
                return _origin_error(phases.run_settle(store, cfg, t, p, c, out), "settle")

            yield {
                "name": t.case_id, "actions": [action], "file_dep": [str(p), str(c)],
                "targets": [str(out)],
                "uptodate": [config_changed({"v": phases.VERSIONS["settle"],
                                             "task": phases.task_inputs(store, t)["task"]}),
                             _no_retry(out)],
            }

    def task_tables() -> Any:
        """Consolidate every case's records into the benchmark's parquet tables."""
        settle_refs = [audit.ref("settle", t.case_id) for t in tasks]

        def action() -> None:
            checks: list[Check] = []
            errors: list[CaseError] = list(audit.loaded.errors)
            for path in settle_refs:
                ref = phases.read_ref(path)
                if ref.error is not None:
                    errors.append(ref.error)
                else:
                    checks.extend(phases.load_result(store, ref).checks)
            rows = [task_row(t) for t in tasks] + [error_row(e) for e in audit.loaded.errors]
            write_tables(store.tables(audit.name), rows, checks, errors, audit.run_info())

        return {
            "actions": [action],
            "file_dep": [str(audit.source_ref)] + [str(p) for p in settle_refs],
            "targets": [str(audit.table(n)) for n in TABLES],
            "uptodate": [_no_retry_any(settle_refs)],
        }

    def task_report() -> Any:
        """Render REPORT.md, CLAIMS.md and every receipt from the tables (SQL only)."""
        from determinacy.report import render

        return {
            "actions": [lambda: render(store, cfg, audit.runs) and None],
            "file_dep": [str(audit.table(n)) for n in TABLES],
            "targets": [str(audit.out / "REPORT.md"), str(audit.out / "CLAIMS.md")],
        }

    creators = {"task_propose": task_propose, "task_codebase": task_codebase,
                "task_settle": task_settle, "task_tables": task_tables, "task_report": task_report}
    return {name: _uncaptured(c) for name, c in creators.items()}


def _uncaptured(creator: Callable[[], Any]) -> Callable[[], Any]:
    """Tell doit not to swap sys.stdout around actions: with parallel threads the swaps race
    and leave the process writing into a dead capture buffer. Our actions print nothing."""

    def wrapped() -> Any:
        made = creator()
        if isinstance(made, dict):
            return {**made, "io": {"capture": False}}
        return ({**t, "io": {"capture": False}} for t in made)

    wrapped.__doc__ = creator.__doc__
    wrapped.__name__ = creator.__name__
    return wrapped


def _no_retry_any(paths: list[Path]) -> Callable[[], bool]:
    # A case waiting for a retry re-collects the tables after it ran again.
    return lambda: not any(phases.ref_needs_retry(p) for p in paths)


def doit_config(audit: Audit) -> dict[str, Any]:
    dep = audit.store.dep_file(audit.name)
    dep.parent.mkdir(parents=True, exist_ok=True)
    return {
        "backend": "sqlite-wal",
        "dep_file": str(dep),
        "verbosity": 0,
        "continue": True,
        "reporter": ProgressReporter,
        "default_tasks": ["report"],
    }


class DeterminacyLoader(TaskLoader2):
    def __init__(self, audit: Audit, outstream: Any = None):
        super().__init__()
        self.audit = audit
        self.outstream = outstream

    def setup(self, opt_values: dict[str, Any]) -> None:
        pass

    def load_doit_config(self) -> dict[str, Any]:
        config = doit_config(self.audit)
        # doit binds sys.stdout when it is imported; name the stream of this run explicitly.
        config["outfile"] = self.outstream or sys.stdout
        return config

    def load_tasks(self, cmd: Any, pos_args: list[str]) -> list[Any]:
        dodb.STATS = self.audit.store.stats
        out = []
        for name, creator in sorted(build_graph(self.audit).items()):
            out.extend(generate_tasks(name[len("task_"):], creator(), creator.__doc__))
        return out
