"""Which of a source's rows a run audits: `run --instance-ids`, `--repo`, `--filter`, `--limit`,
`--shard`.

Applied to the tasks as read, before the graph is built: a selected case has the same inputs,
and so the same store keys, as in a full run (a full run after a selected one serves it from
the cache). The tables and the report then hold the cases selected, as with `--limit`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from determinacy.errors import DeterminacyError
from determinacy.records import CaseError, Selection, Task
from determinacy.sources.rows import Loaded


class SelectionError(DeterminacyError):
    """A selection that names what is not in the source, or selects nothing."""


class FilterError(SelectionError):
    """A `--filter` expression DuckDB cannot read or evaluate."""


def make(ids: Iterable[str] = (), repos: Iterable[str] = (), where: str = "",
         limit: int | None = None, shard: str = "") -> Selection:
    """The selection, normalized: ids split on blanks (`"A B"` is two ids; `@file` reads a
    file of them), ids and repositories sorted without repeats."""
    got: list[str] = []
    for value in ids:
        if value.startswith("@"):
            got += ids_file(Path(value[1:]))
        else:
            got += value.split()
    if ids and not got:  # `--instance-ids ""` or an empty file: a selection of nothing
        raise SelectionError("--instance-ids: no id given (an empty value, or a file of none)")
    if shard:
        index, count = parse_shard(shard)
        shard = f"{index}/{count}"
    return Selection(instance_ids=sorted(set(got)), repos=sorted({r.strip() for r in repos}),
                     filter=where.strip(), limit=limit, shard=shard)


def ids_file(path: Path) -> list[str]:
    """Instance ids from a file: blank-separated, a `#` starts a comment to the end of line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SelectionError(f"--instance-ids @{path}: cannot read the file "
                             f"({getattr(e, 'strerror', None) or e})") from None
    return [w for line in text.splitlines() for w in line.split("#", 1)[0].split()]


def select(loaded: Loaded, sel: Selection, keep: list[str]) -> Loaded:
    """The rows `sel` takes, in source order. Raises SelectionError for an id or a repository
    no row has, a filter that fails, or a selection of nothing. `keep`: the config's
    `fields.keep` columns (a filter may name them)."""
    if not sel.chooses:
        return loaded  # `limit` alone was applied as the source was read
    tasks, errors = list(loaded.tasks), list(loaded.errors)
    if sel.instance_ids:
        wanted = set(sel.instance_ids)
        seen = {n for r in (*tasks, *errors) for n in (r.instance_id, r.case_id) if n in wanted}
        if missing := sorted(wanted - seen):
            raise SelectionError(
                f"--instance-ids: no row of the source has {_some(missing, 'id')}"
                f" ({len(missing)} of the {len(wanted)} ids given)")
        tasks = [t for t in tasks if {t.instance_id, t.case_id} & wanted]
        errors = [e for e in errors if {e.instance_id, e.case_id} & wanted]
    if sel.repos:
        present = {t.repo for t in loaded.tasks}
        if missing := [r for r in sel.repos if r not in present]:
            raise SelectionError(
                f"--repo: no task of the source is in {_some(missing, 'repository')}; its "
                f"repositories: {_some(sorted(present), 'repository', bare=True)}")
        tasks = [t for t in tasks if t.repo in sel.repos]
    if sel.repos or sel.filter:
        # A row that did not read has no repository or columns to match: it is left out.
        errors = []
    if sel.filter:
        taken = set(matching(sel.filter, tasks, keep))
        tasks = [t for t in tasks if t.case_id in taken]
    rows: list[Task | CaseError] = sorted([*tasks, *errors], key=lambda r: (r.row, r.case_id))
    if sel.limit is not None:
        rows = rows[:sel.limit]
    if sel.shard:
        index, count = parse_shard(sel.shard)
        where = shard_of(Counter(r.repo for r in rows if isinstance(r, Task)), count)
        # A row that did not read has no repository: shard 0 reports it, once. A shard may
        # hold nothing (more shards than repositories): it audits nothing, and says so.
        rows = [r for r in rows
                if (where[r.repo] == index if isinstance(r, Task) else index == 0)]
    elif not rows:
        raise SelectionError(f"the selection ({describe(sel)}) takes no row of the source")
    return Loaded(tasks=[r for r in rows if isinstance(r, Task)],
                  errors=[r for r in rows if isinstance(r, CaseError)],
                  revision=loaded.revision, source_digest=loaded.source_digest,
                  mined=loaded.mined)


