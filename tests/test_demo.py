"""The shipped demo: every task gets its known verdict, and every receipt holds up in a shell."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEMO, ROOT, Audit

EXPECTED = json.loads((ROOT / "examples" / "demo" / "expected.json").read_text())


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Audit, dict]:
    a = Audit(tmp_path_factory.mktemp("demo"))
    return a, a.run()  # no CONFIG: the shipped demo


def test_every_demo_task_gets_its_expected_verdict(demo: tuple[Audit, dict]) -> None:
    audit, summary = demo
    assert audit.verdicts(DEMO) == {k: v["verdict"] for k, v in EXPECTED.items()}
    assert len(EXPECTED) >= 8
    assert summary["failed"] == 0


def test_demo_certifies_exactly_the_expected_constants(demo: tuple[Audit, dict]) -> None:
    audit, _ = demo
    got: dict[str, list[str]] = {k: [] for k in EXPECTED}
    # Claims only: a CONVENTION hypothesis is a witness too, but never a certified constant.
    for r in audit.sql(DEMO, "select case_id, constant from witnesses where status = 'claim' "
                             "order by 1, 2"):
        got[r["case_id"]].append(r["constant"])
    assert got == {k: sorted(v["constants"]) for k, v in EXPECTED.items()}


def test_lenient_policy_certifies_constants_only_in_base_test_files(tmp_path: Path) -> None:
    cfg = tmp_path / "demo-lenient.toml"
    text = DEMO.read_text().replace('absence = "strict"', 'absence = "lenient"')
    text = text.replace('name = "demo"', 'name = "demo-lenient"')
    text = text.replace('"demo/', f'"{DEMO.parent}/demo/')
    cfg.write_text(text)
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {k: v["lenient_verdict"] for k, v in EXPECTED.items()}
    report = (audit.runs / "demo-lenient" / "REPORT.md").read_text()
    assert "absence policy: **lenient**" in report


def test_reports_and_one_receipt_per_task(demo: tuple[Audit, dict]) -> None:
    audit, _ = demo
    files = audit.files("demo")
    assert "REPORT.md" in files and "CLAIMS.md" in files
    for case in EXPECTED:
        assert f"cases/{case}/RECEIPT.md" in files, case
    for case, exp in EXPECTED.items():
        receipt = files[f"cases/{case}/RECEIPT.md"].decode()
        assert receipt.startswith(f"# {exp['verdict']}: {case}")
        if exp["verdict"] != "ERROR":
            assert {f"cases/{case}/{n}" for n in ("spec.md", "gold.diff", "hidden_test.diff")} \
                <= set(files)
    claims = files["CLAIMS.md"].decode()
    for case, exp in EXPECTED.items():
        assert (f"| {case} | AIRTIGHT |" in claims) == (exp["verdict"] == "AIRTIGHT"), case
    report = files["REPORT.md"].decode()
    n_air = sum(e["verdict"] == "AIRTIGHT" for e in EXPECTED.values())
    audited = sum(e["verdict"] != "ERROR" for e in EXPECTED.values())
    assert f"At least **{n_air}** of {audited} audited cases" in report
    assert "did not run" in report  # no agent: the screen did not run, and the report says so


def test_receipts_show_why_a_constant_did_or_did_not_certify(
        demo: tuple[Audit, dict]) -> None:
    """Tasks 16-48 each show one proposer rule: the receipt's "Every candidate" table says
    which (`receipt_shows`), and the words of a docstring or a documentation file are never
    proposed (`receipt_lacks`)."""
    audit, _ = demo
    files = audit.files("demo")
    wrong = []
    for case, exp in EXPECTED.items():
        receipt = files[f"cases/{case}/RECEIPT.md"].decode()
        wrong += [(case, "missing", text) for text in exp.get("receipt_shows", [])
                  if text not in receipt]
        wrong += [(case, "present", text) for text in exp.get("receipt_lacks", [])
                  if text in receipt]
    assert not wrong
    assert sum(bool(e.get("receipt_shows")) for e in EXPECTED.values()) >= 15


def test_receipt_commands_print_nothing_in_a_checkout(demo: tuple[Audit, dict],
                                                      tmp_path: Path) -> None:
    """Paste each AIRTIGHT receipt command into a shell in a clone of the demo repository."""
    audit, _ = demo
    clone = tmp_path / "widgets"
    subprocess.run(["git", "clone", "-q", str(ROOT / "examples" / "demo" / "widgets.bundle"),
                    str(clone)], check=True)
    witnesses = audit.sql(DEMO, "select constant, command from witnesses "
                                "where verdict = 'AIRTIGHT'")
    assert witnesses
    for w in witnesses:
        cmd = w["command"]
        # Every constant is single-quoted in the command, dashes included.
        assert re.search(r"-e '", cmd), cmd
        p = subprocess.run(["bash", "-c", cmd], cwd=clone, capture_output=True, text=True)
        assert p.stdout == "" and p.returncode == 1, (cmd, p.stdout, p.stderr)
        # And the same search for something that is there prints it: the check can fail.
        # (A generated name's command greps its generator input's token in its place.)
        present = re.sub(r"-e '(?:[^']|'\\'')*'", "-e 'def '", cmd)
        assert subprocess.run(["bash", "-c", present], cwd=clone, capture_output=True,
                              text=True).stdout


def test_a_test_data_receipt_re_runs_in_its_folder(demo: tuple[Audit, dict]) -> None:
    """GOLD-TEST-DATA: the command counts the file's header in each patch of the receipt's
    folder: once in the gold, never in the hidden test; the same count on a file the test
    patch writes says so (the check can fail)."""
    audit, _ = demo
    got = audit.sql(DEMO, "select case_id, command from witnesses "
                          "where verdict = 'GOLD-TEST-DATA'")
    assert got and {w["case_id"] for w in got} == {
        k for k, v in EXPECTED.items() if v["verdict"] == "GOLD-TEST-DATA"}
    for w in got:
        folder = audit.runs / "demo" / "cases" / w["case_id"]
        p = subprocess.run(["bash", "-c", w["command"]], cwd=folder, capture_output=True,
                           text=True)
        assert p.stdout.split() == ["gold.diff:1", "hidden_test.diff:0"], p
        test_file = re.search(r"^\+\+\+ b/(\S+)", (folder / "hidden_test.diff").read_text(),
                              re.M)
        assert test_file
        other = w["command"].replace(w["command"].split("'")[1], "+++ b/" + test_file[1])
        p = subprocess.run(["bash", "-c", other], cwd=folder, capture_output=True, text=True)
        assert p.stdout.split() == ["gold.diff:0", "hidden_test.diff:1"]


def test_receipts_in_markdown_quote_the_command_exactly(demo: tuple[Audit, dict]) -> None:
    audit, _ = demo
    for w in audit.sql(DEMO, "select case_id, command from witnesses where status = 'claim'"):
        receipt = (audit.runs / "demo" / "cases" / w["case_id"] / "RECEIPT.md").read_text()
        assert f"\n{w['command']}\n" in receipt


def _quoted(s: str) -> str:
    return "'" + s.replace("'", "'\"'\"'") + "'"


def test_report_is_regenerated_byte_for_byte_from_the_store(demo: tuple[Audit, dict],
                                                            tmp_path: Path) -> None:
    audit, _ = demo
    before = audit.files("demo")
    res = audit.invoke("report", "--store", str(audit.store), "--runs", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    again = Audit(tmp_path)
    again.runs = tmp_path / "r"
    assert again.files("demo") == before


def test_recorded_agent_shows_every_verdict_class(tmp_path: Path) -> None:
    """`--agent recorded_agent.py` replays recorded answers (not a model): every class shows."""
    audit = Audit(tmp_path)
    agent = f"{sys.executable} {ROOT / 'examples' / 'demo' / 'recorded_agent.py'}"
    summary = audit.run(DEMO, "--agent", agent)
    assert audit.verdicts(DEMO) == {k: v["agent_verdict"] for k, v in EXPECTED.items()}
    assert {v["agent_verdict"] for v in EXPECTED.values()} >= {
        "AIRTIGHT", "MISDETERMINED", "CODEBASE-PLURAL", "DETERMINED-CODEBASE",
        "PROSE-AFFIRMATIVE", "BORDERLINE", "UNWITNESSED", "ENTAILED", "ERROR"}
    assert summary["case_errors"] == 1  # the broken row, counted with the others
    report = (audit.runs / "demo" / "REPORT.md").read_text()
    assert "## Coverage screen" in report and "| 1 | " in report  # pass 1 in the passes table
    claims = (audit.runs / "demo" / "CLAIMS.md").read_text()
    for case, exp in EXPECTED.items():
        if exp["agent_verdict"] in ("MISDETERMINED", "CODEBASE-PLURAL"):
            assert f"| {case} | {exp['agent_verdict']} | pass 1 |" in claims
    # A second run of the same pass asks the agent nothing.
    again = audit.run(DEMO, "--agent", agent)
    assert again["actions_computed"] == 0 and again["executed"] == 0


def test_declaration_hints_name_what_the_tests_use(demo: tuple[Audit, dict]) -> None:
    """A hint declares each new name a graded test uses across the boundary, and nothing
    about behavior; members sit under their class; REPORT.md counts what hints repair."""
    audit, _ = demo
    files = audit.files("demo")
    one = json.loads(files["hints/acme__widgets-1.json"])
    assert one == {"case_id": "acme__widgets-1", "declarations": [
        {"kind": "function", "name": "render_badge", "new_file": False,
         "path": "widgets/formatting.py", "signature": "def render_badge(item)"}]}
    field = json.loads(files["hints/acme__widgets-26.json"])["declarations"]
    assert [(d["name"], [m["name"] for m in d["members"]]) for d in field] == \
        [("Item", ["reorder_level"])]
    assert "  - field `reorder_level`" in files["hints/acme__widgets-26.md"].decode()
    # A literal claim has nothing to declare; a name in no graded test needs no hint.
    assert "hints/acme__widgets-2.json" not in files
    assert "hints/acme__widgets-8.json" not in files  # ERROR row
    report = files["REPORT.md"].decode()
    # Names: render_badge (1), reorder_level (26), available_stock_report (30), handling_fee
    # (43), fetch_supplier_prices (45), status_words (50), badge_paint (51); the other eight
    # AIRTIGHT cases certify messages, flags, numbers and data values.
    assert "| AIRTIGHT claims a hint would repair (names) | 8 | 8 |" in report
    assert "| AIRTIGHT claims no hint can repair (literals) | 9 | 8 |" in report
    # `determinacy hints` writes the same files from the store alone.
    before = {k: v for k, v in files.items() if k.startswith("hints/")}
    res = audit.invoke("hints", "--store", str(audit.store), "--runs", str(audit.runs))
    assert res.exit_code == 0 and res.output.strip().endswith("hints")
    after = {k: v for k, v in audit.files("demo").items() if k.startswith("hints/")}
    assert after == before
