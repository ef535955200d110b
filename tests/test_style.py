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


# The package's floors, lowest first (README "Where things are"): a module imports only from
# its own floor or below, so each folder can be read, and tested, without those above it.
FLOORS = (
    ("errors", "causes", "clock", "signals", "paths", "records", "store", "git", "dodb", "config",
     "prose", "settle"),
    ("languages",),
    ("codebase",),
    ("proposer",),
    ("prescreens",),
    ("sources",),
    ("phases",),
    ("agents",),
    ("reports",),
    ("score",),
    ("verify", "schemas", "selection", "graph", "plan", "executor"),
    ("cli", "__main__"),
)


def _imports() -> dict[str, set[str]]:
    """determinacy module -> the determinacy modules it imports, anywhere in its body."""
    import ast

    package = ROOT / "determinacy"
    names = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in package.rglob("*.py")}
    out: dict[str, set[str]] = {}
    for mod, path in names.items():
        got = out.setdefault(mod, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("determinacy"):
                for alias in node.names:  # `from determinacy.x import y`: y may be a module
                    sub = f"{node.module}.{alias.name}"
                    got.add(sub if sub in names else node.module)
            elif isinstance(node, ast.Import):
                got.update(a.name for a in node.names if a.name.startswith("determinacy."))
        got.discard(mod)
        got.discard("determinacy")  # __version__
    return out


def _floor(mod: str) -> int:
    top = mod.split(".")[1] if "." in mod else ""
    for i, floor in enumerate(FLOORS):
        if top in floor:
            return i
    raise AssertionError(f"{mod} is on no floor of FLOORS: give it one")


def test_no_import_runs_up_a_floor_or_in_a_circle() -> None:
    imports = _imports()
    up = sorted(f"{m} -> {d}" for m, deps in imports.items() if m != "determinacy"
                for d in deps if d != "determinacy" and _floor(d) > _floor(m))
    assert not up, "imports that run up a floor:\n" + "\n".join(up)
    # No circle of any length, within a floor too (depth-first, three colours).
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for d in sorted(imports.get(m, ())):
            assert state.get(d) != 1, "import circle: " + " -> ".join([*trail, m, d])
            if d not in state:
                visit(d, [*trail, m])
        state[m] = 2

    for m in sorted(imports):
        if m not in state:
            visit(m, [])
