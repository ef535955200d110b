"""Audit a tasks file against local mirrors; print cases per second, first run and no-op rerun.

The first run's wall and CPU time per phase (propose, search, codebase, settle, tables,
report) and its peak RSS come from the tool's own `run --json` (`seconds`, `peak_rss_mib`).

    uv run python benchmarks/audit_speed.py TASKS.jsonl --mirror '/srv/{owner}/{name}.git' \
        [--repo qutebrowser/qutebrowser] [--preset pro|verified] [--jobs 2] [--naive 20] \
        [--unreadable error|exclude] [--copies K] [--against REV [--rounds N]]

`--copies K` audits K copies of every task under new ids (`<id>-copy2`, ...): what a large
benchmark costs the graph, the store and the reports once the actions themselves are cached.
After the no-op rerun it changes one task's prose, reruns, and counts the report files written.

`--against REV` times first runs of the same tasks by the tool at git revision REV of this
repository (a worktree of it, its own environment through `uv run --project`), alternated with
this checkout's, N rounds each (default 2), each on an empty store: the speed-up over an
earlier version, measured in the same session on the same machine. Then the propose phase
alone, by each, in one process on an empty store: its CPU time (an earlier version may not
report its phases).

It also measures the codebase search against the naive approach (one `git grep` per candidate
constant instead of one search of the tree per case) on the same cases, in the same run, and
checks both give the same answers (over the readable part of the tree).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PRESETS = {
    "pro": ("fail_to_pass", "pass_to_pass", '["problem_statement", "requirements", "interface"]'),
    "verified": ("FAIL_TO_PASS", "PASS_TO_PASS", '["problem_statement"]'),
}


def write_config(folder: Path, tasks: Path, mirror: str, preset: str, unreadable: str) -> Path:
    f2p, p2p, prose = PRESETS[preset]
    # Some exports leave PASS_TO_PASS out; a mapped column no row has is a config error.
    columns = json.loads(tasks.read_text().split("\n", 1)[0])
    cfg = folder / "bench.toml"
    cfg.write_text(
        'name = "bench"\n'
        f'[source]\njsonl = "{tasks}"\n'
        '[fields]\ninstance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
        f'gold_patch = "patch"\ntest_patch = "test_patch"\nfail_to_pass = "{f2p}"\n'
        + (f'pass_to_pass = "{p2p}"\n' if p2p in columns else "")
        + f'prose = {prose}\n'
        f'[codebase]\nmirror = "{mirror}"\n'
        f'[policy]\nunreadable = "{unreadable}"\n'
    )
    return cfg


CLI = ["-c", "from determinacy.cli import main; main()"]


def run(cfg: Path, store: Path, runs: Path, jobs: int,
        python: list[str] | None = None) -> tuple[float, dict]:
    """One `determinacy run` in a process of its own: seconds, and its JSON summary (an
    earlier version's, with `python`, may print none: then {})."""
    t = time.perf_counter()
    p = subprocess.run(
        [*(python or [sys.executable]), *CLI, "run", str(cfg), "--store", str(store),
         "--runs", str(runs), "--jobs", str(jobs), *([] if python else ["--json"])],
        capture_output=True, text=True, cwd=cfg.parent,  # not a checkout: `-c` imports from .
    )
    elapsed = time.perf_counter() - t
    if p.returncode not in (0, 3):  # 3: completed, with ERROR cases
        sys.exit(f"run failed ({p.returncode}):\n{p.stderr[-3000:]}")
    return elapsed, json.loads(p.stdout.strip().splitlines()[-1]) if not python else {}


# The propose phase alone, in one process (no workers), by whichever revision imports here:
# the CPU seconds of proposing every task on an empty store. (Where `load_tasks` lives moved.)
PROPOSE_ONLY = """
import sys, time
from pathlib import Path
from determinacy import phases
from determinacy.config import load_config
from determinacy.store import Store
try:
    from determinacy.sources.rows import load_tasks
except ImportError:
    from determinacy.source import load_tasks
cfg, store = load_config(Path(sys.argv[1])), Store(Path(sys.argv[2]))
tasks = load_tasks(cfg).tasks
start = time.process_time()
for t in tasks:
    phases.run_propose(store, cfg, t, Path(sys.argv[2]) / "refs" / (t.case_id + ".json"))
print(time.process_time() - start)
"""


def propose_cpu(cfg: Path, where: Path, python: list[str] | None = None) -> float:
    p = subprocess.run([*(python or [sys.executable]), "-c", PROPOSE_ONLY, str(cfg),
                        str(where / "store")], capture_output=True, text=True, cwd=cfg.parent)
    if p.returncode:
        sys.exit(f"propose-only run failed:\n{p.stderr[-3000:]}")
    return float(p.stdout.split()[-1])


def against(rev: str, rounds: int, cfg: Path, folder: Path, jobs: int) -> None:
    """First runs by revision `rev` and by this checkout, alternated, each on a new store;
    then the propose phase alone, once each (its CPU time)."""
    here = Path(__file__).resolve().parent.parent
    tree = folder / "against"
    subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "--quiet",
                    str(tree), rev], check=True)
    try:
        old_python = ["uv", "run", "--quiet", "--project", str(tree), "python"]
        subprocess.run([*old_python, "-c", "import determinacy"], check=True,
                       cwd=folder)  # its environment, made now
        times: dict[str, list[float]] = {rev: [], "this checkout": []}
        for n in range(rounds):
            for name, python in ((rev, old_python), ("this checkout", None)):
                where = folder / f"against-{n}-{'old' if python else 'new'}"
                t, _ = run(cfg, where / "store", where / "runs", jobs, python)
                times[name].append(t)
        med = {k: statistics.median(v) for k, v in times.items()}
        for k, v in times.items():
            print(f"first run by {k}: " + ", ".join(f"{t:.2f} s" for t in v)
                  + f" (median {med[k]:.2f} s)")
        print(f"speed-up over {rev}: {med[rev] / med['this checkout']:.2f}x (medians)")
        cpu = {name: propose_cpu(cfg, folder / f"propose-{n}", python)
               for n, (name, python) in enumerate(((rev, old_python), ("this checkout", None)))}
        print(f"propose phase alone, one process: {rev} {cpu[rev]:.2f} s CPU, this checkout "
              f"{cpu['this checkout']:.2f} s CPU: {cpu[rev] / cpu['this checkout']:.2f}x less")
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(tree)],
                       check=False)


