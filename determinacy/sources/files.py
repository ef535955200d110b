"""Rows from files: JSON lines, JSON arrays, CSV and parquet, read by kind or by extension
(a Hugging Face split may be any of them), and the bytes' digest."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import blake3

from determinacy.config import SOURCE_KINDS, Config
from determinacy.errors import ConfigError, RowError

_CHUNK = 1 << 20

Row = dict[str, Any] | RowError


def source_key(cfg: Config) -> str:
    """The config key naming the source (what an error about its files names)."""
    src = cfg.source
    return next((f"source.{k}" for k in SOURCE_KINDS if getattr(src, k)), "source.hf_dataset")


def locate(cfg: Config) -> tuple[list[Path], str]:
    """The files of a jsonl, parquet or csv source, in reading order (no revision)."""
    src = cfg.source
    if src.jsonl:
        return [cfg.resolve(src.jsonl)], ""
    key = source_key(cfg)
    return sorted(_glob(cfg, src.parquet or src.csv or "", key)), ""


def files_digest(cfg: Config, files: list[Path]) -> str:
    """blake3 of the files' bytes one after the other (`store.digest` of their concatenation),
    read in chunks: a source may be larger than memory is worth spending on it."""
    h = blake3.blake3()
    for path in files:
        try:
            with path.open("rb") as f:
                while chunk := f.read(_CHUNK):
                    h.update(chunk)
        except OSError as e:
            raise ConfigError(path, source_key(cfg), f"cannot read the tasks file: {e}") \
                from None
    return h.hexdigest()


def iter_rows(cfg: Config, files: list[Path]) -> Iterator[tuple[int, Row]]:
    """Each row of the files with its number (1-based, counted over all of them), each file
    read by its kind (a Hugging Face split may be parquet, jsonl, json or csv)."""
    key, offset = source_key(cfg), 0
    for path in files:
        last = 0
        for n, row in _rows_of(cfg, path, key):
            last = n
            yield offset + n, row
        offset += last


def _rows_of(cfg: Config, path: Path, key: str) -> Iterator[tuple[int, Row]]:
    name = path.name.lower()
    if cfg.source.parquet or name.endswith(".parquet"):
        return _parquet(cfg, [path])
    if cfg.source.csv or name.endswith(".csv"):
        return _csv(path, key)
    if name.endswith(".json") and not cfg.source.jsonl and _is_array(path, key):
        return _json_array(path, key)
    return _jsonl(path, key)


def _glob(cfg: Config, pattern: str, key: str) -> list[Path]:
    p = cfg.resolve(pattern)
    if any(ch in pattern for ch in "*?["):
        files = sorted(p.parent.glob(p.name))
    else:
        files = [p] if p.exists() else []
    if not files:
        raise ConfigError(cfg.file or cfg.root, key, f"no file matches {str(p)!r}")
    return files


def _open(path: Path, key: str) -> Any:
    try:
        return path.open("rb")
    except OSError as e:
        raise ConfigError(path, key, f"cannot read the tasks file: {e}") from None


def _is_array(path: Path, key: str) -> bool:
    """A `.json` file that is one JSON array (the rest are JSON lines)."""
    with _open(path, key) as f:
        while chunk := f.read(4096):
            if stripped := chunk.lstrip():
                return stripped.startswith(b"[")
    return False


def _json_array(path: Path, key: str) -> Iterator[tuple[int, Row]]:
    with _open(path, key) as f:
        try:
            items = json.load(f)
        except (ValueError, RecursionError) as e:
            raise ConfigError(path, key, f"not valid JSON: {clip(str(e))}") from None
    for n, obj in enumerate(items, 1):
        yield n, obj if isinstance(obj, dict) else RowError(
            f"row {n}: expected a JSON object, got {type(obj).__name__}")


def _csv(path: Path, key: str) -> Iterator[tuple[int, Row]]:
    """A CSV file with a header line; a cell is text (a patch may span lines, quoted)."""
    csv.field_size_limit(1 << 30)  # patches are long cells
    try:
        f = path.open(encoding="utf-8", newline="")
    except OSError as e:
        raise ConfigError(path, key, f"cannot read the tasks file: {e}") from None
    with f:
        try:
            for n, row in enumerate(csv.DictReader(f), 1):
                if None in row:  # more cells than the header names
                    yield n, RowError(f"row {n}: more cells than the header has columns")
                    continue
                yield n, dict(row)
        except (csv.Error, UnicodeDecodeError) as e:
            raise ConfigError(path, key, f"cannot read the csv file: {e}") from None


def _jsonl(path: Path, key: str = "source.jsonl") -> Iterator[tuple[int, Row]]:
    with _open(path, key) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            # ValueError: also a number past Python's digit limit; RecursionError: deep nesting.
            except (ValueError, RecursionError) as e:
                yield n, RowError(f"row {n}: not valid JSON ({clip(str(e))})")
                continue
            if not isinstance(obj, dict):
                yield n, RowError(f"row {n}: expected a JSON object, got {type(obj).__name__}")
                continue
            yield n, obj


def _parquet(cfg: Config, files: list[Path]) -> Iterator[tuple[int, Row]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 0
    for f in files:
        try:
            batches = pq.ParquetFile(f).iter_batches(batch_size=256)
            for batch in batches:
                for row in batch.to_pylist():
                    n += 1
                    yield n, row
        except (OSError, pa.ArrowException) as e:
            # The file, not a row, is at fault: nothing after this point can be read.
            raise ConfigError(f, source_key(cfg), f"cannot read the parquet file: {e}") \
                from None


def clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
