"""Scores with an uncertainty budget (determinacy/score/): known answers worked by hand, every
results format read from a real file, validity revisions that append and reproduce, and PNG
plots that are the same bytes for the same numbers.

The verdicts are the demo audit's (mechanical tier): AIRTIGHT (claimable, so disputed at
revision 0) 1, 2, 6, 9, 26, 27, 28, 29, 30; CONVENTION (a hypothesis) 25; ERROR 8; every
other task NO_CLAIM. The audit runs once; each test scores into a copy of its tables."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import DEMO, ROOT, Audit

from determinacy.records import ScoreSet
from determinacy.reports import plot, summary
from determinacy.score import results, stats


def iid(n: int) -> str:
    return f"acme__widgets-{n}"


@pytest.fixture(scope="module")
def demo_audit(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    audit = Audit(tmp_path_factory.mktemp("score-demo"))
    audit.run()
    return audit


@pytest.fixture
def audit(demo_audit: Audit, tmp_path: Path) -> Audit:
    """A store holding only the demo's tables: scores and revisions start empty."""
    a = Audit(tmp_path)
    shutil.copytree(demo_audit.store / "tables", a.store / "tables")
    return a


def score(audit: Audit, *args: str, code: int = 0) -> Any:
    res = audit.invoke("score", str(DEMO), *args, "--store", str(audit.store), "--runs",
                       str(audit.runs))
    assert res.exit_code == code, res.output
    return res


def write_results(folder: Path) -> list[str]:
    """Four models in the four formats (worked by hand below):

    a (jsonl):  pass 1 2 3 4 7 25; fail 5 6; error 10; per-test counts on 3 and 5
    b (SWE-bench harness report): resolved 1 3 5; unresolved 2 4 6 7; error 11
    c (per-instance report.json): pass 3 12; fail 4 7 (per-test counts on each)
    d (experiments results.json): resolved 1; no_logs 2; every other task a fail
    """
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"instance_id": iid(n), "model": "a", "result": "pass"} for n in (1, 2, 4, 7, 25)]
    rows += [{"instance_id": iid(3), "model": "a", "result": "pass", "f2p_passed": 2,
              "f2p_total": 2, "p2p_failed": 0},
             {"instance_id": iid(5), "model": "a", "result": "fail", "f2p_passed": 1,
              "f2p_total": 4, "p2p_failed": 2},
             {"instance_id": iid(6), "model": "a", "result": "fail"},
             {"instance_id": iid(10), "model": "a", "result": "error"}]
    (folder / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "b.json").write_text(json.dumps({
        "resolved_ids": [iid(n) for n in (1, 3, 5)],
        "unresolved_ids": [iid(n) for n in (2, 4, 6, 7)],
        "error_ids": [iid(11)], "empty_patch_ids": [], "completed_ids": []}))
    for n, f2p_ok, f2p_bad, p2p_bad, resolved in ((3, 1, 0, 0, True), (12, 2, 0, 0, True),
                                                    (4, 0, 2, 1, False), (7, 1, 1, 0, False)):
        status = {"FAIL_TO_PASS": {"success": [f"t{i}" for i in range(f2p_ok)],
                                   "failure": [f"f{i}" for i in range(f2p_bad)]},
                  "PASS_TO_PASS": {"success": [], "failure": [f"p{i}" for i in range(p2p_bad)]}}
        inst = folder / "c" / iid(n)
        inst.mkdir(parents=True)
        (inst / "report.json").write_text(json.dumps({iid(n): {
            "patch_is_None": False, "patch_exists": True, "patch_successfully_applied": True,
            "resolved": resolved, "tests_status": status}}))
    (folder / "d" / "results").mkdir(parents=True)
    (folder / "d" / "results" / "results.json").write_text(json.dumps(
        {"resolved": [iid(1)], "no_generation": [], "no_logs": [iid(2)]}))
    return [str(folder / p) for p in ("a.jsonl", "b.json", "c", "d/results/results.json")]


# -- statistics, against hand computations ---------------------------------------------------


