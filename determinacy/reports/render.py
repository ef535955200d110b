"""Render runs/<benchmark>/ from the store's tables with DuckDB: no agent, no git.

Every number comes from a query in `queries/`; Python only lays the results out as markdown.
Each file is replaced atomically and only when its bytes change, so a rerun after one task
changed rewrites that task's files and the summaries; files no longer rendered are removed.
"""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path
from typing import Any

from determinacy import causes
from determinacy.config import Config
from determinacy.errors import DeterminacyError
from determinacy.prose import OTHER_SCRIPT, other_script
from determinacy.reports import hints, summary
from determinacy.reports.markdown import block, code, md_table, text, verbatim
from determinacy.reports.query import (
    Named,
    connect,
    dicts,
    error_causes,
    query_text,
    rows,
    verdict_counts,
)
from determinacy.store import Store, is_stale_temp, write_below


def render(store: Store, cfg: Config, runs: Path, keep: Collection[str],
           name: str | None = None) -> Path:
    """Write RUNS/<name>/ from the tables: only the files whose bytes changed (each replaced
    atomically), and remove those no longer rendered, so a rerun after one task changed
    rewrites that task's files and the summaries, not every receipt. `keep`: the files of
    that folder another command writes (`determinacy score`'s), which stay. `name`: the
    tables' name when not the benchmark's (a shard's, `<name>@I-of-N`)."""
    name = name or cfg.name
    con = connect(store, name)
    out = runs / name
    files = render_files(con, out)
    verdict_counts(store, name, con)
    error_causes(store, name, con)  # saved for `run`'s end-of-run lines
    for rel, body in files.items():
        write_below(out, rel, body if isinstance(body, bytes) else body.encode("utf-8"))
    if out.is_dir():
        for p in sorted(out.rglob("*"), reverse=True):  # files before their folders
            rel = p.relative_to(out).as_posix()
            if p.is_symlink():  # never followed, never ours: a link left here goes
                p.unlink()
            elif (p.is_file() and rel not in files and rel not in keep
                    and (not p.name.startswith(".tmp-") or is_stale_temp(p))):
                p.unlink()
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
    return out


def render_files(con: Any, out: Path | None = None) -> dict[str, str | bytes]:
    """Every file of runs/<benchmark>/, by relative path: text, or bytes (PNG). `out`, the
    folder they go to, lets an unchanged plot be kept without drawing it again."""
    from determinacy.reports.plot import claimable_png

    run = _run(con)
    q = Named(con)
    files: dict[str, str | bytes] = {
        "REPORT.md": _report(q, run), "CLAIMS.md": _claims(con, run),
        "report.json": summary.encode(summary.build(q, run)),
        "claimable.png": claimable_png(q.dicts("report_plot"),
                                       out / "claimable.png" if out is not None else None)}
    files.update(_cases(con, run))
    files.update(_attribution(con))
    files.update(hints.files(dicts(con, query_text("hints"))))
    return files


def _header(title: str, run: dict[str, Any]) -> list[str]:
    return [
        f"# {title}: {text(run['benchmark'])}",
        "",
        f"- tool: determinacy {run['tool_version']}; config digest `{run['config_digest'][:16]}`",
        f"- source: {text(run['source'])}"
        + (f" at revision {code(run['source_revision'])}" if run["source_revision"] else ""),
        # Tables written before these columns existed have none of them.
        *([f"- source content: blake3 `{run['source_digest']}` (the source files' bytes, in "
           "order)"] if run.get("source_digest") else []),
        *(["- fields read: " + ", ".join(f"{k} = {code(v)}" for k, v in run["fields"].items())
           + (f" (no [fields] table: the {text(run['fields_layout'])} layout's default "
              "mapping, detected from the columns)" if run.get("fields_layout") else "")]
          if run.get("fields") else []),
        *_selection_lines(run.get("selection")),
        *(["- prose shown to the solver, in order: "
           + ", ".join(code(p) for p in run["prose_fields"])] if run.get("prose_fields") else []),
        f"- absence policy: **{run['absence']}** ("
        + ("the whole tree at base_commit is searched"
           if run["absence"] == "strict" else "test paths are left out of the codebase search")
        + f"); minimum constant length {run['min_length']}",
        f"- unreadable blobs and submodules: **{run['unreadable']}** ("
        + ("such a case is ERROR: absence is concluded only over a tree read whole"
           if run["unreadable"] == "error" else "certified over the readable part, counted "
           "apart as AIRTIGHT-PARTIAL") + ")",
        "- agent passes included: "
        + (", ".join(map(str, run["passes"])) + " (see Passes in REPORT.md)" if run["passes"]
           else "none (no agent: the coverage screen and the agent tiers did not run)"),
        *([f"- this run's agent: {code(run['agent'])}; refuter: {code(run['refuter'])}"
           + (" (the same command: a refuter of another model family is stronger)"
              if run["refuter"] == run["agent"] else "")] if run["agent"] else []),
        "",
    ]


