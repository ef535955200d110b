"""Time four ways of asking which candidate constants occur in the tree at base_commit.

    uv run python benchmarks/codebase_search.py TASKS.jsonl --mirror '/srv/{owner}/{name}.git' \
        [--repo owner/name ...] [--limit N]

Each task's mechanical candidates (every non-trivial constant `propose` gives, computed once up
front with `read=tree.read` as `run_propose` does, not timed) are looked up, in one process and
on the same inputs, by:

  (a) a fresh `git worktree add --detach` per task, one `rg -F -l` per constant, worktree removed;
  (b) one checkout switched per task (`git checkout -f --detach`), one `rg -F -l` per constant;
  (c) one `git grep -F -q --text` per constant per commit, on the mirror;
  (d) the tool: per repository its trees listed (one `repos.survey` first, as the `search`
      task does), one `search.Engine.ensure` over every task's tree and
      constants (the `search` task), then `Engine.find` per task (the `codebase` phase); first
      on an empty store with the blob cache cleared (cold), then a new engine on the same
      store (warm: served from the stored batches).

Then (e): one first run of the whole audit (`determinacy run`, every phase) on the same tasks,
against (c): what the tool costs in all, weighed against the naive search alone.

It also prints the blob-once floor (every distinct blob of those trees read once through one
`git cat-file --batch` per mirror, nothing searched), wall times, ratios, peak memory after each
step, and checks that all four give the same present/absent answer for every (task, constant);
what only (d) finds, in decoded UTF-16/Latin-1 text, is reported apart. Exit 1 on a mismatch.

Mirrors are never written to (a worktree of a bare mirror would add to its `worktrees/`): (a)
and (b) work in one `git clone --shared --no-checkout` of each mirror in a temporary folder.
What the mirror cannot give (`tree.state([]).unread`) is left out by every method: a missing
blob is kept out of the checkouts by a sparse-checkout pattern and out of `git grep` by an
exclude pathspec (the tool does not read it), and a submodule is an empty folder to rg and no
file to git grep or the tool.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from determinacy.codebase import repos, search
from determinacy.config import Config, load_config
from determinacy.git import clean_env
from determinacy.proposer.propose import propose
from determinacy.sources.rows import load_tasks
from determinacy.store import Store

# As determinacy.git's reads: no transport, no fsmonitor; and no hooks in the scratch clones.
GIT_CONFIG = ("-c", "protocol.allow=never", "-c", "core.fsmonitor=false",
              "-c", f"core.hooksPath={os.devnull}", "-c", "core.autocrlf=false")
# Read every file as bytes, like `git grep --text`: no ignore files, dotfiles too, binaries as
# text, no BOM transcoding, no user config; the clone's own .git left out.
RG = ("rg", "--no-config", "--no-ignore", "--hidden", "-a", "--encoding", "none",
      "-g", "!.git", "-F", "-l")
TIMEOUT = 600.0

Pair = tuple[int, str]  # (task index, constant)


@dataclass
class Case:
    index: int
    instance_id: str
    repo: str
    git_dir: Path
    commit: str
    constants: list[str]
    excluded: list[str]  # paths of blobs the mirror lacks, left out by every method


def write_config(folder: Path, tasks: Path, mirror: str) -> Path:
    cfg = folder / "bench.toml"
    cfg.write_text(
        'name = "bench"\n'
        f'[source]\njsonl = "{tasks}"\n'
        '[fields]\ninstance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
        'gold_patch = "patch"\ntest_patch = "test_patch"\nfail_to_pass = "fail_to_pass"\n'
        'prose = ["problem_statement"]\n'
        f'[codebase]\nmirror = "{mirror}"\n'
    )
    return cfg


def whole_audit(tmp: Path, tasks: Path, mirror: str) -> float:
    """Seconds of one first run of the tool over `tasks`, in a process of its own: every phase,
    not only the search (what (c) is to be weighed against)."""
    folder = tmp / "whole"
    folder.mkdir()
    cfg = write_config(folder, tasks, mirror)
    cfg.write_text(cfg.read_text() + '[policy]\nunreadable = "exclude"\n')
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", "run", str(cfg), "--store",
                        str(folder / "store"), "--runs", str(folder / "runs"), "--jobs", "2"],
                       capture_output=True, text=True, cwd=folder)
    elapsed = time.perf_counter() - t
    if p.returncode not in (0, 3):  # 3: completed, with ERROR cases
        sys.exit(f"the whole audit failed ({p.returncode}):\n{p.stderr[-3000:]}")
    return elapsed


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def run(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,),
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    p = subprocess.run(cmd, capture_output=True, cwd=cwd, timeout=TIMEOUT,
                       env=env if env is not None else clean_env(isolated=True),
                       stdin=subprocess.DEVNULL)
    if p.returncode not in ok:
        sys.exit(f"{' '.join(cmd[:8])}... failed ({p.returncode}): "
                 f"{p.stderr.decode(errors='replace')[-2000:]}")
    return p


def git(where: Path, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[bytes]:
    return run(["git", "-C", str(where), *GIT_CONFIG, *args], cwd=where, ok=ok)


RG_ENV = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}


def rg_present(folder: Path, constants: list[str]) -> set[str]:
    found = set()
    for c in constants:
        p = run([*RG, "-e", c, "--", "."], cwd=folder, ok=(0, 1), env=RG_ENV)
        if p.returncode == 0:
            found.add(c)
    return found


def prepare(cfg: Config, tmp: Path,
            limit: int | None) -> tuple[list[Case], Counter[str], Counter[str]]:
    """Each task's mirror, commit, candidate constants and unreadable paths (untimed); counts
    of skipped tasks and of the unread paths left out."""
    loaded = load_tasks(cfg)
    for e in loaded.errors:
        print(f"load error, row {e.row}: {e.message}")
    store = Store(tmp / "store")  # unused for a local mirror folder: nothing is cloned
    skipped: Counter[str] = Counter()
    excluded: Counter[str] = Counter()
    per_repo: Counter[str] = Counter()
    cases: list[Case] = []
    for task in loaded.tasks:
        if limit is not None and per_repo[task.repo] >= limit:
            continue
        git_dir, may_fetch = repos.ensure_mirror(store, cfg, task.repo)
        sha = repos.resolve_commit(store, cfg, git_dir, task.repo, task.base_commit,
                                      may_fetch)
        tree = repos.list_tree(git_dir, sha)
        unread = tree.state([]).unread
        proposal = propose(task.gold_patch, task.test_patch, cfg.policy.test_paths,
                           cfg.policy.min_length, fail_to_pass=task.fail_to_pass,
                           read=tree.read)
        if proposal.error:
            skipped["proposal error"] += 1
            continue
        # What the engine can look for: a pattern with a newline or NUL is never searched.
        constants = sorted({c.constant for c in proposal.candidates if not c.trivial
                            and c.constant and "\n" not in c.constant
                            and "\0" not in c.constant})
        if not constants:
            skipped["no non-trivial candidate"] += 1
            continue
        per_repo[task.repo] += 1
        for u in unread:
            excluded[f"{u.why} {u.path}"] += 1
        cases.append(Case(len(cases), task.instance_id, task.repo, git_dir, sha, constants,
                          sorted(u.path for u in unread if u.why == "missing blob")))
    return cases, skipped, excluded


def sparse_patterns(private_git_dir: Path, excluded: list[str]) -> None:
    """Non-cone sparse-checkout patterns: everything but the `excluded` paths."""
    def literal(path: str) -> str:
        path = "".join("\\" + ch if ch in "\\*?[!#" else ch for ch in path)
        return path[:-1] + "\\ " if path.endswith(" ") else path

    (private_git_dir / "info").mkdir(parents=True, exist_ok=True)
    (private_git_dir / "info" / "sparse-checkout").write_text(
        "/*\n" + "".join(f"!/{literal(p)}\n" for p in excluded))


def scratch_clones(cases: list[Case], tmp: Path) -> dict[Path, Path]:
    """One `git clone --shared --no-checkout` per mirror (its objects borrowed, read-only)."""
    clones = {}
    for git_dir in dict.fromkeys(c.git_dir for c in cases):
        dest = tmp / "clones" / git_dir.parent.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        run(["git", "-c", "protocol.allow=never", "-c", "protocol.file.allow=always",
             "clone", "--shared", "--no-checkout", "--template=", "--quiet", "--",
             str(git_dir), str(dest)], cwd=tmp)
        clones[git_dir] = dest
    return clones


def method_a(cases: list[Case], clones: dict[Path, Path], tmp: Path) -> set[Pair]:
    out = set()
    for c in cases:
        clone, wt = clones[c.git_dir], tmp / f"wt-a-{c.index}"
        if not c.excluded:
            git(clone, "worktree", "add", "--detach", "--quiet", str(wt), c.commit)
        else:  # check out all but the blobs the mirror lacks
            git(clone, "worktree", "add", "--no-checkout", "--detach", "--quiet", str(wt),
                c.commit)
            sparse_patterns(clone / ".git" / "worktrees" / wt.name, c.excluded)
            git(wt, "-c", "core.sparseCheckout=true", "checkout", "-f", "--detach", "--quiet",
                c.commit)
        out |= {(c.index, k) for k in rg_present(wt, c.constants)}
        git(clone, "worktree", "remove", "--force", str(wt))
    return out


def method_b(cases: list[Case], clones: dict[Path, Path]) -> set[Pair]:
    out = set()
    for c in cases:
        wt = clones[c.git_dir]  # the clone's own work tree, switched from task to task
        # Always sparse (`/*` and the task's exclusions): a skip-worktree bit set for one task
        # is then recomputed, never carried over, at the next.
        sparse_patterns(wt / ".git", c.excluded)
        git(wt, "-c", "core.sparseCheckout=true", "checkout", "-f", "--detach", "--quiet",
            c.commit)
        out |= {(c.index, k) for k in rg_present(wt, c.constants)}
    return out


def method_c(cases: list[Case]) -> set[Pair]:
    out = set()
    for c in cases:
        spec = [f":(top,literal,exclude){p}" for p in c.excluded]
        for k in c.constants:
            p = run(["git", f"--git-dir={c.git_dir}", *GIT_CONFIG, "grep", "-F", "-q", "--text",
                     "-e", k, c.commit, "--", *spec], cwd=c.git_dir, ok=(0, 1))
            if p.returncode == 0:
                out.add((c.index, k))
    return out


def method_d(cases: list[Case], listing: list[float], store: Store) -> set[Pair]:
    """As a run does it: per repository, one engine pass over every case's (tree, constants)
    (the `search` task), then each case's answer (its `codebase` phase). A new engine reads
    the store's batches afresh, as a new process would."""
    engine = search.Engine(store)
    trees = {}
    t = time.perf_counter()
    for git_dir in dict.fromkeys(c.git_dir for c in cases):
        repos.survey(git_dir, sorted({c.commit for c in cases if c.git_dir == git_dir}))
    for c in cases:
        trees[c.index] = repos.list_tree(c.git_dir, c.commit)
    listing[0] += time.perf_counter() - t
    for repo in sorted({c.repo for c in cases}):
        mine = [c for c in cases if c.repo == repo]
        engine.ensure(mine[0].git_dir, repo,
                      [(trees[c.index].blobs(), c.constants) for c in mine])
    return {(c.index, k) for c in cases
            for k in engine.find(trees[c.index], c.repo, c.constants).hits}


