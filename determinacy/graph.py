"""The task graph: one doit task per (phase, case), then `tables` and `report`.

`build_graph` is the only place the graph is defined; `determinacy run` and `dodo.py` both load
it, so either one resumes what the other left.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import os
import shlex
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from doit.cmd_base import TaskLoader2
from doit.loader import generate_tasks
from doit.tools import config_changed as _config_changed

from determinacy import __version__, clock, dodb, phases, prescreens, signals
from determinacy.agents import calls
from determinacy.agents import phases as ap
from determinacy.agents.phases import AgentSetup
from determinacy.codebase import repos, search
from determinacy.config import Config, config_digest, mapped_fields
from determinacy.dodb import ProgressReporter
from determinacy.errors import ConfigError, DeterminacyError, StoreError
from determinacy.prescreens.gold_runs import Run as GoldRun
from determinacy.proposer import pool
from determinacy.records import (
    CaseError,
    Check,
    MinedCommit,
    RunInfo,
    Selection,
    Task,
    ValidityCheck,
)
from determinacy.reports.tables import (
    TABLES,
    ScopeRow,
    Tables,
    TreeRow,
    error_row,
    table_digests,
    task_row,
    write_tables,
)
from determinacy.selection import select
from determinacy.sources import kinds
from determinacy.sources.rows import Loaded, load_tasks, locate, with_fields
from determinacy.store import DamagedObject, Store, atomic_write, digest, write_if_changed


@dataclass
class Audit:
    """Everything one audit run needs: config, store, where reports go, and the tasks."""

    cfg: Config
    store: Store
    runs: Path
    # Which rows to audit; `limit` is a shorthand for `selection.limit` (which holds it).
    limit: int | None = None
    selection: Selection = field(default_factory=Selection)
    loaded: Loaded = field(default_factory=Loaded)
    # One per agent pass to run now (empty: the mechanical tier only).
    agents: list[AgentSetup] = field(default_factory=list)
    # A store that cannot be written stops the run; the CLI reports the first such error.
    fatal: list[StoreError] = field(default_factory=list)
    # The harness's runs of the gold ([validity] gold_runs), read by `prepare`.
    gold_runs: list[GoldRun] = field(default_factory=list)
    _inputs: dict[str, dict[str, str]] = field(default_factory=dict)
    _mirrors: dict[str, str] = field(default_factory=dict)
    _refs_root: str = ""

    def __post_init__(self) -> None:
        if self.limit is not None and self.selection.limit is None:
            self.selection = msgspec.structs.replace(self.selection, limit=self.limit)
        self.limit = self.selection.limit

    def mirror_state(self, repo: str) -> str:
        """What the repository's mirror holds, once per graph load: a mirror completed (or
        damaged) in place makes its cases' codebase phase stale."""
        if repo not in self._mirrors:
            self._mirrors[repo] = repos.mirror_state(self.cfg, repo)
        return self._mirrors[repo]

    def inputs(self, task: Task) -> dict[str, str]:
        """Object hashes of a task's parts, stored once per graph load."""
        if task.case_id not in self._inputs:
            self._inputs[task.case_id] = phases.task_inputs(self.store, task)
        return self._inputs[task.case_id]

    @property
    def name(self) -> str:
        return self.cfg.name

    @property
    def shown(self) -> str:
        """Where this run's tables and reports go: the benchmark's name, or for a shard
        `<name>@I-of-N`, so shards sharing a store or a runs folder keep their own (the refs
        are the benchmark's: `store merge` writes the whole audit's tables from them)."""
        return shown_name(self.cfg.name, self.selection.shard)

    @property
    def out(self) -> Path:
        return self.runs / self.shown

    def ref(self, phase: str, case_id: str) -> str:
        return self._ref(f"{phase}/{case_id}.json")

    def agent_ref(self, phase: str, setup: AgentSetup, case_id: str) -> str:
        return self._ref(f"{phase}/{setup.slot}/{case_id}.json")

    def _ref(self, rel: str) -> str:
        """A ref's path as doit takes it, a string: a large benchmark has tens of thousands,
        and building a Path for each was a good part of a no-op run (actions make one)."""
        if not self._refs_root:
            self._refs_root = str(self.store.refs(self.name))
        return f"{self._refs_root}/{rel}"

    @property
    def source_ref(self) -> Path:
        return self.store.refs(self.name) / "source.json"

    def table(self, name: str) -> Path:
        return self.store.tables(self.shown) / f"{name}.parquet"

    def run_info(self) -> RunInfo:
        src = self.cfg.source
        return RunInfo(
            benchmark=self.name, description=self.cfg.description, tool_version=__version__,
            config_digest=config_digest(self.cfg),
            source=kinds.of(self.cfg).describe(src),
            source_revision=self.loaded.revision, absence=self.cfg.policy.absence,
            unreadable=self.cfg.policy.unreadable,
            test_paths=list(self.cfg.policy.test_paths), min_length=self.cfg.policy.min_length,
            passes=sorted(a.pass_no for a in self.agents),
            # Quoted as a shell would read it: the command can be pasted back.
            agent=shlex.join(self.agents[0].argv) if self.agents else "",
            refuter=shlex.join(self.agents[0].refuter) if self.agents else "",
            source_digest=self.loaded.source_digest,
            fields={k: path for k, path in mapped_fields(self.cfg.fields)
                    if not k.startswith("prose[")},
            prose_fields=list(self.cfg.fields.prose), fields_layout=self.cfg.layout,
            mirror=self.cfg.codebase.mirror, clone_url=self.cfg.codebase.clone_url,
            config_file=Path(self.cfg.file).name, selection=self.selection,
        )


