"""The store's tables in DuckDB, with the views of `queries/views.sql` (where every verdict is
decided), and the named queries of `queries/` run over them. No agent, no git.
"""

from __future__ import annotations

import contextlib
import json
import types
import typing
from pathlib import Path
from typing import Any

import msgspec

from determinacy.errors import DeterminacyError, StoreError
from determinacy.records import ModelScore
from determinacy.reports.tables import TABLES, table_digests
from determinacy.store import Store, seal, write_if_changed


def queries_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_data" / "queries", package.parent / "queries"):
        if (candidate / "views.sql").is_file():
            return candidate
    raise DeterminacyError("cannot find the queries/ folder of determinacy")


def query_text(name: str) -> str:
    return (queries_dir() / f"{name}.sql").read_text(encoding="utf-8")


def connect(store: Store, benchmark: str) -> Any:
    """An in-memory DuckDB with the benchmark's tables and the views of queries/views.sql.
    The `scores` view is empty until `score.stored.register` fills it (the stored score sets
    grow with every `determinacy score`, and only a query of them needs them read)."""
    import duckdb

    folder = store.tables(benchmark)
    missing = [t for t in TABLES if not (folder / f"{t}.parquet").is_file()]
    if missing:
        raise DeterminacyError(
            f"no tables for benchmark {benchmark!r} in {folder} (missing {', '.join(missing)}); "
            f"run `determinacy run` first (with the config of {benchmark!r})")
    if table_digests(folder) is None:
        raise StoreError(f"the tables in {folder} are not the ones the last run wrote (a file "
                         "damaged or edited, or written by an older version); run `determinacy "
                         "run CONFIG` again to rebuild them from the store")
    con = duckdb.connect()
    for t in TABLES:
        path = str(folder / f"{t}.parquet").replace("'", "''")
        con.execute(f"CREATE TABLE t_{t} AS SELECT * FROM read_parquet('{path}')")
    # The stored scores (`determinacy score`) are read only for a query of them
    # (`score.stored.register`): they grow with every score.
    create_table(con, "t_scores", SCORE_COLUMNS, [])
    con.execute(query_text("views"))
    # The tables are in memory now: no query (`sql` runs the user's) reaches a file, so none
    # writes over the store (`COPY ... TO`), attaches or installs anything, or lifts this.
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    return con


def _tables_stamp(store: Store, benchmark: str) -> dict[str, str]:
    """The tables' digests, checked ({} when they do not hold): what a count derived from
    them is valid for."""
    return table_digests(store.tables(benchmark)) or {}


def _sealed(stamp: dict[str, str], counts: dict[str, int]) -> str:
    return seal(json.dumps([stamp, counts], sort_keys=True))


def verdict_counts(store: Store, benchmark: str, con: Any = None) -> dict[str, int]:
    """Cases per verdict. Rendering saves them beside the tables, stamped with the tables'
    sizes and times; a run that changed nothing reads them back instead of loading every
    table into DuckDB (most of a no-op run's fixed cost on a large benchmark)."""
    saved = store.tables(benchmark) / "verdict_counts.json"
    stamp = _tables_stamp(store, benchmark)
    if con is None:
        with contextlib.suppress(OSError, ValueError, KeyError):
            data = json.loads(saved.read_text(encoding="utf-8"))
            counts = {str(k): int(v) for k, v in data["counts"].items()}
            if stamp and data["tables"] == stamp and data["seal"] == _sealed(stamp, counts):
                return counts
        con = connect(store, benchmark)
    got = con.sql("SELECT verdict, count(*) FROM verdicts GROUP BY 1 ORDER BY 1").fetchall()
    counts = {v: n for v, n in got}
    if stamp:
        # Only a shortcut for the next run: a store `report` may only read (read-only,
        # another user's) still renders.
        with contextlib.suppress(StoreError):
            write_if_changed(saved, json.dumps({"tables": stamp, "counts": counts,
                                                "seal": _sealed(stamp, counts)},
                                               sort_keys=True).encode("utf-8"))
    return counts


