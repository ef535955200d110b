"""`determinacy store ...`: looking after the store."""

from __future__ import annotations

import json
import sys
import textwrap
from typing import Any

import click
import msgspec

from determinacy.cli.common import open_store, store_option
from determinacy.errors import DeterminacyError
from determinacy.store import Reach, Size, Store


@click.group()
def store() -> None:
    """Look after the store (objects, action cache, tables, mirrors): check it (`verify`),
    measure it (`du`), drop what no benchmark reaches (`gc`), join shards' stores
    (`merge`)."""


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
    s = open_store(store_dir)
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


_KEPT = ("Kept: what each benchmark's tables, refs and scores reach (its agent passes too), "
         "the source read its last run would read again, the search cache and library "
         "listings; validity revisions, results files and score sets (never collected); "
         "mirrors (repos/), package caches (packages/) and doit's db; any file of a kind the "
         "store does not know.")


def _opened(store_dir: str | None) -> Store:
    s = open_store(store_dir)
    if not s.root.is_dir():
        raise DeterminacyError(f"no store at {s.root}")
    return s


def _current_reads(s: Store) -> dict[str, str] | None:
    """The source read (a sources/ name) each benchmark's last run used, from the RunInfo
    its manifest holds; None (keep every one) when a benchmark's cannot be told."""
    from determinacy.graph import source_memo
    from determinacy.records import RunInfo

    out = {}
    names = {p.name for top in ("tables", "refs") for p in (s.root / top).glob("*")
             if p.is_dir()}
    for name in sorted(names):
        try:
            manifest = msgspec.json.decode((s.root / "refs" / name / "source.json").read_bytes())
            run = msgspec.convert(manifest["run"], RunInfo)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError):
            return None  # an interrupted first run, another version's manifest
        out[name] = source_memo(s, run.config_digest, run.selection, run.source_revision,
                                run.source_digest).name
    return out


def _reach(s: Store, strict: bool) -> Reach:
    from determinacy.codebase.search import VERSION

    return s.reach(_current_reads(s), VERSION, strict=strict)


def _human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    raise AssertionError


def _table(rows: dict[str, Size], total: str = "total") -> list[str]:
    lines = [f"  {'kind':<20} {'files':>9} {'size':>11}"]
    every = Size()
    for kind, size in rows.items():
        lines.append(f"  {kind:<20} {size.files:>9,} {_human(size.disk):>11}")
        every = every.plus(size)
    lines.append(f"  {total:<20} {every.files:>9,} {_human(every.disk):>11}")
    return lines


def _sizes(rows: dict[str, Size]) -> dict[str, Any]:
    return {k: msgspec.to_builtins(v) for k, v in rows.items()}


@store.command("merge")
@click.argument("sources", nargs=-1, required=True, metavar="SRC...",
                type=click.Path(exists=True, file_okay=False))
@click.option("--into", "into", required=True, type=click.Path(file_okay=False),
              metavar="DST", help="The store to merge into (made when missing; may be one of "
              "SRC).")
def store_merge(sources: tuple[str, ...], into: str) -> None:
    """Join stores (`run --shard I/N`'s, each machine's) into DST: the union of their
    objects, action entries, refs of every phase and agent pass, search cache, libraries,
    packages, source reads and scores. Everything there is named by what it holds, so two
    stores agree wherever both have a file; a file of one name with other bytes in two
    stores is an error naming both, and nothing is copied. Then each benchmark's tables are
    written again from DST's refs, with no mirror and no phase run: the shards of one audit
    (0 to N-1 of one N) give the tables of one run of them all. `determinacy report CONFIG
    --store DST` renders its reports, the same bytes as one unsharded run's.

    \b
    Example:
      determinacy run bench.toml --shard 0/2 --store s0
      determinacy run bench.toml --shard 1/2 --store s1
      determinacy store merge s0 s1 --into merged
      determinacy report bench.toml --store merged
    """
    import time

    from determinacy.graph import merge_tables

    started = time.perf_counter()
    dst = Store(into)
    dst.root.mkdir(parents=True, exist_ok=True)
    dst.share()  # no `store gc` while merging
    try:
        copied = dst.merge([Store(src) for src in sources if Store(src).root != dst.root])
        names = sorted(p.parent.name for p in (dst.root / "refs").glob("*/tables")
                       if p.is_dir())
        tasks = {name: merge_tables(dst, name) for name in names}
    finally:
        dst.unshare()
    click.echo(f"merged {len(sources)} stores into {dst.root} in "
               f"{time.perf_counter() - started:.1f} s: "
               + (", ".join(f"{n} {top}" for top, n in sorted(copied.items())) or "nothing new")
               + " copied; tables written: "
               + (", ".join(f"{k} ({n} tasks)" for k, n in tasks.items()) or "none"))