class _SourceRead(msgspec.Struct, frozen=True):
    """A source as read once: its tasks and errors, and each task's input hashes."""

    tasks: list[Task]
    errors: list[CaseError]
    revision: str
    source_digest: str
    inputs: dict[str, dict[str, str]]
    mined: list[MinedCommit] = []


@functools.cache
def _code_digest() -> str:
    """The package's own code: reading a source again after any change to it is cheap, and
    safer than knowing which modules shape a Task."""
    root = Path(__file__).parent
    return digest(b"".join(p.read_bytes() for p in sorted(root.rglob("*.py"))))


def source_memo(store: Store, cfg_digest: str, selection: Selection, revision: str,
                source_digest: str) -> Path:
    """Where the source as read is kept: named by its bytes' hash with the config, what of
    it the selection reads and the tool's code. `store gc` keeps the one of each benchmark's
    last run (from its RunInfo)."""
    limit = None if selection.chooses else selection.limit
    key = digest(msgspec.json.encode([__version__, _code_digest(), cfg_digest, limit,
                                      revision, source_digest]))
    return store.root / "sources" / key


def _read_source(audit: Audit) -> None:
    """The tasks of the source, read once per content: the same bytes under the same config
    and code give the same tasks, so a rerun decodes them instead of parsing every row."""
    cfg, store = audit.cfg, audit.store
    located = locate(cfg)  # once: for a download, listing the files may ask the hub
    # No [fields] table: the default mapping of the layout the columns match.
    audit.cfg = cfg = with_fields(cfg, located)
    _, revision, source_digest = located
    # `limit` alone stops the read early; with other criteria it counts the rows they take,
    # so every row is read (the same read as a full run's).
    limit = None if audit.selection.chooses else audit.limit
    memo = source_memo(store, config_digest(cfg), audit.selection, revision, source_digest)
    with contextlib.suppress(OSError, msgspec.DecodeError, ValueError):
        name = memo.read_text().strip()
        data = store.get(name)
        if digest(data) != name:
            raise ValueError("a damaged object")  # read the source again
        read = msgspec.msgpack.decode(data, type=_SourceRead)
        audit.loaded = Loaded(tasks=read.tasks, errors=read.errors, revision=read.revision,
                              source_digest=read.source_digest, mined=read.mined)
        audit._inputs = dict(read.inputs)
        return
    audit.loaded = load_tasks(cfg, limit, located)
    read = _SourceRead(tasks=audit.loaded.tasks, errors=audit.loaded.errors,
                       revision=audit.loaded.revision,
                       source_digest=audit.loaded.source_digest,
                       inputs={t.case_id: audit.inputs(t) for t in audit.loaded.tasks},
                       mined=audit.loaded.mined)
    atomic_write(memo, store.put(msgspec.msgpack.encode(read)).encode())


