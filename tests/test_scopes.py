"""Absence over what a solver reads beyond the tree: recent history and the standard library.
Real repositories and folders; no network."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path
from unittest import mock

from conftest import (
    PROSE,
    Audit,
    commit,
    git,
    message_task,
    new_helper,
    row,
    widgets_repo,
    write_benchmark,
)

from determinacy.codebase import history, libraries, stdlib
from determinacy.store import Store

SRC_MIRROR = "{tmp}/src/{{owner}}/{{name}}"


def restored(tmp: Path) -> tuple[Path, str, list[dict[str, object]]]:
    """acme/widgets where a commit before base removed `legacy_widget`, which the task's gold
    brings back (and a second task whose name is new everywhere)."""
    src = tmp / "src" / "acme" / "widgets"
    widgets_repo(src, {"pkg/legacy.py": "def legacy_widget():\n    return 2\n"})
    commit(src, {"README": "docs\n"}, "docs")
    git(src, "rm", "-q", "pkg/legacy.py")
    base = commit(src, {}, "drop legacy")
    rows = [row("back", base, PROSE, *new_helper(src, base, "legacy_widget")),
            row("new", base, PROSE, *new_helper(src, base, "frobnicate_widget"))]
    return src, base, rows


def bench(tmp: Path, rows: list[dict[str, object]], extra: str = "",
          mirror: str = "") -> Path:
    return write_benchmark(tmp / "bench", rows, mirror=mirror or f"{tmp}/src/{{owner}}/{{name}}",
                           extra=extra)


def test_a_name_recent_history_held_is_not_claimed(tmp_path: Path) -> None:
    src, base, rows = restored(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"back": "NO_CLAIM", "new": "AIRTIGHT"}
    [c] = audit.sql(cfg, "select found_in, found_at, certified from candidates "
                         "where constant = 'legacy_widget'")
    dropped_from = git(src, "rev-parse", f"{base}~1").strip()
    assert c["found_in"] == "history" and not c["certified"]
    assert c["found_at"].endswith(f"{dropped_from}:pkg/legacy.py:1"), c
    receipt = (audit.runs / "bench" / "cases" / "back" / "RECEIPT.md").read_text()
    assert "in history: 2 first-parent commits before base" in receipt
    # The claim kept says what it held over, and the command a skeptic runs over history.
    [k] = audit.sql(cfg, "select absent_from, scope_commands from candidates "
                         "where constant = 'frobnicate_widget'")
    assert k["absent_from"][1].startswith("history: 2 first-parent commits before base")
    cmd = k["scope_commands"][0]
    assert cmd.startswith("git grep -F -n -e 'frobnicate_widget' $(git rev-list")
    for constant, printed in (("frobnicate_widget", ""), ("legacy_widget", "legacy_widget")):
        out = subprocess.run(cmd.replace("frobnicate_widget", constant), shell=True, cwd=src,
                             capture_output=True, text=True).stdout
        assert (printed in out) and (bool(out) == bool(printed)), out
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "| history | first-parent commits before base | 2 | 1 | 0 |" in report


def test_history_depth_zero_reads_the_tree_alone(tmp_path: Path) -> None:
    _, _, rows = restored(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows, "")
    cfg.write_text(cfg.read_text().replace("[codebase]\n", "[codebase]\nhistory = 0\n"))
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"back": "AIRTIGHT", "new": "AIRTIGHT"}


def test_a_shallow_mirror_leaves_history_unread_never_absent(tmp_path: Path) -> None:
    src, base, rows = restored(tmp_path)
    shallow = tmp_path / "shallow" / "acme" / "widgets.git"
    git(tmp_path, "clone", "-q", "--bare", "--depth", "1", f"file://{src}", str(shallow))
    audit = Audit(tmp_path)
    mirror = f"{tmp_path}/shallow/{{owner}}/{{name}}.git"
    cfg = bench(tmp_path, rows, mirror=mirror)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"back": "ERROR", "new": "ERROR"}
    [e] = audit.sql(cfg, "select error from verdicts where case_id = 'new'")
    assert "the history before" in e["error"] and "shallow" in e["error"], e
    cfg = bench(tmp_path, rows, '[policy]\nunreadable = "exclude"\n', mirror=mirror)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"back": "AIRTIGHT-PARTIAL", "new": "AIRTIGHT-PARTIAL"}
    receipt = (audit.runs / "bench" / "cases" / "back" / "RECEIPT.md").read_text()
    assert f"- history: `before {base}`: shallow history" in receipt


def test_walk_lists_what_ancestors_held_nearest_first(tmp_path: Path) -> None:
    src = tmp_path / "r"
    first = widgets_repo(src, {"a.py": "A = 1\n"})
    second = commit(src, {"a.py": "A = 2\n"})
    git(src, "rm", "-q", "a.py")
    third = commit(src, {})
    w = history.walk(src / ".git", third, 5)
    assert w.ancestors == [second, first] and w.shallow == ""
    assert [(h.commit, h.path) for h in w.held] == [(second, "a.py"), (first, "a.py")]
    assert history.walk(src / ".git", third, 1).ancestors == [second]


def python_stdlib(tmp: Path) -> Path:
    lib = tmp / "pylib"
    (lib / "http").mkdir(parents=True)
    (lib / "http" / "status.py").write_text("NOT_FOUND = 'Resource Gone Away'\n"
                                            "def frobnicate_widget():\n    pass\n"
                                            "# the widget is polished quietly\n")
    # A name in 1% of the library's files (five at least) is the language's vocabulary.
    for name in ("a.py", "b.py", "c.py", "d.py", "e.py"):
        (lib / name).write_text(f"def tidy_up():\n    return {name!r}\n")
    # A library's own tests are no API: a name only they hold is still absent.
    (lib / "test").mkdir()
    (lib / "test" / "test_x.py").write_text("polish_gadget = 1\n")
    return lib


def test_a_literal_the_standard_library_spells_is_not_claimed(tmp_path: Path) -> None:
    src = tmp_path / "src" / "acme" / "widgets"
    base = widgets_repo(src)
    rows = [row("std", base, PROSE, *message_task(src, base, "gone", "Resource Gone Away")),
            row("inside", base, PROSE, *message_task(src, base, "quiet", "polished quietly")),
            row("named", base, PROSE, *new_helper(src, base, "frobnicate_widget")),
            row("word", base, PROSE, *new_helper(src, base, "tidy_up"))]
    lib = python_stdlib(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows)
    cfg.write_text(cfg.read_text() + f'[codebase.stdlib_paths]\npython = "{lib}"\n')
    audit.run(cfg)
    # The name `gone` is the fix's own and still claimed; its message is the library's.
    assert audit.verdicts(cfg) == {"std": "AIRTIGHT", "inside": "AIRTIGHT", "named": "AIRTIGHT",
                                   "word": "NO_CLAIM"}
    got = {r["constant"]: r for r in audit.sql(
        cfg, "select constant, certified, found_in, found_at, absent_from, scope_commands "
             "from candidates")}
    assert got["Resource Gone Away"]["found_in"] == "stdlib"
    assert got["Resource Gone Away"]["found_at"] == (
        f"python standard library at {lib}, 6 files: http/status.py:1")
    # Inside a longer string of the library is no whole literal of it: still claimed.
    assert got["polished quietly"]["certified"] and not got["polished quietly"]["found_in"]
    # A name the gold defines is its own choice, whatever unrelated code of the library
    # declares (`frobnicate_widget` in one file of six), unless it is the library's
    # vocabulary (`tidy_up` in five).
    named = got["frobnicate_widget"]
    assert named["certified"] and not named["found_in"]
    assert got["tidy_up"]["found_at"] == (
        f"python standard library at {lib}, 6 files: "
        "a whole word in 5 of its 6 files or more, a.py:1")
    words = named["scope_commands"][-1]
    assert words.startswith("grep -rlwF") and "'frobnicate_widget'" in words
    assert subprocess.run(words, shell=True, capture_output=True).stdout == b""
    assert subprocess.run(words.replace("frobnicate_widget", "tidy_up"), shell=True,
                          capture_output=True, text=True).stdout.strip() == "5 files"
    k = got["polished quietly"]
    assert f"python standard library at {lib}, 6 files" in k["absent_from"]
    grep = k["scope_commands"][-1]
    assert "-e '\"polished quietly\"'" in grep
    assert subprocess.run(grep, shell=True, capture_output=True).stdout == b""
    hit = subprocess.run(grep.replace("polished quietly", "Resource Gone Away"), shell=True,
                         capture_output=True, text=True).stdout
    assert "http/status.py:1:NOT_FOUND = 'Resource Gone Away'" in hit
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert f"| stdlib | python standard library at {lib}, 6 files | 4 | 2 | 0 |" in report


def test_a_standard_library_in_a_zip_is_read_in_place(tmp_path: Path) -> None:
    z = tmp_path / "src.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("java.base/java/lang/String.java", "class String { int localName; }\n")
        f.writestr("java.base/README", "localName\n")
    store = Store(tmp_path / "store")
    lib = libraries.load(store, stdlib.configured("java", z))
    assert [p for p, _ in lib.entries] == ["java.base/java/lang/String.java"]
    [(sha, data)] = list(lib.read([lib.entries[0][1]]))
    assert data is not None and b"localName" in data
    out = subprocess.run(stdlib.configured("java", z).grep.replace("{constant}", "localName"),
                         shell=True, capture_output=True, text=True).stdout
    assert "localName" in out


def test_a_library_is_listed_once_and_a_changed_file_reads_as_missing(tmp_path: Path) -> None:
    lib_dir = python_stdlib(tmp_path)
    store = Store(tmp_path / "store")
    source = stdlib.configured("python", lib_dir)
    first = libraries.load(store, source)
    libraries._LOADED.clear()  # a new process: the stored listing is read, no file hashed
    with mock.patch.object(libraries, "blob_id", side_effect=AssertionError("hashed")):
        again = libraries.load(store, source)
    assert again.entries == first.entries
    (lib_dir / "http" / "status.py").write_text("changed\n")
    [status] = [b for p, b in first.entries if p == "http/status.py"]
    assert list(first.read([status])) == [(status, None)]


def test_required_standard_library_not_found_is_unread(tmp_path: Path) -> None:
    src = tmp_path / "src" / "acme" / "widgets"
    base = widgets_repo(src)
    rows = [row("new", base, PROSE, *new_helper(src, base, "polish_gadget"))]
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows, '[policy]\nunreadable = "exclude"\n')
    cfg.write_text(cfg.read_text().replace("[codebase]\n", '[codebase]\nstdlib = "require"\n'))
    with mock.patch.object(stdlib, "find", return_value=None):
        audit.run(cfg)
    assert audit.verdicts(cfg) == {"new": "AIRTIGHT-PARTIAL"}
    receipt = (audit.runs / "bench" / "cases" / "new" / "RECEIPT.md").read_text()
    assert "- standard library: `python standard library`: no sources" in receipt


def test_standard_library_auto_without_sources_says_it_was_not_read(tmp_path: Path) -> None:
    src = tmp_path / "src" / "acme" / "widgets"
    base = widgets_repo(src)
    rows = [row("new", base, PROSE, *new_helper(src, base, "polish_gadget"))]
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows)
    with mock.patch.object(stdlib, "find", return_value=None):
        audit.run(cfg)
    assert audit.verdicts(cfg) == {"new": "AIRTIGHT"}
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "python standard library: no sources found on this machine (not read)" in report



def test_verify_rechecks_history_and_the_standard_library(tmp_path: Path) -> None:
    src = tmp_path / "src" / "acme" / "widgets"
    widgets_repo(src, {"pkg/old.py": "X = 1\n"})
    git(src, "rm", "-q", "pkg/old.py")
    base = commit(src, {}, "drop old")
    rows = [row("new", base, PROSE, *message_task(src, base, "gone", "no gadget polished"))]
    lib = python_stdlib(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, rows)
    cfg.write_text(cfg.read_text() + f'[codebase.stdlib_paths]\npython = "{lib}"\n')
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"new": "AIRTIGHT"}

    def verify() -> str:
        res = audit.invoke("verify", str(cfg), "--store", str(audit.store))
        return res.output

    out = verify()
    assert "CONFIRMED new AIRTIGHT 'no gadget polished'" in out, out
    # The library gains the message after the audit: verify reads it again and says where.
    (lib / "http" / "extra.py").write_text("\n\nMESSAGE = 'no gadget polished'\n")
    out = verify()
    assert "FAILED new AIRTIGHT 'no gadget polished'" in out and "http/extra.py:3" in out, out


def test_a_standard_library_older_than_the_declared_version_is_said_or_unread(
        tmp_path: Path) -> None:
    """A name the library gained after the version read would be missed there: like a library
    not found, "auto" says so beside the version read and "require" makes it unread. A
    declared version the sources meet is named in the receipt."""
    lib = stdlib.source("python", "python 3.11.0 standard library", python_stdlib(tmp_path),
                        version="3.11.0")
    newer = {"pyproject.toml": '[project]\nrequires-python = ">=3.12"\n'}
    met = {"setup.cfg": "[options]\npython_requires = ~=3.11\n"}
    verdicts = {}
    for name, mode, extra in (("newer-auto", "auto", newer), ("newer", "require", newer),
                              ("met", "require", met)):
        src = tmp_path / name / "acme" / "widgets"
        base = widgets_repo(src, extra)
        rows = [row("new", base, PROSE, *new_helper(src, base, "polish_gadget"))]
        audit = Audit(tmp_path / name)
        cfg = write_benchmark(tmp_path / name / "bench", rows,
                              mirror=f"{tmp_path / name}/{{owner}}/{{name}}",
                              extra=f'stdlib = "{mode}"\n[policy]\nunreadable = "exclude"\n')
        with mock.patch.object(stdlib, "find", return_value=lib):
            audit.run(cfg)
        verdicts[name] = audit.verdicts(cfg)["new"]
        receipt = (audit.runs / "bench" / "cases" / "new" / "RECEIPT.md").read_text()
        said = ("the repository declares >=3.12 (pyproject.toml requires-python), newer than "
                "these sources" if extra is newer else
                "the repository declares ~=3.11 (setup.cfg python_requires).")
        assert said in receipt, receipt
        assert ("older version (the repository declares >=3.12" in receipt) == (name == "newer")
    assert verdicts == {"newer-auto": "AIRTIGHT", "newer": "AIRTIGHT-PARTIAL", "met": "AIRTIGHT"}
