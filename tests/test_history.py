"""Tasks mined from a repository's own history: which commits become tasks, their derived
FAIL_TO_PASS, their prose (never the diff), the soundness counts, and the demo's history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, Audit, commit, git, make_repo, source_only_config

from determinacy.config import load_config
from determinacy.errors import ConfigError
from determinacy.sources.history import (
    CommitProse,
    LinkedIssue,
    changed_lines,
    derived_test_ids,
    split_diff,
)
from determinacy.sources.rows import load_tasks

CORE = "def helper():\n    return 1\n"
TEST = "from pkg.core import helper\n\n\ndef test_helper():\n    assert helper() == 1\n"


def history_config(folder: Path, repo: Path, extra: str = "") -> Path:
    cfg = folder / "history.toml"
    cfg.write_text(f'name = "hist"\n[source]\ngit = "{repo}"\nrepo = "acme/pkg"\n{extra}')
    return cfg


def _repo(path: Path) -> dict[str, str]:
    """A history with one commit of each kind the walk must tell apart; their shas by name."""
    shas = {"root": make_repo(path, {"pkg/__init__.py": "", "pkg/core.py": CORE,
                                     "tests/test_core.py": TEST})}
    shas["source only"] = commit(path, {"pkg/core.py": CORE + "\n\nLIMIT = 3\n"},
                                 "fix: keep a limit")
    shas["tests only"] = commit(path, {"tests/test_core.py": TEST + "\n\ndef test_more():\n"
                                       "    assert helper()\n"}, "tests: one more")
    shas["docs only"] = commit(path, {"README.md": "# pkg\n"}, "Write a readme")
    shas["tests and docs"] = commit(path, {"README.md": "# pkg\n\nUsage.\n",
                                           "tests/test_core.py": TEST + "\n\ndef test_more():\n"
                                           "    assert helper() == 1\n"}, "docs: usage")
    shas["no test function"] = commit(path, {"pkg/core.py": CORE + "\n\nLIMIT = 4\n",
                                             "tests/test_core.py": "import os\n" + TEST
                                             + "\n\ndef test_more():\n    assert helper() == 1\n"},
                                      "Raise the limit")
    # A side branch merged without fast-forward: the merge touches tests and sources relative
    # to its first parent, and the side commit is off the first-parent line.
    git(path, "checkout", "-q", "-b", "side")
    shas["side"] = commit(path, {"pkg/core.py": CORE + "\n\nLIMIT = 4\n\n\ndef side():\n"
                                 "    return 5\n",
                                 "tests/test_core.py": "import os\n" + TEST + "\n\ndef test_more():"
                                 "\n    assert helper() == 1\n\n\ndef test_side():\n"
                                 "    from pkg.core import side\n    assert side() == 5\n"},
                          "Add side")
    git(path, "checkout", "-q", "main")
    git(path, "merge", "-q", "--no-ff", "-m", "Merge branch side", "side")
    shas["merge"] = git(path, "rev-parse", "HEAD").strip()
    shas["task"] = commit(path, {
        "pkg/core.py": CORE + "\n\nLIMIT = 4\n\n\ndef side():\n    return 5\n\n\n"
                       "def frobnicate_widget():\n    return 2\n",
        "tests/test_core.py": "import os\n" + TEST + "\n\ndef test_more():\n"
                              "    assert helper() == 1\n\n\ndef test_side():\n"
                              "    from pkg.core import side\n    assert side() == 5\n\n\n"
                              "class TestFrob:\n    def test_frob(self):\n"
                              "        from pkg.core import frobnicate_widget\n"
                              "        assert frobnicate_widget() == 2\n"},
        "core: add frobnicate_widget\n\nA second helper (see #12 and #99).")
    return shas


def test_only_commits_touching_tests_and_sources_become_tasks(tmp_path: Path) -> None:
    shas = _repo(tmp_path / "repo")
    (tmp_path / "issues.jsonl").write_text(json.dumps(
        {"number": 12, "title": "Two helpers", "body": "We need a second one.",
         "state": "open"}) + "\n")
    loaded = load_tasks(load_config(history_config(tmp_path, tmp_path / "repo",
                                                   'issues = "issues.jsonl"\n')))
    [task] = loaded.tasks
    assert not loaded.errors
    assert (task.commit, task.base_commit) == (shas["task"], shas["merge"])
    assert task.case_id == f"acme__pkg-{shas['task'][:12]}" and task.repo == "acme/pkg"
    assert task.tests_derived and task.found_by == ["tests+sources", "scope"]
    assert task.fail_to_pass == ["tests/test_core.py::TestFrob::test_frob"]
    assert "frobnicate_widget" in task.gold_patch and "tests/" not in task.gold_patch
    assert task.test_patch.startswith("diff --git a/tests/test_core.py")
    # The message and the issue it names that the export has (#99 is not in it).
    assert "Issue #12: Two helpers\n\nWe need a second one." in task.prose
    assert "#99" in task.prose and "Issue #99" not in task.prose
    by_sha = {c.commit: c for c in loaded.mined}
    why = {name: (by_sha[sha].found_by, by_sha[sha].discarded) for name, sha in shas.items()
           if sha in by_sha}
    assert why == {
        "root": (["tests+sources"], "a root commit: no parent to be its base"),
        "source only": (["conventional", "scope"], "touches no test file"),
        "tests only": (["conventional", "scope"], "touches only test files"),
        "docs only": ([], ""),  # no heuristic: not a candidate
        "tests and docs": (["conventional", "scope"],
                           "touches test files and docs only, no source file"),
        "no test function": (["tests+sources"], "the test part adds or changes no test "
                             "function (FAIL_TO_PASS would be empty)"),
        "merge": ([], "a merge: the first-parent walk leaves merges out"),
        "task": (["tests+sources", "scope"], ""),
    }
    assert shas["side"] not in by_sha  # off the first-parent line: never walked
    assert [c.task for c in loaded.mined].count(True) == 1
    # --limit: the walk stops at the commit that gave the last row it needed.
    limited = load_tasks(load_config(history_config(tmp_path, tmp_path / "repo")), limit=1)
    assert [t.commit for t in limited.tasks] == [shas["task"]]
    assert [c.commit for c in limited.mined if c.row] == [shas["task"]]


def test_heuristics_and_paths_choose_the_candidates(tmp_path: Path) -> None:
    shas = _repo(tmp_path / "repo")
    only = history_config(tmp_path, tmp_path / "repo", 'heuristics = ["conventional"]\n'
                          'paths = ["pkg/**", "!README.md"]\n')
    loaded = load_tasks(load_config(only))
    assert loaded.tasks == []  # the task's subject is no conventional commit
    walked = {c.commit: c for c in loaded.mined if c.row}
    assert shas["docs only"] not in walked and shas["tests only"] not in walked
    assert walked[shas["source only"]].found_by == ["conventional"]
    assert walked[shas["task"]].found_by == [] and not walked[shas["task"]].discarded


def test_derived_fail_to_pass_uses_the_runners_test_ids() -> None:
    py = ("import pytest\n\n\nclass TestA:\n    def test_b(self):\n        assert 1\n\n"
          "    def test_c(self):\n        assert 2\n\n\ndef test_d():\n    assert 3\n")
    ids = derived_test_ids
    assert ids("tests/test_x.py", py, {6}) == ["tests/test_x.py::TestA::test_b"]
    assert ids("tests/test_x.py", py, {9, 13}) == ["tests/test_x.py::TestA::test_c",
                                                  "tests/test_x.py::test_d"]
    go = ('package x\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n'
          '\tt.Run("empty", func(t *testing.T) {\n\t\tcheck(t, "")\n\t})\n}\n\n'
          'func helper() {}\n')
    assert ids("x/parse_test.go", go, {7}) == ["TestParse", "TestParse/empty"]
    assert ids("x/parse_test.go", go, {11}) == []  # a helper is no test
    # A test that only loses lines changed too: the line after the removed run counts.
    section = ("diff --git a/tests/test_x.py b/tests/test_x.py\n--- a/tests/test_x.py\n"
               "+++ b/tests/test_x.py\n@@ -12,3 +12,2 @@ def test_d():\n"
               " def test_d():\n-    skip()\n     assert 3\n")
    assert changed_lines(section) == {13}
    quoted = 'diff --git "a/tests/caf\\303\\251 x.py" "b/tests/caf\\303\\251 x.py"\n'
    assert split_diff(quoted + "--- x\n") == [("tests/café x.py", quoted + "--- x\n")]


def test_a_diff_never_reaches_the_prose(tmp_path: Path) -> None:
    """The prose is CommitProse.text(): the message (and linked issues) only. A message that
    itself holds a diff is still message text, and the diff's own lines never appear."""
    assert CommitProse.__struct_fields__ == ("subject", "body", "issues")
    assert LinkedIssue.__struct_fields__ == ("number", "title", "body")
    repo = tmp_path / "repo"
    make_repo(repo, {"pkg/core.py": CORE, "tests/test_core.py": TEST})
    body = ("The fix, as applied:\n\ndiff --git a/pkg/core.py b/pkg/core.py\n"
            "+def message_only_name():\n+    pass\n")
    sha = commit(repo, {"pkg/core.py": CORE + "\n\ndef zq_only_in_the_diff_7():\n    return 7\n",
                        "tests/test_core.py": TEST + "\n\ndef test_seven():\n"
                        "    from pkg.core import zq_only_in_the_diff_7\n"
                        "    assert zq_only_in_the_diff_7() == 7\n"},
                 f"Return seven\n\n{body}")
    [task] = load_tasks(load_config(history_config(tmp_path, repo))).tasks
    assert task.commit == sha
    assert "zq_only_in_the_diff_7" in task.gold_patch
    assert "zq_only_in_the_diff_7" not in task.prose and "test_seven" not in task.prose
    expected = CommitProse(subject="Return seven", body=body).text()
    assert task.prose == f"## problem_statement\n\n{expected.strip()}\n"
    assert "message_only_name" in task.prose and "message_only_name" not in task.gold_patch


