"""`determinacy validate` checks what `run` checks before any audit: every mirror path, the
base commits of a sample of rows, rows that are not tasks; each problem once, not once a row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import PROSE, git, new_helper, row, widgets_repo, write_benchmark

from determinacy.codebase.preflight import Row, sample


def validate(cfg: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "determinacy.cli", "validate", str(cfg), *args],
                          capture_output=True, text=True, timeout=120)


def warnings(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("warning: ")]


def test_a_missing_mirror_is_one_line_per_repository(tmp_path: Path) -> None:
    rows = [row(f"a__b-{i}", "a" * 40, PROSE, "diff --git a/x b/x\n", "diff --git a/t b/t\n",
                repo="a/b") for i in range(37)]
    rows += [row(f"c__d-{i}", "b" * 40, PROSE, "diff --git a/x b/x\n", "diff --git a/t b/t\n",
                 repo="c/d") for i in range(2)]
    cfg = write_benchmark(tmp_path, rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}.git")
    p = validate(cfg)
    assert p.returncode == 3, p.stdout + p.stderr
    assert warnings(p.stdout) == [
        f"warning: mirror {tmp_path}/m/a/b.git missing: 37 rows of repo a/b (codebase.mirror; "
        "set codebase.fallback_clone = true to clone instead)",
        f"warning: mirror {tmp_path}/m/c/d.git missing: 2 rows of repo c/d (codebase.mirror; "
        "set codebase.fallback_clone = true to clone instead)"]
    allowed = cfg.with_name("fallback.toml")
    allowed.write_text(cfg.read_text() + "fallback_clone = true\n")
    p = validate(allowed)
    assert p.returncode == 0 and not warnings(p.stdout), p.stdout
    assert f"note: mirror {tmp_path}/m/a/b.git missing: 37 rows of repo a/b are cloned from " \
           f"{tmp_path}/nowhere/a/b.git instead (codebase.fallback_clone)" in p.stdout


def test_a_base_commit_the_mirror_lacks_is_named_with_its_row(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    gold, test = new_helper(repo, base)
    rows = [row("acme__widgets-1", base, PROSE, gold, test),
            row("acme__widgets-2", "c0ffee" * 6 + "c0ff", PROSE, gold, test),
            row("acme__widgets-3", base[:10], PROSE, gold, test)]
    cfg = write_benchmark(tmp_path, rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    p = validate(cfg)
    assert p.returncode == 3, p.stdout + p.stderr
    assert warnings(p.stdout) == [
        f"warning: mirror {repo} lacks 1 of the 3 base commits checked of repo acme/widgets: "
        "c0ffeec0ffee (row 2); a local mirror is never fetched into: update it "
        f"(`git -C {repo} fetch`) or point codebase.mirror at a complete one"]
    # Only the good rows: every commit is found (a short sha too); --commits 0 looks none up.
    good = write_benchmark(tmp_path / "good", [rows[0], rows[2]],
                           mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    p = validate(good)
    assert p.returncode == 0 and p.stdout.endswith(
        "ok: every row is a task; 2 base commits found in the mirrors\n"), p.stdout
    p = validate(cfg, "--commits", "0")
    assert p.returncode == 0 and p.stdout.endswith("ok: every row is a task\n"), p.stdout


def test_a_mirror_that_is_not_a_repository_or_a_bundle_is_named(tmp_path: Path) -> None:
    acme = tmp_path / "m" / "acme"
    (acme / "widgets").mkdir(parents=True)  # a folder, but not a git repository
    (acme / "gadgets").write_text("not a bundle\n")  # a file, but not a bundle
    src = tmp_path / "src"
    base = widgets_repo(src)
    git(src, "bundle", "create", str(acme / "tools"), "--all")  # a bundle: fine
    rows = [row(f"{name}-1", base, PROSE, "diff --git a/x b/x\n", "diff --git a/t b/t\n",
                repo=f"acme/{name}") for name in ("widgets", "gadgets", "tools")]
    cfg = write_benchmark(tmp_path, rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    p = validate(cfg)
    assert p.returncode == 3, p.stdout + p.stderr
    assert warnings(p.stdout) == [
        f"warning: mirror {acme}/widgets is not a git repository (a bare repository or a "
        "clone): 1 row of repo acme/widgets",
        f"warning: mirror {acme}/gadgets is neither a git repository nor a git bundle: 1 row "
        "of repo acme/gadgets"]


def test_rows_that_are_not_tasks_are_one_line_per_cause(tmp_path: Path) -> None:
    good = row("ok-1", "a" * 40, PROSE, "diff --git a/x b/x\n", "diff --git a/t b/t\n")
    lacking = [{k: v for k, v in good.items() if k != "base_commit"} | {"instance_id": f"x-{i}"}
               for i in range(12)]
    cfg = write_benchmark(tmp_path, [good, *lacking, good], mirror="", extra="")
    cfg.write_text(cfg.read_text().replace('mirror = ""\n', ""))
    p = validate(cfg, "--rows", "0")
    assert p.returncode == 3, p.stdout + p.stderr
    assert warnings(p.stdout) == [
        "warning: fields.base_commit `base_commit` is missing from 12 of 14 rows",
        "warning: rows 2, 3, 4, 5, 6, 7, 8, 9 and 4 more: missing field `base_commit` (config "
        "key fields.base_commit)",
        "warning: row 14: duplicate instance_id 'ok-1' (row 1 has it)"]


def test_the_sample_is_spread_over_the_rows_and_the_same_every_time() -> None:
    rows = [Row(n, "a/b", f"{n:040x}") for n in range(1, 101)]
    picked = [r.row for r in sample(rows, 5)]
    assert picked == [1, 26, 51, 75, 100] and picked == [r.row for r in sample(rows, 5)]
    assert [r.row for r in sample(rows[:3], 5)] == [1, 2, 3] and sample(rows, 0) == []
