"""Command line: `determinacy run | report | show | export | validate | diff | hints | sql |
verify | store | score | validity | schemas`."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from determinacy import __version__
from determinacy.agents.calls import stop_agents
from determinacy.config import Config, load_config
from determinacy.errors import DeterminacyError, StoreError
from determinacy.store import Store


def default_config() -> Path:
    """The shipped demo benchmark: examples/ of the checkout, or the copy inside the wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data" / "examples" / "demo.toml",
                      here.parent / "examples" / "demo.toml"):
        if candidate.is_file():
            return candidate
    raise DeterminacyError("the demo benchmark (examples/demo.toml) is not installed")


def find_config(config: str | None = None) -> Path:
    """The config to audit, as people expect to find it: the one given, else
    $DETERMINACY_CONFIG, else determinacy.toml in the current folder, else the shipped demo."""
    if config:
        return Path(config)
    if os.environ.get("DETERMINACY_CONFIG"):
        return Path(os.environ["DETERMINACY_CONFIG"])
    if Path("determinacy.toml").is_file():
        return Path("determinacy.toml")
    return default_config()


def _load(config: str | None) -> Config:
    return load_config(find_config(config))


def _term(signum: int, frame: Any) -> None:
    # doit flushes its database and stops cleanly on KeyboardInterrupt; make SIGTERM do the same.
    # Agents run in sessions of their own (no terminal signal reaches them): kill them now.
    stop_agents()
    raise KeyboardInterrupt


store_option = click.option(
    "--store", "store_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_STORE",
    show_envvar=True, default=None,
    help="Store folder (objects, cache, tables, mirrors). Default: the config's `store` "
    "(relative to the config's folder), else ./store.")


def _store(store_dir: str | None, cfg: Config | None = None) -> Store:
    return Store(store_dir or (cfg.store_dir() if cfg is not None else "store"))
runs_option = click.option(
    "--runs", "runs_dir", type=click.Path(file_okay=False), envvar="DETERMINACY_RUNS",
    show_envvar=True, default="runs", show_default=True,
    help="Where reports go: RUNS/<benchmark>/.")


# Exit statuses of `determinacy run` (documented in its --help).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_ERROR_CASES = 0, 1, 2, 3


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StoreError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(EXIT_FAILED)
        except DeterminacyError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(EXIT_USAGE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="determinacy")
def main() -> None:
    """Audit a SWE-bench-style benchmark: which graded behaviors does the task text determine?

    Every claim comes with a receipt a skeptic can re-run. Without CONFIG, `run` audits the
    shipped offline demo benchmark.

    \b
    Environment:
      DETERMINACY_STORE   the store folder (--store; default: store)
      DETERMINACY_RUNS    where reports go (--runs; default: runs)
    POSIX only (Linux, macOS): the store locks with fcntl.
    """


# Options are its own: a mistyped one is a usage error ("Did you mean"), never a config path
# or a doit argument; doit's own come after `--`.
@main.command()
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
    store = _store(store_dir, cfg)
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


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@store_option
@runs_option
def report(config: str | None, store_dir: str | None, runs_dir: str) -> None:
    """Regenerate RUNS/<name>/ from the store's tables only: no agent, no git, byte for byte."""
    from determinacy.reports.render import render
    from determinacy.score.render import OUTPUTS

    cfg = _load(config)
    click.echo(render(_store(store_dir, cfg), cfg, Path(runs_dir), OUTPUTS) / "REPORT.md")


@main.command()
@click.argument("config_case", nargs=-1, required=True, metavar="[CONFIG] CASE")
@store_option
@runs_option
def show(config_case: tuple[str, ...], store_dir: str | None, runs_dir: str) -> None:
    """Print one case of the stored audit of CONFIG (default: the demo): its receipt
    (verdict, evidence, the command that re-runs it) and where its materials are. CASE is a
    case or instance id, or a unique prefix, ending or part of one.

    \b
    Example:
      determinacy show examples/swebench-pro.toml vuls-1832b4
    """
    from determinacy.reports.query import connect
    from determinacy.reports.render import find_case, receipt

    if len(config_case) > 2:
        raise click.UsageError("give [CONFIG] CASE")
    *config, case = config_case
    cfg = _load(config[0] if config else None)
    con = connect(_store(store_dir, cfg), cfg.name)
    case_id = find_case(con, case)
    click.echo(receipt(con, case_id), nl=False)
    folder = Path(runs_dir) / cfg.name / "cases" / case_id
    click.echo(f"\nMaterials: {folder}/ (RECEIPT.md, spec.md, gold.diff, hidden_test.diff)")


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@store_option
@runs_option
def hints(config: str | None, store_dir: str | None, runs_dir: str) -> None:
    """Write RUNS/<name>/hints/<id>.json and .md: the declaration hint of each case (method
    §7), from the store only. Every run and `report` writes them too."""
    from determinacy.reports.render import render
    from determinacy.score.render import OUTPUTS

    cfg = _load(config)
    out = render(_store(store_dir, cfg), cfg, Path(runs_dir), OUTPUTS) / "hints"
    click.echo(out if out.is_dir() else f"no case has a hinted identifier ({out} not written)")


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--rows", "show", type=click.IntRange(min=0), default=3, show_default=True,
              help="How many first rows to show the mapping on.")
