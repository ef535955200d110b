"""`determinacy store gc` and `store du`: what no benchmark reaches goes, what a run needs stays.

A real audit (two cases, an agent pass) whose first case's prose then changes leaves stale
action entries, objects and a source read behind; a planted orphan object and an entry of an
older version are garbage too; a second benchmark shares most objects with the first. gc must
drop exactly the garbage: a rerun that lost doit's database then finds every action it looks
up in the cache (no agent called), and looks up every entry gc kept.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import Audit, new_helper, row, widgets_repo, write_benchmark

from determinacy.store import ActionKey, Store, digest

AGENT = Path(__file__).parent / "agents" / "scripted.py"


def cli(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`determinacy store ARGS` as a process."""
    return subprocess.run([sys.executable, "-m", "determinacy.cli", "store", *args,
                           "--store", str(store)], capture_output=True, text=True)


def inproc(audit: Audit, *args: str) -> Any:
    """The same in this process: cheaper, and it hashes the tool's code (which names a
    source read) once with the runs, whatever happens to the checkout meanwhile."""
    return audit.invoke("store", *args, "--store", str(audit.store))


def listing(store: Path) -> dict[str, bytes]:
    return {str(p.relative_to(store)): p.read_bytes()
            for p in sorted(store.rglob("*")) if p.is_file()}


def entries(store: Path) -> dict[str, str]:
    """Action key -> its output."""
    return {p.stem: json.loads(p.read_bytes())["output"] for p in store.glob("ac/*/*.json")}


def objects(store: Path) -> set[str]:
    return {p.name for p in store.glob("objects/*/*")}


def bench(tmp: Path, prose: str, name: str = "bench") -> Path:
    repo = tmp / "mirrors" / "acme" / "widgets"
    if not repo.is_dir():
        widgets_repo(repo)
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout.strip()
    rows = [row("acme__widgets-1", base, prose, *new_helper(repo, base, "frobnicate_widget")),
            row("acme__widgets-2", base, "Add polish_widget, which returns 3.",
                *new_helper(repo, base, "polish_widget", 3))]
    return write_benchmark(tmp / name, rows, mirror=f"{tmp}/mirrors/{{owner}}/{{name}}",
                           name=name)


@dataclass
class Stale:
    store: Path
    cfg: Path
    other: Path
    agent: str
    log: Path
    first: dict[str, str]  # the first run's action entries
    first_sources: set[str]
    orphan: str
    old_key: str
    old_output: str


@pytest.fixture(scope="module")
def stale(tmp_path_factory: pytest.TempPathFactory) -> Stale:
    tmp = tmp_path_factory.mktemp("stale")
    audit = Audit(tmp)
    answers, log = tmp / "answers.json", tmp / "calls.log"
    answers.write_text("{}")
    agent = shlex.join([sys.executable, str(AGENT), str(answers), str(log)])
    audit.run(bench(tmp, "Add frobnicate_widget, which returns 2."), "--agent", agent)
    first = entries(audit.store)
    first_sources = {p.name for p in (audit.store / "sources").iterdir()}
    # The prose no longer names the new function: the case settles otherwise.
    cfg = bench(tmp, "Add a second helper to pkg.core that returns two.")
    audit.run(cfg, "--agent", agent)
    audit.run(bench(tmp, "Add a second helper to pkg.core that returns two.", "other"))
    s = Store(audit.store)
    orphan = s.put(b"an object nothing names\n")
    older = ActionKey(phase="propose", version="0")
    old_output = s.action(older, lambda: b"what an older version computed\n")
    return Stale(store=audit.store, cfg=cfg, other=tmp / "other" / "other.toml", agent=agent,
                 log=log, first=first, first_sources=first_sources, orphan=orphan,
                 old_key=digest(msgspec.json.encode(older, order="sorted")),
                 old_output=old_output)


