"""Results + verdicts + a validity revision -> a ScoreSet (every number of SCORES.md).

The counting is SQL (queries/score_*.sql over the audit's views and four small input tables);
the statistics are determinacy/score/stats.py. Nothing here writes a file: the caller reads
the results and stores what this returns.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import msgspec

from determinacy import __version__
from determinacy.errors import DeterminacyError
from determinacy.records import (
    BrokenTask,
    ClassRate,
    ModelScore,
    PairScore,
    RankStability,
    ResultFile,
    ResultSource,
    ScoreSet,
    Selection,
    ValidityRevision,
)
from determinacy.reports.query import create_table
from determinacy.score import stats
from determinacy.score.policy import Policy, describe
from determinacy.score.render import pct
from determinacy.store import digest

DRAWS = 1000  # random removals behind the rank-stability comparison


class Inputs(msgspec.Struct, frozen=True, kw_only=True):
    files: list[tuple[ResultFile, str]]  # each read file and the hash of its stored record
    applied: list[ValidityRevision]  # revisions 1..N
    errors: Policy = "fail"  # the SWE-bench leaderboard's convention (score/policy.py)
    missing: Policy = "fail"
    seed: int = 0
    draws: int = DRAWS


def load_inputs(con: Any, inputs: Inputs) -> list[dict[str, Any]]:
    """The input tables of queries/score_*.sql, then score_tasks and score_outcomes. Returns
    score_tasks' rows, by instance_id."""
    from determinacy.reports.query import query_text

    rows: dict[tuple[str, str], tuple[Any, ...]] = {}
    where: dict[tuple[str, str], str] = {}
    unnamed: dict[str, tuple[str, str]] = {}  # model -> (what an unnamed task is, file)
    for f, _ in inputs.files:
        for m in sorted({r.model for r in f.rows}):
            if m in unnamed and (unnamed[m][0] == "fail" or f.unnamed == "fail"):
                raise DeterminacyError(
                    f"model {m!r} is in {unnamed[m][1]} and in {f.path}, and one of them "
                    "lists only some outcomes (every other task a fail): give it once")
            unnamed.setdefault(m, (f.unnamed, f.path))
        for r in f.rows:
            key = (r.model, r.instance_id)
            if key in rows:
                raise DeterminacyError(f"model {r.model!r} has two results for "
                                       f"{r.instance_id!r}: {where[key]} and {f.path} "
                                       f"({r.where})")
            where[key] = f"{f.path} ({r.where})"
            rows[key] = (r.model, r.instance_id, r.outcome, r.f2p_passed, r.f2p_total,
                         r.p2p_failed)
    if not unnamed:
        raise DeterminacyError("the results name no model")
    text, big = "VARCHAR", "BIGINT"
    create_table(con, "score_results", {
        "model": text, "instance_id": text, "outcome": text, "f2p_passed": big,
        "f2p_total": big, "p2p_failed": big}, [rows[k] for k in sorted(rows)], temp=True)
    create_table(con, "score_inputs", {"model": text, "unnamed": text},
                 [(m, unnamed[m][0]) for m in sorted(unnamed)], temp=True)
    tasks = load_tasks(con, inputs.applied)
    create_table(con, "score_policy", {"errors": text, "missing": text},
                 [(inputs.errors, inputs.missing)], temp=True)
    con.execute(f"CREATE OR REPLACE TEMP TABLE score_outcomes AS {query_text('score_outcomes')}")
    return tasks


def load_tasks(con: Any, applied: list[ValidityRevision]) -> list[dict[str, Any]]:
    """The table score_tasks at the revision `applied` ends with: every task of the audit, its
    verdict, validity and role (queries/score_tasks.sql). Returns its rows."""
    from determinacy.reports.query import dicts, query_text

    last = {r.instance_id: r.validity for r in applied}
    create_table(con, "score_validity", {"instance_id": "VARCHAR", "state": "VARCHAR"},
                 sorted(last.items()), temp=True)
    # A table, not a view: the verdicts are computed once, not by every query that reads it.
    con.execute(f"CREATE OR REPLACE TEMP TABLE score_tasks AS {query_text('score_tasks')}")
    return dicts(con, "SELECT * FROM score_tasks ORDER BY instance_id")


def _broken(tasks: list[dict[str, Any]], applied: list[ValidityRevision]) -> list[BrokenTask]:
    """Each broken task with the revision that made it so: its last applied revision, else
    revision 0 (a GOLD-TEST-DATA verdict)."""
    last = {r.instance_id: r for r in applied}
    out = []
    for t in tasks:
        if t["validity"] != "broken":
            continue
        r = last.get(t["instance_id"])
        out.append(BrokenTask(instance_id=t["instance_id"], revision=r.revision, by=r.check
                              or "hand", reason=r.reason) if r else BrokenTask(
            instance_id=t["instance_id"], revision=0, by=t["verdict"],
            reason="the graded test reads a file only the gold patch writes"))
    return out


