"""The agent tiers end to end: real repository, real CLI, agents that are small scripts.

An honest (scripted) agent reaches every verdict class the method names; a lying one adds no
claim; broken ones leave errors that are retried, never cached; a separate refuter can refute;
passes only add; inputs are never shortened silently.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import Audit, diff, git, make_repo, row, write_benchmark

AGENTS = Path(__file__).resolve().parent / "agents"
MECHANICAL = ("propose", "codebase", "settle")

# -- the codebase at base: two live date formats, one per module ------------------------------

DATES = '''"""Dates for the web pages."""

DATE_FORMAT = "%Y-%m-%d"


def format_date(d):
    return d.strftime(DATE_FORMAT)
'''
REPORT = '''"""The printed report."""


def report_date(d):
    return d.strftime("%d/%m/%Y")


def report_title(name):
    return "Report: " + name
'''
TEST_DATES = '''from datetime import date

from pkg.dates import format_date


def test_format_date():
    assert format_date(date(1999, 12, 24)) == "1999-12-24"
'''
BASE_FILES = {"pkg/__init__.py": "", "pkg/dates.py": DATES, "pkg/report.py": REPORT,
              "tests/__init__.py": "", "tests/test_dates.py": TEST_DATES}

# What a fabricating agent may claim although it is at base (the liar gets these on argv).
AT_BASE = ("%Y-%m-%d", "format_date", "DATE_FORMAT", "report_title")


@dataclass
class Spec:
    """One task: its prose, what the gold and the hidden test change, the graded test ids."""

    prose: str
    gold: dict[str, str]
    test: dict[str, str]
    f2p: tuple[str, ...]


SPECS: dict[str, Spec] = {
    # render_badge: defined by the gold, used by the test, in neither prose nor codebase.
    "airtight-badge": Spec(
        "The report needs a badge that shows the status of a build.",
        {"pkg/report.py": REPORT + '\n\ndef render_badge(status):\n'
                                   '    return "[" + status.upper() + "]"\n'},
        {"tests/test_report.py": 'from pkg.report import render_badge\n\n\n'
                                 'def test_badge():\n    assert render_badge("ok") == "[OK]"\n'},
        ("tests/test_report.py::test_badge",)),
    # A third place formats a date; the codebase does it two ways; the test pins one.
    "plural-export": Spec(
        "Add `export_row(d, amount)` to a new module pkg.export: it returns one CSV line "
        "with the date and the amount.",
        {"pkg/export.py": 'def export_row(d, amount):\n'
                          '    return d.strftime("%d/%m/%Y") + "," + str(amount)\n'},
        {"tests/test_export.py": 'from datetime import date\n\nfrom pkg.export import export_row'
                                 '\n\n\ndef test_export_row():\n'
                                 '    assert export_row(date(2020, 1, 31), 5) == '
                                 '"31/01/2020,5"\n'},
        ("tests/test_export.py::test_export_row",)),
    # The prose says everything the test grades.
    "entailed-parse": Spec(
        "Add `parse_date(text)` to pkg.dates. It reads dates written as %Y-%m-%d and returns "
        "a datetime.date object.",
        {"pkg/dates.py": "from datetime import datetime\n\n" + DATES
         + "\n\ndef parse_date(text):\n    return datetime.strptime(text, DATE_FORMAT).date()\n"},
        {"tests/test_dates.py": TEST_DATES + "\n\ndef test_parse_date():\n"
                                "    from pkg.dates import parse_date\n\n"
                                '    assert parse_date("2021-03-04") == date(2021, 3, 4)\n'},
        ("tests/test_dates.py::test_parse_date",)),
    # A GAP (the summary's wording) that no honest witness settles in pass 1.
    "unwitnessed-total": Spec(
        "Add `total_line(n)` to pkg.report so the report ends with a summary of how many "
        "entries it has.",
        {"pkg/report.py": REPORT + '\n\ndef total_line(n):\n    return "rows: " + str(n)\n'},
        {"tests/test_report.py": 'from pkg.report import total_line\n\n\n'
                                 'def test_total_line():\n    assert total_line(3) == "rows: 3"\n'},
        ("tests/test_report.py::test_total_line",)),
    # The codebase formats dates one way; the gold and the test pin another.
    "misdetermined-stamp": Spec(
        "Add `stamp(d)` to pkg.dates returning the date for the log file name.",
        {"pkg/dates.py": DATES + '\n\ndef stamp(d):\n    return d.strftime("%Y%m%d")\n'},
        {"tests/test_dates.py": TEST_DATES + "\n\ndef test_stamp():\n"
                                "    from pkg.dates import stamp\n\n"
                                '    assert stamp(date(2020, 1, 31)) == "20200131"\n'},
        ("tests/test_dates.py::test_stamp",)),
    # The codebase decides one way and the gold follows it.
    "determined-iso": Spec(
        "Add `iso_day(d)` to a new module pkg.feed returning the day for the JSON feed.",
        {"pkg/feed.py": 'def iso_day(d):\n    return d.strftime("%Y-%m-%d")\n'},
        {"tests/test_feed.py": 'from datetime import date\n\nfrom pkg.feed import iso_day\n\n\n'
                               'def test_iso_day():\n'
                               '    assert iso_day(date(2020, 1, 31)) == "2020-01-31"\n'
                               '    assert iso_day(date(2020, 1, 31)) == '
                               'date(2020, 1, 31).strftime("%Y-%m-%d")\n'},
        ("tests/test_feed.py::test_iso_day",)),
}

HONEST_VERDICTS = {
    "airtight-badge": "AIRTIGHT", "plural-export": "CODEBASE-PLURAL",
    "entailed-parse": "ENTAILED", "unwitnessed-total": "UNWITNESSED",
    "misdetermined-stamp": "MISDETERMINED", "determined-iso": "DETERMINED-CODEBASE",
}
MECHANICAL_VERDICTS = {c: "AIRTIGHT" if c == "airtight-badge" else "NO_CLAIM" for c in SPECS}
# Cases whose honest screen finds a GAP (so the witness phase calls the agent).
WITH_GAPS = {"airtight-badge", "plural-export", "unwitnessed-total", "misdetermined-stamp",
             "determined-iso"}
# Cases with a witness the refuter must judge.
REFUTABLE = {"plural-export", "misdetermined-stamp"}


@dataclass
class Bench:
    repo: Path
    base: str
    mirror: str
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def write(self, folder: Path, ids: list[str] | None = None, extra: str = "") -> Path:
        chosen = [self.rows[i] for i in (ids or list(self.rows))]
        return write_benchmark(folder, chosen, mirror=self.mirror, extra=extra)

    def at_base(self, path: str) -> str:
        return git(self.repo, "show", f"{self.base}:{path}")

    def grep(self, constant: str) -> str:
        """What a skeptic's `git grep -F` prints for `constant` at base."""
        return subprocess.run(["git", "grep", "-F", "-n", "-e", constant, self.base],
                              cwd=self.repo, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    root = tmp_path_factory.mktemp("mirrors")
    repo = root / "acme" / "widgets"
    base = make_repo(repo, BASE_FILES)
    b = Bench(repo=repo, base=base, mirror=f"{root}/{{owner}}/{{name}}")
    for case_id, s in SPECS.items():
        b.rows[case_id] = row(case_id, base, s.prose, diff(repo, base, s.gold),
                              diff(repo, base, s.test), f2p=s.f2p)
    return b


def added_lines(patch: str) -> str:
    return "\n".join(ln[1:] for ln in patch.splitlines()
                     if ln.startswith("+") and not ln.startswith("+++"))


# -- answers an honest agent gives, built from (and checked against) the real texts -----------


def quote(text: str, needle: str) -> str:
    """The line of `text` that holds `needle`, stripped: a verbatim snippet."""
    line = next(ln for ln in text.splitlines() if needle in ln).strip()
    assert line in text
    return line


def behavior(b: Bench, case_id: str, what: str, gold_needle: str,
             clause: str = "") -> dict[str, str]:
    r = b.rows[case_id]
    snippet = quote(added_lines(r["patch"]), gold_needle)
    if clause:
        assert clause in r["problem_statement"], clause
    return {"test_id": r["FAIL_TO_PASS"][0], "behavior": what, "prose_clause": clause,
            "gold_snippet": snippet}


def precedent(b: Bench, path: str, needle: str, value: str) -> dict[str, str]:
    snippet = quote(b.at_base(path), needle)
    assert value in snippet
    return {"path": path, "snippet": snippet, "value": value}


def codebase_witness(b: Bench, case_id: str, kind: str, gold_value: str,
                     precedents: list[dict[str, str]]) -> dict[str, Any]:
    r = b.rows[case_id]
    assert gold_value in added_lines(r["patch"])
    return {"kind": kind, "behavior": "the date format", "r1": gold_value,
            "r2": precedents[0]["value"], "gold_value": gold_value,
            "test_assertion": quote(added_lines(r["test_patch"]), "assert"),
            "precedents": precedents}


def airtight_witness(b: Bench, case_id: str, constant: str) -> dict[str, Any]:
    r = b.rows[case_id]
    return {"kind": "airtight", "behavior": f"the test pins {constant}", "r1": constant,
            "r2": "another wording", "constant": constant,
            "test_assertion": quote(added_lines(r["test_patch"]), constant),
            "gold_anchor": quote(added_lines(r["patch"]), constant.split()[0])}


def honest_screen(b: Bench) -> dict[str, Any]:
    return {
        "airtight-badge": {"behaviors": [
            behavior(b, "airtight-badge", "render_badge is importable from pkg.report",
                     "def render_badge")]},
        "plural-export": {"behaviors": [
            behavior(b, "plural-export", "the date is written day/month/year", "strftime"),
            behavior(b, "plural-export", "the line is the date, a comma, the amount",
                     '"," + str(amount)', clause="returns one CSV line with the date and the "
                                                 "amount")]},
        "entailed-parse": {"behaviors": [
            behavior(b, "entailed-parse", "parse_date reads %Y-%m-%d", "strptime",
                     clause="It reads dates written as %Y-%m-%d"),
            behavior(b, "entailed-parse", "parse_date returns a date", ".date()",
                     clause="returns a datetime.date object")]},
        "unwitnessed-total": {"behaviors": [
            behavior(b, "unwitnessed-total", "the summary reads 'rows: N'", '"rows: "')]},
        "misdetermined-stamp": {"behaviors": [
            behavior(b, "misdetermined-stamp", "the stamp is %Y%m%d", "%Y%m%d")]},
        "determined-iso": {"behaviors": [
            behavior(b, "determined-iso", "the day is %Y-%m-%d", "%Y-%m-%d")]},
    }


def plural(b: Bench) -> dict[str, Any]:
    return codebase_witness(b, "plural-export", "plural", "%d/%m/%Y", [
        precedent(b, "pkg/dates.py", "DATE_FORMAT =", "%Y-%m-%d"),
        precedent(b, "pkg/report.py", "strftime", "%d/%m/%Y")])


def honest_witness(b: Bench) -> dict[str, Any]:
    return {
        "airtight-badge": {"witnesses": [airtight_witness(b, "airtight-badge", "render_badge")]},
        "plural-export": {"witnesses": [plural(b)]},
        "unwitnessed-total": {"witnesses": []},
        "misdetermined-stamp": {"witnesses": [codebase_witness(
            b, "misdetermined-stamp", "misdetermined", "%Y%m%d",
            [precedent(b, "pkg/dates.py", "DATE_FORMAT =", "%Y-%m-%d")])]},
        "determined-iso": {"witnesses": [codebase_witness(
            b, "determined-iso", "determined_codebase", "%Y-%m-%d",
            [precedent(b, "pkg/dates.py", "DATE_FORMAT =", "%Y-%m-%d")])]},
    }


def refutations(comparable: bool, cases: set[str] = REFUTABLE) -> dict[str, Any]:
    return {c: {"refutations": [{"candidate": 1, "comparable": comparable,
                                 "reason": "same decision" if comparable
                                 else "another audience, another format"}]} for c in cases}


def honest(b: Bench) -> dict[str, Any]:
    return {"screen": honest_screen(b), "witness": honest_witness(b),
            "refute": refutations(True)}


# -- running agents -----------------------------------------------------------------------


def scripted(answers: Path, log: Path | None = None) -> str:
    parts = [sys.executable, str(AGENTS / "scripted.py"), str(answers)]
    return shlex.join(parts + ([str(log)] if log else []))


def agent(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(AGENTS / f"{name}.py"), *args])


