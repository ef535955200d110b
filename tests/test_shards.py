"""Past one machine: `run --shard I/N` audits whole repositories, `store merge` joins the
shards' stores into the tables and reports of one unsharded run, `plan` shows the split."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import message_task, new_helper, row, widgets_repo, write_benchmark

from determinacy.selection import SelectionError, parse_shard, shard_of

REPOS = {"acme/widgets": 4, "acme/gadgets": 3, "beta/gizmos": 2, "beta/doohickeys": 2,
         "gamma/sprockets": 1, "delta/cogs": 1}
AGENTS = Path(__file__).parent / "agents"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "determinacy.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def benchmark(tmp_path: Path) -> Path:
    """Thirteen tasks over six real repositories (mirrors by owner+name), with one AIRTIGHT
    name and one message each, a row that does not read, and a duplicate."""
    rows: list[dict[str, object] | str] = []
    for repo, n in REPOS.items():
        owner, name = repo.split("/")
        path = tmp_path / "mirrors" / f"{owner}+{name}"
        base = widgets_repo(path)
        for k in range(n):
            if k % 2:
                gold, test = message_task(path, base, f"say_{name}_{k}", f"{name} said {k}")
            else:
                gold, test = new_helper(path, base, f"frob_{name}_{k}", k + 2)
            rows.append(row(f"{owner}__{name}-{k}", base, "Add a second helper to pkg.core.",
                            gold, test, repo=repo))
    rows.append('{"instance_id": "broken-row"')
    rows.append({**rows[0], "instance_id": "acme__widgets-copy"})  # type: ignore[dict-item]
    return write_benchmark(tmp_path / "bench", rows,
                           mirror=str(tmp_path / "mirrors" / "{owner}+{name}"))


def _run(cfg: Path, store: Path, runs: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "determinacy.cli", "run", str(cfg),
                             "--store", str(store), "--runs", str(runs), "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _sql(cfg: Path | None, store: Path, query: str) -> object:
    """The query over CONFIG's tables, or (no CONFIG) the one benchmark the store holds: a
    shard's `<name>@I-of-N`."""
    p = cli("sql", *([str(cfg)] if cfg else []), query, "--store", str(store), "--format",
            "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_three_shards_merged_are_one_unsharded_run(tmp_path: Path) -> None:
    cfg = benchmark(tmp_path)
    whole = _run(cfg, tmp_path / "whole", tmp_path / "runs-whole")
    # Three machines: three processes at once, three stores.
    shards = [_run(cfg, tmp_path / f"s{i}", tmp_path / f"runs-{i}", "--shard", f"{i}/3")
              for i in range(3)]
    # Two more into one shared store and runs folder: each keeps its own tables and report.
    shared = [_run(cfg, tmp_path / "shared", tmp_path / "runs-shared", "--shard", f"{i}/2")
              for i in range(2)]
    for p, code in zip((whole, *shards, *shared), (3, 3, 0, 0, 3, 0), strict=True):
        _, err = p.communicate(timeout=300)
        assert p.returncode == code, err  # the broken row is an ERROR case, in shard 0 only
    assert sorted(p.name for p in (tmp_path / "runs-shared").iterdir()) == [
        "bench@0-of-2", "bench@1-of-2"]
    held = [Counter(r["repo"] for r in _sql(None, tmp_path / f"s{i}", "select repo from tasks "
                                            "where loaded"))  # type: ignore[union-attr]
            for i in range(3)]
    assert sum(held, Counter()) == Counter({**REPOS, "acme/widgets": 5})
    assert all(not set(a) & set(b) for a in held for b in held if a is not b)  # whole repos
    got = cli("store", "merge", *(str(tmp_path / f"s{i}") for i in range(3)), "--into",
              str(tmp_path / "merged"))
    assert got.returncode == 0, got.stderr
    assert "tables written: bench (14 tasks)" in got.stdout
    rep = cli("report", str(cfg), "--store", str(tmp_path / "merged"), "--runs",
              str(tmp_path / "runs-merged"))
    assert rep.returncode == 0, rep.stderr
    assert _files(tmp_path / "runs-merged") == _files(tmp_path / "runs-whole")
    assert (tmp_path / "merged/tables/bench/digests.json").read_bytes() == \
        (tmp_path / "whole/tables/bench/digests.json").read_bytes()
    for q in ("select case_id, verdict from verdicts order by case_id",
              "select * from validity_checks order by all", "select selection from run"):
        assert _sql(cfg, tmp_path / "merged", q) == _sql(cfg, tmp_path / "whole", q)
    verify = cli("store", "verify", "--store", str(tmp_path / "merged"))
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # The shared store merges into itself: its shards' manifests give the whole audit.
    got = cli("store", "merge", str(tmp_path / "shared"), "--into", str(tmp_path / "shared"))
    assert got.returncode == 0, got.stderr
    assert (tmp_path / "shared/tables/bench/digests.json").read_bytes() == \
        (tmp_path / "whole/tables/bench/digests.json").read_bytes()


def test_merge_refuses_stores_that_disagree_and_shards_that_are_missing(tmp_path: Path) -> None:
    cfg = benchmark(tmp_path)
    for i in (0, 1):
        p = _run(cfg, tmp_path / f"s{i}", tmp_path / f"runs-{i}", "--shard", f"{i}/2")
        assert p.wait(timeout=300) in (0, 3)
    alone = cli("store", "merge", str(tmp_path / "s0"), "--into", str(tmp_path / "m0"))
    assert alone.returncode == 2 and "shard 1/2 is missing" in alone.stderr
    # A ref of one name with other bytes in the two stores: an error naming both, nothing
    # copied.
    ref = next((tmp_path / "s0/refs/bench/settle").glob("*.json"))
    twin = tmp_path / "s1/refs/bench/settle" / ref.name
    twin.write_bytes(ref.read_bytes().replace(b'"output"', b'"output" '))
    bad = cli("store", "merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--into",
              str(tmp_path / "m1"))
    assert bad.returncode != 0 and str(twin) in bad.stderr and str(ref) in bad.stderr
    assert not (tmp_path / "m1/objects").exists()


def test_the_split_is_by_repository_balanced_and_stable() -> None:
    tasks = Counter({f"org/r{i}": 1 + (i * 37) % 23 for i in range(200)})
    where = shard_of(tasks, 4)
    load = Counter()
    for repo, n in tasks.items():
        load[where[repo]] += n
    assert max(load.values()) <= 1.25 * sum(tasks.values()) / 4  # balanced by task count
    # Tasks added to other repositories move no repository whose shard stays in bounds.
    grown = tasks + Counter({"org/r0": 5, "org/new": 3})
    moved = [r for r in tasks if r != "org/r0" and shard_of(grown, 4)[r] != where[r]]
    assert len(moved) <= 0.05 * len(tasks)
    assert shard_of(tasks, 4) == where  # deterministic
    assert parse_shard("2/4") == (2, 4)
    for bad in ("4/4", "-1/3", "1", "a/b"):
        with pytest.raises(SelectionError):
            parse_shard(bad)


def test_plan_shows_the_bill_and_its_split(tmp_path: Path) -> None:
    cfg = benchmark(tmp_path)
    p = cli("plan", str(cfg), "--shards", "3", "--agent", "python3 agent.py", "--passes", "2",
            "--json", "--store", str(tmp_path / "store"))
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["tasks"] == 14 and got["unreadable_rows"] == 1 and len(got["repos"]) == 6
    assert sum(s["tasks"] for s in got["shards"]) == 14
    assert sum(s["agent_calls"] for s in got["shards"]) == 14 * 3 * 2
    assert all(r["mirror_bytes"] > 0 for r in got["repos"])
    gone = cli("plan", str(cfg), "--store", str(tmp_path / "store"))
    assert "- mirrors: " in gone.stdout and "| acme/widgets | 5 |" in gone.stdout
    assert not (tmp_path / "store" / "refs").exists()  # nothing recorded
    # A mirror not on this machine yet is unknown, never 0.
    (tmp_path / "mirrors" / "gamma+sprockets").rename(tmp_path / "elsewhere")
    p = cli("plan", str(cfg), "--json", "--store", str(tmp_path / "store"))
    sizes = {r["repo"]: r["mirror_bytes"] for r in json.loads(p.stdout)["repos"]}
    assert sizes["gamma/sprockets"] is None and json.loads(p.stdout)["shards"][0][
        "mirror_bytes"] is None


def _ancestors(pid: int) -> list[int]:
    out = []
    while pid > 1:
        out.append(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except OSError:
            break
        pid = int(stat[stat.rfind(b")") + 2:].split()[1])
    return out


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="finds the worker through /proc")
def test_the_dask_executor_loses_a_worker_and_calls_no_agent_twice(tmp_path: Path) -> None:
    import os
    import signal
    import time

    cfg = benchmark(tmp_path)

    log = tmp_path / "agent.log"
    agent = f"{sys.executable} {AGENTS / 'timed.py'} {log} 0.6"  # one command: one report
    whole = _run(cfg, tmp_path / "whole", tmp_path / "runs-whole", "--jobs", "4", "--agent",
                 agent)
    assert whole.wait(timeout=300) == 3
    log.rename(tmp_path / "whole.log")
    p = subprocess.Popen([sys.executable, "-m", "determinacy.cli", "run", str(cfg), "--store",
                          str(tmp_path / "store"), "--runs", str(tmp_path / "runs"), "--quiet",
                          "--json", "--executor", "dask", "--workers", "2", "--agent",
                          agent], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
        starts = [ln.split() for ln in (log.read_text().splitlines() if log.exists() else [])
                  if ln.startswith("start")]
        for *_, pid in starts[1:]:  # a call in the middle of its thinking, not the first
            chain = _ancestors(int(pid))
            shard = next((q for q in chain if b"--shard" in _cmdline(q)), None)
            if shard is not None and chain.index(shard) + 1 < len(chain):
                time.sleep(0.15)
                killed = chain[chain.index(shard) + 1]  # the worker that runs the shard
                os.kill(killed, signal.SIGKILL)
                break
    out, err = p.communicate(timeout=300)
    assert killed is not None, err
    assert p.returncode == 3, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["shards"] == 6 and summary["verdicts"]["ERROR"] == 1
    lines = log.read_text().splitlines()
    done = Counter(" ".join(ln.split()[1:4]) for ln in lines if ln.startswith("done"))
    assert done and max(done.values()) == 1, done  # no agent call made twice
    assert len([ln for ln in lines if ln.startswith("start")]) > sum(done.values())  # killed
    assert set(done) == {" ".join(ln.split()[1:4]) for ln in (
        tmp_path / "whole.log").read_text().splitlines() if ln.startswith("done")}
    assert _files(tmp_path / "runs") == _files(tmp_path / "runs-whole")