def selected(audit: Audit) -> Loaded:
    """The tasks a run would audit, read as `prepare` reads them, recording nothing
    (`determinacy plan`)."""
    with long_lived():
        _read_source(audit)
        loaded = select(audit.loaded, audit.selection, audit.cfg.fields.keep)
    gc.unfreeze()
    return loaded


def prepare(audit: Audit) -> Audit:
    """Read the source, keep the rows selected, and record them: the graph's first, cheap,
    step. Raises SelectionError for a selection the source does not satisfy. Holds the
    store as in use (`Store.share`) for the rest of the run."""
    audit.gold_runs = gold_runs(audit.cfg)  # a file no format reads stops the run first
    audit.store.share()
    with long_lived():
        _read_source(audit)
        audit.loaded = select(audit.loaded, audit.selection, audit.cfg.fields.keep)
    manifest = {
        "tasks": sorted([t.case_id, audit.inputs(t)["task"]] for t in audit.loaded.tasks),
        "errors": [msgspec.to_builtins(e) for e in sorted(audit.loaded.errors,
                                                           key=lambda e: (e.row, e.case_id))],
        "run": msgspec.to_builtins(audit.run_info()),
        # A history source's walk: the commits table (its ledger) is written from it.
        "commits": digest(msgspec.json.encode(audit.loaded.mined)),
    }
    # Unchanged bytes keep the old mtime: doit then sees nothing to redo.
    write_if_changed(audit.source_ref, msgspec.json.encode(manifest, order="sorted"))
    return audit


def _origin_error(ref: phases.Ref, phase: str) -> dict[str, str]:
    """doit `values` of a phase: the error it raised itself (propagated ones are not repeated)."""
    if ref.error is not None and ref.error.phase == phase:
        return {"error": ref.error.message}
    return {"error": ""}


_NO_ARGS = inspect.Signature()
_CHECK_ARGS = inspect.signature(_config_changed({}))


def config_changed(config: dict[str, Any]) -> Any:
    """doit's `config_changed`, its signature given up front (see `_nullary`), over a digest
    of `config` made here: doit's own goes through `json.dumps`, a tenth of a no-op run."""
    check = _config_changed(digest(msgspec.json.encode(config, order="sorted")))
    check.__signature__ = _CHECK_ARGS
    return check


def _nullary(fn: Callable[[], Any]) -> Callable[[], Any]:
    """Say up front that `fn` takes no argument: doit inspects the signature of every action
    and up-to-date check it loads, which on a large benchmark is a good part of a no-op run."""
    fn.__signature__ = _NO_ARGS  # type: ignore[attr-defined]
    return fn


def _no_retry(path: str, store: Store) -> Callable[[], bool]:
    return _nullary(lambda: not phases.ref_needs_retry(path, store))


class _EarlySearch:
    """A repository's search, started in a thread of its own as soon as the run has made
    every proposal of the repository, beside the other repositories' proposals (which run in
    the workers' processes). doit would hand out the search task only after every proposal
    of the benchmark. Only a head start: the search task still runs `run_search`, which
    then finds its pairs covered, and reports any failure itself. Without worker processes
    (`--jobs 1`), or when some proposal of the repository is up to date, nothing starts."""

    def __init__(self, sizes: dict[str, int]):
        self._left = dict(sizes)
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    def proposed(self, repo: str, start: Callable[[], None]) -> None:
        with self._lock:
            self._left[repo] -= 1
            if self._left[repo] or not pool.parallel():
                return
            # Not a daemon: a run that ends meanwhile waits for the pass, never cuts it.
            thread = self._threads[repo] = threading.Thread(
                target=_quietly, args=(start,), name=f"search {repo}")
        thread.start()

    def join(self, repo: str) -> None:
        with self._lock:
            thread = self._threads.pop(repo, None)
        if thread is not None:
            thread.join()


