"""Rows: each one is a task or an ERROR naming its row and field, case ids never collide, and
nothing a row holds (a lone surrogate, a huge number, a CRLF or huge patch, a misspelled column)
stops the audit or is dropped without a word.

One benchmark with many kinds of rows runs through the real CLI; the loader and the patch parser
are also fuzzed (hypothesis) on random and mutated rows, jsonl lines and diffs.
"""

from __future__ import annotations

import difflib
import json
import re
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import CORE, PROSE, TEST, Audit, diff, row, widgets_repo, write_benchmark
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from determinacy.cli import main
from determinacy.config import DEFAULT_TEST_PATHS, Config, load_config
from determinacy.errors import CaseFailure, ConfigError, RowError
from determinacy.proposer.patches import parse_patch
from determinacy.proposer.propose import propose
from determinacy.records import Proposal, Task
from determinacy.sources import hf
from determinacy.sources.rows import load_tasks, to_task
from determinacy.store import digest

HINTS = "Only pkg/core.py changes."
LIMIT = 4000  # the benchmark's policy.max_patch_bytes
SAFE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+@,~-]{0,199}")  # what a case id may be, whole
SHA = "0123456789abcdef0123456789abcdef01234567"
DROP = object()  # a key the row does not have at all


def safe_case_id(case_id: str) -> bool:
    return SAFE.fullmatch(case_id) is not None and ".." not in case_id


