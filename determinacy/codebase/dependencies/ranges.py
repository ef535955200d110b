"""Which release a version range gives a solver who installs at a given moment.

A manifest that declares a range and no lockfile pins it (`"ky": "^0.28.0"`, `httpx>=0.18`)
still installs one version: the newest release the range admits, among those published before
the moment the solver installs. For a task that moment is taken as its base commit's date:
the newest version admitted and published before it is what the repository's own developers
had. Pure: the registry's release list (version, publish time, yanked) comes in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version


class Release(NamedTuple):
    version: str
    published: float  # seconds since the epoch
    yanked: bool = False


def newest(ecosystem: str, spec: str, releases: Sequence[Release], before: float) -> str:
    """The newest release `spec` admits that was published before `before` and is not yanked;
    "" when none is, or when `spec` is not a range this module reads."""
    admits = {"pypi": _pep440, "npm": _npm}.get(ecosystem)
    if admits is None:
        return ""
    test = admits(spec)
    if test is None:
        return ""
    found = _newest(test, releases, before)
    if not found and ecosystem == "pypi":
        # pip takes a pre-release when no final release is admitted (black's 19.10b0).
        found = _newest(_pep440(spec, pre=True), releases, before)
    return found


def _newest(test: Callable[[str], tuple | None] | None, releases: Sequence[Release],
            before: float) -> str:
    best: tuple[tuple, str] | None = None
    for r in releases:
        if test is None or r.yanked or r.published >= before:
            continue
        order = test(r.version)
        if order is not None and (best is None or order > best[0]):
            best = (order, r.version)
    return best[1] if best else ""


# --- PEP 440 (and Poetry's ^ and ~) --------------------------------------------------------

def _pep440(spec: str, pre: bool = False):  # noqa: ANN202 - version -> sort key, or None
    spec = spec.strip()
    text = ",".join(_poetry(part.strip()) for part in spec.split(",")) if spec else ""
    try:
        specs = SpecifierSet(text)
    except InvalidSpecifier:
        return None

    def test(version: str) -> tuple | None:
        try:
            v = Version(version)
        except InvalidVersion:
            return None
        # Pre-releases only where the range names one (pip's own rule), or `pre`.
        if not specs.contains(v, prereleases=pre or specs.prereleases or False):
            return None
        return (v,)

    return test


def _poetry(part: str) -> str:
    """Poetry's `^1.2` and `~1.2` (and a bare version, which it reads as `==`) as PEP 440."""
    m = re.fullmatch(r"([\^~])\s*(\d+(?:\.\d+)*)", part)
    if not m:
        return f"=={part}" if re.fullmatch(r"\d[\w.]*", part) else part
    nums = [int(n) for n in m[2].split(".")]
    if m[1] == "~":
        upper = [nums[0] + 1] if len(nums) == 1 else [nums[0], nums[1] + 1]
    else:
        i = next((i for i, n in enumerate(nums) if n), len(nums) - 1)
        upper = [*nums[:i], nums[i] + 1]
    return f">={m[2]},<{'.'.join(map(str, upper))}"


# --- npm's semver ranges -------------------------------------------------------------------

_SEMVER = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?")
_PARTIAL = re.compile(r"v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?"
                      r"(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?")
_Ver = tuple[int, int, int, tuple]  # major, minor, patch, pre-release key


def _semver(text: str) -> _Ver | None:
    m = _SEMVER.fullmatch(text.strip())
    if not m:
        return None
    return int(m[1]), int(m[2]), int(m[3]), _pre(m[4])