def batch_count(store: Store) -> int:
    return sum(p.is_file() for p in (store.root / "search").glob("*/*/*"))


def distinct_blobs(cases: list[Case]) -> dict[Path, list[str]]:
    blobs: dict[Path, dict[str, None]] = {}
    for c in cases:
        tree = repos.list_tree(c.git_dir, c.commit)
        into = blobs.setdefault(c.git_dir, {})
        for e in tree.entries:
            if e.kind == "blob" and e.sha not in tree.missing:
                into[e.sha] = None
    return {g: list(s) for g, s in blobs.items()}


def read_once(git_dir: Path, shas: list[str]) -> int:
    """Stream every blob through one `git cat-file --batch`, discarding it; bytes read."""
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", *GIT_CONFIG, "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=clean_env(isolated=True), cwd=git_dir)
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def feed() -> None:
        stdin.write("".join(f"{s}\n" for s in shas).encode())
        stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    total = 0
    while chunk := proc.stdout.read(1 << 20):
        total += len(chunk)
    writer.join()
    if proc.wait():
        sys.exit(f"git cat-file --batch failed in {git_dir}")
    return total


def raw_present(c: Case, constant: str) -> bool:
    """Whether `constant` is in the raw bytes of some blob (cache, else git), not decoded."""
    tree = repos.list_tree(c.git_dir, c.commit)
    needle = constant.encode("utf-8", "surrogatepass")
    shas = {e.sha for e in tree.entries if e.kind == "blob" and e.sha not in tree.missing}
    for sha in shas:
        data = repos.BLOBS.get(sha)
        if data is None:
            data = run(["git", f"--git-dir={c.git_dir}", *GIT_CONFIG, "cat-file", "blob", sha],
                       cwd=c.git_dir).stdout
        if needle in data:
            return True
    return False


