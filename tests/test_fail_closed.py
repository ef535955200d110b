"""Fail closed: a claim of absence is made only over a tree that was read whole, at the commit
the task names, whatever the mirror, its config or the environment say; nothing a mirror
configures runs; errors name their cause and the exit status says how the audit ended."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from conftest import (
    DEMO,
    PROSE,
    Audit,
    commit,
    git,
    make_repo,
    new_helper,
    row,
    widgets_repo,
    write_benchmark,
)

from determinacy import git as gitcmd
from determinacy.cli import main
from determinacy.codebase import repos, search
from determinacy.errors import CaseFailure

# The only place `frobnicate_widget` exists at base: a blob a size-capped mirror drops.
BIG = b"\x00binary\x00" + b"frobnicate_widget" + bytes(range(256)) * 64


def make_widgets(path: Path) -> str:
    """acme/widgets with one more commit adding data/big.bin."""
    widgets_repo(path)
    (path / "data").mkdir(exist_ok=True)
    (path / "data" / "big.bin").write_bytes(BIG)
    return commit(path, {}, "add data")


def loose_object(git_dir: Path, sha: str) -> Path:
    return git_dir / "objects" / sha[:2] / sha[2:]


@pytest.fixture
def widgets(tmp_path: Path) -> dict[str, Any]:
    src = tmp_path / "src" / "acme" / "widgets"
    base = make_widgets(src)
    hidden = new_helper(src, base, "frobnicate_widget")
    clean = new_helper(src, base, "polish_gadget")
    rows = [row("hidden", base, PROSE, *hidden), row("clean", base, PROSE, *clean)]
    # A mirror that lacks one blob, as a size-capped or damaged one does.
    broken = tmp_path / "broken" / "acme" / "widgets.git"
    git(tmp_path, "clone", "-q", "--bare", "--no-hardlinks", str(src), str(broken))
    blob = git(src, "rev-parse", f"{base}:data/big.bin").strip()
    loose_object(broken, blob).unlink()
    return {"src": src, "base": base, "rows": rows, "tmp": tmp_path,
            "complete": f"{tmp_path}/src/{{owner}}/{{name}}",
            "broken": f"{tmp_path}/broken/{{owner}}/{{name}}.git"}


def test_git_grep_says_absent_over_a_missing_blob(widgets: dict[str, Any]) -> None:
    """Why the tool cannot lean on `git grep`'s exit status: it is 1 ("no match") here."""
    mirror = widgets["tmp"] / "broken" / "acme" / "widgets.git"
    p = subprocess.run(["git", f"--git-dir={mirror}", "grep", "-F", "-e", "frobnicate_widget",
                        widgets["base"]], capture_output=True)
    assert p.returncode == 1 and b"unable to read" in p.stderr


