"""The command line behaves as people of this field expect: short options, the version, the
environment it reads, and an agent command shown in a form that can be pasted back."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DEMO

from determinacy import __version__
from determinacy.agent_phases import AgentSetup
from determinacy.cli import main
from determinacy.config import load_config
from determinacy.graph import Audit
from determinacy.store import Store

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = sorted(main.commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("argv", [[], *([c] for c in COMMANDS)])
def test_short_help_is_the_long_help(argv: list[str]) -> None:
    runner = CliRunner()
    short, long = runner.invoke(main, [*argv, "-h"]), runner.invoke(main, [*argv, "--help"])
    assert short.exit_code == long.exit_code == 0, short.output
    assert short.output == long.output and "Usage:" in short.output


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag: str) -> None:
    res = CliRunner().invoke(main, [flag])
    assert res.exit_code == 0 and __version__ in res.output


def test_python_dash_m_is_the_same_command() -> None:
    p = subprocess.run([sys.executable, "-m", "determinacy", "--version"], capture_output=True,
                       text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"determinacy, version {__version__}"


def test_help_names_the_environment_it_reads() -> None:
    top = CliRunner().invoke(main, ["--help"]).output
    run = CliRunner().invoke(main, ["run", "--help"]).output
    for var in ("DETERMINACY_STORE", "DETERMINACY_RUNS"):
        assert var in top and var in run


def test_sql_help_lists_every_view() -> None:
    views = re.findall(r"CREATE OR REPLACE VIEW (\w+)", (ROOT / "queries" / "views.sql")
                       .read_text())
    text = " ".join(CliRunner().invoke(main, ["sql", "--help"]).output.split())
    missing = [v for v in views if not re.search(rf"\b{v}\b", text)]
    assert views and not missing, missing


def test_agent_command_is_shown_as_it_can_be_pasted_back(tmp_path: Path) -> None:
    argv = ("python3", "agents/my agent.py", "--say", "it's fine")
    setup = AgentSetup(argv=argv, refuter=("sh", "-c", "echo $HOME"), pass_no=1,
                       timeout=10, max_chars=1000)
    info = Audit(cfg=load_config(DEMO), store=Store(tmp_path / "store"), runs=tmp_path,
                 agents=[setup]).run_info()
    assert tuple(shlex.split(info.agent)) == argv
    assert shlex.split(info.refuter) == ["sh", "-c", "echo $HOME"]
