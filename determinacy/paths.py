"""Path policies: which paths are test code. One glob language, git's, for both the Python side
(classifying patch files) and the git side (pathspecs that leave test paths out of a search)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a git `:(glob)` pattern: `**/` any folders (or none), `*` and `?` within one
    component, `[...]` a class, a trailing `/**` everything inside."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == n:
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            j = pattern.find("]", i + 2)
            if j == -1:
                out.append(re.escape("["))
                i += 1
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def is_test_path(path: str, patterns: Sequence[str]) -> bool:
    return _any_of(tuple(patterns)).match(path) is not None


@lru_cache(maxsize=64)
def _any_of(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for a list of globs (a tree's every path is tested against the list)."""
    if not patterns:
        return re.compile(r"(?!)")
    return re.compile("|".join(f"(?:{glob_regex(p).pattern})" for p in patterns))


def exclude_pathspecs(patterns: Sequence[str]) -> list[str]:
    """Pathspecs for `git grep ... -- . <these>` that leave the given globs out."""
    return [f":(exclude,glob){p}" for p in patterns]