def test_gc_drops_exactly_what_no_benchmark_reaches(stale: Stale, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    audit = Audit(tmp_path)
    shutil.copytree(stale.store, audit.store)
    store = audit.store
    before = listing(store)

    dry = inproc(audit, "gc", "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    assert listing(store) == before, "a dry run drops nothing"
    would = json.loads(dry.stdout)["dropped"]
    shown = inproc(audit, "gc", "--dry-run")
    assert shown.exit_code == 0 and "would drop" in shown.stdout
    said = " ".join(shown.stdout.split())
    assert "mirrors (repos/)" in said and "package caches (packages/)" in said
    assert "validity revisions, results files and score sets (never collected)" in said
    assert all(len(line) <= 80 for line in shown.stdout.splitlines())

    had = entries(store)
    done = inproc(audit, "gc", "--json")
    assert done.exit_code == 0, done.output
    dropped = json.loads(done.stdout)["dropped"]
    assert dropped == would, "the dry run said what gc drops"

    after = entries(store)
    gone = set(had) - set(after)
    # The planted entry, and first-run entries of the case whose prose changed: its settle
    # step, its agent call and the pass's steps, whose outputs no ref names any more.
    assert stale.old_key in gone
    assert gone - {stale.old_key} <= set(stale.first) and len(gone) >= 3
    assert len(gone) == dropped["action cache"]["files"]
    assert not {stale.orphan, stale.old_output} & objects(store)
    assert not (store / "locks" / f"ac-{stale.old_key}").exists()
    # The first run's source read is stale; the last runs' stay (reruns read them).
    left = sorted(p.name for p in (store / "sources").iterdir())
    assert len(left) == 2 and not set(left) & stale.first_sources
    assert dropped["source reads"]["files"] == len(stale.first_sources)
    # What is never collected.
    for kept in ("repos", "packages", "doit", "tables", "refs"):
        assert {k for k in before if k.startswith(kept + "/")} <= set(listing(store)), kept

    verify = cli(store, "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    again = json.loads(inproc(audit, "gc", "--json").stdout)["dropped"]
    assert all(v["files"] == 0 for v in again.values()), "a second gc finds nothing"

    # doit's databases lost: every task runs again, every action it looks up is one gc
    # kept (none computed, no agent called), and every entry gc kept is looked up.
    calls = stale.log.read_text()
    for p in (store / "doit").iterdir():
        p.unlink()
    looked_up: set[str] = set()
    action = Store.action

    def counted(self: Store, key: ActionKey, compute: Any) -> str:
        looked_up.add(digest(msgspec.json.encode(key, order="sorted")))
        return action(self, key, compute)

    monkeypatch.setattr(Store, "action", counted)
    rerun = [audit.run(stale.cfg, "--agent", stale.agent), audit.run(stale.other)]
    assert [r["actions_computed"] for r in rerun] == [0, 0], rerun
    assert looked_up == set(after)
    assert stale.log.read_text() == calls, "no agent called again"
    assert sorted(p.name for p in (store / "sources").iterdir()) == left


def test_du_adds_up(stale: Stale, tmp_path: Path) -> None:
    """Sizes by kind sum to the store; two benchmarks sharing objects count them once."""
    audit = Audit(tmp_path)
    audit.store = stale.store
    got = inproc(audit, "du", "--json")
    assert got.exit_code == 0, got.output
    du = json.loads(got.stdout)

    files = [p for p in stale.store.rglob("*") if p.is_file()]
    assert du["total"]["files"] == len(files)
    assert du["total"]["bytes"] == sum(p.stat().st_size for p in files)
    for field in ("files", "bytes", "disk"):
        assert sum(k[field] for k in du["kinds"].values()) == du["total"][field]

    one, two = du["benchmarks"]["bench"], du["benchmarks"]["other"]
    total = du["benchmarks_total"]
    assert one["shared"]["files"] == two["shared"]["files"] > 0
    for field in ("files", "bytes"):
        assert total["objects"][field] == (one["objects"][field] + two["objects"][field]
                                           - one["shared"][field])
        assert total["total"][field] == (total["objects"][field]
                                         + total["action entries"][field]
                                         + total["files"][field])
    # Every object: reached by a benchmark, by a cache only, or by nothing (gc drops it).
    assert du["kinds"]["objects"]["files"] == (total["objects"]["files"]
                                               + du["cache_objects"]["files"]
                                               + du["unreached"]["objects"]["files"])
    assert du["unreached"]["objects"]["files"] >= 2  # the orphan, the older version's

    table = cli(stale.store, "du")
    assert table.returncode == 0, table.stderr
    assert all(len(line) <= 80 for line in table.stdout.splitlines())
    assert "other" in table.stdout and "action cache" in table.stdout


def test_gc_refuses_a_store_a_run_holds(tmp_path: Path) -> None:
    """At once, with the cause; the run lets go when it ends, and gc goes ahead."""
    s = Store(tmp_path / "store")
    orphan = s.put(b"an object nothing names\n")
    s.share()  # what a run holds from its first read to its last write
    try:
        busy = cli(s.root, "gc")
        assert busy.returncode == 1
        assert "in use by a run" in busy.stderr, busy.stderr
        assert orphan in objects(s.root)
    finally:
        s.unshare()
    done = cli(s.root, "gc")
    assert done.returncode == 0, done.stderr
    assert orphan not in objects(s.root)