def timed(name: str, fn: Callable[[], set[Pair]], times: dict[str, float],
          answers: dict[str, set[Pair]]) -> None:
    t = time.perf_counter()
    answers[name] = fn()
    times[name] = time.perf_counter() - t
    print(f"{name}: {times[name]:.2f} s, {len(answers[name])} present; "
          f"peak RSS {peak_mib():.0f} MiB", flush=True)


def compare(cases: list[Case], answers: dict[str, set[Pair]]) -> int:
    """Print disagreements; the number of mismatches."""
    by_index = {c.index: c for c in cases}
    mismatches = 0
    ref = answers["(c) git grep"]
    for name in ("(a) worktree + rg", "(b) checkout + rg"):
        for pair in sorted(answers[name] ^ ref):
            mismatches += 1
            side = name if pair in answers[name] else "(c) git grep"
            print(f"MISMATCH {by_index[pair[0]].instance_id} {pair[1]!r}: only {side} finds it")
    d = answers["(d) tool, cold"]
    if d != answers["(d) tool, warm"]:
        for pair in sorted(d ^ answers["(d) tool, warm"]):
            mismatches += 1
            print(f"MISMATCH {by_index[pair[0]].instance_id} {pair[1]!r}: cold and warm differ")
    for pair in sorted(ref - d):
        mismatches += 1
        print(f"MISMATCH {by_index[pair[0]].instance_id} {pair[1]!r}: git grep finds it, "
              "the tool does not")
    decoded = []
    for pair in sorted(d - ref):
        if raw_present(by_index[pair[0]], pair[1]):
            mismatches += 1
            print(f"MISMATCH {by_index[pair[0]].instance_id} {pair[1]!r}: in the raw bytes, "
                  "yet only the tool finds it")
        else:
            decoded.append(pair)
    print(f"found only in decoded text (tool only, not a mismatch): {len(decoded)} pairs")
    for i, k in decoded:
        print(f"  {by_index[i].instance_id} {k!r}")
    return mismatches


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--mirror", required=True, help="local mirror path template")
    ap.add_argument("--repo", action="append", help="keep only tasks of this owner/name "
                    "(repeatable; default: every repository in the file)")
    ap.add_argument("--limit", type=int, help="at most this many tasks per repository")
    args = ap.parse_args()
    if shutil.which("rg") is None:
        sys.exit("ripgrep (rg) is not installed")
    with tempfile.TemporaryDirectory(prefix="determinacy-search-") as name:
        tmp = Path(name)
        tasks = tmp / "tasks.jsonl"
        lines = [ln for ln in args.tasks.read_text().splitlines() if ln.strip()]
        if args.repo:
            lines = [ln for ln in lines if json.loads(ln).get("repo") in args.repo]
        tasks.write_text("\n".join(lines) + "\n")
        cfg = load_config(write_config(tmp, tasks, args.mirror))

        t = time.perf_counter()
        cases, skipped, excluded = prepare(cfg, tmp, args.limit)
        n_const = sum(len(c.constants) for c in cases)
        per_repo = Counter(c.repo for c in cases)
        print(f"{len(lines)} tasks read; {len(cases)} compared "
              f"({', '.join(f'{r} {n}' for r, n in sorted(per_repo.items()))}), {n_const} "
              f"(task, constant) pairs; limit per repo: {args.limit or 'none'}")
        print("tasks skipped: "
              + (", ".join(f"{why} {n}" for why, n in sorted(skipped.items())) or "none"))
        print("unreadable paths excluded in every method (tasks with it): "
              + (", ".join(f"{what} ({n})" for what, n in sorted(excluded.items())) or "none"))
        print(f"setup (untimed): proposals {time.perf_counter() - t:.2f} s; "
              f"peak RSS {peak_mib():.0f} MiB; cpus {os.cpu_count()}", flush=True)
        if not cases:
            sys.exit("no task to compare")
        t = time.perf_counter()
        clones = scratch_clones(cases, tmp)
        print(f"setup (untimed): {len(clones)} `git clone --shared --no-checkout` "
              f"{time.perf_counter() - t:.2f} s", flush=True)

        # The floor first: it also warms the page cache of the mirrors' packs for all methods.
        t = time.perf_counter()
        blobs = distinct_blobs(cases)
        t_list = time.perf_counter() - t
        t = time.perf_counter()
        size = sum(read_once(g, shas) for g, shas in blobs.items())
        floor = time.perf_counter() - t
        print(f"blob-once floor: {floor:.2f} s for {sum(map(len, blobs.values()))} distinct "
              f"blobs, {size / 2**20:.0f} MiB through cat-file (listing the trees: "
              f"{t_list:.2f} s, not included); peak RSS {peak_mib():.0f} MiB", flush=True)

        times: dict[str, float] = {}
        answers: dict[str, set[Pair]] = {}
        timed("(a) worktree + rg", lambda: method_a(cases, clones, tmp), times, answers)
        timed("(b) checkout + rg", lambda: method_b(cases, clones), times, answers)
        timed("(c) git grep", lambda: method_c(cases), times, answers)
        # Cold: no blob and no tree the floor's listing read is at hand.
        repos.BLOBS = repos.BlobCache(max_bytes=repos.BLOBS.max_bytes,
                                            max_blob=repos.BLOBS.max_blob)
        repos._close_objects()
        repos._OBJECTS.clear()
        cold, warm = [0.0], [0.0]
        store = Store(tmp / "store")
        timed("(d) tool, cold", lambda: method_d(cases, cold, store), times, answers)
        after_cold = batch_count(store)
        timed("(d) tool, warm", lambda: method_d(cases, warm, store), times, answers)
        print(f"  of which list_tree: cold {cold[0]:.2f} s, warm {warm[0]:.2f} s; batches "
              f"stored: {after_cold} after cold, {batch_count(store)} after warm (equal: the "
              "warm run searched nothing, it read the stored answers)")

        whole = whole_audit(tmp, tasks, args.mirror)
        print(f"(e) the whole audit of these tasks (`determinacy run --jobs 2`, a new store, "
              f"unreadable paths excluded): {whole:.2f} s; "
              f"c/e {times['(c) git grep'] / whole:.1f}x", flush=True)

        d = times["(d) tool, cold"]
        print("ratios (to (d) cold): " + ", ".join(
            f"{k[:3]}/d {times[k] / d:.1f}x" for k in ("(a) worktree + rg",
                                                     "(b) checkout + rg", "(c) git grep")))
        print(f"d/floor: cold {d / floor:.2f}x, warm {times['(d) tool, warm'] / floor:.2f}x; "
              f"warm d: a/d {times['(a) worktree + rg'] / times['(d) tool, warm']:.1f}x, "
              f"b/d {times['(b) checkout + rg'] / times['(d) tool, warm']:.1f}x, "
              f"c/d {times['(c) git grep'] / times['(d) tool, warm']:.1f}x")
        mismatches = compare(cases, answers)
        print(f"answers: {'identical' if not mismatches else f'{mismatches} MISMATCHES'} "
              f"over {n_const} pairs (a = b = c; d = c plus decoded-only pairs)")
        if mismatches:
            sys.exit(1)


if __name__ == "__main__":
    main()
