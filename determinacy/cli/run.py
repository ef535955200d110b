"""`determinacy run`: the audit itself, resumable."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Any

import click

from determinacy.agents.calls import stop_agents
from determinacy.cli.common import (
    EXIT_ERROR_CASES,
    EXIT_FAILED,
    EXIT_OK,
    find_config,
    open_store,
    runs_option,
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




# Options are its own: a mistyped one is a usage error ("Did you mean"), never a config path
# or a doit argument; doit's own come after `--`.
@click.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--limit", type=click.IntRange(min=1), help="Audit only the first N source rows.")
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
@click.argument("doit_args", nargs=-1, type=click.UNPROCESSED)
def run(config: str | None, limit: int | None, store_dir: str | None, runs_dir: str, jobs: int,
        as_json: bool, quiet: bool, agent: str | None, refuter: str | None, pass_no: int | None,
        passes: int | None, agent_timeout: float | None, allow_errors: bool,
        doit_args: tuple[str, ...]) -> None:
    """Run (or resume) the audit of CONFIG (default: the shipped offline demo) and write
    RUNS/<name>/REPORT.md, CLAIMS.md and one receipt per case.

    Only what changed is recomputed; an interrupted run resumes where it stopped. Extra
    arguments after `--` go to doit (e.g. `-- --always`).

    \b
    Exit status:
      0  every case was audited
      1  the run failed or was interrupted (resume by running it again)
      2  usage or config error
      3  the audit completed, but some cases are ERROR (see REPORT.md; --allow-errors: 0)
    """
    from doit.doit_cmd import DoitMain

    from determinacy import dodb
    from determinacy.graph import Audit, DeterminacyLoader, prepare
    from determinacy.proposer import pool

    if config is not None and config.startswith("-"):
        # Only `--` lets one through (`run -- --always`): doit's, never a config path.
        config, doit_args = None, (config, *doit_args)
    path = find_config(config)
    cfg = load_config(path)
    if pass_no and passes:
        raise DeterminacyError("give --pass or --passes, not both")
    agents = agent_setups(cfg, agent, refuter, pass_no, passes, agent_timeout)
    store = open_store(store_dir, cfg)
    store.check_writable()
    audit = prepare(Audit(cfg=cfg, store=store, runs=Path(runs_dir), limit=limit,
                          agents=agents))
    if not quiet:
        click.echo(f"auditing {path} (benchmark {cfg.name!r}, {len(audit.loaded.tasks)} tasks, "
                   f"{len(audit.loaded.errors)} unreadable rows)", err=True)
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
    if audit.fatal:
        raise audit.fatal[0]
    verdicts = _verdict_counts(audit.store, cfg) if rc == 0 else {}
    errors = verdicts.get("ERROR", 0)
    allowed = allow_errors or cfg.allow_errors
    code = EXIT_FAILED if rc else EXIT_ERROR_CASES if errors and not allowed else EXIT_OK
    summary = {
        **dodb.LAST.as_dict(),
        "case_errors": errors,
        "report": str(audit.out / "REPORT.md"),
        "verdicts": verdicts,
        "exit": code,
    }
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
    elif rc == 0:
        shown = ", ".join(f"{k} {v}" for k, v in verdicts.items())
        click.echo(f"verdicts: {shown}\nreport: {summary['report']}")
        if errors:
            click.echo(f"ERROR (not audited): {errors} of {sum(verdicts.values())} cases; "
                       "see the Errors section of the report", err=True)
    sys.exit(code)


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


def _verdict_counts(store: Store, cfg: Config) -> dict[str, int]:
    from determinacy.reports.query import verdict_counts

    return verdict_counts(store, cfg.name)

