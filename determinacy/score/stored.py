"""Where scores live in the store, append-only:

    scores/<benchmark>/results/<hash>.json     a ResultFile (a results file as read)
    scores/<benchmark>/validity/<N>.json       ValidityRevision N (1, 2, ...)
    scores/<benchmark>/scores/<hash>.json      a ScoreSet (every number of one `score`)

`<hash>` is the blake3 of the record's canonical JSON, so the same record always has the same
name. Every file is created once (a temporary file hard-linked to its name, which fails when
the name exists) and never rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from determinacy.errors import DeterminacyError
from determinacy.records import Record, ScoreSet
from determinacy.reports.query import SCORE_COLUMNS, ScoreRow, create_table
from determinacy.score.policy import describe
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


def benchmarks(store: Store) -> list[str]:
    """The benchmarks the store holds scores or validity revisions of."""
    return sorted(p.name for p in (store.root / "scores").glob("*") if p.is_dir())


def damaged(store: Store) -> Iterator[str]:
    """Every stored results file and score set whose bytes do not hash to its name (for
    `store verify`)."""
    for bench in benchmarks(store):
        for kind in ("results", "scores"):
            for p in sorted((folder(store, bench) / kind).glob("*.json")):
                if digest(p.read_bytes()) != p.stem:
                    yield f"{kind[:-1] if kind == 'results' else 'score set'} " \
                          f"{p.relative_to(store.root)}: its bytes hash to another name"


def score_sets(store: Store, benchmark: str) -> list[tuple[str, ScoreSet]]:
    """Every stored ScoreSet with its hash, by hash."""
    out = []
    for p in sorted((folder(store, benchmark) / "scores").glob("*.json")):
        data = p.read_bytes()
        if digest(data) != p.stem:
            raise DeterminacyError(f"{p}: a damaged score set (its bytes hash to another "
                                   "name); delete it and run `determinacy score` again")
        try:
            out.append((p.stem, msgspec.json.decode(data, type=ScoreSet)))
        except msgspec.DecodeError as e:  # ValidationError too: written by another version
            raise DeterminacyError(f"{p}: not a score set this version reads ({e})") from None
    return out


def register(con: Any, store: Store, benchmark: str) -> None:
    """Fill t_scores in `con` (a `connect`ion, where it is empty) with every stored score
    row."""
    rows = []
    for h, s in score_sets(store, benchmark):
        head = ScoreRow(score_id=h, validity_revision=s.validity_revision,
                        policy=(s.policy or describe(s.errors_policy,
                                                     s.missing_policy)).convention,
                        errors_policy=s.errors_policy, missing_policy=s.missing_policy,
                        source_digest=s.source_digest, tool_version=s.tool_version,
                        passes=s.passes, results=[r.source_digest for r in s.results])
        for m in s.models:
            row = {**msgspec.to_builtins(head), **msgspec.to_builtins(m)}
            rows.append(tuple(row[c] for c in SCORE_COLUMNS))
    create_table(con, "t_scores", SCORE_COLUMNS, rows)
