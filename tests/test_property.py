"""Property: whatever an agent answers, the settlers certify only what verifies.

Random agent outputs of the right shape, with strings drawn from a mix of the real materials
(prose words, pieces of the patches' added lines, constants present at base, real paths, real
lines of real files) and invented ones, are settled against a real repository. No run may yield
(a) an AIRTIGHT claim whose constant is in the prose, present at base, or missing from the added
lines of the gold or the test patch, or (b) a CODEBASE-PLURAL / MISDETERMINED claim whose
precedents do not verify or that the refuter did not let through. Every check below is done
again here, independently of the settlers (own diff reading, own `git grep`, own file reads).

Most examples call the pure settlers of determinacy/agents/checks.py directly (with
`search`/`read` on the real repository); a few run the whole CLI with a scripted agent fed
random answers.
"""

from __future__ import annotations

import functools
import json
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import Audit, diff, make_repo, row, write_benchmark
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from determinacy.agents import checks
from determinacy.codebase import repos, search
from determinacy.config import DEFAULT_DEAD_PATHS, DEFAULT_TEST_PATHS
from determinacy.paths import is_test_path
from determinacy.proposer.patches import added_text, parse_patch
from determinacy.proposer.propose import propose
from determinacy.prose import Prose
from determinacy.records import AgentWitness, Candidate, Precedent, Task

AGENTS = Path(__file__).resolve().parent / "agents"

DATES = 'DATE_FORMAT = "%Y-%m-%d"\n\n\ndef format_date(d):\n    return d.strftime(DATE_FORMAT)\n'
REPORT = ('def report_date(d):\n    return d.strftime("%d/%m/%Y")\n\n\n'
          'def report_title(name):\n    return "Report: " + name\n')
FEED = 'def feed_stamp(d):\n    return d.strftime("%Y-%m-%dT%H:%M")\n'
BASE_FILES = {
    "pkg/__init__.py": "", "pkg/dates.py": DATES, "pkg/report.py": REPORT, "pkg/feed.py": FEED,
    # Not live code: a precedent here proves nothing about how the codebase decides.
    "tests/test_dates.py": 'from pkg.dates import format_date\n\n\ndef test_it():\n'
                           '    assert format_date is not None  # "%m/%d/%Y" elsewhere\n',
    "vendor/legacy.py": 'LEGACY_FORMAT = "%m-%d-%Y"\n',
    "examples/demo.py": 'DEMO_FORMAT = "%d.%m.%Y"\n',
}
LIVE = {"pkg/__init__.py", "pkg/dates.py", "pkg/report.py", "pkg/feed.py"}

SPECS: dict[str, tuple[str, dict[str, str], dict[str, str], str]] = {
    "badge": (
        "The report needs a badge for the status of a build.",
        {"pkg/report.py": REPORT + '\n\ndef render_badge(status):\n'
                                   '    return "[" + status.upper() + "]"\n'},
        {"tests/test_report.py": 'from pkg.report import render_badge\n\n\ndef test_badge():\n'
                                 '    assert render_badge("ok") == "[OK]"\n'},
        "tests/test_report.py::test_badge"),
    "export": (
        "Add `export_row(d, amount)` to a new module pkg.export: one CSV line with the date "
        "and the amount.",
        {"pkg/export.py": 'def export_row(d, amount):\n'
                          '    return d.strftime("%d/%m/%Y") + "," + str(amount)\n'},
        {"tests/test_export.py": 'from datetime import date\n\nfrom pkg.export import export_row'
                                 '\n\n\ndef test_export_row():\n    assert export_row('
                                 'date(2020, 1, 31), 5) == "31/01/2020,5"\n'},
        "tests/test_export.py::test_export_row"),
    "total": (
        "Add `total_line(n)` to pkg.report: the report ends with a summary of its entries.",
        {"pkg/report.py": REPORT + '\n\ndef total_line(n):\n    return "rows: " + str(n)\n'},
        {"tests/test_report.py": 'from pkg.report import total_line\n\n\n'
                                 'def test_total_line():\n    assert total_line(3) == "rows: 3"\n'},
        "tests/test_report.py::test_total_line"),
}
# The decisions the files make (date formats), as a careful agent would cite them.
VALUES = ["%Y-%m-%d", "%d/%m/%Y", "%Y-%m-%dT%H:%M", "%m/%d/%Y", "%m-%d-%Y", "%d.%m.%Y",
          "DATE_FORMAT"]