def _selection_lines(sel: dict[str, Any] | None) -> list[str]:
    """Which of the source's rows the tables hold (`run --instance-ids/--repo/--filter/
    --limit`); none for tables written before the selection was recorded."""
    if sel is None:
        return []
    parts = []
    if ids := sel["instance_ids"]:
        parts.append(f"{len(ids)} instance id{'s' if len(ids) != 1 else ''} (listed in "
                     "report.json, run.selection)")
    if repos := sel["repos"]:
        parts.append(("repositories " if len(repos) > 1 else "repository ")
                     + ", ".join(code(r) for r in repos))
    if sel["filter"]:
        parts.append(f"filter {code(sel['filter'])}")
    if sel["limit"] is not None:
        parts.append(f"the first {sel['limit']} rows" + (" of those" if parts else ""))
    if sel.get("shard"):  # tables written before shards have no such key
        parts.append(f"shard {sel['shard']} (whole repositories; `store merge` joins the "
                     "shards" + (" of those" if parts else "") + ")")
    if not parts:
        return ["- selection: every row of the source"]
    return ["- selection: " + "; ".join(parts) + " (what this report counts: the rows "
            "selected, not the whole source)"]


def _selected(run: dict[str, Any]) -> bool:
    sel = run.get("selection")
    return bool(sel and (sel["instance_ids"] or sel["repos"] or sel["filter"]
                         or sel["limit"] is not None or sel.get("shard")))


def _report(q: Named, run: dict[str, Any]) -> str:
    s = q.dicts("report_spine")[0]
    low, high = s["wilson_95"] or (None, None)
    out = _header("Determinacy report", run)
    if run["description"]:
        out += [run["description"], ""]
    out += [
        "## Claim",
        "",
        f"At least **{s['spine']}** of {s['audited']} audited cases "
        f"({summary.pct(s['rate'])}; Wilson 95% {summary.pct(low)} – {summary.pct(high)}) grade a "
        "behavior the task text does not determine, each with a receipt anyone can re-run "
        "(see CLAIMS.md). This is a floor: it counts only claimable verdicts "
        "(AIRTIGHT, MISDETERMINED, CODEBASE-PLURAL).",
        "",
        f"Denominators: {s['total']} tasks "
        f"{'selected' if _selected(run) else 'in the source'}, {s['audited']} audited, "
        f"{s['errors']} ERROR (not audited, not dropped: listed below"
        + (f"; {s['incomplete']} of them for an incomplete tree, where absence cannot be "
           "concluded: see README, complete mirrors" if s["incomplete"] else "") + ").",
        "",
        *([f"**{s['fail_to_pass_empty']}** of {s['total']} rows: FAIL_TO_PASS empty. They "
           "grade nothing, so none of their constants can be claimed: check that "
           "fields.fail_to_pass reads every column the benchmark grades (`determinacy "
           "validate` counts them too).", ""] if s.get("fail_to_pass_empty") else []),
        *([f"Counted apart: **{s['partial']}** AIRTIGHT-PARTIAL cases, certified over what "
           "could be read: a tree some of whose blobs or submodules could not be read (policy "
           "unreadable = \"exclude\"), or a prose that shows the solver images. They are not "
           "in the floor; CLAIMS.md and each receipt name what was not read.", ""]
          if s["partial"] else []),
        *([f"Counted apart: **{s['test_data']}** GOLD-TEST-DATA cases, broken tasks: the "
           "graded test reads a file only the gold patch writes (test data, a fixture, a "
           "golden file), and grades a constant that is only there. Not in the floor; "
           "validity revision 0 has them broken (CLAIMS.md lists them).", ""]
          if s.get("test_data") else []),
        # Tables written before this column existed have no such count.
        *([f"Images: **{s['images']}** audited cases show the solver images (linked from the "
           "prose, or the config's `fields.images`). The checks read text only, and a constant "
           "shown only in an image is not absent from what the solver sees: their absence "
           "claims are AIRTIGHT-PARTIAL, counted apart; "
           f"{s['images_spine']} of them are in the floor on a MISDETERMINED or "
           "CODEBASE-PLURAL claim; read those receipts' images before citing them "
           "(`select case_id, images from tasks where len(images) > 0`).", ""]
          if s.get("images") else []),
        *_history_section(q),
        "## By repository",
        "",
        summary.groups(q, "repository"),
        "![Per repository: the claimable rate (a floor) and the screen's GAP rate (an upper "
        "bound), with their Wilson 95% intervals](claimable.png)",
        "",
        "## By language",
        "",
        "A case's language is the one most of its shared constants are written in.",
        "",
        summary.groups(q, "language"),
        "## Verdicts",
        "",
        summary.tiers(q),
        "Hypotheses are never counted as claims: CONVENTION (a name that passed every check "
        "but that an existing name of its declaration group predicts, with one part replaced "
        "by a word of the prose, or only its case changed) rests on the codebase's naming; "
        "PROSE-AFFIRMATIVE, BORDERLINE and UNWITNESSED rest on a reading.",
        "",
        *_validity_section(q),
        "## Coverage screen",
        "",
        *(["Upper bounds: one decision tested over many inputs is many GAP rows, and a general "
           "clause can cover what no literal quote does.", "",
           summary.screen(q)] if run["passes"] else
          ["The coverage screen (COVERED / GAP rates, an upper bound) needs an agent and did "
           "not run.", ""]),
        *(_agent_sections(q) if run["passes"] else []),
        "## Mechanical candidates",
        "",
        summary.funnel(q),
        "## Absence scopes",
        "",
        "An absence claim holds over the tree at base_commit and what else a solver reads: "
        "the recent history (`git log`), the standard library of each language the case is "
        "in (its sources on this machine; the version is in each row). A graded constant "
        "found in any of them is not claimed; a part that could not be read leaves the "
        "case partial, never absent.",
        "",
        summary.scopes(q),
        "## Declaration hints",
        "",
        "`hints/<id>.json` and `.md` declare, for each case, the new names its tests use across "
        "the code-test boundary (kind, declaring path, whether the file is new, a callable's "
        "signature; nothing about behavior). What shipping them would change:",
        "",
        summary.hints(q),
        *_errors_section(q),
        "## Test-path policy",
        "",
        "Globs (git pathspec syntax) that count as test code: "
        + ", ".join(code(p) for p in run["test_paths"]) + ".",
        "",
    ]
    return "\n".join(out).rstrip("\n") + "\n"