def compute(con: Any, benchmark: str, inputs: Inputs) -> ScoreSet:
    """Every number of SCORES.md, from an audit's connection (report.connect)."""
    from determinacy.reports.query import dicts, query_text

    tasks = load_inputs(con, inputs)
    known = {r["instance_id"] for r in tasks}
    for ri in inputs.applied:
        if ri.instance_id not in known:
            raise DeterminacyError(f"validity revision {ri.revision} names "
                                   f"{ri.instance_id!r}, which the audit does not have")
    run = dicts(con, "SELECT * FROM run")[0]
    passes = [r["pass_no"] for r in dicts(con, "SELECT pass_no FROM passes ORDER BY 1")]
    role_n = Counter(r["role"] for r in tasks)
    models = [_model(r) for r in dicts(con, query_text("score_models"))]
    models = _ranked(models)
    outcomes = dicts(con, "SELECT model, instance_id, counted, role FROM score_outcomes "
                           "ORDER BY model, instance_id")
    dims = dicts(con, query_text("score_classes"))
    classes = [ClassRate(group=r["group"], status=r["status"], tasks=r["tasks"],
                         attempts=r["attempts"], passes=r["passes"],
                         rate=stats.rate(r["passes"], r["attempts"]),
                         solved_by_none=r["solved_by_none"], solved_by_all=r["solved_by_all"])
               for r in dims]
    return ScoreSet(
        benchmark=benchmark, tool_version=__version__,
        audit_tool_version=run["tool_version"], source_digest=run.get("source_digest") or "",
        passes=passes,
        verdicts_digest=digest("".join(f"{r['instance_id']}\t{r['verdict']}\n"
                                       for r in tasks).encode("utf-8")),
        validity_revision=len(inputs.applied), errors_policy=inputs.errors,
        missing_policy=inputs.missing, policy=describe(inputs.errors, inputs.missing),
        selection=_partial(run.get("selection")),
        tasks=len(known), disputed=role_n.get("disputed", 0),
        hypotheses=role_n.get("hypothesis", 0), broken=role_n.get("broken", 0),
        results=[ResultSource(path=f.path, format=f.format, source_digest=f.source_digest,
                              record=h, models=sorted({r.model for r in f.rows}),
                              rows=len(f.rows)) for f, h in inputs.files],
        revisions=list(inputs.applied),
        broken_tasks=_broken(tasks, inputs.applied),
        models=models,
        pairs=[_pair(r, models) for r in _all_pairs(dicts(con, query_text("score_pairs")),
                                                    [m.model for m in models])],
        rank_stability=_stability(models, outcomes, inputs.seed, inputs.draws),
        by_verdict=[c for c, d in zip(classes, dims) if d["dimension"] == "verdict"],
        by_validity=[c for c, d in zip(classes, dims) if d["dimension"] == "validity"],
    )


def _model(r: dict[str, Any]) -> ModelScore:
    n, k = r["attempted"], r["passed"]
    dn = n - r["disputed_attempted"]
    dk = k - r["disputed_passed"]
    low, high = stats.wilson(k, n)
    d_low, d_high = stats.wilson(dk, dn)
    s_low, s_high = stats.sensitivity(k, r["disputed_passed"], r["disputed_attempted"], n)
    b_low, b_high = stats.sensitivity(
        k, r["disputed_passed"] + r["hypotheses_passed"],
        r["disputed_attempted"] + r["hypotheses_attempted"], n)
    return ModelScore(
        model=r["model"], rank=0, determinate_rank=0, attempted=n, passed=k,
        errors=r["errors"], missing=r["missing"], broken=r["broken"],
        not_in_audit=r["not_in_audit"], score=stats.rate(k, n), wilson_low=low,
        wilson_high=high, determinate_attempted=dn, determinate_passed=dk,
        determinate_score=stats.rate(dk, dn), determinate_low=d_low, determinate_high=d_high,
        disputed_attempted=r["disputed_attempted"], disputed_passed=r["disputed_passed"],
        sensitivity_low=s_low, sensitivity_high=s_high,
        hypotheses_attempted=r["hypotheses_attempted"],
        hypotheses_passed=r["hypotheses_passed"], band_low=b_low, band_high=b_high,
        partial_tasks=r["partial_tasks"], partial_credit=r["partial_credit"],
        partial_determinate=r["partial_determinate"], partial_disputed=r["partial_disputed"],
        benchmark_attempted=r["benchmark_attempted"], benchmark_passed=r["benchmark_passed"],
        benchmark_score=stats.rate(r["benchmark_passed"], r["benchmark_attempted"]))


def _ranked(models: list[ModelScore]) -> list[ModelScore]:
    """Ranked by the all-attempted score, best first (then by name)."""
    ranks = stats.ranks([m.score for m in models])
    det = stats.ranks([m.determinate_score for m in models])
    out = [msgspec.structs.replace(m, rank=r, determinate_rank=d)
           for m, r, d in zip(models, ranks, det)]
    return sorted(out, key=lambda m: (m.rank, m.model))


