"""The shipped examples as a user meets them, through the command line as a process: listed
and copied out (`determinacy examples`), run by name from an empty folder, the demo scored
on its own recorded results, and `show` / `sql` without CONFIG reading the one benchmark the
store holds (and saying so), or asking for CONFIG when there are several or none."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

EXAMPLES = ROOT / "examples"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DETERMINACY_")}
    return subprocess.run([sys.executable, "-m", "determinacy.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty folder where the history demo was run by name: one benchmark in store/."""
    folder = tmp_path_factory.mktemp("history")
    p = cli(folder, "run", "demo-history", "--quiet")
    assert p.returncode == 0, p.stderr[-2000:]
    return folder


def test_examples_lists_every_shipped_config_with_its_description(tmp_path: Path) -> None:
    p = cli(tmp_path, "examples")
    assert p.returncode == 0, p.stderr
    rows = dict(line.split(None, 1) for line in p.stdout.splitlines())
    configs = sorted(EXAMPLES.glob("*.toml"), key=lambda c: c.stem)
    assert list(rows) == [c.stem for c in configs]
    for c in configs:
        described = tomllib.loads(c.read_text(encoding="utf-8"))["description"]
        assert rows[c.stem] == described.strip().splitlines()[0]
    assert "determinacy examples copy NAME" in p.stderr  # stdout stays the list


def test_examples_copy_writes_a_config_and_what_it_refers_to(tmp_path: Path) -> None:
    p = cli(tmp_path, "examples", "copy", "demo")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "examples/demo.toml"  # default: a checkout's layout
    copied = tmp_path / "examples"
    assert (copied / "demo.toml").read_bytes() == (EXAMPLES / "demo.toml").read_bytes()
    for name in ("recorded_agent.py", "recorded_answers.json", "results/gamma.json",
                 "widgets.bundle", "tasks.jsonl", "simple/index.html"):
        assert (copied / "demo" / name).read_bytes() == (EXAMPLES / "demo" / name).read_bytes()
    # The copy is usable as it stands: its recorded agent answers from its own folder.
    agent = subprocess.run([sys.executable, str(copied / "demo" / "recorded_agent.py")],
                           input="DETERMINACY-PHASE: screen\nDETERMINACY-CASE: acme__widgets-3\n"
                           "DETERMINACY-PASS: 1\n", capture_output=True, text=True, check=True)
    assert agent.stdout.startswith("{") and "behaviors" in agent.stdout
    # Copied again: nothing to write. An edited file is never overwritten without --force.
    again = cli(tmp_path, "examples", "copy", "demo")
    assert again.returncode == 0 and "0 files written" in again.stderr, again.stderr
    edited = (copied / "demo.toml").read_text() + "# mine\n"
    (copied / "demo.toml").write_text(edited)
    refused = cli(tmp_path, "examples", "copy", "demo")
    assert refused.returncode == 2, refused.stderr
    assert "examples/demo.toml" in refused.stderr and "--force" in refused.stderr
    assert (copied / "demo.toml").read_text() == edited
    forced = cli(tmp_path, "examples", "copy", "demo", "--force")
    assert forced.returncode == 0 and "1 file written" in forced.stderr, forced.stderr
    assert (copied / "demo.toml").read_bytes() == (EXAMPLES / "demo.toml").read_bytes()


def test_examples_copy_to_a_file_name_and_an_unknown_name(tmp_path: Path) -> None:
    p = cli(tmp_path, "examples", "copy", "demo-history", "mine/history.toml")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "mine" / "history.toml").is_file()
    assert (tmp_path / "mine" / "demo" / "widgets.bundle").is_file()  # what `git =` names
    hub = cli(tmp_path, "examples", "copy", "swebench-pro", "pro")
    assert hub.returncode == 0 and sorted(os.listdir(tmp_path / "pro")) == ["swebench-pro.toml"]
    bad = cli(tmp_path, "examples", "copy", "nope")
    assert bad.returncode == 2 and "no shipped example 'nope'" in bad.stderr
    assert "demo-history" in bad.stderr  # the names there are