def _quietly(fn: Callable[[], None]) -> None:
    with contextlib.suppress(Exception):  # the search task reports it (it runs it again)
        fn()


def build_graph(audit: Audit) -> dict[str, Callable[[], Any]]:
    """Task creators by doit name. Not called `task_*` on purpose (doit would collect them)."""
    store, cfg = audit.store, audit.cfg
    tasks = audit.loaded.tasks

    by_repo: dict[str, list[Task]] = {}
    for t in tasks:
        by_repo.setdefault(t.repo, []).append(t)
    early = _EarlySearch({repo: len(cases) for repo, cases in by_repo.items()})

    def search_repo(repo: str) -> None:
        cases = by_repo[repo]
        with clock.step("search"):  # here, not its task: that one may only wait for it
            phases.run_search(store, cfg, repo,
                              [(t, Path(audit.ref("propose", t.case_id))) for t in cases])

    def task_propose() -> Any:
        """Parse both patches and propose candidate constants."""
        params = phases.propose_params(cfg)
        for t in tasks:
            out = audit.ref("propose", t.case_id)
            inputs = audit.inputs(t)

            def action(t: Task = t, out: str = out) -> dict[str, str]:
                ref = phases.run_propose(store, cfg, t, Path(out))
                early.proposed(t.repo, functools.partial(search_repo, t.repo))
                return _origin_error(ref, "propose")

            yield {
                "name": t.case_id, "actions": [action], "targets": [out],
                "uptodate": [config_changed({"v": phases.VERSIONS["propose"], **params,
                                             "gold": inputs["gold"], "test": inputs["test"],
                                             "tests": t.fail_to_pass,
                                             "mirror state": audit.mirror_state(t.repo)}),
                             _no_retry(out, store)],
            }

    def task_search() -> Any:
        """Search every constant of a repository's cases in one pass over its blobs."""
        for repo, cases in sorted(by_repo.items()):
            refs = [audit.ref("propose", t.case_id) for t in cases]

            def action(repo: str = repo) -> None:
                early.join(repo)
                search_repo(repo)

            yield {
                "name": repo_name(repo), "actions": [action],
                "task_dep": [f"propose:{t.case_id}" for t in cases],
                "uptodate": [config_changed({"v": search.VERSION,
                                             "skipped": phases.skipped(cfg),
                                             "mirror state": audit.mirror_state(repo)}),
                             RefsUnchanged(refs)],
            }

    def task_codebase() -> Any:
        """Answer each case from its repository's search (the tree at base_commit)."""
        for t in tasks:
            up, out = audit.ref("propose", t.case_id), audit.ref("codebase", t.case_id)

            def action(t: Task = t, up: str = up, out: str = out) -> dict[str, str]:
                return _origin_error(phases.run_codebase(store, cfg, t, Path(up), Path(out)),
                                     "codebase")

            yield {
                "name": t.case_id, "actions": [action], "file_dep": [up],
                # Ordering only: the repository's search runs first, but running it does not
                # make this case stale.
                "task_dep": [f"search:{repo_name(t.repo)}"],
                "targets": [out],
                "uptodate": [config_changed({"v": phases.VERSIONS["codebase"],
                                             **phases.codebase_params(cfg, t),
                                             "mirror state": audit.mirror_state(t.repo)}),
                             _no_retry(out, store)],
            }

    def task_settle() -> Any:
        """Settle candidates against prose and codebase; certify AIRTIGHT witnesses."""
        settled = phases.settle_params(cfg)
        for t in tasks:
            p, c = audit.ref("propose", t.case_id), audit.ref("codebase", t.case_id)
            out = audit.ref("settle", t.case_id)

            def action(t: Task = t, p: str = p, c: str = c, out: str = out) -> dict[str, str]:
                return _origin_error(phases.run_settle(store, cfg, t, Path(p), Path(c),
                                                       Path(out)), "settle")

            yield {
                "name": t.case_id, "actions": [action], "file_dep": [p, c], "targets": [out],
                "uptodate": [config_changed({"v": phases.VERSIONS["settle"],
                                             "task": audit.inputs(t)["task"], **settled}),
                             _no_retry(out, store)],
            }

    def agent_phase(phase: str, run: Callable[..., phases.Ref],
                    upstream: Callable[[AgentSetup, Task], list[str]]) -> Any:
        """One task per (case, pass): `run(store, cfg, setup, task, *upstream, out)`."""
        for s in audit.agents:
            for t in tasks:
                deps, out = upstream(s, t), audit.agent_ref(phase, s, t.case_id)

                def action(s: AgentSetup = s, t: Task = t, deps: list[str] = deps,
                           out: str = out) -> dict[str, str]:
                    return _origin_error(run(store, cfg, s, t, *map(Path, deps), Path(out)),
                                         phase)

                params = _agent_params(s, phase, audit.inputs(t)["task"], cfg)
                if phase == "witness":  # it reads the tree at base
                    params["mirror state"] = audit.mirror_state(t.repo)
                yield {"name": f"{t.case_id}@p{s.pass_no}", "actions": [action],
                       "file_dep": deps, "targets": [out],
                       "uptodate": [config_changed(params), _no_retry(out, store)]}

    def task_screen() -> Any:
        """Agent: list the graded behaviors; settle COVERED / GAP / OUT_OF_SCOPE."""
        return agent_phase("screen", ap.run_screen,
                           lambda s, t: [audit.ref("propose", t.case_id)])

    def task_witness() -> Any:
        """Agent: propose the strongest witness for each case with GAPs; settle it."""
        return agent_phase("witness", ap.run_witness,
                           lambda s, t: [audit.ref("propose", t.case_id),
                                         audit.agent_ref("screen", s, t.case_id)])

    def task_refute() -> Any:
        """Refuter: try to break the comparability of plural / misdetermined candidates."""
        return agent_phase("refute", ap.run_refute,
                           lambda s, t: [audit.agent_ref("witness", s, t.case_id)])

    def task_tables() -> Any:
        """Consolidate every case's records, over all stored passes, into parquet tables."""
        runs = audit.gold_runs
        settle_refs = [audit.ref("settle", t.case_id) for t in tasks]
        size = {repo: repos.mirror_bytes(cfg, repo) for repo in by_repo}
        agent_refs = [audit.agent_ref(ph, s, t.case_id) for s in audit.agents
                      for ph in ap.AGENT_PHASES for t in tasks]

        def action() -> None:
            made = collect_tables(store, audit.name, tasks, audit.loaded.errors,
                                  audit.run_info(), audit.loaded.mined, runs)
            write_tables(store.tables(audit.shown), made)
            # What `store merge` joins the shards' tables from, with no mirror: the tasks
            # (by their stored objects) and what else the tables need besides the refs.
            shard = audit.selection.shard.replace("/", "-of-") or "all"
            write_if_changed(store.refs(audit.name) / "tables" / f"{shard}.json",
                             msgspec.json.encode(TablesManifest(
                                 tasks=sorted([t.case_id, audit.inputs(t)["task"]]
                                              for t in tasks),
                                 errors=audit.loaded.errors, run=audit.run_info(),
                                 commits=store.put_json(audit.loaded.mined),
                                 gold_runs=store.put_json(runs))))  # fields in config order

        return {
            "actions": [action],
            "file_dep": [str(audit.source_ref)],
            # Ordering only: doit hands out the proposals first, one repository after
            # another, so each repository's search can start early (`_EarlySearch`); the
            # largest mirror's first, so that its search, the longest, runs beside the
            # others' proposals rather than after them. Then every case's last phases.
            "task_dep": [f"propose:{t.case_id}"
                         for t in sorted(tasks, key=lambda t: (-size[t.repo], t.repo))]
            + [f"settle:{t.case_id}" for t in tasks]
            + [f"{ph}:{t.case_id}@p{s.pass_no}" for s in audit.agents
               for ph in ap.AGENT_PHASES for t in tasks],
            "targets": [str(audit.table(n)) for n in TABLES],
            "uptodate": [RefsUnchanged(settle_refs + agent_refs),
                         _nullary(lambda: table_digests(store.tables(audit.shown))
                                  is not None),
                         config_changed({"stored passes": _stored_slots(audit),
                                         "gold runs": _stamps(cfg.validity.gold_runs, cfg)})],
        }

    def task_report() -> Any:
        """Render REPORT.md, CLAIMS.md and every receipt from the tables (SQL only)."""
        from determinacy.reports.render import render
        from determinacy.score.render import OUTPUTS

        return {
            "actions": [lambda: render(store, cfg, audit.runs, OUTPUTS, audit.shown) and None],
            "file_dep": [str(audit.table(n)) for n in TABLES],
            "targets": [str(audit.out / "REPORT.md"), str(audit.out / "CLAIMS.md"),
                        str(audit.out / "claimable.png")],
        }

    creators = {"task_propose": task_propose, "task_search": task_search,
                "task_codebase": task_codebase,
                "task_settle": task_settle, "task_tables": task_tables, "task_report": task_report}
    if audit.agents:
        creators.update(task_screen=task_screen, task_witness=task_witness,
                        task_refute=task_refute)
    return {name: _uncaptured(audit, c) for name, c in creators.items()}