def test_wilson_interval_ends() -> None:
    # 9 of 29 (the demo's floor): p = 9/29, z = 1.96, written out.
    p, n, z = 9 / 29, 29, 1.96
    centre, spread = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = stats.wilson(9, 29)
    assert low == pytest.approx((centre - spread) / (1 + z * z / n))
    assert high == pytest.approx((centre + spread) / (1 + z * z / n))
    assert (round(low, 3), round(high, 3)) == (0.173, 0.492)  # REPORT.md: 17.3% – 49.2%
    assert stats.wilson(0, 0) == (None, None)
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == 1.0


def test_wilson_ends_stay_on_their_side_of_the_rate_in_sql_and_python() -> None:
    """At k = 0 and k = n the formula's rounding error would print as -0.0% or pass 100%:
    the SQL macros the reports use and the scores' Python agree, clamped."""
    import duckdb

    con = duckdb.connect()
    con.execute((ROOT / "queries" / "views.sql").read_text().split("CREATE OR REPLACE VIEW")[0])
    for k, n in [(0, 15), (15, 15), (0, 11), (11, 11), (6, 8), (1, 300)]:
        low, high, both = con.execute("SELECT wilson_low(?, ?), wilson_high(?, ?), "
                                      "wilson(?, ?)", [k, n] * 3).fetchone()
        assert 0.0 <= low <= k / n <= high <= 1.0 and both == [low, high]
        assert not summary.pct(low).startswith("-")  # as REPORT.md prints it
        assert (low, high) == pytest.approx(stats.wilson(k, n), abs=1e-12)
        assert stats.wilson(k, n)[0] <= k / n <= stats.wilson(k, n)[1]


def test_exact_mcnemar_is_the_two_sided_binomial_tail() -> None:
    # p = 2 * sum_{i <= min(b, c)} C(b + c, i) / 2^(b + c), capped at 1
    assert stats.mcnemar_exact(3, 1) == (1 + 4) * 2 / 2**4 == 0.625
    assert stats.mcnemar_exact(2, 0) == 1 * 2 / 2**2 == 0.5
    assert stats.mcnemar_exact(8, 1) == (1 + 9) * 2 / 2**9
    assert stats.mcnemar_exact(0, 8) == 2 / 2**8
    assert stats.mcnemar_exact(10, 2) == (1 + 12 + 66) * 2 / 2**12
    assert stats.mcnemar_exact(5, 4) == 1.0  # 2 * 256 / 512, the middle of the distribution
    assert stats.mcnemar_exact(0, 0) == 1.0


def test_kendall_tau_b_handles_ties() -> None:
    # 5 concordant, 1 discordant pair of 6: (5 - 1) / 6
    assert stats.kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    # one tie in each: 4 concordant of 6 pairs, (6 - 1) pairs untied on each side
    assert stats.kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(4 / 5)
    assert stats.kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    assert stats.kendall_tau_b([1, 1], [1, 2]) is None  # one side all tied
    assert stats.ranks([0.5, 0.7, 0.5, None]) == [2, 1, 2, 4]


def test_sensitivity_percentile_and_seeded_removals() -> None:
    # 19 passes of 29 attempted, 5 of them on the 9 disputed tasks: 14/29 .. 23/29
    assert stats.sensitivity(19, 5, 9, 29) == (14 / 29, 23 / 29)
    assert stats.sensitivity(0, 0, 0, 0) == (None, None)
    assert stats.percentile([4, 1, 3, 2], 2.5) == pytest.approx(1 + 3 * 0.025)
    assert stats.percentile([4, 1, 3, 2], 97.5) == pytest.approx(1 + 3 * 0.975)
    models = ([frozenset("abcd"), frozenset("abcd")], [frozenset("ab"), frozenset("c")])
    one = stats.random_removal_taus([0.5, 0.25], *models, list("abcd"), 1, 50, seed=7)
    assert one == stats.random_removal_taus([0.5, 0.25], *models, list("dcba"), 1, 50, seed=7)
    assert len(one) == 50 and set(one) <= {1.0, -1.0, None}
    assert stats.random_removal_taus([0.5, 0.25], *models, list("abcd"), 0, 3, 0) == [1.0] * 3


# -- the four formats --------------------------------------------------------------------------