def test_incomplete_tree_is_an_error_then_partial_then_airtight(widgets: dict[str, Any]) -> None:
    tmp, audit = widgets["tmp"], Audit(widgets["tmp"])
    cfg = write_benchmark(tmp / "bench", widgets["rows"], mirror=widgets["broken"])
    s = audit.run(cfg)
    assert s["exit"] == 3 and s["case_errors"] == 2, s
    assert audit.verdicts(cfg) == {"hidden": "ERROR", "clean": "ERROR"}
    [v] = audit.sql(cfg, "select error from verdicts where case_id = 'hidden'")
    assert "incomplete tree" in v["error"] and "data/big.bin (missing blob" in v["error"], v
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "2 of them for an incomplete tree" in report and "data/big.bin" in report

    # The opt-in policy certifies over the readable part, counted apart and named.
    cfg = write_benchmark(tmp / "bench", widgets["rows"], mirror=widgets["broken"],
                          extra='[policy]\nunreadable = "exclude"\n')
    assert audit.run(cfg)["exit"] == 0
    assert audit.verdicts(cfg) == {"hidden": "AIRTIGHT-PARTIAL", "clean": "AIRTIGHT-PARTIAL"}
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "At least **0** of 2 audited cases" in report
    assert "Counted apart: **2** AIRTIGHT-PARTIAL" in report
    claims = (audit.runs / "bench" / "CLAIMS.md").read_text()
    assert "Counted apart: absence over what could be read" in claims
    assert "data/big.bin (missing blob, size unknown)" in claims
    receipt = (audit.runs / "bench" / "cases" / "hidden" / "RECEIPT.md").read_text()
    assert receipt.startswith("# AIRTIGHT-PARTIAL: hidden")
    assert "## Not read" in receipt and "`data/big.bin`: missing blob, size unknown" in receipt

    # Pointing the config at a complete mirror re-evaluates: the hidden constant is found.
    cfg = write_benchmark(tmp / "bench", widgets["rows"], mirror=widgets["complete"],
                          extra='[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"hidden": "NO_CLAIM", "clean": "AIRTIGHT"}
    [c] = audit.sql(cfg, "select codebase_at from candidates where constant = "
                         "'frobnicate_widget'")
    assert c["codebase_at"] == "data/big.bin:1"


def test_mirror_completed_in_place_is_searched_again(widgets: dict[str, Any]) -> None:
    tmp, audit = widgets["tmp"], Audit(widgets["tmp"])
    cfg = write_benchmark(tmp / "bench", widgets["rows"], mirror=widgets["broken"],
                          extra='[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    broken = tmp / "broken" / "acme" / "widgets.git"
    git(tmp, f"--git-dir={broken}", "fetch", "-q", str(widgets["src"]), "main")
    blob = git(widgets["src"], "rev-parse", f"{widgets['base']}:data/big.bin").strip()
    shutil.copy(loose_object(widgets["src"] / ".git", blob), loose_object(broken, blob))
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"hidden": "NO_CLAIM", "clean": "AIRTIGHT"}


def test_short_sha_never_resolves_to_a_branch(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo, {"docs/names.txt": "polish_gadget\n"})
    gold, test = new_helper(repo, base, "polish_gadget")
    git(repo, "rm", "-q", "docs/names.txt")
    later = commit(repo, {}, "drop the names")
    # Branches named like the task's short sha and like a hex word, both at `later`.
    git(repo, "branch", base[:12], later)
    git(repo, "branch", "deadbeef", later)
    rows = [row("short", base[:12], PROSE, gold, test), row("word", "deadbeef", PROSE, gold, test)]
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    # At `later` (the branch) the name is absent: resolving the ref would certify it.
    assert audit.verdicts(cfg) == {"short": "NO_CLAIM", "word": "ERROR"}
    [v] = audit.sql(cfg, "select base_commit, error from verdicts where case_id = 'short'")
    assert v["base_commit"] == base  # stored and printed in full
    [w] = audit.sql(cfg, "select error from verdicts where case_id = 'word'")
    assert "base commit deadbeef does not exist" in w["error"]
    receipt = (audit.runs / "bench" / "cases" / "short" / "RECEIPT.md").read_text()
    assert f"at `{base}`" in receipt


def test_ambiguous_prefix_is_an_error(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    make_repo(repo, {"a.txt": "a\n"})
    # 1,500 commits (fast-import, fixed dates: the same shas every time) share 4-hex prefixes.
    stream = "".join(f"commit refs/heads/c{i}\ncommitter t <t@t> 1577836800 +0000\n"
                     f"data {len(str(i))}\n{i}\n\n" for i in range(1500))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream.encode(),
                   check=True)
    shas = git(repo, "for-each-ref", "--format=%(objectname)", "refs/heads/c*").split()
    by4: dict[str, list[str]] = {}
    for s in shas:
        by4.setdefault(s[:4], []).append(s)
    prefix = min(p for p, group in by4.items() if len(group) > 1)
    with pytest.raises(CaseFailure, match="is ambiguous"):
        repos._commit_of(repo / ".git", prefix)
    assert repos._commit_of(repo / ".git", shas[0][:12]) == shas[0]


@pytest.mark.parametrize("how", ["GIT_WORK_TREE", "core.worktree", "GIT_* variables"])
def test_environment_and_mirror_config_do_not_narrow_the_search(tmp_path: Path,
                                                                 how: str) -> None:
    """Run from inside a subfolder of the work tree, as a real process (git reads its
    environment at start): the search still covers the whole tree."""
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo, {"sub/keep.txt": "x\n", "other/place.py": "# frobnicate_widget\n"})
    hidden = new_helper(repo, base, "frobnicate_widget")
    clean = new_helper(repo, base, "polish_gadget")
    cfg = write_benchmark(tmp_path / "bench", [row("hidden", base, PROSE, *hidden),
                                               row("clean", base, PROSE, *clean)],
                          mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    env = dict(os.environ)
    if how == "GIT_WORK_TREE":
        env["GIT_WORK_TREE"] = "/"
    elif how == "core.worktree":
        git(repo, "config", "core.worktree", str(repo))
    else:
        env.update(GIT_CONFIG_PARAMETERS=f"'core.worktree'='{repo}'",
                   GIT_DIR=str(tmp_path / "nowhere"), GIT_NAMESPACE="x")
    audit = Audit(tmp_path)
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", "run", str(cfg), "--store",
                        str(audit.store), "--runs", str(audit.runs)], cwd=repo / "sub",
                       env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert audit.verdicts(cfg) == {"hidden": "NO_CLAIM", "clean": "AIRTIGHT"}
    [c] = audit.sql(cfg, "select codebase_at from candidates where constant = "
                         "'frobnicate_widget'")
    assert c["codebase_at"] == "other/place.py:1"


