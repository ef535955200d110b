"""Bad input: every mistake gets a named error; a bad row becomes an ERROR case, the rest go on.

A config error stops the run (exit 2, naming the file and the dotted key). A bad row never does:
it is an ERROR case that names its row, gets a receipt and a line in REPORT.md's Errors section,
while every other case still gets its verdict.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import PROSE, Audit, git, new_helper, row, widgets_repo, write_benchmark

from determinacy.cli import main

BINARY_GIT = (
    "diff --git a/pkg/logo.png b/pkg/logo.png\n"
    "new file mode 100644\n"
    "index 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n"
    "GIT binary patch\nliteral 4\nLcmZQzWMTjS00aO5\n\nliteral 0\nHcmV?d00001\n\n"
)
BINARY_MARKER = ("diff --git a/pkg/logo.png b/pkg/logo.png\n"
                 "index 1111111..2222222 100644\n"
                 "Binary files a/pkg/logo.png and b/pkg/logo.png differ\n")
MISSING_SHA = "0123456789abcdef0123456789abcdef01234567"
NEW = "tests/test_core.py::test_new"  # the test the test patch adds



@dataclass
class Repo:
    """One real repository (used in place as the benchmark's mirror) and a good task's parts."""

    path: Path
    mirror: str  # template for write_benchmark: mirrors/{owner}/{name}
    base: str
    gold: str
    test: str

    def good(self, instance_id: str = "good", **kw: Any) -> dict[str, Any]:
        return row(instance_id, self.base, PROSE, self.gold, self.test, **kw)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    root = tmp_path_factory.mktemp("mirrors")
    path = root / "acme" / "widgets"
    base = widgets_repo(path)
    gold, test = new_helper(path, base)
    return Repo(path=path, mirror=f"{root}/{{owner}}/{{name}}", base=base, gold=gold, test=test)


def errors_section(report: str) -> str:
    """The text of REPORT.md's `## Errors` section."""
    assert "\n## Errors\n" in report, report
    return report.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]


def check_error_case(audit: Audit, cfg: Path, case_id: str, phase: str) -> dict[str, Any]:
    """`case_id` is an ERROR of `phase`, listed in REPORT.md and with a receipt saying so."""
    [v] = audit.sql(cfg, f"select * from verdicts where case_id = '{case_id}'")
    assert v["verdict"] == "ERROR", v
    assert v["error_phase"] == phase, v
    out = audit.runs / cfg.stem
    section = errors_section((out / "REPORT.md").read_text())
    line = next((ln for ln in section.splitlines() if ln.startswith(f"| {case_id} |")), "")
    assert f"| {phase} |" in line, section
    receipt = (out / "cases" / case_id / "RECEIPT.md").read_text()
    assert receipt.startswith(f"# ERROR: {v['instance_id'] or case_id}\n"), receipt
    assert f"Phase `{phase}`" in receipt and v["error"] in receipt, receipt
    return v


# -- config errors: the run stops, naming the file and the key ---------------------------------


def run_config(path: Path, tmp: Path) -> Result:
    return CliRunner().invoke(main, ["run", str(path), "--store", str(tmp / "store"),
                                     "--runs", str(tmp / "runs")], catch_exceptions=False)


@pytest.fixture
def good_cfg(tmp_path: Path, repo: Repo) -> Path:
    return write_benchmark(tmp_path / "bench", [repo.good()], mirror=repo.mirror)