def validate(config: str | None, show: int) -> None:
    """Check CONFIG against its source without auditing anything: the field mapping applied
    to the first rows, mapped fields that rows lack, unmapped columns that look like prose,
    and every row that is not a task (say, a FAIL_TO_PASS that does not parse).

    Exit status 0 when there is nothing to warn about, 3 otherwise.
    """
    from determinacy.sources.rows import validate as check

    cfg = _load(config)
    v = check(cfg, show)
    click.echo(f"source: {', '.join(map(str, v.files))} ({v.rows} rows, {v.tasks} tasks)")
    for n, fields in v.shown:
        click.echo(f"row {n}:")
        for key, value in fields.items():
            click.echo(f"  fields.{key}: {value}")
    warnings = [f"fields.{k} is missing from {n} of {v.rows} rows" for k, n in v.missing.items()]
    warnings += [f"column `{c}` looks like prose the solver is given, but no fields.prose entry "
                 "reads it: a constant it states would be certified wrongly" for c in v.prose_like]
    warnings += v.bad
    for w in warnings:
        click.echo(f"warning: {w}")
    click.echo(f"{len(warnings)} warnings" if warnings else "ok: every row is a task")
    sys.exit(EXIT_ERROR_CASES if warnings else EXIT_OK)


@main.command()
@click.argument("config_a", type=click.Path(dir_okay=False))
@click.argument("config_b", type=click.Path(dir_okay=False))
@store_option
@click.option("--other-store", type=click.Path(file_okay=False),
              help="The store of CONFIG_B (default: the same store), e.g. another tool version.")
def diff(config_a: str, config_b: str, store_dir: str | None, other_store: str | None) -> None:
    """Compare two stored audits (strict and lenient, two tool versions, two agents): the
    cases whose verdict differs, the cases only one audited, the claims gained and lost.

    \b
    Example:
      determinacy diff examples/demo.toml demo-lenient.toml
    """
    from determinacy.reports.query import connect
    from determinacy.reports.render import compare

    a, b = load_config(config_a), load_config(config_b)
    con_a = connect(_store(store_dir, a), a.name)
    con_b = connect(_store(other_store or store_dir, b), b.name)
    click.echo(compare(con_a, con_b, f"{config_a} ({a.name})", f"{config_b} ({b.name})"),
               nl=False)


EXPORTS = {"claims": "SELECT * FROM claims ORDER BY case_id, verdict, constant, evidence",
           "verdicts": "SELECT * FROM verdicts ORDER BY case_id",
           "candidates": "SELECT * FROM settled ORDER BY case_id, constant"}


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--what", type=click.Choice(sorted(EXPORTS)), default="claims", show_default=True,
              help="claims: every claim with its evidence; verdicts: one row per case; "
              "candidates: every shared constant and how it was settled.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "parquet"]),
              default="jsonl", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), help="File to write (default: "
              "stdout; parquet needs a file).")
@store_option
def export(config: str | None, what: str, fmt: str, out: str | None, store_dir: str | None) -> None:
    """Write the stored audit's claims, verdicts or candidates for other tools, sorted, in
    jsonl, csv or parquet, without writing SQL.

    \b
    Example:
      determinacy export my-benchmark.toml --what claims --format csv --out claims.csv
    """

    from determinacy.reports.query import connect, rows

    cfg = _load(config)
    con = connect(_store(store_dir, cfg), cfg.name)
    if fmt == "parquet":
        if not out:
            raise click.UsageError("--format parquet needs --out FILE")
        import pyarrow.parquet as pq  # DuckDB may reach no file (`connect`): pyarrow writes

        pq.write_table(con.sql(EXPORTS[what]).to_arrow_table(), out)
        return
    text = formatted(*rows(con, EXPORTS[what]), fmt)
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


def formatted(cols: list[str], data: list[tuple[Any, ...]], fmt: str) -> str:
    """Query results as text: markdown, csv, json (one array) or jsonl (an object a line)."""
    import csv
    import io

    from determinacy.reports.markdown import md_table

    if fmt == "markdown":
        return md_table(cols, data)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(cols)
        w.writerows(data)
        return buf.getvalue()
    if fmt == "json":
        return json.dumps([dict(zip(cols, r)) for r in data], default=str, sort_keys=True) + "\n"
    return "".join(json.dumps(dict(zip(cols, r)), default=str, sort_keys=True) + "\n"
                   for r in data)


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.argument("query", required=False)
@click.option("-f", "--file", "query_file", type=click.File("r", encoding="utf-8"),
              help="Read the query from this file (or - for stdin).")