# (path, line, value): every line at base that makes a date-format decision.
DECISIONS = [(path, ln.strip(), v) for path, text in sorted(BASE_FILES.items())
             for ln in text.splitlines() for v in VALUES if f'"{v}"' in ln or v in ln.split()]
KINDS = ["airtight", "AIRTIGHT", "misdetermined", "plural", "determined_codebase",
         "determined-codebase", "prose_affirmative", "borderline", "nonsense", ""]
CLAIMABLE_CODEBASE = ("CODEBASE-PLURAL", "MISDETERMINED")


def squash(text: str) -> str:
    return " ".join(text.split())


def own_added(patch: str, skip_tests: bool) -> str:
    """Added lines of a unified diff, read here without the product's parser."""
    out, keep = [], True
    for ln in patch.splitlines():
        if ln.startswith("+++ "):
            path = ln[4:].removeprefix("b/")
            keep = not (skip_tests and (path.startswith("tests/") or "/test_" in f"/{path}"))
        elif ln.startswith("+") and keep:
            out.append(ln[1:])
    return "\n".join(out)


@dataclass
class Case:
    task: Task
    candidates: list[Candidate]
    gold_added: str  # as the product computes it (its input)
    test_added: str
    own_gold: str  # as this test reads it (the re-check)
    own_test: str
    pools: dict[str, list[str]] = field(default_factory=dict)


@dataclass(eq=False)  # hashable by identity: its methods are memoized
class World:
    repo: Path
    base: str
    mirror: str
    rows: list[dict[str, Any]]
    cases: dict[str, Case]

    @functools.cache  # noqa: B019 - one world per module
    def at_base(self, constant: str) -> bool:
        """Does a skeptic's `git grep -F` find `constant` at base?"""
        p = subprocess.run(["git", "grep", "-q", "-F", "-e", constant, self.base], cwd=self.repo,
                           capture_output=True)
        assert p.returncode in (0, 1), p.stderr
        return p.returncode == 0

    @functools.cache  # noqa: B019
    def file_at_base(self, path: str) -> str | None:
        p = subprocess.run(["git", "show", f"{self.base}:{path}"], cwd=self.repo,
                           capture_output=True, text=True)
        return p.stdout if p.returncode == 0 else None

    @functools.cache  # noqa: B019
    def search(self, constant: str) -> dict[str, str]:
        return search.Engine(None).find(self.tree, "acme/dates", [constant]).hits

    @functools.cached_property
    def tree(self) -> repos.Tree:
        return repos.list_tree(self.repo / ".git", self.base)

    @functools.cache  # noqa: B019
    def read(self, path: str) -> str | None:
        return self.tree.read(path)

    def search_many(self, constants: list[str]) -> dict[str, str]:
        return {k: v for c in constants for k, v in self.search(c).items()}


