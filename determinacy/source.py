"""Sources of benchmark rows (jsonl, parquet, Hugging Face) and their normalization to Tasks.

A row that cannot become a Task is returned as a CaseError naming its row; the others go on.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from determinacy.config import Config
from determinacy.errors import ConfigError, RowError
from determinacy.records import CaseError, Task

_SAFE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+@,~-]{0,199}$")
_SHA = re.compile(r"^[0-9a-fA-F]{7,64}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass
class Loaded:
    tasks: list[Task] = field(default_factory=list)
    errors: list[CaseError] = field(default_factory=list)
    revision: str = ""  # the source revision actually read (pinned Hugging Face commit)


def iter_rows(cfg: Config) -> tuple[Iterator[tuple[int, dict[str, Any] | RowError]], str]:
    src = cfg.source
    if src.jsonl:
        return _jsonl(cfg.resolve(src.jsonl)), ""
    if src.parquet:
        return _parquet(sorted(_glob(cfg, src.parquet))), ""
    from determinacy.hf import download_split  # optional dependency, imported on use

    files, revision = download_split(src.hf_dataset or "", src.split, src.revision)
    return _parquet(files), revision


def _glob(cfg: Config, pattern: str) -> list[Path]:
    p = cfg.resolve(pattern)
    if any(ch in pattern for ch in "*?["):
        files = sorted(p.parent.glob(p.name))
    else:
        files = [p] if p.exists() else []
    if not files:
        raise ConfigError(Path(cfg.root), "source.parquet", f"no file matches {str(p)!r}")
    return files


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | RowError]]:
    try:
        f = path.open("rb")
    except OSError as e:
        raise ConfigError(path, "source.jsonl", f"cannot read the tasks file: {e}") from None
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                yield n, RowError(f"row {n}: not valid JSON ({e})")
                continue
            if not isinstance(obj, dict):
                yield n, RowError(f"row {n}: expected a JSON object, got {type(obj).__name__}")
                continue
            yield n, obj


def _parquet(files: list[Path]) -> Iterator[tuple[int, dict[str, Any] | RowError]]:
    import pyarrow.parquet as pq

    n = 0
    for f in files:
        for batch in pq.ParquetFile(f).iter_batches(batch_size=256):
            for row in batch.to_pylist():
                n += 1
                yield n, row


def _get(row: dict[str, Any], dotted: str, key: str, n: int, *, required: bool = True) -> Any:
    cur: Any = row
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            if not required:
                return None
            raise RowError(f"row {n}: missing field `{dotted}` (config key fields.{key})")
        cur = cur[part]
    return cur


def parse_test_ids(value: Any, what: str, n: int) -> list[str]:
    """A list of test ids given as a list, a JSON string or a Python list literal."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                raise RowError(
                    f"row {n}: field `{what}` is neither a list, a JSON list nor a Python list "
                    f"literal: {text[:80]!r}"
                ) from None
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RowError(f"row {n}: field `{what}` must be a list of test ids (strings)")
    return value


def _text(value: Any, what: str, n: int, *, allow_empty: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RowError(f"row {n}: field `{what}` must be text, got {type(value).__name__}")
    if not value.strip() and not allow_empty:
        raise RowError(f"row {n}: field `{what}` is empty")
    return value


def to_task(cfg: Config, n: int, row: dict[str, Any]) -> Task:
    f = cfg.fields
    instance_id = _text(_get(row, f.instance_id, "instance_id", n), f.instance_id, n)
    if not _SAFE_ID.match(instance_id) or ".." in instance_id:
        raise RowError(
            f"row {n}: instance_id {instance_id!r} is not a safe name (letters, digits and "
            "._+@,~- only, no '..'); it would be used as a file name"
        )
    repo = _text(_get(row, f.repo, "repo", n), f.repo, n).strip()
    if not _REPO.match(repo) or ".." in repo.split("/"):
        raise RowError(f"row {n}: repo {repo!r} is not of the form owner/name")
    base = _text(_get(row, f.base_commit, "base_commit", n), f.base_commit, n).strip()
    if not _SHA.match(base):
        raise RowError(f"row {n}: base_commit {base!r} is not a commit hash")
    parts = []
    for name in f.prose:
        value = _text(_get(row, name, "prose", n, required=False), name, n, allow_empty=True)
        if value.strip():
            parts.append(f"## {name}\n\n{value.strip()}\n")
    if not parts:
        raise RowError(f"row {n}: every prose field ({', '.join(f.prose)}) is empty")
    return Task(
        case_id=instance_id,
        instance_id=instance_id,
        row=n,
        repo=repo,
        base_commit=base.lower(),
        prose="\n".join(parts),
        gold_patch=_text(_get(row, f.gold_patch, "gold_patch", n), f.gold_patch, n),
        test_patch=_text(_get(row, f.test_patch, "test_patch", n), f.test_patch, n),
        fail_to_pass=parse_test_ids(
            _get(row, f.fail_to_pass, "fail_to_pass", n), f.fail_to_pass, n
        ),
        pass_to_pass=parse_test_ids(
            _get(row, f.pass_to_pass, "pass_to_pass", n, required=False), f.pass_to_pass, n
        )
        if f.pass_to_pass
        else [],
    )


def _error_id(row: dict[str, Any] | RowError, cfg: Config, n: int) -> tuple[str, str]:
    raw = row.get(cfg.fields.instance_id) if isinstance(row, dict) else None
    raw = raw if isinstance(raw, str) else ""
    safe = bool(_SAFE_ID.match(raw)) and ".." not in raw
    return (raw if safe else f"row-{n}"), raw


def load_tasks(cfg: Config, limit: int | None = None) -> Loaded:
    rows, revision = iter_rows(cfg)
    out = Loaded(revision=revision)
    seen: set[str] = set()
    for n, row in rows:
        if limit is not None and len(out.tasks) + len(out.errors) >= limit:
            break
        try:
            if isinstance(row, RowError):
                raise row
            task = to_task(cfg, n, row)
            if task.case_id in seen:
                raise RowError(f"row {n}: duplicate instance_id {task.instance_id!r}")
        except RowError as e:
            case_id, raw = _error_id(row, cfg, n)
            if case_id in seen:
                case_id = f"row-{n}"
            seen.add(case_id)
            out.errors.append(CaseError(case_id=case_id, instance_id=raw, row=n, phase="load",
                                        message=str(e)))
            continue
        seen.add(task.case_id)
        out.tasks.append(task)
    return out
