"""The command line behaves as people of this field expect: short options, the version, the
environment it reads, and an agent command shown in a form that can be pasted back."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DEMO

from determinacy import __version__
from determinacy.agents.phases import AgentSetup
from determinacy.cli import main
from determinacy.config import load_config
from determinacy.graph import Audit
from determinacy.store import Store

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(main.commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("argv", [[], *([c] for c in COMMANDS)])
def test_short_help_is_the_long_help(argv: list[str]) -> None:
    runner = CliRunner()
    short, long = runner.invoke(main, [*argv, "-h"]), runner.invoke(main, [*argv, "--help"])
    assert short.exit_code == long.exit_code == 0, short.output
    assert short.output == long.output and "Usage:" in short.output


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag: str) -> None:
    res = CliRunner().invoke(main, [flag])
    assert res.exit_code == 0 and __version__ in res.output


def test_python_dash_m_is_the_same_command() -> None:
    p = subprocess.run([sys.executable, "-m", "determinacy", "--version"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"determinacy, version {__version__}"


def test_help_names_the_environment_it_reads() -> None:
    top = CliRunner().invoke(main, ["--help"]).output
    run = CliRunner().invoke(main, ["run", "--help"]).output
    for var in ("DETERMINACY_STORE", "DETERMINACY_RUNS"):
        assert var in top and var in run


def test_sql_help_lists_every_view() -> None:
    views = re.findall(r"CREATE OR REPLACE VIEW (\w+)", (ROOT / "queries" / "views.sql")
                       .read_text())
    text = " ".join(CliRunner().invoke(main, ["sql", "--help"]).output.split())
    missing = [v for v in views if not re.search(rf"\b{v}\b", text)]
    assert views and not missing, missing


def test_agent_command_is_shown_as_it_can_be_pasted_back(tmp_path: Path) -> None:
    argv = ("python3", "agents/my agent.py", "--say", "it's fine")
    setup = AgentSetup(argv=argv, refuter=("sh", "-c", "echo $HOME"), pass_no=1,
                       timeout=10, max_chars=1000)
    info = Audit(cfg=load_config(DEMO), store=Store(tmp_path / "store"), runs=tmp_path,
                 agents=[setup]).run_info()
    assert tuple(shlex.split(info.agent)) == argv
    assert shlex.split(info.refuter) == ["sh", "-c", "echo $HOME"]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    from conftest import Audit as Harness

    audit = Harness(tmp_path_factory.mktemp("demo"))
    audit.run(DEMO)
    return audit  # type: ignore[return-value]


def show(demo: Any, *argv: str) -> Any:
    return demo.invoke("show", *argv, "--store", str(demo.store), "--runs", str(demo.runs))


@pytest.mark.parametrize("name", ["acme__widgets-1", "widgets-1", "widgets-17"])
def test_show_prints_the_receipt_of_the_case_it_names(demo: Any, name: str) -> None:
    res = show(demo, str(DEMO), name)
    assert res.exit_code == 0, res.output
    wanted = name if name.startswith("acme") else f"acme__{name}"
    receipt = (demo.runs / "demo" / "cases" / wanted / "RECEIPT.md").read_text()
    assert res.output.startswith(receipt)
    assert f"Materials: {demo.runs / 'demo' / 'cases' / wanted}/" in res.output
    # Without CONFIG: the one benchmark of the store, named on stderr.
    alone = show(demo, name)
    assert alone.stdout == res.stdout
    assert alone.stderr == f"benchmark 'demo' (the only one in {demo.store}/)\n"


@pytest.mark.parametrize(("name", "why"), [("widgets-", "names 52 cases"),
                                          ("nowhere-42", "no case of this audit")])
def test_show_refuses_an_ambiguous_or_unknown_name(demo: Any, name: str, why: str) -> None:
    res = show(demo, name)
    assert res.exit_code == 2 and why in res.output, res.output


IDS = ["instance_future-architect__vuls-1832b4ee3a20177ad313d806983127cb6e53f5cf",
       "instance_future-architect__vuls-1b6dc8ab3ae0a09ee6ffd5e4c2c4c5e9ca1b6b52",
       "instance_qutebrowser__qutebrowser-de4a1c1a2839b5b49c3d4ce21d39de48d24e2091"]


@pytest.mark.parametrize(("wanted", "found"), [
    (IDS[0], IDS[0]),                                      # the whole id
    ("instance_qutebrowser", IDS[2]),                      # a unique prefix
    ("vuls-1832b4", IDS[0]),                               # a unique part of it
])
def test_a_case_is_found_by_a_unique_part_of_its_id(wanted: str, found: str) -> None:
    import duckdb

    from determinacy.reports.render import find_case

    con = duckdb.connect()
    con.execute("CREATE TABLE tasks AS SELECT unnest($ids) AS case_id, unnest($ids) AS "
                "instance_id", {"ids": IDS})
    assert find_case(con, wanted) == found
    with pytest.raises(Exception, match="names 2 cases"):
        find_case(con, "vuls-1")


def store_args(demo: Any) -> list[str]:
    return ["--store", str(demo.store)]


def test_export_claims_verdicts_and_candidates(demo: Any, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    claims = demo.sql(None, "SELECT case_id, constant FROM claims ORDER BY case_id, constant")
    assert claims == demo.sql(DEMO, "SELECT case_id, constant FROM claims ORDER BY 1, 2")
    res = demo.invoke("export", *store_args(demo))  # jsonl of claims by default
    got = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert res.exit_code == 0 and claims
    assert sorted((g["case_id"], g["constant"]) for g in got) == \
        [(c["case_id"], c["constant"]) for c in claims]
    assert all(g["command"].startswith("git grep -F") for g in got if g["verdict"] == "AIRTIGHT")

    out = tmp_path / "verdicts.csv"
    res = demo.invoke("export", "--what", "verdicts", "--format", "csv", "--out", str(out),
                      *store_args(demo))
    lines = out.read_text().splitlines()
    assert res.exit_code == 0 and lines[0].startswith("case_id,") and len(lines) == 53

    out = tmp_path / "candidates.parquet"
    res = demo.invoke("export", "--what", "candidates", "--format", "parquet", "--out", str(out),
                      *store_args(demo))
    [n] = demo.sql(DEMO, "SELECT count(*) AS n FROM candidates")
    assert res.exit_code == 0 and pq.read_table(out).num_rows == n["n"]
    assert "settled" in pq.read_table(out).column_names

    res = demo.invoke("export", "--format", "parquet", *store_args(demo))
    assert res.exit_code == 2 and "--out" in res.output


def test_sql_reads_its_query_from_a_file(demo: Any, tmp_path: Path) -> None:
    query = tmp_path / "q.sql"
    query.write_text("SELECT count(*) AS n FROM verdicts\n")
    res = demo.invoke("sql", "-f", str(query), "--format", "json", *store_args(demo))
    assert res.exit_code == 0 and json.loads(res.stdout) == [{"n": 52}]
    both = demo.invoke("sql", str(DEMO), "SELECT 1", "-f", str(query), *store_args(demo))
    assert both.exit_code == 2


def demo_copy(folder: Path, name: str) -> Path:
    """The demo's config under another name and benchmark name, its data beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "demo").symlink_to(DEMO.parent / "demo")
    text = DEMO.read_text().replace('name = "demo"', f'name = "{name}"')
    (folder / "determinacy.toml").write_text(text)
    return folder / "determinacy.toml"