def shared_pieces(test: str, gold: str, limit: int = 300) -> list[str]:
    """Pieces (3..14 characters) of the test's added text that the gold's added text has too."""
    out: set[str] = set()
    for i in range(len(test)):
        for n in range(3, 15):
            piece = test[i:i + n]
            if len(piece) == n and "\n" not in piece and piece in gold:
                out.add(piece)
    return sorted(out)[:limit]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("mirrors")
    repo = root / "acme" / "dates"
    base = make_repo(repo, BASE_FILES)
    rows, cases = [], {}
    base_lines = sorted({ln.strip() for text in BASE_FILES.values() for ln in text.splitlines()
                         if ln.strip()})
    base_tokens = sorted({t for text in BASE_FILES.values()
                          for t in re.findall(r"[A-Za-z_%][A-Za-z0-9_%/:.-]{2,}", text)})
    for n, (case_id, (prose, gold, test, f2p)) in enumerate(SPECS.items(), 1):
        r = row(case_id, base, prose, diff(repo, base, gold), diff(repo, base, test),
                repo="acme/dates", f2p=(f2p,))
        rows.append(r)
        task = Task(case_id=case_id, instance_id=case_id, row=n, repo="acme/dates",
                    base_commit=base, prose=f"## problem_statement\n\n{prose}\n",
                    gold_patch=r["patch"], test_patch=r["test_patch"], fail_to_pass=[f2p])
        gold_files = [f for f in parse_patch(task.gold_patch, "gold")
                      if not is_test_path(f.path, DEFAULT_TEST_PATHS)]
        c = Case(task=task,
                 candidates=propose(task.gold_patch, task.test_patch, DEFAULT_TEST_PATHS,
                                    3).candidates,
                 gold_added=added_text(gold_files),
                 test_added=added_text(parse_patch(task.test_patch, "test")),
                 own_gold=own_added(task.gold_patch, skip_tests=True),
                 own_test=own_added(task.test_patch, skip_tests=False))
        assert c.own_gold == c.gold_added and c.own_test == c.test_added
        gold_lines = [ln.strip() for ln in c.own_gold.splitlines() if ln.strip()]
        test_lines = [ln.strip() for ln in c.own_test.splitlines() if ln.strip()]
        prose_words = prose.split()
        c.pools = {
            "clauses": [" ".join(prose_words[i:i + k]) for k in (2, 3, 5)
                        for i in range(len(prose_words) - k + 1)],
            "prose": re.findall(r"[A-Za-z_`.()]{3,}", prose),
            "shared": shared_pieces(c.own_test, c.own_gold),
            "gold": gold_lines, "test": test_lines,
            "mechanical": [x.constant for x in c.candidates],
            "base": base_tokens,
            "paths": sorted(BASE_FILES) + ["pkg/nowhere.py", "src/pkg/dates.py", "pkg",
                                           "./pkg/dates.py", "pkg/../tests/test_dates.py",
                                           "/etc/hostname", "tests", ""],
            "lines": base_lines,
            "values": [v for v in VALUES if v in c.own_gold] + gold_lines,
        }
        cases[case_id] = c
    return World(repo=repo, base=base, mirror=f"{root}/{{owner}}/{{name}}", rows=rows,
                 cases=cases)


# -- strategies --------------------------------------------------------------------------------

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=24)


@st.composite
def piece(draw: st.DrawFn, texts: list[str]) -> str:
    """A random piece of one of `texts` (possibly all of it)."""
    text = draw(st.sampled_from(texts or [""]))
    i = draw(st.integers(0, len(text)))
    j = draw(st.integers(i, len(text)))
    return text[i:j]


def mixed(pools: dict[str, list[str]], *names: str) -> st.SearchStrategy[str]:
    chosen = [st.sampled_from(pools[n]) for n in names if pools[n]]
    return st.one_of(*chosen, *[piece(pools[n]) for n in names if pools[n]], TEXT)


@st.composite
def precedent(draw: st.DrawFn, pools: dict[str, list[str]], world: World,
              near: bool = True) -> dict[str, str]:
    if draw(st.integers(0, 3) if near else st.just(0)):
        # Real: a line of a real file that makes a decision, and that decision (or a piece of
        # the line). It verifies when the path is live.
        path, snippet, value = draw(st.sampled_from(DECISIONS))
        if draw(st.integers(0, 3)) == 0:
            value = draw(piece([snippet]))
        return {"path": draw(st.sampled_from([path, path, path, f"./{path}", f" {path} "])),
                "snippet": snippet, "value": value}
    return {"path": draw(mixed(pools, "paths")), "snippet": draw(mixed(pools, "lines", "gold")),
            "value": draw(mixed(pools, "lines", "gold", "base"))}