def test_each_results_format_is_detected_from_its_content(tmp_path: Path) -> None:
    a, b, c, d = (results.read(p) for p in write_results(tmp_path))
    assert [f.format for f in (a, b, c, d)] == ["jsonl", "swebench-report", "instance-reports",
                                                "swebench-experiments"]
    # The model: the jsonl field; else the file's name; a generic name (results/results.json)
    # gives the nearest folder that is not; an instance-reports folder, the folder itself.
    assert {r.model for r in a.rows} == {"a"}
    assert {r.model for r in b.rows} == {"b"} and {r.model for r in c.rows} == {"c"}
    assert {r.model for r in d.rows} == {"d"}
    assert {r.instance_id: r.outcome for r in b.rows} == {
        iid(1): "pass", iid(3): "pass", iid(5): "pass", iid(2): "fail", iid(4): "fail",
        iid(6): "fail", iid(7): "fail", iid(11): "error"}
    counts = {r.instance_id: (r.outcome, r.f2p_passed, r.f2p_total, r.p2p_failed)
              for r in c.rows}
    assert counts == {iid(3): ("pass", 1, 1, 0), iid(12): ("pass", 2, 2, 0),
                      iid(4): ("fail", 0, 2, 1), iid(7): ("fail", 1, 2, 0)}
    assert d.unnamed == "fail" and a.unnamed == b.unnamed == c.unnamed == "missing"
    assert {r.instance_id: r.outcome for r in d.rows} == {iid(1): "pass", iid(2): "error"}
    # A folder digest covers the reports' bytes; a file's is the blake3 of its bytes.
    from determinacy.store import digest
    assert b.source_digest == digest((tmp_path / "b.json").read_bytes())
    (tmp_path / "c" / iid(4) / "report.json").write_text("{}")
    with pytest.raises(Exception, match="not a folder of per-instance reports|resolved"):
        results.read(tmp_path / "c" / iid(4) / "report.json")
    # An instance folder whose evaluation did not finish (a log, no report) is an error.
    unfinished = tmp_path / "e" / "model-e" / iid(9)
    unfinished.mkdir(parents=True)
    (unfinished / "run_instance.log").write_text("timeout\n")
    (tmp_path / "e" / "model-e" / iid(3)).mkdir()
    (tmp_path / "e" / "model-e" / iid(3) / "report.json").write_text(
        json.dumps({iid(3): {"resolved": True}}))
    e = results.read(tmp_path / "e")
    assert {(r.model, r.instance_id, r.outcome) for r in e.rows} == {
        ("model-e", iid(9), "error"), ("model-e", iid(3), "pass")}
    (tmp_path / "bad.jsonl").write_text('{"instance_id": "x", "result": "maybe"}\n')
    with pytest.raises(Exception, match=r"bad.jsonl:1: `result` is 'maybe'"):
        results.read(tmp_path / "bad.jsonl")


# -- scores on the demo audit, worked by hand ----------------------------------------------------