def _errors_section(q: Named) -> list[str]:
    """REPORT.md's errors grouped by cause (`determinacy.causes`): a table of causes with
    their way out, then each cause's cases (its message's first line; the receipt has it
    whole)."""
    groups = causes.group((r["cause"], r["detail"], r["cases"])
                          for r in q.dicts("report_error_causes"))
    cols, data = q.rows("report_errors")
    out = ["## Errors", ""]
    if not groups:
        return [*out, md_table([], [])]
    out += ["One line per cause, with its way out; the cases of each are listed below it.", "",
            md_table(["cause", "cases", "way out"],
                     [(g.headline(), g.cases, g.cause.way_out) for g in groups])]
    for g in groups:
        cases = [r[1:] for r in data if causes.CAUSES.get(r[0] or "", causes.CAUSES["other"])
                 == g.cause]
        out += [f"### {g.cause.title}: {causes.plural(g.cases, 'case')}", "",
                md_table(cols[1:], cases)]
    return out


def _validity_section(q: Named) -> list[str]:
    """The pre-screens of task validity: counts per check, then every finding."""
    cols, data = q.rows("report_validity")
    _, found = rows(q.con, "SELECT instance_id, case_id, prescreen, verdict, proposed, share, "
                           "evidence FROM validity_checks ORDER BY prescreen, case_id, literal")
    return [
        "## Validity checks",
        "",
        "Other ways a task measures luck, each a mechanical pre-screen with pointers in the "
        "case's receipt. None of them is a claim of underdetermination or changes a verdict; "
        "each proposes a validity revision (broken: out of every score; disputed: in the "
        "sensitivity interval) that `determinacy validity CONFIG accept` applies, never a run "
        "(`determinacy validity CONFIG proposed` lists them).",
        "",
        md_table(["check", "finds", "cases", "proposed broken", "proposed disputed"], data),
        *([md_table(["instance", "check", "verdict", "proposes", "evidence"],
                    [(i or c, p, v, prop or "-",
                      e + (f" (share {sh:.1%})" if sh is not None else ""))
                     for i, c, p, v, prop, sh, e in found])] if found else []),
    ]


