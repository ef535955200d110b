"""Resuming: a rerun does nothing, a change redoes only what depends on it, a killed run resumes
without computing any action twice, and every way of getting to the end gives the same bytes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO, Audit, new_helper, row, widgets_repo, write_benchmark

from determinacy import graph

N_TASKS = 40



def fn_name(i: int) -> str:
    return f"frobnicate_{i:02d}_widget"


@dataclass
class Bench:
    """A real repository and N tasks on it: even tasks certify, odd ones name their function."""

    mirror: str
    rows: list[dict[str, Any]]

    def write(self, folder: Path, rows: list[dict[str, Any]] | None = None) -> Path:
        return write_benchmark(folder, list(rows if rows is not None else self.rows),
                               mirror=self.mirror)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    root = tmp_path_factory.mktemp("mirrors")
    repo = root / "acme" / "widgets"
    base = widgets_repo(repo)
    rows = []
    for i in range(N_TASKS):
        fn = fn_name(i)
        gold, test = new_helper(repo, base, fn, i, inline_import=True)
        prose = f"Add `{fn}` to pkg.core." if i % 2 else "Add one more helper to pkg.core."
        rows.append(row(f"task-{i:02d}", base, prose, gold, test))
    return Bench(mirror=f"{root}/{{owner}}/{{name}}", rows=rows)


def ac_entries(store: Path) -> int:
    """Entries of the action cache: one per action ever computed."""
    return sum(1 for _ in (store / "ac").glob("*/*.json"))


def tables(store: Path, name: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((store / "tables" / name).glob("*.parquet"))}


# -- the shipped demo --------------------------------------------------------------------------


def test_rerun_executes_nothing(audit: Audit) -> None:
    first = audit.run(DEMO)
    assert first["executed"] > 0 and first["actions_computed"] > 0, first
    before = audit.files("demo")
    again = audit.run(DEMO)
    assert again["executed"] == 0 and again["actions_computed"] == 0, again
    assert again["up_to_date"] == first["tasks"], again
    assert again["verdicts"] == first["verdicts"]
    assert audit.files("demo") == before


def test_rerun_reads_the_source_once_and_survives_a_damaged_memo(
        audit: Audit, monkeypatch: pytest.MonkeyPatch) -> None:
    first = audit.run(DEMO)
    before = audit.files("demo")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged source is parsed again")

    # Same bytes, config and code: the tasks come from the store, not from parsing rows.
    with monkeypatch.context() as m:
        m.setattr(graph, "load_tasks", refuse)
        again = audit.run(DEMO)
    assert again["verdicts"] == first["verdicts"] and audit.files("demo") == before
    # A damaged memo (or the object it names) is read past: the source is parsed again.
    [memo] = (audit.store / "sources").iterdir()
    memo.write_text("not an object hash")
    third = audit.run(DEMO)
    assert third["verdicts"] == first["verdicts"] and audit.files("demo") == before
    assert third["executed"] == 0, third


def test_lost_doit_database_recomputes_no_action(audit: Audit) -> None:
    first = audit.run(DEMO)
    before = audit.files("demo")
    db = sorted((audit.store / "doit").glob("demo.sqlite*"))
    assert db, "doit's database is where the store layout says"
    for p in db:
        p.unlink()
    again = audit.run(DEMO)
    # doit forgot everything, so it runs its tasks again: each action comes from the cache.
    assert again["executed"] > 0, again
    assert again["actions_computed"] == 0, again
    assert again["actions_cached"] == first["actions_computed"], again
    assert audit.files("demo") == before


def test_report_command_and_separate_runs_give_identical_bytes(tmp_path: Path) -> None:
    a, b = Audit(tmp_path / "a"), Audit(tmp_path / "b")
    a.run(DEMO)
    files = a.files("demo")
    assert "REPORT.md" in files and "CLAIMS.md" in files
    assert any(k.endswith("/RECEIPT.md") for k in files)

    runs2 = tmp_path / "a" / "runs2"
    res = a.invoke("report", str(DEMO), "--store", str(a.store), "--runs", str(runs2))
    assert res.exit_code == 0, res.output
    assert res.output.strip() == str(runs2 / "demo" / "REPORT.md")
    regenerated = Audit(tmp_path / "a")
    regenerated.runs = runs2
    assert regenerated.files("demo") == files

    b.run(DEMO)  # another store, another runs folder: nothing shared but the config
    assert b.files("demo") == files
    assert tables(b.store, "demo") == tables(a.store, "demo")


def test_two_jobs_start_each_search_early_and_give_the_same_bytes(tmp_path: Path) -> None:
    """With `--jobs 2` (proposals in worker processes) a repository's search starts in a
    thread of its own once the run has made its proposals, and the reports and tables are
    those of a one-job run, byte for byte."""
    from unittest import mock

    from determinacy import phases

    root = tmp_path / "mirrors"
    rows = []
    for repo in ("acme/widgets", "acme/gadgets"):
        base = widgets_repo(root / repo)
        for i in range(4):
            gold, test = new_helper(root / repo, base, fn_name(i), i, inline_import=True)
            rows.append(row(f"{repo.split('/')[1]}-{i}", base, "Add one more helper.", gold,
                            test, repo=repo))
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=f"{root}/{{owner}}/{{name}}")
    one, two = Audit(tmp_path / "one"), Audit(tmp_path / "two")
    one.run(cfg)
    real = phases.run_search
    threads: list[str] = []

    def recorded(*args: Any, **kw: Any) -> None:
        threads.append(threading.current_thread().name)
        real(*args, **kw)

    with mock.patch.object(phases, "run_search", recorded):
        two.run(cfg, "--jobs", "2")
    assert sorted(t for t in threads if t.startswith("search ")) == \
        ["search acme/gadgets", "search acme/widgets"]
    assert two.files("bench") == one.files("bench")
    assert tables(two.store, "bench") == tables(one.store, "bench")


# -- a change redoes only what depends on it --------------------------------------------------


def test_prose_change_reexecutes_only_that_task(tmp_path: Path, bench: Bench) -> None:
    rows = bench.rows[:6]
    cfg = bench.write(tmp_path / "bench", rows)
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {f"task-{i:02d}": "NO_CLAIM" if i % 2 else "AIRTIGHT"
                                   for i in range(6)}
    before = audit.files("bench")
    base = audit.runs / "bench"
    identity = {k: ((base / k).stat().st_ino, (base / k).stat().st_mtime_ns) for k in before}

    # task-02's prose now names its new function: the witness is gone.
    changed = [dict(r) for r in rows]
    changed[2]["problem_statement"] = f"Add `{fn_name(2)}` to pkg.core."
    bench.write(tmp_path / "bench", changed)
    summary = audit.run(cfg)
    assert summary["executed_by_phase"] == {"settle": 1, "tables": 1, "report": 1}, summary
    assert summary["actions_computed"] == 1, summary
    assert audit.verdicts(cfg)["task-02"] == "NO_CLAIM"

    after = audit.files("bench")
    # claimable.png too: the claimable count it plots changed.
    assert sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)) == [
        "CLAIMS.md", "REPORT.md", "cases/task-02/RECEIPT.md", "cases/task-02/spec.md",
        "claimable.png", "report.json"]
    # Only those were written again: every other file is the very same file.
    rewritten = sorted(k for k in before if ((base / k).stat().st_ino,
                                             (base / k).stat().st_mtime_ns) != identity[k])
    assert rewritten == ["CLAIMS.md", "REPORT.md", "cases/task-02/RECEIPT.md",
                         "cases/task-02/spec.md", "claimable.png", "report.json"]


# -- interrupted runs --------------------------------------------------------------------------


@dataclass
class Reference:
    """An uninterrupted run of the 40-task benchmark."""

    cfg: Path
    files: dict[str, bytes]
    tables: dict[str, bytes]
    ac: int


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, bench: Bench) -> Reference:
    tmp = tmp_path_factory.mktemp("reference")
    cfg = bench.write(tmp / "bench")
    audit = Audit(tmp)
    summary = audit.run(cfg)
    # Three phases per case, one search for the repository, the tables and the report.
    assert summary["executed"] == 3 * N_TASKS + 3, summary
    assert summary["verdicts"] == {"AIRTIGHT": N_TASKS // 2, "NO_CLAIM": N_TASKS // 2}
    n = ac_entries(audit.store)
    assert summary["actions_computed"] == n == 3 * N_TASKS, summary
    return Reference(cfg=cfg, files=audit.files("bench"), tables=tables(audit.store, "bench"),
                     ac=n)


def start(cfg: Path, audit: Audit) -> subprocess.Popen[str]:
    """`determinacy run` as a real process."""
    audit.store.parent.mkdir(parents=True, exist_ok=True)
    with (audit.store.parent / "stderr.txt").open("w") as err:
        return subprocess.Popen(
            [sys.executable, "-c", "from determinacy.cli import main; main()", "run", str(cfg),
             "--store", str(audit.store), "--runs", str(audit.runs), "--quiet"],
            stdout=subprocess.DEVNULL, stderr=err, text=True, cwd=audit.store.parent)


def recorded(audit: Audit) -> int:
    """How many tasks doit has recorded as done (its database is written through per task,
    in WAL mode: it can be read while the run writes)."""
    try:
        con = sqlite3.connect(f"file:{audit.store / 'doit' / 'bench.sqlite'}?mode=ro", uri=True,
                              timeout=1)
        try:
            return con.execute("SELECT count(*) FROM doit").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0  # not created yet


def interrupted(tmp: Path, cfg: Path, sig: int, full_ac: int) -> tuple[Audit, int]:
    """A run stopped by `sig` part-way, and how many tasks it reported done before.

    Tries ever earlier stopping points: a run that finished before the signal proves nothing.
    """
    for after in (N_TASKS, N_TASKS // 3, 4, 1):
        audit = Audit(tmp / f"{sig}-{after}")
        proc = start(cfg, audit)
        guard = threading.Timer(120, proc.kill)  # never hang the suite
        guard.start()
        try:
            done = 0
            while done < after and proc.poll() is None:
                time.sleep(0.005)
                done = recorded(audit)
            proc.send_signal(sig)
            rc = proc.wait(timeout=10)  # promptly
        finally:
            guard.cancel()
            proc.kill()
            proc.wait()
        if (audit.runs / "bench" / "REPORT.md").exists() or ac_entries(audit.store) >= full_ac:
            continue  # the run was (nearly) over before the signal: try an earlier one
        assert rc != 0, f"a run stopped by signal {sig} must not exit 0"
        if sig == signal.SIGKILL:
            assert rc == -signal.SIGKILL
        return audit, done
    pytest.fail(f"every run finished before signal {sig} reached it")


def test_sigkill_then_resume_computes_each_action_once(tmp_path: Path,
                                                       reference: Reference) -> None:
    audit, done = interrupted(tmp_path, reference.cfg, signal.SIGKILL, reference.ac)
    at_kill = ac_entries(audit.store)

    resumed = audit.run(reference.cfg)
    assert resumed["exit"] == 0 and resumed["failed"] == 0, resumed
    # Every task reported done before the kill was recorded: the resume skips it.
    assert resumed["up_to_date"] >= done, resumed
    # No action computed twice: the resume computed exactly what the killed run had not.
    assert at_kill + resumed["actions_computed"] == ac_entries(audit.store) == reference.ac
    assert resumed["actions_cached"] == resumed["executed_by_phase"].get("propose", 0) \
        + resumed["executed_by_phase"].get("codebase", 0) \
        + resumed["executed_by_phase"].get("settle", 0) - resumed["actions_computed"]

    assert audit.files("bench") == reference.files
    assert tables(audit.store, "bench") == reference.tables


def test_sigterm_stops_promptly_and_resumes(tmp_path: Path, reference: Reference) -> None:
    audit, done = interrupted(tmp_path, reference.cfg, signal.SIGTERM, reference.ac)
    at_term = ac_entries(audit.store)
    # Like Ctrl-C: doit saved what it did, so the rerun picks up from there.
    resumed = audit.run(reference.cfg)
    assert resumed["exit"] == 0, resumed
    assert resumed["up_to_date"] >= done > 0, resumed
    assert at_term + resumed["actions_computed"] == ac_entries(audit.store) == reference.ac
    assert audit.files("bench") == reference.files
    assert tables(audit.store, "bench") == reference.tables
    assert resumed["verdicts"] == {"AIRTIGHT": N_TASKS // 2, "NO_CLAIM": N_TASKS // 2}


def test_a_task_no_longer_in_the_source_leaves_no_report_files(tmp_path: Path,
                                                              bench: Bench) -> None:
    cfg = bench.write(tmp_path / "bench", bench.rows[:3])
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert any(k.startswith("cases/task-02/") for k in audit.files("bench"))
    bench.write(tmp_path / "bench", bench.rows[:2])
    audit.run(cfg)
    files = audit.files("bench")
    assert not any("task-02" in k for k in files), sorted(files)
    assert not (audit.runs / "bench" / "cases" / "task-02").exists()


def test_report_renders_from_a_store_it_may_not_write(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`determinacy report` only reads the store: when the saved verdict counts (a shortcut
    for the next run) cannot be written, the report still renders, and the counts are right."""
    from determinacy.errors import StoreError
    from determinacy.reports import query
    from determinacy.store import Store

    a = Audit(tmp_path)
    a.run()
    (a.store / "tables" / "demo" / "verdict_counts.json").unlink()

    write = query.write_if_changed

    def refuse(path: Path, data: bytes) -> bool:  # the store is read-only, the runs are not
        if path.is_relative_to(a.store):
            raise StoreError(f"cannot write {path}: the file system is read-only")
        return write(path, data)

    monkeypatch.setattr(query, "write_if_changed", refuse)
    res = a.invoke("report", "--store", str(a.store), "--runs", str(tmp_path / "r2"))
    assert res.exit_code == 0, res.output
    assert (tmp_path / "r2" / "demo" / "REPORT.md").is_file()
    assert not (a.store / "tables" / "demo" / "verdict_counts.json").exists()
    counts = query.verdict_counts(Store(str(a.store)), "demo")
    verdicts = list(a.verdicts(DEMO).values())
    assert counts == {v: verdicts.count(v) for v in set(verdicts)}


