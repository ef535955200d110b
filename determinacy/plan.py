"""`determinacy plan`: the bill before the run. Repositories, tasks, the mirrors' size where
they exist, the agent calls the configured tiers would make, and how all of it splits over N
shards (selection.shard_of, the split `run --shard I/N` takes)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import msgspec

from determinacy import git
from determinacy.agents.phases import AGENT_PHASES, AgentSetup
from determinacy.config import Config, split_repo
from determinacy.records import Task
from determinacy.selection import shard_of
from determinacy.store import Store


class RepoPlan(msgspec.Struct, frozen=True, kw_only=True):
    repo: str
    tasks: int
    mirror_bytes: int | None  # None: no mirror here yet (it is cloned by the run)
    agent_calls: int  # at most, not yet stored
    shard: int


class ShardPlan(msgspec.Struct, frozen=True, kw_only=True):
    shard: int
    repos: int
    tasks: int
    mirror_bytes: int | None  # None when some mirror of it is not here
    agent_calls: int


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    benchmark: str
    tasks: int
    unreadable_rows: int
    repos: list[RepoPlan]
    shards: list[ShardPlan]
    agent_passes: list[int]
    # Per case and pass: the coverage screen and the witness always, the refuter only for a
    # plural or misdetermined witness, so `agent_calls` is an upper bound.
    calls_per_case_pass: int = len(AGENT_PHASES)


def mirror_size(cfg: Config, store: Store, repo: str) -> int | None:
    """Bytes of the repository's mirror on this machine: the configured one, else the
    store's clone; None when there is none yet."""
    local = cfg.mirror_path(repo)
    if local is None:
        local = store.repo_dir(*split_repo(repo))
    if not local.exists():
        return None
    if local.is_file():  # a bundle
        return local.stat().st_size
    top = git.git_dir_of(local) or local
    return sum(f.stat().st_size for f in _files(Path(top) / "objects"))


def _files(top: Path) -> list[Path]:
    return [Path(d) / n for d, _, names in os.walk(top) for n in names]


def make(cfg: Config, store: Store, tasks: list[Task], unreadable: int,
         agents: list[AgentSetup], count: int) -> Plan:
    per_repo = Counter(t.repo for t in tasks)
    where = shard_of(per_repo, count)
    refs = store.refs(cfg.name)
    calls: Counter[str] = Counter()
    for t in tasks:
        for s in agents:
            calls[t.repo] += sum(not (refs / ph / s.slot / f"{t.case_id}.json").is_file()
                                 for ph in AGENT_PHASES)
    repos = [RepoPlan(repo=r, tasks=n, mirror_bytes=mirror_size(cfg, store, r),
                      agent_calls=calls[r], shard=where[r])
             for r, n in sorted(per_repo.items(), key=lambda x: (-x[1], x[0]))]
    shards = []
    for i in range(count):
        mine = [r for r in repos if r.shard == i]
        sizes = [r.mirror_bytes for r in mine]
        shards.append(ShardPlan(shard=i, repos=len(mine), tasks=sum(r.tasks for r in mine),
                                mirror_bytes=None if None in sizes else sum(
                                    s for s in sizes if s is not None),
                                agent_calls=sum(r.agent_calls for r in mine)))
    return Plan(benchmark=cfg.name, tasks=len(tasks), unreadable_rows=unreadable, repos=repos,
                shards=shards, agent_passes=[s.pass_no for s in agents])


def size_text(n: int | None) -> str:
    if n is None:
        return "unknown"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return ""


def markdown(p: Plan) -> str:
    from determinacy.reports.markdown import md_table

    known = [r.mirror_bytes for r in p.repos]
    total = None if None in known else sum(s for s in known if s is not None)
    here = sum(s for s in known if s is not None)
    calls = sum(r.agent_calls for r in p.repos)
    agent = (f"{calls} agent calls at most (passes {', '.join(map(str, p.agent_passes))}; "
             f"{p.calls_per_case_pass} per case and pass, the refuter's only for a plural or "
             "misdetermined witness; those already stored are not counted)"
             if p.agent_passes else "no agent calls (no agent configured: the mechanical "
             "tier only)")
    return "\n".join([
        f"# Plan: {p.benchmark}",
        "",
        f"- {p.tasks} tasks in {len(p.repos)} "
        + ("repository" if len(p.repos) == 1 else "repositories")
        + (f"; {p.unreadable_rows} rows that do not read (ERROR cases)" if p.unreadable_rows
           else ""),
        f"- mirrors: {size_text(total)}" + ("" if total is not None else
                                            f" ({size_text(here)} here; "
                                            f"{sum(s is None for s in known)} not here yet)"),
        f"- {agent}",
        "",
        f"## Over {len(p.shards)} shards (`run --shard I/{len(p.shards)}`)",
        "",
        md_table(["shard", "repositories", "tasks", "mirrors", "agent calls"],
                 [(s.shard, s.repos, s.tasks, size_text(s.mirror_bytes), s.agent_calls)
                  for s in p.shards]),
        "## Repositories",
        "",
        md_table(["repository", "tasks", "mirror", "agent calls", "shard"],
                 [(r.repo, r.tasks, size_text(r.mirror_bytes), r.agent_calls, r.shard)
                  for r in p.repos]),
    ])