def test_run_finds_the_config_people_expect_and_says_which(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = demo_copy(tmp_path / "here", "found-here")
    other = demo_copy(tmp_path / "elsewhere", "from-env")
    monkeypatch.chdir(here.parent)
    monkeypatch.delenv("DETERMINACY_CONFIG", raising=False)
    runner = CliRunner()
    args = ["run", "--limit", "2", "--store", str(tmp_path / "store"), "--runs",
            str(tmp_path / "runs")]
    res = runner.invoke(main, args)
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines()[0].startswith("auditing determinacy.toml (benchmark "
                                                 "'found-here', 2 tasks")
    monkeypatch.setenv("DETERMINACY_CONFIG", str(other))
    res = runner.invoke(main, args)
    assert res.exit_code == 0 and f"auditing {other} (benchmark 'from-env'" in res.stderr
    assert (tmp_path / "runs" / "found-here" / "REPORT.md").is_file()
    assert (tmp_path / "runs" / "from-env" / "REPORT.md").is_file()


def test_doit_with_a_bad_config_says_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n')
    p = subprocess.run([sys.executable, "-m", "doit", f"config={bad}", "list"], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip() == f"error: {bad}: key `source`: missing required key", p.stderr


def test_validate_shows_the_mapping_and_warns_without_auditing(tmp_path: Path) -> None:
    good = {"instance_id": "a-1", "repo": "acme/widgets", "base_commit": "a" * 40,
            "patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/t b/t\n",
            "FAIL_TO_PASS": '["tests/test_x.py::test_a"]', "problem_statement": "Fix it.",
            "requirements": "The name is `render_badge`.", "hints_text": ""}
    unparsed = {**good, "instance_id": "a-2", "FAIL_TO_PASS": "tests/test_x.py::test_a, oops"}
    lacking = {k: v for k, v in good.items() if k != "base_commit"} | {"instance_id": "a-3"}
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(r) + "\n" for r in (good, unparsed, lacking)))
    cfg = tmp_path / "bench.toml"
    cfg.write_text('name = "v"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
                   'instance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
                   'gold_patch = "patch"\ntest_patch = "test_patch"\n'
                   'fail_to_pass = "FAIL_TO_PASS"\nprose = ["problem_statement"]\n')
    res = CliRunner().invoke(main, ["validate", str(cfg), "--rows", "1"])
    out = res.output
    shown, warned = out.split("warning:", 1)
    assert res.exit_code == 3, out
    assert "(3 rows, 1 tasks)" in out and "row 1:" in shown and "row 2:" not in shown
    assert "fields.instance_id `instance_id`: 'a-1'" in out
    assert "fields.base_commit `base_commit` is missing from 1 of 3 rows" in out
    assert "column `requirements` looks like prose" in out
    assert "column `hints_text` looks like prose" in out
    assert "row 2: field `FAIL_TO_PASS` is neither a list" in warned