def naive_vs_batched(store: Path, mirror: str, cases: int) -> None:
    """Time one git grep per constant against the tool's search, on the same patterns."""
    import msgspec

    from determinacy.codebase import search
    from determinacy.codebase.repos import list_tree
    from determinacy.config import split_repo
    from determinacy.records import CodebaseSearch

    searches = []
    for ref in sorted((store / "refs" / "bench" / "codebase").glob("*.json")):
        out = json.loads(ref.read_text()).get("output")
        if out:
            s = msgspec.json.decode((store / "objects" / out[:2] / out).read_bytes(),
                                    type=CodebaseSearch)
            if s.searched:
                searches.append(s)
    searches = searches[:cases]
    if not searches:
        return
    t_batch = t_naive = 0.0
    n_patterns = 0
    for s in searches:
        owner, name = split_repo(s.repo)
        git_dir = Path(mirror.format(owner=owner, name=name))
        t = time.perf_counter()
        tree = list_tree(git_dir, s.tree.commit if s.tree else s.base_commit)
        found = search.Engine(None).find(tree, s.repo, s.searched).hits
        t_batch += time.perf_counter() - t
        t = time.perf_counter()
        naive = {}
        for pattern in s.searched:
            p = subprocess.run(["git", f"--git-dir={git_dir}", "grep", "-F", "-q", "-e", pattern,
                                s.base_commit], capture_output=True)
            if p.returncode == 0:
                naive[pattern] = True
        t_naive += time.perf_counter() - t
        n_patterns += len(s.searched)
        assert set(found) == set(naive), f"batched and naive disagree on {s.base_commit}"
    print(f"codebase search, {len(searches)} cases, {n_patterns} constants: the tool "
          f"{t_batch:.2f} s, naive (one git grep per constant) {t_naive:.2f} s, "
          f"ratio {t_naive / t_batch:.1f}x (same answers)")