@st.composite
def witness(draw: st.DrawFn, pools: dict[str, list[str]], world: World) -> Any:
    """One proposal: mostly built to pass some checks (so the checks after them run too)."""
    mode = draw(st.sampled_from(["airtight"] * 2 + ["codebase"] * 3 + ["random", "junk"]))
    if mode == "junk":
        return draw(st.one_of(st.none(), st.integers(), TEXT, st.lists(TEXT, max_size=2)))
    near = mode != "random"

    def often() -> bool:
        return near and draw(st.integers(0, 3)) > 0

    w: dict[str, Any] = {
        "kind": draw(st.sampled_from(KINDS[:2] if mode == "airtight" else KINDS[2:5]
                                     if mode == "codebase" else KINDS)),
        "constant": draw(st.one_of(st.sampled_from(pools["shared"]),
                                   st.sampled_from(pools["mechanical"]))
                         if often() else
                         mixed(pools, "shared", "mechanical", "prose", "base", "test", "gold")),
        "test_assertion": draw(st.sampled_from(pools["test"]) if often()
                               else mixed(pools, "test", "shared")),
        "gold_anchor": draw(mixed(pools, "gold", "shared")),
        "gold_value": draw(st.sampled_from(pools["values"]) if often()
                           else mixed(pools, "gold", "shared", "lines")),
        "prose_clause": draw(mixed(pools, "prose", "gold")),
        "behavior": draw(TEXT), "r1": draw(TEXT), "r2": draw(TEXT),
    }
    for key in sorted(w):
        if key != "kind" and draw(st.integers(0, 9)) == 0:
            w[key] = draw(st.one_of(st.integers(), st.none(), st.lists(TEXT, max_size=1)))
    n = (2, 4) if mode == "codebase" else (0, 2)
    w["precedents"] = draw(st.lists(precedent(pools, world, near), min_size=n[0], max_size=n[1]))
    return w


@st.composite
def refutations(draw: st.DrawFn, pending: int) -> dict[str, Any]:
    """A refuter's answer: often one well-formed verdict per candidate, sometimes anything."""
    one = st.fixed_dictionaries({
        "candidate": st.one_of(st.integers(0, pending + 1), st.booleans(), TEXT),
        "comparable": st.one_of(st.booleans(), st.none(), TEXT), "reason": TEXT})
    noise = draw(st.lists(one, max_size=pending + 2))
    clean = [{"candidate": n, "comparable": draw(st.sampled_from([True, True, False])),
              "reason": "r"} for n in range(1, pending + 1)]
    answers = draw(st.sampled_from([clean, clean, clean + noise, noise + clean, noise]))
    return {"refutations": draw(st.permutations(answers))}


@st.composite
def behaviors(draw: st.DrawFn, case: Case) -> dict[str, Any]:
    pools = case.pools

    @st.composite
    def one(draw: st.DrawFn) -> dict[str, str]:
        near = draw(st.integers(0, 2)) > 0
        return {
            "test_id": draw(st.sampled_from(case.task.fail_to_pass) if near
                            else st.one_of(st.sampled_from(case.task.fail_to_pass), TEXT)),
            "behavior": draw(TEXT),
            "prose_clause": draw(st.one_of(st.just(""), st.sampled_from(pools["clauses"]),
                                           mixed(pools, "prose"), piece([case.task.prose]))),
            "gold_snippet": draw(st.sampled_from(pools["gold"]) if near
                                 else mixed(pools, "gold", "test", "lines")),
        }

    return {"behaviors": draw(st.lists(one(), min_size=1, max_size=4))}


# -- the re-checks -----------------------------------------------------------------------------


def check_airtight(world: World, case: Case, w: AgentWitness) -> None:
    c = w.constant
    assert w.kind == "airtight" and c, w
    assert not Prose(case.task.prose).match(c), w
    assert not world.at_base(c), w
    assert c in case.own_test, w
    assert c in case.own_gold, w
    assert w.command == f"git grep -F -n -e '{c}' {case.task.base_commit}" or "'" in c, w