def test_malformed_toml_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[source\njsonl = "t.jsonl"\n')
    res = run_config(bad, tmp_path)
    assert res.exit_code == 2
    assert f"error: {bad}: not valid TOML" in res.output
    assert "Traceback" not in res.output
    assert not (tmp_path / "runs").exists()


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    res = run_config(tmp_path / "nope.toml", tmp_path)
    assert res.exit_code == 2
    assert f"{tmp_path / 'nope.toml'}: config file not found" in res.output


@pytest.mark.parametrize(("edit", "key", "what"), [
    (lambda t: t.replace('gold_patch = "patch"\n', ""), "fields.gold_patch",
     "missing required key"),
    (lambda t: t + '[policy]\nabsense = "strict"\n', "policy.absense", "unknown key"),
    (lambda t: t + '[policy]\nmin_length = "x"\n', "policy.min_length", "Expected `int`"),
    (lambda t: t + '[codebase.stdlib_paths]\ncobol = "x"\n', "codebase.stdlib_paths.cobol",
     "not a language's standard library"),
    (lambda t: t + '[codebase.stdlib_paths]\npython = "no/such/dir"\n',
     "codebase.stdlib_paths.python", "does not exist"),
], ids=["missing", "unknown", "wrong-type", "stdlib-family", "stdlib-path"])
def test_config_errors_name_the_file_and_key(tmp_path: Path, good_cfg: Path,
                                             edit: Callable[[str], str],
                                             key: str, what: str) -> None:
    good_cfg.write_text(edit(good_cfg.read_text()))
    res = run_config(good_cfg, tmp_path)
    assert res.exit_code == 2, res.output
    assert f"error: {good_cfg}: key `{key}`: " in res.output
    assert what in res.output
    assert not (tmp_path / "runs").exists()


# -- bad rows: ERROR cases, the audit completes ----------------------------------------------


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, repo: Repo) -> tuple[Audit, Path]:
    """One benchmark: good rows, one unparsable line, and rows failing in each later phase."""
    tmp = tmp_path_factory.mktemp("mixed")
    rows: list[dict[str, Any] | str] = [
        repo.good(),                                                        # line 1
        '{"instance_id": "x",',                                             # line 2
        row("binary-git", repo.base, PROSE, BINARY_GIT, repo.test),         # line 3
        row("binary-marker", repo.base, PROSE, BINARY_MARKER, repo.test),   # line 4
        row("not-a-diff", repo.base, PROSE, "this is not a diff", repo.test),  # line 5
        row("no-commit", MISSING_SHA, PROSE, repo.gold, repo.test),         # line 6
        row("no-repo", repo.base, PROSE, repo.gold, repo.test, repo="nobody/missing"),  # 7
        repo.good("f2p-python", f2p=f"['{NEW}', 'c::d']"),                  # line 8
        repo.good("f2p-json", f2p=f'["{NEW}", "c::d"]'),                    # line 9
    ]
    cfg = write_benchmark(tmp / "bench", rows, mirror=repo.mirror)
    audit = Audit(tmp)
    summary = audit.run(cfg)
    assert summary["exit"] == 3 and summary["failed"] == 0, summary  # completed, with ERRORs
    return audit, cfg


