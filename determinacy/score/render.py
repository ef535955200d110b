"""A ScoreSet laid out as RUNS/<benchmark>/SCORES.md, scores.json and scores.png. Every number
comes from the ScoreSet; the same ScoreSet gives the same bytes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import msgspec

from determinacy.records import ClassRate, ModelScore, ScorePolicy, ScoreSet, Selection
from determinacy.score.policy import LEADERBOARD, describe
from determinacy.score.results import FORMATS


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def span(low: float | None, high: float | None) -> str:
    return "n/a" if low is None or high is None else f"{pct(low)} – {pct(high)}"


def policy(s: ScoreSet) -> ScorePolicy:
    """The set's convention (a set stored before it was named: from its two policies)."""
    return s.policy or describe(s.errors_policy, s.missing_policy)


def convention(s: ScoreSet) -> str:
    """The line SCORES.md prints above every table."""
    return policy(s).text


_COUNTED = {("fail", "fail"): "every task of the audit that is not broken",
            ("exclude", "exclude"): "the tasks a model's results name and that were evaluated",
            ("exclude", "fail"): "every task of the audit that is not broken, but those a "
                                 "model's results name as an error",
            ("fail", "exclude"): "the tasks a model's results name (an error as unresolved)"}


def _apart(s: ScoreSet) -> str:
    where = {"fail": "in the score, as unresolved", "exclude": "out of the score"}
    if s.errors_policy == s.missing_policy:
        return where[s.errors_policy]
    return f"errors {where[s.errors_policy]}, missing {where[s.missing_policy]}"


def counted(s: ScoreSet) -> str:
    """What `attempted` is, the denominator of a score, in words."""
    return _COUNTED[s.errors_policy, s.missing_policy]


# What `determinacy score` writes in runs/<benchmark>/ (`determinacy report` keeps them).
OUTPUTS = ("SCORES.md", "scores.json", "scores.png")


def files(s: ScoreSet, out: Path) -> dict[str, bytes]:
    """OUTPUTS' bytes, for the folder `out` (an unchanged plot there is kept, not redrawn)."""
    from determinacy.reports.plot import scores_png

    made = {"SCORES.md": scores_md(s).encode("utf-8"), "scores.json": scores_json(s).encode(),
            "scores.png": scores_png(s, out / "scores.png")}
    assert tuple(made) == OUTPUTS
    return made


def scores_json(s: ScoreSet) -> str:
    return json.dumps(msgspec.to_builtins(s), indent=2, sort_keys=True) + "\n"


def _models_table(s: ScoreSet) -> str:
    from determinacy.reports.markdown import md_table

    def partial(m: ModelScore) -> str:
        if not m.partial_tasks:
            return ""
        return (f"{m.partial_credit:.3f} (determinate {_num(m.partial_determinate)}, "
                f"disputed {_num(m.partial_disputed)}; {m.partial_tasks} tasks)")

    cols = ["rank", "model", "counted", "passed", "score", "benchmark's own count",
            "Wilson 95%", "determinate subset",
            "Wilson 95% (determinate)", "sensitivity interval",
            "hypothesis band (readings, not claims)", "errors", "missing", "partial credit"]
    data = [(m.rank, m.model, m.attempted, m.passed, pct(m.score), _benchmark(m),
             span(m.wilson_low, m.wilson_high),
             f"{pct(m.determinate_score)} ({m.determinate_passed}/{m.determinate_attempted}; "
             f"rank {m.determinate_rank})",
             span(m.determinate_low, m.determinate_high),
             span(m.sensitivity_low, m.sensitivity_high), span(m.band_low, m.band_high),
             m.errors, m.missing, partial(m)) for m in s.models]
    return md_table(cols, data)


def _benchmark(m: ModelScore) -> str:
    if m.benchmark_attempted is None:  # a set scored before it was kept
        return "n/a"
    return f"{pct(m.benchmark_score)} ({m.benchmark_passed}/{m.benchmark_attempted})"


