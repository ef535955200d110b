"""Consolidate per-case results into one parquet file per table per benchmark.

Columns come from the msgspec structs (one place says what a record is); rows are sorted so the
same results give the same bytes.
"""

from __future__ import annotations

import functools
import io
import types
import typing
from pathlib import Path
from typing import Any

import msgspec

from determinacy.causes import cause_of, detail_of
from determinacy.records import (
    AgentCall,
    AgentWitness,
    Behavior,
    CaseError,
    Check,
    MinedCommit,
    Precedent,
    RunInfo,
    Task,
    Unread,
    ValidityCheck,
)
from determinacy.store import digest, write_if_changed

TABLES = ("tasks", "candidates", "errors", "run", "behaviors", "agent_witnesses", "agent_calls",
          "trees", "commits", "validity_checks")
# Beside the tables: each one's blake3 as written. A parquet file with a flipped byte may still
# parse (and say something else): readers check these first.
DIGESTS = "digests.json"
# What the tables' bytes mean, kept in DIGESTS: tables of another format are rebuilt by the
# next run and read by nothing before (2: an empty text is NULL).
FORMAT = "2"


def table_digests(folder: Path) -> dict[str, str] | None:
    """Each table's digest when every table is as written, else None (a table missing or
    damaged, or no digests: tables written before they were kept). Hashed once per state of
    the files in a process: a run checks them before its tables task and again to count."""
    try:
        stamp = tuple((st.st_size, st.st_mtime_ns, st.st_ino) for st in (
            (folder / name).stat() for name in (DIGESTS, *(f"{t}.parquet" for t in TABLES))))
    except OSError:
        return None
    got = _checked(folder, stamp)
    return dict(got) if got is not None else None


@functools.lru_cache(maxsize=16)
def _checked(folder: Path, stamp: tuple[object, ...]) -> tuple[tuple[str, str], ...] | None:
    try:
        want = msgspec.json.decode((folder / DIGESTS).read_bytes())
        got = {t: digest((folder / f"{t}.parquet").read_bytes()) for t in TABLES}
    except (OSError, msgspec.DecodeError):
        return None
    return tuple(sorted(got.items())) if {**got, "format": FORMAT} == want else None


class TaskRow(msgspec.Struct, frozen=True, kw_only=True):
    """A row of `tasks`: every source row, loaded or not (load errors are in `errors`)."""

    case_id: str
    instance_id: str
    row: int
    loaded: bool
    repo: str = ""
    base_commit: str = ""
    prose: str = ""
    gold_patch: str = ""
    test_patch: str = ""
    fail_to_pass: list[str] = []
    pass_to_pass: list[str] = []
    images: list[str] = []
    kept: str = ""
    commit: str = ""
    found_by: list[str] = []
    tests_derived: bool = False


class TreeRow(msgspec.Struct, frozen=True, kw_only=True):
    """A row of `trees`: the tree each audited case was searched in, and what of it was not."""

    case_id: str
    commit: str  # the full sha base_commit resolved to
    blobs: int
    unread: list[Unread] = []
    scopes: list[ScopeRow] = []
    ignored: list[str] = []  # what of the mirror every read ignored (replace refs, grafts)


class ErrorRow(CaseError, kw_only=True):
    """A row of `errors`: a stored error with its cause (`determinacy.causes`): the stable
    code and what sets the case apart within it ("1 blob missing", "a submodule")."""

    cause: str = ""
    cause_detail: str = ""


def error_row_of(error: CaseError) -> ErrorRow:
    cause = cause_of(error.phase, error.message)
    return ErrorRow(**{f: getattr(error, f) for f in CaseError.__struct_fields__},
                    cause=cause.code, cause_detail=detail_of(cause, error.message))


class ScopeRow(msgspec.Struct, frozen=True, kw_only=True):
    """A scope beyond the tree a case's absence also held over (`read`: what; `searched`:
    false when there was nothing to read, such as no standard-library sources)."""

    scope: str
    read: str
    searched: bool


def _arrow_type(tp: Any) -> Any:
    import pyarrow as pa

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _arrow_type(args[0])
    if origin is list:
        return pa.list_(_arrow_type(typing.get_args(tp)[0]))
    if origin is dict:
        k, v = typing.get_args(tp)
        return pa.map_(_arrow_type(k), _arrow_type(v))
    if origin is typing.Literal:
        return pa.string()
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return pa.struct(list(arrow_schema(tp)))
    return {str: pa.string(), int: pa.int64(), bool: pa.bool_(), float: pa.float64()}[tp]


def arrow_schema(struct: type[msgspec.Struct]) -> Any:
    import pyarrow as pa

    hints = typing.get_type_hints(struct)
    return pa.schema([(f, _arrow_type(hints[f])) for f in struct.__struct_fields__])