def test_scores_on_the_demo_audit(audit: Audit, tmp_path: Path) -> None:
    # The view exists before anything is scored, and is empty.
    assert audit.sql(DEMO, "select count(*) as n from scores") == [{"n": 0}]
    paths = write_results(tmp_path / "results")
    # The numbers worked by hand below leave errors and missing tasks out (--attempted-only);
    # the default, the SWE-bench leaderboard's convention, is checked after them.
    res = score(audit, *paths, "--json", "--attempted-only")
    s = json.loads(res.stdout)
    assert s == json.loads((audit.runs / "demo" / "scores.json").read_text())
    assert [r["format"] for r in s["results"]] == ["jsonl", "swebench-report",
                                                   "instance-reports", "swebench-experiments"]
    assert (s["tasks"], s["disputed"], s["hypotheses"], s["validity_revision"]) == (52, 16, 12, 0)
    assert s["broken"] == 1  # acme__widgets-31: GOLD-TEST-DATA, derived broken
    m = {x["model"]: x for x in s["models"]}
    a, b, c, d = m["a"], m["b"], m["c"], m["d"]
    # a: 8 attempted (the error on 10 is not a failure: apart), 6 passed; disputed 1 2 6
    # (passed 1 2); the hypothesis 25 (passed). Missing: the other 42 of the 51 tasks that
    # are not broken (31, GOLD-TEST-DATA).
    assert (a["attempted"], a["passed"], a["errors"], a["missing"]) == (8, 6, 1, 42)
    assert a["score"] == 6 / 8
    assert (a["sensitivity_low"], a["sensitivity_high"]) == ((6 - 2) / 8, (6 - 2 + 3) / 8)
    assert (a["band_low"], a["band_high"]) == ((6 - 3) / 8, (6 - 3 + 4) / 8)
    assert (a["determinate_passed"], a["determinate_attempted"]) == (4, 5)
    assert (a["wilson_low"], a["wilson_high"]) == stats.wilson(6, 8)
    # partial credit: task 3 gives 2/2 = 1, task 5 clamp01((1 - 2) / 4) = 0
    assert (a["partial_tasks"], a["partial_credit"], a["partial_disputed"]) == (2, 0.5, None)
    # b: the harness report's error (11) is apart too; a task it does not name is missing.
    assert (b["attempted"], b["passed"], b["errors"], b["missing"]) == (7, 3, 1, 43)
    assert (c["attempted"], c["passed"], c["missing"]) == (4, 2, 47)
    assert c["partial_credit"] == (1 + 1 + 0 + 0.5) / 4
    # d lists only the exceptions: every task it does not name is a fail (ERROR 8 included).
    assert (d["attempted"], d["passed"], d["errors"], d["missing"]) == (50, 1, 1, 0)
    assert [x["model"] for x in s["models"]] == ["a", "c", "b", "d"]
    # Pairs: only on the common eligible set.
    pairs = {(p["model_a"], p["model_b"]): p for p in s["pairs"]}
    ab = pairs["a", "b"]
    assert (ab["common"], ab["a_passed"], ab["b_passed"], ab["a_only"], ab["b_only"],
            ab["disputed"]) == (7, 5, 3, 3, 1, 3)
    assert ab["mcnemar_p"] == (1 + 4) * 2 / 2**4 and not ab["resolved"]
    ac = pairs["a", "c"]  # a and c share 3, 4, 7 only
    assert (ac["common"], ac["a_only"], ac["b_only"], ac["mcnemar_p"]) == (3, 2, 0, 0.5)
    assert ("a", "c") in pairs and all(p["common"] > 0 for p in s["pairs"])
    # Rank stability: all-attempted a .75 > c .5 > b .43 > d .02; determinate subset
    # a .8 > c .5 = b .5 > d 0: one tie, five concordant pairs of six.
    rs = s["rank_stability"]
    assert rs["tau"] == pytest.approx(5 / math.sqrt(6 * 5))
    assert (rs["removed"], rs["draws"], rs["seed"], rs["models"]) == (16, 1000, 0, 4)
    assert rs["random_low"] <= rs["random_mean"] <= rs["random_high"]
    verdicts = {r["group"]: r for r in s["by_verdict"]}
    # AIRTIGHT: a attempted 1 2 6 (passed 1 2), b 1 2 6 (passed 1), d all but 2 (passed 1)
    assert (verdicts["AIRTIGHT"]["tasks"], verdicts["AIRTIGHT"]["attempts"],
            verdicts["AIRTIGHT"]["passes"]) == (16, 3 + 3 + 15, 2 + 1 + 1)
    md = (audit.runs / "demo" / "SCORES.md").read_text()
    assert res.stderr.count("read ") == 4 and "swebench-experiments" in res.stderr
    assert "Convention: attempted only — a task a model's results do not name" in md
    assert "- a vs b: unresolved: " in md and "(scores.png)" in md
    assert (audit.runs / "demo" / "scores.png").read_bytes().startswith(b"\x89PNG")
    rows = audit.sql(DEMO, "select model, attempted, validity_revision from scores "
                           "order by model")
    assert [(r["model"], r["attempted"], r["validity_revision"]) for r in rows] == [
        ("a", 8, 0), ("b", 7, 0), ("c", 4, 0), ("d", 50, 0)]
    # The default counts errors and missing tasks as unresolved (the leaderboard's convention);
    # it is named with them.
    s2 = json.loads(score(audit, *paths, "--json").stdout)
    a2 = next(x for x in s2["models"] if x["model"] == "a")
    assert (a2["attempted"], a2["passed"], s2["errors_policy"]) == (8 + 1 + 42, 6, "fail")
    assert s2["policy"]["convention"] == "swebench-leaderboard"
    assert "Convention: SWE-bench leaderboard" in (audit.runs / "demo" / "SCORES.md").read_text()


