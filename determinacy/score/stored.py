"""Where scores live in the store, append-only:

    scores/<benchmark>/results/<hash>.json     a ResultFile (a results file as read)
    scores/<benchmark>/validity/<N>.json       ValidityRevision N (1, 2, ...)
    scores/<benchmark>/scores/<hash>.json      a ScoreSet (every number of one `score`)

`<hash>` is the blake3 of the record's canonical JSON, so the same record always has the same
name. Every file is created once (a temporary file hard-linked to its name, which fails when
the name exists) and never rewritten.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

import msgspec

from determinacy.errors import DeterminacyError
from determinacy.records import ModelScore, Record, ScoreSet
from determinacy.store import Store, create_once, digest


def folder(store: Store, benchmark: str) -> Path:
    return store.root / "scores" / benchmark


def encode(record: Record) -> bytes:
    return msgspec.json.encode(record, order="sorted")


def put(store: Store, benchmark: str, kind: str, record: Record) -> str:
    """Store `record` under scores/<benchmark>/<kind>/<its hash>.json; return the hash."""
    data = encode(record)
    h = digest(data)
    create_once(folder(store, benchmark) / kind / f"{h}.json", data)
    return h


def score_sets(store: Store, benchmark: str) -> list[tuple[str, ScoreSet]]:
    """Every stored ScoreSet with its hash, by hash."""
    out = []
    for p in sorted((folder(store, benchmark) / "scores").glob("*.json")):
        try:
            out.append((p.stem, msgspec.json.decode(p.read_bytes(), type=ScoreSet)))
        except msgspec.DecodeError as e:  # ValidationError too: written by another version
            raise DeterminacyError(f"{p}: not a score set this version reads ({e})") from None
    return out


class ScoreRow(msgspec.Struct, frozen=True, kw_only=True):
    """A row of the `scores` view: one model of one stored ScoreSet, with what it used."""

    score_id: str  # the blake3 naming the stored ScoreSet
    validity_revision: int
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


def register(con: Any, store: Store, benchmark: str, filled: bool = True) -> None:
    """Create t_scores in `con`: every stored score row (empty when nothing was scored, or
    not `filled`)."""
    columns = struct_columns(ScoreRow, ModelScore)
    rows = []
    for h, s in score_sets(store, benchmark) if filled else ():
        head = ScoreRow(score_id=h, validity_revision=s.validity_revision,
                        errors_policy=s.errors_policy, missing_policy=s.missing_policy,
                        source_digest=s.source_digest, tool_version=s.tool_version,
                        passes=s.passes, results=[r.source_digest for r in s.results])
        for m in s.models:
            row = {**msgspec.to_builtins(head), **msgspec.to_builtins(m)}
            rows.append(tuple(row[c] for c in columns))
    create_table(con, "t_scores", columns, rows)
