"""Output programs can read (issue 23, item 8): report.json holds numbers under a published
schema, SQL says NULL where a value does not apply, settle steps carry stable codes, and `sql`
and `export` write the same five formats to stdout or to --out."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import ROOT, Audit, message_task, new_helper, row, widgets_repo, write_benchmark

from determinacy.reports.summary import Report
from determinacy.schemas import schema_files

FORMATS = ("markdown", "csv", "json", "jsonl", "parquet")
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


@pytest.fixture(scope="module")
def done(tmp_path_factory: pytest.TempPathFactory) -> tuple[Audit, Path]:
    """A small real audit: an AIRTIGHT name, a message, a name the prose states, and a row
    that does not load (ERROR)."""
    tmp = tmp_path_factory.mktemp("outputs")
    repo = tmp / "mirrors" / "acme" / "widgets"
    base = widgets_repo(repo)
    gold, test = new_helper(repo, base, "frobnicate_widget")
    stated_gold, stated_test = new_helper(repo, base, "double_widget", 3)
    msg_gold, msg_test = message_task(repo, base, "greeting", "hello there, widget maker")
    broken = row("t-4", base, "Broken.", gold, test)
    del broken["base_commit"]
    cfg = write_benchmark(tmp / "bench", [
        row("t-1", base, "Add a second helper to pkg.core that returns two.", gold, test),
        row("t-2", base, "Add `double_widget` to pkg.core: it returns 3.", stated_gold,
            stated_test),
        row("t-3", base, "Add a greeting to pkg.core.", msg_gold, msg_test),
        broken], mirror=f"{tmp}/mirrors/{{owner}}/{{name}}")
    audit = Audit(tmp)
    audit.run(cfg, "--quiet")
    return audit, cfg


def keys(value: Any, at: str = "") -> list[str]:
    """Every object key in a JSON value, with where it is."""
    if isinstance(value, dict):
        return [k2 for k, v in value.items() for k2 in [f"{at}.{k}", *keys(v, f"{at}.{k}")]]
    if isinstance(value, list):
        return [k for v in value for k in keys(v, at)]
    return []


def test_report_json_holds_numbers_under_the_published_schema(done: tuple[Audit, Path],
                                                                tmp_path: Path) -> None:
    audit, cfg = done
    text = (audit.runs / "bench" / "report.json").read_text()
    # The struct the schema is generated from decodes it strictly (no unknown or missing key,
    # every type, every fraction in 0..1, every interval two of them), and schemas/ publishes
    # that very struct.
    report = msgspec.json.decode(text, type=Report)
    assert (ROOT / "schemas" / "Report.json").read_text() == schema_files()["Report.json"]
    data = json.loads(text)
    assert not [k for k in keys(data) if not SNAKE.match(k.rsplit(".", 1)[-1])]
    s = data["spine"]
    assert (s["spine"], s["audited"], s["errors"], s["total"]) == (2, 3, 1, 4)
    assert s["rate"] == 2 / 3 and isinstance(s["audited"], int)
    low, high = s["wilson_95"]
    assert 0 < low < s["rate"] < high < 1
    tiers = {t["verdict"]: t for t in data["tiers"]}
    assert tiers["AIRTIGHT"]["share"] == 2 / 3 and len(tiers["AIRTIGHT"]["wilson_95"]) == 2
    # Not applicable is null, never a placeholder: ERROR is not audited, no agent ran.
    assert tiers["ERROR"]["share"] is None and tiers["ERROR"]["wilson_95"] is None
    assert tiers["MISDETERMINED"]["ran"] is False and tiers["AIRTIGHT"]["ran"] is True
    assert data["run"]["agent"] is None and data["run"]["source_revision"] is None
    [unloaded] = [g for g in data["groups"]
                  if g["dimension"] == "repository" and g["audited"] == 0]
    assert unloaded["rate"] is None and unloaded["wilson_95"] is None
    [error] = data["errors"]
    assert (error["case_id"], error["phase"], error["transient"]) == ("t-4", "load", False)
    assert data["screen"] == data["agent"] == data["passes"] == []
    assert report.refutation.contested == 0
    # The same tables give the same bytes (no timestamp).
    res = audit.invoke("report", str(cfg), "--store", str(audit.store), "--runs",
                       str(tmp_path / "again"))
    assert res.exit_code == 0, res.output
    assert (tmp_path / "again" / "bench" / "report.json").read_text() == text


def test_sql_says_null_where_a_value_does_not_apply(done: tuple[Audit, Path]) -> None:
    from determinacy.reports.query import connect
    from determinacy.store import Store

    audit, cfg = done
    con = connect(Store(audit.store), "bench")
    texts: dict[str, list[str]] = {}
    for view, col in con.sql(
            "SELECT table_name, column_name FROM information_schema.columns WHERE data_type "
            "= 'VARCHAR' AND table_name NOT LIKE 't\\_%' ESCAPE '\\'").fetchall():
        if col != "constant":  # a constant is the literal itself: '' is a value there
            texts.setdefault(view, []).append(col)
    assert sum(map(len, texts.values())) > 50
    placeholders = {}
    for view, cols in texts.items():  # one query per view: each is computed once
        counts = con.sql("SELECT " + ", ".join(
            f"count(*) FILTER (WHERE \"{c}\" IN ('', '-', 'n/a'))" for c in cols)
            + f" FROM \"{view}\"").fetchall()[0]
        placeholders.update({f"{view}.{c}": n for c, n in zip(cols, counts, strict=True) if n})
    assert placeholders == {}
    one = {r["case_id"]: r for r in audit.sql(cfg, "SELECT * FROM verdicts")}
    assert one["t-1"]["verdict"] == "AIRTIGHT"
    assert one["t-1"]["error"] is None and one["t-1"]["error_phase"] is None
    assert one["t-4"]["verdict"] == "ERROR" and one["t-4"]["repo"] is None
    assert audit.sql(cfg, "SELECT count(*) AS n FROM witnesses WHERE refuter IS NULL "
                          "AND reason IS NULL")[0]["n"] == 2
    # Not in the prose, not in the codebase: NULL; stated in the prose: how it matched.
    stated = audit.sql(cfg, "SELECT prose_match, codebase_at FROM candidates "
                            "WHERE constant = 'double_widget'")
    assert stated == [{"prose_match": "exact", "codebase_at": None}]


def readme_codes() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("#### Settle steps", 1)[1].split("\n\n", 3)[2]
    return re.findall(r"^\| `([a-z_]+)` \|", table, re.M)


def test_settle_steps_have_stable_documented_codes(done: tuple[Audit, Path]) -> None:
    audit, cfg = done
    steps = audit.sql(cfg, "SELECT code, step FROM settle_steps ORDER BY ord")
    codes = [s["code"] for s in steps]
    assert codes == readme_codes() and len(set(codes)) == len(codes) == 13
    assert all(SNAKE.match(c) and s["step"] for c, s in zip(codes, steps, strict=True))
    settled = {r["constant"]: r["code"] for r in audit.sql(cfg, "SELECT * FROM settled")}
    assert settled["frobnicate_widget"] == "certified"
    assert settled["double_widget"] == "in_prose"
    assert set(settled.values()) <= set(codes)
    funnel = json.loads((audit.runs / "bench" / "report.json").read_text())["funnel"]
    assert [f["code"] for f in funnel][:2] == ["proposed", "nothing_graded"]
    help_text = " ".join(audit.invoke("sql", "--help").output.split())
    assert all(c in help_text for c in codes)


def read_back(path: Path, fmt: str) -> list[dict[str, Any]]:
    """The rows a file holds, as a program reads each format."""
    text = path.read_text(encoding="utf-8") if fmt != "parquet" else ""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    if fmt == "json":
        return json.loads(text)
    if fmt == "jsonl":
        return [json.loads(line) for line in text.splitlines()]
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(text)))
    head, _, *body = text.splitlines()
    cols = [c.strip() for c in head.strip("|").split("|")]
    return [dict(zip(cols, (c.strip() for c in line.strip("|").split("|")), strict=True))
            for line in body]


QUERY = "SELECT case_id, verdict, error FROM verdicts ORDER BY case_id"


@pytest.mark.parametrize("fmt", FORMATS)
def test_sql_and_export_write_every_format_to_out(done: tuple[Audit, Path], tmp_path: Path,
                                                   fmt: str) -> None:
    audit, cfg = done
    for command in (["sql", str(cfg), QUERY], ["export", str(cfg), "--what", "verdicts"]):
        out = tmp_path / f"{command[0]}.{fmt}"
        res = audit.invoke(*command, "--store", str(audit.store), "--format", fmt,
                           "--out", str(out))
        assert res.exit_code == 0 and res.output == "", res.output
        got = read_back(out, fmt)
        assert [r["case_id"] for r in got] == ["t-1", "t-2", "t-3", "t-4"]
        assert [r["verdict"] for r in got][0] == "AIRTIGHT"
        # NULL: null in JSON and parquet, an empty cell in markdown and csv.
        assert got[0]["error"] == (None if fmt in ("json", "jsonl", "parquet") else "")
        if fmt != "parquet":  # the same text on stdout
            res = audit.invoke(*command, "--store", str(audit.store), "--format", fmt)
            assert res.stdout == out.read_text(encoding="utf-8")


def test_parquet_through_the_cli_process(done: tuple[Audit, Path], tmp_path: Path) -> None:
    """As a shell user types it: parquet to a file DuckDB reads back; none without --out."""
    import duckdb

    audit, cfg = done
    out = tmp_path / "v.parquet"
    base = [sys.executable, "-m", "determinacy.cli", "sql", str(cfg), QUERY,
            "--store", str(audit.store), "--format", "parquet"]
    p = subprocess.run([*base, "--out", str(out)], capture_output=True, text=True, check=False)
    assert p.returncode == 0 and p.stdout == "", p.stderr
    got = duckdb.sql(f"SELECT case_id, error FROM read_parquet('{out}') ORDER BY 1").fetchall()
    assert got[0] == ("t-1", None) and len(got) == 4
    p = subprocess.run(base, capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "--format parquet needs --out FILE" in p.stderr
