"""The release a range gave a solver at a date: npm's semver ranges and PEP 440 (with Poetry's
`^` and `~`), as the package managers read them."""

from __future__ import annotations

import pytest

from determinacy.codebase.dependencies.ranges import Release, newest

# Published in this order, one per second: 0.9.0 at 0, ..., 2.1.0 at 8.
NPM = [Release(v, i) for i, v in enumerate(
    ["0.9.0", "1.0.0", "1.2.0-beta.1", "1.2.0", "1.2.5", "1.3.0", "2.0.0-rc.1", "2.0.0", "2.1.0"])]


@pytest.mark.parametrize(("spec", "now", "then"), [
    ("^1.0.0", "1.3.0", "1.2.0"),
    ("~1.2.0", "1.2.5", "1.2.0"),
    ("1.2.x", "1.2.5", "1.2.0"),
    ("1", "1.3.0", "1.2.0"),
    ("*", "2.1.0", "1.2.0"),
    ("", "2.1.0", "1.2.0"),
    (">=1.2 <2", "1.3.0", "1.2.0"),
    ("1.0.0 - 1.2", "1.2.5", "1.2.0"),
    ("^0.9.0", "0.9.0", "0.9.0"),
    ("<2.0.0", "1.3.0", "1.2.0"),  # never 2.0.0-rc.1: a pre-release only where named
    ("2.0.0-rc.1", "2.0.0-rc.1", ""),
    (">1.2", "2.1.0", ""),  # >1.2 is >=1.3.0
    ("^1.2.0 || ^2", "2.1.0", "1.2.0"),
    ("not a range!", "", ""),
])
def test_npm_ranges(spec: str, now: str, then: str) -> None:
    assert newest("npm", spec, NPM, 100) == now
    assert newest("npm", spec, NPM, 4) == then  # published before the 5th second


PYPI = [Release(v, i) for i, v in enumerate(["0.18.0", "0.19.0", "0.20.0b1", "0.20.0", "1.0.0"])]


@pytest.mark.parametrize(("spec", "want"), [
    (">=0.18", "1.0.0"), (">=0.18,<0.20", "0.19.0"), ("^0.18", "0.18.0"), ("~0.19", "0.19.0"),
    ("~=0.19", "0.20.0"), ("", "1.0.0"), ("0.19.0", "0.19.0"), ("==0.19.*", "0.19.0"),
    (">=0.20.0b1", "1.0.0"),
])
def test_pep440_and_poetry_ranges(spec: str, want: str) -> None:
    assert newest("pypi", spec, PYPI, 100) == want


def test_yanked_and_later_releases_are_not_what_a_solver_got() -> None:
    releases = [Release("1.0.0", 1), Release("1.1.0", 2, yanked=True), Release("1.2.0", 9)]
    assert newest("pypi", ">=1", releases, 5) == "1.0.0"
    assert newest("npm", "^1.0.0", releases, 5) == "1.0.0"
    assert newest("go", "v1", releases, 5) == ""  # go.mod pins; no range is read there


def test_pip_takes_a_pre_release_when_no_final_one_is_admitted() -> None:
    # black had only betas for years: `black` unpinned installed 19.10b0 in 2020.
    betas = [Release("19.3b0", 1), Release("19.10b0", 2), Release("20.8b1", 5)]
    assert newest("pypi", "", betas, 3) == "19.10b0"
    assert newest("pypi", "", [*betas, Release("18.9", 0)], 3) == "18.9"
    assert newest("npm", "^1.0.0", [Release("1.0.0-rc.1", 1)], 3) == ""  # npm never does
