"""Per-case phases: propose -> codebase -> settle. Each goes through the action cache.

A phase writes a *ref*: a small JSON file naming its output object (or its error). doit tracks
refs; the action cache makes sure nothing is computed twice, whatever happened to doit's db.
A ref holds outputs only, not the action key, so a changed key with an identical output leaves
the ref's bytes alone and downstream phases stay up to date.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec

from determinacy import codebase
from determinacy.config import Config
from determinacy.errors import CaseError as PhaseFailure
from determinacy.paths import exclude_pathspecs
from determinacy.propose import propose
from determinacy.records import CaseError, CaseResult, CodebaseSearch, Proposal, Task
from determinacy.settle import settle
from determinacy.store import ActionKey, Store, write_if_changed

# Bump a phase's version when what it computes changes: its cached actions are then redone.
VERSIONS = {"propose": "5", "codebase": "2", "settle": "2"}
PHASES = tuple(VERSIONS)


class Ref(msgspec.Struct, frozen=True, omit_defaults=True):
    output: str = ""
    error: CaseError | None = None

    @property
    def retry(self) -> bool:
        return self.error is not None and self.error.transient


def read_ref(path: Path) -> Ref:
    return msgspec.json.decode(path.read_bytes(), type=Ref)


def write_ref(path: Path, ref: Ref) -> None:
    write_if_changed(path, msgspec.json.encode(ref, order="sorted"))


def ref_needs_retry(path: Path) -> bool:
    try:
        return read_ref(path).retry
    except (OSError, msgspec.DecodeError):
        return True


def _error(task: Task, phase: str, message: str, transient: bool) -> Ref:
    return Ref(error=CaseError(case_id=task.case_id, instance_id=task.instance_id, row=task.row,
                               phase=phase, message=message, transient=transient))


def finish(task: Task, phase: str, out: Path, body: Callable[[], Ref]) -> Ref:
    """Run a phase body, turn its CaseError into an error ref, write the ref."""
    try:
        ref = body()
    except PhaseFailure as e:
        ref = _error(task, phase, str(e), e.transient)
    write_ref(out, ref)
    return ref


def upstream_error(out: Path, *upstream: Path) -> Ref | None:
    """The first upstream error, passed on as this phase's ref (a case fails once)."""
    for path in upstream:
        up = read_ref(path)
        if up.error is not None:
            write_ref(out, up)
            return up
    return None


def task_inputs(store: Store, task: Task) -> dict[str, str]:
    """Object hashes of a task's parts; phases key on the parts they read."""
    return {
        "gold": store.put(task.gold_patch.encode()),
        "test": store.put(task.test_patch.encode()),
        "prose": store.put(task.prose.encode()),
        "task": store.put_json(task),
    }


def propose_params(cfg: Config) -> dict[str, str | int | bool | list[str]]:
    return {"test_paths": list(cfg.policy.test_paths), "min_length": cfg.policy.min_length}


def codebase_params(cfg: Config, task: Task) -> dict[str, str | int | bool | list[str]]:
    return {"repo": task.repo, "base_commit": task.base_commit, "absence": cfg.policy.absence,
            "excluded": excluded(cfg)}


def excluded(cfg: Config) -> list[str]:
    return exclude_pathspecs(cfg.policy.test_paths) if cfg.policy.absence == "lenient" else []


def run_propose(store: Store, cfg: Config, task: Task, out: Path) -> Ref:
    inputs = task_inputs(store, task)
    key = ActionKey(phase="propose", version=VERSIONS["propose"], params=propose_params(cfg),
                    inputs={"gold": inputs["gold"], "test": inputs["test"]})
    h = store.action(key, lambda: msgspec.json.encode(
        propose(task.gold_patch, task.test_patch, cfg.policy.test_paths, cfg.policy.min_length),
        order="sorted"))
    proposal = msgspec.json.decode(store.get(h), type=Proposal)
    ref = _error(task, "propose", proposal.error, False) if proposal.error else Ref(output=h)
    write_ref(out, ref)
    return ref


def run_codebase(store: Store, cfg: Config, task: Task, propose_ref: Path, out: Path) -> Ref:
    if (failed := upstream_error(out, propose_ref)) is not None:
        return failed
    up = read_ref(propose_ref)
    proposal = msgspec.json.decode(store.get(up.output), type=Proposal)
    patterns = sorted({c.constant for c in proposal.candidates if not c.trivial})
    key = ActionKey(phase="codebase", version=VERSIONS["codebase"],
                    params=codebase_params(cfg, task),
                    inputs={"patterns": store.put_json(patterns)})

    def compute() -> bytes:
        git_dir, sha = codebase.open_tree(store, cfg, task.repo, task.base_commit)
        found = codebase.search_tree(git_dir, sha, patterns, excluded(cfg))
        return msgspec.json.encode(CodebaseSearch(
            repo=task.repo, base_commit=task.base_commit, absence=cfg.policy.absence,
            excluded=excluded(cfg), searched=patterns, found=found), order="sorted")

    return finish(task, "codebase", out, lambda: Ref(output=store.action(key, compute)))


def run_settle(store: Store, cfg: Config, task: Task, propose_ref: Path, codebase_ref: Path,
               out: Path) -> Ref:
    if (failed := upstream_error(out, propose_ref, codebase_ref)) is not None:
        return failed
    p_hash, c_hash = read_ref(propose_ref).output, read_ref(codebase_ref).output
    key = ActionKey(phase="settle", version=VERSIONS["settle"],
                    inputs={"proposal": p_hash, "codebase": c_hash,
                            "task": task_inputs(store, task)["task"]})

    def compute() -> bytes:
        proposal = msgspec.json.decode(store.get(p_hash), type=Proposal)
        search = msgspec.json.decode(store.get(c_hash), type=CodebaseSearch)
        return msgspec.json.encode(settle(task, proposal, search), order="sorted")

    ref = Ref(output=store.action(key, compute))
    write_ref(out, ref)
    return ref


def load_result(store: Store, ref: Ref) -> CaseResult:
    return msgspec.json.decode(store.get(ref.output), type=CaseResult)