def test_doits_record_of_a_task_is_written_once_whole_and_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task saved as done is in the database file before the run ends (a kill loses
    nothing), written once: a large benchmark's tables task has a file_dep per case, and
    writing its record at each of them made saving it quadratic."""
    from doit.dependency import Dependency, JSONCodec, MD5Checker
    from doit.task import Task

    from determinacy import dodb

    encoded: list[int] = []
    encode = dodb._Codec.encode

    def counting(self: Any, data: Any) -> str:
        encoded.append(len(data))
        return encode(self, data)

    monkeypatch.setattr(dodb._Codec, "encode", counting)

    deps = []
    for i in range(300):
        (tmp_path / f"{i}.json").write_text(str(i))
        deps.append(str(tmp_path / f"{i}.json"))
    db = tmp_path / "doit.sqlite"
    dep = Dependency(dodb.WalSqliteDB, str(db), checker_cls=MD5Checker, codec_cls=JSONCodec)
    dep.save_success(Task("tables", actions=[], file_dep=deps))
    assert len(encoded) == 1
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    (data,) = con.execute("SELECT task_data FROM doit WHERE task_id = 'tables'").fetchone()
    con.close()
    assert set(deps) <= set(json.loads(data))  # every file_dep's state, from another reader
    # And read back as doit reads it (all records in one query), by a new run.
    again = Dependency(dodb.WalSqliteDB, str(db), checker_cls=MD5Checker, codec_cls=JSONCodec)
    assert again._get("tables", deps[0]) == json.loads(data)[deps[0]]
    assert again._get("never-saved", deps[0]) is None