@store_option
@click.option("--format", "fmt", type=click.Choice(["markdown", "csv", "json"]),
              default="markdown", show_default=True)
def sql(config: str | None, query: str | None, query_file: Any, store_dir: str | None,
        fmt: str) -> None:
    """Run QUERY (DuckDB SQL) over the audit's views: tasks, candidates, settled,
    settle_steps, witnesses, verdicts, claims, errors, run, tiers, trees, commits (a history
    source's walk), behaviors, agent_witnesses, agent_calls, passes, scores (`determinacy score`).
    Without QUERY, list the views and their columns."""

    from determinacy.reports.query import connect, rows
    from determinacy.score.stored import register

    if query is None and config and not config.endswith(".toml") and not Path(config).exists():
        config, query = None, config  # `determinacy sql "select ..."`: the demo's audit
    if query_file is not None:
        if query:
            raise click.UsageError("give QUERY or --file, not both")
        query = query_file.read()
    cfg = _load(config)
    store = _store(store_dir, cfg)
    con = connect(store, cfg.name)
    register(con, store, cfg.name)
    if not query:
        query = ("SELECT table_name AS view, string_agg(column_name, ', ' ORDER BY "
                 "ordinal_position) AS columns FROM information_schema.columns WHERE table_name "
                 "NOT LIKE 't\\_%' ESCAPE '\\' GROUP BY 1 ORDER BY 1")
    try:
        cols, data = rows(con, query)
    except Exception as e:  # duckdb raises many error types; all mean "your query is wrong"
        raise DeterminacyError(f"query failed: {e}") from None
    click.echo(formatted(cols, data, fmt), nl=False)


@main.command("verify")
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--case", "case_id", help="Verify only the claims of this case.")
@store_option
def verify_claims(config: str | None, case_id: str | None, store_dir: str | None) -> None:
    """Re-check every claim of the stored audit of CONFIG from the raw tasks and the
    repository, trusting neither the stored search results nor the tool's codebase search.

    Each task is read again from the source (a row that changed since the audit fails). An
    AIRTIGHT constant must be on an added line of the gold and of the test patch, absent from
    the prose (case-insensitively, and as a run of its words), and `git grep -F -n -e
    CONSTANT SHA` must print nothing (AIRTIGHT-PARTIAL: over the readable part). Each verified
    precedent of a MISDETERMINED / CODEBASE-PLURAL claim must stand on its line at SHA. A
    GOLD-TEST-DATA constant must be on an added line of the gold patch's hunk of its file,
    which the test patch must not write, and on an added line of the test patch. Prints
    CONFIRMED or FAILED (with the reason) per claim, then a summary.

    \b
    Exit status:
      0  every claim confirmed (or there is none)
      1  some claim FAILED
      2  usage or config error (no stored audit, an unknown --case)
    """
    from determinacy.verify import verify

    cfg = _load(config)
    outcomes = verify(_store(store_dir, cfg), cfg, case_id)
    for o in outcomes:
        click.echo(o.line())
    failed = sum(not o.confirmed for o in outcomes)
    click.echo(f"{len(outcomes)} claims: {len(outcomes) - failed} confirmed, {failed} failed")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@main.group()
def store() -> None:
    """Look after the store (objects, action cache, tables, mirrors)."""


@store.command("verify")
@store_option
def store_verify(store_dir: str | None) -> None:
    """Rehash every object, check every action-cache entry (its output there, intact and
    sealed to its key), every stored results file and score set (named by its hash) and
    every validity revision; exit 1 on any mismatch.

    `run` checks what it reads the same way, and computes a damaged object or entry again
    (counted in its summary); this finds the ones no run has read since. A damaged validity
    revision is a person's decision: restore it from a backup.
    """
    s = _store(store_dir)
    if not s.root.is_dir():
        raise DeterminacyError(f"no store at {s.root}")
    from determinacy.score import stored, validity

    problems = [*s.verify(), *stored.damaged(s), *validity.damaged(s)]
    for line in problems:
        click.echo(line)
    if swept := s.sweep():
        click.echo(f"removed {swept} temporary files that killed runs left (.tmp-*)", err=True)
    objects = sum(1 for _ in (s.root / "objects").glob("*/*"))
    actions = sum(1 for _ in (s.root / "ac").glob("*/*.json"))
    click.echo(f"{objects} objects, {actions} action entries: "
               + (f"{len(problems)} problems" if problems else "all match"), err=True)
    sys.exit(1 if problems else 0)


