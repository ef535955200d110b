"""The installed tool is the checkout: a wheel built from this tree, installed in a fresh venv,
runs every README line from a folder with no checkout in it, the shipped examples by name
included.

No network: the wheel is built offline (uv's cache holds the build backend once the project
has been synced) and installed with `uv pip install --offline --no-deps`; the venv reaches the
already installed dependencies through a `.pth` line (a path added that way never runs the
`.pth` files found there, so this checkout's editable install stays out of it). The wheel is
built once per session: under xdist the workers share it (the first builds, under a lock)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import check_outputs, expected_exit, prepare

ROOT = Path(__file__).resolve().parent.parent


def build_and_install(folder: Path) -> Path:
    uv = os.environ.get("UV") or shutil.which("uv")
    if not uv:
        pytest.skip("uv is needed to build the wheel offline")
    shutil.rmtree(folder, ignore_errors=True)
    built = subprocess.run([uv, "build", "--offline", "--wheel", "-q", "-o",
                            str(folder / "dist")], cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    [wheel] = (folder / "dist").glob("determinacy-*.whl")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [packages] = (venv / "lib").glob("python3*/site-packages")
    (packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    pip = subprocess.run([uv, "pip", "install", "--quiet", "--offline", "--no-deps",
                          "--python", str(venv / "bin" / "python"), str(wheel)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    return venv


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # xdist's workers of one session share the parent of their temporary folders.
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "installed-wheel"
    with open(root / "installed-wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "ready").is_file():
            build_and_install(folder)
            (folder / "ready").touch()
    return folder / "venv"


def user_env(venv: Path) -> dict[str, str]:
    """A user's shell with the installed tool first on PATH (its `python` runs the recorded
    agent) and none of the tool's variables set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DETERMINACY_")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def demo_counts(key: str) -> dict[str, int]:
    expected = json.loads((ROOT / "examples" / "demo" / "expected.json").read_text())
    counts: dict[str, int] = {}
    for verdict in expected.values():
        v = verdict if isinstance(verdict, str) else verdict[key]
        counts[v] = counts.get(v, 0) + 1
    return counts


# Runs command lines through the installed package's own `main`, one process for them all (a
# process per line would pay the start-up of the tool ~30 times over): the wheel's code and
# data, from a folder that holds no checkout.
DRIVER = """
import json, sys, traceback
from click.testing import CliRunner
from determinacy.cli import main
for args in json.load(sys.stdin):
    res = CliRunner().invoke(main, args)
    err = "".join(traceback.format_exception(res.exception)) if res.exc_info and \\
        not isinstance(res.exception, SystemExit) else ""
    print(json.dumps({"args": args, "exit": res.exit_code, "stdout": res.stdout,
                      "output": res.output[-3000:] + err}), flush=True)
"""


def test_every_readme_line_runs_installed_in_an_empty_folder(
        installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python, env = str(installed / "bin" / "python"), user_env(installed)
    where = subprocess.run([python, "-c", "from determinacy.cli.common import examples_dir; "
                            "print(examples_dir())"],
                           capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
    shipped = Path(where.stdout.strip())
    assert shipped.is_relative_to(installed), "the venv must import the wheel, not the checkout"
    monkeypatch.chdir(tmp_path)  # the README's globs expand here
    runs = prepare(tmp_path, shipped)  # the user's configs, over the wheel's demo files
    # After `run` (the demo, by default), a no-op rerun gives its known verdicts.
    at = runs.index(["run"]) + 1
    runs[at:at] = [["run", "--json", "--quiet"]]
    p = subprocess.run([python, "-c", DRIVER], input=json.dumps(runs), capture_output=True,
                       text=True, cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stderr[-3000:]
    results = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["args"] for r in results] == runs
    failed = [f"{r['args']}: exit {r['exit']}\n{r['output']}" for r in results
              if r["exit"] != expected_exit(r["args"])]
    assert not failed, "\n".join(failed)
    summary = json.loads(results[at]["stdout"].strip().splitlines()[-1])
    assert summary["verdicts"] == demo_counts("verdict"), summary
    check_outputs(tmp_path)
    # `examples copy demo` wrote the checkout's layout here, the recorded agent with it.
    assert (tmp_path / "examples" / "demo" / "recorded_agent.py").is_file()
    assert not (tmp_path / "examples").is_symlink()


def test_every_shipped_example_loads_by_name_installed(installed: Path, tmp_path: Path) -> None:
    """Every example config ships and its relative paths hold inside the wheel (`validate`
    loads each; the demo's pass, the hub's need the network and stop at the hub)."""
    exe, env = str(installed / "bin" / "determinacy"), user_env(installed)
    listed = subprocess.run([exe, "examples"], capture_output=True, text=True, cwd=tmp_path,
                            env=env, check=True)
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert names == sorted(p.stem for p in (ROOT / "examples").glob("*.toml"))
    code = ("import sys; from determinacy.cli.common import find_config; "
            "from determinacy.config import load_config; "
            "[load_config(find_config(n)) for n in sys.argv[1:]]")
    loaded = subprocess.run([str(installed / "bin" / "python"), "-c", code, *names],
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    assert loaded.returncode == 0, loaded.stderr


def test_the_hf_hint_names_the_install_the_user_has(installed: Path, tmp_path: Path) -> None:
    code = "from determinacy.sources.hf import install_hint; print(install_hint())"
    wheel = subprocess.run([str(installed / "bin" / "python"), "-c", code], capture_output=True,
                           text=True, cwd=tmp_path, check=True).stdout
    assert "pip install 'huggingface_hub>=0.20'" in wheel and "uv tool install" in wheel, wheel
    assert "uv run --extra hf" not in wheel
    (tmp_path / "uv-receipt.toml").write_text("[tool]\n")  # what uv writes in a tool's venv
    as_tool = f"import sys; sys.prefix = {str(tmp_path)!r}; {code}"  # the shared venv untouched
    tool = subprocess.run([str(installed / "bin" / "python"), "-c", as_tool],
                          capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert tool.startswith("this uv tool lacks it: `uv tool install --force 'SOURCE[hf]'`"), tool
    checkout = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=tmp_path, check=True).stdout
    assert "uv run --extra hf determinacy" in checkout, checkout


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
