"""Sources: jsonl, parquet (the path Hugging Face downloads end in), dotted fields, test ids."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import Audit, diff, make_repo

from determinacy import hf
from determinacy.config import load_config
from determinacy.errors import ConfigError
from determinacy.source import load_tasks, parse_test_ids


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
    cfg = tmp_path / "c.toml"
    cfg.write_text('name = "x"\n[source]\nparquet = "nothing/*.parquet"\n[fields]\n'
                   'instance_id="a"\nrepo="b"\nbase_commit="c"\ngold_patch="d"\n'
                   'test_patch="e"\nfail_to_pass="f"\n')
    with pytest.raises(ConfigError, match="source.parquet"):
        load_tasks(load_config(cfg))


def test_exactly_one_source_kind(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('name = "x"\n[source]\njsonl = "a"\nparquet = "b"\n[fields]\n'
                   'instance_id="a"\nrepo="b"\nbase_commit="c"\ngold_patch="d"\n'
                   'test_patch="e"\nfail_to_pass="f"\n')
    with pytest.raises(ConfigError, match=r"c\.toml: key `source`"):
        load_config(cfg)


def test_hugging_face_download_pins_the_revision_and_keeps_one_split(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The download itself needs the network; a stand-in hub shows what is asked of it."""
    asked: list[tuple[str, str, Any]] = []

    class Sibling:
        def __init__(self, name: str):
            self.rfilename = name

    class Api:
        def dataset_info(self, repo: str, revision: Any = None) -> Any:
            asked.append(("info", repo, revision))
            files = ["data/test-00000-of-00001.parquet", "data/train-00000.parquet", "README.md",
                     "default/test/0000.parquet"]
            return types.SimpleNamespace(sha="f" * 40, siblings=[Sibling(f) for f in files])

    def download(repo: str, filename: str, repo_type: str, revision: str) -> str:
        asked.append(("get", filename, revision))
        return str(tmp_path / filename.replace("/", "_"))

    fake = types.ModuleType("huggingface_hub")
    fake.HfApi = Api  # type: ignore[attr-defined]
    fake.hf_hub_download = download  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "huggingface_hub", fake)
    files, revision = hf.download_split("org/bench", "test", None)
    assert revision == "f" * 40
    assert [a for a in asked if a[0] == "get"] == [
        ("get", "data/test-00000-of-00001.parquet", "f" * 40),
        ("get", "default/test/0000.parquet", "f" * 40),
    ]
    assert len(files) == 2


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
    import json

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
    config = example.replace('jsonl = "multi-swe-bench/go/cli__cli_dataset.jsonl"',
                             'jsonl = "tasks.jsonl"')
    [t] = load_multi(tmp_path, multi_row(), config=config).tasks
    assert t.repo == "acme/widgets" and len(t.fail_to_pass) == 2 and "Show units." in t.prose