def error_causes(store: Store, benchmark: str, con: Any = None) -> list[tuple[str, str, int]]:
    """(cause, detail, cases) of queries/report_error_causes.sql: saved beside the tables by
    rendering, as `verdict_counts` is, so a run that changed nothing prints its errors by
    cause without loading DuckDB."""
    saved = store.tables(benchmark) / "error_causes.json"
    stamp = _tables_stamp(store, benchmark)
    if con is None:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            data = json.loads(saved.read_text(encoding="utf-8"))
            got = [(str(c), str(d), int(n)) for c, d, n in data["causes"]]
            if stamp and data["tables"] == stamp and \
                    data["seal"] == seal(json.dumps([stamp, got], sort_keys=True)):
                return got
        con = connect(store, benchmark)
    got = [(str(c), str(d), int(n)) for c, d, n in rows(con, query_text("report_error_causes"))[1]]
    if stamp:
        with contextlib.suppress(StoreError):
            write_if_changed(saved, json.dumps(
                {"tables": stamp, "causes": got,
                 "seal": seal(json.dumps([stamp, got], sort_keys=True))},
                sort_keys=True).encode("utf-8"))
    return got


def rows(con: Any, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    rel = con.sql(sql)
    if rel is None:
        return [], []
    return list(rel.columns), rel.fetchall()


def dicts(con: Any, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """A query's rows as {column: value}, with `$name` parameters bound."""
    cur = con.execute(sql, params or {})
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


class Named:
    """The named queries of one render (queries/<name>.sql), each run once: REPORT.md,
    report.json and the plot show the same rows."""

    def __init__(self, con: Any):
        self.con = con
        self._got: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}

    def rows(self, name: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        if name not in self._got:
            self._got[name] = rows(self.con, query_text(name))
        return self._got[name]

    def dicts(self, name: str) -> list[dict[str, Any]]:
        cols, data = self.rows(name)
        return [dict(zip(cols, r)) for r in data]


class ScoreRow(msgspec.Struct, frozen=True, kw_only=True):
    """A row of the `scores` view: one model of one stored ScoreSet, with what it used."""

    score_id: str  # the blake3 naming the stored ScoreSet
    validity_revision: int
    # The convention (swebench-leaderboard, attempted-only, mixed) and its two parts.
    policy: str
    errors_policy: str
    missing_policy: str
    source_digest: str
    tool_version: str
    passes: list[int]
    results: list[str]  # the blake3 of each results file (or folder) read


def duck_type(tp: Any) -> str:
    """The DuckDB type of a struct field's annotation."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return duck_type(next(a for a in typing.get_args(tp) if a is not type(None)))
    if origin is list:
        return duck_type(typing.get_args(tp)[0]) + "[]"
    if origin is typing.Literal:
        return "VARCHAR"
    return {str: "VARCHAR", int: "BIGINT", float: "DOUBLE", bool: "BOOLEAN"}[tp]


def struct_columns(*structs: type[msgspec.Struct]) -> dict[str, str]:
    out: dict[str, str] = {}
    for struct in structs:
        hints = typing.get_type_hints(struct)
        out.update((f, duck_type(hints[f])) for f in struct.__struct_fields__)
    return out


def create_table(con: Any, name: str, columns: dict[str, str], rows: list[tuple[Any, ...]],
                 temp: bool = False) -> None:
    """A DuckDB table of `rows` (tuples in the order of `columns`: name -> type), inserted
    column by column in one statement (no pyarrow: `sql` and `report` stay quick to start)."""
    names = list(columns)
    ddl = ", ".join(f'"{c}" {t}' for c, t in columns.items())
    con.execute(f"CREATE OR REPLACE {'TEMP ' if temp else ''}TABLE {name} ({ddl})")
    if rows:
        select = ", ".join(f"unnest(${i + 1}::{columns[c]}[])" for i, c in enumerate(names))
        con.execute(f"INSERT INTO {name} SELECT {select}",
                    [[r[i] for r in rows] for i in range(len(names))])


SCORE_COLUMNS = struct_columns(ScoreRow, ModelScore)