def _pre(pre: str | None) -> tuple:
    # A release sorts after its pre-releases: (1,) after (0, ...).
    if not pre:
        return (1,)
    return (0, *((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))


def _npm(spec: str):  # noqa: ANN202 - a closure: version -> sort key, or None
    spec = spec.strip()
    if spec in ("", "*", "latest", "x", "X"):
        spec = "*"
    alternatives = []
    for alt in spec.split("||"):
        comparators = _comparators(alt)
        if comparators is None:
            return None
        alternatives.append(comparators)

    def test(version: str) -> tuple | None:
        v = _semver(version)
        if v is None:
            return None
        for comparators in alternatives:
            # A pre-release only where a comparator of this set names the same x.y.z.
            if v[3] != (1,) and not any(c[1][:3] == v[:3] and len(c[1][3]) > 1
                                        for c in comparators):
                continue
            if all(_holds(op, v, bound) for op, bound in comparators):
                return v
        return None

    return test


def _holds(op: str, v: _Ver, bound: _Ver) -> bool:
    return {"<": v < bound, "<=": v <= bound, ">": v > bound, ">=": v >= bound,
            "=": v == bound}[op]


def _comparators(text: str) -> list[tuple[str, _Ver]] | None:
    """One space-separated set as (op, version) bounds; None when it does not parse."""
    text = re.sub(r"(<=|>=|<|>|=|\^|~>?)\s+", r"\1", text.strip())
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen:
        low, high = _partial(hyphen[1]), _partial(hyphen[2])
        if low is None or high is None:
            return None
        out = [(">=", _floor(low))]
        return out + ([] if high[0] is None else [_below(high, inclusive=True)])
    out: list[tuple[str, _Ver]] = []
    for word in text.split():
        m = re.fullmatch(r"(<=|>=|<|>|=|\^|~>?|)(.+)", word)
        if not m:
            return None
        op, p = m[1], _partial(m[2])
        if p is None:
            return None
        bounds = _bounds(op, p)
        if bounds is None:
            return None
        out += bounds
    return out or [(">=", (0, 0, 0, (1,)))]


_Partial = tuple[int | None, int | None, int | None, tuple]


def _partial(text: str) -> _Partial | None:
    m = _PARTIAL.fullmatch(text)
    if not m:
        return None
    nums: list[int | None] = []
    for g in m.groups()[:3]:
        if g is None or g in "xX*":
            nums += [None] * (3 - len(nums))
            break
        nums.append(int(g))
    return nums[0], nums[1], nums[2], _pre(m[4])


def _floor(p: _Partial) -> _Ver:
    return p[0] or 0, p[1] or 0, p[2] or 0, p[3] if p[2] is not None else (0,)


def _below(p: _Partial, inclusive: bool) -> tuple[str, _Ver]:
    """The upper bound of `<=p` (inclusive) or `<p`: a partial version covers what it leaves
    open (`<=1.2` is `<1.3.0-0`)."""
    major, minor, patch, pre = p
    if patch is not None:
        return ("<=" if inclusive else "<"), (major or 0, minor or 0, patch, pre)
    if not inclusive:
        return "<", _floor(p)
    if minor is None:
        return "<", ((major or 0) + 1, 0, 0, (0,))
    return "<", (major or 0, minor + 1, 0, (0,))


def _bounds(op: str, p: _Partial) -> list[tuple[str, _Ver]] | None:
    major, minor, patch, pre = p
    if major is None:
        return [] if op in ("", "=", ">=", "^", "~", "~>", "<=") else None
    low = _floor(p)
    if op in ("", "="):
        if patch is not None:
            return [("=", (major, minor or 0, patch, pre))]
        return [(">=", low), _below(p, inclusive=True)]
    if op in ("~", "~>"):
        high = (major, minor + 1, 0, (0,)) if minor is not None else (major + 1, 0, 0, (0,))
        return [(">=", low), ("<", high)]
    if op == "^":
        if major > 0 or minor is None:
            high = (major + 1, 0, 0, (0,))
        elif minor > 0 or patch is None:
            high = (0, minor + 1, 0, (0,))
        else:
            high = (0, 0, patch + 1, (0,))
        return [(">=", low), ("<", high)]
    if op == ">=":
        return [(">=", low)]
    if op == ">":
        if patch is not None:
            return [(">", (major, minor or 0, patch, pre))]
        return [(">=", _below(p, inclusive=True)[1])]
    if op == "<":
        return [_below(p, inclusive=False)]
    if op == "<=":
        return [_below(p, inclusive=True)]
    return None