def test_nothing_graded_means_nothing_claimed(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    gold, test = new_helper(repo, base, "polish_gadget")
    rows = [row("graded", base, PROSE, gold, test),
            row("empty", base, PROSE, gold, test, f2p=[]),
            row("elsewhere", base, PROSE, gold, test,
                f2p=["tests/test_other.py::test_something_unrelated"]),
            # Other runners name built files or packages: such ids cannot be checked, and
            # may grade (a SWE-bench Pro id names `test/tests/X.js` built from `test/X.ts`).
            row("built", base, PROSE, gold, test, f2p=["test/tests/Core.js | suite"]),
            row("go", base, PROSE, gold, test, f2p=["TestSomething"])]
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"graded": "AIRTIGHT", "empty": "NO_CLAIM",
                                   "elsewhere": "NO_CLAIM", "built": "AIRTIGHT",
                                   "go": "AIRTIGHT"}
    cases = audit.runs / "bench" / "cases"
    empty = (cases / "empty" / "RECEIPT.md").read_text()
    assert "## Nothing is graded" in empty and "FAIL_TO_PASS is empty" in empty
    assert "not graded: FAIL_TO_PASS is empty" in empty
    elsewhere = (cases / "elsewhere" / "RECEIPT.md").read_text()
    assert "every FAIL_TO_PASS id names a test file that exists neither at base_commit" \
        in elsewhere, elsewhere
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "| not graded (FAIL_TO_PASS empty, or all its tests name files that do not exist) |" \
        in report


def test_submodule_contents_make_the_tree_incomplete(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{base},vendor/lib")
    git(repo, "commit", "-q", "-m", "add a submodule")  # not `add -A`: no checkout of it
    base = git(repo, "rev-parse", "HEAD").strip()
    gold, test = new_helper(repo, base, "polish_gadget")
    mirror = f"{tmp_path}/m/{{owner}}/{{name}}"
    audit = Audit(tmp_path)
    cfg = write_benchmark(tmp_path / "bench", [row("sub", base, PROSE, gold, test)],
                          mirror=mirror)
    audit.run(cfg)
    [v] = audit.sql(cfg, "select verdict, error from verdicts")
    assert v["verdict"] == "ERROR" and "vendor/lib (submodule" in v["error"], v
    cfg = write_benchmark(tmp_path / "bench", [row("sub", base, PROSE, gold, test)],
                          mirror=mirror, extra='[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"sub": "AIRTIGHT-PARTIAL"}


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "latin-1"])
def test_text_in_other_encodings_is_searched_decoded(tmp_path: Path, encoding: str) -> None:
    name = "Prix réduit appliqué" if encoding == "latin-1" else "frobnicate_widget"
    repo = tmp_path / "r"
    make_repo(repo, {"a.txt": "nothing here\n"})
    (repo / "notes.txt").write_bytes(f"first line\nsee {name} here\n".encode(encoding))
    sha = commit(repo, {})
    tree = repos.list_tree(repo / ".git", sha)
    assert search.Engine(None).find(tree, "r", [name, "absent thing"]).hits == \
        {name: "notes.txt:2"}