def edited(r: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`r` with `changes` applied: a DROP value removes the key."""
    for key, value in changes.items():
        if value is DROP:
            del r[key]
        else:
            r[key] = value
    return r


@dataclass
class Repo:
    mirror: str
    base: str
    gold: str
    test: str
    big_gold: str  # over LIMIT

    def good(self, instance_id: Any, **changes: Any) -> dict[str, Any]:
        return edited({**row("x", self.base, PROSE, self.gold, self.test), "hints": HINTS,
                       "instance_id": instance_id}, changes)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    root = tmp_path_factory.mktemp("mirrors")
    path = root / "acme" / "widgets"
    base = widgets_repo(path)
    added = "\n\ndef frobnicate_widget():\n    return 2\n"
    gold = diff(path, base, {"pkg/core.py": CORE + added})
    big_gold = diff(path, base, {"pkg/core.py": CORE + added + "# padding\n" * 500})
    test = diff(path, base, {"tests/test_core.py": TEST.replace(
        "import existing_helper", "import existing_helper, frobnicate_widget")
        + "\n\ndef test_new():\n    assert frobnicate_widget() == 2\n"})
    assert len(gold) < LIMIT < len(big_gold)
    return Repo(mirror=f"{root}/{{owner}}/{{name}}", base=base, gold=gold, test=test,
                big_gold=big_gold)


def benchmark(folder: Path, rows: list[dict[str, Any] | str], repo: Repo,
              prose: str = '["problem_statement", "hints"]') -> Path:
    cfg = write_benchmark(folder, rows, mirror=repo.mirror,
                          extra=f"[policy]\nmax_patch_bytes = {LIMIT}\n")
    text = cfg.read_text().replace('prose = ["problem_statement"]', f"prose = {prose}")
    cfg.write_text(text)
    return cfg


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


# -- one benchmark, every kind of row, through the CLI ------------------------------------------


def scenario(repo: Repo) -> list[tuple[dict[str, Any] | str, str, str, str]]:
    """(row, case id, verdict, what its error says) in source order: row N is line N."""
    g = repo.good
    return [
        (g("good"), "good", "AIRTIGHT", ""),
        # A broken row with a good row's id: the good row keeps it.
        ({"instance_id": "later-good"}, "row-2", "ERROR",
         "row 2: missing field `repo` (config key fields.repo)"),
        (g("later-good"), "later-good", "AIRTIGHT", ""),
        # A real id equal to a broken row's fallback: the broken row gets a further suffix.
        (g("row-5"), "row-5", "AIRTIGHT", ""),
        ('{"instance_id": "x",', "row-5-2", "ERROR", "row 5: not valid JSON"),
        (g("later-good"), "row-6", "ERROR",
         "row 6: duplicate instance_id 'later-good' (row 3 has it)"),
        ({"instance_id": "twice-broken"}, "twice-broken", "ERROR", "row 7: missing field"),
        ({"instance_id": "twice-broken"}, "row-8", "ERROR", "row 8: missing field"),
        # A raw id of the fallback form would take another broken row's id: never kept.
        ({"instance_id": "row-12"}, "row-9", "ERROR", "row 9: missing field"),
        (g("sur-prose", problem_statement="a \ud800 b"), "sur-prose", "ERROR",
         "row 10: field `problem_statement` is not valid text (a lone surrogate"),
        (g("bad\ud800id"), "row-11", "ERROR", "row 11: field `instance_id` is not valid text"),
        ("[1, 2]", "row-12", "ERROR", "row 12: expected a JSON object, got list"),
        (g("sur-patch", patch=repo.gold + "+x = '\udfff'\n"), "sur-patch", "ERROR",
         "row 13: field `patch` is not valid text"),
        (g("sur-f2p", FAIL_TO_PASS=["tests/a.py::b", "a::\udc00"]), "sur-f2p", "ERROR",
         "row 14: field `FAIL_TO_PASS[1]` is not valid text"),
        # A column no field maps is never read: its content cannot matter.
        (g("sur-unmapped", notes="\ud800"), "sur-unmapped", "AIRTIGHT", ""),
        (g("too-big", patch=repo.big_gold), "too-big", "ERROR",
         f"row 16: gold patch is {len(repo.big_gold):,} bytes, over the {LIMIT:,} bytes "
         "limit (policy.max_patch_bytes)"),
        (g("crlf", patch=crlf(repo.gold), test_patch=crlf(repo.test)), "crlf", "AIRTIGHT", ""),
        # A null prose field is there (it says nothing); a missing one is not.
        (g("null-hints", hints=None), "null-hints", "AIRTIGHT", ""),
        (g("no-hints", hints=DROP), "no-hints", "ERROR",
         "row 19: missing field `hints` (config key fields.prose[1])"),
        (g("trailing\n"), "row-20", "ERROR", "row 20: instance_id 'trailing\\n' is not a safe"),
        (g(12), "row-21", "ERROR", "row 21: field `instance_id` must be text, got int"),
        ('{"instance_id": "huge", "n": 1' + "0" * 5000 + "}", "row-22", "ERROR",
         "row 22: not valid JSON (Exceeds the limit"),
        ("[" * 50000, "row-23", "ERROR", "row 23: not valid JSON"),
        (g("nan-repo", repo=float("nan")), "nan-repo", "ERROR",
         "row 24: field `repo` must be text, got float"),
        (g("sur-test", test_patch=repo.test + "\ud800"), "sur-test", "ERROR",
         "row 25: field `test_patch` is not valid text"),
        (g("sur-hints", hints="\udbff"), "sur-hints", "ERROR",
         "row 26: field `hints` is not valid text"),
        (g("sur-base", base_commit="\ud800"), "sur-base", "ERROR",
         "row 27: field `base_commit` is not valid text"),
        ({"instance_id": "row-9"}, "row-28", "ERROR", "row 28: missing field"),
    ]


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory, repo: Repo) -> tuple[Audit, Path]:
    tmp = tmp_path_factory.mktemp("many")
    cfg = benchmark(tmp / "bench", [r for r, *_ in scenario(repo)], repo)
    audit = Audit(tmp)
    summary = audit.run(cfg)
    assert summary["failed"] == 0, summary  # conftest checks it completed (exit 0 or 3)
    return audit, cfg


def test_every_row_is_a_case_and_no_row_stops_the_audit(many: tuple[Audit, Path],
                                                        repo: Repo) -> None:
    audit, cfg = many
    expected = scenario(repo)
    assert audit.verdicts(cfg) == {case_id: verdict for _, case_id, verdict, _ in expected}
    errors = {e["case_id"]: e for e in audit.sql(cfg, "select * from errors")}
    for n, (_, case_id, verdict, message) in enumerate(expected, 1):
        if verdict != "ERROR":
            continue
        e = errors[case_id]
        assert e["row"] == n and e["phase"] == "load" and not e["transient"], e
        assert e["message"].startswith(message), (case_id, e["message"])
    receipts = audit.runs / "bench" / "cases"
    assert sorted(p.name for p in receipts.iterdir()) == sorted(c for _, c, _, _ in expected)


def test_error_rows_keep_their_raw_id_as_text(many: tuple[Audit, Path]) -> None:
    audit, cfg = many
    got = {t["case_id"]: t["instance_id"] for t in audit.sql(
        cfg, "select case_id, instance_id from tasks where not loaded")}
    assert got["row-2"] == "later-good" and got["row-6"] == "later-good"
    assert got["row-9"] == "row-12"
    assert got["row-11"] == "bad\\ud800id"  # escaped: a lone surrogate cannot be stored
    assert got["row-20"] == "trailing\n" and got["row-21"] == ""


def test_crlf_patches_give_the_same_witness_as_lf(many: tuple[Audit, Path]) -> None:
    audit, cfg = many
    q = ("select constant, kind, defuse, gold_at, test_at from candidates "
         "where case_id = '{}' and certified")
    assert audit.sql(cfg, q.format("crlf")) == audit.sql(cfg, q.format("good")) != []


def test_report_names_the_source_content_and_the_field_mapping(many: tuple[Audit, Path]) -> None:
    audit, cfg = many
    blake = digest((cfg.parent / "tasks.jsonl").read_bytes())
    for name in ("REPORT.md", "CLAIMS.md"):
        text = (audit.runs / "bench" / name).read_text()
        assert "- source: jsonl:tasks.jsonl\n" in text
        assert f"- source content: blake3 `{blake}` (the source files' bytes, in order)" in text
        assert ("- fields read: instance_id = `instance_id`, repo = `repo`, base_commit = "
                "`base_commit`, gold_patch = `patch`, test_patch = `test_patch`, "
                "fail_to_pass = `FAIL_TO_PASS`\n") in text
        assert "- prose shown to the solver, in order: `problem_statement`, `hints`\n" in text
    [run] = audit.sql(cfg, "select source_digest, prose_fields, fields['gold_patch'] as gold "
                           "from run")
    assert run == {"source_digest": blake, "prose_fields": ["problem_statement", "hints"],
                   "gold": "patch"}


# -- mapped fields must exist --------------------------------------------------------------------


def test_misspelled_prose_field_stops_the_run_naming_key_and_columns(tmp_path: Path,
                                                                    repo: Repo) -> None:
    """`requirement` for `requirements` once moved a headline from 12 to 45 claims."""
    rows: list[dict[str, Any] | str] = [repo.good("a", requirements="Keep it small.")]
    cfg = benchmark(tmp_path / "bench", rows, repo,
                    prose='["problem_statement", "requirement"]')
    res = CliRunner().invoke(main, ["run", str(cfg), "--store", str(tmp_path / "store"),
                                    "--runs", str(tmp_path / "runs")], catch_exceptions=False)
    assert res.exit_code == 2, res.output
    assert "key `fields.prose[1]`: no row read from the source has `requirement`" in res.output
    for column in ("FAIL_TO_PASS", "base_commit", "hints", "instance_id", "patch",
                   "problem_statement", "repo", "requirements", "test_patch"):
        assert f"`{column}`" in res.output, column
    assert "Traceback" not in res.output
    assert not (tmp_path / "runs").exists()


def jsonl_config(folder: Path, rows: list[Any], fields: dict[str, Any] | None = None,
                 extra: str = "") -> Config:
    """A config over a jsonl of `rows` (dicts, or str lines as they are)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    (folder / "t.jsonl").write_text("".join(line + "\n" for line in lines))
    mapping = {"instance_id": "instance_id", "repo": "repo", "base_commit": "base_commit",
               "gold_patch": "patch", "test_patch": "test_patch", "fail_to_pass": "f2p",
               "pass_to_pass": "p2p", "prose": ["problem_statement", "hints"], **(fields or {})}
    body = "".join(f"{k} = {json.dumps(v)}\n" for k, v in mapping.items() if v is not None)
    (folder / "c.toml").write_text(f'name = "t"\n[source]\njsonl = "t.jsonl"\n[fields]\n{body}'
                                   + extra)
    return load_config(folder / "c.toml")


GOLD = ("diff --git a/pkg/core.py b/pkg/core.py\n--- a/pkg/core.py\n+++ b/pkg/core.py\n"
        "@@ -1,2 +1,5 @@\n def existing_helper():\n     return 1\n+\n+def frobnicate_widget():\n"
        "+    return 2\n")
TESTP = ("diff --git a/tests/test_core.py b/tests/test_core.py\n--- a/tests/test_core.py\n"
         "+++ b/tests/test_core.py\n@@ -1,1 +1,4 @@\n from pkg.core import existing_helper\n"
         "+from pkg.core import frobnicate_widget\n+def test_new():\n"
         "+    assert frobnicate_widget() == 2\n")


def plain(id_: Any = "a", **changes: Any) -> dict[str, Any]:
    r = {"instance_id": id_, "repo": "acme/widgets", "base_commit": SHA,
         "patch": GOLD, "test_patch": TESTP, "f2p": ["tests/test_core.py::test_new"],
         "p2p": "[]", "problem_statement": PROSE, "hints": None}
    return edited(r, changes)


MAPPED = {"instance_id": "instance_id", "repo": "repo", "base_commit": "base_commit",
          "gold_patch": "patch", "test_patch": "test_patch", "fail_to_pass": "f2p",
          "pass_to_pass": "p2p"}


@pytest.mark.parametrize("key", [*MAPPED, "prose[0]", "prose[1]"])
def test_every_mapped_field_must_be_a_column(tmp_path: Path, key: str) -> None:
    if key.startswith("prose"):
        prose = ["problem_statement", "hints"]
        prose[int(key[-2])] = "nope"
        fields: dict[str, Any] = {"prose": prose}
    else:
        fields = {key: "nope"}
    cfg = jsonl_config(tmp_path, [plain("a"), plain("b")], fields)
    with pytest.raises(ConfigError) as info:
        load_tasks(cfg)
    assert info.value.key == f"fields.{key}"
    assert "no row read from the source has `nope`; the columns are: `instance_id`, `repo`, " \
           "`base_commit`, `patch`, `test_patch`, `f2p`, `p2p`, `problem_statement`, " \
           "`hints`" in str(info.value)


def test_a_row_missing_a_mapped_field_is_an_error_naming_it(tmp_path: Path) -> None:
    rows = [plain("a"), plain("b", p2p=DROP), plain("c", hints=DROP), plain("d", p2p=None),
            plain("e", hints="")]
    loaded = load_tasks(jsonl_config(tmp_path, rows))
    assert [t.case_id for t in loaded.tasks] == ["a", "d", "e"]
    assert [(e.case_id, e.message) for e in loaded.errors] == [
        ("b", "row 2: missing field `p2p` (config key fields.pass_to_pass)"),
        ("c", "row 3: missing field `hints` (config key fields.prose[1])"),
    ]


def test_pass_to_pass_is_checked_only_when_mapped(tmp_path: Path) -> None:
    loaded = load_tasks(jsonl_config(tmp_path, [plain("a", p2p=DROP)], {"pass_to_pass": None}))
    assert [t.case_id for t in loaded.tasks] == ["a"] and not loaded.errors


def test_dotted_fields_are_checked_and_the_message_lists_the_nested_keys(tmp_path: Path) -> None:
    rows = [{**plain(), "meta": {"id": "a", "org": "acme"}},
            {**plain(), "meta": "not an object"}, {**plain(), "meta": None}]
    loaded = load_tasks(jsonl_config(tmp_path, rows, {"instance_id": "meta.id"}))
    assert [t.case_id for t in loaded.tasks] == ["a"]
    assert [e.message for e in loaded.errors] == [
        f"row {n}: missing field `meta.id` (config key fields.instance_id)" for n in (2, 3)]
    with pytest.raises(ConfigError, match=r"fields\.instance_id.*no row read from the source "
                                          r"has `meta\.idd`; `meta` has: `id`, `org`"):
        load_tasks(jsonl_config(tmp_path, rows, {"instance_id": "meta.idd"}))


def test_the_column_check_is_over_the_rows_read(tmp_path: Path) -> None:
    """--limit N reads N rows: a column only later rows have is not there for this run."""
    cfg = jsonl_config(tmp_path, [plain("a", extra="x"), plain("b")],
                       {"prose": ["problem_statement", "extra"]})
    assert [t.case_id for t in load_tasks(cfg, limit=1).tasks] == ["a"]
    cfg = jsonl_config(tmp_path, [plain("a"), plain("b", extra="x")],
                       {"prose": ["problem_statement", "extra"]})
    with pytest.raises(ConfigError, match="fields.prose"):
        load_tasks(cfg, limit=1)
    assert [e.case_id for e in load_tasks(cfg).errors] == ["a"]


@pytest.mark.parametrize("column", ["", "a..b", ".a", "a."])
def test_a_field_that_is_no_column_name_is_a_config_error(tmp_path: Path, column: str) -> None:
    with pytest.raises(ConfigError, match=r"key `fields\.prose\[1\]`: .* not a column name"):
        jsonl_config(tmp_path, [plain()], {"prose": ["problem_statement", column]})


def test_source_digest_is_blake3_of_the_files_in_order(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = jsonl_config(tmp_path, [plain("a")])
    assert load_tasks(cfg).source_digest == digest((tmp_path / "t.jsonl").read_bytes())
    data = tmp_path / "data"
    data.mkdir()
    for i, ids in enumerate((["b", "c"], ["a"])):
        pq.write_table(pa.Table.from_pylist([plain(x) for x in ids]),
                       data / f"train-{i:05}.parquet")
    files = sorted(data.glob("*.parquet"))
    whole = digest(b"".join(f.read_bytes() for f in files))
    text = (tmp_path / "c.toml").read_text()
    (tmp_path / "pq.toml").write_text(text.replace('jsonl = "t.jsonl"', 'parquet = "data/*"'))
    loaded = load_tasks(load_config(tmp_path / "pq.toml"))
    assert [t.case_id for t in loaded.tasks] == ["b", "c", "a"]
    assert loaded.source_digest == whole
    # Hugging Face: the downloaded parquet files are the source.
    monkeypatch.setattr(hf, "download_split", lambda *a: (files, "f" * 40))
    (tmp_path / "hf.toml").write_text(text.replace('jsonl = "t.jsonl"', 'hf_dataset = "o/b"'))
    loaded = load_tasks(load_config(tmp_path / "hf.toml"))
    assert (loaded.source_digest, loaded.revision, len(loaded.tasks)) == (whole, "f" * 40, 3)


def test_a_missing_tasks_file_is_a_config_error(tmp_path: Path) -> None:
    cfg = jsonl_config(tmp_path, [plain()])
    (tmp_path / "t.jsonl").unlink()
    with pytest.raises(ConfigError, match=r"key `source\.jsonl`: cannot read the tasks file"):
        load_tasks(cfg)


def test_an_unreadable_parquet_file_is_a_config_error(tmp_path: Path) -> None:
    cfg = jsonl_config(tmp_path, [plain()])
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really parquet")
    text = (tmp_path / "c.toml").read_text()
    (tmp_path / "pq.toml").write_text(text.replace('jsonl = "t.jsonl"',
                                                   'parquet = "bad.parquet"'))
    with pytest.raises(ConfigError, match=r"key `source\.parquet`: cannot read the parquet"):
        load_tasks(load_config(tmp_path / "pq.toml"))
    assert cfg.name == "t"


# -- ids never collide -------------------------------------------------------------------------


def test_a_broken_row_never_takes_a_good_rows_id(tmp_path: Path) -> None:
    rows: list[Any] = ["not json", plain("row-1"), {"instance_id": "b"}, plain("b"),
                       plain("b"), plain("row-1")]
    loaded = load_tasks(jsonl_config(tmp_path, rows))
    assert [(t.case_id, t.row) for t in loaded.tasks] == [("row-1", 2), ("b", 4)]
    assert [(e.case_id, e.instance_id) for e in loaded.errors] == [
        ("row-1-2", ""), ("row-3", "b"), ("row-5", "b"), ("row-6", "row-1")]
    assert loaded.errors[0].message.startswith("row 1: not valid JSON")
    assert [e.message for e in loaded.errors[1:]] == [
        "row 3: missing field `repo` (config key fields.repo)",
        "row 5: duplicate instance_id 'b' (row 4 has it)",
        "row 6: duplicate instance_id 'row-1' (row 2 has it)",
    ]


IDS = ["a", "b", "row-1", "row-2", "row-2-2", "row-3", "x..y", "", "bad id", "a\n"]


@settings(max_examples=60, deadline=timedelta(seconds=2), database=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.booleans()), min_size=1, max_size=8))
def test_case_ids_are_unique_and_safe_whatever_the_ids(spec: list[tuple[str, bool]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # Broken by a value, not a missing column: a column no row has is a config error.
        rows = [plain(i) if good else plain(i, base_commit="zz") for i, good in spec]
        loaded = load_tasks(jsonl_config(Path(tmp), rows))
    ids = [t.case_id for t in loaded.tasks] + [e.case_id for e in loaded.errors]
    assert len(ids) == len(set(ids)) == len(spec)
    assert all(safe_case_id(i) for i in ids), ids
    first: dict[str, int] = {}
    for n, (i, good) in enumerate(spec, 1):
        if good and safe_case_id(i) and i not in first:
            first[i] = n
    # The first good row with an id is audited under it; nothing else is.
    assert {t.case_id: t.row for t in loaded.tasks} == first


# -- any field of any row: never a traceback -----------------------------------------------------


FIELD_OF = {"instance_id": "instance_id", "repo": "repo", "base_commit": "base_commit",
            "patch": "patch", "test_patch": "test_patch", "problem_statement": "problem_statement",
            "hints": "hints", "f2p": "f2p[0]", "p2p": "p2p[0]"}


@pytest.mark.parametrize("column", sorted(FIELD_OF))
def test_a_lone_surrogate_in_any_field_is_an_error_naming_it(tmp_path: Path,
                                                            column: str) -> None:
    value: Any = ["\ud800"] if column in ("f2p", "p2p") else "x\ud800"
    cfg = jsonl_config(tmp_path, [plain("a"), plain("b", **{column: value})])
    loaded = load_tasks(cfg)
    assert [t.case_id for t in loaded.tasks] == ["a"]
    [e] = loaded.errors
    assert e.message.startswith(f"row 2: field `{FIELD_OF[column]}` is not valid text"), e
    msgspec.json.encode(loaded.errors)  # storable
    # Test ids given as a string holding a Python list literal: the same.
    if column in ("f2p", "p2p"):
        to = plain("b", **{column: "['\\ud800']"})
        with pytest.raises(RowError, match=rf"`{column}\[0\]` is not valid text"):
            to_task(cfg, 2, to)


def test_raw_surrogate_bytes_on_a_line_are_an_error(tmp_path: Path) -> None:
    cfg = jsonl_config(tmp_path, [plain("a")])
    line = json.dumps(plain("b")).replace(PROSE, "x \\ud800 y").encode()
    line = line.replace(b"\\ud800", "\ud800".encode("utf-8", "surrogatepass"))
    with (tmp_path / "t.jsonl").open("ab") as f:
        f.write(line + b"\n")
    loaded = load_tasks(cfg)
    assert [t.case_id for t in loaded.tasks] == ["a"]
    assert loaded.errors[0].message.startswith("row 2: field `problem_statement` is not valid")


@pytest.mark.parametrize(("changes", "message"), [
    ({"instance_id": 7}, "field `instance_id` must be text, got int"),
    ({"instance_id": ["a"]}, "field `instance_id` must be text, got list"),
    ({"repo": {"owner": "a"}}, "field `repo` must be text, got dict"),
    ({"patch": 10 ** 5000}, "field `patch` must be text, got int"),
    ({"test_patch": float("nan")}, "field `test_patch` must be text, got float"),
    ({"problem_statement": ["a", "b"]}, "field `problem_statement` must be text, got list"),
    ({"f2p": "1" * 5000}, "field `f2p` is neither a list"),
    ({"f2p": "{[]: 1}"}, "field `f2p` is neither a list"),
    ({"f2p": "[" * 10000}, "field `f2p` is neither a list"),
    ({"f2p": [1, 2]}, "field `f2p` must be a list of test ids"),
    ({"p2p": "\x00"}, "field `p2p` is neither a list"),
    ({"instance_id": "ok\n"}, "instance_id 'ok\\n' is not a safe name"),
    ({"instance_id": "a" * 201}, "is not a safe name"),
    ({"repo": "acme/widgets\nx"}, "repo 'acme/widgets\\nx' is not of the form owner/name"),
    ({"base_commit": SHA + "\nzz"}, "is not a commit hash"),
])
def test_odd_values_are_row_errors(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    cfg = jsonl_config(tmp_path, [plain()])
    with pytest.raises(RowError) as info:
        to_task(cfg, 3, plain(**changes))
    assert str(info.value).startswith("row 3: ") and message in str(info.value)


def test_a_patch_over_the_default_limit_is_an_error_naming_the_key(tmp_path: Path) -> None:
    cfg = jsonl_config(tmp_path, [plain()])
    assert cfg.policy.max_patch_bytes == 16_000_000
    big = GOLD + "+# padding\n" * 1_555_000  # 17.1 MB
    with pytest.raises(RowError, match=r"^row 1: gold patch is 17\.1 MB, over the 16 MB limit "
                                       r"\(policy\.max_patch_bytes\)$"):
        to_task(cfg, 1, plain(patch=big))
    with pytest.raises(RowError, match=r"^row 1: test patch is 17\.1 MB"):
        to_task(cfg, 1, plain(test_patch=big))
    with pytest.raises(ConfigError, match=r"key `policy\.max_patch_bytes`"):
        jsonl_config(tmp_path, [plain()], extra="[policy]\nmax_patch_bytes = 0\n")


def test_a_trailing_newline_in_the_config_name_is_rejected(tmp_path: Path) -> None:
    jsonl_config(tmp_path, [plain()])
    text = (tmp_path / "c.toml").read_text()
    for name in ('"bench\\n"', '"bench\\r"', '"a/b"'):
        (tmp_path / "c.toml").write_text(text.replace('"t"', name, 1))
        with pytest.raises(ConfigError, match=r"key `name`"):
            load_config(tmp_path / "c.toml")


# -- patches: CRLF, and the fuzz of the parser and the proposer ----------------------------------


def test_crlf_patches_yield_the_same_candidates_as_lf() -> None:
    lf = propose(GOLD, TESTP, DEFAULT_TEST_PATHS, 3)
    assert [c.constant for c in lf.candidates if not c.trivial] == ["frobnicate_widget"]
    assert propose(crlf(GOLD), crlf(TESTP), DEFAULT_TEST_PATHS, 3) == lf
    assert propose(crlf(GOLD), TESTP, DEFAULT_TEST_PATHS, 3) == lf


PATHS = ["pkg/core.py", "tests/test_core.py", "cmd/main.go", "web/app.ts", "conf/x.json",
         "README.md", "Makefile", "a b/c.rb", "src/lib.rs", "x", "pkg/\u00e9t\u00e9.py"]
CODE = ["def frobnicate_widget(a, b):", "    return {'key': 2}", "func Render(w io.Writer) {",
        "const LIMIT = 42;", '    "name": "value",', "class Foo(Bar):", "x = \"\"\"", "# note",
        "import os", "}", "", "@@ -1 +1 @@", "diff --git a/x b/x", "--- a/x", "+++ b/x", "\\",
        "Binary files a/x and b/x differ", "\t", "'unterminated", "/* open comment"]
SURROGATES = ["\ud800", "\udfff", "a\udc80b"]
line_text = st.one_of(st.sampled_from(CODE), st.text(max_size=20).map(lambda s: s.replace("\n",
                                                                                          "")))


@st.composite
def real_diffs(draw: st.DrawFn, cr: bool = True) -> str:
    """A unified diff as git writes one: difflib's hunks under a `diff --git` header."""
    out = []
    for path in draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3, unique=True)):
        old = draw(st.lists(line_text, max_size=6))
        new = list(old)
        for _ in range(draw(st.integers(1, 4))):
            new.insert(draw(st.integers(0, len(new))), draw(line_text))
        if cr is False:
            old = [s.replace("\r", "") for s in old]
            new = [s.replace("\r", "") for s in new]
        body = "".join(f"{s}\n" for s in difflib.unified_diff(
            old, new, f"a/{path}", f"b/{path}", lineterm=""))
        out.append(f"diff --git a/{path} b/{path}\n" + body)
    return "".join(out)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A diff broken the ways real data breaks: cut, spliced, CRLF, bad bytes, wrong counts."""
    text = draw(base)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        op = draw(st.sampled_from(["insert", "delete", "crlf", "surrogate", "truncate",
                                   "duplicate", "digits", "marker"]))
        if op == "insert":
            text = text[:i] + draw(st.text(max_size=8)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "crlf":
            text = text[:i] + text[i:j].replace("\n", "\r\n") + text[j:]
        elif op == "surrogate":
            text = text[:i] + draw(st.sampled_from(SURROGATES)) + text[i:]
        elif op == "truncate":
            text = text[:i]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "digits":
            text = re.sub(r"\d+", lambda m: str(draw(st.integers(0, 99999))), text, count=2)
        else:
            text = text[:i] + draw(st.sampled_from(
                ["\n\\ No newline at end of file\n", "\nGIT binary patch\nliteral 0\n",
                 "\nnew file mode 100644\n", "\ndeleted file mode 100644\n", "\n@@ -0,0 +1 @@\n",
                 "\nrename from a\nrename to b\n", "\x00", "\r"])) + text[i:]
    return text


# Real-looking diffs twice as often: they reach the lexers and the proposer's matching.
diffs = st.one_of(real_diffs(), real_diffs(), mutated(real_diffs()),
                  mutated(st.sampled_from([GOLD, TESTP])), st.text(max_size=200))
FUZZ = settings(max_examples=150, deadline=timedelta(seconds=2), database=None,
                suppress_health_check=[HealthCheck.too_slow])


def storable(*texts: str) -> bool:
    return all(not re.search("[\ud800-\udfff]", t) for t in texts)


@FUZZ
@example(text=crlf(GOLD))
@example(text="diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,99999999 +1,99999999 @@\n+a\n")
@given(text=diffs)
def test_parse_patch_raises_only_its_named_error(text: str) -> None:
    try:
        files = parse_patch(text, "gold patch")
    except CaseFailure as e:
        assert str(e).startswith("gold patch ")
        return
    for f in files:
        assert isinstance(f.path, str)
        for hunk in f.hunks:
            assert all(isinstance(ln, int) for ln, _, _ in hunk)


@FUZZ
@given(gold=diffs, test=diffs)
def test_propose_never_raises(gold: str, test: str) -> None:
    p = propose(gold, test, DEFAULT_TEST_PATHS, 3)
    assert isinstance(p, Proposal)
    if storable(gold, test):
        msgspec.json.encode(p)  # what the propose phase stores
    if not p.error:
        assert all(c.gold_at and c.test_at for c in p.candidates)


@settings(max_examples=80, deadline=timedelta(seconds=2), database=None)
@given(gold=real_diffs(cr=False), test=real_diffs(cr=False))
def test_crlf_line_endings_never_change_the_candidates(gold: str, test: str) -> None:
    assert propose(crlf(gold), crlf(test), DEFAULT_TEST_PATHS, 3) == \
        propose(gold, test, DEFAULT_TEST_PATHS, 3)


# -- fuzz of the row loader ----------------------------------------------------------------------


COLUMNS = ["instance_id", "repo", "base_commit", "patch", "test_patch", "f2p", "p2p",
           "problem_statement", "hints", "meta", "other"]
texts = st.one_of(st.text(max_size=12), st.sampled_from(SURROGATES),
                  st.tuples(st.text(max_size=6), st.sampled_from(SURROGATES + ["\n", "\r\n"]),
                            st.text(max_size=6)).map("".join),
                  st.sampled_from(["acme/widgets", SHA, GOLD, TESTP, "['a::b']", "[1]", "../x"]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.just(0).map(lambda _: 10 ** 5000),
                    st.floats(allow_nan=True, allow_infinity=True), texts, st.binary(max_size=4))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner),
    st.dictionaries(st.sampled_from(["id", "x", *SURROGATES]) | st.text(max_size=3), inner,
                    max_size=3)),
    max_leaves=8)


@st.composite
def mutated_rows(draw: st.DrawFn) -> dict[str, Any]:
    r: dict[str, Any] = plain(draw(st.sampled_from(["a", "b", "row-1"])))
    for _ in range(draw(st.integers(0, 4))):
        key = draw(st.sampled_from(COLUMNS))
        op = draw(st.sampled_from(["set", "drop", "splice", "nest", "dotted"]))
        if op == "set":
            r[key] = draw(values)
        elif op == "drop":
            r.pop(key, None)
        elif op == "splice" and isinstance(r.get(key), str):
            i = draw(st.integers(0, len(r[key])))
            r[key] = r[key][:i] + draw(texts) + r[key][i:]
        elif op == "nest":
            r["meta"] = {"id": r.get(key), "inner": draw(values)}
        elif op == "dotted":  # what the dotted config reads, with a random text
            r["meta"] = {"id": draw(st.sampled_from(["a", "b"]) | texts),
                         "inner": {"text": draw(texts)}}
    return r


rows_ = st.one_of(mutated_rows(), st.dictionaries(st.sampled_from(COLUMNS + SURROGATES), values,
                                                  max_size=8))


@pytest.fixture(scope="module")
def fuzz_cfg(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return jsonl_config(tmp_path_factory.mktemp("fuzz"), [plain()])


@pytest.fixture(scope="module")
def dotted_cfg(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return jsonl_config(tmp_path_factory.mktemp("dotted"), [plain()],
                        {"instance_id": "meta.id", "prose": ["meta.inner.text", "hints"]})


def check_task(task: Task) -> None:
    msgspec.json.encode(task)  # storable: no lone surrogate got through
    assert safe_case_id(task.case_id) and task.case_id == task.instance_id


@settings(max_examples=200, deadline=timedelta(seconds=2), database=None)
@given(r=rows_, n=st.integers(1, 10 ** 6))
def test_to_task_raises_only_row_errors(fuzz_cfg: Config, dotted_cfg: Config, r: dict[str, Any],
                                        n: int) -> None:
    for cfg in (fuzz_cfg, dotted_cfg):
        try:
            task = to_task(cfg, n, r)
        except RowError as e:
            assert str(e).startswith(f"row {n}: ")
            str(e).encode("utf-8")  # a message is always storable
            continue
        check_task(task)


HUGE = "1" + "0" * 5000


def dumps(value: Any) -> str:
    """JSON of a drawn row: bytes as their repr; a huge int as its digits, which json.dumps
    refuses to write (past Python's digit limit) but a jsonl file may hold."""

    def tame(v: Any) -> Any:
        if isinstance(v, int) and not isinstance(v, bool) and v > 10 ** 4000:
            return "__HUGE__"
        if isinstance(v, dict):
            return {k: tame(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [tame(x) for x in v]
        return v

    return json.dumps(tame(value), default=repr).replace('"__HUGE__"', HUGE)


@st.composite
def jsonl_lines(draw: st.DrawFn) -> bytes:
    good = json.dumps(plain()).encode()
    kind = draw(st.sampled_from(["row", "mutated", "text", "bytes", "good"]))
    if kind == "row":
        return dumps(draw(rows_)).encode()
    if kind == "mutated":
        i = draw(st.integers(0, len(good)))
        return good[:i] + draw(st.binary(max_size=6)) + good[i + draw(st.integers(0, 8)):]
    if kind == "text":
        return draw(texts).encode("utf-8", "surrogatepass")
    return draw(st.binary(max_size=40)) if kind == "bytes" else good


@settings(max_examples=100, deadline=timedelta(seconds=2), database=None)
@given(lines=st.lists(jsonl_lines(), min_size=1, max_size=6),
       limit=st.none() | st.integers(1, 6))
def test_load_tasks_yields_a_case_per_row_or_a_config_error(fuzz_cfg: Config,
                                                           lines: list[bytes],
                                                           limit: int | None) -> None:
    path = Path(fuzz_cfg.root) / "t.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    try:
        loaded = load_tasks(fuzz_cfg, limit)
    except ConfigError as e:
        assert e.key.startswith("fields.") and "no row read from the source has" in str(e)
        str(e).encode("utf-8")  # printable, whatever the columns are called
        return
    rows = [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]
    assert len(loaded.tasks) + len(loaded.errors) == min(len(rows), limit or len(rows))
    ids = [t.case_id for t in loaded.tasks] + [e.case_id for e in loaded.errors]
    assert len(set(ids)) == len(ids) and all(safe_case_id(i) for i in ids), ids
    for t in loaded.tasks:
        check_task(t)
    msgspec.json.encode(loaded.errors)
    assert loaded.source_digest == digest(path.read_bytes())


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
                max_size=5),
       st.sampled_from(["'", '"']), st.sampled_from([", ", ",", " , "]), st.booleans())
def test_python_list_literals_read_like_literal_eval(items: list[str], q: str, sep: str,
                                                     trailing: bool) -> None:
    """The fast path for `['a', 'b']` gives what ast.literal_eval gives, or steps aside."""
    import ast

    from determinacy.sources.rows import _simple_list

    text = "[" + sep.join(repr(i) if q == "'" else json.dumps(i) for i in items) \
        + ("," if trailing and items else "") + "]"
    fast = _simple_list(text)
    assert fast is None or fast == ast.literal_eval(text)
