"""determinacy: audit what a coding benchmark's task text actually determines."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # The version is read from the install's metadata when first asked for: importlib.metadata
    # (and the email package under it) was half of what `determinacy --help` imported.
    if name != "__version__":
        raise AttributeError(f"module 'determinacy' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("determinacy")
    except PackageNotFoundError:  # running from a source tree without an install
        found = "0.0.0+src"
    globals()["__version__"] = found
    return found
