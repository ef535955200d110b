"""`determinacy run`: the audit itself, resumable."""

from __future__ import annotations

import gc
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import click

from determinacy.agents.calls import stop_agents
from determinacy.cli.common import (
    EXIT_ERROR_CASES,
    EXIT_FAILED,
    EXIT_OK,
    config_or_dataset,
    dataset_option,
    find_config,
    open_store,
    runs_option,
    split_option,
    store_option,
)
from determinacy.config import Config, load_config
from determinacy.errors import DeterminacyError
from determinacy.store import Store


def _term(signum: int, frame: Any) -> None:
    # doit flushes its database and stops cleanly on KeyboardInterrupt; make SIGTERM do the same.
    # Agents run in sessions of their own (no terminal signal reaches them): kill them now.
    stop_agents()
    raise KeyboardInterrupt


class _Variadic(click.Option):
    """A repeatable option that also takes the words after it, as the SWE-bench harness's
    `--instance_ids A B C` does: up to the next word that starts with `-`."""

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        super().add_to_parser(parser, ctx)
        # click has no variadic options: wrap how its parser takes this one's value. Should a
        # click change this, one value per flag (and "A B" in one) still works.
        opt = next((o for name in self.opts if (o := getattr(parser, "_long_opt", {}).get(name))),
                   None)
        if opt is None or not hasattr(opt, "process"):
            return
        take = opt.process

        def process(value: Any, state: Any) -> None:
            take(value, state)
            while state.rargs and not state.rargs[0].startswith("-"):
                take(state.rargs.pop(0), state)

        opt.process = process


def _seconds(started: tuple[float, float]) -> dict[str, dict[str, float]]:
    """Wall and CPU seconds per phase (`clock`), and of the whole command so far: this
    process's threads and its finished children (the proposer's workers)."""
    import resource

    from determinacy import clock

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {**clock.phases(), "all": {
        "wall": round(time.perf_counter() - started[0], 3),
        "cpu": round(time.process_time() - started[1] + kids.ru_utime + kids.ru_stime, 3)}}


def _peak_rss_mib() -> float:
    """The largest resident size of this process or any finished child (Linux: KiB)."""
    import resource

    peak = max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10), 1)


def _repo(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    for r in value:
        if r.count("/") != 1 or not all(r.split("/")) or any(c.isspace() for c in r):
            raise click.BadParameter(f"{r!r} is not of the form OWNER/NAME")
    return value


# Options are its own: a mistyped one is a usage error ("Did you mean"), never a config path
# or a doit argument; doit's own come after `--`.
@click.command()
@click.argument("config", required=False)
@click.option("--instance-ids", "instance_ids", cls=_Variadic, multiple=True, metavar="ID...",
              help="Audit only these instances (by instance_id): `--instance-ids A B C`, "
              "repeatable, `@FILE` for a file of ids. The ids run to the next option: "
              "CONFIG goes before.")
@click.option("--repo", "repos", multiple=True, metavar="OWNER/NAME", callback=_repo,
              help="Audit only this repository's tasks (repeatable: any of them).")
@click.option("--filter", "where", metavar="EXPR", default="",
              help="Audit only the tasks for which this DuckDB SQL expression is true, over "
              "the task's columns (instance_id, repo, base_commit, prose, fail_to_pass, ...) "
              "and the config's fields.keep ones, e.g. \"len(fail_to_pass) > 1\".")
@click.option("--limit", type=click.IntRange(min=1), metavar="N",
              help="Audit only the first N rows (of the selection, when there is one).")
@click.option("--shard", metavar="I/N", default="",
              help="Audit only shard I (0 to N-1) of N of the selection: whole repositories, "
              "balanced by task count, stable as tasks are added to others; `determinacy "
              "store merge` joins the shards' stores (`determinacy plan` shows the split).")
@store_option
@runs_option
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Phases run in parallel (threads; the proposer in as many processes).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as JSON on stdout.")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress on stderr (errors are still shown).")
@click.option("--agent", help="Agent command (prompt on stdin, answer on stdout), e.g. "
              "'claude -p'. Split like a shell would, never run by one. Overrides [agent].")
@click.option("--refuter", help="Refuter command (default: the agent; another model family "
              "is better). Overrides [agent] refuter.")
