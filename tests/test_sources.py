"""Sources: jsonl, parquet (the path Hugging Face downloads end in), dotted fields, test ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import Audit, diff, make_repo, source_only_config

from determinacy.config import load_config
from determinacy.errors import ConfigError
from determinacy.sources import hf
from determinacy.sources.rows import load_tasks, parse_test_ids


def test_test_ids_as_list_json_string_or_python_literal() -> None:
    assert parse_test_ids(["a::b"], "f", 1) == ["a::b"]
    assert parse_test_ids('["a::b", "c"]', "f", 1) == ["a::b", "c"]
    assert parse_test_ids("['a::b', 'c[x-1]']", "f", 1) == ["a::b", "c[x-1]"]
    assert parse_test_ids(None, "f", 1) == []
    with pytest.raises(Exception, match="row 7"):
        parse_test_ids("[1, 2]", "f", 7)


def _parquet_benchmark(tmp: Path) -> tuple[Path, str]:
    repo = tmp / "repo"
    base = make_repo(repo, {"pkg/core.py": "A = 1\n", "tests/test_core.py": "import pkg\n"})
    gold = diff(repo, base, {"pkg/core.py": "A = 1\n\ndef quux_splendid():\n    return 2\n"})
    test = diff(repo, base, {"tests/test_core.py":
                             "from pkg.core import quux_splendid\n\n"
                             "def test_q():\n    assert quux_splendid() == 2\n"})
    rows = [{"meta": {"id": "org__pkg-1", "repo": "org/pkg"}, "base": base,
             "text": {"issue": "Make core return two.", "hints": "Only core.py changes."},
             "fix": gold, "tests": test, "f2p": "['tests/test_core.py::test_q']"}]
    data = tmp / "data"
    data.mkdir()
    pq.write_table(pa.Table.from_pylist(rows), data / "train-00000.parquet")
    cfg = tmp / "pq.toml"
    cfg.write_text(
        'name = "pq"\n[source]\nparquet = "data/*.parquet"\n'
        '[fields]\ninstance_id = "meta.id"\nrepo = "meta.repo"\nbase_commit = "base"\n'
        'gold_patch = "fix"\ntest_patch = "tests"\nfail_to_pass = "f2p"\n'
        'prose = ["text.issue", "text.hints"]\n'
        f'[codebase]\nmirror = "{repo}"\n'
    )
    return cfg, base


def test_parquet_source_with_dotted_fields_runs_end_to_end(tmp_path: Path) -> None:
    cfg, base = _parquet_benchmark(tmp_path)
    loaded = load_tasks(load_config(cfg))
    assert not loaded.errors
    (task,) = loaded.tasks
    assert task.case_id == "org__pkg-1" and task.base_commit == base
    assert task.fail_to_pass == ["tests/test_core.py::test_q"]
    # Prose fields are joined in order, each under its heading.
    assert task.prose.index("## text.issue") < task.prose.index("## text.hints")
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"org__pkg-1": "AIRTIGHT"}


def test_parquet_glob_that_matches_nothing_names_the_key(tmp_path: Path) -> None:
    cfg = source_only_config(tmp_path, 'parquet = "nothing/*.parquet"\n')
    with pytest.raises(ConfigError, match="source.parquet"):
        load_tasks(load_config(cfg))


def test_exactly_one_source_kind(tmp_path: Path) -> None:
    cfg = source_only_config(tmp_path, 'jsonl = "a"\nparquet = "b"\n')
    with pytest.raises(ConfigError, match=r"c\.toml: key `source`"):
        load_config(cfg)


# -- field expressions: datasets shaped unlike SWE-bench (Multi-SWE-bench) -------------------

MULTI = ('name = "multi"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
         'instance_id = "instance_id"\nrepo = "{org}/{repo}"\nbase_commit = "base.sha"\n'
         'gold_patch = "fix_patch"\ntest_patch = "test_patch"\nfail_to_pass = "f2p_tests"\n'
         'prose = ["resolved_issues[].title", "resolved_issues[].body"]\n')


def multi_row(**change: Any) -> dict[str, Any]:
    row = {"instance_id": "acme__widgets-7", "org": "acme", "repo": "widgets",
           "base": {"label": "acme:main", "ref": "main", "sha": "a" * 40},
           "resolved_issues": [{"number": 3, "title": "Badges wrap", "body": "They wrap."},
                               {"number": 4, "title": "Units", "body": "Show units."}],
           "fix_patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/t b/t\n",
           "f2p_tests": {"tests/test_x.py::test_a": {"fix": "PASS", "run": "FAIL"},
                         "tests/test_x.py::test_b": {"fix": "PASS", "run": "FAIL"}}}
    return {**row, **change}


def load_multi(tmp: Path, *rows: dict[str, Any], config: str = MULTI) -> Any:
    (tmp / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp / "multi.toml").write_text(config)
    return load_tasks(load_config(tmp / "multi.toml"))


def test_templates_list_paths_and_dict_keys_read_multi_swe_bench_rows(tmp_path: Path) -> None:
    loaded = load_multi(tmp_path, multi_row())
    [t] = loaded.tasks
    assert not loaded.errors
    assert t.repo == "acme/widgets" and t.base_commit == "a" * 40
    assert t.fail_to_pass == ["tests/test_x.py::test_a", "tests/test_x.py::test_b"]
    assert t.prose == ("## resolved_issues[].title\n\nBadges wrap\n\nUnits\n\n"
                       "## resolved_issues[].body\n\nThey wrap.\n\nShow units.\n")


def test_field_expressions_fail_naming_the_row_and_the_key(tmp_path: Path) -> None:
    no_org = {k: v for k, v in multi_row().items() if k != "org"}
    not_a_list = multi_row(instance_id="acme__widgets-8", resolved_issues="oops")
    good = multi_row(instance_id="acme__widgets-9")
    loaded = load_multi(tmp_path, no_org, not_a_list, good)
    assert [t.instance_id for t in loaded.tasks] == ["acme__widgets-9"]
    why = {e.row: e.message for e in loaded.errors}
    assert "row 1: missing field `{org}/{repo}` (config key fields.repo)" in why[1]
    assert "row 2: missing field `resolved_issues[].title` (config key fields.prose[0])" \
        in why[2]
    # A plain column holding a list is still not text: only a path through a list joins.
    plain = MULTI.replace('instance_id = "instance_id"', 'instance_id = "ids"')
    loaded = load_multi(tmp_path, multi_row(ids=["a", "b"]), config=plain)
    assert "must be text, got list" in loaded.errors[0].message


@pytest.mark.parametrize("name", sorted(p.name for p in
                                        (Path(__file__).parent.parent / "examples").glob("*.toml")))
def test_every_example_config_loads(name: str) -> None:
    cfg = load_config(Path(__file__).parent.parent / "examples" / name)
    assert cfg.name and cfg.fields.prose


def test_the_multi_swe_bench_example_reads_rows_of_that_shape(tmp_path: Path) -> None:
    example = (Path(__file__).parent.parent / "examples" / "multi-swe-bench.toml").read_text()
    config = example.replace('hf_dataset = "ByteDance-Seed/Multi-SWE-bench"',
                             'jsonl = "tasks.jsonl"')
    config = "\n".join(ln for ln in config.splitlines() if not ln.startswith("data_files"))
    # Real rows have every test class (the example grades f2p, s2p and n2p together).
    shaped = multi_row(s2p_tests={}, n2p_tests={"tests/test_x.py::test_new": {"fix": "PASS"}},
                       p2p_tests={})
    [t] = load_multi(tmp_path, shaped, config=config).tasks
    assert t.repo == "acme/widgets" and len(t.fail_to_pass) == 3 and "Show units." in t.prose


# -- Hugging Face: the hub's layouts, its cache, offline, one-line failures ------------------

def test_the_split_is_found_in_the_hubs_usual_layouts() -> None:
    files = ["README.md", "data/test-00000-of-00001.parquet", "data/train-00000.parquet",
             "test.jsonl", "default/test/0000.parquet"]
    assert hf.select(files, "test", None, []) == ["data/test-00000-of-00001.parquet"]
    assert hf.select(["test.jsonl", "test.csv", "train.jsonl"], "test", None, []) == \
        ["test.jsonl"]  # one format only: the same rows twice would be duplicates
    assert hf.select(["default/test/0000.parquet"], "test", None, []) == \
        ["default/test/0000.parquet"]  # the hub's parquet conversion
    subsets = ["alpha/test-0.parquet", "beta/test-0.parquet", "beta/dev-0.parquet"]
    assert hf.select(subsets, "test", "beta", []) == ["beta/test-0.parquet"]
    assert hf.select(subsets, "test", None, []) == []  # which subset is the config's to say
    assert hf.select(["go/a.jsonl", "go/b.jsonl", "java/c.jsonl"], "test", None,
                     ["go/*.jsonl"]) == ["go/a.jsonl", "go/b.jsonl"]
    assert "data/test-*" in hf.allow_patterns("test", None, [])
    assert hf.allow_patterns("test", None, ["go/*.jsonl"]) == ["go/*.jsonl"]


def test_hub_failures_are_one_line_with_the_way_out(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    def error(name: str) -> Exception:
        return type(name, (Exception,), {})("Repository Not Found for url: https://hf.co/x\n"
                                            "Please make sure the name is right.")

    for name, says in (("RepositoryNotFoundError", "no dataset 'o/b' on the Hugging Face hub"),
                       ("RevisionNotFoundError", "has no revision"),
                       ("LocalEntryNotFoundError", "with a warm cache set HF_HUB_OFFLINE=1"),
                       ("ConnectError", "cannot reach the Hugging Face hub")):
        line = hf.failure("o/b", "v1", error(name))
        assert says in line and "\n" not in line, (name, line)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert "HF_HUB_OFFLINE is set" in hf.failure("o/b", None, error("LocalEntryNotFoundError"))
    # Without the optional dependency: how to get it, in one line.
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    cfg = load_config(_hub_config(tmp_path, "o/b"))
    with pytest.raises(ConfigError, match=r"key `source\.hf_dataset`: .*uv run --extra hf"):
        load_tasks(cfg)


def _hub_config(folder: Path, dataset: str, extra: str = "") -> Path:
    cfg = folder / f"{dataset.replace('/', '-')}.toml"
    cfg.write_text(f'name = "hub"\n[source]\nhf_dataset = "{dataset}"\n{extra}[fields]\n'
                   'instance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
                   'gold_patch = "patch"\ntest_patch = "test_patch"\n'
                   'fail_to_pass = "FAIL_TO_PASS"\n')
    return cfg


def _hub_row(i: int) -> dict[str, Any]:
    return {"instance_id": f"o__b-{i}", "repo": "o/b", "base_commit": "a" * 40,
            "patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/t b/t\n",
            "FAIL_TO_PASS": "[]", "problem_statement": f"Task {i}."}


def _cache(home: Path, dataset: str, sha: str, files: dict[str, Any]) -> None:
    """A dataset in the hub's cache layout: datasets--owner--name/{refs/main, snapshots/SHA}."""
    root = home / "hub" / f"datasets--{dataset.replace('/', '--')}"
    (root / "refs").mkdir(parents=True)
    (root / "refs" / "main").write_text(sha)
    for rel, rows in files.items():
        path = root / "snapshots" / sha / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".parquet"):
            pq.write_table(pa.Table.from_pylist(rows), path)
        else:
            path.write_text("".join(json.dumps(r) + "\n" for r in rows))