@store.command("gc")
@store_option
@click.option("--dry-run", is_flag=True, help="Print what would be dropped; drop nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the sizes as JSON on stdout.")
def store_gc(store_dir: str | None, dry_run: bool, as_json: bool) -> None:
    """Drop what no benchmark reaches: objects nothing kept names, action entries whose
    output no benchmark reaches (an older config's, an older version's), source reads that
    no benchmark's last run would read again (another config's, another tool version's),
    older versions of the search cache, the lock files of dropped entries, and temporary
    files killed runs left. Prints the count and size of each kind (sizes on disk).

    Kept: what each benchmark's tables, refs and scores reach (every agent pass too), so
    `run` on the same config after gc computes nothing; validity revisions, results files
    and score sets (a person's decisions: never collected); mirrors, package caches and the
    doit db; any file of a kind the store does not know, with what it names.

    Refuses while a run (or `doit`) uses the store, and when an object it must read is
    damaged (`store verify`, then a run, repairs it).
    """
    s = _opened(store_dir)
    with s.alone():
        reach = _reach(s, strict=True)
        dropped = s.collect(reach, dry_run=dry_run)
        swept = 0 if dry_run else s.sweep()
    if as_json:
        click.echo(json.dumps({"dry_run": dry_run, "dropped": _sizes(dropped),
                               "benchmarks": sorted(reach.benchmarks)}, sort_keys=True))
        return
    count = sum(v.files for v in dropped.values())
    head = "would drop" if dry_run else "dropped"
    click.echo(f"{head} {count:,} files, {_human(sum(v.disk for v in dropped.values()))} "
               f"(benchmarks: {', '.join(sorted(reach.benchmarks)) or 'none'}):")
    click.echo("\n".join(_table(dropped)))
    click.echo(textwrap.fill(_KEPT, 79))
    if swept:
        click.echo(f"removed {swept} temporary files that killed runs left (.tmp-*)")
    if dry_run:
        click.echo("Nothing was dropped (--dry-run).")


@store.command("du")
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print the sizes as JSON on stdout.")
def store_du(store_dir: str | None, as_json: bool) -> None:
    """Size of the store by kind (objects, action cache, tables, mirrors, packages, doit
    db, ...) and by benchmark: the objects and action entries its tables, refs and scores
    reach, and its own files. An object two benchmarks reach is in both rows and once in
    the total. Sizes on disk (as `du` counts), each file once.
    """
    s = _opened(store_dir)
    kinds = dict(sorted(s.usage().items(), key=lambda kv: -kv[1].disk))
    reach = _reach(s, strict=False)
    by = reach.footprint()
    unreached = s.collect(reach, dry_run=True)
    if as_json:
        click.echo(json.dumps({
            "store": str(s.root), "kinds": _sizes(kinds),
            "total": msgspec.to_builtins(_sum(kinds.values())),
            "benchmarks": {b: _sizes(r) for b, r in by.items() if b},
            "benchmarks_total": _sizes(by[""]),
            "cache_objects": msgspec.to_builtins(_cached_only(reach)),
            "unreached": _sizes(unreached), "damaged": reach.damaged}, sort_keys=True))
        return
    click.echo(f"store {s.root} (sizes on disk)")
    click.echo("\n".join(_table(kinds)))
    click.echo("")
    click.echo(f"  {'benchmark':<20} {'objects':>9} {'shared':>9} {'entries':>9} "
               f"{'own files':>11} {'size':>11}")
    for b, r in by.items():
        name = b or "total"
        click.echo(f"  {name[:20]:<20} {r['objects'].files:>9,} {r['shared'].files:>9,} "
                   f"{r['action entries'].files:>9,} {_human(r['files'].disk):>11} "
                   f"{_human(r['total'].disk):>11}")
    click.echo(textwrap.fill(
        "objects: what the benchmark's tables, refs and scores reach; shared: those of them "
        "another benchmark reaches too (counted once in the total); own files: its tables, "
        "refs, scores, doit db and source read.", 79))
    gone = _sum(unreached.values())
    click.echo(f"reached by no benchmark nor cache (`store gc` drops): {gone.files:,} files, "
               f"{_human(gone.disk)}")
    if reach.damaged:
        click.echo(f"{len(reach.damaged)} damaged objects (`store verify`)", err=True)


def _sum(sizes: Any) -> Size:
    every = Size()
    for v in sizes:
        every = every.plus(v)
    return every


def _cached_only(reach: Reach) -> Size:
    """The objects only the caches (search, library listings) reach."""
    ours = set().union(*(o for o, _ in reach.benchmarks.values()))
    out = Size()
    for h in sorted(reach.shared[0] - ours):
        out.add(reach.present[h])
    return out