# Texts that are data, where '' is a value: a constant is the literal itself ('' the empty
# string literal a patch adds), a precedent's value the one its line holds, a row's id the text
# it had (an empty id is a broken row's data, not a missing one).
KEEP_EMPTY: dict[type, frozenset[str]] = {Check: frozenset({"constant"}),
                                          Precedent: frozenset({"value"}),
                                          TaskRow: frozenset({"instance_id"})}
# Numbers a record uses for "not applicable" or "unknown", NULL in the tables: a merge's place
# among the tasks (it is none), an unverified precedent's line, a size the mirror does not know.
NULL_NUMBERS: dict[type, dict[str, int]] = {MinedCommit: {"row": 0}, Precedent: {"line": 0},
                                            Unread: {"size": -1}}


def nulled(value: Any, tp: Any) -> Any:
    """A field's builtins (`tp` its annotation) with every empty text None: in the tables
    (and every view and query over them) NULL says "not applicable" (no error, not in the
    prose, no refuter), and no text column holds '' but the data of KEEP_EMPTY. Texts inside
    a list of texts stay as they are."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
        origin = typing.get_origin(tp)
    if value == "":
        return None
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and isinstance(value, dict):
        return _nulled_fields(tp, value)
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(tp)
        return [nulled(v, item) for v in value] if item is not str else value
    if origin is dict and isinstance(value, dict):
        return {k: nulled(v, typing.get_args(tp)[1]) for k, v in value.items()}
    return value


@functools.cache
def _hints(struct: type[msgspec.Struct]) -> dict[str, Any]:
    return typing.get_type_hints(struct)


def _nulled_fields(struct: type[msgspec.Struct], value: dict[str, Any]) -> dict[str, Any]:
    hints, keep = _hints(struct), KEEP_EMPTY.get(struct, frozenset())
    numbers = NULL_NUMBERS.get(struct, {})
    return {k: v if k in keep else None if k in numbers and v == numbers[k]
            else nulled(v, hints[k]) for k, v in value.items()}


def to_parquet_bytes(struct: type[msgspec.Struct], rows: list[Any]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema(struct)
    values = [_nulled_fields(struct, {f: msgspec.to_builtins(getattr(r, f))
                                      for f in struct.__struct_fields__}) for r in rows]
    cols = {f: [v[f] for v in values] for f in struct.__struct_fields__}
    table = pa.table(cols, schema=schema)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


class Tables(msgspec.Struct, frozen=True, kw_only=True):
    """Every row of one run's tables (graph.collect_tables reads them from the store)."""

    tasks: list[TaskRow]
    checks: list[Check]
    errors: list[CaseError]
    run: RunInfo
    calls: list[AgentCall]
    behaviors: list[Behavior]
    witnesses: list[AgentWitness]
    trees: list[TreeRow]
    commits: list[MinedCommit] = []
    validity: list[ValidityCheck] = []


def write_tables(folder: Path, t: Tables) -> None:
    tasks = sorted(t.tasks, key=lambda t: (t.row, t.case_id))
    checks = sorted(t.checks, key=lambda c: (c.case_id, c.constant))
    errors = sorted(t.errors, key=lambda e: (e.row, e.case_id, e.phase, e.message))
    calls = sorted(t.calls, key=lambda c: (c.case_id, c.pass_no, c.phase, c.argv, c.prompt))
    behaviors = sorted(t.behaviors, key=lambda b: (b.case_id, b.pass_no, b.index))
    witnesses = sorted(t.witnesses, key=lambda w: (w.case_id, w.pass_no, w.index, w.refuter))
    trees = sorted(t.trees, key=lambda t: t.case_id)
    run = t.run
    validity = sorted(t.validity,
                      key=lambda v: (v.case_id, v.prescreen, v.literal, v.pointers))
    # A history source's walk, in walk order (merges, row 0, last); empty for other sources.
    mined = sorted(t.commits, key=lambda c: (c.row == 0, c.row, c.commit))
    digests: dict[str, str] = {}
    for name, struct, rows in (
        ("tasks", TaskRow, tasks), ("candidates", Check, checks),
        ("errors", ErrorRow, [error_row_of(e) for e in errors]), ("run", RunInfo, [run]),
        ("agent_calls", AgentCall, calls),
        ("behaviors", Behavior, behaviors), ("agent_witnesses", AgentWitness, witnesses),
        ("trees", TreeRow, trees), ("commits", MinedCommit, mined),
        ("validity_checks", ValidityCheck, validity),
    ):
        data = to_parquet_bytes(struct, rows)
        write_if_changed(folder / f"{name}.parquet", data)
        digests[name] = digest(data)
    write_if_changed(folder / DIGESTS, msgspec.json.encode({**digests, "format": FORMAT},
                                                           order="sorted"))


def task_row(task: Task) -> TaskRow:
    return TaskRow(loaded=True, **{f: getattr(task, f) for f in Task.__struct_fields__})


def error_row(error: CaseError) -> TaskRow:
    return TaskRow(case_id=error.case_id, instance_id=error.instance_id, row=error.row,
                   loaded=False)

