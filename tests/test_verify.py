"""`determinacy verify`: every stored claim re-checked from the raw task and the repository
(the source rows, the patches' added lines, the prose, `git grep` and `git show`), so a
tampered table, an edited task or an unreadable tree is a FAILED claim, never a confirmation."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    DEMO,
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

from determinacy.records import Task
from determinacy.verify import (
    Precedent,
    Repo,
    added_text,
    conflict_failures,
    prose_states,
    text_failures,
    value_on_line,
    words,
)

SUMMARY_OK = "21 claims: 21 confirmed, 0 failed"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    """One audit of the shipped demo (no agent), shared: tests that tamper copy its store."""
    audit = Audit(tmp_path_factory.mktemp("verify-demo"))
    audit.run()
    return audit


def verify(audit: Audit, *args: str, config: Path | None = None) -> Any:
    return audit.invoke("verify", *([str(config)] if config else []), "--store",
                        str(audit.store), *args)


def lines(res: Any) -> list[str]:
    return res.stdout.strip().splitlines()


def rewrite(table: Path, select: str) -> None:
    """Replace a stored parquet table in place by `select` (over `t`, the table as it is), and
    its digest beside it: a forger who knows the layout, whom only `verify` can catch."""
    import duckdb

    from determinacy.store import digest

    tmp = table.with_suffix(".tmp")
    con = duckdb.connect()
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_parquet('{table}')")
    con.execute(f"COPY ({select}) TO '{tmp}' (FORMAT parquet)")
    con.close()
    os.replace(tmp, table)
    digests = table.parent / "digests.json"
    known = json.loads(digests.read_bytes())
    known[table.stem] = digest(table.read_bytes())
    digests.write_text(json.dumps(known, sort_keys=True))


def copy_store(audit: Audit, tmp: Path) -> Audit:
    copy = Audit(tmp)
    shutil.copytree(audit.store, copy.store)
    return copy


# --- the CLI over the demo --------------------------------------------------------------------


def test_every_claim_of_the_demo_is_confirmed(demo: Audit) -> None:
    res = verify(demo)
    assert res.exit_code == 0, res.output
    out = lines(res)
    assert out[-1] == SUMMARY_OK
    claims = demo.sql(DEMO, "select case_id, verdict, constant from witnesses "
                            "where status = 'claim' order by all")
    assert len(claims) == 21 and len({c["case_id"] for c in claims}) == 17
    assert sorted(out[:-1]) == sorted(f"CONFIRMED {c['case_id']} {c['verdict']} "
                                      f"'{c['constant']}'" for c in claims)
    assert "CONFIRMED acme__widgets-6 AIRTIGHT '--no-color'" in out


def test_a_tampered_witness_fails_with_git_greps_hit(demo: Audit, tmp_path: Path) -> None:
    audit = copy_store(demo, tmp_path)
    # `def ` is on added lines of both patches and not in the prose: only git grep refutes it.
    rewrite(audit.store / "tables" / "demo" / "candidates.parquet",
            "SELECT * REPLACE (CASE WHEN constant = 'render_badge' THEN 'def ' "
            "ELSE constant END AS constant) FROM t")
    res = verify(audit)
    assert res.exit_code == 1, res.output
    out = lines(res)
    [failed] = [ln for ln in out if ln.startswith("FAILED")]
    assert failed.startswith("FAILED acme__widgets-1 AIRTIGHT 'def ': present at base: "
                             "git grep prints "), failed
    hit = failed.split("git grep prints ", 1)[1]
    path, line, text = hit.split(":", 2)
    assert path.endswith(".py") and int(line) > 0 and "def " in text
    assert out[-1] == "21 claims: 20 confirmed, 1 failed"


def test_a_tampered_witness_off_the_patches_fails_every_check(demo: Audit,
                                                              tmp_path: Path) -> None:
    audit = copy_store(demo, tmp_path)
    # In the prose of acme__widgets-9 ("every order"), at base, and on no added line (the
    # gold's hunk header names `order_total`: a header is not an added line).
    rewrite(audit.store / "tables" / "demo" / "candidates.parquet",
            "SELECT * REPLACE (CASE WHEN constant = '7500' THEN 'order' "
            "ELSE constant END AS constant) FROM t")
    res = verify(audit, "--case", "acme__widgets-9")
    assert res.exit_code == 1, res.output
    [failed, summary] = lines(res)
    assert failed.startswith("FAILED acme__widgets-9 AIRTIGHT 'order': not on an added line of "
                             "the gold patch; not on an added line of the test patch; the "
                             "prose states it (case-insensitively); present at base: git grep "
                             "prints tests/test_pricing.py:8:    order_total,"), failed
    assert summary == "1 claims: 0 confirmed, 1 failed"


def edited_demo(tmp: Path, edit: Any) -> Path:
    """A copy of the demo config, bundle and tasks with the rows passed through `edit`."""
    (tmp / "demo").mkdir(parents=True)
    shutil.copy(DEMO, tmp / "demo.toml")
    shutil.copy(ROOT / "examples" / "demo" / "widgets.bundle", tmp / "demo")
    shutil.copytree(ROOT / "examples" / "demo" / "simple", tmp / "demo" / "simple")
    src = (ROOT / "examples" / "demo" / "tasks.jsonl").read_text().splitlines()
    rows = [edit(json.loads(ln)) for ln in src if ln.strip()]
    (tmp / "demo" / "tasks.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows if r is not None))
    return tmp / "demo.toml"


def test_a_task_edited_after_the_audit_fails(demo: Audit, tmp_path: Path) -> None:
    def edit(r: dict[str, Any]) -> dict[str, Any] | None:
        if r["instance_id"] == "acme__widgets-9":
            r["problem_statement"] += "\nShipping is free from 7500 cents."
        elif r["instance_id"] == "acme__widgets-6":
            r["base_commit"] = "not a sha"
        elif r["instance_id"] == "acme__widgets-30":
            return None
        return r

    # The same benchmark (same name, same store), its rows edited and never audited again.
    res = verify(demo, config=edited_demo(tmp_path, edit))
    assert res.exit_code == 1, res.output
    out = lines(res)
    [nine] = [ln for ln in out if ln.startswith("FAILED acme__widgets-9 ")]
    assert nine.startswith("FAILED acme__widgets-9 AIRTIGHT '7500': the task changed since "
                           "the audit (prose); the prose states it (case-insensitively)"), nine
    [six] = [ln for ln in out if " acme__widgets-6 " in ln]
    assert six.startswith("FAILED acme__widgets-6 AIRTIGHT '--no-color': the task's row no "
                          "longer loads: row "), six
    assert "base_commit 'not a sha' is not a commit hash" in six
    [thirty] = [ln for ln in out if " acme__widgets-30 " in ln]
    assert thirty.endswith(": the task is no longer in the source"), thirty
    assert out[-1] == "21 claims: 18 confirmed, 3 failed"


def test_case_limits_the_output_to_that_case(demo: Audit) -> None:
    res = verify(demo, "--case", "acme__widgets-28")
    assert res.exit_code == 0, res.output
    assert lines(res) == ["CONFIRMED acme__widgets-28 AIRTIGHT 'dachser'",
                          "CONFIRMED acme__widgets-28 AIRTIGHT 'postnord'",
                          "2 claims: 2 confirmed, 0 failed"]
    # A case without claims has nothing to verify; an unknown case is a usage error.
    res = verify(demo, "--case", "acme__widgets-3")
    assert res.exit_code == 0 and lines(res) == ["0 claims: 0 confirmed, 0 failed"]
    res = verify(demo, "--case", "acme__widgets-99")
    assert res.exit_code == 2 and "no audited case 'acme__widgets-99'" in res.output


def test_a_test_data_claim_is_checked_against_the_patches(demo: Audit, tmp_path: Path) -> None:
    """GOLD-TEST-DATA: the gold patch must write the file, the test patch must not."""
    audit = copy_store(demo, tmp_path)
    res = verify(audit, "--case", "acme__widgets-31")
    assert res.exit_code == 0 and lines(res)[-1] == "4 claims: 4 confirmed, 0 failed"
    rewrite(audit.store / "tables" / "demo" / "candidates.parquet",
            "SELECT * REPLACE (CASE WHEN test_data <> '' THEN 'tests/test_overrides.py' "
            "ELSE test_data END AS test_data) FROM t")
    res = verify(audit, "--case", "acme__widgets-31")
    assert res.exit_code == 1, res.output
    assert lines(res)[-1] == "4 claims: 0 confirmed, 4 failed"
    assert "FAILED acme__widgets-31 GOLD-TEST-DATA 'HUB-CAP-77': the gold patch does not " \
           "write tests/test_overrides.py; the test patch writes tests/test_overrides.py " \
           "too" in res.output


def test_no_stored_audit_is_a_config_error(tmp_path: Path) -> None:
    res = Audit(tmp_path).invoke("verify", "--store", str(tmp_path / "empty"))
    assert res.exit_code == 2 and "run `determinacy run CONFIG` first" in res.output


def test_agent_claims_are_verified_from_their_precedents(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    agent = f"{sys.executable} {ROOT / 'examples' / 'demo' / 'recorded_agent.py'}"
    audit.run(DEMO, "--agent", agent)
    res = verify(audit)
    assert res.exit_code == 0, res.output
    out = lines(res)
    assert "CONFIRMED acme__widgets-11 CODEBASE-PLURAL '%d/%m/%Y'" in out
    assert "CONFIRMED acme__widgets-12 MISDETERMINED 'indent=4'" in out
    assert out[-1] == "27 claims: 27 confirmed, 0 failed"
    # A precedent moved one line down no longer stands where the claim says.
    rewrite(audit.store / "tables" / "demo" / "agent_witnesses.parquet",
            "SELECT * REPLACE (CASE WHEN case_id = 'acme__widgets-12' THEN list_transform("
            "precedents, lambda p: {'path': p.path, 'snippet': p.snippet, 'value': p.value, "
            "'verified': p.verified, 'line': p.line + 1, 'why': p.why}) ELSE precedents END "
            "AS precedents) FROM t")
    res = verify(audit, "--case", "acme__widgets-12")
    assert res.exit_code == 1
    assert lines(res)[0] == ("FAILED acme__widgets-12 MISDETERMINED 'indent=4': precedent value "
                             "'indent=2' is not on widgets/cli.py:20")


# --- partial trees, lenient policy, unreadable blobs ------------------------------------------


@pytest.fixture
def partial(tmp_path: Path) -> dict[str, Any]:
    """acme/widgets whose mirror lacks one blob (data/big.bin, holding `frobnicate_widget`)."""
    src = tmp_path / "src" / "acme" / "widgets"
    widgets_repo(src)
    (src / "data").mkdir()
    (src / "data" / "big.bin").write_bytes(b"\0bin\0frobnicate_widget\0")
    base = commit(src, {}, "add data")
    broken = tmp_path / "broken" / "acme" / "widgets.git"
    git(tmp_path, "clone", "-q", "--bare", "--no-hardlinks", str(src), str(broken))
    blob = git(src, "rev-parse", f"{base}:data/big.bin").strip()
    (broken / "objects" / blob[:2] / blob[2:]).unlink()
    rows = [row("hidden", base, PROSE, *new_helper(src, base, "frobnicate_widget"))]
    cfg = write_benchmark(tmp_path / "bench", rows,
                          mirror=f"{tmp_path}/broken/{{owner}}/{{name}}.git",
                          extra='[policy]\nunreadable = "exclude"\n')
    return {"cfg": cfg, "base": base, "broken": broken, "audit": Audit(tmp_path)}


def test_partial_claims_are_verified_over_the_readable_part(partial: dict[str, Any]) -> None:
    audit, cfg = partial["audit"], partial["cfg"]
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"hidden": "AIRTIGHT-PARTIAL"}
    res = verify(audit, config=cfg)
    assert res.exit_code == 0, res.output
    assert lines(res) == ["CONFIRMED hidden AIRTIGHT-PARTIAL 'frobnicate_widget' "
                          "(over the readable part)", "1 claims: 1 confirmed, 0 failed"]
    # Without the stored list of unread paths the claim reads as AIRTIGHT over the whole tree,
    # and a tree that cannot be read whole proves no absence.
    rewrite(audit.store / "tables" / "bench" / "trees.parquet",
            "SELECT * REPLACE ([]::STRUCT(path VARCHAR, why VARCHAR, size BIGINT)[] AS unread) "
            "FROM t")
    res = verify(audit, config=cfg)
    assert res.exit_code == 1
    assert lines(res)[0] == ("FAILED hidden AIRTIGHT 'frobnicate_widget': absence unknown: "
                             "git grep cannot read data/big.bin (missing blob)")


def test_git_grep_over_a_missing_blob_is_a_failure_not_absence(
        partial: dict[str, Any]) -> None:
    # git grep exits 1 ("no match") here; only its stderr says it could not read a blob.
    hit, why = Repo(partial["broken"]).grep(partial["base"], "frobnicate_widget", [":(top)"])
    assert hit == "" and why.startswith("git grep failed (exit 1): ") and "unable to read" in why
    hit, why = Repo(partial["broken"]).grep("0" * 40, "x", [":(top)"])
    assert hit == "" and why.startswith("git grep failed (exit 128): ")


def test_lenient_claims_leave_the_test_paths_out(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo, {"tests/names.txt": "polish_gadget\n"})
    rows = [row("lenient", base, PROSE, *new_helper(repo, base, "polish_gadget"))]
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}",
                          extra='[policy]\nabsence = "lenient"\n')
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"lenient": "AIRTIGHT"}
    res = verify(audit, config=cfg)
    assert res.exit_code == 0, res.output
    assert lines(res)[0] == "CONFIRMED lenient AIRTIGHT 'polish_gadget'"


# --- the pure checks --------------------------------------------------------------------------

PATCH = """\
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -1,2 +1,3 @@
 keep
