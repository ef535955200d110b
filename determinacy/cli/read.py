"""Reading a stored audit: `report`, `show`, `hints`, `diff`, `export`, `sql`, `verify`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from determinacy.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    dataset_option,
    emit,
    format_option,
    load,
    open_store,
    out_option,
    reading_config,
    runs_option,
    shipped_example,
    split_option,
    store_option,
    stored_benchmark,
)


@click.command()
@click.argument("config", required=False)
@dataset_option
@split_option
@store_option
@runs_option
def report(config: str | None, dataset: str | None, split: str | None, store_dir: str | None,
           runs_dir: str) -> None:
    """Regenerate RUNS/<name>/ from the store's tables only: no agent, no git, byte for byte."""
    from determinacy.reports.render import render
    from determinacy.score.render import OUTPUTS

    cfg = reading_config(config, store_dir, dataset, split)
    click.echo(render(open_store(store_dir, cfg), cfg, Path(runs_dir), OUTPUTS) / "REPORT.md")


@click.command()
@click.argument("config_case", nargs=-1, required=True, metavar="[CONFIG] CASE")
@store_option
@runs_option
def show(config_case: tuple[str, ...], store_dir: str | None, runs_dir: str) -> None:
    """Print one case of the stored audit of CONFIG: its receipt (verdict, evidence, the
    command that re-runs it) and where its materials are. CASE is a case or instance id, or a
    unique prefix, ending or part of one. CONFIG is a file or a shipped example's name;
    without it, $DETERMINACY_CONFIG, else ./determinacy.toml, else the one benchmark the
    store holds.

    \b
    Example:
      determinacy show my-benchmark.toml vuls-1832b4
      determinacy show widgets-17        # the only benchmark in store/
    """
    from determinacy.reports.query import connect
    from determinacy.reports.render import find_case, receipt

    if len(config_case) > 2:
        raise click.UsageError("give [CONFIG] CASE")
    *config, case = config_case
    store, name = stored_benchmark(config[0] if config else None, store_dir)
    con = connect(store, name)
    case_id = find_case(con, case)
    click.echo(receipt(con, case_id), nl=False)
    folder = Path(runs_dir) / name / "cases" / case_id
    click.echo(f"\nMaterials: {folder}/ (RECEIPT.md, spec.md, gold.diff, hidden_test.diff)")


@click.command()
@click.argument("config", required=False)
@store_option
@runs_option
def hints(config: str | None, store_dir: str | None, runs_dir: str) -> None:
    """Write RUNS/<name>/hints/<id>.json and .md: the declaration hint of each case (method
    §7), from the store only. Every run and `report` writes them too."""
    from determinacy.reports.render import render
    from determinacy.score.render import OUTPUTS

    cfg = reading_config(config, store_dir)
    out = render(open_store(store_dir, cfg), cfg, Path(runs_dir), OUTPUTS) / "hints"
    click.echo(out if out.is_dir() else f"no case has a hinted identifier ({out} not written)")



@click.command()
@click.argument("config_a")
@click.argument("config_b")
@store_option
@click.option("--other-store", type=click.Path(file_okay=False),
              help="The store of CONFIG_B (default: the same store), e.g. another tool version.")
def diff(config_a: str, config_b: str, store_dir: str | None, other_store: str | None) -> None:
    """Compare two stored audits (strict and lenient, two tool versions, two agents): the
    cases whose verdict differs, the cases only one audited, the claims gained and lost.

    \b
    Example:
      determinacy diff demo demo-lenient.toml
    """
    from determinacy.reports.query import connect
    from determinacy.reports.render import compare

    a, b = load(config_a), load(config_b)
    con_a = connect(open_store(store_dir, a), a.name)
    con_b = connect(open_store(other_store or store_dir, b), b.name)
    click.echo(compare(con_a, con_b, f"{config_a} ({a.name})", f"{config_b} ({b.name})"),
               nl=False)


EXPORTS = {"claims": "SELECT * FROM claims ORDER BY case_id, verdict, constant, evidence",
           "verdicts": "SELECT * FROM verdicts ORDER BY case_id",
           "candidates": "SELECT * FROM settled ORDER BY case_id, constant"}


