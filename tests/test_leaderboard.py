"""Scores that match the leaderboard by default (issue 23, item 2): a task a model's results do
not name, or name as an error, counts as unresolved, as SWE-bench leaderboards count it, and
SCORES.md / scores.json name that convention; `--attempted-only` gives the other number;
SWE-bench Pro's eval_results.json is read, its model named by `--model`.

One real audit (six tasks of acme/widgets) is built once in a tmp folder; each test scores
into a copy of its tables through the CLI: as a process for what each test is about, in process
(the same command, without paying the plot library's import again) for the variations."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import PROSE, Audit, new_helper, row, widgets_repo, write_benchmark

TASKS = [f"acme__widgets-{n}" for n in range(1, 7)]
LEADERBOARD = "Convention: SWE-bench leaderboard — a task a model's results do not name, or " \
              "name as an error, counts as unresolved (`--missing fail --errors fail`"
ATTEMPTED = "Convention: attempted only — a task a model's results do not name, or name as " \
            "an error, is left out of its score"


class Bench:
    def __init__(self, cfg: Path, tables: Path):
        self.cfg, self.tables = cfg, tables


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    tmp = tmp_path_factory.mktemp("leaderboard")
    repo = tmp / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    rows = [row(iid, base, PROSE, *new_helper(repo, base, f"helper_{n}"))
            for n, iid in enumerate(TASKS, 1)]
    cfg = write_benchmark(tmp / "bench", rows, mirror=f"{tmp}/m/{{owner}}/{{name}}", name="lb")
    audit = Audit(tmp)
    audit.run(cfg)
    return Bench(cfg, audit.store / "tables")


@pytest.fixture
def audit(bench: Bench, tmp_path: Path) -> Audit:
    """A store holding only the audit's tables: scores and revisions start empty."""
    a = Audit(tmp_path)
    shutil.copytree(bench.tables, a.store / "tables")
    return a


def score(bench: Bench, audit: Audit, *args: str,
          code: int = 0) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", "score", str(bench.cfg), *args,
                        "--store", str(audit.store), "--runs", str(audit.runs)],
                       capture_output=True, text=True)
    assert p.returncode == code, p.stderr[-2000:]
    return p


def invoke(bench: Bench, audit: Audit, *args: str, code: int = 0) -> Any:
    """`score` in process: a result with .stdout and .stderr, as `score` gives."""
    res = audit.invoke("score", str(bench.cfg), *args, "--store", str(audit.store), "--runs",
                       str(audit.runs))
    assert res.exit_code == code, res.output[-2000:]
    return res


def jsonl(path: Path, rows: list[tuple[str, int, str]]) -> str:
    """`rows`: (model, task number, result)."""
    path.write_text("".join(json.dumps({"instance_id": TASKS[n - 1], "model": m, "result": r})
                            + "\n" for m, n, r in rows))
    return str(path)


def models(p: Any) -> dict[str, dict[str, Any]]:
    return {m["model"]: m for m in json.loads(p.stdout)["models"]}


# model a: pass 1 2, fail 3, error 4; tasks 5 and 6 not named.
A = [("a", 1, "pass"), ("a", 2, "pass"), ("a", 3, "fail"), ("a", 4, "error")]


def test_by_default_a_missing_or_errored_task_is_unresolved_and_the_convention_is_named(
        bench: Bench, audit: Audit, tmp_path: Path) -> None:
    p = score(bench, audit, jsonl(tmp_path / "a.jsonl", A), "--json")
    a = models(p)["a"]
    # Every task of the audit is the denominator: 2 of 6, as a leaderboard reads it.
    assert (a["attempted"], a["passed"], a["score"]) == (6, 2, 2 / 6)
    assert (a["errors"], a["missing"]) == (1, 2)  # counted in the score, and shown
    assert (a["benchmark_attempted"], a["benchmark_passed"]) == (6, 2)
    s = json.loads(p.stdout)
    assert {k: s["policy"][k] for k in ("convention", "errors", "missing", "flags")} == {
        "convention": "swebench-leaderboard", "errors": "fail", "missing": "fail",
        "flags": "--missing fail --errors fail"}
    assert s["policy"]["text"].startswith(LEADERBOARD)
    assert LEADERBOARD in p.stderr  # the terminal says it too
    md = (audit.runs / "lb" / "SCORES.md").read_text()
    # Above every table of scores: the convention, named, before the table's first row.
    for heading in ("## Per model", "## Pairs", "## Resolve rate by verdict",
                    "## Resolve rate by validity"):
        section = md.split(heading, 1)[1].split("\n## ", 1)[0]
        before_table = section.split("\n| ", 1)[0]
        assert LEADERBOARD in before_table, (heading, section)
    assert LEADERBOARD in md.split("## Rank stability", 1)[1].split("\n## ", 1)[0]
    assert md.split("\n| ", 1)[0].count(LEADERBOARD) == 1  # and at the top, before any table
    # The `scores` view says which convention each row was scored under.
    assert audit.sql(bench.cfg, "select policy, model, attempted from scores") == [
        {"policy": "swebench-leaderboard", "model": "a", "attempted": 6}]


