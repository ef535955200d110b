"""Agent phases per (case, pass): screen -> witness -> refute (method §3-§5).

Each phase makes at most one agent call, cached by the exact prompt, the agent's argv and the
pass: rerunning a pass never calls the agent again, a new pass adds. Settling the answer is a
second cached action, so a change in the settlers never re-buys an answer. A failed call is a
transient error: recorded in the phase's ref, retried by the next run.
"""

from __future__ import annotations

import functools
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from determinacy.agents import calls, checks
from determinacy.codebase import repos, search
from determinacy.config import Config
from determinacy.phases import (
    Ref,
    excluded,
    finish,
    missing_tests,
    read_ref,
    skipped,
    task_inputs,
    upstream_error,
    write_ref,
)
from determinacy.records import AgentCall, AgentResult, AgentWitness, Behavior, Proposal, Task
from determinacy.store import ActionKey, Store, digest

VERSIONS = {"screen": "1", "witness": "5", "refute": "2"}
AGENT_PHASES = tuple(VERSIONS)


@dataclass(frozen=True)
class AgentSetup:
    """Who answers, for which pass."""

    argv: tuple[str, ...]
    refuter: tuple[str, ...]
    pass_no: int
    timeout: float
    max_chars: int

    @property
    def slot(self) -> str:
        """Folder name for this pass, these commands and these prompts: a pass of another
        agent, or asked by another version of the prompts, is kept beside it, never over it."""
        who = digest(json.dumps([self.argv, self.refuter, _prompts()]).encode())[:10]
        return f"p{self.pass_no}-{who}"


@functools.cache
def _prompts() -> list[str]:
    return [calls.prompt_template(p) for p in AGENT_PHASES]


def _fields(task: Task, limit: int) -> tuple[dict[str, str], list[str]]:
    out, cut = {}, []
    for name, text in (("prose", task.prose), ("gold_patch", task.gold_patch),
                       ("test_patch", task.test_patch)):
        out[name], shortened = calls.shorten(text, limit)
        if shortened:
            cut.append(name)
    out["fail_to_pass"] = "\n".join(task.fail_to_pass)
    return out, cut


def _ask(store: Store, setup: AgentSetup, argv: tuple[str, ...], phase: str, task: Task,
         **extra: str) -> tuple[AgentCall, dict[str, Any]]:
    """Render the phase's prompt and ask, through the action cache (keyed by the exact
    prompt, the argv and the pass)."""
    fields, cut = _fields(task, setup.max_chars)
    fields.update(extra)
    prompt = calls.render(phase, task.case_id, setup.pass_no, fields)
    key = ActionKey(phase=f"{phase}-call", version="1",
                    params={"argv": list(argv), "pass": setup.pass_no},
                    inputs={"prompt": store.put(prompt.encode())})

    def compute() -> bytes:
        rec, answer = calls.call(store, list(argv), prompt, setup.timeout, phase=phase,
                                 case_id=task.case_id, pass_no=setup.pass_no, truncated=cut)
        return msgspec.json.encode({"call": rec, "answer": answer}, order="sorted")

    data = json.loads(store.get(store.action(key, compute)))
    return msgspec.convert(data["call"], AgentCall), data["answer"]


def _settled(store: Store, phase: str, inputs: dict[str, str],
             compute: Callable[[], AgentResult]) -> str:
    key = ActionKey(phase=phase, version=VERSIONS[phase], inputs=inputs)
    return store.action(key, lambda: msgspec.json.encode(compute(), order="sorted"))


def _load(store: Store, ref: Ref) -> AgentResult:
    return msgspec.json.decode(store.get(ref.output), type=AgentResult)


def _gold_test(cfg: Config, task: Task) -> tuple[str, str]:
    from determinacy.proposer.patches import added_text, parse_patch  # not in a no-op run
    from determinacy.proposer.propose import implementation

    gold = implementation(parse_patch(task.gold_patch, "gold patch"), cfg.policy.test_paths)
    return added_text(gold), added_text(parse_patch(task.test_patch, "test patch"))


def run_screen(store: Store, cfg: Config, setup: AgentSetup, task: Task, propose_ref: Path,
               out: Path) -> Ref:
    if (failed := upstream_error(out, propose_ref)) is not None:
        return failed

    def body() -> Ref:
        call, answer = _ask(store, setup, setup.argv, "screen", task)

        def settle() -> AgentResult:
            gold_added, _ = _gold_test(cfg, task)
            return AgentResult(case_id=task.case_id, pass_no=setup.pass_no, calls=[call],
                               behaviors=checks.settle_screen(task, setup.pass_no, answer,
                                                             gold_added))

        return Ref(output=_settled(store, "screen", {
            "answer": store.put_json(answer), "call": store.put_json(call),
            "task": task_inputs(store, task)["task"]}, settle))

    return finish(task, "screen", out, body)


def _gaps_text(behaviors: list[Behavior]) -> str:
    return "\n".join(f"- [{b.test_id}] {b.behavior} (gold: {b.gold_snippet!r})"
                     for b in behaviors if b.label == "GAP")


