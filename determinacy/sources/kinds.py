"""The kinds of source, one entry each: where its rows come from (`locate`), how they are read
(`read`), what content names them (`digest`) and what the run's report says of it
(`describe`). The one switch on the kind of source; config.py checks the keys each reads."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from determinacy.config import Config, SourceCfg
from determinacy.records import MinedCommit
from determinacy.sources import files, hf, history
from determinacy.sources.files import Row

Read = Callable[[Config, list[Path], "int | None", str],
                tuple[Iterable[tuple[int, Row]], list[MinedCommit]]]


def _read_files(cfg: Config, paths: list[Path], limit: int | None, revision: str
                ) -> tuple[Iterable[tuple[int, Row]], list[MinedCommit]]:
    return files.iter_rows(cfg, paths), []


def _digest_files(cfg: Config, paths: list[Path], revision: str) -> str:
    return files.files_digest(cfg, paths)


@dataclass(frozen=True)
class Kind:
    key: str  # the [source] key that names it
    locate: Callable[[Config], tuple[list[Path], str]]  # its files, and the revision read
    describe: Callable[[SourceCfg], str]
    read: Read = _read_files
    digest: Callable[[Config, list[Path], str], str] = _digest_files


def _file(kind: str) -> Kind:
    return Kind(kind, files.locate, lambda src: f"{kind}:{Path(getattr(src, kind)).name}")


KINDS = {k.key: k for k in (
    _file("jsonl"), _file("parquet"), _file("csv"),
    Kind("hf_dataset", hf.locate, hf.describe),
    Kind("git", history.locate, history.describe, history.read, history.digest),
)}


def of(cfg: Config) -> Kind:
    """The kind the config's [source] names (config.py lets it name exactly one)."""
    return KINDS[files.source_key(cfg).removeprefix("source.")]