@pytest.mark.skipif(find_spec("huggingface_hub") is None, reason="the hf extra is not installed")
def test_a_warm_hub_cache_is_read_offline_and_its_commit_pinned(tmp_path: Path) -> None:
    """The real snapshot_download, with HF_HUB_OFFLINE=1 and HF_HOME in tmp_path (read when
    huggingface_hub is imported: hence a fresh process). No network: offline mode forbids it."""
    home = tmp_path / "hf"
    _cache(home, "o/parq", "1" * 40, {"data/test-00000-of-00001.parquet": [_hub_row(1)],
                                      "data/train-00000-of-00001.parquet": [_hub_row(9)]})
    _cache(home, "o/lines", "2" * 40, {"test.jsonl": [_hub_row(2), _hub_row(3)]})
    _cache(home, "o/subsets", "3" * 40, {"alpha/test-0.parquet": [_hub_row(8)],
                                         "beta/test-0.parquet": [_hub_row(4)]})
    configs = [_hub_config(tmp_path, "o/parq"), _hub_config(tmp_path, "o/lines"),
               _hub_config(tmp_path, "o/subsets", 'subset = "beta"\n'),
               _hub_config(tmp_path, "o/absent")]
    code = (
        "import json, sys\n"
        "from determinacy.config import load_config\n"
        "from determinacy.errors import ConfigError\n"
        "from determinacy.sources.rows import load_tasks\n"
        "out = []\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        got = load_tasks(load_config(path))\n"
        "        out.append([got.revision, [t.case_id for t in got.tasks]])\n"
        "    except ConfigError as e:\n"
        "        out.append(['error', str(e)])\n"
        "print(json.dumps(out))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env.update(HF_HOME=str(home), HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1")
    p = subprocess.run([sys.executable, "-c", code, *map(str, configs)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    parq, lines, subsets, absent = json.loads(p.stdout)
    assert parq == ["1" * 40, ["o__b-1"]]  # the test split only, at the snapshot's commit
    assert lines == ["2" * 40, ["o__b-2", "o__b-3"]]  # a split hosted as jsonl
    assert subsets == ["3" * 40, ["o__b-4"]]
    assert absent[0] == "error" and "\n" not in absent[1]
    assert "key `source.hf_dataset`: HF_HUB_OFFLINE is set and this machine has no cached " \
           "copy of dataset 'o/absent'" in absent[1]
    assert "point [source] parquet, jsonl or csv at them" in absent[1]


# -- images, kept columns, csv and json files ---------------------------------------------

def test_images_are_flagged_in_the_task_the_receipt_and_the_report(tmp_path: Path) -> None:
    """A constant shown only in an image would be certified wrongly: each case whose prose
    links one, or whose `fields.images` lists one, says so, and REPORT.md counts them. Kept
    columns land in the tasks table as JSON text."""
    repo = tmp_path / "repo"
    base = make_repo(repo, {"pkg/core.py": "A = 1\n", "tests/test_core.py": "import pkg\n"})
    gold = diff(repo, base, {"pkg/core.py": "A = 1\n\ndef quux_splendid():\n    return 2\n"})
    test = diff(repo, base, {"tests/test_core.py": "from pkg.core import quux_splendid\n\n"
                             "def test_q():\n    assert quux_splendid() == 2\n"})
    shot = "https://user-images.githubusercontent.com/1/shot.png"
    assets = json.dumps({"problem_statement": ["https://example.com/mock.jpg"],
                         "patch": [], "test_patch": ["https://example.com/golden.png"]})
    rows = [{"instance_id": "o__pkg-1", "repo": "o/pkg", "base_commit": base,
             "problem_statement": f"Add the helper, see ![the bug]({shot}).", "patch": gold,
             "test_patch": test, "FAIL_TO_PASS": '["tests/test_core.py::test_q"]',
             "image_assets": assets, "meta": {"license": "MIT", "difficulty": 2}},
            {"instance_id": "o__pkg-2", "repo": "o/pkg", "base_commit": base,
             "problem_statement": "Add the helper.", "patch": gold, "test_patch": test,
             "FAIL_TO_PASS": '["tests/test_core.py::test_q"]', "image_assets": "",
             "meta": None}]
    (tmp_path / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = tmp_path / "mm.toml"
    cfg.write_text('name = "mm"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
                   'instance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
                   'gold_patch = "patch"\ntest_patch = "test_patch"\n'
                   'fail_to_pass = "FAIL_TO_PASS"\nimages = "image_assets"\nkeep = ["meta"]\n'
                   f'[codebase]\nmirror = "{repo}"\n')
    one, two = load_tasks(load_config(cfg)).tasks
    assert one.images == [shot, "https://example.com/mock.jpg"]  # the prose's list only
    assert two.images == [] and json.loads(two.kept) == {"meta": None}
    audit = Audit(tmp_path)
    audit.run(cfg)
    # What the checks cannot read, they cannot call absent: counted apart, not in the floor.
    assert audit.verdicts(cfg) == {"o__pkg-1": "AIRTIGHT-PARTIAL", "o__pkg-2": "AIRTIGHT"}
    report = (audit.runs / "mm" / "REPORT.md").read_text()
    assert "Images: **1** audited cases show the solver images" in report
    assert "0 of them are in the floor" in report
    assert "**1** AIRTIGHT-PARTIAL" in report
    receipt = (audit.runs / "mm" / "cases" / "o__pkg-1" / "RECEIPT.md").read_text()
    assert ("- **images**: the solver is shown 2 image(s) the text checks cannot read, so an "
            "absence claim here is AIRTIGHT-PARTIAL") in receipt
    assert "**images**" not in (audit.runs / "mm" / "cases" / "o__pkg-2" / "RECEIPT.md").read_text()
    [kept] = audit.sql(cfg, "select kept->>'$.meta.license' as license from tasks "
                            "where case_id = 'o__pkg-1'")
    assert kept == {"license": "MIT"}


def test_prose_in_another_script_is_marked_in_the_receipt(tmp_path: Path) -> None:
    """A Chinese issue body is still prose (its Latin-script tokens are matched), but it may
    give the name in words of its own: the receipt says the claim rests on the Latin-script
    tokens alone; a Latin-script prose's receipt does not."""
    repo = tmp_path / "repo"
    base = make_repo(repo, {"pkg/core.py": "A = 1\n", "tests/test_core.py": "import pkg\n"})
    gold = diff(repo, base, {"pkg/core.py": "A = 1\n\ndef quux_splendid():\n    return 2\n"})
    test = diff(repo, base, {"tests/test_core.py": "from pkg.core import quux_splendid\n\n"
                             "def test_q():\n    assert quux_splendid() == 2\n"})
    rows = [{"instance_id": f"o__pkg-{i}", "repo": "o/pkg", "base_commit": base,
             "problem_statement": text, "patch": gold, "test_patch": test,
             "FAIL_TO_PASS": '["tests/test_core.py::test_q"]'}
            for i, text in ((1, "请添加一个辅助函数，返回二。它应该在 pkg.core 模块中。"),
                            (2, "Add a helper that returns two, in pkg.core."))]
    (tmp_path / "tasks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = tmp_path / "zh.toml"
    cfg.write_text('name = "zh"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
                   'instance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
                   'gold_patch = "patch"\ntest_patch = "test_patch"\n'
                   f'fail_to_pass = "FAIL_TO_PASS"\n[codebase]\nmirror = "{repo}"\n')
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"o__pkg-1": "AIRTIGHT", "o__pkg-2": "AIRTIGHT"}
    cases = audit.runs / "zh" / "cases"
    marked = "% of its letters are not Latin. Its Latin-script tokens are matched as anywhere"
    assert marked in (cases / "o__pkg-1" / "RECEIPT.md").read_text()
    assert "another script" not in (cases / "o__pkg-2" / "RECEIPT.md").read_text()


def test_a_claim_whose_sibling_spells_it_otherwise_shows_that_sibling(tmp_path: Path) -> None:
    """The opposite signal: a sibling one word off whose word nothing gives is evidence for
    the claim (a solver following the codebase writes the sibling's form), and the receipt
    names it; a claim with no such sibling shows no such table."""
    repo = tmp_path / "repo"
    src = 'STORE_MEMORY = "m"\nSTORE_DISK = "d"\n'
    base = make_repo(repo, {"pkg/core.py": src, "tests/test_core.py": "import pkg\n"})
    gold = diff(repo, base, {"pkg/core.py": src + 'STORE_TAPE = "t"\nquux_splendid = 2\n'})
    test = diff(repo, base, {"tests/test_core.py": "from pkg.core import STORE_TAPE\n"
                             "from pkg.core import quux_splendid\n\n"
                             "def test_q():\n    assert STORE_TAPE and quux_splendid\n"})
    (tmp_path / "tasks.jsonl").write_text(json.dumps(
        {"instance_id": "o__pkg-1", "repo": "o/pkg", "base_commit": base,
         "problem_statement": "Add another backend.", "patch": gold, "test_patch": test,
         "FAIL_TO_PASS": '["tests/test_core.py::test_q"]'}) + "\n")
    cfg = tmp_path / "sib.toml"
    cfg.write_text('name = "sib"\n[source]\njsonl = "tasks.jsonl"\n[fields]\n'
                   'instance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
                   'gold_patch = "patch"\ntest_patch = "test_patch"\n'
                   f'fail_to_pass = "FAIL_TO_PASS"\n[codebase]\nmirror = "{repo}"\n')
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"o__pkg-1": "AIRTIGHT"}
    receipt = (audit.runs / "sib" / "cases" / "o__pkg-1" / "RECEIPT.md").read_text()
    assert "The codebase's nearest sibling spells these otherwise" in receipt
    assert "| `STORE_TAPE` | `STORE_MEMORY` at pkg/core.py:1 |" in receipt
    table = receipt.split("spelled otherwise at base")[1].split("\n\n")[0]
    assert "STORE_TAPE" in table and "quux_splendid" not in table


def test_linked_images_are_found_in_markdown_html_and_bare_links() -> None:
    from determinacy.sources.rows import linked_images

    text = ('See ![x](https://a.example/1.png "title") and <img width="5" src="https://b/2.gif">'
            " and https://c.example/3.JPEG, https://github.com/user-attachments/assets/ab-12 "
            "but not https://d.example/page.html or the word png.")
    assert linked_images(text) == ["https://a.example/1.png", "https://b/2.gif",
                                   "https://c.example/3.JPEG",
                                   "https://github.com/user-attachments/assets/ab-12"]


def test_csv_files_and_json_arrays_are_rows_too(tmp_path: Path) -> None:
    import csv

    row = _hub_row(1) | {"FAIL_TO_PASS": "['t.py::test_a']",
                         "test_patch": "diff --git a/t b/t\n+x\n+y\n"}
    with (tmp_path / "t.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        w.writeheader()
        w.writerow(row)
    cfg = _hub_config(tmp_path, "o/b").read_text().replace('hf_dataset = "o/b"',
                                                           'csv = "t.csv"')
    (tmp_path / "csv.toml").write_text(cfg)
    [t] = load_tasks(load_config(tmp_path / "csv.toml")).tasks
    assert t.fail_to_pass == ["t.py::test_a"] and t.test_patch == row["test_patch"]
    from determinacy.sources.files import iter_rows

    (tmp_path / "a.json").write_text(json.dumps([_hub_row(1), _hub_row(2), 3]))
    # A downloaded split is read file by file, by extension (a `.json` may be one array).
    got = list(iter_rows(load_config(_hub_config(tmp_path, "o/b")), [tmp_path / "a.json"]))
    assert [n for n, _ in got] == [1, 2, 3] and "expected a JSON object" in str(got[2][1])