def run_witness(store: Store, cfg: Config, setup: AgentSetup, task: Task, propose_ref: Path,
                screen_ref: Path, out: Path) -> Ref:
    if (failed := upstream_error(out, screen_ref)) is not None:
        return failed
    behaviors = _load(store, read_ref(screen_ref)).behaviors
    if not any(b.label == "GAP" for b in behaviors):
        # Nothing underdetermined to witness: no call.
        ref = Ref(output=store.put_json(AgentResult(case_id=task.case_id,
                                                    pass_no=setup.pass_no)))
        write_ref(out, ref)
        return ref

    def body() -> Ref:
        call, answer = _ask(store, setup, setup.argv, "witness", task,
                            gaps=_gaps_text(behaviors))
        proposal_hash = read_ref(propose_ref).output
        # Settling reads the tree: fail closed on an incomplete one, and key on what was read.
        tree = repos.open_tree(store, cfg, task.repo, task.base_commit)
        state = tree.state(skipped(cfg))
        repos.require_complete(state, cfg)

        def settle() -> AgentResult:
            gold_added, test_added = _gold_test(cfg, task)
            proposal = msgspec.json.decode(store.get(proposal_hash), type=Proposal)
            witnesses = checks.settle_witnesses(
                task, setup.pass_no, answer, gold_added=gold_added, test_added=test_added,
                candidates=proposal.candidates,
                search=lambda cs: search.engine(store).find(
                    tree, task.repo, cs, skipped(cfg)).hits, read=tree.read,
                test_paths=cfg.policy.test_paths, dead_paths=cfg.policy.dead_paths,
                min_length=cfg.policy.min_length, excluded=excluded(cfg), commit=tree.commit,
                missing_tests=missing_tests(task, tree), lacks=tree.lacks)
            return AgentResult(case_id=task.case_id, pass_no=setup.pass_no, calls=[call],
                               witnesses=witnesses)

        return Ref(output=_settled(store, "witness", {
            "answer": store.put_json(answer), "call": store.put_json(call),
            "task": task_inputs(store, task)["task"], "proposal": proposal_hash,
            "tree": store.put_json(state),
            "policy": store.put_json([cfg.policy.absence, cfg.policy.test_paths,
                                      cfg.policy.dead_paths, cfg.policy.min_length])}, settle))

    return finish(task, "witness", out, body)


def run_refute(store: Store, cfg: Config, setup: AgentSetup, task: Task, witness_ref: Path,
               out: Path) -> Ref:
    if (failed := upstream_error(out, witness_ref)) is not None:
        return failed
    up = read_ref(witness_ref)
    result = _load(store, up)
    if not any(w.status == "needs-refutation" for w in result.witnesses):
        write_ref(out, up)  # nothing to refute: the witness phase's result stands
        return up

    def body() -> Ref:
        call, answer = _ask(store, setup, setup.refuter, "refute", task,
                            candidates=checks.candidates_text(result.witnesses))

        def settle() -> AgentResult:
            final = checks.apply_refutations(result.witnesses, answer,
                                            shlex.join(setup.refuter))
            return AgentResult(case_id=task.case_id, pass_no=setup.pass_no,
                               calls=[*result.calls, call], witnesses=final)

        return Ref(output=_settled(store, "refute", {
            "answer": store.put_json(answer), "call": store.put_json(call),
            "witnesses": up.output}, settle))

    return finish(task, "refute", out, body)


def collect(store: Store, refs: Path, case_ids: set[str]) -> tuple[
        list[AgentCall], list[Behavior], list[AgentWitness], list[Any]]:
    """Every stored pass of every agent, for the cases of this run: the union the verdicts
    are taken over. A refuter that failed leaves the witness phase's results standing, with
    refutable candidates pending (never claims)."""
    calls: list[AgentCall] = []
    behaviors: list[Behavior] = []
    witnesses: list[AgentWitness] = []
    errors: list[Any] = []
    succeeded: set[tuple[str, str, int]] = set()  # (case, phase, pass) answered by some agent
    for slot in sorted(p.name for p in (refs / "screen").glob("p*") if p.is_dir()):
        for case_id in sorted(case_ids):
            paths = {ph: refs / ph / slot / f"{case_id}.json" for ph in AGENT_PHASES}
            if not paths["screen"].is_file():
                continue
            seen_calls: set[str] = set()
            for ph in AGENT_PHASES:
                if not paths[ph].is_file():
                    continue
                ref = read_ref(paths[ph])
                if ref.error is not None:
                    if ref.error.phase == ph:
                        errors.append((ph, slot_pass(slot), ref.error))
                    continue
                res = _load(store, ref)
                succeeded.add((case_id, ph, res.pass_no))
                for c in res.calls:
                    if c.prompt not in seen_calls:
                        seen_calls.add(c.prompt)
                        calls.append(c)
                if ph == "screen":
                    behaviors.extend(res.behaviors)
            final = None
            for ph in ("refute", "witness"):
                if paths[ph].is_file() and read_ref(paths[ph]).error is None:
                    final = _load(store, read_ref(paths[ph])).witnesses
                    break
            for w in final or []:
                if w.status == "needs-refutation":
                    w = msgspec.structs.replace(w, status="pending",
                                                reason="the refuter has not answered yet")
                witnesses.append(w)
    # A failed phase stays an ERROR until some agent answers it for the same pass.
    open_errors = [e for ph, n, e in errors if (e.case_id, ph, n) not in succeeded]
    return calls, behaviors, witnesses, open_errors


def slot_pass(slot: str) -> int:
    return int(slot[1:].split("-", 1)[0])