def _history_section(q: Named) -> list[str]:
    """A history source's soundness counts (none for other sources)."""
    got = q.dicts("report_history")
    if not got:
        return []
    walked = next((r for r in got if r["kind"] == "walked"), None)
    cand = next((r for r in got if r["kind"] == "candidates"), None)
    merges = next((r["commits"] for r in got if r["kind"] == "merges"), 0)
    heuristics = [(r["item"], r["commits"], r["tasks"], r["audited"], r["claimable"])
                  for r in got if r["kind"] == "heuristic"]
    discarded = [(r["item"], r["commits"]) for r in got if r["kind"] == "discarded"]
    n = walked["commits"] if walked else 0
    return [
        "## Mined from history",
        "",
        f"{n} first-parent commits walked ({merges} merges on that line left out: a merge is "
        f"never a task); {cand['commits'] if cand else 0} candidates, found by at least one "
        f"heuristic; {walked['tasks'] if walked else 0} tasks, "
        f"{walked['audited'] if walked else 0} of them audited. A candidate is a task only "
        "when its diff touches test files and source files and its test part adds or changes "
        "a test function: FAIL_TO_PASS is derived from those, not given by a benchmark, and "
        "the prose is the commit message (and the issues it names) alone.",
        "",
        md_table(["heuristic", "candidates", "tasks", "audited", "claimable"], heuristics),
        md_table(["discarded because", "candidates"], discarded),
    ]


def _agent_sections(q: Named) -> list[str]:
    r = summary.refutation(q)
    contested, survived, pending = r.contested, r.survived, r.pending
    return [
        "## Agent witnesses",
        "",
        "Every proposal is settled mechanically; a plural or misdetermined one becomes a claim "
        "only when the refuter fails to refute that its precedents are the same decision. "
        f"Refuted (contested): {contested}; survived the refuter: {survived}; waiting for the "
        f"refuter: {pending}.",
        "",
        summary.agent(q),
        "## Passes",
        "",
        summary.passes(q),
    ]


def _attribution(con: Any) -> dict[str, str]:
    """attribution/<id>.md: every graded behavior the screen listed, with its clause or GAP."""
    cols, data = rows(con, "SELECT case_id, pass_no, test_id, behavior, label, prose_clause, "
                           "gold_snippet FROM behaviors ORDER BY case_id, pass_no, index")
    by_case: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for r in data:
        by_case[r[0]].append(r[1:])
    out = {}
    for case_id, items in by_case.items():
        out[f"attribution/{case_id}.md"] = "\n".join([
            f"# Coverage of {case_id}", "",
            "COVERED: a verbatim prose clause determines it. GAP: the gold implements it and no "
            "verified clause does. OUT_OF_SCOPE: the gold snippet was not found (pre-existing "
            "behavior, or an invented quote). INVALID: not a FAIL_TO_PASS id.", "",
            md_table(["pass", "test", "behavior", "label", "prose clause", "gold snippet"],
                     items),
        ])
    return out


