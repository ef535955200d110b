"""What a score counts a task the results do not name (missing), or name as an error (the
harness could not evaluate it), and the sentence SCORES.md prints above every table.

The default is the benchmark's convention: SWE-bench leaderboards (SWE-bench's harness report,
its experiments repository, SWE-bench Pro's eval_results.json) divide the resolved instances by
every instance of the benchmark, so a missing or errored instance is unresolved. Leaving them
out instead (`--attempted-only`) scores only what was evaluated, a larger number that no
leaderboard publishes.
"""

from __future__ import annotations

from typing import Literal

from determinacy.records import ScorePolicy

Policy = Literal["exclude", "fail"]

LEADERBOARD: Literal["swebench-leaderboard"] = "swebench-leaderboard"
ATTEMPTED_ONLY: Literal["attempted-only"] = "attempted-only"
MIXED: Literal["mixed"] = "mixed"

_WHAT = {"fail": "counts as unresolved", "exclude": "is left out of the score, counted apart"}


def describe(errors: Policy, missing: Policy) -> ScorePolicy:
    """The convention `--errors errors --missing missing` is, named and in one sentence."""
    flags = f"--missing {missing} --errors {errors}"
    if (errors, missing) == ("fail", "fail"):
        return ScorePolicy(
            convention=LEADERBOARD, errors=errors, missing=missing, flags=flags,
            text="Convention: SWE-bench leaderboard — a task a model's results do not name, "
                 f"or name as an error, counts as unresolved (`{flags}`, the default), so "
                 "a score is over every task of the audit (a task marked broken is in none); "
                 "`--attempted-only` leaves them out.")
    if (errors, missing) == ("exclude", "exclude"):
        return ScorePolicy(
            convention=ATTEMPTED_ONLY, errors=errors, missing=missing,
            flags="--attempted-only",
            text="Convention: attempted only — a task a model's results do not name, or name "
                 "as an error, is left out of its score and counted apart (`--attempted-only`, "
                 f"i.e. `{flags}`); the SWE-bench leaderboard counts them as unresolved (the "
                 "default, `--missing fail --errors fail`).")
    return ScorePolicy(
        convention=MIXED, errors=errors, missing=missing, flags=flags,
        text=f"Convention: mixed — a task a model's results do not name {_WHAT[missing]}; one "
             f"they name as an error {_WHAT[errors]} (`{flags}`); the SWE-bench leaderboard "
             "counts both as unresolved (the default, `--missing fail --errors fail`).")


def resolve(errors: Policy | None, missing: Policy | None, attempted_only: bool) -> ScorePolicy:
    """The policy the options give: each of --errors / --missing defaults to the leaderboard's
    `fail`, or to `exclude` with --attempted-only (which contradicts an explicit `fail`)."""
    from determinacy.errors import DeterminacyError

    if attempted_only and "fail" in (errors, missing):
        given = " ".join(f"--{k} fail" for k, v in (("missing", missing), ("errors", errors))
                         if v == "fail")
        raise DeterminacyError(f"--attempted-only leaves missing and errored tasks out, but "
                               f"{given} counts them as unresolved: give one or the other")
    default: Policy = "exclude" if attempted_only else "fail"
    return describe(errors or default, missing or default)