def repo_name(repo: str) -> str:
    """A repository as a doit task name (`owner+name`)."""
    return repo.replace("/", "+")


def _guarded(audit: Audit, action: Callable[[], Any]) -> Callable[[], Any]:
    """A store write failure fails the task without a traceback (doit prints none for False)
    and is kept for the CLI to report with its cause; so is a damaged object read on the way
    (removed by the read: the next run computes it again)."""

    def run() -> Any:
        signals.off_main()  # doit's worker threads leave SIGINT to the main one
        try:
            return action()
        except StoreError as e:
            audit.fatal.append(e)
            return False
        except DamagedObject as e:
            audit.fatal.append(StoreError(str(e)))
            return False

    return _nullary(run)


def _uncaptured(audit: Audit, creator: Callable[[], Any]) -> Callable[[], Any]:
    """Tell doit not to swap sys.stdout around actions: with parallel threads the swaps race
    and leave the process writing into a dead capture buffer. Our actions print nothing."""

    phase = creator.__name__.removeprefix("task_")

    def task(t: dict[str, Any]) -> dict[str, Any]:
        return {**t, "io": {"capture": False},
                "actions": [_guarded(audit, a if phase == "search" else clock.timed(phase, a))
                            for a in t["actions"]]}

    def wrapped() -> Any:
        made = creator()
        if isinstance(made, dict):
            return task(made)
        return (task(t) for t in made)

    wrapped.__doc__ = creator.__doc__
    wrapped.__name__ = creator.__name__
    return wrapped