@click.option("--pass", "pass_no", type=click.IntRange(min=1),
              help="Run the agent phases as pass N (default 1). Other passes are untouched.")
@click.option("--passes", type=click.IntRange(min=1), help="Run agent passes 1..K.")
@click.option("--agent-timeout", type=click.FloatRange(min=0, min_open=True),
              help="Seconds per agent call (default [agent] timeout, 600).")
@click.option("--allow-errors", is_flag=True,
              help="Exit 0 even when some cases are ERROR (they are still reported).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="dask: run the shards (--shards) as the tasks of a Dask "
              "cluster (--scheduler), each into a shard store beside --store, and merge them "
              "into it (`pip install 'determinacy[dask]'`).")
@click.option("--scheduler", metavar="ADDRESS", help="The Dask scheduler (tcp://host:8786); "
              "default: a local cluster of --workers processes.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Workers of the local Dask cluster.")
@click.option("--shards", type=click.IntRange(min=1), metavar="N",
              help="Shards for --executor dask (default: one per repository, at most four "
              "per worker).")
@dataset_option
@split_option
@click.argument("doit_args", nargs=-1, type=click.UNPROCESSED)
def run(config: str | None, instance_ids: tuple[str, ...], repos: tuple[str, ...], where: str,
        limit: int | None, shard: str, store_dir: str | None, runs_dir: str, jobs: int,
        as_json: bool, quiet: bool, agent: str | None, refuter: str | None, pass_no: int | None,
        passes: int | None, agent_timeout: float | None, allow_errors: bool,
        executor: str, scheduler: str | None, workers: int, shards: int | None,
        dataset: str | None, split: str | None, doit_args: tuple[str, ...]) -> None:
    """Run (or resume) the audit of CONFIG (default: the shipped offline demo) and write
    RUNS/<name>/REPORT.md, CLAIMS.md and one receipt per case. CONFIG is a file, or a shipped
    example's name (`determinacy examples`; a file of that path wins). `--dataset NAME`
    audits a Hugging Face dataset of SWE-bench's or SWE-bench Pro's columns with no config.

    Only what changed is recomputed; an interrupted run resumes where it stopped. Extra
    arguments after `--` go to doit (e.g. `-- --always`).

    --instance-ids, --repo and --filter select rows (a row is audited when it meets every
    one given), --limit keeps the first N of them, --shard I/N shard I of those (whole
    repositories); REPORT.md and report.json say which. A
    selected case is the same case as in a full run: a later full run reuses it.

    \b
    Exit status:
      0  every case was audited
      1  the run failed or was interrupted (resume by running it again)
      2  usage or config error
      3  the audit completed, but some cases are ERROR (see REPORT.md; --allow-errors: 0)
    """
    from doit.doit_cmd import DoitMain

    from determinacy import clock, dodb
    from determinacy.graph import Audit, DeterminacyLoader, prepare
    from determinacy.proposer import pool
    from determinacy.selection import describe

    if config is not None and config.startswith("-"):
        # Only `--` lets one through (`run -- --always`): doit's, never a config path.
        config, doit_args = None, (config, *doit_args)
    if dataset is None and split is None:
        path: str | Path = find_config(config)
        cfg = load_config(path)
    else:  # a hub dataset, no config file: the default mapping of its columns' layout
        cfg = config_or_dataset(config, dataset, split)
        path = cfg.file
    if pass_no and passes:
        raise DeterminacyError("give --pass or --passes, not both")
    agents = agent_setups(cfg, agent, refuter, pass_no, passes, agent_timeout)
    chosen = _selection(instance_ids, repos, where, limit, shard, cfg)
    store = open_store(store_dir, cfg)
    store.check_writable()
    if executor == "dask":
        if shard or dataset or split or doit_args:
            raise DeterminacyError("--executor dask takes no --shard (it runs them all), "
                                   "--dataset, --split or doit arguments")
        passed = [*(["--agent", agent] if agent else []),
                  *(["--refuter", refuter] if refuter else []),
                  *(["--pass", str(pass_no)] if pass_no else []),
                  *(["--passes", str(passes)] if passes else []),
                  *(["--agent-timeout", str(agent_timeout)] if agent_timeout else []),
                  "--jobs", str(jobs), *[a for r in repos for a in ("--repo", r)],
                  *(["--filter", where] if where else []),
                  *(["--limit", str(limit)] if limit else []),
                  *(["--instance-ids", *chosen.instance_ids] if chosen.instance_ids else [])]
        _on_dask(Path(path).resolve(), cfg, store, chosen, agents, shards, scheduler, workers,
                 passed, Path(runs_dir), as_json, quiet, allow_errors)
        return
    clock.reset()
    started = time.perf_counter(), time.process_time()
    with clock.step("prepare"):
        audit = prepare(Audit(cfg=cfg, store=store, runs=Path(runs_dir), selection=chosen,
                              agents=agents))
    if not quiet:
        picked = "" if (d := describe(chosen)) == "every row" else f"; selection: {d}"
        click.echo(f"auditing {path} (benchmark {cfg.name!r}, {len(audit.loaded.tasks)} tasks, "
                   f"{len(audit.loaded.errors)} unreadable rows{picked})", err=True)
    signal.signal(signal.SIGTERM, _term)
    signal.signal(signal.SIGINT, _term)
    argv = ["run"]
    if jobs > 1:
        argv += ["-n", str(jobs), "-P", "thread"]
    argv += list(doit_args)
    # Progress goes to stderr; stdout carries only the results (the summary, --json).
    loader = DeterminacyLoader(audit, outstream=sys.stderr, quiet=quiet)
    pool.start(jobs)
    try:
        rc = DoitMain(loader, config_filenames=()).run(argv)
    finally:
        pool.stop()
        store.unshare()  # held since `prepare`: `store gc` may run now
        gc.unfreeze()  # the run's tasks and graph (`graph.long_lived`) may be collected
    if audit.fatal:
        raise audit.fatal[0]
    verdicts = _verdict_counts(audit.store, audit.shown) if rc == 0 else {}
    errors = verdicts.get("ERROR", 0)
    allowed = allow_errors or cfg.allow_errors
    code = EXIT_FAILED if rc else EXIT_ERROR_CASES if errors and not allowed else EXIT_OK
    # Every stored error (this run's and the cached ones), one group per cause.
    groups = _error_groups(audit.store, audit.shown) if rc == 0 and (
        errors or dodb.LAST.errors_raised) else []
    summary = {
        **dodb.LAST.as_dict(),
        "case_errors": errors,
        "errors_by_cause": {g.cause.code: g.cases for g in groups},
        "report": str(audit.out / "REPORT.md"),
        "verdicts": verdicts,
        "exit": code,
        "seconds": _seconds(started),
        "peak_rss_mib": _peak_rss_mib(),
    }
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
    elif rc == 0:
        shown = ", ".join(f"{k} {v}" for k, v in verdicts.items())
        click.echo(f"verdicts: {shown}\nreport: {summary['report']}")
        if errors:
            click.echo(f"ERROR (not audited): {errors} of {sum(verdicts.values())} cases; "
                       "see the Errors section of the report", err=True)
        for g in groups:
            click.echo(f"  {g.line()}", err=True)
    sys.exit(code)