def test_good_cases_keep_their_verdicts_next_to_bad_rows(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    assert audit.verdicts(cfg) == {
        "good": "AIRTIGHT", "f2p-python": "AIRTIGHT", "f2p-json": "AIRTIGHT",
        "row-2": "ERROR", "binary-git": "ERROR", "binary-marker": "ERROR",
        "not-a-diff": "ERROR", "no-commit": "ERROR", "no-repo": "ERROR",
    }
    [w] = audit.sql(cfg, "select constant from witnesses where case_id = 'good'")
    assert w["constant"] == "frobnicate_widget"
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "9 tasks in the source, 3 audited, 6 ERROR" in report
    assert "`frobnicate_widget`" in (audit.runs / "bench" / "CLAIMS.md").read_text()


def test_unparsable_line_is_an_error_naming_its_line(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    v = check_error_case(audit, cfg, "row-2", "load")
    assert v["row"] == 2
    assert v["error"].startswith("row 2: not valid JSON"), v


@pytest.mark.parametrize("case_id", ["binary-git", "binary-marker"])
def test_binary_only_gold_patch_is_an_error(mixed: tuple[Audit, Path], case_id: str) -> None:
    audit, cfg = mixed
    v = check_error_case(audit, cfg, case_id, "propose")
    assert "binary" in v["error"], v
    assert v["error_transient"] is False


def test_patch_that_does_not_parse_is_an_error(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    v = check_error_case(audit, cfg, "not-a-diff", "propose")
    assert "gold patch" in v["error"] and "unified diff" in v["error"], v
    assert v["error_transient"] is False


def test_missing_base_commit_is_a_transient_error(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    v = check_error_case(audit, cfg, "no-commit", "propose")
    assert MISSING_SHA in v["error"] and "does not exist" in v["error"], v
    [e] = audit.sql(cfg, "select transient from errors where case_id = 'no-commit'")
    assert e["transient"] is True
    receipt = (audit.runs / "bench" / "cases" / "no-commit" / "RECEIPT.md").read_text()
    assert "retried by the next run" in receipt


def test_unreachable_repository_is_a_transient_error(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    v = check_error_case(audit, cfg, "no-repo", "propose")
    assert "clone" in v["error"] and "nobody/missing" in v["error"], v
    [e] = audit.sql(cfg, "select transient from errors where case_id = 'no-repo'")
    assert e["transient"] is True


def test_fail_to_pass_as_python_or_json_string_loads(mixed: tuple[Audit, Path]) -> None:
    audit, cfg = mixed
    got = audit.sql(cfg, "select case_id, fail_to_pass from tasks "
                         "where case_id like 'f2p-%' order by case_id")
    assert got == [{"case_id": "f2p-json", "fail_to_pass": [NEW, "c::d"]},
                   {"case_id": "f2p-python", "fail_to_pass": [NEW, "c::d"]}]
    assert audit.sql(cfg, "select * from errors where case_id like 'f2p-%'") == []


def test_transient_errors_are_retried_and_nothing_else_reruns(tmp_path: Path,
                                                               repo: Repo) -> None:
    rows: list[dict[str, Any] | str] = [
        repo.good(),
        row("no-commit", MISSING_SHA, PROSE, repo.gold, repo.test),
        row("no-repo", repo.base, PROSE, repo.gold, repo.test, repo="nobody/missing"),
        row("not-a-diff", repo.base, PROSE, "this is not a diff", repo.test),
    ]
    # nobody/missing has no local mirror: it is cloned from the (not yet existing) clone URL.
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=repo.mirror,
                          extra="fallback_clone = true\n")
    audit = Audit(tmp_path)
    audit.run(cfg)
    transient = {e["case_id"]: e["transient"] for e in audit.sql(cfg, "select * from errors")}
    assert transient == {"no-commit": True, "no-repo": True, "not-a-diff": False}

    again = audit.run(cfg)
    # Only the two transient cases try again (from propose, which reads the tree at base);
    # the good case and the deterministic error are up to date, and no action was recomputed.
    assert again["executed_by_phase"].get("propose") == 2, again
    assert again["executed_by_phase"].get("codebase", 0) <= 2, again
    assert again["executed_by_phase"].get("settle", 0) <= 2, again
    assert again["actions_computed"] == 0, again
    assert audit.verdicts(cfg)["good"] == "AIRTIGHT"

    # The repository becomes reachable: the next run audits the case.
    git(tmp_path, "clone", "-q", "--bare", str(repo.path),
        str(tmp_path / "bench" / "nowhere" / "nobody" / "missing.git"))
    third = audit.run(cfg)
    assert third["executed_by_phase"].get("codebase") == 2, third
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "no-commit": "ERROR",
                                   "no-repo": "AIRTIGHT", "not-a-diff": "ERROR"}
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "no-repo" not in errors_section(report)
    assert not (audit.runs / "bench" / "cases" / "no-repo" / "RECEIPT.md").read_text() \
        .startswith("# ERROR")


# -- rows that fail at load: each one alone next to a good row --------------------------------


def run_rows(tmp: Path, repo: Repo, rows: list[dict[str, Any] | str]) -> tuple[Audit, Path]:
    cfg = write_benchmark(tmp / "bench", rows, mirror=repo.mirror)
    audit = Audit(tmp)
    summary = audit.run(cfg)
    assert summary["exit"] == 3, summary  # completed, with ERROR cases
    return audit, cfg


def test_unsafe_instance_id_is_an_error_and_writes_nothing_outside(tmp_path: Path,
                                                                   repo: Repo) -> None:
    work = tmp_path / "work"
    audit, cfg = run_rows(work, repo, [repo.good(), repo.good("../../etc/passwd")])
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "row-2": "ERROR"}
    v = check_error_case(audit, cfg, "row-2", "load")
    assert v["instance_id"] == "../../etc/passwd" and v["row"] == 2
    assert v["error"].startswith("row 2: instance_id '../../etc/passwd' is not a safe name"), v
    assert [p for p in tmp_path.rglob("*") if "passwd" in p.name] == []
    assert sorted(p.name for p in audit.runs.iterdir()) == ["bench"]
    assert sorted(p.name for p in (audit.store / "refs").iterdir()) == ["bench"]


def test_garbage_fail_to_pass_is_an_error_naming_the_row(tmp_path: Path, repo: Repo) -> None:
    audit, cfg = run_rows(tmp_path, repo, [repo.good(), repo.good("garbled",
                                                                  f2p="not a list [")])
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "garbled": "ERROR"}
    v = check_error_case(audit, cfg, "garbled", "load")
    assert v["error"].startswith("row 2: field `FAIL_TO_PASS` is neither a list"), v


def test_duplicate_instance_id_is_an_error_on_the_second_row(tmp_path: Path,
                                                             repo: Repo) -> None:
    other = row("twice", repo.base, PROSE, repo.gold, repo.test)
    audit, cfg = run_rows(tmp_path, repo, [repo.good(), other, {**other, "FAIL_TO_PASS": []}])
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "twice": "AIRTIGHT", "row-3": "ERROR"}
    v = check_error_case(audit, cfg, "row-3", "load")
    assert v["instance_id"] == "twice" and v["row"] == 3
    assert v["error"] == "row 3: duplicate instance_id 'twice' (row 2 has it)"
    # The first row is the one audited, with its own materials.
    [t] = audit.sql(cfg, "select row, fail_to_pass from tasks where case_id = 'twice'")
    assert t == {"row": 2, "fail_to_pass": [NEW]}