def _agent_params(s: AgentSetup, phase: str, task_hash: str, cfg: Config) -> dict[str, Any]:
    """What makes an agent phase's doit task stale (its action keys say the same, finer)."""
    params: dict[str, Any] = {"v": ap.VERSIONS[phase], "argv": list(s.argv), "pass": s.pass_no,
                              "max_chars": s.max_chars, "task": task_hash,
                              "prompt": digest(calls.prompt_template(phase).encode())}
    if phase == "refute":
        params["refuter"] = list(s.refuter)
    if phase == "witness":
        params["policy"] = msgspec.to_builtins(cfg.policy)
    return params


def shown_name(benchmark: str, shard: str) -> str:
    """The tables' and reports' folder name of a run (Audit.shown)."""
    return f"{benchmark}@{shard.replace('/', '-of-')}" if shard else benchmark


def collect_tables(store: Store, name: str, tasks: list[Task], load_errors: list[CaseError],
                   run: RunInfo, mined: list[MinedCommit], runs: list[GoldRun]) -> Tables:
    """Every case's records, over all stored passes, read from the store's refs: what the
    tables are written from (a run's tables task, and `store merge`)."""
    checks: list[Check] = []
    trees: list[TreeRow] = []
    validity: list[ValidityCheck] = []
    errors: list[CaseError] = list(load_errors)
    refs = store.refs(name)
    for t in tasks:
        ref = phases.read_ref(refs / "settle" / f"{t.case_id}.json")
        if ref.error is not None:
            errors.append(ref.error)
            continue
        result = phases.load_result(store, ref)
        checks.extend(result.checks)
        if result.tree is not None:
            trees.append(TreeRow(
                case_id=result.case_id, commit=result.tree.commit, blobs=result.tree.blobs,
                unread=result.tree.unread, ignored=result.tree.ignored,
                scopes=[ScopeRow(scope=s.scope, read=s.read, searched=bool(s.command))
                        for s in result.scopes]))
        validity.extend(result.validity)
    calls, behaviors, witnesses, agent_errors = ap.collect(store, refs,
                                                           {t.case_id for t in tasks})
    validity.extend(prescreens.of_benchmark(tasks, runs))
    return Tables(tasks=[task_row(t) for t in tasks] + [error_row(e) for e in load_errors],
                  checks=checks, errors=errors + agent_errors, run=run, calls=calls,
                  behaviors=behaviors, witnesses=witnesses, trees=trees, commits=mined,
                  validity=validity)


