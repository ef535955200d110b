"""The pre-screens of task validity (determinacy/prescreens): for each check a positive and a
negative control built from real git repositories and real patches, then one audit that
carries them all through the table, REPORT.md, the receipts, `validity accept` and SCORES.md.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import CORE, TEST, Audit, diff, make_repo, row, widgets_repo, write_benchmark

from determinacy.prescreens import duplicates, gold_runs, goldens, leaked, testids, underivable
from determinacy.records import Check, CodebaseSearch, Task, TreeState

LONG = "    return sorted(widgets, key=lambda w: (w.priority, w.name), reverse=True)\n"


def task(gold: str, test: str = "", prose: str = "Fix it.", f2p: list[str] | None = None,
         row_no: int = 1, iid: str = "t-1") -> Task:
    return Task(case_id=iid, instance_id=iid, row=row_no, repo="acme/widgets",
                base_commit="b" * 40, prose=prose, gold_patch=gold, test_patch=test,
                fail_to_pass=f2p or [])


def search(found: dict[str, str] | None = None, searched: list[str] = (),  # type: ignore
           unread: bool = False, **kw: list[str]) -> CodebaseSearch:
    from determinacy.records import Unread

    return CodebaseSearch(
        repo="acme/widgets", base_commit="b" * 40, absence="strict", excluded=[],
        searched=list(searched), found=found or {},
        tree=TreeState(commit="b" * 40, blobs=3,
                       unread=[Unread(path="big.bin", why="missing blob")] if unread else []),
        **kw)


def _sorter(tmp_path: Path) -> tuple[Path, str, str]:
    repo = tmp_path / "widgets"
    base = widgets_repo(repo)
    gold = diff(repo, base, {"pkg/core.py": CORE + "\n\ndef ranked(widgets):\n" + LONG})
    return repo, base, gold


# 1. Solution in the prose ----------------------------------------------------------------

def test_a_prose_that_quotes_the_gold_leaks_and_one_that_states_its_interface_does_not(
        tmp_path: Path) -> None:
    _, _, gold = _sorter(tmp_path)
    quoted = ("Widgets come back unordered.\n\nThe fix is a one-liner:\n\n```python\n"
              + LONG + "```\n")
    (got,) = leaked.check(task(gold, prose=quoted), 40)
    assert (got.verdict, got.proposed) == ("LEAKED", "disputed")
    assert got.share == 0.5  # of `def ranked(widgets):` and its one long line
    assert got.pointers == ["pkg/core.py:6", "prose:6"]
    assert "return sorted(widgets, key=lambda w: (w.priority, w.name), reverse=True)" \
        in got.evidence
    # The interface it wants, and what it should do in words: no line of the change.
    spec = ("Add `def ranked(widgets):` to pkg/core.py; it returns the widgets by priority, "
            "then name, highest first.")
    assert leaked.check(task(gold, prose=spec), 40) == []
    # A diff pasted into the prose is the change too.
    pasted = "Apply this:\n\n```diff\n@@ -3 +3,4 @@\n+def ranked(widgets):\n+" + LONG + "```\n"
    (d,) = leaked.check(task(gold, prose=pasted), 200)
    assert d.verdict == "LEAKED" and "a diff of 2 gold added lines" in d.evidence


def test_one_quoted_line_of_a_long_fix_is_shown_but_proposes_nothing(tmp_path: Path) -> None:
    repo, base, _ = _sorter(tmp_path)
    body = "".join(f"    step_{i} = widgets[{i}].frobnicate(level={i})\n" for i in range(12))
    gold = diff(repo, base, {"pkg/core.py": CORE + "\n\ndef ranked(widgets):\n" + body + LONG})
    (got,) = leaked.check(task(gold, prose="Sort them: " + LONG.strip()), 40)
    assert got.proposed == "" and got.share is not None and got.share < 0.25


def test_a_quoted_statement_leaks_and_a_named_setting_or_a_moved_line_does_not(
        tmp_path: Path) -> None:
    repo = tmp_path / "widgets"
    base = make_repo(repo, {"pkg/qt.py": (
        "def supported():\n    return (\n        version_check('6.2.3', compiled=False)\n"
        "    )\n"), "pkg/settings.yml": "colors:\n  default: 1\n",
        "web/api.ts": "export interface Api {\n}\n"})
    gold = diff(repo, base, {
        "pkg/qt.py": "def supported():\n    return (\n        qtutils.version_check"
                     "('6.2.3', compiled=False)\n        and not qtutils.version_check("
                     "'6.7.0', compiled=False)\n    )\n",
        "pkg/settings.yml": "colors:\n  default: 1\ncolors.webpage.darkmode.threshold:\n"
                            "  default: 256\n",
        "web/api.ts": "export interface Api {\n  onProgress: (percent: number) => "
                      "Promise<void>,\n}\n"})
    # How requirements quote code: the call alone, in other quotes, in backticks.
    said = ("It must call `version_check(\"6.7.0\", compiled=False)` for the upper bound.")
    (got,) = leaked.check(task(gold, prose=said), 30)
    assert "and not qtutils.version_check" in got.literal and got.verdict == "LEAKED"
    # A setting's name and a member with its type: spec, no part of the fix shown.
    spec = ("Add the `colors.webpage.darkmode.threshold` setting and the member "
            "`onProgress: (percent: number) => Promise<void>` to Api.")
    assert leaked.check(task(gold, prose=spec), 30) == []
    # A line the gold only re-indents, quoted by a traceback: the base's, not the fix's.
    moved = diff(repo, base, {"pkg/qt.py": (
        "def supported():\n    if True:\n        return (\n            version_check("
        "'6.2.3', compiled=False)\n        )\n")})
    trace = "Traceback:\n  File \"pkg/qt.py\", line 3\n    version_check('6.2.3', compiled=False)"
    assert leaked.check(task(moved, prose=trace), 30) == []
    assert leaked.check(task(moved.replace("-        version_check", "-        versio_check"),
                             prose=trace), 30) != []  # the same line, not a move: a leak


# 2. Test ids that cannot run --------------------------------------------------------------

def test_ids_no_test_answers_are_unrunnable_and_real_ones_are_not(tmp_path: Path) -> None:
    from determinacy.codebase.repos import open_tree  # noqa: F401 (the phase reads trees)
    from determinacy.phases import undeclared_tests

    repo = tmp_path / "widgets"
    base = widgets_repo(repo, {"tests/test_base.py": (
        "class Base:\n    def test_inherited(self):\n        assert True\n")})
    test = diff(repo, base, {"tests/test_core.py": TEST + (
        "\n\ndef test_ranked_by_priority():\n    assert True\n\n\n"
        "class TestRanked:\n    def test_ties(self):\n        assert True\n\n\n"
        "from tests.test_base import Base\n\n\nclass TestSub(Base):\n    pass\n")})
    tree = _Tree(repo, base)
    t = task("", test, f2p=[
        "tests/test_core.py::test_ranked_by_priori",  # truncated: a piece of the real name
        "tests/test_core.py::TestRanked::test_tie[1-2]",  # truncated, in a class
        "tests/test_core.py::test_ranked_by_priority",  # real
        "tests/test_core.py::TestRanked::test_ties",  # real
        "tests/test_core.py::TestSub::test_inherited",  # inherited from another file: real
    ])
    assert undeclared_tests(t, tree) == ["tests/test_core.py::TestRanked::test_tie[1-2]",
                                         "tests/test_core.py::test_ranked_by_priori"]
    got = testids.check(t, search(undeclared_tests=undeclared_tests(t, tree)))
    assert [(g.verdict, g.proposed, g.literal) for g in got] == [
        ("UNRUNNABLE", "broken", "tests/test_core.py::TestRanked::test_tie[1-2]"),
        ("UNRUNNABLE", "broken", "tests/test_core.py::test_ranked_by_priori")]
    assert "git apply --include='tests/test_core.py' hidden_test.diff" in got[1].command


def test_a_name_no_file_and_no_patch_spells_is_unrunnable_only_over_a_whole_tree() -> None:
    t = task("", "", f2p=["TestGone/sub case", "TestConvert", "TestConve", "pkg.Widget#rankIt",
                          "test/tests/Suite.js | test_12", "pkg/gone_test.py::test_x"])
    names = testids.names(t.fail_to_pass)
    # A Go test as `go test` finds it, by its declaration; a runner's numbering is no name.
    assert names == ["func TestConve(", "func TestConvert(", "func TestGone(", "rankIt",
                     "test_x"]
    # As the search engine answers: a fixed string anywhere in a file.
    base = "func TestConvert(t *testing.T) {}\n// rankItAll\ndef test_x(): pass\n"
    s = search(found={n: "x:1" for n in names if n in base}, searched=names,
               missing_tests=["pkg/gone_test.py::test_x"])
    got = testids.check(t, s)
    assert [(g.literal, g.verdict) for g in got] == [("TestConve", "UNRUNNABLE"),
                                                    ("TestGone/sub case", "UNRUNNABLE"),
                                                    ("pkg/gone_test.py::test_x", "UNRUNNABLE")]
    assert "git grep -F -n -e 'func TestGone('" in got[1].command
    assert "exists neither at base_commit nor in either patch" in got[2].evidence
    # Part of the tree unread: unknown is never "not found".
    assert [g.literal for g in testids.check(t, search(
        found=s.found, searched=names, unread=True,
        missing_tests=s.missing_tests))] == ["pkg/gone_test.py::test_x"]
    # A patch spells it (the test is new): not unrunnable.
    new = task("", "+func TestGone(t *testing.T) {}\n", f2p=["TestGone/sub case"])
    assert testids.check(new, search(searched=["func TestGone("])) == []


class _Tree:
    """What `undeclared_tests` reads of a tree: files at a real commit, through git."""

    def __init__(self, repo: Path, commit: str):
        self.repo, self.commit = repo, commit

    def lacks(self, path: str) -> bool:
        return False

    def read(self, path: str) -> str | None:
        from conftest import git

        try:
            return git(self.repo, "show", f"{self.commit}:{path}")
        except Exception:
            return None


# 3. The answer key's own run --------------------------------------------------------------

def test_a_gold_that_fails_its_grader_is_broken_and_a_flaky_one_disputed(
        tmp_path: Path) -> None:
    from determinacy.score import results

    ts = [task("", iid=f"t-{n}", row_no=n) for n in (1, 2, 3, 4)]
    (tmp_path / "eval_results.json").write_text(json.dumps(
        {"t-1": False, "t-2": True, "t-3": True}))
    (tmp_path / "rerun.jsonl").write_text("\n".join(json.dumps(r) for r in (
        {"instance_id": "t-1", "result": "fail"}, {"instance_id": "t-2", "result": "fail"},
        {"instance_id": "t-3", "result": "pass"}, {"instance_id": "t-4", "result": "error"})))
    runs = [gold_runs.Run(instance_id=r.instance_id, outcome=r.outcome, where=p)
            for p in ("eval_results.json", "rerun.jsonl")
            for r in results.read(tmp_path / p, model="gold").rows]
    got = gold_runs.check(ts, runs)
    assert [(g.instance_id, g.verdict, g.proposed) for g in got] == [
        ("t-1", "GOLD-FAILS", "broken"), ("t-2", "GOLD-FLAKY", "disputed")]
    assert got[0].pointers == ["eval_results.json", "rerun.jsonl"]
    # Every run passes, or only errors: nothing (an error is unknown, never a failure).
    assert gold_runs.check(ts, [r for r in runs if r.instance_id in ("t-3", "t-4")]) == []


# 4. Values nobody can derive --------------------------------------------------------------

def _check(constant: str, **kw: object) -> Check:
    fields: dict[str, object] = dict(
        case_id="t-1", constant=constant, kind="string", gold_at=["pkg/core.py:7"],
        test_at=["tests/test_core.py:9"], trivial="", defuse="", prose_match="",
        codebase_searched=True, codebase_at="", certified=True, command="",
        graded_by=["tests/test_core.py::test_new"], asserting=True)
    return Check(**{**fields, **kw})  # type: ignore[arg-type]


def test_a_graded_digest_is_recall_only_and_a_readable_message_is_not(tmp_path: Path) -> None:
    repo = tmp_path / "widgets"
    base = widgets_repo(repo)
    digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    gold = diff(repo, base, {"pkg/core.py": CORE + f"\n\nSEAL = {digest!r}\n"})
    t = task(gold)
    kinds = {c: underivable.shape(c) for c in (
        digest, "123e4567-e89b-12d3-a456-426614174000", "2021-03-04T05:06:07Z",
        "dGhpcyBpcyBhIHNlY3JldCBibG9iIG9mIGJ5dGVzIDEyMw==", "widget not found",
        "someLongIdentifierName2", "deadbeef" * 2, "1614834367")}
    assert kinds == {digest: "a 256-bit hex digest",
                     "123e4567-e89b-12d3-a456-426614174000": "a UUID",
                     "2021-03-04T05:06:07Z": "a timestamp",
                     "dGhpcyBpcyBhIHNlY3JldCBibG9iIG9mIGJ5dGVzIDEyMw==": "a base64 blob",
                     "widget not found": "", "someLongIdentifierName2": "",
                     "deadbeef" * 2: "", "1614834367": "a Unix timestamp"}
    (got,) = underivable.check(t, [_check(digest), _check("widget not found")])
    assert (got.verdict, got.literal, got.proposed) == ("RECALL-ONLY", digest, "disputed")
    # Given by the prose or present at base: derivable.
    assert underivable.check(t, [_check(digest, prose_match="exact"),
                                 _check(digest, codebase_at="pkg/x.py:3")]) == []


# 5. Self-capturing goldens ----------------------------------------------------------------

def test_a_test_that_writes_its_missing_golden_is_self_capturing(tmp_path: Path) -> None:
    repo = tmp_path / "widgets"
    base = make_repo(repo, {"pkg/render.py": "def render():\n    return 'x'\n",
                            "web/render.test.js": "test('old', () => {});\n"})
    capturing = diff(repo, base, {"tests/test_render.py": (
        "from pathlib import Path\nfrom pkg.render import render\n\n\n"
        "def test_render():\n    golden = Path(__file__).parent / 'render.golden'\n"
        "    got = render()\n    if not golden.exists():\n        golden.write_text(got)\n"
        "    assert got == golden.read_text()\n"),
        "web/render.test.js": "test('renders', () => {\n"
                              "  expect(render()).toMatchSnapshot();\n});\n"})
    got = goldens.check(task("", capturing))
    assert [(g.verdict, g.literal) for g in got] == [("SELF-CAPTURING", "tests/test_render.py:8"),
                                                    ("SELF-CAPTURING", "web/render.test.js:2")]
    # A golden the test patch ships and only reads; a snapshot it ships; a tool that fails
    # on a missing snapshot (syrupy): graded for real.
    honest = diff(repo, base, {"tests/test_render.py": (
        "from pathlib import Path\nfrom pkg.render import render\n\n\n"
        "def test_render(snapshot):\n    golden = Path(__file__).parent / 'render.golden'\n"
        "    assert render() == golden.read_text()\n    assert render() == snapshot\n"),
        "tests/render.golden": "x", "web/render.test.js": "test('renders', () => {\n"
        "  expect(render()).toMatchSnapshot();\n});\n",
        "web/__snapshots__/render.test.js.snap": "exports[`renders 1`] = `\"x\"`;\n"})
    assert goldens.check(task("", honest)) == []


# 6. Duplicate tasks -----------------------------------------------------------------------

def test_the_same_fix_twice_is_a_duplicate_and_two_fixes_are_not(tmp_path: Path) -> None:
    repo, base, gold = _sorter(tmp_path)
    rebased = gold.replace("index ", "index 0").replace("@@ -1,2 +1,7 @@", "@@ -1,2 +1,7 @@ x")
    other = diff(repo, base, {"pkg/core.py": CORE + "\n\ndef ranked(ws):\n    return ws\n"})
    prose = "Widgets should come back ranked by priority, then by name, highest first."
    ts = [task(gold, prose=prose, iid="a", row_no=1),
          task(rebased, prose="Rank them, please: by priority then by name.", iid="b",
               row_no=2),
          task(other, prose=prose.upper(), iid="c", row_no=3),
          task(other, prose="Short.", iid="d", row_no=4)]
    got = duplicates.check(ts)
    assert [(g.instance_id, g.literal, g.proposed) for g in got] == [
        ("b", "a", "broken"), ("c", "a", "disputed"), ("d", "c", "broken")]
    assert duplicates.check([ts[0], ts[2]]) != [] and duplicates.check(
        [ts[0], task(other, prose="Something else entirely, long enough to count as prose.",
                     iid="e")]) == []


# All of them through one audit ------------------------------------------------------------

def test_an_audit_reports_its_validity_checks_and_score_reads_the_accepted_ones(
        audit: Audit, tmp_path: Path) -> None:
    repo = tmp_path / "widgets"
    base = widgets_repo(repo)
    gold = diff(repo, base, {"pkg/core.py": CORE + "\n\ndef ranked(widgets):\n" + LONG})
    test = diff(repo, base, {"tests/test_core.py": TEST.replace(
        "import existing_helper", "import existing_helper, ranked")
        + "\n\ndef test_ranked():\n    assert ranked([]) == []\n"})
    other = diff(repo, base, {"pkg/core.py": CORE + "\n\ndef ranked(widgets):\n    return 1\n"})
    prose = "Add `ranked(widgets)` to pkg.core: widgets by priority, then name, highest first."
    seal = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    sealed = diff(repo, base, {"pkg/core.py": CORE + f"\n\ndef seal():\n    return {seal!r}\n"})
    seal_test = diff(repo, base, {"tests/test_core.py": TEST.replace(
        "import existing_helper", "import existing_helper, seal")
        + f"\n\ndef test_seal():\n    assert seal() == {seal!r}\n"})
    rows = [row("w-1", base, prose, gold, test),
            row("w-2", base, "Rank the widgets.\n\n```python\n" + LONG + "```\n", gold, test),
            row("w-3", base, prose + " Keep it simple.", other, test,
                f2p=["tests/test_core.py::test_rank"]),
            row("w-4", base, prose + " Also for empty lists.", other, test),
            row("w-5", base, "Add `seal()` to pkg.core: the widgets' release seal.", sealed,
                seal_test)]
    (tmp_path / "gold_runs").mkdir()
    (tmp_path / "gold_runs" / "eval_results.json").write_text(json.dumps(
        {"w-1": True, "w-3": False, "w-4": True}))
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=str(repo),
                          extra='[validity]\ngold_runs = ["../gold_runs/eval_results.json"]\n')
    audit.run(cfg)
    got = audit.sql(cfg, "select instance_id, prescreen, verdict, proposed from "
                         "validity_checks order by instance_id, prescreen")
    assert [(r["instance_id"], r["prescreen"], r["verdict"], r["proposed"]) for r in got] == [
        ("w-2", "duplicate", "DUPLICATE", "broken"),
        ("w-2", "leaked", "LEAKED", "disputed"),
        ("w-3", "gold-run", "GOLD-FAILS", "broken"),
        ("w-3", "test-ids", "UNRUNNABLE", "broken"),
        ("w-4", "duplicate", "DUPLICATE", "broken"),
        ("w-5", "underivable", "RECALL-ONLY", "disputed")]
    assert audit.verdicts(cfg)["w-5"] == "AIRTIGHT"  # recall-only goes with its evidence
    claims = (audit.runs / "bench" / "CLAIMS.md").read_text()
    assert next(ln for ln in claims.splitlines() if ln.startswith("| w-5 ")).rstrip(
        " |").endswith("RECALL-ONLY")
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "## Validity checks" in report
    assert "| test-ids | UNRUNNABLE: a FAIL_TO_PASS id no test answers | 1 | 1 | 0 |" in report
    receipt = next((audit.runs / "bench" / "cases").glob("*w-3*/RECEIPT.md")).read_text()
    assert "**UNRUNNABLE** (test-ids, proposes broken)" in receipt
    assert "grep -n -w -F -e 'test_rank' 'tests/test_core.py'" in receipt
    assert "sql" in audit.invoke("sql", "--help").output and "validity_checks" in audit.invoke(
        "sql", "--help").output

    # Proposed, not applied: the scores' validity moves only by `accept`.
    store = ["--store", str(audit.store)]
    listed = audit.invoke("validity", str(cfg), "proposed", *store).output
    assert "| w-3 | broken | test-ids | unreviewed | no |" in listed
    res = audit.invoke("validity", str(cfg), "accept", "--check", "test-ids", *store)
    assert res.exit_code == 0 and res.output.startswith("revision 1: w-3 is broken (test-ids")
    again = audit.invoke("validity", str(cfg), "accept", "w-3", *store)
    assert "nothing to accept" in again.output
    (tmp_path / "results.jsonl").write_text("\n".join(json.dumps(
        {"instance_id": f"w-{n}", "model": "m", "result": "pass"}) for n in (1, 2, 3, 4, 5)))
    res = audit.invoke("score", str(cfg), str(tmp_path / "results.jsonl"), *store, "--runs",
                       str(audit.runs), "--json")
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)
    assert s["broken"] == 1 and s["broken_tasks"][0] == {
        "instance_id": "w-3", "revision": 1, "by": "test-ids",
        "reason": s["broken_tasks"][0]["reason"]}
    assert next(m for m in s["models"] if m["model"] == "m")["attempted"] == 4
    scores = (audit.runs / "bench" / "SCORES.md").read_text()
    assert "## Broken tasks (in no score)" in scores and "| w-3 | 1 | test-ids |" in scores


def test_a_gold_run_file_no_format_reads_is_the_configs_error(audit: Audit,
                                                             tmp_path: Path) -> None:
    repo = tmp_path / "widgets"
    base = widgets_repo(repo)
    (tmp_path / "runs.json").write_text('{"not": "a report"}')
    cfg = write_benchmark(tmp_path / "bench", [row("w-1", base, "x", "", "")],
                          mirror=str(repo), extra='[validity]\ngold_runs = ["../runs.json"]\n')
    res = audit.invoke("run", str(cfg), "--store", str(audit.store), "--runs",
                       str(audit.runs))
    assert res.exit_code == 2 and "key `validity.gold_runs[0]`" in res.output, res.output
    assert not (audit.store / "tables").exists()  # stopped before any table was written
    (tmp_path / "bench" / "gone.toml").write_text(
        (tmp_path / "bench" / "bench.toml").read_text().replace("../runs.json", "../nope.json"))
    res = audit.invoke("run", str(tmp_path / "bench" / "gone.toml"), "--store",
                       str(audit.store))
    assert res.exit_code == 2 and "'../nope.json' does not exist" in res.output, res.output