def test_conflicting_results_are_refused(audit: Audit, tmp_path: Path) -> None:
    paths = write_results(tmp_path / "r")
    (tmp_path / "again.jsonl").write_text(
        json.dumps({"instance_id": iid(3), "model": "a", "result": "fail"}) + "\n")
    res = score(audit, paths[0], str(tmp_path / "again.jsonl"), code=2)
    assert "model 'a' has two results for 'acme__widgets-3'" in res.output


def _listing(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_validity_revisions_append_and_old_revisions_reproduce(audit: Audit,
                                                               tmp_path: Path) -> None:
    paths = write_results(tmp_path / "results")
    score(audit, *paths, "--attempted-only")  # the sensitivity intervals worked by hand below
    out = audit.runs / "demo"
    first = {n: (out / n).read_bytes() for n in ("SCORES.md", "scores.json", "scores.png")}
    stored = _listing(audit.store / "scores" / "demo")
    assert sorted({k.split("/")[0] for k in stored}) == ["results", "scores"]

    # Task 2 (AIRTIGHT, disputed at revision 0) reviewed as valid: revision 1.
    res = audit.invoke("validity", str(DEMO), "set", iid(2), "valid", "--reason",
                       "the design doc names it", "--author", "tester", "--store",
                       str(audit.store))
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"revision 1: {iid(2)} is valid (was disputed")
    bad = audit.invoke("validity", str(DEMO), "set", "no-such-task", "broken", "--reason",
                       "x", "--store", str(audit.store))
    assert bad.exit_code == 2 and "no task 'no-such-task'" in bad.output
    s1 = json.loads(score(audit, *paths, "--json", "--attempted-only").stdout)
    a1 = next(x for x in s1["models"] if x["model"] == "a")
    # a's disputed tasks are now 1 and 6 (passed 1): 5/8 .. 7/8
    assert (s1["validity_revision"], s1["disputed"]) == (1, 15)
    assert (a1["sensitivity_low"], a1["sensitivity_high"]) == ((6 - 1) / 8, (6 - 1 + 2) / 8)
    assert s1["revisions"][0]["author"] == "tester"
    assert (out / "scores.json").read_bytes() != first["scores.json"]

    # Revision 0 again: the very same bytes; nothing stored before was touched.
    score(audit, *paths, "--validity-revision", "0", "--attempted-only")
    assert {n: (out / n).read_bytes() for n in first} == first
    now = _listing(audit.store / "scores" / "demo")
    assert {k: now[k] for k in stored} == stored
    assert sorted(set(now) - set(stored)) == sorted(
        ["validity/000001.json", *(k for k in now if k.startswith("scores/") and k not in
                                   stored)])
    assert len([k for k in now if k.startswith("scores/")]) == 2
    res = score(audit, *paths, "--validity-revision", "2", code=2)
    assert "no validity revision 2: there are revisions 0 to 1" in res.output
    listing = audit.invoke("validity", str(DEMO), "list", "--store", str(audit.store)).output
    assert "| 0 | 16 claimable cases of 52 tasks | disputed |" in listing
    assert f"| 1 | {iid(2)} | valid | AIRTIGHT | tester |" in listing
    revs = audit.sql(DEMO, "select distinct validity_revision from scores order by 1")
    assert [r["validity_revision"] for r in revs] == [0, 1]


# -- plots -------------------------------------------------------------------------------------