def test_a_config_name_runs_the_shipped_example_from_an_empty_folder(history: Path) -> None:
    assert (history / "runs" / "demo-history" / "REPORT.md").is_file()
    assert sorted(os.listdir(history / "store" / "tables")) == ["demo-history"]


def test_a_file_of_that_path_wins_over_the_name(tmp_path: Path) -> None:
    (tmp_path / "demo-history").write_text("name = [\n")  # a file, however broken
    p = cli(tmp_path, "run", "demo-history")
    assert p.returncode == 2 and p.stderr.startswith("error: demo-history: not valid TOML")
    unknown = cli(tmp_path, "run", "demo-histry")
    assert unknown.returncode == 2, unknown.stderr
    assert "no shipped example of that name" in unknown.stderr and "demo-history" in unknown.stderr


def test_score_demo_reads_its_recorded_results(tmp_path: Path) -> None:
    assert cli(tmp_path, "run", "demo", "--limit", "3", "--quiet").returncode == 0
    p = cli(tmp_path, "score", "demo")
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "runs/demo/SCORES.md" and (tmp_path / p.stdout.strip()).is_file()
    for name in ("agents.jsonl", "gamma.json"):
        assert f"{Path('demo') / 'results' / name}:" in p.stderr
    # Any other benchmark has no recorded results: RESULTS is required there.
    other = cli(tmp_path, "score", "demo-history")
    assert other.returncode == 2 and "RESULTS" in other.stderr, other.stderr


def test_show_and_sql_without_config_read_the_only_stored_benchmark(history: Path) -> None:
    said = "benchmark 'demo-history' (the only one in store/)"
    show = cli(history, "show", "264d571b")  # one argument: CASE, never CONFIG
    assert show.returncode == 0, show.stderr
    assert said in show.stderr and show.stdout.startswith("# ")
    assert "runs/demo-history/cases/" in show.stdout
    sql = cli(history, "sql", "select count(*) AS n from tasks", "--format", "csv")
    assert sql.returncode == 0, sql.stderr
    assert sql.stdout == "n\n6\n" and said in sql.stderr
    views = cli(history, "sql")
    assert views.returncode == 0 and "verdicts" in views.stdout and said in views.stderr
    # A command that needs the whole config names the stored benchmark, never reads the demo.
    for args in (["report"], ["export"], ["verify"], ["validity", "list"]):
        p = cli(history, *args)
        assert p.returncode == 2 and "the store holds benchmark 'demo-history', not the demo: " \
            "pass its CONFIG" in p.stderr, (args, p.stderr)
    named = cli(history, "export", "demo-history", "--what", "verdicts", "--format", "csv")
    assert named.returncode == 0 and named.stdout.count("\n") == 7, named.stderr


def test_show_and_sql_without_config_ask_for_it_among_several(history: Path,
                                                               tmp_path: Path) -> None:
    shutil.copytree(history / "store", tmp_path / "store", symlinks=True)
    tables = tmp_path / "store" / "tables"
    shutil.copytree(tables / "demo-history", tables / "other")
    for args in (["show", "264d571b"], ["sql", "select 1"]):
        p = cli(tmp_path, *args)
        assert p.returncode == 2, p.stderr
        assert "2 benchmarks in store/ (demo-history, other): pass CONFIG" in p.stderr
    named = cli(tmp_path, "sql", "demo-history", "select count(*) AS n from tasks")
    assert named.returncode == 0 and named.stdout.endswith("| 6 |\n"), named.stderr


def test_show_and_sql_without_config_or_audit_never_advise_the_demo(tmp_path: Path) -> None:
    for args in (["show", "widgets-1"], ["sql", "select 1"]):
        p = cli(tmp_path, *args)
        assert p.returncode == 2, p.stderr
        assert p.stderr == ("error: no stored audit in store/: run `determinacy run CONFIG` "
                            "first (or give --store)\n")
    elsewhere = cli(tmp_path, "show", "widgets-1", "--store", "nowhere")
    assert "no stored audit in nowhere/" in elsewhere.stderr