@click.command()
@click.argument("config", required=False)
@click.option("--what", type=click.Choice(sorted(EXPORTS)), default="claims", show_default=True,
              help="claims: every claim with its evidence; verdicts: one row per case; "
              "candidates: every shared constant and how it was settled.")
@format_option("jsonl")
@out_option
@dataset_option
@split_option
@store_option
def export(config: str | None, what: str, fmt: str, out: str | None, dataset: str | None,
           split: str | None, store_dir: str | None) -> None:
    """Write the stored audit's claims, verdicts or candidates for other tools, sorted, in
    jsonl, json, csv, markdown or parquet (the formats of `sql`), without writing SQL. NULL
    means "not applicable" (README: Reading the results with SQL).

    \b
    Example:
      determinacy export my-benchmark.toml --what claims --format csv --out claims.csv
    """

    from determinacy.reports.query import connect

    cfg = reading_config(config, store_dir, dataset, split)
    emit(connect(open_store(store_dir, cfg), cfg.name), EXPORTS[what], fmt, out)



@click.command()
@click.argument("config", required=False)
@click.argument("query", required=False)
@click.option("-f", "--file", "query_file", type=click.File("r", encoding="utf-8"),
              help="Read the query from this file (or - for stdin).")
@store_option
@format_option("markdown")
@out_option
def sql(config: str | None, query: str | None, query_file: Any, store_dir: str | None,
        fmt: str, out: str | None) -> None:
    """Run QUERY (DuckDB SQL) over the audit's views: tasks, candidates, settled,
    settle_steps, witnesses, verdicts, claims, errors, run, tiers, trees, commits (a history
    source's walk), validity_checks (the pre-screens of task validity: leaked, test-ids,
    gold-run, underivable, self-capturing, duplicate), behaviors, agent_witnesses,
    agent_calls, passes, scores (`determinacy score`).
    Without QUERY, list the views and their columns. CONFIG is a file or a shipped example's
    name; without it, $DETERMINACY_CONFIG, else ./determinacy.toml, else the one benchmark
    the store holds (`determinacy sql "select ..."`).

    NULL means "not applicable" in every column (no error, not in the prose, no refuter, a row
    that did not load): test `IS NULL`, never `= ''` (only a `constant` is ever '': the empty
    string literal itself). Rates are fractions (0..1), intervals [low, high] lists. A
    candidate's settle step (`settled.code`, `settle_steps.code`) is one of nothing_graded,
    not_graded, cannot_certify, does_not_cross, in_prose, in_codebase, in_history, in_stdlib,
    in_dependency, convention, not_searched, certified, gold_test_data (README: Settle
    steps)."""

    from determinacy.reports.query import connect
    from determinacy.score.stored import register

    if (query is None and config and not config.endswith(".toml") and not Path(config).exists()
            and not shipped_example(config)):
        config, query = None, config  # `determinacy sql "select ..."`: no CONFIG
    if query_file is not None:
        if query:
            raise click.UsageError("give QUERY or --file, not both")
        query = query_file.read()
    store, name = stored_benchmark(config, store_dir)
    con = connect(store, name)
    register(con, store, name)
    if not query:
        query = ("SELECT table_name AS view, string_agg(column_name, ', ' ORDER BY "
                 "ordinal_position) AS columns FROM information_schema.columns WHERE table_name "
                 "NOT LIKE 't\\_%' ESCAPE '\\' GROUP BY 1 ORDER BY 1")
    emit(con, query, fmt, out)


@click.command("verify")
@click.argument("config", required=False)
@click.option("--case", "case_id", help="Verify only the claims of this case.")
@dataset_option
@split_option
@store_option
def verify_claims(config: str | None, case_id: str | None, dataset: str | None,
                  split: str | None, store_dir: str | None) -> None:
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

    cfg = reading_config(config, store_dir, dataset, split)
    outcomes = verify(open_store(store_dir, cfg), cfg, case_id)
    for o in outcomes:
        click.echo(o.line())
    failed = sum(not o.confirmed for o in outcomes)
    click.echo(f"{len(outcomes)} claims: {len(outcomes) - failed} confirmed, {failed} failed")
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


