"""determinacy: audit what a coding benchmark's task text actually determines."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("determinacy")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+src"
