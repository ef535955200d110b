"""`run --instance-ids / --repo / --filter / --limit`: the rows audited are the ones asked for,
the report says which, the same selection gives the same bytes, and a selected case is the
same case as in a full run (a full run serves it from the cache)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import new_helper, row, widgets_repo, write_benchmark

from determinacy.selection import FilterError, check_filter


@dataclass
class Bench:
    cfg: Path


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    """Two repositories, three tasks, one broken row; `difficulty` kept from the source."""
    root = tmp_path_factory.mktemp("mirrors")
    rows: list[dict[str, Any]] = []
    for repo, tasks in (("widgets", [("w-1", "easy"), ("w-2", "hard")]),
                        ("gadgets", [("g-1", "hard")])):
        path = root / "acme" / repo
        base = widgets_repo(path)
        for i, (iid, difficulty) in enumerate(tasks):
            fn = f"frobnicate_{repo}_{i}"
            gold, test = new_helper(path, base, fn, i, inline_import=True)
            r = row(iid, base, f"Add `{fn}` to pkg.core." if i else "Add a helper to pkg.core.",
                    gold, test, repo=f"acme/{repo}")
            rows.append({**r, "difficulty": difficulty})
    broken = {**rows[0], "instance_id": "bad-1"}
    del broken["base_commit"]
    rows.append(broken)
    cfg = write_benchmark(tmp_path_factory.mktemp("bench"), rows,
                          mirror=f"{root}/{{owner}}/{{name}}")
    text = cfg.read_text().replace('name = "bench"\n', 'name = "bench"\nallow_errors = true\n')
    cfg.write_text(text.replace("[fields]\n", '[fields]\nkeep = ["difficulty"]\n'))
    return Bench(cfg=cfg)


def run(cfg: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "determinacy.cli", "run", str(cfg), *args,
                           "--store", str(tmp / "store"), "--runs", str(tmp / "runs"), "--json"],
                          capture_output=True, text=True, cwd=tmp, timeout=300)


def summary(p: subprocess.CompletedProcess) -> dict[str, Any]:
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def report(tmp: Path) -> tuple[str, dict[str, Any]]:
    out = tmp / "runs" / "bench"
    return (out / "REPORT.md").read_text(), json.loads((out / "report.json").read_text())


def test_instance_ids_select_those_rows_the_same_bytes_and_a_full_run_reuses_them(
        bench: Bench, tmp_path: Path) -> None:
    # The harness's form: several ids after one flag (a broken row's id selects its ERROR).
    first = summary(run(bench.cfg, tmp_path, "--instance-ids", "w-2", "g-1", "bad-1"))
    assert first["verdicts"]["ERROR"] == 1 and sum(first["verdicts"].values()) == 3
    assert first["executed_by_phase"]["propose"] == 2  # w-1 is not audited
    text, data = report(tmp_path)
    chosen = data["run"]["selection"]
    assert chosen["instance_ids"] == ["bad-1", "g-1", "w-2"]  # sorted: the order given is not
    assert not chosen["repos"] and not chosen["filter"] and chosen["limit"] is None
    assert ("- selection: 3 instance ids (listed in report.json, run.selection) (what this "
            "report counts: the rows selected, not the whole source)") in text
    assert "Denominators: 3 tasks selected, 2 audited, 1 ERROR" in text
    assert "w-1" not in text
    ref = next((tmp_path / "store").rglob("settle/w-2.json")).read_bytes()

    # The same selection in another order and form is the same selection: nothing to redo
    # (another one would write other tables), the report the same bytes.
    again = summary(run(bench.cfg, tmp_path, "--instance-ids", "g-1", "--instance-ids",
                        "bad-1 w-2"))
    assert again["executed"] == 0 and again["actions_computed"] == 0, again
    assert report(tmp_path) == (text, data)

    # A full run: the selected cases are up to date, their records the same bytes.
    full = summary(run(bench.cfg, tmp_path))
    assert full["executed_by_phase"]["propose"] == 1 and full["executed_by_phase"]["settle"] == 1
    assert sum(full["verdicts"].values()) == 4
    assert next((tmp_path / "store").rglob("settle/w-2.json")).read_bytes() == ref
    text, data = report(tmp_path)
    assert "- selection: every row of the source" in text
    assert not any(data["run"]["selection"].values())
    assert "Denominators: 4 tasks in the source" in text


def test_repo_filter_limit_and_a_file_of_ids_take_the_rows_all_of_them_take(
        bench: Bench, tmp_path: Path) -> None:
    (tmp_path / "ids.txt").write_text("# the hard ones, and one more\nw-1 w-2\ng-1\n")
    p = run(bench.cfg, tmp_path, "--instance-ids", "@ids.txt", "--repo", "acme/widgets",
            "--filter", "difficulty = 'hard' AND len(fail_to_pass) >= 1", "--limit", "5")
    got = summary(p)
    assert sum(got["verdicts"].values()) == 1  # w-2: listed, of acme/widgets, hard
    assert "selection: 3 instance ids; repo acme/widgets; filter" in p.stderr
    text, data = report(tmp_path)
    assert data["run"]["selection"] == {
        "instance_ids": ["g-1", "w-1", "w-2"], "repos": ["acme/widgets"],
        "filter": "difficulty = 'hard' AND len(fail_to_pass) >= 1", "limit": 5, "shard": None}
    assert ("- selection: 3 instance ids (listed in report.json, run.selection); repository "
            "`acme/widgets`; filter `difficulty = 'hard' AND len(fail_to_pass) >= 1`; the first "
            "5 rows of those") in text
    assert sorted(c.name for c in (tmp_path / "runs" / "bench" / "cases").iterdir()) == ["w-2"]


def test_an_unknown_id_or_a_bad_filter_is_a_usage_error(bench: Bench, tmp_path: Path) -> None:
    p = run(bench.cfg, tmp_path, "--instance-ids", "w-1", "nope-7")
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines()[-1] == (
        "error: --instance-ids: no row of the source has id 'nope-7' (1 of the 2 ids given)")

    (tmp_path / "other").mkdir()
    p = run(bench.cfg, tmp_path / "other", "--filter", "no_such_column = 1")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert "Invalid value for '--filter'" in p.stderr and "no_such_column" in p.stderr
    assert "difficulty" in p.stderr and "fail_to_pass" in p.stderr  # the columns there are
    assert not (tmp_path / "other" / "store").exists()  # refused before anything was read

    (tmp_path / "none.txt").write_text("# no id here\n")
    for empty in ("", f"@{tmp_path / 'none.txt'}"):  # a selection of nothing, never of all
        p = run(bench.cfg, tmp_path / "other", "--instance-ids", empty)
        assert p.returncode == 2 and "--instance-ids: no id given" in p.stderr, p.stderr


@pytest.mark.parametrize(("where", "why"), [
    ("repo", "a condition \\(true or false\\) is needed, this is of type VARCHAR"),
    ("no_such = 1", 'column "no_such" not found'),
    ("repo =", "syntax error"),
    ("true; select 1", "syntax error"),
    # It reads the rows only: no file, however it is asked.
    ("exists (select * from read_csv('/etc/passwd'))", "operations are disabled"),
])
def test_a_filter_is_a_condition_over_the_columns_and_reads_no_file(where: str,
                                                                    why: str) -> None:
    check_filter("len(fail_to_pass) > 1 AND difficulty = 'hard' AND NOT tests_derived",
                 ["difficulty"])
    with pytest.raises(FilterError, match=why):
        check_filter(where, ["difficulty"])