def test_the_attempted_only_score_is_one_flag_away(bench: Bench, audit: Audit,
                                                    tmp_path: Path) -> None:
    results = jsonl(tmp_path / "a.jsonl", A)
    p = score(bench, audit, results, "--json", "--attempted-only")
    a = models(p)["a"]
    assert (a["attempted"], a["passed"], a["score"]) == (3, 2, 2 / 3)  # the error and 5, 6 out
    assert (a["errors"], a["missing"]) == (1, 2)  # counted apart
    assert json.loads(p.stdout)["policy"]["convention"] == "attempted-only"
    md = (audit.runs / "lb" / "SCORES.md").read_text()
    assert ATTEMPTED in md.split("## Per model", 1)[1].split("\n| ", 1)[0]
    # The two explicit options give the same scores; one alone gives a mixed convention.
    same = invoke(bench, audit, results, "--json", "--missing", "exclude", "--errors", "exclude")
    assert models(same)["a"]["score"] == 2 / 3
    mixed = invoke(bench, audit, results, "--json", "--missing", "exclude")
    assert models(mixed)["a"]["attempted"] == 4  # the error counts as unresolved, 5 and 6 out
    assert json.loads(mixed.stdout)["policy"]["convention"] == "mixed"
    # A contradiction is a usage error naming both options.
    bad = invoke(bench, audit, results, "--attempted-only", "--errors", "fail", code=2)
    assert "--attempted-only" in bad.stderr and "--errors fail" in bad.stderr


def test_swebench_pro_eval_results_take_their_model_from_the_option(
        bench: Bench, audit: Audit, tmp_path: Path) -> None:
    run = tmp_path / "traj" / "some-run"
    run.mkdir(parents=True)
    pro = run / "eval_results.json"
    pro.write_text(json.dumps({TASKS[0]: True, TASKS[1]: False, TASKS[2]: True}))
    p = score(bench, audit, str(pro), "--model", "claude-x", "--json")
    x = models(p)["claude-x"]
    assert (x["attempted"], x["passed"], x["missing"]) == (6, 2, 3)
    assert f"read {pro}: swebench-pro-eval, 3 rows, models claude-x (--model)" in p.stderr
    # Beside a file that names its own models: `-` keeps them.
    both = invoke(bench, audit, str(pro), jsonl(tmp_path / "a.jsonl", A), "--model",
                  "claude-x", "--model", "-", "--json")
    assert sorted(models(both)) == ["a", "claude-x"]
    md = (audit.runs / "lb" / "SCORES.md").read_text()
    assert "| swebench-pro-eval | claude-x |" in md and "- swebench-pro-eval: SWE-bench Pro" in md
    # One --model for two files is refused: which file it names would be a guess.
    res = invoke(bench, audit, str(pro), str(tmp_path / "a.jsonl"), "--model", "x", code=2)
    assert "--model is given once for 2 RESULTS" in res.stderr


def test_a_file_that_names_no_model_is_a_clear_error_naming_it(bench: Bench, audit: Audit,
                                                                tmp_path: Path) -> None:
    pro = tmp_path / "eval_results.json"
    pro.write_text(json.dumps({TASKS[0]: True}))
    p = score(bench, audit, str(pro), code=2)
    assert p.stderr.startswith(f"error: {pro}: this swebench-pro-eval file names no model")
    assert "--model NAME" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    # A harness report saved under a generic name: the same; --model supplies the name.
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"resolved_ids": [TASKS[0]], "unresolved_ids": [TASKS[1]],
                                  "error_ids": [TASKS[2]]}))
    p = invoke(bench, audit, str(report), code=2)
    assert f"{report}: this swebench-report file names no model" in p.stderr
    named = models(invoke(bench, audit, str(report), "--model", "m1", "--json"))["m1"]
    assert (named["passed"], named["attempted"], named["errors"]) == (1, 6, 1)
    # --model also renames a file that names its model; never several models into one.
    jsonl(tmp_path / "two.jsonl", [*A, ("b", 1, "fail")])
    p = invoke(bench, audit, str(tmp_path / "two.jsonl"), "--model", "z", code=2)
    assert "holds the results of 2 models (a, b)" in p.stderr and "two.jsonl" in p.stderr


