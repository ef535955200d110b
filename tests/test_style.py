"""The code stays ruff-clean (the project's style gate runs with the tests)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import ROOT


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(ROOT / ".venv" / "bin"))
    if ruff is None:
        pytest.skip("ruff is not installed (it is in the dev dependency group)")
    p = subprocess.run([ruff, "check", "--no-cache", str(ROOT)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_package_imports_without_heavy_modules() -> None:
    """`doit` imports dodo.py on every call: keep pyarrow, duckdb and the tree-sitter grammars
    out of the graph's import (each is loaded where it is used)."""
    code = ("import sys, determinacy.graph, determinacy.cli; print(sorted(m for m in "
            "('pyarrow', 'duckdb', 'tree_sitter', 'tree_sitter_python') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
