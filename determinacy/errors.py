"""Errors a user can act on: each names the file, key or row at fault."""


class DeterminacyError(Exception):
    """Base class: the CLI prints these without a traceback."""


class ConfigError(DeterminacyError):
    def __init__(self, path: object, key: str, message: str):
        self.path, self.key = str(path), key
        where = f"{self.path}: key `{key}`" if key else self.path
        super().__init__(f"{where}: {message}")


class RowError(DeterminacyError):
    """A source row that cannot become a task; the audit records it as an ERROR case."""


class CaseFailure(DeterminacyError):
    """A phase could not audit one case (stored as a `records.CaseError`: an ERROR case).

    `transient` errors (network, missing commit, agent failure) are never cached: the next run
    tries again. Deterministic ones (a patch that does not parse) are cached like any result.
    """

    def __init__(self, message: str, *, transient: bool = False):
        self.transient = transient
        super().__init__(message)


class StoreError(DeterminacyError):
    """The store cannot be written (read-only, full, permissions): the run cannot go on."""
