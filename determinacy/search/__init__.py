"""The codebase search: does this exact string occur in the repository at this commit?

`scan` looks for many constants in one blob at once (pure); `engine` reads each distinct blob
of a repository once for all of them and keeps what it searched in the store.
"""

from determinacy.search.engine import VERSION, Engine, Found, engine

__all__ = ["VERSION", "Engine", "Found", "engine"]