def _all_pairs(rows: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """Every pair of models, those with no common task too (common = 0)."""
    got = {(r["model_a"], r["model_b"]): r for r in rows}
    out = []
    for i, a in enumerate(sorted(names)):
        for b in sorted(names)[i + 1:]:
            out.append(got.get((a, b)) or {
                "model_a": a, "model_b": b, "common": 0, "a_passed": 0, "b_passed": 0,
                "a_only": 0, "b_only": 0, "disputed": 0, "a_disputed_passed": 0,
                "b_disputed_passed": 0})
    return out


def _pair(r: dict[str, Any], models: list[ModelScore]) -> PairScore:
    rank = {m.model: (m.rank, m.model) for m in models}
    a, b = "a", "b"
    # A is the better of the two on the common set (then by overall rank).
    if (r["b_passed"], rank[r["model_a"]]) > (r["a_passed"], rank[r["model_b"]]):
        a, b = "b", "a"
    n, d = r["common"], r["disputed"]
    name_a, name_b = r[f"model_{a}"], r[f"model_{b}"]
    pa_, pb = r[f"{a}_passed"], r[f"{b}_passed"]
    # Passes on the tasks that are not disputed: each model's interval is [rest, rest + d].
    rest_a, rest_b = pa_ - r[f"{a}_disputed_passed"], pb - r[f"{b}_disputed_passed"]
    a_only, b_only = r[f"{a}_only"], r[f"{b}_only"]
    p = stats.mcnemar_exact(a_only, b_only)
    if n == 0:
        return PairScore(model_a=name_a, model_b=name_b, common=0, a_passed=0, b_passed=0,
                         a_only=0, b_only=0, mcnemar_p=1.0, margin=None, disputed=0,
                         a_low=None, a_high=None, b_low=None, b_high=None, resolved=False,
                         why="no task both attempted: not compared")
    overlap = rest_a <= rest_b + d and rest_b <= rest_a + d
    a_low, a_high, b_low, b_high = rest_a / n, (rest_a + d) / n, rest_b / n, (rest_b + d) / n
    reasons = []
    if overlap:
        reasons.append(
            f"their sensitivity intervals on the {n} common tasks overlap ({name_a} "
            f"{pct(a_low)}–{pct(a_high)}, {name_b} {pct(b_low)}–{pct(b_high)}): counting "
            f"the {d} disputed tasks one way or the other ties or reverses the order")
    if p > 0.05:
        reasons.append(f"McNemar's exact p = {p:.3g} > 0.05 ({name_a} alone solved {a_only}, "
                       f"{name_b} alone {b_only})")
    why = ("unresolved: " + "; and ".join(reasons)) if reasons else (
        f"resolved: {name_a} solves more of the {n} common tasks whichever way the {d} "
        f"disputed tasks count, and McNemar's exact p = {p:.3g} ({a_only} vs {b_only} "
        "discordant)")
    return PairScore(model_a=name_a, model_b=name_b, common=n, a_passed=pa_, b_passed=pb,
                     a_only=a_only, b_only=b_only, mcnemar_p=p, margin=(pa_ - pb) / n,
                     disputed=d, a_low=a_low, a_high=a_high, b_low=b_low, b_high=b_high,
                     resolved=not reasons, why=why)


def _stability(models: list[ModelScore], outcomes: list[dict[str, Any]], seed: int,
               draws: int) -> RankStability:
    attempted: dict[str, set[str]] = defaultdict(set)
    passed: dict[str, set[str]] = defaultdict(set)
    pool: set[str] = set()
    disputed: set[str] = set()
    for o in outcomes:
        if o["role"] == "broken":
            continue
        pool.add(o["instance_id"])
        if o["role"] == "disputed":
            disputed.add(o["instance_id"])
        if o["counted"] is not None:
            attempted[o["model"]].add(o["instance_id"])
            if o["counted"] == "pass":
                passed[o["model"]].add(o["instance_id"])
    scored = [m for m in models if m.score is not None and m.determinate_score is not None]
    base = [m.score for m in scored if m.score is not None]
    tau = stats.kendall_tau_b(base, [m.determinate_score for m in scored
                                     if m.determinate_score is not None])
    taus = stats.random_removal_taus(
        base, [frozenset(attempted[m.model]) for m in scored],
        [frozenset(passed[m.model]) for m in scored], sorted(pool), len(disputed), draws, seed)
    defined = [t for t in taus if t is not None]
    return RankStability(
        models=len(scored), removed=len(disputed), tau=tau, draws=draws, seed=seed,
        defined=len(defined),
        random_mean=sum(defined) / len(defined) if defined else None,
        random_low=stats.percentile(defined, 2.5), random_high=stats.percentile(defined, 97.5),
        at_or_below=(sum(t <= tau for t in defined) / len(defined)
                     if defined and tau is not None else None))


def _partial(selection: dict[str, Any] | None) -> Selection | None:
    """The run's selection when it took part of the source, else None."""
    if not selection:
        return None
    sel = msgspec.convert({k: v for k, v in selection.items() if v is not None}, Selection)
    return sel if sel.chooses or sel.limit else None