@main.command("score")
@click.argument("config", type=click.Path(dir_okay=False))
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print every number (scores.json) on stdout instead of SCORES.md's path.")
@click.option("--validity-revision", "revision", type=click.IntRange(min=0),
              help="Score at validity revision N (default: the newest; 0: derived from the "
              "verdicts alone). The same N gives the same scores, byte for byte.")
@click.option("--errors", "errors_policy", type=click.Choice(["exclude", "fail"]),
              default="exclude", show_default=True,
              help="Infrastructure errors: left out of the score and counted apart, or "
              "counted as failures.")
@click.option("--missing", "missing_policy", type=click.Choice(["exclude", "fail"]),
              default="exclude", show_default=True,
              help="Tasks the results do not name: left out and counted apart, or failures.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the 1,000 random removals the rank stability is compared with.")
@store_option
@runs_option
def score_cmd(config: str, results: tuple[str, ...], as_json: bool, revision: int | None,
              errors_policy: Any, missing_policy: Any, seed: int, store_dir: str | None,
              runs_dir: str) -> None:
    """Score models' per-instance RESULTS against the stored audit of CONFIG (method §9):
    the all-attempted score, the score on the determinate subset (disputed tasks left out),
    the sensitivity interval and the wider hypothesis band, pairs compared on their common
    tasks (exact McNemar), rank stability and the resolve rate by verdict. Writes
    RUNS/<name>/SCORES.md, scores.json and scores.png, and stores the results and the
    scores (the `scores` view of `determinacy sql`).

    Each of RESULTS is a SWE-bench harness report (resolved_ids, ...), an experiments
    results.json (resolved, no_generation, no_logs), a folder of per-instance report.json, or
    a jsonl of {instance_id, model, result}; the format is detected and named.

    \b
    Example:
      determinacy score examples/demo.toml examples/demo/results/*
    """
    from determinacy.score import score
    from determinacy.score.render import scores_json

    cfg = _load(config)
    scores, path, files = score(_store(store_dir, cfg), cfg, results, Path(runs_dir),
                                revision, errors_policy, missing_policy, seed)
    for f in files:
        click.echo(f"read {f.path}: {f.format}, {len(f.rows)} rows, models "
                   f"{', '.join(sorted({r.model for r in f.rows}))}", err=True)
    click.echo(scores_json(scores) if as_json else path, nl=not as_json)


class _ConfigFirst(click.Group):
    """`validity [CONFIG] COMMAND ...`: without CONFIG, the usual default (see find_config)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in self.commands:
            args = ["", *args]
        return super().parse_args(ctx, args)


@main.group(cls=_ConfigFirst)
@click.argument("config", required=False, default="", metavar="[CONFIG]")
@click.pass_context
def validity(ctx: click.Context, config: str) -> None:
    """Task validity, versioned (valid / disputed / broken): each `set` appends a revision,
    never overwriting one. Revision 0 is derived from the verdicts (every claimable case
    disputed); `determinacy score --validity-revision N` scores at revision N.

    \b
    Example:
      determinacy validity examples/demo.toml set acme__widgets-1 valid --reason "..."
      determinacy validity examples/demo.toml list
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

    cfg = _load(config)
    rev, before = set_validity(_store(store_dir, cfg), cfg.name, instance_id, state, reason,
                               author)
    click.echo(f"revision {rev.revision}: {rev.instance_id} is {rev.validity} (was {before}; "
               f"verdict {rev.verdict})")


@validity.command("list")
@store_option
@click.pass_obj
def validity_list(config: str | None, store_dir: str | None) -> None:
    """Every revision, revision 0 (derived from the verdicts) first."""
    from determinacy.reports.markdown import md_table
    from determinacy.score.validity import listing

    cfg = _load(config)
    click.echo(md_table(*listing(_store(store_dir, cfg), cfg.name)), nl=False)


@main.command()
@click.option("--check", is_flag=True, help="Exit 1 if schemas/ differs from the structs.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder to write (default: schemas/ of the checkout it runs from).")
def schemas(check: bool, out: str | None) -> None:
    """Write the JSON Schema of every stored record to schemas/ (or check it is current).
    An installed tool checks its own packaged copy; to write, give --out."""
    from determinacy.schemas import schema_files

    here = Path(__file__).resolve().parent
    checkout = here.parent / "schemas" if (here.parent / "pyproject.toml").is_file() else None
    if out:
        folder = Path(out)
    elif checkout is not None:
        folder = checkout
    elif check:
        folder = here / "_data" / "schemas"
    else:
        raise DeterminacyError("not run from a checkout of determinacy: give --out DIR to say "
                               "where the schemas go")
    stale = []
    for name, text in schema_files().items():
        path = folder / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        click.echo(f"schemas out of date: {', '.join(stale)}; run `determinacy schemas`", err=True)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name=os.path.basename(sys.argv[0]))
