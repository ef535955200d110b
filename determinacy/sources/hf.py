"""Hugging Face datasets: one split (of one subset) downloaded the usual way, pinned to the
commit its snapshot resolves to.

`huggingface_hub.snapshot_download` with `allow_patterns` fetches only the files the hub's
usual layouts give a split (or the config's `data_files`), from the cache when it has them;
with HF_HUB_OFFLINE=1 a warm cache is read without any call to the hub. Only that call needs the
network: which of the snapshot's files are read (`select`) is decided from the folder, and is
tested on a folder laid out like the hub's cache.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from pathlib import Path

from determinacy.config import Config, SourceCfg
from determinacy.errors import ConfigError

# The formats read, best first: a split shipped both as parquet and as jsonl is the same rows
# twice, so only the first format present is read.
FORMATS = (".parquet", ".jsonl", ".json", ".csv")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_WAY_OUT = ("download its files and point [source] parquet, jsonl or csv at them")


def layout_patterns(split: str, subset: str | None) -> list[list[str]]:
    """Where the hub's usual layouts put a split's files, as groups of glob patterns: the
    first group that matches any file is the split (`data/test-00000-of-00001.parquet`,
    `test.jsonl`, `<subset>/test-*.parquet`, the parquet conversion's `default/test/0000...`)."""
    roots = ([f"{subset}/", f"data/{subset}/", f"{subset}/data/"] if subset
             else ["data/", "", "default/"])
    return [[f"{root}{split}{tail}" for tail in (".*", "-*", "/*")] for root in roots]


def select(files: list[str], split: str, subset: str | None,
           data_files: list[str]) -> list[str]:
    """The snapshot's files to read, in order (paths relative to the snapshot)."""
    data = sorted(f for f in files if f.endswith(FORMATS))
    if data_files:  # given: every match, each read by its extension
        return [f for f in data if any(fnmatch.fnmatchcase(f, p) for p in data_files)]
    for group in layout_patterns(split, subset):
        got = [f for f in data if any(fnmatch.fnmatchcase(f, p) for p in group)]
        for ext in FORMATS:
            if chosen := [f for f in got if f.endswith(ext)]:
                return chosen
    return []


def allow_patterns(split: str, subset: str | None, data_files: list[str]) -> list[str]:
    """What to download: the patterns `select` reads from, and no other file."""
    if data_files:
        return list(data_files)
    return [p for group in layout_patterns(split, subset) for p in group]


def install_hint() -> str:
    """How to get the `hf` extra, for the way this copy of determinacy was installed: a
    checkout (its pyproject.toml beside the package) runs through `uv run`; an installed copy
    is reinstalled with the extra, as a uv tool (uv writes uv-receipt.toml in a tool's venv)
    or in its venv."""
    project = Path(__file__).resolve().parent.parent.parent / "pyproject.toml"
    try:
        checkout = 'name = "determinacy"' in project.read_text(encoding="utf-8")
    except OSError:
        checkout = False
    if checkout:
        return "run `uv run --extra hf determinacy ...` in the checkout"
    # Named by what the extra holds, or by the source the user installed from: a registry
    # name would install whatever that registry calls determinacy.
    tool = "`uv tool install --force 'SOURCE[hf]'` (SOURCE: the checkout or wheel it came from)"
    pip = "`pip install 'huggingface_hub>=0.20'` (the hf extra) in its venv"
    if (Path(sys.prefix) / "uv-receipt.toml").is_file():
        return f"this uv tool lacks it: {tool}"
    return f"this install lacks it: {pip}, or as a uv tool {tool}"


def download_split(src: SourceCfg, where: str) -> tuple[list[Path], str]:
    """The files of the configured split and the commit they are at; every failure is a
    ConfigError of one line."""
    dataset, split, subset, revision = src.hf_dataset or "", src.split, src.subset, src.revision
    data_files = list(src.data_files)
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        raise ConfigError(where, "source.hf_dataset", "reading a Hugging Face dataset needs "
                          f"huggingface_hub: {install_hint()}") from None
    try:
        folder = Path(snapshot_download(dataset, repo_type="dataset", revision=revision,
                                        allow_patterns=allow_patterns(split, subset,
                                                                      data_files)))
    except Exception as e:  # the library's errors vary by version; each becomes one line
        raise ConfigError(where, "source.hf_dataset", failure(dataset, revision, e)) from None
    sha = folder.name if _COMMIT.fullmatch(folder.name) else (revision or "")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    chosen = select(files, split, subset, data_files)
    if not chosen:
        key = "source.data_files" if data_files else "source.split"
        what = (f"no file matches {data_files}" if data_files else
                f"no data file for split {split!r}" + (f" of subset {subset!r}" if subset else ""))
        shown = ", ".join(files[:20]) + (f" (and {len(files) - 20} more)" if len(files) > 20
                                         else "")
        raise ConfigError(where, key, f"dataset {dataset!r} at {sha or 'its newest revision'}: "
                          f"{what}; the snapshot has: {shown or '(no file)'}; name the files "
                          "with [source] data_files")
    return [folder / f for f in chosen], sha


def _chain(e: BaseException) -> list[BaseException]:
    """An exception and what caused it, down to the error that started it (at most 20)."""
    out: list[BaseException] = []
    seen: BaseException | None = e
    while seen is not None and len(out) < 20 and all(seen is not x for x in out):
        out.append(seen)
        seen = seen.__cause__ or seen.__context__
    return out


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def failure(dataset: str, revision: str | None, e: BaseException) -> str:
    """One line: what went wrong with the download, and the way out."""
    chain = _chain(e)
    names = {c.__name__ for x in chain for c in type(x).__mro__}
    at = f" at revision {revision!r}" if revision else ""
    root = chain[-1]  # the error that started it (a refused connection, a timeout)
    detail = " ".join(f"{type(root).__name__}: {root}".split())
    detail = detail if len(detail) <= 120 else detail[:120] + "…"
    if "RevisionNotFoundError" in names:
        return f"dataset {dataset!r} has no revision {revision!r} on the hub"
    if "GatedRepoError" in names:
        return (f"dataset {dataset!r} is gated: accept its terms on huggingface.co and log in "
                "(`hf auth login`), or " + _WAY_OUT)
    if "RepositoryNotFoundError" in names:
        return (f"no dataset {dataset!r} on the Hugging Face hub (or it is private: log in "
                "with `hf auth login`)")
    if "IncompleteSnapshotError" in names:
        return (f"the cached copy of dataset {dataset!r}{at} lacks some of its files and the "
                "hub cannot be reached to complete it: run once with the network, or "
                + _WAY_OUT)
    if _offline() or "OfflineModeIsEnabled" in names:
        return (f"HF_HUB_OFFLINE is set and this machine has no cached copy of dataset "
                f"{dataset!r}{at}: run once with the network to fill the cache, or "
                + _WAY_OUT)
    if names & {"LocalEntryNotFoundError", "ConnectError", "ConnectionError", "TimeoutException",
                "Timeout", "ProxyError", "HfHubHTTPError"}:
        return (f"cannot reach the Hugging Face hub for dataset {dataset!r}{at} ({detail}): "
                "with a warm cache set HF_HUB_OFFLINE=1, or " + _WAY_OUT)
    return f"cannot download dataset {dataset!r}{at}: {type(e).__name__}: {detail}"


def locate(cfg: Config) -> tuple[list[Path], str]:
    """The split's files, downloaded or from the hub's cache, and the commit read."""
    got, revision = download_split(cfg.source, cfg.file or "config")
    return list(got), revision


def describe(src: SourceCfg) -> str:
    return f"hf:{src.hf_dataset}" + (f"/{src.subset}" if src.subset else "") + f"[{src.split}]"