def _on_dask(config: Path, cfg: Config, store: Store, chosen: Any, agents: list[Any],
             shards: int | None, scheduler: str | None, workers: int, passed: list[str],
             runs: Path, as_json: bool, quiet: bool, allow_errors: bool) -> None:
    """`run --executor dask`: the shards on the cluster, then their stores merged into
    `store`, its tables written from them all and its report rendered."""
    from determinacy import executor
    from determinacy.graph import Audit, merge_tables, selected
    from determinacy.reports.render import render
    from determinacy.score.render import OUTPUTS

    started = time.perf_counter()
    loaded = selected(Audit(cfg=cfg, store=store, runs=runs, selection=chosen, agents=agents))
    count = shards or max(1, min(len({t.repo for t in loaded.tasks}), 4 * workers))
    echo = (lambda m: None) if quiet else (lambda m: click.echo(m, err=True))
    codes = executor.run_on_dask(str(config), store.root, count, scheduler, workers, passed,
                                 echo)
    # The shard stores hold this run's refs: where an earlier run left others here, theirs win.
    store.merge([Store(executor.shard_store(store.root, i, count)) for i in range(count)],
                replace=True)
    merge_tables(store, cfg.name, count)
    report = render(store, cfg, runs, OUTPUTS) / "REPORT.md"
    counts = _verdict_counts(store, cfg.name)
    code = 3 if counts.get("ERROR") and not (allow_errors or cfg.allow_errors) else 0
    summary = {"exit": code, "shards": count, "shard_exits": codes, "verdicts": counts,
               "report": str(report), "seconds": round(time.perf_counter() - started, 3)}
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
    elif not quiet:
        click.echo(f"{count} shards on dask in {summary['seconds']} s; verdicts: "
                   + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                   + f"\nreport: {report}", err=True)
    sys.exit(code)