class TablesManifest(msgspec.Struct, frozen=True, kw_only=True):
    """refs/<benchmark>/tables/<all | I-of-N>.json: what one run's tables were written from
    besides the refs. `store merge` joins the shards' into one audit's (merge_tables)."""

    tasks: list[tuple[str, str]]  # (case_id, object hash of the Task)
    errors: list[CaseError]  # rows that did not load
    run: RunInfo
    commits: str  # object hash of a history source's walk (list[MinedCommit])
    gold_runs: str  # object hash of the gold's runs read (list[GoldRun])


def merge_tables(store: Store, name: str, count: int | None = None) -> int:
    """Write the tables of benchmark `name` from every run's manifest the store holds: the
    shards of one audit (all of 0..N-1 of one N) give the tables of one run of them all, with
    its shard left out of the selection (`count`: only the shards of that split). Returns
    the tasks. Raises DeterminacyError for an incomplete set of shards, or runs of different
    audits."""
    folder = store.refs(name) / "tables"
    found = {p.stem: msgspec.json.decode(p.read_bytes(), type=TablesManifest)
             for p in sorted(folder.glob("*.json"))}
    shards = {k: m for k, m in found.items() if k != "all"
              and (count is None or k.endswith(f"-of-{count}"))}
    counts = {int(k.split("-of-")[1]) for k in shards}
    if len(counts) > 1:
        raise DeterminacyError(f"{folder}: shards of {' and '.join(map(str, sorted(counts)))} "
                               "ways: merge the shards of one split")
    if counts:
        (n,) = counts
        if missing := [i for i in range(n) if f"{i}-of-{n}" not in shards]:
            raise DeterminacyError(f"{folder}: shard {missing[0]}/{n} is missing (run it, or "
                                   "merge its store too)")
    parts = list(shards.values()) or list(found.values())
    if not parts:
        raise DeterminacyError(f"{folder}: no run's tables to merge")
    unsharded = [msgspec.structs.replace(p.run, selection=msgspec.structs.replace(
        p.run.selection, shard="")) for p in parts]
    if len({msgspec.json.encode(r, order="sorted") for r in unsharded}) > 1:
        raise DeterminacyError(f"{folder}: the runs are of different audits (their configs, "
                               "tools or selections differ): only shards of one merge")
    base = unsharded[0]
    hashes = dict(sorted({tuple(t) for p in parts for t in p.tasks}))
    tasks = sorted((msgspec.json.decode(store.get(h), type=Task) for h in hashes.values()),
                   key=lambda t: (t.row, t.case_id))
    errors = sorted({msgspec.json.encode(e): e for p in parts for e in p.errors}.values(),
                    key=lambda e: (e.row, e.case_id))
    mined = msgspec.json.decode(store.get(parts[0].commits), type=list[MinedCommit])
    runs = msgspec.json.decode(store.get(parts[0].gold_runs), type=list[GoldRun])
    write_tables(store.tables(name), collect_tables(store, name, tasks, errors, base, mined,
                                                    runs))
    return len(tasks)