def check_codebase_claim(world: World, case: Case, w: AgentWitness, refuted: dict[str, Any],
                         number: int) -> None:
    verified = [p for p in w.precedents if p.verified]
    assert verified, w
    for p in verified:
        text = world.file_at_base(p.path)
        assert text is not None, p
        assert p.path in LIVE, p
        assert squash(p.snippet) and squash(p.snippet) in squash(text), p
        assert squash(p.value) and squash(p.value) in squash(p.snippet), p
    assert squash(w.gold_value) and squash(w.gold_value) in squash(case.own_gold), w
    values = {squash(p.value) for p in verified}
    if w.verdict == "CODEBASE-PLURAL":
        assert any(a.path != b.path and squash(a.value) != squash(b.value)
                   for a in verified for b in verified), w
        assert len(values) >= 2, w
    else:
        assert any(v != squash(w.gold_value) for v in values), w
    assert len(squash(w.test_assertion)) >= 3 and squash(w.test_assertion) in squash(
        case.own_test), w
    # The refuter's first well-formed answer about this candidate said "comparable".
    answers = [r for r in refuted.get("refutations", []) if isinstance(r, dict)
               and type(r.get("candidate")) is int and type(r.get("comparable")) is bool]
    first = next(r for r in answers if r["candidate"] == number)
    assert first["comparable"] is True, (w, refuted)


def check_screen(case: Case, answer: dict[str, Any], labels: list[str]) -> None:
    items = answer["behaviors"]
    assert len(labels) == len(items)
    for b, label in zip(items, labels):
        in_gold = len(squash(b["gold_snippet"])) >= 3 and squash(b["gold_snippet"]) in squash(
            case.own_gold)
        clause = squash(b["prose_clause"]).casefold()
        covered = len(b["prose_clause"].split()) >= 3 and clause in squash(
            case.task.prose).casefold()
        if b["test_id"] not in case.task.fail_to_pass:
            assert label == "INVALID"
        else:
            assert label == ("OUT_OF_SCOPE" if not in_gold else
                             "COVERED" if covered else "GAP"), (b, label)


def settle(world: World, case: Case, answer: dict[str, Any]) -> list[AgentWitness]:
    return checks.settle_witnesses(
        case.task, 1, answer, gold_added=case.gold_added, test_added=case.test_added,
        candidates=case.candidates, search=world.search_many, read=world.read,
        test_paths=DEFAULT_TEST_PATHS, dead_paths=DEFAULT_DEAD_PATHS, min_length=3,
        excluded=[], commit=world.base)


# -- many examples: the pure settlers on the real repository ------------------------------------


def test_settlers_certify_only_what_verifies(world: World) -> None:
    seen: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None, database=None)
    @given(case_id=st.sampled_from(sorted(SPECS)), data=st.data())
    def prop(case_id: str, data: st.DataObject) -> None:
        case = world.cases[case_id]
        screen = data.draw(behaviors(case), label="screen")
        labels = [b.label for b in checks.settle_screen(case.task, 1, screen, case.gold_added)]
        check_screen(case, screen, labels)
        seen.update(f"screen {lab}" for lab in labels)

        answer = {"witnesses": data.draw(st.lists(witness(case.pools, world), min_size=1,
                                                  max_size=6),
                                         label="witnesses")}
        settled = settle(world, case, answer)
        pending = [w for w in settled if w.status == "needs-refutation"]
        refuted = data.draw(refutations(len(pending)), label="refutations")
        final = checks.apply_refutations(settled, refuted, "refuter")
        assert len(final) == len(answer["witnesses"])
        for w in final:
            seen[f"{w.status} {w.verdict}"] += 1
            seen[w.status] += 1
            assert w.status in ("claim", "determinate", "hypothesis", "contested", "rejected")
            assert (w.status == "rejected") == (w.verdict == ""), w
            if w.status == "rejected":
                assert w.reason, w
            if w.status != "claim":
                continue
            assert w.verdict in checks.CLAIMABLE, w
            if w.verdict == "AIRTIGHT":
                check_airtight(world, case, w)
            else:
                number = 1 + [x.index for x in pending].index(w.index)
                check_codebase_claim(world, case, w, refuted, number)

    prop()
    # The property is not vacuous: every kind of outcome was reached.
    for outcome in ("claim AIRTIGHT", "claim CODEBASE-PLURAL", "claim MISDETERMINED",
                    "contested", "rejected", "screen GAP", "screen COVERED",
                    "screen INVALID", "screen OUT_OF_SCOPE"):
        assert seen[outcome] > 0, (outcome, seen)