-gone
+++counter
+added_name
\\ No newline at end of file
diff --git a/b.py b/b.py
new file mode 100644
--- /dev/null
+++ b/b.py
@@ -0 +1 @@
+second
"""


def test_added_text_is_the_added_lines_without_file_headers() -> None:
    assert added_text(PATCH) == "++counter\nadded_name\nsecond"
    assert "b/a.py" not in added_text(PATCH) and "gone" not in added_text(PATCH)


def test_prose_words_split_every_case_style() -> None:
    assert words("renderBadge render_badge render-badge HTTPServer v2") == [
        "render", "badge", "render", "badge", "render", "badge", "http", "server", "v", "2"]
    prose = "Add a way to Render the Badge; each badge identity is kept."
    assert prose_states("RENDER THE", prose) == "case-insensitively"
    assert prose_states("renderTheBadge", prose) == "as the words 'render the badge'"
    assert prose_states("render_badge", prose) == ""  # not a run of the prose's words
    assert prose_states("badge_id", prose) == ""  # `id` is not the word `identity`


def test_text_failures_name_each_check() -> None:
    task = Task(case_id="c", instance_id="c", row=1, repo="a/b", base_commit="0" * 40,
                prose="Make it polish.", gold_patch=PATCH, test_patch=PATCH, fail_to_pass=[])
    assert text_failures("added_name", task) == []
    assert text_failures("gone", task) == ["not on an added line of the gold patch",
                                           "not on an added line of the test patch"]
    assert text_failures("Polish", task) == [
        "not on an added line of the gold patch", "not on an added line of the test patch",
        "the prose states it (case-insensitively)"]


def test_precedent_values_and_conflicts() -> None:
    text = "a = 1\nb = dumps(x,\n    indent=2)\n"
    assert value_on_line("a = 1", "a = 1", text, 1)
    assert not value_on_line("a = 1", "a = 1", text, 2)
    assert value_on_line("indent=2", "b = dumps(x,\n    indent=2)", text, 2)
    assert not value_on_line("indent=2", "b = dumps(x,", text, 2)
    assert not value_on_line("a", "a", text, 0) and not value_on_line("a", "a", text, 9)
    two = [Precedent("x.py", 1, "%Y", ""), Precedent("y.py", 1, "%d", "")]
    assert conflict_failures("CODEBASE-PLURAL", two, "%d", "+%d") == []
    assert conflict_failures("CODEBASE-PLURAL", two[:1], "%d", "%d") == [
        "no two precedents in different files differ"]
    assert conflict_failures("MISDETERMINED", two[1:], "%d", "%e") == [
        "the gold's value '%d' is not on an added line of the gold patch",
        "no precedent's value differs from the gold's"]
    assert conflict_failures("MISDETERMINED", [], "%d", "%d") == ["no verified precedent"]
