"""Shared test helpers: real git repositories, real benchmarks, real audit runs (no network)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from determinacy.cli import main

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo.toml"

# Most tests start the CLI in a process of its own. Where the environment forbids bytecode
# caches (PYTHONDONTWRITEBYTECODE), each such start compiled every module again (0.8 s of 1.1 s,
# measured): the suite's processes cache their bytecode, as a user's Python does.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
}


# acme/widgets: the small repository most tests build, with one helper and its test.
CORE = "def existing_helper():\n    return 1\n"
TEST = ("from pkg.core import existing_helper\n\n\n"
        "def test_existing():\n    assert existing_helper() == 1\n")
PROSE = "Add a second helper to pkg.core that returns two."


def widgets_repo(path: Path, extra: dict[str, str] | None = None) -> str:
    """acme/widgets at `path` (plus `extra` files); returns the base commit."""
    return make_repo(path, {"pkg/__init__.py": "", "pkg/core.py": CORE,
                            "tests/test_core.py": TEST, **(extra or {})})


def new_helper(repo: Path, base: str, name: str = "frobnicate_widget", value: int = 2, *,
               inline_import: bool = False) -> tuple[str, str]:
    """Gold and test patches of a task: the gold defines `name`, a new test calls it."""
    gold = diff(repo, base, {"pkg/core.py": f"{CORE}\n\ndef {name}():\n    return {value}\n"})
    if inline_import:
        body = (f"{TEST}\n\ndef test_new():\n"
                f"    from pkg.core import {name}\n    assert {name}() == {value}\n")
    else:
        body = (TEST.replace("import existing_helper", f"import existing_helper, {name}")
                + f"\n\ndef test_new():\n    assert {name}() == {value}\n")
    return gold, diff(repo, base, {"tests/test_core.py": body})


def message_task(repo: Path, base: str, name: str, message: str) -> tuple[str, str]:
    """Gold and test patches: the gold's new `name()` returns `message`, the test asserts it."""
    gold = diff(repo, base, {"pkg/core.py": f"{CORE}\n\ndef {name}():\n    return {message!r}\n"})
    test = diff(repo, base, {"tests/test_core.py": TEST.replace(
        "import existing_helper", f"import existing_helper, {name}")
        + f"\n\ndef test_new():\n    assert {name}() == {message!r}\n"})
    return gold, test


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=cwd, env=GIT_ENV,
                          check=True, capture_output=True, text=True).stdout


def make_repo(path: Path, files: dict[str, str]) -> str:
    """A real repository with one commit holding `files`; returns the commit sha."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "-c", "init.defaultBranch=main", "init", "-q")
    return commit(path, files)


def commit(path: Path, files: dict[str, str], message: str = "c") -> str:
    for name, text in files.items():
        p = path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    git(path, "add", "-A")
    git(path, "commit", "-q", "--allow-empty", "-m", message)
    return git(path, "rev-parse", "HEAD").strip()


def diff(repo: Path, base: str, changes: dict[str, str]) -> str:
    """The unified diff that turns `base` into `base` + `changes` (not committed to main)."""
    git(repo, "checkout", "-q", "--detach", base)
    for name, text in changes.items():
        p = repo / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    git(repo, "add", "-A")
    out = git(repo, "diff", "--cached", base)
    git(repo, "reset", "-q", "--hard", base)
    git(repo, "checkout", "-q", "main")
    return out


def write_benchmark(folder: Path, rows: list[dict[str, Any] | str], *, mirror: str,
                    name: str = "bench", extra: str = "") -> Path:
    """A jsonl source + config; `rows` may hold raw strings (malformed lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, str) else json.dumps(r, sort_keys=True) for r in rows]
    (folder / "tasks.jsonl").write_text("\n".join(lines) + "\n")
    cfg = folder / f"{name}.toml"
    cfg.write_text(
        f'name = "{name}"\n'
        '[source]\njsonl = "tasks.jsonl"\n'
        '[fields]\ninstance_id = "instance_id"\nrepo = "repo"\nbase_commit = "base_commit"\n'
        'gold_patch = "patch"\ntest_patch = "test_patch"\nfail_to_pass = "FAIL_TO_PASS"\n'
        'prose = ["problem_statement"]\n'
        f'[codebase]\nclone_url = "{folder}/nowhere/{{owner}}/{{name}}.git"\n'
        f'mirror = "{mirror}"\n' + extra
    )
    return cfg


def source_only_config(folder: Path, source: str) -> Path:
    """A config `c.toml` whose [source] table holds `source` (TOML lines) and whose fields are
    placeholders: for errors a config raises before any row is read."""
    cfg = folder / "c.toml"
    cfg.write_text(f'name = "x"\n[source]\n{source}[fields]\n'
                   'instance_id="a"\nrepo="b"\nbase_commit="c"\ngold_patch="d"\n'
                   'test_patch="e"\nfail_to_pass="f"\n')
    return cfg


def graded_ids(test: str) -> list[str]:
    """FAIL_TO_PASS as a benchmark gives it: `file::test` of each test the test patch adds."""
    ids, path = [], ""
    for line in test.splitlines():
        if line.startswith("+++ b/"):
            path = line[6:]
        elif m := re.match(r"^\+\s*def (test_\w+)", line):
            ids.append(f"{path}::{m.group(1)}")
    return ids or ["tests/test_x.py::test_x"]


def row(instance_id: str, base: str, prose: str, gold: str, test: str,
        repo: str = "acme/widgets", f2p: Any = None) -> dict[str, Any]:
    """A task row; FAIL_TO_PASS defaults to the tests the test patch adds."""
    if f2p is None:
        f2p = graded_ids(test)
    return {"instance_id": instance_id, "repo": repo, "base_commit": base,
            "problem_statement": prose, "patch": gold, "test_patch": test,
            "FAIL_TO_PASS": list(f2p) if isinstance(f2p, tuple) else f2p}


class Audit:
    """Runs the real CLI in-process against one store and runs folder."""

    def __init__(self, tmp: Path):
        self.store, self.runs = tmp / "store", tmp / "runs"

    def invoke(self, *args: str) -> Any:
        res = CliRunner().invoke(main, list(args), catch_exceptions=False)
        return res

    def run(self, config: Path | None = None, *args: str) -> dict[str, Any]:
        """A completed run (exit 0, or 3: completed with ERROR cases) and its summary."""
        argv = ["run", *([str(config)] if config else []), "--store", str(self.store),
                "--runs", str(self.runs), "--json", *args]
        res = self.invoke(*argv)
        assert res.exit_code in (0, 3), res.output
        summary = json.loads(res.stdout.strip().splitlines()[-1])
        assert summary["exit"] == res.exit_code
        return summary

    def sql(self, config: Path | None, query: str) -> list[dict[str, Any]]:
        res = self.invoke("sql", *([str(config)] if config else []), query, "--store",
                          str(self.store), "--format", "json")
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    def verdicts(self, config: Path | None = None) -> dict[str, str]:
        return {r["case_id"]: r["verdict"]
                for r in self.sql(config, "select case_id, verdict from verdicts")}

    def files(self, name: str) -> dict[str, bytes]:
        base = self.runs / name
        return {str(p.relative_to(base)): p.read_bytes()
                for p in sorted(base.rglob("*")) if p.is_file()}


@pytest.fixture
def audit(tmp_path: Path) -> Audit:
    return Audit(tmp_path)