def save(path: Path, answers: dict[str, Any]) -> Path:
    path.write_text(json.dumps(answers, indent=1))
    return path


def calls(log: Path) -> list[tuple[str, str, str]]:
    if not log.exists():
        return []
    out = []
    for ln in log.read_text().splitlines():
        phase, case, pass_no = ln.split()
        out.append((phase, case, pass_no))
    return out


def claim_pairs(audit: Audit, cfg: Path) -> set[tuple[str, str]]:
    return {(r["case_id"], r["verdict"])
            for r in audit.sql(cfg, "select case_id, verdict from claims")}


def error_rows(errors: str, phase: str) -> list[str]:
    """Cases of REPORT.md's Errors table (one row per error) whose phase is `phase`, each
    retried next run."""
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in errors.splitlines()
            if ln.startswith("| ") and not ln.startswith("| case |")]
    assert all(r[3] == "yes" for r in rows if r[2] == phase), rows
    return sorted(r[0] for r in rows if r[2] == phase)


def section(report: str, title: str) -> str:
    """The body of one `## title` section of a markdown report."""
    body = report.split(f"\n## {title}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def executed_mechanical(summary: dict[str, Any]) -> set[str]:
    return set(summary["executed_by_phase"]) & set(MECHANICAL)


# -- 1. an honest agent reaches every verdict class --------------------------------------------


def test_honest_agent_reaches_each_verdict(tmp_path: Path, bench: Bench, audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench")
    log = tmp_path / "calls.log"
    answers = save(tmp_path / "answers.json", honest(bench))
    summary = audit.run(cfg, "--agent", scripted(answers, log))
    assert audit.verdicts(cfg) == HONEST_VERDICTS, summary

    made = calls(log)
    assert sorted(c for p, c, _ in made if p == "screen") == sorted(SPECS)
    assert {c for p, c, _ in made if p == "witness"} == WITH_GAPS
    assert {c for p, c, _ in made if p == "refute"} == REFUTABLE
    assert len(made) == len(SPECS) + len(WITH_GAPS) + len(REFUTABLE)

    claims = claim_pairs(audit, cfg)
    assert claims == {("airtight-badge", "AIRTIGHT"), ("plural-export", "CODEBASE-PLURAL"),
                      ("misdetermined-stamp", "MISDETERMINED")}
    ws = audit.sql(cfg, "select case_id, verdict, status, refuter from agent_witnesses "
                        "where case_id = 'plural-export'")
    assert ws == [{"case_id": "plural-export", "verdict": "CODEBASE-PLURAL", "status": "claim",
                   "refuter": " ".join(shlex.split(scripted(answers, log)))}]
    labels = {(r["case_id"], r["label"]) for r in audit.sql(
        cfg, "select case_id, label from behaviors")}
    assert ("entailed-parse", "COVERED") in labels and ("plural-export", "GAP") in labels
    assert ("plural-export", "COVERED") in labels
    assert not any(c == "entailed-parse" and lab != "COVERED" for c, lab in labels)

    out = audit.runs / "bench"
    for case_id in SPECS:
        attribution = (out / "attribution" / f"{case_id}.md").read_text()
        assert bench.rows[case_id]["FAIL_TO_PASS"][0] in attribution
        assert f"attribution/{case_id}.md" in (out / "cases" / case_id / "RECEIPT.md").read_text()
    assert "| GAP |" in (out / "attribution" / "unwitnessed-total.md").read_text()
    report = (out / "REPORT.md").read_text()
    screen = section(report, "Coverage screen")
    assert "GAP rate (upper bound)" in screen
    # 8 behaviors listed, 5 of them GAP; 6 cases screened, 5 with a GAP.
    assert "| behaviors | 8 | 5 |" in screen and "| cases | 6 | 5 |" in screen
    passes = section(report, "Passes")
    assert "refuter is the agent" in passes
    n_calls = len(made)
    assert f"| 1 | {' '.join(shlex.split(scripted(answers, log)))} |" in passes
    assert passes.rstrip().endswith(f"| yes | {n_calls} |"), passes
    claims_md = (out / "CLAIMS.md").read_text()
    assert "| plural-export | CODEBASE-PLURAL | pass 1 |" in claims_md
    assert "| airtight-badge | AIRTIGHT | mechanical |" in claims_md


# -- 2. a lying agent adds no claim -------------------------------------------------------------


def test_liar_adds_no_claim(tmp_path: Path, bench: Bench, audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench")
    audit.run(cfg)
    mechanical = claim_pairs(audit, cfg)
    assert mechanical == {("airtight-badge", "AIRTIGHT")}
    assert audit.verdicts(cfg) == MECHANICAL_VERDICTS

    audit.run(cfg, "--agent", agent("liar", *AT_BASE))
    # The liar was heard: it screened every case and proposed witnesses for each of them.
    n = audit.sql(cfg, "select count(distinct case_id) as n, count(*) as w, "
                       "count(*) filter (where status = 'rejected') as rejected "
                       "from agent_witnesses")[0]
    assert n["n"] == len(SPECS) and n["rejected"] > 20 * len(SPECS), n
    reasons = {r["reason"] for r in audit.sql(
        cfg, "select distinct reason from agent_witnesses where reason is not null")}
    for expected in ("constant stated in the prose", "constant present in the codebase",
                     "constant not in the test patch", "constant not in the gold patch",
                     "no precedent verified", "the prose clause is not a verbatim quote",
                     "unknown kind"):
        assert any(r.startswith(expected) for r in reasons), (expected, reasons)
    whys = {r["why"] for r in audit.sql(
        cfg, "select distinct unnest(precedents).why as why from agent_witnesses")}
    assert whys >= {"no such file at base_commit", "snippet not found verbatim in the file",
                    "value not found in the snippet", "no usable path",
                    "not a live path (test, vendor, example, fixture or deprecated code)"}, whys
    labels = {r["label"] for r in audit.sql(cfg, "select distinct label from behaviors")}
    assert labels == {"GAP", "OUT_OF_SCOPE", "INVALID"}
    hypotheses = {r["verdict"] for r in audit.sql(
        cfg, "select distinct verdict from agent_witnesses where status <> 'rejected'")}
    assert hypotheses == {"BORDERLINE"}, hypotheses

    assert claim_pairs(audit, cfg) == mechanical
    assert {c: v for c, v in audit.verdicts(cfg).items() if v in (
        "AIRTIGHT", "MISDETERMINED", "CODEBASE-PLURAL")} == {"airtight-badge": "AIRTIGHT"}
    for claim in audit.sql(cfg, "select case_id, constant, verdict from claims"):
        c, r = claim["constant"], bench.rows[claim["case_id"]]
        assert claim["verdict"] == "AIRTIGHT"
        assert c.casefold() not in r["problem_statement"].casefold()
        assert bench.grep(c) == "", c
        assert c in added_lines(r["patch"]) and c in added_lines(r["test_patch"]), c
    assert audit.sql(cfg, "select count(*) as n from agent_witnesses where status in "
                          "('claim', 'pending', 'contested')") == [{"n": 0}]


# -- 3. broken agents: errors, retried, never cached -------------------------------------------


@pytest.mark.parametrize("broken", ["garbage", "failing", "sleeper"])
def test_broken_agent_errors_are_retried(tmp_path: Path, bench: Bench, audit: Audit,
                                         broken: str) -> None:
    ids = ["airtight-badge", "entailed-parse", "plural-export"]
    cfg = bench.write(tmp_path / "bench", ids)
    # Three jobs: the sleeper's three timeouts run side by side.
    first = audit.run(cfg, "--agent", agent(broken), "--agent-timeout", "1", "--jobs", "3")
    assert first["errors_raised"] == len(ids), first
    errors = audit.sql(cfg, "select case_id, phase, transient, message from errors")
    assert sorted(e["case_id"] for e in errors) == ids
    assert all(e["phase"] == "screen" and e["transient"] for e in errors), errors
    expected = {"garbage": "no JSON object", "failing": "exited with status 3",
                "sleeper": "timed out after 1 s"}[broken]
    assert all(expected in e["message"] for e in errors), errors
    assert audit.verdicts(cfg) == {i: MECHANICAL_VERDICTS[i] for i in ids}
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    errs = section(report, "Errors")
    assert error_rows(errs, "screen") == sorted(ids), errs
    assert audit.sql(cfg, "select count(*) as n from agent_calls") == [{"n": 0}]

    # Nothing was cached: the same broken agent is asked again (and fails again).
    again = audit.run(cfg, "--agent", agent(broken), "--agent-timeout", "1", "--jobs", "3")
    assert again["executed_by_phase"].get("screen") == len(ids), again
    assert again["errors_raised"] == len(ids) and not executed_mechanical(again), again

    log = tmp_path / "calls.log"
    answers = save(tmp_path / "answers.json", honest(bench))
    fixed = audit.run(cfg, "--agent", scripted(answers, log))
    assert not executed_mechanical(fixed), fixed
    assert fixed["errors_raised"] == 0, fixed
    assert audit.verdicts(cfg) == {i: HONEST_VERDICTS[i] for i in ids}
    made = calls(log)
    assert sorted(c for p, c, _ in made if p == "screen") == ids
    assert {c for p, c, _ in made if p != "screen"} == {"airtight-badge", "plural-export"}


def test_errors_of_a_broken_agent_go_once_the_pass_succeeds(tmp_path: Path, bench: Bench,
                                                            audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench", ["plural-export"])
    audit.run(cfg, "--agent", agent("garbage"))
    assert len(audit.sql(cfg, "select * from errors")) == 1
    answers = save(tmp_path / "answers.json", honest(bench))
    audit.run(cfg, "--agent", scripted(answers))
    assert audit.verdicts(cfg) == {"plural-export": "CODEBASE-PLURAL"}
    # Another agent answered the same pass: the old slot's error is no longer open.
    assert audit.sql(cfg, "select case_id, phase from errors") == []
    assert "plural-export" not in section((audit.runs / "bench" / "REPORT.md").read_text(),
                                          "Errors")


def test_partial_failure_recalls_only_failed_phases(tmp_path: Path, bench: Bench,
                                                    audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench")
    log = tmp_path / "calls.log"
    good = honest(bench)
    broken = json.loads(json.dumps(good))
    broken["screen"]["plural-export"] = "GARBAGE"
    broken["screen"]["entailed-parse"] = "FAIL"
    broken["witness"]["misdetermined-stamp"] = "GARBAGE"
    broken["refute"]["plural-export"] = "GARBAGE"  # never asked: its screen fails first
    answers = save(tmp_path / "answers.json", broken)
    command = scripted(answers, log)

    first = audit.run(cfg, "--agent", command)
    assert first["errors_raised"] == 3, first
    errors = {(e["case_id"], e["phase"]) for e in audit.sql(
        cfg, "select case_id, phase from errors where transient")}
    assert errors == {("plural-export", "screen"), ("entailed-parse", "screen"),
                      ("misdetermined-stamp", "witness")}
    verdicts = audit.verdicts(cfg)
    assert verdicts["airtight-badge"] == "AIRTIGHT"
    assert verdicts["determined-iso"] == "DETERMINED-CODEBASE"
    assert verdicts["unwitnessed-total"] == "UNWITNESSED"
    # The screen of misdetermined-stamp succeeded: its GAP stands while its witness is retried.
    assert verdicts["misdetermined-stamp"] == "UNWITNESSED"
    assert verdicts["plural-export"] == verdicts["entailed-parse"] == "NO_CLAIM"
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    errs = section(report, "Errors")
    assert error_rows(errs, "screen") == ["entailed-parse", "plural-export"], errs
    assert error_rows(errs, "witness") == ["misdetermined-stamp"], errs
    n_first = len(calls(log))

    save(answers, good)  # the same command now answers well
    second = audit.run(cfg, "--agent", command)
    assert not executed_mechanical(second), second
    assert second["errors_raised"] == 0, second
    assert audit.verdicts(cfg) == HONEST_VERDICTS
    assert audit.sql(cfg, "select * from errors") == []
    again = calls(log)[n_first:]
    assert sorted((p, c) for p, c, _ in again) == sorted([
        ("screen", "plural-export"), ("witness", "plural-export"), ("refute", "plural-export"),
        ("screen", "entailed-parse"),
        ("witness", "misdetermined-stamp"), ("refute", "misdetermined-stamp")])

    n_done = len(calls(log))
    third = audit.run(cfg, "--agent", command)
    assert third["executed"] == 0 and third["actions_computed"] == 0, third
    assert len(calls(log)) == n_done


# -- 4. the refuter ---------------------------------------------------------------------------


def test_refuter_contests_plural_candidate(tmp_path: Path, bench: Bench, audit: Audit) -> None:
    ids = ["misdetermined-stamp", "plural-export"]
    cfg = bench.write(tmp_path / "bench", ids)
    answers = save(tmp_path / "answers.json", honest(bench))
    refuter_answers = save(tmp_path / "refuter.json",
                           {"refute": {**refutations(False, {"plural-export"}),
                                       **refutations(True, {"misdetermined-stamp"})}})
    refuter_log = tmp_path / "refuter.log"
    audit.run(cfg, "--agent", scripted(answers), "--refuter",
              scripted(refuter_answers, refuter_log))
    assert sorted(c for p, c, _ in calls(refuter_log)) == ids
    assert {p for p, _, _ in calls(refuter_log)} == {"refute"}
    ws = audit.sql(cfg, "select case_id, verdict, status, reason from agent_witnesses "
                        "order by case_id")
    assert [(w["case_id"], w["verdict"], w["status"]) for w in ws] == [
        ("misdetermined-stamp", "MISDETERMINED", "claim"),
        ("plural-export", "CODEBASE-PLURAL", "contested")]
    assert ws[1]["reason"] == "another audience, another format"
    assert claim_pairs(audit, cfg) == {("misdetermined-stamp", "MISDETERMINED")}
    assert audit.verdicts(cfg)["plural-export"] not in ("CODEBASE-PLURAL", "MISDETERMINED")

    report = (audit.runs / "bench" / "REPORT.md").read_text()
    witnesses = section(report, "Agent witnesses")
    assert "Refuted (contested): 1; survived the refuter: 1; waiting for the refuter: 0" \
        in witnesses, witnesses
    passes = section(report, "Passes")
    agent_cmd = " ".join(shlex.split(scripted(answers)))
    refuter_cmd = " ".join(shlex.split(scripted(refuter_answers, refuter_log)))
    assert f"| 1 | {agent_cmd} | {refuter_cmd} | no |" in passes, passes
    receipt = (audit.runs / "bench" / "cases" / "plural-export" / "RECEIPT.md").read_text()
    assert "contested" in receipt
    # The claim's receipt shows the test line that pins the gold's choice.
    [w] = audit.sql(cfg, "select test_assertion from agent_witnesses "
                         "where case_id = 'misdetermined-stamp'")
    claim = (audit.runs / "bench" / "cases" / "misdetermined-stamp" / "RECEIPT.md").read_text()
    assert w["test_assertion"] and f"pinned by the test: {w['test_assertion']}" in claim, claim


def test_silent_or_failing_refuter_leaves_nothing_claimed(tmp_path: Path, bench: Bench,
                                                          audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench", ["plural-export"])
    answers = save(tmp_path / "answers.json", honest(bench))
    # A refuter that fails leaves the candidate pending (an error retried), never a claim.
    audit.run(cfg, "--agent", scripted(answers), "--refuter", agent("failing"))
    ws = audit.sql(cfg, "select status, reason from agent_witnesses")
    assert ws == [{"status": "pending", "reason": "the refuter has not answered yet"}]
    assert claim_pairs(audit, cfg) == set()
    assert audit.verdicts(cfg) == {"plural-export": "UNWITNESSED"}
    errors = audit.sql(cfg, "select case_id, phase, transient from errors")
    assert errors == [{"case_id": "plural-export", "phase": "refute", "transient": True}]
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "waiting for the refuter: 1" in section(report, "Agent witnesses")
    assert error_rows(section(report, "Errors"), "refute") == ["plural-export"]

    # A refuter that answers, but not about candidate 1 (or not with a boolean): refuted.
    mute = save(tmp_path / "mute.json", {"refute": {"plural-export": {"refutations": [
        {"candidate": 2, "comparable": True}, {"candidate": 1, "comparable": "yes"},
        {"candidate": True, "comparable": True}, {"comparable": True}]}}})
    audit.run(cfg, "--agent", scripted(answers), "--refuter", scripted(mute))
    ws = audit.sql(cfg, "select status, reason from agent_witnesses where status <> 'pending'")
    assert ws == [{"status": "contested", "reason": "the refuter gave no answer for it"}]
    assert claim_pairs(audit, cfg) == set()
    assert audit.verdicts(cfg) == {"plural-export": "UNWITNESSED"}


# -- 5. passes only add ----------------------------------------------------------------------


def test_passes_only_add(tmp_path: Path, bench: Bench, audit: Audit) -> None:
    ids = ["airtight-badge", "plural-export", "unwitnessed-total", "entailed-parse"]
    cfg = bench.write(tmp_path / "bench", ids)
    log = tmp_path / "calls.log"
    fake = {"path": "pkg/nowhere.py", "snippet": 'FMT = "%m-%d"', "value": "%m-%d"}
    answers = save(tmp_path / "answers.json", {
        "screen": honest_screen(bench),
        # Pass 1: nothing verifies.
        "witness@1": {"plural-export": {"witnesses": [
            {**plural(bench), "precedents": [fake]}]},
            "unwitnessed-total": {"witnesses": [airtight_witness(bench, "unwitnessed-total",
                                                                 "rows: 3")]}},
        # Pass 2: the plural claim.
        "witness@2": {"plural-export": {"witnesses": [plural(bench)]}},
        # Pass 3: an airtight claim on a piece of a string literal ("rows: " vs "rows: 3"),
        # which the mechanical proposer never sees as a shared constant.
        "witness@3": {"unwitnessed-total": {"witnesses": [
            airtight_witness(bench, "unwitnessed-total", "rows:")]}},
        "refute": refutations(True),
    })
    command = scripted(answers, log)
    mechanical = {("airtight-badge", "AIRTIGHT")}
    seen: list[set[tuple[str, str]]] = [mechanical]
    expected = [mechanical, mechanical | {("plural-export", "CODEBASE-PLURAL")},
                mechanical | {("plural-export", "CODEBASE-PLURAL"),
                              ("unwitnessed-total", "AIRTIGHT")}]
    verdicts_before: dict[str, str] = {}
    for n in (1, 2, 3):
        summary = audit.run(cfg, "--agent", command, "--pass", str(n))
        if n > 1:
            assert not executed_mechanical(summary), summary
        claims = claim_pairs(audit, cfg)
        assert claims >= seen[-1] and claims == expected[n - 1], (n, claims)
        seen.append(claims)
        verdicts = audit.verdicts(cfg)
        assert all(verdicts[c] == v for c, v in verdicts_before.items() if v == "AIRTIGHT")
        verdicts_before = verdicts
        assert {c for p, c, k in calls(log) if k == str(n) and p == "screen"} == set(ids)

    assert verdicts_before == {"airtight-badge": "AIRTIGHT", "plural-export": "CODEBASE-PLURAL",
                               "unwitnessed-total": "AIRTIGHT", "entailed-parse": "ENTAILED"}
    first = {(r["case_id"], r["verdict"], r["constant"]): r["first_pass"]
             for r in audit.sql(cfg, "select * from claims")}
    assert first[("unwitnessed-total", "AIRTIGHT", "rows:")] == 3
    assert first[("plural-export", "CODEBASE-PLURAL", None)] == 2  # no constant: NULL
    assert first[("airtight-badge", "AIRTIGHT", "render_badge")] == 0
    assert bench.grep("rows:") == ""
    claims_md = (audit.runs / "bench" / "CLAIMS.md").read_text()
    assert "| airtight-badge | AIRTIGHT | mechanical |" in claims_md
    assert "| plural-export | CODEBASE-PLURAL | pass 2 |" in claims_md
    assert "| unwitnessed-total | AIRTIGHT | pass 3 | `rows:` |" in claims_md
    passes = section((audit.runs / "bench" / "REPORT.md").read_text(), "Passes")
    assert all(f"\n| {n} | " in passes for n in (1, 2, 3)), passes

    n_calls = len(calls(log))
    rerun = audit.run(cfg, "--agent", command, "--pass", "2")
    assert rerun["actions_computed"] == 0 and len(calls(log)) == n_calls, rerun
    assert claim_pairs(audit, cfg) == expected[2]
    everything = audit.run(cfg, "--agent", command, "--passes", "3")
    assert everything["actions_computed"] == 0 and len(calls(log)) == n_calls, everything
    assert claim_pairs(audit, cfg) == expected[2]


# -- 6. inputs are never shortened silently -----------------------------------------------------


def test_shortened_inputs_are_stated(tmp_path: Path, bench: Bench, audit: Audit) -> None:
    big = "\n".join(f'LEVEL_{i:03d} = "level number {i} of the long table"' for i in range(60))
    short_id, long_id = "plural-export", "long-gold"
    spec = SPECS["airtight-badge"]
    long_row = row(long_id, bench.base, spec.prose,
                   diff(bench.repo, bench.base, {**spec.gold, "pkg/levels.py": big + "\n"}),
                   diff(bench.repo, bench.base, spec.test), f2p=spec.f2p)
    assert len(long_row["patch"]) > 2000
    assert len(bench.rows[short_id]["patch"]) < 1000
    folder = tmp_path / "bench"
    cfg = write_benchmark(folder, [bench.rows[short_id], long_row], mirror=bench.mirror,
                          extra="[agent]\nmax_chars = 1000\n")
    answers = save(tmp_path / "answers.json", {"screen": {long_id: {"behaviors": [
        {"test_id": spec.f2p[0], "behavior": "a level far down the gold patch",
         "prose_clause": "", "gold_snippet": 'LEVEL_059 = "level number 59'}]}}})
    audit.run(cfg, "--agent", scripted(answers))
    truncated = {r["case_id"]: r["truncated"] for r in audit.sql(
        cfg, "select case_id, truncated from agent_calls where phase = 'screen'")}
    assert truncated == {long_id: ["gold_patch"], short_id: []}
    receipt = (audit.runs / "bench" / "cases" / long_id / "RECEIPT.md").read_text()
    assert "shortened" in receipt and "gold_patch" in receipt
    other = (audit.runs / "bench" / "cases" / short_id / "RECEIPT.md").read_text()
    assert "shortened" not in other
    # The prompt itself says so, where the cut is.
    prompt_hash = audit.sql(cfg, f"select prompt from agent_calls where case_id = '{long_id}'"
                                 " and phase = 'screen'")[0]["prompt"]
    prompt = (audit.store / "objects" / prompt_hash[:2] / prompt_hash).read_text()
    assert "shortened by determinacy" in prompt and "LEVEL_059" not in prompt
    # The settlers still read the whole patch: a snippet past the cut verifies.
    gaps = audit.sql(cfg, f"select label from behaviors where case_id = '{long_id}'")
    assert gaps == [{"label": "GAP"}]



# -- the agent's AIRTIGHT path and the mechanical rules it must not get around ------------------


@pytest.mark.parametrize("fragment", ["r_badge", ".isoformat()"])
def test_fragment_of_a_rejected_token_is_no_claim(tmp_path: Path, bench: Bench, audit: Audit,
                                                  fragment: str) -> None:
    gold = {"pkg/report.py": REPORT + '\n\ndef render_badge(d):\n'
                                      '    return "[" + d.isoformat() + "]"\n'}
    test = {"tests/test_report.py": 'from datetime import date\n\n'
                                    'from pkg.report import render_badge\n\n\n'
                                    'def test_badge():\n    day = date(2020, 1, 31)\n'
                                    '    assert render_badge(day) == "[" + day.isoformat() + "]"'
                                    '\n'}
    r = row("fragment", bench.base, "Add a render badge helper to pkg.report that shows the "
            "day in ISO form.", diff(bench.repo, bench.base, gold),
            diff(bench.repo, bench.base, test), f2p=("tests/test_report.py::test_badge",))
    cfg = write_benchmark(tmp_path / "bench", [r], mirror=bench.mirror)
    audit.run(cfg)
    # The mechanical tier: `render_badge` is stated in the prose (as words), `isoformat` is a
    # library name neither patch defines. No claim.
    settled = {c["constant"]: (c["prose_match"], c["defuse"]) for c in audit.sql(
        cfg, "select constant, prose_match, defuse from candidates")}
    assert settled["render_badge"][0] == "words" and settled["isoformat"][1] == "none"
    assert claim_pairs(audit, cfg) == set()
    assert fragment in added_lines(r["patch"]) and fragment in added_lines(r["test_patch"])
    answers = save(tmp_path / "answers.json", {
        "screen": {"fragment": {"behaviors": [{
            "test_id": "tests/test_report.py::test_badge", "behavior": "the badge",
            "prose_clause": "", "gold_snippet": 'return "[" + d.isoformat() + "]"'}]}},
        "witness": {"fragment": {"witnesses": [{
            "kind": "airtight", "constant": fragment, "r1": fragment, "r2": "another name",
            "test_assertion": "assert render_badge(day)", "gold_anchor": "def render_badge(d):"
        }]}}})
    audit.run(cfg, "--agent", scripted(answers))
    assert audit.sql(cfg, "select count(*) as n from agent_witnesses") == [{"n": 1}]
    assert claim_pairs(audit, cfg) == set()


def test_precedent_path_with_nul_is_rejected_not_fatal(tmp_path: Path, bench: Bench,
                                                       audit: Audit) -> None:
    cfg = bench.write(tmp_path / "bench", ["plural-export"])
    answers = honest(bench)
    answers["witness"]["plural-export"]["witnesses"][0]["precedents"].append(
        {"path": "pkg/dates.py\u0000", "snippet": "DATE_FORMAT", "value": "DATE_FORMAT"})
    audit.run(cfg, "--agent", scripted(save(tmp_path / "answers.json", answers)))
    assert claim_pairs(audit, cfg) == {("plural-export", "CODEBASE-PLURAL")}
    whys = audit.sql(cfg, "select unnest(precedents).verified as ok from agent_witnesses")
    assert [w["ok"] for w in whys] == [True, True, False]