def natural(case_id: str) -> tuple[Any, ...]:
    """Sort key that reads digit runs as numbers: `-2` before `-11`."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", case_id))


def _apart(con: Any, query: str, title: str, text: str, code_cols: tuple[str, ...]
           ) -> list[str]:
    """A CLAIMS.md section of cases counted apart from the floor ([] when there are none);
    `text` has `{n}` for their number."""
    cols, data = rows(con, query_text(query))
    if not data:
        return []
    data = sorted(data, key=lambda r: natural(r[0]))
    return [f"## Counted apart: {title}", "", text.format(n=len(data)), "",
            md_table(cols, data, code_cols=code_cols), *_pasteable(cols, data)]


def _pasteable(cols: list[str], data: list[tuple[Any, ...]]) -> list[str]:
    """The re-run commands the table above had to escape, verbatim below it."""
    if "re-run" not in cols:
        return []
    i = cols.index("re-run")
    return verbatim("The commands above that hold a `|`, as they are run:",
                    [(f"{r[0]} {r[cols.index('constant')]}", r[i]) for r in data if r[i]])


def _claims(con: Any, run: dict[str, Any]) -> str:
    cols, data = rows(con, query_text("claims"))
    data = sorted(data, key=lambda r: natural(r[0]))
    out = _header("Claims", run) + [
        f"{len(data)} claimable cases, each with its strongest claim. For AIRTIGHT the command, "
        "run in a clone of the repository, prints nothing: the constant the test grades is "
        "absent from the codebase at base_commit (the receipt shows it is absent from the "
        "prose). MISDETERMINED and CODEBASE-PLURAL cite live precedents (path and value) that "
        "the refuter failed to refute. `first certified` is the pass that first found the "
        "claim (mechanical: no agent).",
        "",
        md_table(cols, data, code_cols=("constant", "re-run")),
        *_pasteable(cols, data),
    ]
    out += _apart(con, "claims_partial", "absence over what could be read", (
        "{n} AIRTIGHT-PARTIAL cases: the constant is absent from every blob and every text "
        "that could be read, but the paths below were not read (policy unreadable = "
        "\"exclude\"), or the solver is shown images the checks cannot read, so these are "
        "not claims of the floor."), ("constant", "re-run"))
    out += _apart(con, "claims_test_data", "test data only the gold ships (GOLD-TEST-DATA)", (
        "{n} broken tasks: the graded test reads a file (test data, a fixture, a golden file) "
        "that the gold patch writes and the test patch does not, and the constant it grades "
        "is only there. No fix that does not write that very file passes; the repair is to "
        "move the file into the test patch. Re-check: the file's hunk is in the gold patch "
        "and not in the test patch, and the `loaded at` line spells its name. Not claims of "
        "the floor; validity revision 0 has them broken."),
        ("constant", "file only the gold writes"))
    return "\n".join(out).rstrip("\n") + "\n"


def compare(con_a: Any, con_b: Any, name_a: str, name_b: str) -> str:
    """Markdown: how audit B differs from audit A, case by case and claim by claim."""
    verdicts = [dict(rows(c, "SELECT case_id, verdict FROM verdicts")[1]) for c in (con_a, con_b)]
    claims = [set(rows(c, "SELECT case_id, verdict, constant FROM claims")[1])
              for c in (con_a, con_b)]
    va, vb = verdicts
    changed = sorted((c for c in va.keys() & vb.keys() if va[c] != vb[c]), key=natural)
    out = [f"# {text(name_a)} → {text(name_b)}", "",
           f"{len(va.keys() & vb.keys())} cases in both, {len(changed)} with another verdict; "
           f"{len(va.keys() - vb.keys())} only in A, {len(vb.keys() - va.keys())} only in B; "
           f"claims: {len(claims[1] - claims[0])} gained, {len(claims[0] - claims[1])} lost.",
           ""]
    if changed:
        out += ["## Verdicts that differ", "",
                md_table(["case", "A", "B"], [(c, va[c], vb[c]) for c in changed])]
    for title, only, verdict in (("Only in A", va.keys() - vb.keys(), va),
                                 ("Only in B", vb.keys() - va.keys(), vb)):
        if only:
            out += [f"## {title}", "", md_table(["case", "verdict"], [
                (c, verdict[c]) for c in sorted(only, key=natural)])]
    for title, got in (("Claims gained (in B, not in A)", claims[1] - claims[0]),
                       ("Claims lost (in A, not in B)", claims[0] - claims[1])):
        if got:
            out += [f"## {title}", "", md_table(["case", "verdict", "constant"], sorted(
                got, key=lambda r: (natural(r[0]), r[1], r[2])), code_cols=("constant",))]
    return "\n".join(out).rstrip("\n") + "\n"


def find_case(con: Any, wanted: str) -> str:
    """The case `wanted` names: its case id or instance id, else the one id it begins, else
    the one it ends, else the one it is part of (SWE-bench Pro ids are long). Ambiguity is an
    error."""
    _, data = rows(con, "SELECT case_id, instance_id FROM tasks ORDER BY case_id")
    for test in (lambda i: i == wanted, lambda i: i.startswith(wanted),
                 lambda i: i.endswith(wanted), lambda i: wanted in i):
        hits = sorted({cid for cid, iid in data if test(cid) or iid is not None and test(iid)})
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            shown = ", ".join(hits[:5]) + (f" and {len(hits) - 5} more" if len(hits) > 5 else "")
            raise DeterminacyError(f"{wanted!r} names {len(hits)} cases: {shown}; give more of "
                                   "the id")
    raise DeterminacyError(f"no case of this audit is named {wanted!r} (see `determinacy sql "
                           "CONFIG \"select case_id from tasks\"`)")


def receipt(con: Any, case_id: str) -> str:
    """One case's RECEIPT.md, as `render` writes it."""
    return _cases(con, _run(con), only=case_id)[f"cases/{case_id}/RECEIPT.md"]


def _run(con: Any) -> dict[str, Any]:
    run = dicts(con, "SELECT * FROM run")[0]
    # The passes the tables hold (every stored pass), not only the ones this run executed.
    run["passes"] = [r[0] for r in rows(con, "SELECT pass_no FROM passes ORDER BY 1")[1]]
    return run


