"""Errors grouped by cause (one line per cause with its count and way out, REPORT.md's table),
and submodules read from the mirrors `[codebase] submodules` maps them to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    PROSE,
    ROOT,
    Audit,
    commit,
    git,
    new_helper,
    row,
    widgets_repo,
    write_benchmark,
)

from determinacy import causes
from determinacy.codebase import repos
from determinacy.config import load_config
from determinacy.errors import CaseFailure, ConfigError
from determinacy.records import TreeState, Unread
from determinacy.store import Store
from determinacy.verify import Claim, Verifier

LIB_ONLY = "vendored_lib_helper"  # a name only the submodule's files hold
FAST = 'history = 0\nstdlib = "off"\n'  # the tree alone: no scan of this Python's library


def test_each_message_has_a_cause_and_a_detail() -> None:
    unread = [Unread(path="data/big.bin", why="missing blob", size=9),
              Unread(path="vendor/lib", why="submodule", detail="commit abc; no mirror")]
    with pytest.raises(CaseFailure) as got:
        repos.require_complete(TreeState(commit="c0ffee", blobs=3, unread=unread),
                               load_config(ROOT / "examples" / "demo.toml"))
    message = str(got.value)
    assert message.startswith("incomplete tree at c0ffee (1 blob missing, a submodule): ")
    assert "[codebase] submodules" in message and "complete mirror" in message
    cases = {
        ("codebase", message): ("incomplete_tree", "1 blob missing, a submodule"),
        ("codebase", "incomplete tree at c (12 blobs missing): ..."): (
            "incomplete_tree", "10+ blobs missing"),
        # A message stored before it carried its summary is still grouped.
        ("codebase", "incomplete tree at c: a.bin (missing blob, 3 bytes) could not be read"): (
            "incomplete_tree", "blobs missing"),
        ("load", "row 3: missing field `repo` (config key fields.repo)"): (
            "row_unreadable", "missing field `repo`"),
        ("load", "row 4: instance_id 'a/b' is not a safe name (letters...)"): (
            "row_unreadable", "instance_id … is not a safe name"),
        ("propose", "base commit deadbeef does not exist in o/n (local mirror)"): (
            "commit_missing", ""),
        ("propose", "cannot clone o/n from https://x/o/n.git: fatal: no"): ("clone_failed", ""),
        ("propose", "gold patch does not parse as a unified diff: no header"): (
            "patch_unreadable", ""),
        ("screen", "screen: the agent timed out after 600 s (prompt 1, transcript 2)"): (
            "agent_failed", "the agent timed out after 600 s"),
        ("settle", "something nobody foresaw"): ("other", ""),
    }
    for (phase, msg), (code, detail) in cases.items():
        cause = causes.cause_of(phase, msg)
        assert (cause.code, causes.detail_of(cause, msg)) == (code, detail), msg
        assert cause.way_out
    [g] = causes.group([("incomplete_tree", "1 blob missing", 79),
                        ("incomplete_tree", "a submodule", 37),
                        ("incomplete_tree", "2-9 blobs missing", 12),
                        ("incomplete_tree", "shallow history", 8)])
    assert g.line().startswith("136 cases: incomplete tree (1 blob missing in 79, a submodule "
                               "in 37, 2-9 blobs missing in 12, ...) -> a complete mirror")


def test_submodule_urls_are_read_as_git_reads_them() -> None:
    assert repos.absolute_url("../lib.git", "https://github.com/acme/widgets.git") == \
        "https://github.com/acme/lib.git"
    assert repos.absolute_url("./lib", "git@host:acme/widgets") == "git@host:acme/widgets/lib"
    assert repos.absolute_url("https://x/y.git", "https://github.com/a/b.git") == \
        "https://x/y.git"


def superproject(tmp: Path) -> dict[str, Any]:
    """acme/widgets with a real submodule at vendor/lib (acme/lib, whose file holds
    LIB_ONLY), and the tasks of two new names: LIB_ONLY, and one absent from both."""
    lib = tmp / "lib"
    widgets_repo(lib, {"lib.py": f"def {LIB_ONLY}():\n    return 0\n"})
    repo = tmp / "m" / "acme" / "widgets"
    widgets_repo(repo)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib),
        "vendor/lib")
    base = commit(repo, {}, "add a submodule")
    rows = []
    for case, name in (("lib-only", LIB_ONLY), ("nowhere", "frobnicate_widget")):
        gold, test = new_helper(repo, base, name)
        rows.append(row(case, base, PROSE, gold, test))
    return {"lib": lib, "repo": repo, "base": base, "rows": rows,
            "mirror": f"{tmp}/m/{{owner}}/{{name}}",
            "link": git(repo, "rev-parse", f"{base}:vendor/lib").strip()}


def test_run_prints_one_line_per_cause_and_report_groups_them(tmp_path: Path) -> None:
    sub = superproject(tmp_path)
    base, gold_test = sub["base"], sub["rows"][1]
    rows = [*sub["rows"],  # both: an incomplete tree (the submodule is mapped nowhere)
            *(row(f"gone-{i}", "0" * 39 + str(i), PROSE, gold_test["patch"],
                  gold_test["test_patch"]) for i in range(3)),
            '{"instance_id": "half"}']
    assert base
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=sub["mirror"], extra=FAST)
    argv = [sys.executable, "-m", "determinacy.cli", "run", str(cfg), "--store",
            str(tmp_path / "store"), "--runs", str(tmp_path / "runs")]
    p = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert p.returncode == 3, p.stderr
    err = p.stderr.splitlines()
    # While it runs: the first case of each cause, on one line each; never one per case.
    shown = [ln for ln in err if ln.startswith("ERROR ") and "counted at the end" in ln]
    assert len(shown) == 2, p.stderr
    assert any("[base commit missing]" in ln for ln in shown), shown
    assert any("[incomplete tree]" in ln and "vendor/lib (submodule" in ln for ln in shown)
    # At the end: one line per cause with its count and its way out, most cases first.
    tail = [ln.strip() for ln in err[err.index(next(ln for ln in err if ln.startswith(
        "ERROR (not audited): 6 of 6 cases"))) + 1:]]
    assert tail == [
        "3 cases: base commit missing -> " + causes.CAUSES["commit_missing"].way_out,
        "2 cases: incomplete tree (a submodule in 2) -> "
        + causes.CAUSES["incomplete_tree"].way_out,
        "1 case: row unreadable (missing field `repo` in 1) -> "
        + causes.CAUSES["row_unreadable"].way_out], p.stderr
    # A rerun (nothing to do) counts them again, in --json too.
    summary = Audit(tmp_path).run(cfg)
    assert summary["errors_by_cause"] == {"commit_missing": 3, "incomplete_tree": 2,
                                          "row_unreadable": 1}, summary
    report = (tmp_path / "runs" / "bench" / "REPORT.md").read_text()
    errors = report.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    assert "| incomplete tree (a submodule in 2) | 2 | a complete mirror (README: Complete " \
        "mirrors)" in errors
    sections = errors.split("\n### ")[1:]
    assert [s.split("\n", 1)[0] for s in sections] == [
        "base commit missing: 3 cases", "incomplete tree: 2 cases", "row unreadable: 1 case"]
    assert "| gone-0 | 3 | propose | yes | base commit 0000" in sections[0]
    # An unmapped submodule is named, with the commit it points at and the way out.
    assert f"| lib-only | 1 | codebase | no | incomplete tree at {base} (a submodule): " \
        f"vendor/lib (submodule: commit {sub['link']}, url {sub['lib']}; no mirror for it in " \
        "\\[codebase\\] submodules) could not be read" in sections[1], sections[1]
    assert "| half | 6 | load | no | row 6: missing field `repo`" in sections[2]


def test_a_submodule_is_read_from_its_mirror(tmp_path: Path) -> None:
    sub = superproject(tmp_path)
    audit = Audit(tmp_path)
    # Mapped by its path: the submodule's files are searched at the gitlink's commit.
    mapped = write_benchmark(tmp_path / "bench", sub["rows"], mirror=sub["mirror"],
                             extra=FAST + f'submodules = {{"vendor/lib" = "{sub["lib"]}"}}\n')
    audit.run(mapped)
    assert audit.verdicts(mapped) == {"lib-only": "NO_CLAIM", "nowhere": "AIRTIGHT"}
    [found] = audit.sql(mapped, "select codebase_at from candidates where case_id = 'lib-only' "
                                f"and constant = '{LIB_ONLY}'")
    assert found == {"codebase_at": "vendor/lib/lib.py:1"}, found
    # verify agrees: git grep in the submodule's mirror, at its commit.
    res = audit.invoke("verify", str(mapped), "--store", str(audit.store))
    assert res.exit_code == 0 and "CONFIRMED nowhere AIRTIGHT" in res.output, res.output
    cfg = load_config(mapped)
    v = Verifier(store=Store(audit.store), cfg=cfg, skipped=[])
    repo = v.locate(next(t for t in _tasks(mapped) if t.case_id == "lib-only"))[0]
    claim = Claim(case_id="lib-only", verdict="AIRTIGHT", constant=LIB_ONLY,
                  proposer="mechanical", pass_no=0, commit=sub["base"])
    assert v.absence(repo, sub["base"], claim) == [
        f"present at base in submodule vendor/lib ({sub['link'][:12]}): git grep in its "
        f"mirror prints vendor/lib/lib.py:1:def {LIB_ONLY}():"]
    # Mapped by its URL to a mirror that lacks the commit: still unread, never "not found".
    other = tmp_path / "other"
    widgets_repo(other, {"x.py": "x = 1\n"})
    wrong = write_benchmark(tmp_path / "bench", sub["rows"], mirror=sub["mirror"],
                            extra=FAST + f'submodules = {{"{sub["lib"]}" = "{other}"}}\n')
    tree = repos.with_submodules(load_config(wrong), "acme/widgets",
                                 repos.list_tree(sub["repo"] / ".git", sub["base"]))
    assert tree.state().unread == [Unread(
        path="vendor/lib", why="submodule",
        detail=f"commit {sub['link']}, url {sub['lib']}; its mirror {other} ([codebase] "
               f"submodules: {sub['lib']}) lacks the commit")]
    assert tree.lacks("vendor/lib") and tree.read("vendor/lib/lib.py") is None


def _tasks(cfg: Path) -> list[Any]:
    from determinacy.sources.rows import load_tasks

    return load_tasks(load_config(cfg)).tasks


@pytest.mark.parametrize(("key", "value", "said"), [
    ("../lib", "{lib}", "is not a path in the repository"),
    ("acme:vendor/lib", "{lib}", "is not owner/name"),
    ("vendor/lib", "{tmp}/nowhere", "is not a local mirror of the submodule"),
])
def test_a_bad_submodules_entry_names_its_key(tmp_path: Path, key: str, value: str,
                                              said: str) -> None:
    (tmp_path / "lib").mkdir()
    git(tmp_path / "lib", "init", "-q")
    where = value.format(lib=tmp_path / "lib", tmp=tmp_path)
    cfg = write_benchmark(tmp_path / "b", [], mirror="m",
                          extra=f'submodules = {{"{key}" = "{where}"}}\n')
    with pytest.raises(ConfigError) as got:
        load_config(cfg)
    assert f"codebase.submodules.{key}" in str(got.value) and said in str(got.value)
