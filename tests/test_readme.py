"""Every `uv run determinacy ...` example of the README runs, in README order, as a new user
would type it: in an empty folder beside a copy of the demo named as the README names its
configs. Only what cannot run here is left out (a download, an agent that is not installed).
tests/test_wheel.py runs the same lines against an installed wheel, from a folder with no
checkout in it."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

import pytest
from conftest import ROOT, Audit

README = ROOT / "README.md"
# Lines that need what a test machine has not: the network, a model's command line.
UNRUNNABLE = re.compile(r"--extra hf|claude|codex")
# The README's placeholders, as the demo spells them.
PLACEHOLDERS = {"vuls-1832b4": "widgets-1", "ID": "acme__widgets-1"}


def examples() -> list[str]:
    """The command lines of the README's code blocks (indented four blanks), in order."""
    out = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("    uv run determinacy "):
            out.append(line.strip())
    return out


def argv(line: str) -> list[str]:
    words = shlex.split(line, comments=True)[2:]  # `uv run` is the environment, not the tool
    assert words[0] == "determinacy"
    args: list[str] = []
    for w in words[1:]:
        w = PLACEHOLDERS.get(w, w)
        # A glob is a path's (`results/*`), never a quoted query's (`"select * from x"`).
        args += sorted(glob.glob(w)) if "*" in w and " " not in w else [w]
    return args


def demo_copy(folder: Path, name: str, absence: str = "strict",
              examples_dir: Path = ROOT / "examples") -> Path:
    """The demo under another name, its relative paths made absolute (into EXAMPLES_DIR: the
    checkout's, or an installed wheel's)."""
    text = (examples_dir / "demo.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = "demo"', f'name = "{name}"', text, flags=re.M)
    text = text.replace('"demo/', f'"{examples_dir / "demo"}/')
    text = text.replace('absence = "strict"', f'absence = "{absence}"')
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def prepare(folder: Path, examples_dir: Path = ROOT / "examples") -> list[list[str]]:
    """What the README's lines take as given, written into FOLDER: the user's configs (copies
    of the demo named as the README names them) and a query file. Returns the README's
    runnable lines as arguments, in order; the first two audit what `diff` compares."""
    for name in ("my-benchmark", "my", "strict"):
        demo_copy(folder, name, examples_dir=examples_dir)
    demo_copy(folder, "lenient", "lenient", examples_dir)
    (folder / "my-query.sql").write_text("-- a comment first\nselect count(*) from claims\n")
    # A data file of SWE-bench's columns for `init` (the demo's rows).
    (folder / "tasks.jsonl").write_bytes((examples_dir / "demo" / "tasks.jsonl").read_bytes())
    lines = [line for line in examples() if not UNRUNNABLE.search(line)]
    return [["run", "strict.toml", "--quiet"], ["run", "lenient.toml", "--quiet"],
            *(argv(line) for line in lines)]


def expected_exit(args: list[str]) -> int:
    # The demo has a broken row on purpose: `validate` warns of it (exit 3, documented).
    return 3 if args[0] == "validate" else 0


def check_outputs(folder: Path) -> None:
    assert (folder / "claims.csv").read_text().startswith("case_id,")
    assert (folder / "runs" / "my-benchmark" / "REPORT.md").is_file()
    assert (folder / "runs" / "demo" / "SCORES.md").is_file()  # `score demo`: its own results


def test_readme_lists_the_commands_people_use() -> None:
    commands = {argv(line)[0] for line in examples()}
    assert {"run", "validate", "report", "sql", "show", "export", "diff", "verify",
            "examples", "score"} <= commands


def test_every_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # a checkout's root has examples/
    runs = prepare(tmp_path)
    audit = Audit(tmp_path)  # only its in-process CLI: every path is the README's default
    for args in runs:
        res = audit.invoke(*args)
        assert res.exit_code == expected_exit(args), f"{args}\n{res.output}"
    assert len(runs) >= 14
    check_outputs(tmp_path)
