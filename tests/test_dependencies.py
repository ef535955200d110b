"""Absence over the pinned dependencies of the manifests at base: a real PEP 503 index on
disk serves a real wheel; no network."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import PROSE, Audit, message_task, new_helper, row, widgets_repo, write_benchmark

from determinacy.codebase import libraries
from determinacy.codebase.dependencies import scope


def new_process() -> None:
    """What a new process starts with: nothing fetched or listed remembered in memory."""
    scope._listed.cache_clear()
    scope._pins.cache_clear()
    scope._FAILED.clear()
    libraries._LOADED.clear()


@pytest.fixture(autouse=True)
def _each_test_a_new_process() -> None:
    new_process()


def wheel(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr("widgetlib-1.0.0.dist-info/METADATA", "Name: widgetlib\nVersion: 1.0.0\n")
    return buf.getvalue()


def index(tmp: Path) -> Path:
    """A PEP 503 simple index serving widgetlib 1.0.0 as a wheel."""
    simple = tmp / "simple"
    (simple / "widgetlib").mkdir(parents=True)
    data = wheel({"widgetlib/__init__.py": "NOT_FOUND = 'Resource Gone Away'\n"
                                           "def polish(gadget):\n    return gadget\n",
                  "widgetlib/tests/test_w.py": "MESSAGE = 'only its tests say this'\n"})
    name = "widgetlib-1.0.0-py3-none-any.whl"
    (simple / "widgetlib" / name).write_bytes(data)
    sha = hashlib.sha256(data).hexdigest()
    (simple / "widgetlib" / "index.html").write_text(
        f'<html><body><a href="{name}#sha256={sha}">{name}</a></body></html>\n')
    return simple


def bench(tmp: Path, requirements: str, registry: str, extra: str = "") -> Path:
    src = tmp / "src" / "acme" / "widgets"
    base = widgets_repo(src, {"requirements.txt": requirements})
    rows = [row("dep", base, PROSE, *message_task(src, base, "gone", "Resource Gone Away")),
            row("own", base, PROSE, *message_task(src, base, "quiet", "only its tests say this")),
            row("new", base, PROSE, *new_helper(src, base, "frobnicate_widget"))]
    return write_benchmark(tmp / "bench", rows, mirror=f"{tmp}/src/{{owner}}/{{name}}",
                           extra='history = 0\nstdlib = "off"\n'
                           f'[codebase.dependencies]\npypi = "{registry}"\n' + extra)


def test_a_literal_a_pinned_dependency_spells_is_not_claimed(tmp_path: Path) -> None:
    simple = index(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib==1.0.0\n", simple.as_uri())
    audit.run(cfg)
    # The dependency's message is read by a solver; what only its own tests say is no API.
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT", "own": "AIRTIGHT", "new": "AIRTIGHT"}
    got = {r["constant"]: r for r in audit.sql(
        cfg, "select constant, found_in, found_at, absent_from, scope_commands, settled "
             "from settled")}
    found = got["Resource Gone Away"]
    assert found["found_in"] == "dependencies"
    assert found["found_at"].endswith("widgetlib@1.0.0:widgetlib/__init__.py:1"), found
    assert found["settled"].startswith("in dependencies: 1 pinned package (widgetlib@1.0.0)")
    kept = got["only its tests say this"]
    assert kept["absent_from"][1].startswith("dependencies: 1 pinned package (widgetlib@1.0.0)")
    # The skeptic's command prints nothing for the claim, the line for the removed one.
    [cmd] = kept["scope_commands"]
    assert subprocess.run(cmd, shell=True, capture_output=True).stdout == b""
    hit = subprocess.run(cmd.replace("only its tests say this", "Resource Gone Away"),
                         shell=True, capture_output=True, text=True).stdout
    assert "Resource Gone Away" in hit
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert "| dependencies | pinned packages of the manifests at base | 3 | 1 | 0 |" in report
    receipt = (audit.runs / "bench" / "cases" / "own" / "RECEIPT.md").read_text()
    assert "dependencies: 1 pinned package (widgetlib@1.0.0)" in receipt
    verified = audit.invoke("verify", str(cfg), "--store", str(audit.store))
    assert verified.exit_code == 0 and "CONFIRMED" in verified.output, verified.output

    # Fetched once per (package, version): with the index gone, a new process reads the
    # store's copy, and every report is the same byte for byte.
    before = audit.files("bench")
    shutil.rmtree(simple)
    new_process()
    audit.run(cfg)
    assert audit.files("bench") == before


def test_a_package_no_lockfile_pins_leaves_the_case_partial(tmp_path: Path) -> None:
    simple = index(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib==1.0.0\ngadgets>=2\n", simple.as_uri())
    summary = audit.run(cfg)
    assert summary["exit"] == 3
    [e] = audit.sql(cfg, "select error from verdicts where case_id = 'new'")
    # The range is read at no version: the index does not serve the package (asked again).
    assert "dependency gadgets (requirements.txt) (fetch failed: pypi gadgets: " in e["error"], e
    cfg.write_text(cfg.read_text() + '[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT-PARTIAL", "own": "AIRTIGHT-PARTIAL",
                                   "new": "AIRTIGHT-PARTIAL"}
    receipt = (audit.runs / "bench" / "cases" / "new" / "RECEIPT.md").read_text()
    assert "- dependency: `gadgets (requirements.txt)`: fetch failed (pypi gadgets: " in receipt


def dated_index(tmp: Path) -> Path:
    """A simple index whose PEP 691 page dates its releases: widgetlib 1.0.0 (2019) spells
    the message, 2.0.0 (2021, after the tasks' base commits of 2020-01-01) the new helper."""
    simple = tmp / "simple"
    (simple / "widgetlib").mkdir(parents=True)
    files, links = [], []
    for version, when, code in (
            ("1.0.0", "2019-06-01T00:00:00Z", "NOT_FOUND = 'Resource Gone Away'\n"),
            ("2.0.0", "2021-06-01T00:00:00Z", "def frobnicate_widget():\n    pass\n")):
        name = f"widgetlib-{version}-py3-none-any.whl"
        data = wheel({"widgetlib/__init__.py": code})
        (simple / "widgetlib" / name).write_bytes(data)
        sha = hashlib.sha256(data).hexdigest()
        links.append(f'<a href="{name}#sha256={sha}">{name}</a>')
        files.append({"filename": name, "url": name, "hashes": {"sha256": sha},
                      "upload-time": when, "yanked": False})
    (simple / "widgetlib" / "index.html").write_text(f"<html><body>{''.join(links)}</body></html>")
    (simple / "widgetlib" / "index.json").write_text(json.dumps(
        {"meta": {"api-version": "1.1"}, "name": "widgetlib", "files": files}))
    return simple


def test_a_range_is_read_at_the_release_it_gave_on_the_base_commits_date(
        tmp_path: Path) -> None:
    simple = dated_index(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib>=1\n", simple.as_uri())
    audit.run(cfg)
    # 1.0.0 was the newest >=1 on 2020-01-01: its message is read, 2.0.0's helper is not.
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT", "own": "AIRTIGHT", "new": "AIRTIGHT"}
    [found] = audit.sql(cfg, "select found_at from settled where constant = 'Resource Gone Away'")
    assert found["found_at"].endswith("widgetlib@1.0.0:widgetlib/__init__.py:1"), found
    receipt = (audit.runs / "bench" / "cases" / "new" / "RECEIPT.md").read_text()
    assert ("dependencies: 1 pinned package (widgetlib@1.0.0), 1 file; 1 of them unpinned, read "
            "at the newest release their range admitted on 2020-01-01 00:00 UTC (the base "
            "commit's date)") in receipt, receipt
    verified = audit.invoke("verify", str(cfg), "--store", str(audit.store))
    assert verified.exit_code == 0 and "CONFIRMED" in verified.output, verified.output
    # Found once per (package, range, date): with the index gone the store still knows.
    before = audit.files("bench")
    (simple / "widgetlib" / "index.json").unlink()
    new_process()
    audit.run(cfg)
    assert audit.files("bench") == before


def test_a_range_no_release_of_the_base_date_satisfies_is_unread(tmp_path: Path) -> None:
    simple = dated_index(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib>=2\n", simple.as_uri(),
                '[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    # 2.0.0 came later: what a solver of that day installed is unknown, never "absent".
    assert audit.verdicts(cfg)["new"] == "AIRTIGHT-PARTIAL"
    receipt = (audit.runs / "bench" / "cases" / "new" / "RECEIPT.md").read_text()
    assert ("- dependency: `widgetlib (requirements.txt)`: not pinned (no release of widgetlib "
            "admitted by '>=2' was published before 2020-01-01 00:00 UTC)") in receipt, receipt


def test_a_fetch_that_fails_is_unread_and_asked_again_next_run(tmp_path: Path) -> None:
    simple = index(tmp_path)
    moved = tmp_path / "later"
    simple.rename(moved)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib==1.0.0\n", simple.as_uri(),
                '[policy]\nunreadable = "exclude"\n')
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT-PARTIAL", "own": "AIRTIGHT-PARTIAL",
                                   "new": "AIRTIGHT-PARTIAL"}
    receipt = (audit.runs / "bench" / "cases" / "dep" / "RECEIPT.md").read_text()
    assert "- dependency: `widgetlib@1.0.0`: fetch failed (" in receipt
    # Never cached as an answer: once the registry serves it, the next run reads it.
    moved.rename(simple)
    new_process()
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT", "own": "AIRTIGHT", "new": "AIRTIGHT"}


def test_dependencies_of_another_ecosystem_are_not_read(tmp_path: Path) -> None:
    """A Python case reads Python packages: an npm registry configured changes nothing."""
    simple = index(tmp_path)
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib==1.0.0\n", simple.as_uri())
    cfg.write_text(cfg.read_text().replace("[codebase.dependencies]\n",
                                           f'[codebase.dependencies]\nnpm = "{tmp_path}"\n'))
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT", "own": "AIRTIGHT", "new": "AIRTIGHT"}


def test_a_package_of_binaries_only_is_read_whole_and_gives_nothing(tmp_path: Path) -> None:
    """Qt's libraries ship as a wheel without one Python file: nothing a solver reads, and
    nothing left unread."""
    simple = index(tmp_path)
    (simple / "qtlibs").mkdir()
    name = "qtlibs-5.15.2-py3-none-manylinux2014_x86_64.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("qtlibs/lib/libQt5Core.so.5", b"\x7fELF")
    (simple / "qtlibs" / name).write_bytes(buf.getvalue())
    (simple / "qtlibs" / "index.html").write_text(f'<a href="{name}">{name}</a>\n')
    audit = Audit(tmp_path)
    cfg = bench(tmp_path, "widgetlib==1.0.0\nqtlibs==5.15.2\n", simple.as_uri())
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"dep": "AIRTIGHT", "own": "AIRTIGHT", "new": "AIRTIGHT"}
    [k] = audit.sql(cfg, "select absent_from from candidates where constant = 'frobnicate_widget'")
    assert k["absent_from"][1].startswith("dependencies: 2 pinned packages (qtlibs@5.15.2, "
                                          "widgetlib@1.0.0)"), k