_SHARD = re.compile(r"(\d+)/(\d+)")
# A shard may take this much more than its even share of the tasks before a repository goes
# to its next choice of shard (see shard_of).
SLACK = 1.25


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` -> (I, N): shard I (0 to N-1, as Slurm arrays and Kubernetes indexed jobs number
    them) of N."""
    m = _SHARD.fullmatch(text.strip())
    if not m or not 0 <= int(m[1]) < int(m[2]):
        raise SelectionError(f"--shard {text!r}: expected I/N with 0 <= I < N (e.g. 0/4)")
    return int(m[1]), int(m[2])


def _rank(repo: str, shard: int) -> bytes:
    return hashlib.blake2b(f"{repo}\0{shard}".encode(), digest_size=8).digest()


def shard_of(tasks: Counter[str], count: int) -> dict[str, int]:
    """Each repository's shard of `count`: whole repositories, so a machine keeps only its
    own mirrors. Rendezvous hashing with bounded load: every repository ranks the shards by a
    hash of (repository, shard), which no other repository changes, and takes its first
    choice that stays within SLACK times the even share of the tasks (the largest
    repositories choose first). A repository therefore keeps its shard when tasks are added
    to others, unless that shard fills up past the bound; a plain hash would keep every
    repository in place but leave the shards unbalanced by task count."""
    bound = max(max(tasks.values(), default=0), SLACK * sum(tasks.values()) / count)
    load = [0] * count
    out: dict[str, int] = {}
    for repo in sorted(tasks, key=lambda r: (-tasks[r], r)):
        prefs = sorted(range(count), key=lambda s: _rank(repo, s), reverse=True)
        pick = next((s for s in prefs if load[s] + tasks[repo] <= bound),
                    min(prefs, key=lambda s: (load[s], prefs.index(s))))
        out[repo] = pick
        load[pick] += tasks[repo]
    return out


def _some(names: list[str], what: str, bare: bool = False, shown: int = 5) -> str:
    head = ", ".join(repr(n) for n in names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    plural = "" if bare else f"{what} " if len(names) == 1 else f"{what}s "
    return f"{plural}{head}{more}" if names else "none"


def describe(sel: Selection) -> str:
    """One line for people: `3 instance ids, repo a/b, filter ..., limit 5`."""
    parts = []
    if sel.instance_ids:
        n = len(sel.instance_ids)
        parts.append(f"{n} instance id{'s' if n != 1 else ''}")
    if sel.repos:
        parts.append(f"repo{'s' if len(sel.repos) > 1 else ''} {', '.join(sel.repos)}")
    if sel.filter:
        parts.append(f"filter {sel.filter}")
    if sel.limit is not None:
        parts.append(f"limit {sel.limit}")
    if sel.shard:
        parts.append(f"shard {sel.shard}")
    return "; ".join(parts) or "every row"


# The columns a filter reads, beside the config's `fields.keep` ones (text, NULL when absent).
COLUMNS = ("case_id", "instance_id", "row", "repo", "base_commit", "prose", "gold_patch",
           "test_patch", "fail_to_pass", "pass_to_pass", "images", "kept", "commit",
           "found_by", "tests_derived")


def check_filter(where: str, keep: list[str]) -> None:
    """Raise FilterError unless `where` reads as a condition (a boolean) over the columns:
    before the source is read, so a typo costs nothing."""
    with _tasks_table([], keep) as (con, cols):
        kind = _run(con, f"DESCRIBE SELECT ({where}\n) AS keep FROM tasks", where, cols)[0][1]
    if kind != "BOOLEAN":
        raise FilterError(f"--filter {where!r}: a condition (true or false) is needed, this is "
                          f"of type {kind}")


def matching(where: str, tasks: list[Task], keep: list[str]) -> list[str]:
    """The case ids of `tasks` for which the DuckDB expression `where` is true."""
    with _tasks_table(tasks, keep) as (con, cols):
        got = _run(con, f"SELECT case_id FROM tasks WHERE ({where}\n)", where, cols)
    return [r[0] for r in got]


@contextlib.contextmanager
def _tasks_table(tasks: list[Task], keep: list[str]) -> Iterator[tuple[Any, list[str]]]:
    """An in-memory DuckDB with the table `tasks` (and its column names)."""
    import duckdb
    import pyarrow as pa

    from determinacy.reports.tables import arrow_schema

    schema = arrow_schema(Task)
    cols: dict[str, list[Any]] = {c: [getattr(t, c) for t in tasks] for c in COLUMNS}
    fields = [schema.field(c) for c in COLUMNS]
    for name in keep:
        if name in cols:
            continue  # a task column of that name wins: the kept one stays in `kept`
        cols[name] = [_kept_text(t.kept, name) for t in tasks]
        fields.append(pa.field(name, pa.string()))
    con = duckdb.connect(":memory:")
    try:
        # The expression is the user's, run on their machine, but it reads rows only: no file.
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
        con.register("tasks", pa.table(cols, schema=pa.schema(fields)))
        yield con, list(cols)
    finally:
        con.close()


def _run(con: Any, query: str, where: str, cols: list[str]) -> list[Any]:
    """The rows of `query`, which holds `where` once (the closing parenthesis on a line of its
    own: a trailing `--` comment cannot swallow it)."""
    import duckdb

    try:
        if len(con.extract_statements(query)) != 1:
            raise FilterError(f"--filter {where!r}: one expression, not statements")
        return con.execute(query).fetchall()
    except duckdb.Error as e:
        raise FilterError(f"--filter {where!r}: {_first_line(e)}; the columns: "
                          f"{', '.join(cols)}") from None


def _kept_text(kept: str, name: str) -> str | None:
    if not kept:
        return None
    value = json.loads(kept).get(name)
    return value if isinstance(value, str) or value is None else json.dumps(value)


def _first_line(e: Exception) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