def _cases(con: Any, run: dict[str, Any], only: str | None = None) -> dict[str, str]:
    vcols, verdicts = rows(con, "SELECT * FROM verdicts ORDER BY case_id")
    if only is not None:
        verdicts = [r for r in verdicts if r[vcols.index("case_id")] == only]
    tcols, tasks = rows(con, "SELECT * FROM tasks")
    task = {r[0]: dict(zip(tcols, r)) for r in tasks}
    ccols, cands = rows(con, query_text("receipt_candidates"))
    by_case: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in cands:
        d = dict(zip(ccols, r))
        by_case[d["case_id"]].append(d)
    wcols, wrows = rows(con, "SELECT case_id, pass_no, verdict, status, constant, evidence, "
                             "reason, command FROM witnesses WHERE proposer = 'agent' "
                             "ORDER BY case_id, pass_no, verdict, status, constant, evidence")
    agent_w: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in wrows:
        agent_w[r[0]].append(dict(zip(wcols, r)))
    _, cut = rows(con, "SELECT case_id, string_agg(DISTINCT t, ', ' ORDER BY t) FROM "
                       "(SELECT case_id, unnest(truncated) AS t FROM agent_calls) GROUP BY 1")
    truncated = dict(cut)
    _, screened = rows(con, "SELECT DISTINCT case_id FROM behaviors")
    with_screen = {r[0] for r in screened}
    _, tree_rows = rows(con, "SELECT case_id, unread, ignored FROM trees "
                             "WHERE len(unread) > 0 OR len(ignored) > 0")
    unread = {r[0]: r[1] for r in tree_rows}
    ignored = {r[0]: r[2] for r in tree_rows}
    vcols_, vrows = rows(con, "SELECT * FROM validity_checks ORDER BY case_id, prescreen, "
                              "literal")
    validity: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in vrows:
        validity[r[0]].append(dict(zip(vcols_, r)))
    files: dict[str, str] = {}
    for r in verdicts:
        v = dict(zip(vcols, r))
        cid, t = v["case_id"], task[v["case_id"]]
        base = f"cases/{cid}"
        if t["loaded"]:
            # An empty text is NULL in the tables.
            files[f"{base}/spec.md"] = (t["prose"] or "").rstrip("\n") + "\n"
            files[f"{base}/gold.diff"] = t["gold_patch"] or ""
            files[f"{base}/hidden_test.diff"] = t["test_patch"] or ""
        files[f"{base}/RECEIPT.md"] = _receipt(
            v, t, by_case.get(cid, []), run, agent_w.get(cid, []), truncated.get(cid, ""),
            cid in with_screen, unread.get(cid, []), ignored.get(cid, []),
            validity.get(cid, []))
    return files


def _clone_lines(run: dict[str, Any], repo: str, commit: str) -> list[str]:
    """How a reader gets the repository at the commit: the mirror this audit read (a bundle
    or folder, relative to the config's folder) when the config names one, else its URL."""
    owner, _, name = repo.partition("/")
    if run.get("mirror"):
        where = run["mirror"].format(owner=owner, name=name)
        return [f"# the mirror this audit read, relative to the folder of {run['config_file']}",
                f"git clone {shlex.quote(where)} {shlex.quote(name)} && cd {shlex.quote(name)} "
                f"&& git checkout {commit}"]
    url = (run.get("clone_url") or "https://github.com/{owner}/{name}.git").format(
        owner=owner, name=name)
    return [f"git clone {shlex.quote(url)} && cd {shlex.quote(name)} && git checkout {commit}"]


def _unread_lines(unread: list[dict[str, Any]]) -> list[str]:
    return [f"- {_SCOPE_NAMES.get(u.get('scope') or '', '')}{code(u['path'])}: {u['why']}"
            + (f" ({text(u['detail'])})" if u.get("detail") else "" if u.get("scope") or u["why"]
               == "submodule" else f", {u['size']} bytes" if u["size"] is not None
               else ", size unknown")
            for u in unread]


_SCOPE_NAMES = {"history": "history: ", "stdlib": "standard library: ",
                "dependencies": "dependency: "}


