"""Field mappings a user does not write: the default mapping of SWE-bench's and SWE-bench Pro's
columns (no [fields] table), `determinacy init`, `--dataset` with no config, config errors that
list what is valid, and fail_to_pass read from several columns."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tomllib
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import PROSE, Audit, new_helper, row, widgets_repo

from determinacy.config import (
    AgentCfg,
    CodebaseCfg,
    Config,
    FieldsCfg,
    PolicyCfg,
    ValidityCfg,
    dataset_config,
    load_config,
)
from determinacy.errors import ConfigError
from determinacy.sources.rows import load_tasks, with_fields


def cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "determinacy.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def pro_row(r: dict[str, Any]) -> dict[str, Any]:
    """A SWE-bench row in SWE-bench Pro's columns: lower-case test lists as Python literals,
    and the requirements and interface texts."""
    out = {k: v for k, v in r.items() if k not in ("FAIL_TO_PASS", "PASS_TO_PASS")}
    return {**out, "fail_to_pass": repr(r["FAIL_TO_PASS"]), "pass_to_pass": "[]",
            "requirements": "- Return two.", "interface": "No new interfaces are introduced."}


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def bare_config(folder: Path, source: str, extra: str = "", name: str = "bench") -> Path:
    """A config with no [fields] table."""
    cfg = folder / f"{name}.toml"
    cfg.write_text(f'name = "{name}"\n[source]\n{source}\n{extra}')
    return cfg


@pytest.fixture(scope="module")
def widgets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """acme/widgets under m/acme/widgets and two SWE-bench rows of it; the second grades no
    test (FAIL_TO_PASS empty)."""
    tmp = tmp_path_factory.mktemp("widgets")
    repo = tmp / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    graded = row("acme__widgets-1", base, PROSE, *new_helper(repo, base))
    empty = row("acme__widgets-2", base, PROSE, *new_helper(repo, base, "bar_splendid"), f2p=[])
    return tmp / "m", [graded, empty]


# -- the default mapping: no [fields] table -----------------------------------------------


def test_swe_bench_columns_need_no_fields_table(tmp_path: Path) -> None:
    rows = [{"instance_id": "o__r-1", "repo": "o/r", "base_commit": "a" * 40,
             "patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/t b/t\n",
             "FAIL_TO_PASS": '["t.py::test_a"]', "PASS_TO_PASS": '["t.py::test_b"]',
             "problem_statement": "Fix it.", "hints_text": "not shown", "version": "1.0"}]
    write_rows(tmp_path / "t.jsonl", rows)
    cfg = load_config(bare_config(tmp_path, 'jsonl = "t.jsonl"'))
    assert cfg.fields is None  # decided when the rows are read
    detected = with_fields(cfg)
    assert detected.layout == "SWE-bench" and detected.fields == FieldsCfg(
        instance_id="instance_id", repo="repo", base_commit="base_commit", gold_patch="patch",
        test_patch="test_patch", fail_to_pass="FAIL_TO_PASS", pass_to_pass="PASS_TO_PASS",
        prose=["problem_statement"])
    [t] = load_tasks(cfg).tasks
    assert (t.fail_to_pass, t.pass_to_pass) == (["t.py::test_a"], ["t.py::test_b"])


def test_swe_bench_pro_columns_need_no_fields_table_and_all_three_texts_are_prose(
        tmp_path: Path) -> None:
    """SWE-bench Pro's lower-case columns, as the public data has them (a Python list literal
    in a string), and its requirements and interface texts, which its solvers are shown."""
    made = {"instance_id": "instance_o__r-1", "repo": "o/r", "base_commit": "b" * 40,
            "problem_statement": "Fix it.", "requirements": "- Name it `quux`.",
            "interface": "No new interfaces are introduced.", "patch": "diff --git a/x b/x\n",
            "test_patch": "diff --git a/t b/t\n", "fail_to_pass": "['TestA', 'TestA/sub']"}
    for r in (made, {**made, "pass_to_pass": "['TestB']"}):
        write_rows(tmp_path / "t.jsonl", [r])
        cfg = load_config(bare_config(tmp_path, 'jsonl = "t.jsonl"'))
        detected = with_fields(cfg)
        assert detected.layout == "SWE-bench Pro"
        assert detected.fields is not None and detected.fields.fail_to_pass == "fail_to_pass"
        assert detected.fields.prose == ["problem_statement", "requirements", "interface"]
        [t] = load_tasks(cfg).tasks
        assert t.fail_to_pass and all(isinstance(x, str) for x in t.fail_to_pass)
        assert t.prose.index("## problem_statement") < t.prose.index("## requirements") \
            < t.prose.index("## interface")


def test_columns_no_layout_matches_are_one_error_naming_what_each_lacks(tmp_path: Path) -> None:
    write_rows(tmp_path / "t.jsonl", [{"id": "1", "repo": "o/r", "fix": "diff"}])
    cfg = load_config(bare_config(tmp_path, 'jsonl = "t.jsonl"'))
    with pytest.raises(ConfigError) as e:
        load_tasks(cfg)
    text = str(e.value)
    assert text.startswith(f"{tmp_path / 'bench.toml'}: key `fields`: no [fields] table")
    assert "SWE-bench needs `instance_id`, `base_commit`, `patch`" in text
    assert "SWE-bench Pro needs" in text and "`fail_to_pass`" in text
    assert "the columns are: `id`, `repo`, `fix`" in text and "determinacy init" in text


def test_a_run_without_fields_names_the_layout_and_counts_rows_that_grade_nothing(
        tmp_path: Path, widgets: tuple[Path, list[dict[str, Any]]]) -> None:
    """The whole run in SWE-bench Pro's columns with no [fields]; REPORT.md names the detected
    layout, and says how many rows grade nothing (FAIL_TO_PASS empty), as validate does."""
    mirrors, rows = widgets
    write_rows(tmp_path / "pro.jsonl", [pro_row(r) for r in rows])
    cfg = bare_config(tmp_path, 'jsonl = "pro.jsonl"',
                      f'[codebase]\nmirror = "{mirrors}/{{owner}}/{{name}}"\n')
    v = cli("validate", str(cfg))
    assert v.returncode == 3, v.stdout + v.stderr
    assert "fields: no [fields] table: the SWE-bench Pro layout (fail_to_pass, pass_to_pass; " \
           "prose: problem_statement, requirements, interface), detected from the columns" \
           in v.stdout
    assert "warning: 1 of 2 rows: FAIL_TO_PASS empty (fields.fail_to_pass reads " \
           "`fail_to_pass`)" in v.stdout
    Audit(tmp_path).run(cfg, "-q")  # in process: the run is not what is tested here
    report = (tmp_path / "runs" / "bench" / "REPORT.md").read_text()
    assert "(no [fields] table: the SWE-bench Pro layout's default mapping, detected from " \
           "the columns)" in report
    assert "**1** of 2 rows: FAIL_TO_PASS empty." in report
    spine = json.loads((tmp_path / "runs" / "bench" / "report.json").read_text())["spine"]
    assert spine["fail_to_pass_empty"] == 1


# -- determinacy init ---------------------------------------------------------------------


def test_init_writes_a_config_that_validates_and_runs(
        tmp_path: Path, widgets: tuple[Path, list[dict[str, Any]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    mirrors, rows = widgets
    (tmp_path / "data").mkdir()
    data = write_rows(tmp_path / "data" / "swe.jsonl", rows[:1])
    p = cli("init", str(data), "--mirror", f"{mirrors}/{{owner}}/{{name}}", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "wrote determinacy.toml: the SWE-bench layout" in p.stdout
    text = (tmp_path / "determinacy.toml").read_text()
    cfg = tomllib.loads(text)
    assert cfg["name"] == "swe" and cfg["source"] == {"jsonl": "data/swe.jsonl"}
    assert cfg["fields"]["fail_to_pass"] == "FAIL_TO_PASS"
    assert cfg["codebase"] == {"mirror": f"{mirrors}/{{owner}}/{{name}}"}
    v = cli("validate", cwd=tmp_path)  # determinacy.toml in the current folder
    assert v.returncode == 0 and "ok: every row is a task; 1 base commits found" in v.stdout, \
        v.stdout + v.stderr
    monkeypatch.chdir(tmp_path)  # `run` finds determinacy.toml here too
    assert Audit(tmp_path).run(None, "-q")["verdicts"] == {"AIRTIGHT": 1}
    again = cli("init", str(data), cwd=tmp_path)
    assert again.returncode == 2 and "exists: give --force" in again.stderr


def test_init_comments_every_optional_key(tmp_path: Path) -> None:
    """Every key a config may hold is in what init writes (set or commented at its default)."""
    data = write_rows(tmp_path / "t.jsonl", [pro_row(row("o__r-1", "a" * 40, "P", "g", "t"))])
    p = cli("init", str(data), "-o", str(tmp_path / "c.toml"))
    assert p.returncode == 0, p.stderr
    text = (tmp_path / "c.toml").read_text()
    assert max(map(len, text.splitlines())) <= 100
    for struct, table in ((Config, ""), (FieldsCfg, "fields"), (CodebaseCfg, "codebase"),
                          (PolicyCfg, "policy"), (AgentCfg, "agent"),
                          (ValidityCfg, "validity")):
        for f in msgspec.structs.fields(struct):
            if f.name in ("root", "file", "layout", "source", "fields", "codebase", "policy",
                          "agent", "validity"):
                continue
            assert f"{f.name} = " in text or f"[{table}.{f.name}]" in text, (table, f.name)
    assert 'pass_to_pass = "pass_to_pass"' in text and 'absence = "strict"' in text


def test_init_reads_parquet_and_csv_and_marks_what_it_cannot_map(tmp_path: Path) -> None:
    r = row("o__r-1", "a" * 40, "Fix it.", "diff --git a/x b/x\n", "diff --git a/t b/t\n")
    r["FAIL_TO_PASS"] = json.dumps(r["FAIL_TO_PASS"])
    pq.write_table(pa.Table.from_pylist([r]), tmp_path / "t.parquet")
    with (tmp_path / "t.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(r))
        w.writeheader()
        w.writerow(r)
    for name, key in (("t.parquet", "parquet"), ("t.csv", "csv")):
        out = tmp_path / f"{key}.toml"
        p = cli("init", str(tmp_path / name), "-o", str(out))
        assert p.returncode == 0, p.stderr
        assert tomllib.loads(out.read_text())["source"] == {key: name}
        [t] = load_tasks(load_config(out)).tasks
        assert t.instance_id == "o__r-1" and t.fail_to_pass == ["tests/test_x.py::test_x"]
    odd = write_rows(tmp_path / "odd.jsonl", [{"id": "1", "repo": "o/r", "text": "x"}])
    p = cli("init", str(odd), "-o", str(tmp_path / "odd.toml"))
    assert p.returncode == 3 and "match no known layout" in p.stderr
    fields = tomllib.loads((tmp_path / "odd.toml").read_text())["fields"]
    assert fields["instance_id"] == "id" and fields["base_commit"] == "FIXME"


# -- --dataset: a hub dataset with no config ------------------------------------------------


def test_dataset_builds_a_config_named_for_the_dataset() -> None:
    cfg = dataset_config("ScaleAI/SWE-bench_Pro")
    assert (cfg.name, cfg.source.hf_dataset, cfg.source.split) == (
        "SWE-bench_Pro", "ScaleAI/SWE-bench_Pro", "test")
    assert cfg.fields is None and cfg.file == "--dataset ScaleAI/SWE-bench_Pro"
    assert dataset_config("SWE-Gym/SWE-Gym", "train").name == "SWE-Gym-train"
    with pytest.raises(ConfigError, match=r"key `source.hf_dataset`: 'nope' is not a Hugging"):
        dataset_config("nope")


def test_dataset_without_the_hf_extra_is_one_line_and_misuse_is_a_usage_error(
        tmp_path: Path) -> None:
    blocked = tmp_path / "blocked" / "huggingface_hub"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('not installed (test)')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(blocked.parent), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for command in ("validate", "run"):
        p = cli(command, "--dataset", "o/b", "--split", "dev", cwd=tmp_path, env=env)
        assert p.returncode == 2, p.stderr
        assert p.stderr.startswith("error: --dataset o/b: key `source.hf_dataset`: reading a "
                                   "Hugging Face dataset needs huggingface_hub"), p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
    (tmp_path / "c.toml").write_text('name = "c"\n[source]\njsonl = "t.jsonl"\n')
    both = cli("validate", str(tmp_path / "c.toml"), "--dataset", "o/b")
    assert both.returncode == 2 and "give CONFIG or --dataset, not both" in both.stderr
    alone = cli("validate", str(tmp_path / "c.toml"), "--split", "dev")
    assert alone.returncode == 2 and "--split is read only with --dataset" in alone.stderr


@pytest.mark.skipif(find_spec("huggingface_hub") is None, reason="the hf extra is not installed")
def test_dataset_reads_a_warm_hub_cache_with_the_default_mapping(tmp_path: Path) -> None:
    """`validate --dataset` on a dataset in the hub's cache layout, offline (no network)."""
    home, sha = tmp_path / "hf", "4" * 40
    root = home / "hub" / "datasets--o--pro"
    (root / "refs").mkdir(parents=True)
    (root / "refs" / "main").write_text(sha)
    rows = [pro_row(row(f"o__pro-{i}", "c" * 40, "Fix it.", "diff --git a/x b/x\n",
                        "diff --git a/t b/t\n")) for i in (1, 2)]
    path = root / "snapshots" / sha / "data" / "dev-00000-of-00001.parquet"
    path.parent.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=str(home), HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1")
    p = cli("validate", "--dataset", "o/pro", "--split", "dev", cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "(2 rows, 2 tasks)" in p.stdout and "the SWE-bench Pro layout" in p.stdout
    assert "note: no mirror configured (codebase.mirror) for acme/widgets: run clones from " \
           "https://github.com/{owner}/{name}.git" in p.stdout


# -- config errors: what is valid -----------------------------------------------------------


def test_config_errors_list_the_valid_keys_and_values(tmp_path: Path) -> None:
    base = 'name = "x"\n[source]\njsonl = "t.jsonl"\n'
    cases = {
        "[fields]\ninstance_id = \"a\"\nfail_to_pas = \"f\"\n": (
            "key `fields.fail_to_pas`: unknown key; [fields] takes: instance_id, repo, "
            "base_commit, gold_patch, test_patch, fail_to_pass, pass_to_pass, prose, images, "
            "keep"),
        "[policy]\nabsence = \"strcit\"\n": (
            "key `policy.absence`: Invalid enum value 'strcit'; one of: 'lenient', 'strict'"),
        "[codebase]\nstdlib = \"always\"\n": "one of: 'auto', 'off', 'require'",
        "sorce = 1\n": "key `sorce`: unknown key; the top level takes: name, description, "
                       "allow_errors, source, fields, codebase, policy, agent, validity, store",
    }
    for i, (extra, says) in enumerate(cases.items()):
        cfg = tmp_path / f"c{i}.toml"
        cfg.write_text(base.replace("[source]", extra + "[source]") if extra.startswith("sorce")
                       else base + extra)
        with pytest.raises(ConfigError) as e:
            load_config(cfg)
        assert str(e.value).startswith(f"{cfg}: ") and says in str(e.value), str(e.value)
    p = cli("validate", str(tmp_path / "c0.toml"))  # the command says it in one line
    assert p.returncode == 2 and p.stderr.startswith(f"error: {tmp_path / 'c0.toml'}: key "
                                                     "`fields.fail_to_pas`: unknown key; "
                                                     "[fields] takes: instance_id,"), p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


# -- fail_to_pass from several columns ------------------------------------------------------


MULTI = ('name = "multi"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
         'instance_id = "instance_id"\nrepo = "{org}/{repo}"\nbase_commit = "base.sha"\n'
         'gold_patch = "fix_patch"\ntest_patch = "test_patch"\n'
         'fail_to_pass = ["f2p_tests", "s2p_tests", "n2p_tests"]\n'
         'prose = ["resolved_issues[].title", "resolved_issues[].body"]\n')


def multi_row(n: int, **tests: Any) -> dict[str, Any]:
    outcome = {"run": "NONE", "test": "FAIL", "fix": "PASS"}
    return {"instance_id": f"acme__widgets-{n}", "org": "acme", "repo": "widgets",
            "base": {"sha": "a" * 40}, "resolved_issues": [{"title": "Badges", "body": "Wrap."}],
            "fix_patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/t b/t\n",
            "f2p_tests": {}, "s2p_tests": {}, "n2p_tests": {},
            **{k: ({t: outcome for t in v} if isinstance(v, list) else v)
               for k, v in tests.items()}}


def test_fail_to_pass_unites_several_columns_in_order_each_id_once(tmp_path: Path) -> None:
    """Multi-SWE-bench: about half the rows have an empty f2p_tests and grade new tests
    (n2p_tests); the harness grades all three. Each column may be a mapping, a list or JSON."""
    rows = [multi_row(1, f2p_tests=["a::x"], n2p_tests=["b::y", "a::x"]),
            multi_row(2, n2p_tests=["c::new"], s2p_tests='["d::skipped"]'),
            multi_row(3, s2p_tests=["e::s"], n2p_tests=["e::s", "f::n"]),
            multi_row(4)]
    write_rows(tmp_path / "tasks.jsonl", rows)
    (tmp_path / "multi.toml").write_text(MULTI)
    tasks = {t.case_id: t.fail_to_pass for t in load_tasks(load_config(tmp_path / "multi.toml"))
             .tasks}
    assert tasks == {"acme__widgets-1": ["a::x", "b::y"],
                     "acme__widgets-2": ["d::skipped", "c::new"],
                     "acme__widgets-3": ["e::s", "f::n"], "acme__widgets-4": []}
    v = cli("validate", str(tmp_path / "multi.toml"), "--rows", "1")
    assert v.returncode == 3
    assert "fields.fail_to_pass[2] `n2p_tests`: " in v.stdout
    assert "warning: 1 of 4 rows: FAIL_TO_PASS empty (fields.fail_to_pass reads `f2p_tests` + " \
           "`s2p_tests` + `n2p_tests`)" in v.stdout
    only_f2p = MULTI.replace('["f2p_tests", "s2p_tests", "n2p_tests"]', '"f2p_tests"')
    (tmp_path / "multi.toml").write_text(only_f2p)
    v = cli("validate", str(tmp_path / "multi.toml"))
    assert "warning: 3 of 4 rows: FAIL_TO_PASS empty" in v.stdout
    (tmp_path / "multi.toml").write_text(MULTI.replace(
        '["f2p_tests", "s2p_tests", "n2p_tests"]', "[]"))
    with pytest.raises(ConfigError, match=r"key `fields.fail_to_pass`: Expected `array` of "
                                          r"length >= 1"):
        load_config(tmp_path / "multi.toml")
    (tmp_path / "multi.toml").write_text(MULTI.replace('"s2p_tests"', '"s2p"'))
    with pytest.raises(ConfigError, match=r"key `fields.fail_to_pass\[1\]`: no row read"):
        load_tasks(load_config(tmp_path / "multi.toml"))


def test_examples_that_say_they_are_a_layouts_default_mapping_are(tmp_path: Path) -> None:
    """The shipped examples of SWE-bench's and SWE-bench Pro's columns: their [fields] table is
    what the layout gives a config without one; Multi-SWE-bench grades three columns."""
    from determinacy.sources import layouts

    examples = Path(__file__).resolve().parent.parent / "examples"
    said = [p for p in sorted(examples.glob("*.toml")) if "default mapping" in p.read_text()]
    assert {p.stem for p in said} >= {"swebench-verified", "swebench-pro", "swe-gym",
                                      "swebench-multimodal", "swe-rebench"}
    for path in said:
        fields = load_config(path).fields
        assert fields is not None
        columns = [c for k in ("instance_id", "repo", "base_commit", "gold_patch", "test_patch",
                               "fail_to_pass", "pass_to_pass", "images")
                   if isinstance(c := getattr(fields, k), str)] + fields.prose
        found = layouts.detect(columns)
        assert found is not None and found[1] == fields, path.name
    multi = load_config(examples / "multi-swe-bench.toml").fields
    assert multi is not None and multi.fail_to_pass == ["f2p_tests", "s2p_tests", "n2p_tests"]
