"""Hugging Face datasets: download one split's parquet files at a pinned revision.

Only the download lives here; everything after it is the local parquet path, which is tested.
"""

from __future__ import annotations

from pathlib import Path

from determinacy.errors import ConfigError


def download_split(dataset: str, split: str, revision: str | None) -> tuple[list[Path], str]:
    try:
        from huggingface_hub import HfApi, hf_hub_download
    except ImportError:
        raise ConfigError("config", "source.hf_dataset",
                          "needs huggingface_hub: install determinacy[hf]") from None
    api = HfApi()
    info = api.dataset_info(dataset, revision=revision)
    sha = info.sha or revision or ""
    files = sorted(
        s.rfilename for s in (info.siblings or [])
        if s.rfilename.endswith(".parquet") and _in_split(s.rfilename, split)
    )
    if not files:
        raise ConfigError("config", "source.split",
                          f"dataset {dataset!r} at {sha} has no parquet files for split {split!r}")
    paths = [Path(hf_hub_download(dataset, f, repo_type="dataset", revision=sha)) for f in files]
    return paths, sha


def _in_split(path: str, split: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return split in parts[:-1] or name.startswith(f"{split}-") or name == f"{split}.parquet"
