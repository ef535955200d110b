"""`determinacy score` and `determinacy validity`: models' results against the audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import click

from determinacy.cli.common import (
    dataset_option,
    demo_results,
    open_store,
    reading_config,
    runs_option,
    split_option,
    store_option,
)
from determinacy.records import Prescreen


@click.command("score")
@click.argument("config")
@click.argument("results", nargs=-1, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print every number (scores.json) on stdout instead of SCORES.md's path.")
@click.option("--validity-revision", "revision", type=click.IntRange(min=0),
              help="Score at validity revision N (default: the newest; 0: derived from the "
              "verdicts alone). The same N gives the same scores, byte for byte.")
@click.option("--attempted-only", is_flag=True,
              help="Score only what was evaluated: a task the results do not name, or name "
              "as an error, is left out of the score and counted apart (--missing exclude "
              "--errors exclude). Default: the SWE-bench leaderboard's convention, both "
              "unresolved.")
@click.option("--errors", "errors_policy", type=click.Choice(["exclude", "fail"]),
              help="A task the results name as an infrastructure error (the harness could "
              "not evaluate it): `fail` counts it as unresolved (default, as SWE-bench "
              "leaderboards do), `exclude` leaves it out, counted apart.")
@click.option("--missing", "missing_policy", type=click.Choice(["exclude", "fail"]),
              help="A task of the audit the results do not name: `fail` counts it as "
              "unresolved (default, as SWE-bench leaderboards do), `exclude` leaves it out, "
              "counted apart.")
@click.option("--model", "models", multiple=True, metavar="NAME",
              help="The model of RESULTS, for a file that does not name one (SWE-bench Pro's "
              "eval_results.json, a harness report saved as report.json) or in place of the "
              "name it has. Once per RESULTS, in order (`-`: that file's own).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the 1,000 random removals the rank stability is compared with.")
@dataset_option
@split_option
@store_option
@runs_option
def score_cmd(config: str, results: tuple[str, ...], as_json: bool, revision: int | None,
              attempted_only: bool, errors_policy: Any, missing_policy: Any,
              models: tuple[str, ...], seed: int, dataset: str | None, split: str | None,
              store_dir: str | None, runs_dir: str) -> None:
    """Score models' per-instance RESULTS against the stored audit of CONFIG (method §9):
    the score, the score on the determinate subset (disputed tasks left out), the
    sensitivity interval and the wider hypothesis band, pairs compared on their common
    tasks (exact McNemar), rank stability and the resolve rate by verdict. Writes
    RUNS/<name>/SCORES.md, scores.json and scores.png, and stores the results and the
    scores (the `scores` view of `determinacy sql`).

    By default a score follows the SWE-bench leaderboard: a task the results do not name, or
    name as an error, counts as unresolved, so every score is over every task of the audit
    (--missing fail --errors fail). --attempted-only leaves them out (counted apart). SCORES.md
    names the convention above every table, scores.json in `policy`.

    Each of RESULTS is a SWE-bench harness report (resolved_ids, ...), an experiments
    results.json (resolved, no_generation, no_logs), per-instance report.json (a folder of
    them, or a per_instance_details.json), SWE-bench Pro's eval_results.json
    ({instance_id: true | false}) or a jsonl of {instance_id, model, result}; the format is
    detected and named. A file whose content does not name its model takes its file name,
    else the folder an experiments submission or the harness's logs are named by; any other
    (eval_results.json) needs --model. Without RESULTS, the demo's config scores the demo's
    recorded results.

    \b
    Examples:
      determinacy score demo
      determinacy score examples/demo.toml examples/demo/results/* --attempted-only
      determinacy score CONFIG traj/claude/eval_results.json --model claude-sonnet-4
    """
    from determinacy.score import score
    from determinacy.score.policy import resolve
    from determinacy.score.render import scores_json

    chosen = resolve(errors_policy, missing_policy, attempted_only)
    if dataset:  # `score --dataset NAME RESULTS...`: the first argument is a results file
        config, results = None, (config, *results)
    cfg = reading_config(config, store_dir, dataset, split)
    paths = list(results) or demo_results(cfg)  # the demo's recorded results by default
    if not paths:
        raise click.UsageError("Missing argument 'RESULTS...'.")
    if models and len(models) != len(paths):
        raise click.UsageError(
            f"--model is given {_times(len(models))} for {len(paths)} RESULTS: give it once "
            "per RESULTS, in order (`-` keeps that file's own model)")
    named = [None if m == "-" else m for m in models]
    scores, path, files = score(open_store(store_dir, cfg), cfg, paths, Path(runs_dir),
                                revision, chosen.errors, chosen.missing, seed, named)
    for f, m in zip(files, named or [None] * len(files)):
        click.echo(f"read {f.path}: {f.format}, {len(f.rows)} rows, models "
                   f"{', '.join(sorted({r.model for r in f.rows}))}"
                   + (" (--model)" if m else ""), err=True)
    click.echo(chosen.text, err=True)
    if scores.selection:
        from determinacy.score.render import selection_text

        click.echo(f"warning: the audit of {cfg.name!r} is a selection of the source "
                   f"({selection_text(scores.selection)}): every score is over those tasks, "
                   "not the benchmark's", err=True)
    click.echo(scores_json(scores) if as_json else path, nl=not as_json)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


class _ConfigFirst(click.Group):
    """`validity [CONFIG] COMMAND ...`: without CONFIG, the usual default (see find_config)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in self.commands:
            args = ["", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_ConfigFirst)
@click.argument("config", required=False, default="", metavar="[CONFIG]")
@click.pass_context
def validity(ctx: click.Context, config: str) -> None:
    """Task validity, versioned (valid / disputed / broken): each `set` appends a revision,
    never overwriting one. Revision 0 is derived from the verdicts (every claimable case
    disputed); `determinacy score --validity-revision N` scores at revision N.

    The validity checks (REPORT.md, Validity checks) only propose: `proposed` lists what,
    `accept` appends their revisions.

    \b
    Example:
      determinacy validity demo set acme__widgets-1 valid --reason "..."
      determinacy validity demo proposed
      determinacy validity demo accept --check duplicate
      determinacy validity demo list
    """
    ctx.obj = config or None


@validity.command("set")
@click.argument("instance_id")
@click.argument("state", type=click.Choice(["valid", "disputed", "broken"]))
@click.option("--reason", required=True, help="Why (kept with the revision).")
@click.option("--author", help="Who (default: your user name).")
@store_option
@click.pass_obj
def validity_set(config: str | None, instance_id: str, state: Any, reason: str,
                 author: str | None, store_dir: str | None) -> None:
    """Append a revision: INSTANCE_ID is now STATE, for --reason."""
    from determinacy.score.validity import set_validity

    cfg = reading_config(config, store_dir)
    rev, before = set_validity(open_store(store_dir, cfg), cfg.name, instance_id, state, reason,
                               author)
    click.echo(f"revision {rev.revision}: {rev.instance_id} is {rev.validity} (was {before}; "
               f"verdict {rev.verdict})")


@validity.command("proposed")
@store_option
@click.pass_obj
def validity_proposed(config: str | None, store_dir: str | None) -> None:
    """What the validity checks propose, per task (the `validity_checks` table, REPORT.md's
    Validity checks): the strongest finding's validity, the task's validity now, and whether
    a revision already applied it."""
    from determinacy.reports.markdown import md_table
    from determinacy.score.validity import proposals

    cfg = reading_config(config, store_dir)
    got = proposals(open_store(store_dir, cfg), cfg.name)
    click.echo(md_table(["instance", "proposes", "check", "now", "accepted", "reason"],
                        [(p.instance_id, p.validity, p.prescreen, p.now,
                          "yes" if p.accepted else "no", p.reason) for p in got]), nl=False)


@validity.command("accept")
@click.argument("instance_ids", nargs=-1, metavar="[INSTANCE_ID]...")
@click.option("--check", "prescreen", type=click.Choice(get_args(Prescreen)),
              help="Only the proposals of this check.")
@click.option("--author", help="Who (default: your user name).")
@store_option
@click.pass_obj
def validity_accept(config: str | None, instance_ids: tuple[str, ...], prescreen: str | None,
                    author: str | None, store_dir: str | None) -> None:
    """Append a revision for each proposal of the validity checks not yet accepted (of the
    INSTANCE_IDs given, else every one), naming its check: a task proposed broken then
    leaves every score denominator, and SCORES.md says which check put it there."""
    from determinacy.score.validity import accept

    cfg = reading_config(config, store_dir)
    got = accept(open_store(store_dir, cfg), cfg.name, list(instance_ids), prescreen, author)
    for rev in got:
        click.echo(f"revision {rev.revision}: {rev.instance_id} is {rev.validity} "
                   f"({rev.check}; verdict {rev.verdict})")
    if not got:
        click.echo("nothing to accept: every proposal is applied already")


@validity.command("list")
@store_option
@click.pass_obj
def validity_list(config: str | None, store_dir: str | None) -> None:
    """Every revision, revision 0 (derived from the verdicts) first."""
    from determinacy.reports.markdown import md_table
    from determinacy.score.validity import listing

    cfg = reading_config(config, store_dir)
    click.echo(md_table(*listing(open_store(store_dir, cfg), cfg.name)), nl=False)


