"""Every `uv run determinacy ...` example of the README runs, in README order, as a new user
would type it: in an empty folder beside a copy of the demo named as the README names its
configs. Only what cannot run here is left out (a download, an agent that is not installed)."""

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
        args += sorted(glob.glob(w)) if "*" in w else [w]
    return args


def demo_copy(folder: Path, name: str, absence: str = "strict") -> Path:
    """The demo under another name, its relative paths made absolute."""
    text = (ROOT / "examples" / "demo.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = "demo"', f'name = "{name}"', text, flags=re.M)
    text = text.replace('"demo/', f'"{ROOT / "examples" / "demo"}/')
    text = text.replace('absence = "strict"', f'absence = "{absence}"')
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_readme_lists_the_commands_people_use() -> None:
    commands = {argv(line)[0] for line in examples()}
    assert {"run", "validate", "report", "sql", "show", "export", "diff", "verify"} <= commands


def test_every_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    for name in ("my-benchmark", "my", "strict"):
        demo_copy(tmp_path, name)
    demo_copy(tmp_path, "lenient", "lenient")
    (tmp_path / "my-query.sql").write_text("-- a comment first\nselect count(*) from claims\n")
    audit = Audit(tmp_path)  # only its in-process CLI: every path is the README's default
    for config in ("strict.toml", "lenient.toml"):  # what `diff` compares, audited first
        assert audit.invoke("run", config, "--quiet").exit_code == 0
    ran = []
    for line in examples():
        if UNRUNNABLE.search(line):
            continue
        args = argv(line)
        res = audit.invoke(*args)
        # The demo has a broken row on purpose: `validate` warns of it (exit 3, documented).
        assert res.exit_code == (3 if args[0] == "validate" else 0), f"{line}\n{res.output}"
        ran.append(line)
    assert len(ran) >= 12
    assert (tmp_path / "claims.csv").read_text().startswith("case_id,")
    assert (tmp_path / "runs" / "my-benchmark" / "REPORT.md").is_file()