def _num(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _broken_section(s: ScoreSet) -> list[str]:
    """Which tasks left every denominator, and what put each there: a validity check whose
    proposal was accepted, a GOLD-TEST-DATA verdict (revision 0), or a revision by hand."""
    from determinacy.reports.markdown import md_table

    if not s.broken_tasks:
        return []
    by = ", ".join(f"{n} by {k}" for k, n in sorted(
        Counter(b.by for b in s.broken_tasks).items()))
    return ["## Broken tasks (in no score)", "",
            f"{len(s.broken_tasks)} tasks are broken at validity revision "
            f"{s.validity_revision} ({by}): each leaves every denominator above. `by` is the "
            "validity check whose proposal `determinacy validity CONFIG accept` applied, the "
            "verdict that derives it (revision 0), or `hand` (`validity set`).", "",
            md_table(["instance", "revision", "by", "reason"],
                     [(b.instance_id, b.revision, b.by, b.reason) for b in s.broken_tasks])]


def scores_md(s: ScoreSet) -> str:
    from determinacy.reports.markdown import code, md_table, text

    rs = s.rank_stability
    unresolved = [p for p in s.pairs if not p.resolved]
    ignored = sum(m.not_in_audit for m in s.models)
    broken = sum(m.broken for m in s.models)
    formats = sorted({r.format for r in s.results})
    out = [
        f"# Scores: {text(s.benchmark)}",
        "",
        convention(s),
        "",
        f"- scored by determinacy {s.tool_version}; audit by determinacy "
        f"{s.audit_tool_version}",
        *([f"- dataset content: blake3 `{s.source_digest}`"] if s.source_digest else []),
        *([f"- **the audit is a selection of the source** ({selection_text(s.selection)}): "
           "every score is over the selected tasks, not the benchmark's"]
          if s.selection else []),
        "- agent passes of the verdicts: "
        + (", ".join(map(str, s.passes)) if s.passes else "none (mechanical tier only)"),
        f"- verdicts used: blake3 `{s.verdicts_digest}` of the (instance, verdict) pairs",
        f"- validity revision **{s.validity_revision}** (revision 0: derived from the verdicts, "
        "every claimable case disputed; `determinacy validity CONFIG list` shows them all): "
        f"{s.disputed} disputed, {s.hypotheses} unreviewed hypotheses, {s.broken} broken, of "
        f"{s.tasks} tasks",
        f"- policy: {policy(s).convention} (`{policy(s).flags}`): a score is over "
        f"{counted(s)}",
        "",
        "Results read (format detected from the content; each file's models are its own, or "
        "the --model given):",
        "",
        md_table(["file", "format", "models", "rows", "blake3"],
                 [(r.path, r.format, ", ".join(r.models), r.rows, code(r.source_digest[:16]))
                  for r in s.results]),
        *[f"- {f}: {FORMATS[f]}" for f in formats],
        "",
        "![Each model's score with its sensitivity interval and Wilson 95% interval]"
        "(scores.png)",
        "",
        "## Per model",
        "",
        convention(s),
        "",
        f"`score` is passed / counted, and `counted` (`attempted` in scores.json) is "
        f"{counted(s)}; "
        "`benchmark's own count` is the same count with no task left out as broken"
        + (" (the leaderboard's number)" if policy(s).convention == LEADERBOARD else "")
        + ". The determinate subset "
        "leaves the disputed tasks out; the sensitivity interval counts every disputed task "
        "against the model, then for it (over all counted); the hypothesis band does the "
        "same with the unreviewed hypotheses (PROSE-AFFIRMATIVE, BORDERLINE, CONVENTION, "
        "UNWITNESSED) too, a wider band that rests on readings, not on claims. `errors` and "
        "`missing` count the tasks a model's results name as an error, or do not name: "
        f"{_apart(s)}. Partial credit "
        "is the mean of clamp01((F2P passed - P2P regressed) / F2P total) over the tasks with "
        "per-test counts.",
        "",
        _models_table(s),
        *([f"Results for instances the audit does not have: {ignored} (ignored)."]
          if ignored else []),
        *([f"Results on broken tasks (in no score): {broken}."] if broken else []),
        "",
        *_broken_section(s),
        "## Pairs",
        "",
        convention(s),
        "",
        "Each pair is compared on its common eligible set only (the "
        "tasks both attempted, none broken). A is the better of the two there. A pair is "
        "unresolved when the sensitivity intervals of the two overlap on that set (counting "
        "its disputed tasks one way or the other ties or reverses the order) or when McNemar's "
        "exact two-sided p-value on the discordant tasks exceeds 0.05.",
        "",
        md_table(["A", "B", "common", "A passed", "B passed", "A only", "B only",
                  "McNemar p", "margin", "disputed", "resolved"],
                 [(p.model_a, p.model_b, p.common, p.a_passed, p.b_passed, p.a_only, p.b_only,
                   f"{p.mcnemar_p:.3g}", pct(p.margin), p.disputed, p.resolved)
                  for p in s.pairs]),
        *[f"- {text(p.model_a)} vs {text(p.model_b)}: {text(p.why)}." for p in unresolved],
        *([""] if unresolved else []),
        "## Rank stability",
        "",
        convention(s),
        "",
        (f"Kendall tau-b between the ranking by all attempted tasks "
         f"and the ranking by the determinate subset, over {rs.models} models: "
         f"**{_num(rs.tau)}**. Removing "
         f"{rs.removed} tasks at random instead of the disputed ones ({rs.draws:,} draws, "
         f"random.Random({rs.seed})): mean tau {_num(rs.random_mean)}, 95% of draws between "
         f"{_num(rs.random_low)} and {_num(rs.random_high)}"
         + (f"; {pct(rs.at_or_below)} of draws reorder the ranking as much or more"
            if rs.at_or_below is not None else "")
         + (f" ({rs.draws - rs.defined} draws tie every model and have no tau)"
            if rs.defined < rs.draws else "") + ".") if rs.models >= 2 else
        "Fewer than two models have a score: no ranking to compare.",
        "",
        "## Resolve rate by verdict",
        "",
        convention(s),
        "",
        "How often the models solved the tasks of each verdict class, over every (model, task) "
        "pair scored; a task counts as solved by none, or by all, among the models that "
        "attempted it.",
        "",
        _class_table(s.by_verdict, "verdict"),
        f"## Resolve rate by validity (revision {s.validity_revision})",
        "",
        convention(s),
        "",
        _class_table(s.by_validity, "validity"),
    ]
    if s.revisions:
        out += ["## Validity revisions applied", "",
                md_table(["revision", "instance", "validity", "verdict", "author", "time",
                          "reason"],
                         [(r.revision, r.instance_id, r.validity, r.verdict, r.author, r.time,
                           r.reason) for r in s.revisions])]
    return "\n".join(out).rstrip("\n") + "\n"


def _class_table(rates: list[ClassRate], title: str) -> str:
    from determinacy.reports.markdown import md_table

    status = title == "verdict"  # a validity state has no tier status
    return md_table([title, *(["status"] if status else []), "tasks", "attempts", "passes",
                     "resolve rate", "solved by none", "solved by all"],
                    [(c.group, *([c.status] if status else []), c.tasks, c.attempts, c.passes,
                      pct(c.rate), c.solved_by_none, c.solved_by_all) for c in rates])


def selection_text(sel: Selection) -> str:
    """`run`'s selection in a few words (its ids counted, not listed)."""
    from determinacy.reports.markdown import text

    parts = [f"{len(sel.instance_ids)} instance ids"] if sel.instance_ids else []
    parts += [f"repos {', '.join(sel.repos)}"] if sel.repos else []
    parts += [f"filter {text(sel.filter)}"] if sel.filter else []
    parts += [f"the first {sel.limit} rows"] if sel.limit else []
    return "; ".join(parts)