def test_history_config_errors_name_the_key(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, {"a.py": "A = 1\n"})
    with pytest.raises(ConfigError, match=r"key `source\.range`: .* no options"):
        load_config(history_config(tmp_path, repo, 'range = "--all"\n'))
    with pytest.raises(ConfigError, match=r"key `source\.git`: .* does not exist"):
        load_tasks(load_config(history_config(tmp_path, tmp_path / "nowhere")))
    with pytest.raises(ConfigError, match=r"key `source\.range`: 'no-such-branch' names no"):
        load_tasks(load_config(history_config(tmp_path, repo, 'range = "no-such-branch"\n')))
    cfg = source_only_config(tmp_path, 'jsonl = "t.jsonl"\nrange = "main"\n')
    with pytest.raises(ConfigError, match=r"key `source\.range`: is read only with source\.git"):
        load_config(cfg)


# The demo's history, read commit by commit (examples/demo/README.md describes them):
# C1 (root) has no parent, so it is no task. C2..C7 each add tests with the sources they test;
# the prose is the subject line alone. What each test grades and its subject does not say:
# C2 "Add pricing module with bulk discounts": apply_discount, order_total (new module); but
#     not bulk_discount, which "bulk discounts" states (its words, singular);
# C3 "Add command line interface": the `--file` option, which the standard library's own CLIs
#     and optparse's examples spell (absence holds over the standard library too: no claim);
# C4 "Add shipping cost and sales tax helpers": FLAT_SHIPPING_CENTS, tax_for; but not
#     shipping_cost, whose words the subject says;
# C5 "Add stock reports and counter receipts": the header "ACME Warehouse"; but not
#     receipt_lines, which follows `list_lines` in the package's cli.py with the subject's
#     word (a CONVENTION hypothesis);
# C6 "Add exporters, backups, project settings and CLI help": CsvExporter, JsonExporter,
#     write_backup; but not load_settings, which follows `load_inventory` in cli.py with the
#     subject's word (a CONVENTION hypothesis);
# C7 "Add inventory stores, marketplace listings, supplier sync, locations and stock status":
#     JsonFileStore, AmazonListing, HttpError, make_shelf, "inventory file not found"; but
#     not stock_status, whose words the subject says, nor StoreError, which follows
#     `WidgetError` in errors.py with the subject's word (a CONVENTION hypothesis).
# Each other is AIRTIGHT: a name or literal the test pins that nothing a solver reads states.
DEMO_HISTORY = {
    "fcf806b79a50": ("AIRTIGHT", {"apply_discount", "order_total"}),
    "4f31aa758a50": ("NO_CLAIM", set()),
    "49ef3851662a": ("AIRTIGHT", {"FLAT_SHIPPING_CENTS", "tax_for"}),
    "42dec223c5e8": ("AIRTIGHT", {"ACME Warehouse"}),
    "264d571b7e99": ("AIRTIGHT", {"CsvExporter", "JsonExporter", "write_backup"}),
    "fd8163c844f0": ("AIRTIGHT", {"JsonFileStore", "AmazonListing", "HttpError", "make_shelf",
                                  "inventory file not found"}),
}