def test_utf16_constant_at_base_is_not_certified(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    (repo / "docs").mkdir()
    (repo / "docs" / "names.txt").write_bytes("frobnicate_widget\n".encode("utf-16"))
    base = commit(repo, {})
    gold, test = new_helper(repo, base, "frobnicate_widget")
    cfg = write_benchmark(tmp_path / "bench", [row("u16", base, PROSE, gold, test)],
                          mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"u16": "NO_CLAIM"}


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*")}


def test_partial_clone_mirror_never_runs_its_commands_or_fetches(tmp_path: Path) -> None:
    src = tmp_path / "src"
    base = make_widgets(src)
    gold, test = new_helper(src, base, "polish_gadget")
    git(src, "config", "uploadpack.allowfilter", "true")
    mirror = tmp_path / "m" / "acme" / "widgets.git"
    git(tmp_path, "clone", "-q", "--bare", "--filter=blob:limit=1k", f"file://{src}",
        str(mirror))
    marker = tmp_path / "PWNED"
    evil = tmp_path / "evil.sh"
    evil.write_text(f"#!/bin/sh\ntouch {marker}\nexec git-upload-pack \"$@\"\n")
    evil.chmod(0o755)
    git(tmp_path, f"--git-dir={mirror}", "config", "remote.origin.uploadpack", str(evil))
    git(tmp_path, f"--git-dir={mirror}", "config", "core.sshCommand", f"{evil} ssh")
    git(tmp_path, f"--git-dir={mirror}", "config", "core.fsmonitor", str(evil))
    before = snapshot(mirror)
    cfg = write_benchmark(tmp_path / "bench", [row("t", base, PROSE, gold, test)],
                          mirror=f"{tmp_path}/m/{{owner}}/{{name}}.git")
    audit = Audit(tmp_path)
    audit.run(cfg)
    [v] = audit.sql(cfg, "select verdict, error from verdicts")
    assert v["verdict"] == "ERROR" and "data/big.bin (missing blob" in v["error"], v
    assert not marker.exists()
    assert snapshot(mirror) == before


def test_a_partial_clone_is_surveyed_once_for_many_trees(tmp_path: Path) -> None:
    """In a partial clone, which blobs are missing is asked of `rev-list --missing=print`
    once for every tree of a repository, and gives each tree the same missing blobs as
    asking for that tree alone."""
    src = tmp_path / "src"
    first = make_repo(src, {"small.txt": "a\n", "big1.bin": "x" * 4000})
    second = commit(src, {"big2.bin": "y" * 5000, "small.txt": "b\n"})
    git(src, "config", "uploadpack.allowfilter", "true")
    mirror = tmp_path / "m.git"
    git(tmp_path, "clone", "-q", "--bare", "--filter=blob:limit=1k", f"file://{src}",
        str(mirror))
    alone = {sha: repos.list_tree(mirror, sha).missing for sha in (first, second)}
    assert len(alone[first]) == 1 and len(alone[second]) == 2
    repos._close_objects()
    repos._OBJECTS.clear()
    real = gitcmd.run
    calls: list[tuple[str, ...]] = []

    def counted(git_dir: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(args)
        return real(git_dir, *args, **kw)

    with mock.patch.object(gitcmd, "run", counted):
        repos.survey(mirror, [first, second])
        together = {sha: repos.list_tree(mirror, sha).missing for sha in (first, second)}
    assert together == alone
    assert [a[0] for a in calls] == ["rev-list"]


@pytest.mark.parametrize("url, why", [
    ("ext::sh -c touch% /tmp/pwned", "transport 'ext'::"),
    ("fd::17", "transport 'fd'::"),
    ("http://example.invalid/{owner}/{name}.git", "transport 'http' is not allowed"),
    ("git://example.invalid/{owner}/{name}.git", "transport 'git' is not allowed"),
])
def test_clone_transports_that_run_code_are_refused(tmp_path: Path, url: str, why: str) -> None:
    cfg = write_benchmark(tmp_path / "bench", [], mirror="")
    text = cfg.read_text().replace("mirror = \"\"\n", "")
    text = text.replace(text.split("clone_url = ", 1)[1].split("\n", 1)[0], f'"{url}"')
    cfg.write_text(text)
    res = CliRunner().invoke(main, ["run", str(cfg), "--store", str(tmp_path / "s")])
    assert res.exit_code == 2, res.output
    assert "key `codebase.clone_url`" in res.output and why in res.output, res.output


def test_clone_and_fetch_have_a_timeout(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_repo(src, {"a.txt": "a\n"})
    with pytest.raises(CaseFailure, match="timed out after"):
        gitcmd.transfer(["clone", "--mirror", "--", str(src), str(tmp_path / "dst")],
                        cwd=tmp_path, timeout=0.0001)


def test_missing_mirror_is_an_error_unless_cloning_is_allowed(widgets: dict[str, Any]) -> None:
    tmp, audit = widgets["tmp"], Audit(widgets["tmp"])
    cfg = write_benchmark(tmp / "bench", widgets["rows"][1:],
                          mirror=f"{tmp}/typo/{{owner}}/{{name}}")
    assert audit.run(cfg)["exit"] == 3
    [v] = audit.sql(cfg, "select verdict, error from verdicts")
    assert f"the mirror {tmp}/typo/acme/widgets configured for acme/widgets" in v["error"]
    assert "codebase.fallback_clone" in v["error"]
    assert not (audit.store / "repos").exists()  # nothing was cloned
    text = cfg.read_text().replace(f"{tmp}/bench/nowhere/{{owner}}/{{name}}.git",
                                   f"{tmp}/src/{{owner}}/{{name}}")
    cfg.write_text(text + "fallback_clone = true\n")
    assert audit.run(cfg)["exit"] == 0
    assert audit.verdicts(cfg) == {"clean": "AIRTIGHT"}
    assert (audit.store / "repos" / "acme" / "widgets.git").is_dir()


def test_clone_failure_names_what_git_said(widgets: dict[str, Any]) -> None:
    tmp, audit = widgets["tmp"], Audit(widgets["tmp"])
    cfg = write_benchmark(tmp / "bench", widgets["rows"][1:], mirror="")
    cfg.write_text(cfg.read_text().replace('mirror = ""\n', ""))
    audit.run(cfg)
    [v] = audit.sql(cfg, "select error from verdicts")
    assert "fatal:" in v["error"] and "does not exist" in v["error"], v
    said = (b"Cloning into 'x'...\nfatal: Could not read from remote repository.\n\n"
            b"Please make sure you have the correct access rights\nand the repository exists.\n")
    assert gitcmd.stderr_reason(said) == "fatal: Could not read from remote repository."


def test_exit_status_says_how_the_audit_ended(widgets: dict[str, Any]) -> None:
    tmp, audit = widgets["tmp"], Audit(widgets["tmp"])
    good = write_benchmark(tmp / "good", widgets["rows"][1:], mirror=widgets["complete"])
    assert audit.run(good)["exit"] == 0
    bad = write_benchmark(tmp / "bad", [*widgets["rows"][1:], '{"instance_id": "half"}'],
                          mirror=widgets["complete"])
    s = audit.run(bad)
    assert s["exit"] == 3 and s["case_errors"] == 1 and s["verdicts"]["ERROR"] == 1, s
    assert audit.run(bad, "--allow-errors")["exit"] == 0
    errors = (audit.runs / "bench" / "REPORT.md").read_text().split("## Errors", 1)[1]
    assert "| half | 2 | load | no | row 2: missing field `repo`" in errors
    res = CliRunner().invoke(main, ["run", str(tmp / "nothing.toml")])
    assert res.exit_code == 2 and "config file not found" in res.output


def test_demo_run_exits_zero() -> None:
    """The quickstart: the demo's one broken row is reported, and `allow_errors` says so."""
    assert "allow_errors = true" in DEMO.read_text()


def test_store_that_cannot_be_written_says_so(widgets: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = widgets["tmp"]
    cfg = write_benchmark(tmp / "bench", widgets["rows"][1:], mirror=widgets["complete"])
    import determinacy.store as store_mod

    def read_only(*a: Any, **k: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system")

    with monkeypatch.context() as m:
        m.setattr(store_mod.tempfile, "mkstemp", read_only)
        res = CliRunner().invoke(main, ["run", str(cfg), "--store", str(tmp / "store"),
                                        "--runs", str(tmp / "runs")])
    assert res.exit_code == 1, res.output
    assert "the file system is read-only" in res.output and "Traceback" not in res.output
    assert str(tmp / "store") in res.output

    real_fsync, calls = os.fsync, [0]

    def full_after_a_while(fd: int) -> None:
        calls[0] += 1
        if calls[0] > 12:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    with monkeypatch.context() as m:
        m.setattr(store_mod.os, "fsync", full_after_a_while)
        res = CliRunner().invoke(main, ["run", str(cfg), "--store", str(tmp / "store"),
                                        "--runs", str(tmp / "runs")])
    assert res.exit_code == 1, res.output
    assert "the disk is full" in res.output and "Traceback" not in res.output, res.output
    # Space again: the next run resumes and completes.
    assert Audit(tmp).run(cfg)["exit"] == 0


def test_store_verify_finds_a_damaged_object(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    audit.run()
    res = CliRunner().invoke(main, ["store", "verify", "--store", str(audit.store)])
    assert res.exit_code == 0 and "all match" in res.output, res.output
    ac = sorted((audit.store / "ac").glob("*/*.json"))[0]
    out = ac.read_text().split('"output":"', 1)[1].split('"', 1)[0]
    obj = audit.store / "objects" / out[:2] / out
    obj.write_bytes(obj.read_bytes() + b" ")
    res = CliRunner().invoke(main, ["store", "verify", "--store", str(audit.store)])
    assert res.exit_code == 1, res.output
    assert f"object objects/{out[:2]}/{out}: its bytes hash to" in res.output
    assert f"its output {out} is damaged" in res.output
    obj.unlink()
    res = CliRunner().invoke(main, ["store", "verify", "--store", str(audit.store)])
    assert res.exit_code == 1 and f"its output {out} is missing" in res.output


def test_a_tree_is_listed_as_git_ls_tree_lists_it(tmp_path: Path) -> None:
    """Folders read a level at a time (more than a pipe's worth in one level), the same
    subtree at two places, names with blanks and other scripts, an executable and a link:
    the entries and their order are `git ls-tree -r`'s, for a commit and for the next one,
    which shares most of its subtrees with it."""
    repo = tmp_path / "r"
    files = {f"pkg/m{i:04d}/mod.py": f"X = {i}\n" for i in range(700)}  # 700 distinct trees
    files |= {"a b/ü.txt": "x\n", "deep/" + "/".join("abcdefgh") + "/leaf.txt": "y\n",
              "copy1/same/f.txt": "same\n", "copy2/same/f.txt": "same\n", "top.txt": "t\n"}
    first = make_repo(repo, files)
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    (repo / "link").symlink_to("top.txt")
    second = commit(repo, {"pkg/m0005/mod.py": "X = 9\n", "deep/a/b/new.txt": "z\n"})

    def ls_tree(sha: str) -> list[tuple[str, str, str, str]]:
        out = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "-z", sha],
                             capture_output=True, check=True).stdout.decode()
        rows = []
        for item in filter(None, out.split("\0")):
            meta, path = item.split("\t", 1)
            mode, kind, obj = meta.split()
            rows.append((path, mode, kind, obj))
        return rows

    for sha in (first, second, first):
        assert [tuple(e) for e in repos.list_tree(repo / ".git", sha).entries] == ls_tree(sha)