@example(path="pkg/dates.py\x00")
@example(path="pkg/\ud800.py")
@settings(max_examples=30, deadline=None, database=None)
@given(path=st.text(max_size=12).map(lambda s: f"pkg/{s}"))
def test_no_agent_string_crashes_the_settlers(world: World, path: str) -> None:
    case = world.cases["export"]
    answer = {"witnesses": [{"kind": "plural", "gold_value": "%d/%m/%Y",
                             "precedents": [{"path": path, "snippet": "abc", "value": "a"}]}]}
    (w,) = settle(world, case, answer)
    assert w.status == "rejected"


# -- a few examples end to end: the CLI with a scripted agent fed random answers -----------------


@settings(max_examples=4, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_cli_with_random_agent_claims_only_what_verifies(tmp_path: Path, world: World,
                                                        data: st.DataObject) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    answers: dict[str, dict[str, Any]] = {"screen": {}, "witness": {}, "refute": {}}
    for case_id, case in world.cases.items():
        gap = {"test_id": case.task.fail_to_pass[0], "behavior": "graded",
               "prose_clause": "", "gold_snippet": case.pools["gold"][-1]}
        extra = data.draw(behaviors(case))["behaviors"]
        answers["screen"][case_id] = {"behaviors": [gap, *extra]}
        answers["witness"][case_id] = {"witnesses": data.draw(
            st.lists(witness(case.pools, world), min_size=1, max_size=5))}
        answers["refute"][case_id] = data.draw(refutations(5))
    (folder / "answers.json").write_text(json.dumps(answers))
    cfg = write_benchmark(folder / "bench", world.rows, mirror=world.mirror)
    audit = Audit(folder)
    command = shlex.join([sys.executable, str(AGENTS / "scripted.py"),
                          str(folder / "answers.json")])
    summary = audit.run(cfg, "--agent", command)
    assert summary["case_errors"] == 0, summary
    tasks = {t["case_id"]: t for t in audit.sql(cfg, "select case_id, prose from tasks")}
    # Every case reached the witness phase (its screen had a GAP) and was settled.
    settled = audit.sql(cfg, "select case_id, status, verdict from agent_witnesses")
    assert {w["case_id"] for w in settled} == set(SPECS), settled
    for claim in audit.sql(cfg, "select * from claims where proposer = 'agent'"):
        case = world.cases[claim["case_id"]]
        assert tasks[claim["case_id"]]["prose"] == case.task.prose
        if claim["verdict"] == "AIRTIGHT":
            c = claim["constant"]
            assert not Prose(case.task.prose).match(c) and not world.at_base(c), claim
            assert c in case.own_test and c in case.own_gold, claim
    for w in audit.sql(cfg, "select * from agent_witnesses where status = 'claim'"):
        case = world.cases[w["case_id"]]
        aw = AgentWitness(**{**w, "precedents": [Precedent(**p) for p in w["precedents"]]})
        if aw.verdict == "AIRTIGHT":
            check_airtight(world, case, aw)
        else:
            assert aw.verdict in CLAIMABLE_CODEBASE, aw
            settled = settle(world, case, answers["witness"][case.task.case_id])
            pending = [x for x in settled if x.status == "needs-refutation"]
            number = 1 + [x.index for x in pending].index(aw.index)
            check_codebase_claim(world, case, aw, answers["refute"][case.task.case_id], number)