def test_a_broken_task_is_in_no_score_but_in_the_benchmarks_own_count(
        bench: Bench, audit: Audit, tmp_path: Path) -> None:
    res = audit.invoke("validity", str(bench.cfg), "set", TASKS[0], "broken", "--reason",
                       "the test reads a fixture only the gold adds", "--store",
                       str(audit.store))
    assert res.exit_code == 0, res.output
    a = models(invoke(bench, audit, jsonl(tmp_path / "a.jsonl", A), "--json"))["a"]
    # Task 1 (passed) is broken: the score leaves it out, the benchmark's own count keeps it.
    assert (a["passed"], a["attempted"]) == (1, 5)
    assert (a["benchmark_passed"], a["benchmark_attempted"], a["benchmark_score"]) == (2, 6,
                                                                                     2 / 6)
    md = (audit.runs / "lb" / "SCORES.md").read_text()
    assert "| 1 | a | 5 | 1 | 20.0% | 33.3% (2/6) |" in md


def test_each_published_layout_names_its_model_or_asks_for_one(tmp_path: Path) -> None:
    """Where each published form keeps the model's name (read directly: no audit needed)."""
    from determinacy.errors import DeterminacyError
    from determinacy.score import results

    def put(rel: str, data: Any) -> Path:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
        return path

    # SWE-bench experiments: the submission folder, for results.json and for the bash-only
    # submissions' per_instance_details.json ({instance: {resolved, cost, ...}}).
    exp = put("evaluation/verified/20250101_agent/results/results.json",
              {"resolved": [TASKS[0]], "no_generation": [], "no_logs": []})
    mini = put("evaluation/bash-only/20260217_mini/per_instance_details.json",
               {TASKS[0]: {"cost": 0.5, "api_calls": 3, "resolved": True},
                TASKS[1]: {"cost": 0.7, "api_calls": 9, "resolved": False}})
    # The harness's logs: logs/run_evaluation/<run>/<model>/<instance>/report.json.
    log = put(f"logs/run_evaluation/run1/org__model-7b/{TASKS[2]}/report.json",
              {TASKS[2]: {"resolved": True}})
    for path, fmt, model in ((exp, "swebench-experiments", "20250101_agent"),
                             (mini, "instance-reports", "20260217_mini"),
                             (log, "instance-reports", "org__model-7b")):
        got = results.read(path)
        assert (got.format, {r.model for r in got.rows}) == (fmt, {model}), path
    assert {r.instance_id: r.outcome for r in results.read(mini).rows} == {
        TASKS[0]: "pass", TASKS[1]: "fail"}
    # SWE-bench Pro's eval_results.json: the file names no model, so --model must.
    pro = put("traj/run-x/eval_results.json", {TASKS[0]: True, TASKS[1]: False})
    with pytest.raises(DeterminacyError, match="names no model .* give --model NAME"):
        results.read(pro)
    assert {r.model for r in results.read(pro, "x").rows} == {"x"}
    # A jsonl row without `model` in a generically named file: the row is named.
    (tmp_path / "results.jsonl").write_text(json.dumps({"instance_id": TASKS[0],
                                                        "result": "pass"}) + "\n")
    with pytest.raises(DeterminacyError, match=r"results.jsonl:1: no `model`"):
        results.read(tmp_path / "results.jsonl")
    with pytest.raises(DeterminacyError, match="no blank at either end"):
        results.read(pro, " x")


def test_an_audit_of_a_selection_says_its_scores_are_not_the_benchmarks(
        bench: Bench, tmp_path: Path) -> None:
    a = Audit(tmp_path)
    shutil.copytree(bench.tables.parent, a.store, dirs_exist_ok=True)  # served from the cache
    a.run(bench.cfg, "--instance-ids", TASKS[0], TASKS[1])
    res = invoke(bench, a, jsonl(tmp_path / "a.jsonl", A), "--json")
    said = "is a selection of the source (2 instance ids): every score is over those tasks"
    assert said in res.stderr
    assert models(res)["a"]["attempted"] == 2  # the two selected tasks, both passed
    md = (a.runs / "lb" / "SCORES.md").read_text()
    assert "**the audit is a selection of the source** (2 instance ids)" in md
