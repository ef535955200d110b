"""What every test agent reads first: the three header lines determinacy puts on a prompt."""

from __future__ import annotations


def headers(prompt: str) -> dict[str, str]:
    """{"phase": ..., "case": ..., "pass": ...} from `DETERMINACY-<KEY>: value` lines."""
    out = {}
    for line in prompt.splitlines()[:3]:
        key, _, value = line.partition(": ")
        out[key.removeprefix("DETERMINACY-").lower()] = value.strip()
    return out