def test_several_load_errors_in_one_benchmark(tmp_path: Path, repo: Repo) -> None:
    rows: list[dict[str, Any] | str] = [
        repo.good(), '{"instance_id": "x",', repo.good("../../etc/passwd"),
        repo.good("garbled", f2p="not a list ["), repo.good("garbled"),
    ]
    audit, cfg = run_rows(tmp_path, repo, rows)
    # Row 5 is the first good row with id `garbled`: it keeps it; broken row 4 falls back.
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "row-2": "ERROR", "row-3": "ERROR",
                                   "row-4": "ERROR", "garbled": "AIRTIGHT"}
    report = errors_section((audit.runs / "bench" / "REPORT.md").read_text())
    assert sum("| load |" in ln for ln in report.splitlines()) == 3, report


def test_error_rows_are_kept_verbatim_in_the_tasks_table(tmp_path: Path, repo: Repo) -> None:
    """An ERROR row is counted, not dropped: `tasks` has it, unloaded, with its row number."""
    audit, cfg = run_rows(tmp_path, repo, [json.dumps({"instance_id": "half"}), repo.good()])
    got = audit.sql(cfg, "select case_id, instance_id, row, loaded from tasks order by row")
    assert got == [{"case_id": "half", "instance_id": "half", "row": 1, "loaded": False},
                   {"case_id": "good", "instance_id": "good", "row": 2, "loaded": True}]
    v = check_error_case(audit, cfg, "half", "load")
    assert v["error"] == "row 1: missing field `repo` (config key fields.repo)"
    shutil.rmtree(audit.runs)
    res = audit.invoke("report", str(cfg), "--store", str(audit.store), "--runs", str(audit.runs))
    assert res.exit_code == 0, res.output
    assert (audit.runs / "bench" / "cases" / "half" / "RECEIPT.md").is_file()