def where_time_goes(summary: dict) -> None:
    """The first run's wall and CPU seconds per phase, and its peak RSS (from `--json`)."""
    seconds = summary["seconds"]
    order = ["prepare", "propose", "search", "codebase", "settle", "tables", "report"]
    print("first run, per phase (wall = first start to last end; cpu = all its threads "
          "and workers):")
    others = sorted(set(seconds) - {*order, "all"})  # the agent phases, if any
    for phase in [p for p in order if p in seconds] + others + ["all"]:
        t = seconds[phase]
        print(f"  {phase:<9} wall {t['wall']:7.2f} s   cpu {t['cpu']:7.2f} s")
    print(f"first run: peak RSS {summary['peak_rss_mib']:.0f} MiB (the largest process)")


def copy(line: str, k: int) -> str:
    if k == 1:
        return line
    row = json.loads(line)
    row["instance_id"] = f"{row['instance_id']}-copy{k}"
    return json.dumps(row)


def one_prose_change(tasks: Path, lines: list[str], cfg: Path, store: Path, runs: Path,
                     jobs: int) -> None:
    """Rerun after the last task's prose changed; count the report files written again."""
    report = runs / "bench"
    before = {p: p.stat().st_mtime_ns for p in report.rglob("*") if p.is_file()}
    row = json.loads(lines[-1])
    row["problem_statement"] = (row.get("problem_statement") or "") + "\n(edited)"
    tasks.write_text("\n".join([*lines[:-1], json.dumps(row)]) + "\n")
    t, s = run(cfg, store, runs, jobs)
    written = sorted(str(p.relative_to(report)) for p in report.rglob("*")
                     if p.is_file() and before.get(p) != p.stat().st_mtime_ns)
    print(f"rerun after one prose change: {t:.2f} s ({s['executed']} tasks executed, "
          f"{s['actions_computed']} actions computed); report files written: "
          f"{len(written)} of {len(before)}: {', '.join(written[:6])}"
          + (" ..." if len(written) > 6 else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--mirror", required=True, help="local mirror path template")
    ap.add_argument("--repo", help="keep only tasks of this owner/name")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="pro")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--naive", type=int, default=20, help="cases for the naive comparison")
    ap.add_argument("--unreadable", choices=["error", "exclude"], default="error",
                    help="policy for blobs the mirror lacks (fetched mirrors lack big files)")
    ap.add_argument("--copies", type=int, default=1, help="audit K copies of every task")
    ap.add_argument("--against", metavar="REV", help="also time first runs by revision REV")
    ap.add_argument("--rounds", type=int, default=2, help="alternated runs each, --against")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="determinacy-bench-") as tmp:
        folder = Path(tmp)
        tasks = folder / "tasks.jsonl"
        lines = [ln for ln in args.tasks.read_text().splitlines() if ln.strip()]
        if args.repo:
            lines = [ln for ln in lines if json.loads(ln).get("repo") == args.repo]
        lines = [copy(ln, k) for k in range(1, args.copies + 1) for ln in lines]
        tasks.write_text("\n".join(lines) + "\n")
        cfg = write_config(folder, tasks, args.mirror, args.preset, args.unreadable)
        store, runs = folder / "store", folder / "runs"
        first, s1 = run(cfg, store, runs, args.jobs)
        again, s2 = run(cfg, store, runs, args.jobs)
        n = len(lines)
        print(f"{n} cases, jobs={args.jobs}")
        print(f"first run: {first:.2f} s, {n / first:.1f} cases/s "
              f"({s1['executed']} tasks executed, {s1['actions_computed']} actions computed)")
        print(f"no-op rerun: {again:.2f} s, {n / again:.1f} cases/s "
              f"({s2['executed']} tasks executed, {s2['actions_computed']} actions computed)")
        print(f"  per task: {1000 * again / n:.2f} ms")
        print(f"verdicts: {json.dumps(s1['verdicts'], sort_keys=True)}")
        where_time_goes(s1)
        one_prose_change(tasks, lines, cfg, store, runs, args.jobs)
        naive_vs_batched(store, args.mirror, args.naive)
        if args.against:
            against(args.against, args.rounds, cfg, folder, args.jobs)


if __name__ == "__main__":
    main()