def test_report_counts_each_repository_and_claims_sort_naturally(demo: Any) -> None:
    report = (demo.runs / "demo" / "REPORT.md").read_text()
    table = report.split("## By repository", 1)[1].split("##", 1)[0]
    assert "| acme/widgets | 51 | 51 | 0 | 16 | 31.4% | 20.3% – 45.0% |" in table
    assert "| (rows that did not load) | 1 | 0 | 1 | 0 | n/a | n/a |" in table
    languages = report.split("## By language", 1)[1].split("##", 1)[0]
    assert "| python | 46 | 46 | 0 | 14 | 30.4% | 19.1% – 44.8% |" in languages
    assert "| (no shared constant) | 2 | 1 | 1 | 0 |" in languages
    claims = (demo.runs / "demo" / "CLAIMS.md").read_text().split("## Counted apart")[0]
    ids = re.findall(r"^\| (acme__widgets-\d+) \|", claims, re.M)
    numbers = [int(i.rsplit("-", 1)[1]) for i in ids]
    assert len(ids) == 16 and numbers == sorted(numbers), ids


def test_diff_names_the_cases_and_claims_two_audits_disagree_on(demo: Any,
                                                                tmp_path: Path) -> None:
    lenient = demo_copy(tmp_path, "demo-lenient")
    lenient.write_text(lenient.read_text().replace('absence = "strict"', 'absence = "lenient"'))
    other = tmp_path / "other-store"
    res = demo.invoke("run", str(lenient), "--store", str(other), "--runs", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    res = demo.invoke("diff", str(DEMO), str(lenient), *store_args(demo),
                      "--other-store", str(other))
    assert res.exit_code == 0, res.output
    assert "52 cases in both, 1 with another verdict" in res.output
    assert "| acme__widgets-5 | NO_CLAIM | AIRTIGHT |" in res.output
    gained = res.output.split("## Claims gained", 1)[1]
    assert "| acme__widgets-5 | AIRTIGHT | `GBP` |" in gained
    assert "Claims lost" not in res.output


def test_the_store_is_found_from_the_config_wherever_the_run_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = demo_copy(tmp_path / "bench", "located")
    cfg.write_text('store = "audit-store"\n' + cfg.read_text())  # a top-level key
    monkeypatch.delenv("DETERMINACY_STORE", raising=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    runner = CliRunner()
    first = runner.invoke(main, ["run", str(cfg), "--limit", "2", "--json"])
    assert first.exit_code == 0, first.output
    assert (tmp_path / "bench" / "audit-store" / "tables" / "located").is_dir()
    assert not (elsewhere / "store").exists()
    monkeypatch.chdir(tmp_path)  # another folder: the same store, nothing computed again
    again = runner.invoke(main, ["run", str(cfg), "--limit", "2", "--json"])
    assert json.loads(again.stdout.splitlines()[-1])["actions_computed"] == 0
    # --store (or DETERMINACY_STORE) still comes first.
    other = runner.invoke(main, ["run", str(cfg), "--limit", "2", "--store",
                                 str(tmp_path / "explicit")])
    assert other.exit_code == 0 and (tmp_path / "explicit" / "tables" / "located").is_dir()


def test_report_json_holds_the_numbers_report_md_prints(demo: Any) -> None:
    data = json.loads((demo.runs / "demo" / "report.json").read_text())
    report = (demo.runs / "demo" / "REPORT.md").read_text()
    s = data["spine"]
    assert (s["spine"], s["audited"], s["errors"], s["total"]) == (16, 51, 1, 52)
    low, high = s["wilson_95"]
    assert s["rate"] == 16 / 51  # a fraction: REPORT.md prints it as a percentage
    assert f"At least **{s['spine']}** of {s['audited']} audited cases ({100 * s['rate']:.1f}%; " \
           f"Wilson 95% {100 * low:.1f}% – {100 * high:.1f}%)" in report
    [repo] = [r for r in data["groups"] if r["group"] == "acme/widgets"]
    assert repo["dimension"] == "repository"
    assert (repo["cases"], repo["claimable"]) == (51, 16)
    assert [round(x, 3) for x in repo["wilson_95"]] == [0.203, 0.45]
    tiers = {r["verdict"]: r for r in data["tiers"]}
    assert "AIRTIGHT" in tiers and tiers["GOLD-TEST-DATA"]["cases"] == 1 == s["test_data"]
    assert "Counted apart: **1** GOLD-TEST-DATA cases" in report
    assert set(data) >= {"funnel", "hints", "errors", "run"}


def test_demo_receipts_clone_the_shipped_bundle_and_rerun(demo: Any, tmp_path: Path) -> None:
    """A skeptic pastes the receipt's block, from the folder of the config it names."""
    receipt = (demo.runs / "demo" / "cases" / "acme__widgets-1" / "RECEIPT.md").read_text()
    block = receipt.split("```sh\n", 1)[1].split("```", 1)[0]
    assert "git clone demo/widgets.bundle widgets" in block and "github.com" not in block
    (tmp_path / "demo").symlink_to(DEMO.parent / "demo")
    p = subprocess.run(["bash", "-c", block], cwd=tmp_path, capture_output=True, text=True)
    assert (tmp_path / "widgets" / ".git").is_dir(), p.stderr
    assert p.returncode == 1 and p.stdout == "", (p.stdout, p.stderr)  # git grep: no match


def test_progress_goes_to_stderr_in_cases_and_stdout_keeps_the_results(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from determinacy import dodb

    args = ["run", "--store", str(tmp_path / "store"), "--runs", str(tmp_path / "runs")]
    monkeypatch.setattr(dodb.ProgressReporter, "EVERY", 0.0)  # every tick, for the test
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [
        "verdicts: AIRTIGHT 16, CONVENTION 12, ERROR 1, GOLD-TEST-DATA 1, NO_CLAIM 22",
                                       f"report: {tmp_path / 'runs' / 'demo' / 'REPORT.md'}"]
    ticks = [ln for ln in res.stderr.splitlines() if ln.startswith("[")]
    # Each phase's steps, counted as they end: the proposals and the search before any case
    # has settled (its last phase).
    assert ticks and ticks[-1].startswith("[156/156 steps, "), res.stderr
    first = next(t for t in ticks if t.startswith("[1/156 "))  # (a line may come before it)
    assert re.search(r"^\[1/156 steps, \d+\.\d steps/s · [\d.]+ s · ETA [^]]+\] propose 1/51 · "
                     r"search 0/1 · codebase 0/51 · settle 0/51 · tables 0/1 · report 0/1$",
                     first), first
    assert any("propose 51/51 · search 1/1" in t and "settle 0/51" in t for t in ticks), ticks
    assert re.search(r"^51/51 cases in ", res.stderr, re.M)

    monkeypatch.setattr(dodb.ProgressReporter, "EVERY", 3600.0)  # a long run, piped
    again = CliRunner().invoke(main, args)
    assert not [ln for ln in again.stderr.splitlines() if ln.startswith("[")]
    quiet = CliRunner().invoke(main, [*args, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stdout == again.stdout
    # Only the errors are left: no "auditing" line, no ticks, no summary of tasks.
    # and one line per cause of them, with its way out.
    assert quiet.stderr.splitlines() == [
        "ERROR (not audited): 1 of 52 cases; see the Errors section of the report",
        "  1 case: row unreadable (missing field `base_commit` in 1) -> fix the row in the "
        "source, or the [fields] mapping that reads it"], quiet.stderr


def test_progress_on_a_terminal_is_a_live_bar(tmp_path: Path) -> None:
    import os
    import pty

    leader, follower = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "determinacy", "run", "--store",
                          str(tmp_path / "store"), "--runs", str(tmp_path / "runs")],
                         stdout=subprocess.PIPE, stderr=follower, cwd=ROOT, text=True)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out, _ = p.communicate(timeout=120)
    os.close(leader)
    text = seen.decode(errors="replace")
    assert p.returncode == 0 and out.startswith("verdicts: "), text
    assert "cases" in text and "ETA" in text and "51/51" in text, text
    # A row per phase, and all steps with their rate.
    assert all(p in text for p in ("propose", "search", "codebase", "settle", "steps/s")), text
    assert "\x1b[" in text  # drawn in place, not a line per task


def _cli(*argv: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "determinacy", *argv], capture_output=True,
                          text=True, cwd=cwd, env=env)


def test_run_reads_its_own_options_and_a_typo_is_a_usage_error(tmp_path: Path) -> None:
    """`run --limt 3` is a usage error naming the option it meant, exit 2: never a config
    path, never a doit traceback."""
    p = _cli("run", "--limt", "3", cwd=tmp_path)
    assert p.returncode == 2, p
    assert "No such option '--limt'" in p.stderr and "--limit" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "config file not found" not in p.stderr
    assert not (tmp_path / "store").exists()  # nothing ran


def test_an_option_after_the_double_dash_goes_to_doit_never_to_config(tmp_path: Path) -> None:
    """Without CONFIG, `run -- --always` is the default config with a doit option: the
    config looked for is $DETERMINACY_CONFIG, not a file named `--always`."""
    import os

    env = {**os.environ, "DETERMINACY_CONFIG": str(tmp_path / "mine.toml")}
    p = _cli("run", "--quiet", "--", "--always", cwd=tmp_path, env=env)
    assert p.returncode == 2, p
    assert "mine.toml" in p.stderr and "--always" not in p.stderr, p.stderr