def _receipt(v: dict[str, Any], t: dict[str, Any], cands: list[dict[str, Any]],
             run: dict[str, Any], agent_w: list[dict[str, Any]], truncated: str,
             screened: bool, unread: list[dict[str, Any]], ignored: list[str],
             validity: list[dict[str, Any]]) -> str:
    out = [
        f"# {v['verdict']}: {text(v['instance_id'] or v['case_id'])}",
        "",
        f"- source row: {v['row']}",
    ]
    if t["loaded"]:
        out += [
            f"- repository: {text(v['repo'])} at {code(v['base_commit'])}",
            f"- graded tests (FAIL_TO_PASS): {len(t['fail_to_pass'])}",
            "- materials: [spec.md](spec.md) (the prose the solver sees), "
            "[gold.diff](gold.diff), [hidden_test.diff](hidden_test.diff)",
        ]
        # Tables written before these columns existed have none of them.
        if t.get("commit"):
            out.append(f"- mined from commit `{t['commit']}` (found by: "
                       f"{', '.join(t.get('found_by') or []) or '-'}): the gold and the test "
                       "are its source and test parts, the prose its message; FAIL_TO_PASS is "
                       "derived (the test functions the commit adds or changes), not given by "
                       "a benchmark")
        if (share := other_script(t.get("prose") or "")) >= OTHER_SCRIPT:
            out.append(f"- **prose in another script**: {share:.0%} of its letters are not "
                       "Latin. Its Latin-script tokens are matched as anywhere, but it may give "
                       "a name in words of its own language that no check here reads: a claim "
                       "of this case rests on its Latin-script tokens alone")
        if t.get("images"):
            shown = ", ".join(f"<{u}>" for u in t["images"][:3])
            more = len(t["images"]) - 3
            out.append(f"- **images**: the solver is shown {len(t['images'])} image(s) the "
                       "text checks cannot read, so an absence claim here is AIRTIGHT-PARTIAL "
                       "(a constant shown only in one is not absent from what the solver "
                       f"sees), counted apart from the floor: {shown}"
                       + (f" and {more} more" if more > 0 else ""))
    out += [f"- absence policy: {run['absence']}; unreadable blobs and submodules: "
            f"{run['unreadable']}"]
    if ignored:
        out.append(f"- the mirror carries {' and '.join(ignored)}, which would swap what git "
                   "reads: every read here ignored it, as a plain clone (above) does; in a "
                   "`--mirror` copy run the commands as `git --no-replace-objects ...`")
    if screened:
        out.append(f"- coverage screen: [attribution/{v['case_id']}.md]"
                   f"(../../attribution/{v['case_id']}.md)")
    if truncated:
        out.append(f"- shortened to fit the agent's prompt: {truncated} (the agent did not "
                   "see all of it)")
    out.append("")
    if validity:
        out += ["## Validity checks", "",
                "Pre-screens beyond the prose (REPORT.md, Validity checks): none changes the "
                "verdict; each proposes a validity revision that `determinacy validity CONFIG "
                "accept` applies.", ""]
        for c in validity:
            out += [f"- **{c['verdict']}** ({c['prescreen']}"
                    + (f", proposes {c['proposed']}" if c["proposed"] else ", proposes nothing")
                    + f"): {text(c['evidence'])}"
                    + (f"; share of the gold's lines shown: {c['share']:.1%}"
                       if c["share"] is not None else "")]
            if c["pointers"]:
                out.append("  - see: " + ", ".join(code(x) for x in c["pointers"]))
            if c["command"]:
                out += ["  - re-check:", "", *("    " + ln for ln in block(c["command"])), ""]
        out.append("")
    if v["verdict"] == "ERROR":
        out += ["## Error", "", f"Phase `{v['error_phase']}`:", "", *block(v["error"]), "",
                "A transient error is retried by the next run." if v["error_transient"]
                else "This input cannot be audited as it is; fix the row and run again.", ""]
        return "\n".join(out)
    ungraded = next((c["ungraded"] for c in cands if c["ungraded"]), "")
    if ungraded:
        out += ["## Nothing is graded", "", f"{ungraded}. No constant of this case can be "
                "claimed, whatever the prose and the codebase say.", ""]
    if unread:
        out += ["## Not read", "",
                "These parts of what absence is claimed over (the tree at base_commit, its "
                "recent history, a standard library, a pinned dependency) could not be read "
                "(policy unreadable = \"exclude\"): absence holds only for the rest, so an absence "
                "claim here is AIRTIGHT-PARTIAL, counted apart from the floor.", "",
                *_unread_lines(unread), ""]
    test_data = [c for c in cands if c["certified"] and c["test_data"]]
    witnesses = [c for c in cands if c["certified"] and not c["test_data"]]
    if test_data:
        out += ["## Test data only the gold ships (GOLD-TEST-DATA)", "",
                "The hidden test grades each constant below, and the gold patch makes it only "
                "in a file the test reads (test data, a fixture, a golden file) that the test "
                "patch does not write. No fix that does not write that very file passes: the "
                "task is broken, whatever the prose and the codebase say, and its repair is to "
                "move the file into the test patch. Re-check in this folder (expect "
                "`gold.diff:1` and `hidden_test.diff:0`), then open the gold line and the "
                "`loaded at` line, which spells the file's name:", "",
                "```sh", *sorted({c["command"] for c in test_data}), "```", "",
                md_table(["constant", "file only the gold writes", "gold line", "loaded at",
                          "graded at"],
                         [(c["constant"], c["test_data"], c["gold_at"],
                           c["test_data_at"] or "(a test path)", c["test_at"])
                          for c in test_data], code_cols=("constant",
                                                          "file only the gold writes"))]
    if witnesses:
        out += ["## Evidence", "",
                "Each constant below is graded by the hidden test, implemented by the gold patch, "
                "absent from the prose under every normalization (exact, case-insensitive, words "
                "split on camelCase / snake_case / kebab-case), and absent from the codebase at "
                "base_commit. Re-run the codebase check (expect no output):", "",
                "```sh", *_clone_lines(run, v["repo"], v["base_commit"])]
        out += [w["command"] for w in witnesses]
        out += ["```", ""]
        scoped = [w for w in witnesses if w.get("scope_commands")]
        if scoped:
            read = list(dict.fromkeys(r for w in scoped for r in w["absent_from"][1:]))
            out += ["Absent also from what else a solver reads: "
                    + "; ".join(read) + ". Re-run (expect no output; the history command in "
                    "the clone above, a library's on a machine with the same files):", "",
                    "```sh", *dict.fromkeys(c for w in scoped for c in w["scope_commands"]),
                    "```", ""]
        out += [md_table(["constant", "kind", "graded at", "implemented at"],
                         [(w["constant"], w["kind"], w["test_at"], w["gold_at"])
                          for w in witnesses], code_cols=("constant",))]
        derived = [w for w in witnesses if w.get("derived_from")]
        if derived:
            out += ["The gold defines these names only in generated code: a generator spells "
                    "each from a token the gold adds to its input, so the prose and the "
                    "codebase were checked for that token (the command above greps it):", "",
                    *(f"- {code(w['constant'])} is generated from {code(w['derived_from'])} "
                      f"({text(w['generator_input'])})" for w in derived), ""]
        variants = [w for w in witnesses if w["codebase_variant"]]
        if variants:
            out += ["The codebase has these names in other letter case only (the exact name "
                    "is absent, and the test grades the exact name). Open the line to judge "
                    "which spelling a solver would write:", "",
                    md_table(["constant", "other letter case at"],
                             [(w["constant"], w["codebase_variant"]) for w in variants],
                             code_cols=("constant",))]
        apart = [w for w in witnesses if w.get("otherwise")]
        if apart:
            out += ["The codebase's nearest sibling spells these otherwise, and neither the "
                    "prose nor the base gives the word that turns one into the other: evidence "
                    "for the claim (a solver who follows the codebase writes the sibling's "
                    "form, which the test fails). Open the line to judge:", "",
                    md_table(["constant", "spelled otherwise at base"],
                             [(w["constant"], w["otherwise"]) for w in apart],
                             code_cols=("constant",))]
    elif not test_data:
        conventions = [c for c in cands if c["settled"].startswith("CONVENTION")]
        if conventions:
            out += ["## Convention (a hypothesis, not a claim)", "",
                    "These constants passed every check, but the codebase's own naming predicts "
                    "them: a solver who follows the sibling below, using the prose's word, "
                    "writes the same name. Open the sibling's line to judge.", "",
                    md_table(["constant", "evidence", "graded at"],
                             [(c["constant"], c["settled"].split(": ", 1)[1], c["test_at"])
                              for c in conventions], code_cols=("constant",))]
        out += ["## Mechanical tier: no certified constant", "",
                "Each constant the gold patch and the hidden test share is stated in the prose, "
                "present in the codebase, a name that does not cross the code-test boundary, or "
                "cannot certify (below)."
                + ("" if run["passes"] else " Without an agent, graded behaviors that are not "
                   "a shared constant were not screened."), ""]
    if agent_w:
        out += ["## Agent witnesses", "",
                "Proposed by the agent, settled mechanically (status `rejected` says which "
                "check failed; `contested`: the refuter refuted comparability).", "",
                md_table(["pass", "proposed as", "status", "constant", "evidence", "reason"],
                         [(w["pass_no"], w["verdict"] or "-", w["status"], w["constant"],
                           w["evidence"], w["reason"]) for w in agent_w],
                         code_cols=("constant",))]
        for verdict, expect in (("AIRTIGHT", "expect no output"),
                                ("MISDETERMINED", "expect each value, in each file"),
                                ("CODEBASE-PLURAL", "expect each value, in each file")):
            commands = [w["command"] for w in agent_w
                        if w["status"] == "claim" and w["verdict"] == verdict and w["command"]]
            if commands:
                out += [f"Re-run the codebase check of the {verdict} claims ({expect}):", "",
                        "```sh", *commands, "```", ""]
    out += ["## Every candidate", "",
            md_table(["constant", "kind", "settled", "graded at", "implemented at"],
                     [(c["constant"], c["kind"], c["settled"], c["test_at"], c["gold_at"])
                      for c in cands], code_cols=("constant",))]
    return "\n".join(out).rstrip("\n") + "\n"
