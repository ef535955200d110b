"""Scores with an uncertainty budget (method §9): what a leaderboard number means once the
audit knows which tasks grade an unstated choice.

    results.py   the results formats, read into ResultFile records (--model names a model)
    policy.py    what a missing or errored task counts as: the SWE-bench leaderboard's
                 convention (unresolved) by default, or left out (--attempted-only)
    validity.py  validity revisions, appended and never edited (revision 0: the verdicts)
    compute.py   results + verdicts + a revision -> a ScoreSet (SQL counts, then stats.py)
    stats.py     Wilson, exact McNemar, Kendall tau-b, sensitivity intervals, partial credit,
                 random-removal taus: pure functions
    render.py    SCORES.md, scores.json and scores.png from a ScoreSet
    stored.py    where the records live in the store (scores/<benchmark>/), the `scores` view

`score` below is the one call the CLI makes: file I/O at its two ends, pure logic between.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from determinacy.config import Config
from determinacy.records import ResultFile, ScoreSet
from determinacy.score.policy import Policy
from determinacy.store import Store, digest, write_below


def score(store: Store, cfg: Config, paths: Sequence[str | Path], runs: Path,
          revision: int | None = None, errors: Policy = "fail", missing: Policy = "fail",
          seed: int = 0, models: Sequence[str | None] = ()) -> tuple[ScoreSet, Path,
                                                                      list[ResultFile]]:
    """Score the results in `paths` against the stored audit of `cfg` at validity `revision`
    (default: the newest) under the policy `errors` / `missing` (default: the SWE-bench
    leaderboard's, both unresolved); store the results and the scores; write
    RUNS/<name>/SCORES.md, scores.json and scores.png. `models[i]`, when given and not None,
    names the model of `paths[i]` (`--model`). Returns the scores, SCORES.md's path and the
    files read."""
    from determinacy.reports.query import connect
    from determinacy.score import compute, render, results, stored, validity

    con = connect(store, cfg.name)
    names = list(models) or [None] * len(paths)
    if len(names) != len(paths):
        raise ValueError("one model name (or None) per results path")
    files = [results.read(p, m) for p, m in zip(paths, names)]
    applied = validity.upto(validity.revisions(store, cfg.name), revision)
    inputs = compute.Inputs(files=[(f, digest(stored.encode(f))) for f in files],
                            applied=applied, errors=errors, missing=missing,
                            seed=seed)
    scores = compute.compute(con, cfg.name, inputs)
    for f in files:
        stored.put(store, cfg.name, "results", f)
    stored.put(store, cfg.name, "scores", scores)
    out = runs / cfg.name
    for name, data in render.files(scores, out).items():
        write_below(out, name, data)
    return scores, out / "SCORES.md", files