def test_plots_are_the_same_bytes_for_the_same_numbers(demo_audit: Audit,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    out = demo_audit.runs / "demo"
    report = (out / "REPORT.md").read_text()
    assert "](claimable.png)" in report and (out / "claimable.png").is_file()
    data = json.loads((out / "report.json").read_text())
    assert [(r["repository"], r["k"], r["n"]) for r in data["plot"]] == [
        ("acme/widgets", 16, 51)]
    text = (out / "report.json").read_text()
    assert "PNG" not in text and "iVBOR" not in text  # no image data in the twin

    # Drawn twice from the report's numbers (never from a cache): the report's bytes twice.
    for _ in range(2):
        plot._MEMO.clear()
        assert plot.claimable_png(data["plot"]) == (out / "claimable.png").read_bytes()
    meta = plot.png_text((out / "claimable.png").read_bytes())
    assert set(meta) == {"determinacy"} and "Software" not in meta
    # A PNG on disk drawn from the same numbers is kept, without drawing; other numbers draw.
    plot._MEMO.clear()
    kept = tmp_path / "claimable.png"
    shutil.copy(out / "claimable.png", kept)
    monkeypatch.setattr(plot, "_draw_claimable", lambda *a: pytest.fail("drew again"))
    assert plot.claimable_png(data["plot"], reuse=kept) == kept.read_bytes()
    with pytest.raises(pytest.fail.Exception, match="drew again"):
        plot.claimable_png([{**data["plot"][0], "k": 8}], reuse=kept)
    # A Wilson end SQL computes at k = 0 may be a rounding error below the rate: still drawn.
    monkeypatch.undo()
    assert plot.claimable_png([{**data["plot"][0], "k": 0, "rate": 0.0,
                                "wilson_95": [-1e-17, 0.07]}])


def test_the_shipped_demo_results_score_as_the_readme_shows(demo_audit: Audit,
                                                             tmp_path: Path) -> None:
    a = Audit(tmp_path)
    shutil.copytree(demo_audit.store / "tables", a.store / "tables")
    shipped = sorted(str(p) for p in (ROOT / "examples" / "demo" / "results").iterdir())
    res = score(a, *shipped)
    assert res.stdout.strip() == str(a.runs / "demo" / "SCORES.md")
    md = (a.runs / "demo" / "SCORES.md").read_text()
    assert "| jsonl |" in md and "| swebench-report |" in md and "## Pairs" in md
    # `report` renders the audit's files again and leaves the scores' files alone.
    res = a.invoke("report", str(DEMO), "--store", str(a.store), "--runs", str(a.runs))
    assert res.exit_code == 0, res.output
    assert (a.runs / "demo" / "SCORES.md").read_text() == md
    # scores.png drawn anew from scores.json's numbers: the same bytes.
    s = msgspec.json.decode((a.runs / "demo" / "scores.json").read_bytes(), type=ScoreSet)
    plot._MEMO.clear()
    png = plot.scores_png(s)
    assert png == (a.runs / "demo" / "scores.png").read_bytes()
    assert set(plot.png_text(png)) == {"determinacy"}


def test_a_stored_score_set_this_version_cannot_read_is_named_and_stops_only_sql(
        audit: Audit) -> None:
    """The `scores` view reads every stored score set; one it cannot read is named. The
    commands that never query scores (report, verify, ...) do not read them at all."""
    damaged = audit.store / "scores" / "demo" / "scores" / "0000.json"
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_text('{"models": []}')
    res = audit.invoke("sql", str(DEMO), "select count(*) from scores", "--store",
                       str(audit.store))
    assert res.exit_code != 0 and str(damaged) in res.output, res.output
    res = audit.invoke("report", str(DEMO), "--store", str(audit.store), "--runs",
                       str(audit.runs))
    assert res.exit_code == 0, res.output


def test_an_unchanged_scores_png_is_kept_not_redrawn(audit: Audit) -> None:
    """A second `score` of the same numbers reads the plot it wrote (its key chunk matches)
    instead of drawing it again."""
    from unittest import mock

    from determinacy.reports import plot

    shipped = sorted(str(p) for p in (ROOT / "examples" / "demo" / "results").iterdir())
    score(audit, *shipped)
    png = (audit.runs / "demo" / "scores.png").read_bytes()
    plot._MEMO.clear()
    with mock.patch.object(plot, "_draw_scores", side_effect=AssertionError("redrawn")):
        score(audit, *shipped)
    assert (audit.runs / "demo" / "scores.png").read_bytes() == png
