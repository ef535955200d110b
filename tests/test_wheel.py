"""The installed tool works away from a checkout: a wheel built from this tree, installed in a
fresh venv in a temporary folder, runs the quickstart's audit of the shipped demo.

No network: the wheel is built offline (uv's cache holds the build backend once the project
has been synced) and installed with `uv pip install --offline --no-deps`; the venv reaches the
already installed dependencies through a `.pth` line (a path added that way never runs the
`.pth` files found there, so this checkout's editable install stays out of it)."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    uv = os.environ.get("UV") or shutil.which("uv")
    if not uv:
        pytest.skip("uv is needed to build the wheel offline")
    tmp = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([uv, "build", "--offline", "--wheel", "-q", "-o", str(tmp / "dist")],
                           cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp / "dist").glob("determinacy-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [packages] = (venv / "lib").glob("python3*/site-packages")
    (packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    pip = subprocess.run([uv, "pip", "install", "--quiet", "--offline", "--no-deps",
                          "--python", str(venv / "bin" / "python"), str(wheel)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    return venv


def test_the_installed_wheel_runs_the_demo_from_anywhere(installed: Path,
                                                         tmp_path: Path) -> None:
    exe = installed / "bin" / "determinacy"
    where = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "import determinacy; print(determinacy.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True)
    assert str(installed) in where.stdout, "the venv must import the wheel, not the checkout"
    p = subprocess.run([str(exe), "run", "--json"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    summary = json.loads(p.stdout.strip().splitlines()[-1])
    expected = json.loads((ROOT / "examples" / "demo" / "expected.json").read_text())
    counts: dict[str, int] = {}
    for verdict in expected.values():
        v = verdict if isinstance(verdict, str) else verdict["verdict"]
        counts[v] = counts.get(v, 0) + 1
    assert summary["verdicts"] == counts, summary
    assert (tmp_path / "runs" / "demo" / "REPORT.md").is_file()
    assert (tmp_path / "store").is_dir()


def test_the_installed_wheel_checks_its_schemas_and_asks_where_to_write(
        installed: Path, tmp_path: Path) -> None:
    exe = str(installed / "bin" / "determinacy")
    check = subprocess.run([exe, "schemas", "--check"], capture_output=True, text=True,
                           cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    write = subprocess.run([exe, "schemas"], capture_output=True, text=True, cwd=tmp_path)
    assert write.returncode == 2 and "--out" in write.stderr, write.stderr
    out = subprocess.run([exe, "schemas", "--out", str(tmp_path / "s")], capture_output=True,
                         text=True, cwd=tmp_path)
    assert out.returncode == 0 and (tmp_path / "s" / "Task.json").is_file(), out.stderr
