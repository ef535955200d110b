"""Hostile inputs: a mirror, a store or a data file crafted so that the tool would say what a
skeptic re-checking it would not. Each test builds the attack for real (git repositories,
stores, results files) and runs the CLI."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import (
    CORE,
    DEMO,
    PROSE,
    Audit,
    commit,
    git,
    new_helper,
    row,
    widgets_repo,
    write_benchmark,
)

# --- git reads what the commit names ----------------------------------------------------------


def _blob(repo: Path, text: str) -> str:
    return subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo, input=text,
                          check=True, capture_output=True, text=True).stdout.strip()


def test_replace_refs_change_no_verdict_and_the_receipt_says_they_were_ignored(
        tmp_path: Path) -> None:
    """`refs/replace/` swaps one object for another in every git read that does not opt out,
    and `clone --mirror` copies it from upstream. Here one swap hides a constant the base has,
    another shows one the base lacks: the tool and `verify` read the objects the commit
    names, as a plain clone does, and the receipt names the swaps."""
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo, {"other/place.py": "# frobnicate_widget\n",
                               "other/notes.txt": "nothing here\n"})
    hidden = new_helper(repo, base, "frobnicate_widget")
    shown = new_helper(repo, base, "polish_gadget")
    real = {p: git(repo, "rev-parse", f"{base}:{p}").strip() for p in ("other/place.py",
                                                                "other/notes.txt")}
    git(repo, "replace", real["other/place.py"], _blob(repo, "# nothing\n"))
    git(repo, "replace", real["other/notes.txt"], _blob(repo, "polish_gadget\n"))
    assert "polish_gadget" in git(repo, "grep", "-F", "polish_gadget", base, "--", ".")
    cfg = write_benchmark(tmp_path / "bench", [row("hidden", base, PROSE, *hidden),
                                               row("shown", base, PROSE, *shown)],
                          mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"hidden": "NO_CLAIM", "shown": "AIRTIGHT"}
    [c] = audit.sql(cfg, "select codebase_at from candidates where constant = "
                         "'frobnicate_widget'")
    assert c["codebase_at"] == "other/place.py:1"
    receipt = (audit.runs / "bench" / "cases" / "shown" / "RECEIPT.md").read_text()
    assert "- the mirror carries 2 replace refs (refs/replace/), which would swap" in receipt
    res = audit.invoke("verify", str(cfg), "--store", str(audit.store))
    assert res.exit_code == 0 and "CONFIRMED shown AIRTIGHT 'polish_gadget'" in res.output, \
        res.output
    # A stored claim of the constant the swap hides (as the tool made before): `verify`
    # reads the real blob and fails it, as a skeptic's plain clone does.
    from test_verify import rewrite

    rewrite(audit.store / "tables" / "bench" / "candidates.parquet",
            "SELECT * REPLACE (CASE WHEN constant = 'polish_gadget' THEN 'frobnicate_widget' "
            "ELSE constant END AS constant) FROM t")
    res = audit.invoke("verify", str(cfg), "--store", str(audit.store))
    assert res.exit_code == 1 and "present at base: git grep prints other/place.py:1:" \
        in res.output, res.output


def test_a_grafts_file_changes_no_history(tmp_path: Path) -> None:
    """`info/grafts` gives a commit other parents than it names: cutting base off from the
    commit that removed a name would hide that name from the history scope."""
    repo = tmp_path / "m" / "acme" / "widgets"
    widgets_repo(repo, {"pkg/old.py": "def frobnicate_widget():\n    return 2\n"})
    git(repo, "rm", "-q", "pkg/old.py")
    base = commit(repo, {"pkg/core.py": CORE}, "remove old helpers")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "grafts").write_text(f"{base}\n")
    assert git(repo, "rev-list", "--count", base).strip() == "1"  # what a grafted read sees
    cfg = write_benchmark(tmp_path / "bench",
                          [row("restore", base, PROSE, *new_helper(repo, base))],
                          mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"restore": "NO_CLAIM"}
    [c] = audit.sql(cfg, "select found_in from candidates where constant = "
                         "'frobnicate_widget'")
    assert c["found_in"] == "history", c
    receipt = (audit.runs / "bench" / "cases" / "restore" / "RECEIPT.md").read_text()
    assert "a grafts file (info/grafts)" in receipt


# --- the store proves what it serves ----------------------------------------------------------


def _run(audit: Audit) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "determinacy.cli", "run", "--store",
                           str(audit.store), "--runs", str(audit.runs)],
                          capture_output=True, text=True)


def _damage(store: Path, rng: random.Random) -> str:
    """Flip a bit in, truncate, or overwrite with another's bytes one file of the store
    (objects, action entries, refs, tables, caches): what was done, for the message."""
    files = sorted(p for p in store.rglob("*") if p.is_file()
                   and p.relative_to(store).parts[0] not in ("repos", "locks", "doit"))
    # Half the time, what a run reads back for sure: a ref, the object it names, a table.
    read = [p for p in files if p.relative_to(store).parts[0] in ("refs", "tables")]
    read += [store / "objects" / h[:2] / h for h in
             (json.loads(p.read_bytes()).get("output", "") for p in read if p.suffix == ".json"
              and "refs" in p.parts and p.stat().st_size < 4096 and p.read_bytes()[:1] == b"{")
             if h]
    p = rng.choice(read if rng.random() < 0.5 else files)
    data = bytearray(p.read_bytes())
    how = rng.choice(["flip", "truncate", "swap"])
    if how == "swap":
        others = [q for q in files if q.parent.parent == p.parent.parent and q != p]
        if others:
            q = rng.choice(others)
            p.write_bytes(q.read_bytes())
            return f"swap {p.relative_to(store)} <- {q.relative_to(store)}"
        how = "truncate"
    if how == "flip" and data:
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    else:
        how, data = "truncate", data[: len(data) // 2]
    p.write_bytes(bytes(data))
    return f"{how} {p.relative_to(store)}"


def test_a_damaged_store_is_recomputed_or_named_never_served(tmp_path: Path) -> None:
    """Random bit flips, truncations and entries copied over others in a store of the demo:
    every run after each either reproduces the clean reports byte for byte, or exits 1 with
    one line naming the damaged entry (and the run after it recomputes it)."""
    audit = Audit(tmp_path)
    first = _run(audit)
    assert first.returncode == 0, first.stderr
    clean = audit.files("demo")
    rng = random.Random(7)
    for trial in range(10):
        done = _damage(audit.store, rng)
        for fresh in (False, True)[: 1 + trial % 2]:  # and the reports rendered again
            if fresh:
                shutil.rmtree(audit.runs)
            p = _run(audit)
            if p.returncode:
                errors = [ln for ln in p.stderr.splitlines() if ln.startswith("error:")]
                assert p.returncode == 1 and len(errors) == 1 and "store" in errors[0] \
                    and "Traceback" not in p.stderr, (done, p.stderr)
                p = _run(audit)
            assert p.returncode == 0 and audit.files("demo") == clean, (done, p.stderr[-2000:])


def test_a_flipped_byte_in_a_result_is_found_and_computed_again(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    clean = audit.files("demo")
    ref = json.loads((audit.store / "refs" / "demo" / "settle" / "acme__widgets-1.json")
                     .read_text())
    obj = audit.store / "objects" / ref["output"][:2] / ref["output"]
    data = obj.read_bytes()
    # A claim's constant edited in place: still valid JSON, another claim.
    obj.write_bytes(data.replace(b"render_badge", b"render_badgf"))
    p = _run(audit)
    assert p.returncode == 0 and audit.files("demo") == clean, p.stderr
    assert "1 damaged store entries found and computed again" in p.stderr
    assert obj.read_bytes() == data


def test_an_action_entry_copied_over_another_is_not_served(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    clean = audit.files("demo")
    entries = sorted((audit.store / "ac").glob("*/*.json"))
    outputs = {json.loads(e.read_bytes())["output"]: e for e in entries}
    settled = [outputs[json.loads((audit.store / "refs" / "demo" / "settle" / f"{c}.json")
                                  .read_bytes())["output"]] for c in ("acme__widgets-1",
                                                                      "acme__widgets-2")]
    settled[1].write_bytes(settled[0].read_bytes())
    res = audit.invoke("store", "verify", "--store", str(audit.store))
    assert res.exit_code == 1 and (f"action {settled[1].relative_to(audit.store)}: its output "
                                   in res.output and "not the one sealed to its key"
                                   in res.output), res.output
    # The run reads that entry when its case runs again (here: its ref is gone).
    (audit.store / "refs" / "demo" / "settle" / "acme__widgets-2.json").unlink()
    p = _run(audit)
    assert p.returncode == 0 and audit.files("demo") == clean, p.stderr
    assert audit.invoke("store", "verify", "--store", str(audit.store)).exit_code == 0


def test_sql_cannot_write_over_the_store_or_reach_files(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    table = audit.store / "tables" / "demo" / "candidates.parquet"
    before = table.read_bytes()
    for query in (f"COPY (SELECT 1 AS x) TO '{table}' (FORMAT parquet)",
                  "SET enable_external_access = true", f"ATTACH '{tmp_path / 'x.db'}'",
                  "SELECT * FROM read_csv('/etc/hostname')"):
        p = subprocess.run([sys.executable, "-m", "determinacy.cli", "sql", query, "--store",
                            str(audit.store)], capture_output=True, text=True)
        # Without CONFIG: the store's one benchmark, named, then the one error line.
        *notice, error = p.stderr.strip().splitlines()
        assert p.returncode == 2 and error.startswith("error: query failed:"), (query, p)
        assert notice == [f"benchmark 'demo' (the only one in {audit.store}/)"], p.stderr
    assert table.read_bytes() == before and not (tmp_path / "x.db").exists()


def test_store_verify_reads_validity_revisions_and_score_sets(tmp_path: Path) -> None:
    """A revision is a person's decision: a damaged one is named by `store verify` and by
    every command that reads it (one line, no traceback); a damaged score set too."""
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    res = audit.invoke("validity", "set", "acme__widgets-2", "valid", "--reason",
                       "the design doc names it", "--store", str(audit.store))
    assert res.exit_code == 0, res.output
    res = audit.invoke("score", str(DEMO), str(DEMO.parent / "demo" / "results" / "gamma.json"),
                       "--store", str(audit.store), "--runs", str(audit.runs))
    assert res.exit_code == 0, res.output
    assert audit.invoke("store", "verify", "--store", str(audit.store)).exit_code == 0
    [rev] = (audit.store / "scores" / "demo" / "validity").glob("*.json")
    rev.write_bytes(rev.read_bytes().replace(b'"valid"', b'"broken"'))
    [score] = (audit.store / "scores" / "demo" / "scores").glob("*.json")
    score.write_bytes(score.read_bytes()[:-9])
    res = audit.invoke("store", "verify", "--store", str(audit.store))
    assert res.exit_code == 1, res.output
    assert f"score set {score.relative_to(audit.store)}: its bytes hash to another name" \
        in res.output
    assert f"validity: {rev}: a damaged validity revision" in res.output
    for argv in (["validity", "list"], ["sql", "select count(*) from scores"]):
        p = subprocess.run([sys.executable, "-m", "determinacy.cli", *argv, "--store",
                            str(audit.store)], capture_output=True, text=True)
        assert p.returncode == 2 and "Traceback" not in p.stderr, (argv, p.stderr)
        # `sql` without CONFIG first names the store's one benchmark.
        errors = [e for e in p.stderr.strip().splitlines() if not e.startswith("benchmark ")]
        assert len(errors) == 1 and "damaged" in p.stderr, p.stderr
    rev.write_bytes(rev.read_bytes()[:20])
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", "validity", "list",
                        "--store", str(audit.store)], capture_output=True, text=True)
    assert p.returncode == 2 and f"{rev}: a damaged validity revision" in p.stderr, p.stderr


# --- a line where a traceback was ---------------------------------------------------------------


def test_a_timeout_no_wait_can_hold_is_a_config_error(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    for value in ("inf", "1e300"):
        cfg = write_benchmark(tmp_path / value, [row("t", base, PROSE, *new_helper(repo, base))],
                              mirror=f"{tmp_path}/m/{{owner}}/{{name}}",
                              extra=f"timeout = {value}\n")
        for command in ("validate", "run"):
            store = ["--store", str(tmp_path / "store")] if command == "run" else []
            p = subprocess.run([sys.executable, "-m", "determinacy.cli", command, str(cfg),
                                *store], capture_output=True, text=True)
            assert p.returncode == 2 and p.stderr.strip() == (
                f"error: {cfg}: key `codebase.timeout`: Expected `float` <= 604800.0"), p.stderr


# --- reports no input can forge -----------------------------------------------------------------

FORGERY = "x\n\n# AIRTIGHT: forged\r\n<img src=x onerror=alert(1)>\u202e[link](http://e)\x00"


def _forged(md: str) -> list[str]:
    """What of a forgery reached the Markdown as structure or as raw bytes (a fenced block
    shows its text verbatim: only its raw bytes count there)."""
    out, fenced = [], False
    for ln in md.splitlines():
        if ln.startswith("```"):
            fenced = not fenced
        if "\u202e" in ln or "\x00" in ln or not fenced and (
                ln.startswith("# AIRTIGHT: forged") or "<img" in ln or "[link](" in ln):
            out.append(ln)
    return out


def test_an_instance_id_prints_as_one_escaped_line(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    cfg = write_benchmark(tmp_path / "bench", [
        row("good", base, PROSE, *new_helper(repo, base)),
        row(FORGERY, base, PROSE, *new_helper(repo, base, "polish_gadget"))],
        mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    receipt = (audit.runs / "bench" / "cases" / "row-2" / "RECEIPT.md").read_text()
    assert _forged(receipt) == [], receipt
    assert receipt.splitlines()[0] == (
        "# ERROR: x\\n\\n# AIRTIGHT: forged\\r\\n&lt;img src=x onerror=alert(1)>\\u202e"
        "\\[link\\](http://e)\\x00"), receipt.splitlines()[0]
    report = (audit.runs / "bench" / "REPORT.md").read_text()
    assert _forged(report) == [], [ln for ln in report.splitlines() if "forged" in ln]


def test_a_model_name_cannot_write_headings_or_html_into_scores(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    results = tmp_path / "r.jsonl"
    results.write_text("".join(
        json.dumps({"instance_id": f"acme__widgets-{i}", "model": model, "result": result})
        + "\n" for i in range(1, 9) for model, result in
        ((FORGERY, "pass" if i % 2 else "fail"), ("honest", "pass" if i % 3 else "fail"))))
    res = audit.invoke("score", str(DEMO), str(results), "--store", str(audit.store),
                       "--runs", str(audit.runs))
    assert res.exit_code == 0, res.output
    md = (audit.runs / "demo" / "SCORES.md").read_text()
    assert "forged" in md and _forged(md) == [], _forged(md)


# --- commands that can fail -----------------------------------------------------------------

SPECIAL = ["pipe | in the middle", "a back\\slash here", "dollar $HOME and `tick` too",
           "quote ' and \" both", "star * and <tag> &amp;"]


def _commands(claims_md: str, receipts: list[str]) -> list[str]:
    """Every `git grep` re-run command, as a reader takes it: from CLAIMS.md's table as GFM
    renders it (a code span's `\\|` is `|`), from its verbatim block, and from each receipt's
    fenced blocks."""
    out = []
    for ln in claims_md.splitlines():
        if ln.startswith("| ") and "`git grep" in ln:
            cell = ln.split("`git grep", 1)[1]
            fence = ln.split("git grep", 1)[0].rsplit(" ", 1)[1]
            out.append(("git grep" + cell.split(fence + " |", 1)[0].rstrip("`").rstrip())
                       .replace("\\|", "|").strip())
    for md in (claims_md, *receipts):
        out += [ln for ln in md.splitlines() if ln.startswith("git grep")]
    return out


def test_every_printed_command_finds_its_constant_wherever_it_is(tmp_path: Path) -> None:
    """Constants holding what a shell or Markdown treats specially: every command CLAIMS.md
    and the receipts print prints nothing at base, and prints the constant at a commit that
    has it."""
    from conftest import message_task

    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    rows = [row(f"s{i}", base, PROSE, *message_task(repo, base, f"say_{i}", m))
            for i, m in enumerate(SPECIAL)]
    cfg = write_benchmark(tmp_path / "bench", rows, mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path)
    audit.run(cfg)
    # Each message is claimed as the source spells it (`a back\\slash here`, `quote \' ...`).
    claimed = sorted(r["constant"] for r in audit.sql(
        cfg, "select constant from witnesses where status = 'claim' and constant not like 'say%'"))
    assert len(claimed) == len(SPECIAL) and any("\\" in c for c in claimed), claimed
    claims_md = (audit.runs / "bench" / "CLAIMS.md").read_text()
    receipts = [p.read_text() for p in (audit.runs / "bench" / "cases").glob("*/RECEIPT.md")]
    commands = _commands(claims_md, receipts)
    assert len(commands) >= 3 * len(SPECIAL), commands
    every = [r["constant"] for r in audit.sql(cfg, "select constant from witnesses "
                                                   "where status = 'claim'")]
    have = commit(repo, {"present.txt": "\n".join(every) + "\n"}, "all of them")
    for cmd in commands:
        at_base = subprocess.run(["bash", "-c", cmd], cwd=repo, capture_output=True, text=True)
        assert at_base.returncode == 1 and at_base.stdout == "", (cmd, at_base)
        there = subprocess.run(["bash", "-c", cmd.replace(base, have)], cwd=repo,
                               capture_output=True, text=True)
        assert there.returncode == 0 and "present.txt" in there.stdout, (cmd, there)


# --- writes through links -----------------------------------------------------------------------


def test_a_link_under_runs_is_replaced_never_written_through(tmp_path: Path) -> None:
    """A case folder, REPORT.md and SCORES.md planted as links to the outside: every file
    goes where it belongs, nothing outside changes, and the links are gone."""
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    clean = audit.files("demo")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine\n")
    demo = audit.runs / "demo"
    shutil.rmtree(demo / "cases" / "acme__widgets-1")
    (demo / "cases" / "acme__widgets-1").symlink_to(outside, target_is_directory=True)
    (demo / "REPORT.md").unlink()
    (demo / "REPORT.md").symlink_to(outside / "keep.txt")
    (demo / "stray").symlink_to(outside, target_is_directory=True)
    p = subprocess.run([sys.executable, "-m", "determinacy.cli", "report", "--store",
                        str(audit.store), "--runs", str(audit.runs)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert sorted(x.name for x in outside.iterdir()) == ["keep.txt"]
    assert (outside / "keep.txt").read_text() == "mine\n"
    assert not any(x.is_symlink() for x in demo.rglob("*"))
    assert audit.files("demo") == clean
    (demo / "SCORES.md").symlink_to(outside / "keep.txt")
    res = audit.invoke("score", str(DEMO), str(DEMO.parent / "demo" / "results" / "gamma.json"),
                       "--store", str(audit.store), "--runs", str(audit.runs))
    assert res.exit_code == 0, res.output
    assert (outside / "keep.txt").read_text() == "mine\n" and not (demo / "SCORES.md").is_symlink()


# --- the earlier round's leftovers ------------------------------------------------------------


def test_files_follow_the_umask_and_killed_runs_leave_nothing_for_long(tmp_path: Path) -> None:
    """Reports and store files get the mode `open` would give them (mkstemp makes 0600); the
    temporary files a killed run leaves are swept: by the next render under runs/, and by
    `store verify` in the store."""
    audit = Audit(tmp_path)
    p = subprocess.run(["bash", "-c", 'umask 022 && exec "$@"', "_", sys.executable, "-m",
                        "determinacy.cli", "run", "--store", str(audit.store), "--runs",
                        str(audit.runs)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    for f in (audit.runs / "demo" / "REPORT.md", audit.store / "tables" / "demo" / "tasks.parquet",
              next((audit.store / "objects").glob("*/*"))):
        assert f.stat().st_mode & 0o777 == 0o644, f
    old = time.time() - 2 * 3600
    left = [audit.runs / "demo" / "cases" / ".tmp-abc.part",
            audit.store / "objects" / "ab" / ".tmp-def.part",
            audit.store / "refs" / "demo" / "settle" / ".tmp-ghi.part"]
    fresh = audit.store / "objects" / "ab" / ".tmp-now.part"  # another process writing now
    for f in (*left, fresh):
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"half")
    for f in left:
        os.utime(f, (old, old))
    # A killed run's report task did not finish: the next run renders, as `report` does.
    assert audit.invoke("report", "--store", str(audit.store), "--runs",
                        str(audit.runs)).exit_code == 0
    assert not left[0].exists()
    res = audit.invoke("store", "verify", "--store", str(audit.store))
    assert res.exit_code == 0 and "removed 2 temporary files" in res.output, res.output
    assert not any(f.exists() for f in left) and fresh.exists()


def test_a_mirror_template_takes_bare_owner_and_name_only(tmp_path: Path) -> None:
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    for template in ("{owner.__class__}/{name}", "{owner}/{name!r}", "{owner}/{name:>20}",
                     "{0}/{name}"):
        cfg = write_benchmark(tmp_path / "b", [row("t", base, PROSE, *new_helper(repo, base))],
                              mirror=f"{tmp_path}/m/{template}")
        p = subprocess.run([sys.executable, "-m", "determinacy.cli", "validate", str(cfg)],
                           capture_output=True, text=True)
        assert p.returncode == 2 and p.stderr.startswith(
            f"error: {cfg}: key `codebase.mirror`: template may use only {{owner}} and "
            "{name}"), (template, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_a_results_file_that_cannot_be_read_says_why_in_one_line(tmp_path: Path) -> None:
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    deep_line = tmp_path / "deep.jsonl"
    deep_line.write_text(json.dumps({"instance_id": "acme__widgets-1", "model": "m",
                                     "result": "pass"}) + "\n" + "[" * 100_000 + "\n")
    both = tmp_path / "both.json"
    both.write_text(json.dumps({"resolved_ids": ["acme__widgets-1"],
                                "unresolved_ids": ["acme__widgets-1", "acme__widgets-2"]}))
    for path, why in ((deep, f"{deep}: JSON nested too deeply to be a results file"),
                      (deep_line, f"{deep_line}:2: JSON nested too deeply"),
                      (both, f"{both}: 'acme__widgets-1' is in both `resolved_ids` and "
                             "`unresolved_ids`: the report contradicts itself")):
        p = subprocess.run([sys.executable, "-m", "determinacy.cli", "score", str(DEMO),
                            str(path), "--store", str(audit.store), "--runs", str(audit.runs)],
                           capture_output=True, text=True)
        assert p.returncode == 2 and p.stderr.startswith(f"error: {why}"), p.stderr[-500:]
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr[-500:]


def test_a_precedent_path_is_read_as_given_and_unreadable_is_not_absent() -> None:
    """`./../x` is outside the tree, not `x`; `.config.py` is that file; a precedent in a
    blob the mirror lacks is unchecked (unreadable), never "no such file"."""
    from determinacy.agents.checks import verify_precedent

    files = {"x.py": "LEVEL = 3\n", ".config.py": "LEVEL = 3\n"}

    def check(path: str, lacks: frozenset[str] = frozenset()) -> tuple[bool, str]:
        p = verify_precedent({"path": path, "snippet": "LEVEL = 3", "value": "3"}, files.get,
                             ["**/tests/**"], [], lambda q: q in lacks)
        return p.verified, p.why

    assert check("./x.py") == (True, "")
    assert check("./../x.py") == (False, "no usable path")
    assert check("./.config.py") == (True, "")
    assert check("gone.py") == (False, "no such file at base_commit")
    assert check("big.py", frozenset({"big.py"})) == (
        False, "unreadable at base_commit (the mirror lacks its blob, or a submodule)")


def test_names_longer_than_a_file_system_allows_are_one_line(tmp_path: Path) -> None:
    """A benchmark name or a mirror path component past the file system's limit: `validate`
    and `run` say which key, in one line; a repository whose name makes the mirror path too
    long is an ERROR case naming it, and the audit goes on."""
    repo = tmp_path / "m" / "acme" / "widgets"
    base = widgets_repo(repo)
    good = row("good", base, PROSE, *new_helper(repo, base))
    for key, mirror, extra in (("name", f"{tmp_path}/m/{{owner}}/{{name}}", "n" * 300),
                               ("codebase.mirror", f"{tmp_path}/{'m' * 300}/{{name}}", "")):
        cfg = write_benchmark(tmp_path / key, [good], mirror=mirror)
        if extra:
            cfg.write_text(cfg.read_text().replace('name = "', f'name = "{extra}', 1))
        for command in ("validate", "run"):
            p = subprocess.run([sys.executable, "-m", "determinacy.cli", command, str(cfg)],
                               capture_output=True, text=True, cwd=tmp_path)
            assert p.returncode == 2 and p.stderr.startswith(f"error: {cfg}: key `{key}`: "), \
                (command, p.stderr[-400:])
            assert len(p.stderr.strip().splitlines()) == 1, p.stderr[-400:]
    far = row("far", base, PROSE, *new_helper(repo, base), repo="acme/" + "w" * 300)
    cfg = write_benchmark(tmp_path / "rows", [good, far], mirror=f"{tmp_path}/m/{{owner}}/{{name}}")
    audit = Audit(tmp_path / "rows")
    audit.run(cfg)
    assert audit.verdicts(cfg) == {"good": "AIRTIGHT", "far": "ERROR"}
    [e] = audit.sql(cfg, "select message from errors where case_id = 'far'")
    assert "cannot be used: File name too long" in e["message"], e


# --- a hostile round on this stop's other work --------------------------------------------------


def test_a_dependency_name_no_file_system_holds_is_a_fetch_failure(tmp_path: Path) -> None:
    """A manifest can name anything: a 300-byte package name gets an entry name a file
    system holds, and its fetch fails as a fetch (unread), not with an OSError."""
    from determinacy.codebase.dependencies import registries
    from determinacy.codebase.dependencies.manifests import Pin

    index = tmp_path / "simple"
    index.mkdir()
    pin = Pin("pypi", "a" * 300, "1.0", "requirements.txt")
    with pytest.raises(registries.FetchError, match=r"^pypi a{300}@1\.0: "):
        registries.fetch(pin, index.as_uri(), tmp_path / "packages")
    [entry] = (tmp_path / "packages" / "pypi").iterdir()
    assert len(entry.name.encode()) <= 200 and entry.name.startswith("a" * 100)


def test_an_output_name_that_is_a_path_reads_and_removes_nothing_outside(tmp_path: Path) -> None:
    """A ref or an action entry whose output is `../../..` padded to 64 characters: no
    path is made of it (a damaged object is removed: this one would be a file outside)."""
    audit = Audit(tmp_path)
    assert _run(audit).returncode == 0
    clean = audit.files("demo")
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    evil = "./" * 26 + "../../victim"  # objects/./ + this = the victim beside the store
    assert len(evil) == 64 and (audit.store / "objects" / evil[:2] / evil).resolve() == victim
    ref = audit.store / "refs" / "demo" / "settle" / "acme__widgets-1.json"
    data = json.loads(ref.read_bytes())
    entry = next(e for e in (audit.store / "ac").glob("*/*.json")
                 if json.loads(e.read_bytes())["output"] == data["output"])
    ref.write_text(json.dumps({**data, "output": evil}))
    entry.write_text(json.dumps({"output": evil}))
    p = _run(audit)
    assert p.returncode == 0 and audit.files("demo") == clean, p.stderr[-800:]
    assert victim.read_text() == "keep\n"
    entry.write_text(json.dumps({"output": evil}))
    res = audit.invoke("store", "verify", "--store", str(audit.store))
    assert res.exit_code == 1 and "not a valid entry" in res.output and victim.exists()