def test_the_demo_history_gives_the_expected_tasks_and_verdicts(tmp_path: Path) -> None:
    cfg = ROOT / "examples" / "demo-history.toml"
    audit = Audit(tmp_path)
    audit.run(cfg)
    expected = {f"acme__widgets-{k}": v for k, v in DEMO_HISTORY.items()}
    assert audit.verdicts(cfg) == {k: v[0] for k, v in expected.items()}
    claimed: dict[str, set[str]] = {k: set() for k in expected}
    for r in audit.sql(cfg, "select case_id, constant from claims"):
        claimed[r["case_id"]].add(r["constant"])
    for case, (_, must) in expected.items():
        assert must <= claimed[case], case
    assert "shipping_cost" not in claimed["acme__widgets-49ef3851662a"]
    assert "bulk_discount" not in claimed["acme__widgets-fcf806b79a50"]
    [flag] = audit.sql(cfg, "select found_in, found_at from candidates where constant = '--file'")
    assert flag["found_in"] == "stdlib" and "optparse.py" in flag["found_at"], flag
    assert not {"stock_status", "StoreError"} & claimed["acme__widgets-fd8163c844f0"]
    [t] = audit.sql(cfg, "select fail_to_pass, tests_derived from tasks "
                         "where case_id = 'acme__widgets-49ef3851662a'")
    assert t["tests_derived"] and t["fail_to_pass"] == [
        "tests/test_pricing.py::test_shipping_cost_is_flat",
        "tests/test_pricing.py::test_tax_for_known_region",
        "tests/test_pricing.py::test_tax_for_unknown_region_is_zero"]
    report = (audit.runs / "demo-history" / "REPORT.md").read_text()
    assert "## Mined from history" in report
    assert "9 first-parent commits walked (0 merges" in report
    assert "| a root commit: no parent to be its base | 1 |" in report
    # C8 only removes a test line: no test function to grade.
    assert "| the test part adds or changes no test function (FAIL_TO_PASS would be empty) " \
        "| 1 |" in report
    assert "| tests+sources | 8 | 6 | 6 | 5 |" in report
    receipt = (audit.runs / "demo-history" / "cases" / "acme__widgets-4f31aa758a50"
               / "RECEIPT.md").read_text()
    assert "- mined from commit `4f31aa758a5006e8841ba0630c3ff2a384dd4d42`" in receipt
    assert "FAIL_TO_PASS is derived" in receipt


def test_a_commit_whose_diff_is_not_utf8_is_discarded_with_its_reason(tmp_path: Path) -> None:
    """A Latin-1 source file in the diff cannot become a task row: the commit says why,
    rather than a row that fails to load."""
    repo = tmp_path / "repo"
    make_repo(repo, {"pkg/__init__.py": "", "pkg/core.py": CORE, "tests/test_core.py": TEST})
    (repo / "pkg" / "core.py").write_bytes(CORE.encode() + b"\n\nNAME = '\xe9t\xe9'\n")
    (repo / "tests" / "test_core.py").write_text(
        TEST + "\n\ndef test_name():\n    from pkg.core import NAME\n    assert NAME\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Add a name")
    sha = git(repo, "rev-parse", "HEAD").strip()
    loaded = load_tasks(load_config(history_config(tmp_path, repo)))
    assert not loaded.tasks and not loaded.errors
    [mined] = [c for c in loaded.mined if c.commit == sha]
    assert not mined.task and mined.discarded == "the source part is not UTF-8 text"