@click.command()
@click.argument("config", required=False)
@click.option("--shards", type=click.IntRange(min=1), default=1, show_default=True,
              help="Show the split over this many shards (`run --shard I/N`).")
@click.option("--agent", help="Agent command, as for `run` (default: [agent] command).")
@click.option("--passes", type=click.IntRange(min=1), help="Agent passes 1..K, as for `run`.")
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON.")
@dataset_option
@split_option
def plan(config: str | None, shards: int, agent: str | None, passes: int | None,
         store_dir: str | None, as_json: bool, dataset: str | None,
         split: str | None) -> None:
    """The bill before the run of CONFIG: its repositories and tasks, the mirrors' total
    size where they are on this machine ("unknown" where they are not yet), the agent calls
    the configured tiers would make (at most; those already stored are not counted), and how
    they split over --shards N, as `run --shard I/N` splits them. Reads the source; runs no
    phase and writes no record."""
    import msgspec

    from determinacy import plan as planning
    from determinacy.graph import Audit, selected
    from determinacy.selection import make

    if dataset is None and split is None:
        cfg = load_config(find_config(config))
    else:
        cfg = config_or_dataset(config, dataset, split)
    agents = agent_setups(cfg, agent, None, None, passes, None)
    store = open_store(store_dir, cfg)
    audit = Audit(cfg=cfg, store=store, runs=Path("runs"), selection=make(), agents=agents)
    loaded = selected(audit)
    got = planning.make(audit.cfg, store, loaded.tasks, len(loaded.errors), agents, shards)
    click.echo(msgspec.json.encode(got).decode() if as_json else planning.markdown(got))


def _error_groups(store: Store, name: str) -> list[Any]:
    """The stored errors by cause (`determinacy.causes`), from the tables."""
    from determinacy import causes
    from determinacy.reports.query import error_causes

    return causes.group(error_causes(store, name))


def _selection(ids: tuple[str, ...], repos: tuple[str, ...], where: str, limit: int | None,
               shard: str, cfg: Config) -> Any:
    """The rows to audit; a filter that does not read is a usage error before any row is."""
    from determinacy.selection import FilterError, SelectionError, check_filter, make

    try:
        chosen = make(ids, repos, where, limit, shard)
    except SelectionError as e:
        if not shard:
            raise
        raise click.BadParameter(str(e).removeprefix(f"--shard {shard!r}: "),
                                 param_hint="'--shard'") from None
    if chosen.filter:
        try:
            check_filter(chosen.filter, cfg.fields.keep if cfg.fields else [])
        except FilterError as e:
            raise click.BadParameter(str(e).removeprefix("--filter "),
                                     param_hint="'--filter'") from None
    return chosen


def agent_setups(cfg: Config, agent: str | None, refuter: str | None, pass_no: int | None,
                 passes: int | None, timeout: float | None) -> list[Any]:
    """The agent passes to run now: none without an agent command."""
    from determinacy.agents.phases import AgentSetup
    from determinacy.config import argv

    try:
        command = argv(agent) if agent else argv(cfg.agent.command)
        judge = argv(refuter) if refuter else argv(cfg.agent.refuter) or command
    except ValueError as e:
        raise DeterminacyError(f"cannot split the agent command: {e}") from None
    if not command:
        if pass_no or passes or refuter:
            raise DeterminacyError("--pass, --passes and --refuter need an agent "
                                   "(--agent or [agent] command)")
        return []
    numbers = list(range(1, passes + 1)) if passes else [pass_no or 1]
    return [AgentSetup(argv=tuple(command), refuter=tuple(judge), pass_no=n,
                       timeout=timeout or cfg.agent.timeout, max_chars=cfg.agent.max_chars)
            for n in numbers]


def _verdict_counts(store: Store, name: str) -> dict[str, int]:
    from determinacy.reports.query import verdict_counts

    return verdict_counts(store, name)