def gold_runs(cfg: Config) -> list[GoldRun]:
    """The harness's runs of the gold (`[validity] gold_runs`), each instance's outcome. A
    file no results format reads is the config's error, named by its key."""
    from determinacy.score import results

    out = []
    for i, where in enumerate(cfg.validity.gold_runs):
        try:
            read = results.read(cfg.resolve(where), model="gold")
        except DeterminacyError as e:
            raise ConfigError(cfg.file, f"validity.gold_runs[{i}]", str(e)) from None
        out += [GoldRun(instance_id=r.instance_id, outcome=r.outcome,
                        where=f"{where} ({r.where})") for r in read.rows]
    return out


def _stamps(paths: list[str], cfg: Config) -> list[list[object]]:
    """Each file under `paths` with its size and time: a changed report reruns the tables."""
    out: list[list[object]] = []
    for where in paths:
        p = cfg.resolve(where)
        for f in sorted(p.rglob("*")) if p.is_dir() else [p]:
            with contextlib.suppress(OSError):
                st = f.stat()
                out.append([str(f), st.st_size, st.st_mtime_ns])
    return out


def _stored_slots(audit: Audit) -> list[str]:
    """Agent passes already in the store: a new one (even from another run) re-collects."""
    root = audit.store.refs(audit.name) / "refute"
    stored = {p.name for p in root.glob("p*")} if root.is_dir() else set()
    return sorted(stored | {s.slot for s in audit.agents})


class RefsUnchanged:
    """An up-to-date check: the refs `paths` are as they were when the task last ran (each
    one's size and modification time, as doit's file_dep check reads them: a ref rewritten
    with the same bytes keeps its time). A file_dep on each would say the same, but doit
    adds a task_dep for every file_dep that is another task's target, looking each up in the
    list of those so far: quadratic (the tables of 24,000 cases took 20 s of a no-op run).
    The refs' tasks are named in task_dep instead. (A ref waiting for a retry makes its own
    task run; what that writes, if it differs, makes this one run.)"""

    KEY = "_refs_unchanged"

    def __init__(self, paths: list[str]):
        self.paths = paths
        self.__signature__ = _CHECK_ARGS  # see `_nullary`

    def _digest(self) -> str | None:
        """Of every ref's state, in order; None when one is missing."""
        try:
            states = [(st.st_size, st.st_mtime_ns) for st in map(os.stat, self.paths)]
        except OSError:
            return None
        return digest(msgspec.json.encode(states))

    def configure_task(self, task: Any) -> None:
        task.value_savers.append(lambda: {self.KEY: self._digest() or ""})

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        now = self._digest()
        return now is not None and values.get(self.KEY) == now


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
    def __init__(self, audit: Audit, outstream: Any = None, quiet: bool = False):
        super().__init__()
        self.audit = audit
        self.outstream = outstream
        self.quiet = quiet

    def setup(self, opt_values: dict[str, Any]) -> None:
        pass

    def load_doit_config(self) -> dict[str, Any]:
        config = doit_config(self.audit)
        # doit binds sys.stdout when it is imported; name the stream of this run explicitly.
        config["outfile"] = self.outstream or sys.stderr
        return config

    def load_tasks(self, cmd: Any, pos_args: list[str]) -> list[Any]:
        dodb.STATS = self.audit.store.stats
        # A case is done when its last phase is.
        dodb.CASE_PHASE = "refute" if self.audit.agents else "settle"
        dodb.QUIET = self.quiet
        out = []
        with long_lived():
            for name, creator in sorted(build_graph(self.audit).items()):
                out.extend(generate_tasks(name[len("task_"):], creator(), creator.__doc__))
        return out


@contextlib.contextmanager
def long_lived() -> Iterator[None]:
    """What is made inside lives until the run ends (the tasks read, the graph): no garbage
    collection while it is made, and none of its objects in later ones (`gc.freeze`; the CLI
    unfreezes them when the run ends). Full collections over 24,000 cases' objects, made
    again and again as they grew, were 7.6 s of a 25 s no-op run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
