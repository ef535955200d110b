"""The language version a repository declares, against the standard library that was read.

A name the standard library gained after the version read is missed there: when the tree
declares a newer least version than the sources on the machine (`go 1.21` in go.mod, read
1.19), the standard-library scope was not read whole. A declared version older than the one
read only makes the search wider (a name a newer library adds is still readable by a solver
who looks it up), so it is shown, never counted against the read.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from typing import NamedTuple


class Declared(NamedTuple):
    version: tuple[int, ...]  # the least version the declaration allows
    spec: str  # as written: ">=3.8", "1.21"
    where: str  # "<path> <key>": "pyproject.toml requires-python"

    def text(self) -> str:
        return f"{self.spec} ({self.where})"


def numbers(text: str) -> tuple[int, ...]:
    """(3, 11) of "3.11.7", "go1.19.8", "17.0.2", "1.70.0" (the leading dotted digits)."""
    m = re.search(r"\d+(?:\.\d+)*", text)
    parts = m.group().split(".") if m else []
    # A part of ten digits or more is no version (and Python refuses to read 4,300).
    return () if any(len(p) > 9 for p in parts) else tuple(map(int, parts))


def _least(spec: str) -> tuple[int, ...]:
    """The least version a requirement allows: the greatest bound of an alternative's `>=`,
    `~=`, `^`, `==`, `>` clauses or bare versions (`<4` bounds nothing below), the least over
    `||` alternatives; () when no clause bounds it."""
    every = []
    for alternative in spec.split("||"):
        bounds = [numbers(c) for c in re.split(r"[,\s]+", alternative.strip())
                  if c and not c.startswith(("<", "!"))]
        if any(bounds):
            every.append(max(bounds))
    return min(every, default=())


def _python(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get("pyproject.toml")) is not None:
        try:
            doc = tomllib.loads(data.decode())
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            doc = {}
        spec = _at(doc, "project", "requires-python")
        if isinstance(spec, str):
            return _made(spec, "pyproject.toml requires-python")
        poetry = _at(doc, "tool", "poetry", "dependencies", "python")
        if isinstance(poetry, str):
            return _made(poetry, "pyproject.toml tool.poetry.dependencies.python")
    for path, pattern in (("setup.cfg", r"(?m)^\s*python_requires\s*=\s*([^\n#]+)"),
                          ("setup.py", r"python_requires\s*=\s*['\"]([^'\"]+)['\"]")):
        if (data := files.get(path)) is not None:
            if m := re.search(pattern, data.decode(errors="replace")):
                return _made(m.group(1).strip(), f"{path} python_requires")
    return None


def _go(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get("go.mod")) is not None:
        if m := re.search(r"(?m)^go\s+(\d+(?:\.\d+)*)\s*$", data.decode(errors="replace")):
            return _made(m.group(1), "go.mod go")
    return None


def _java(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get("pom.xml")) is not None:
        text = data.decode(errors="replace")
        for key in ("maven.compiler.release", "maven.compiler.source", "java.version",
                    "release", "source"):
            if m := re.search(rf"<{re.escape(key)}>\s*(1\.\d+|\d+)\s*</{re.escape(key)}>", text):
                return _made(_java_number(m.group(1)), f"pom.xml {key}")
    for path in ("build.gradle", "build.gradle.kts"):
        if (data := files.get(path)) is not None:
            text = data.decode(errors="replace")
            if m := re.search(r"JavaLanguageVersion\.of\(\s*(\d+)\s*\)|sourceCompatibility\s*="
                              r"\s*(?:JavaVersion\.VERSION_)?['\"]?(1[._]\d+|\d+)", text):
                spec = _java_number((m.group(1) or m.group(2)).replace("_", "."))
                return _made(spec, f"{path} {'toolchain' if m.group(1) else 'sourceCompatibility'}")
    return None


def _java_number(spec: str) -> str:
    return spec[2:] if spec.startswith("1.") else spec  # "1.8" is Java 8


def _rust(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get("Cargo.toml")) is not None:
        if m := re.search(r"(?m)^rust-version\s*=\s*\"([^\"]+)\"", data.decode(errors="replace")):
            return _made(m.group(1), "Cargo.toml rust-version")
    return None


def _php(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get("composer.json")) is not None:
        try:
            spec = _at(json.loads(data), "require", "php")
        except (ValueError, RecursionError):
            return None
        if isinstance(spec, str):
            return _made(spec, "composer.json require.php")
    return None


def _ruby(files: Mapping[str, bytes]) -> Declared | None:
    if (data := files.get(".ruby-version")) is not None:
        return _made(data.decode(errors="replace").strip().removeprefix("ruby-"),
                     ".ruby-version")
    return None


def _at(doc: object, *keys: str) -> object:
    """doc[k1][k2]... where each step is a table (None otherwise: a manifest may hold
    anything)."""
    for k in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(k)
    return doc


def _made(spec: str, where: str) -> Declared | None:
    spec = spec.strip().strip("'\"")[:80]  # setup.cfg values may be quoted; receipts show it
    least = _least(spec)
    return Declared(least, spec, where) if least else None


# Per standard-library family (stdlib.FAMILY's values): the root files it reads and how.
# ECMAScript has none: `engines.node` names a runtime, the TypeScript lib read is not one.
READERS: dict[str, tuple[tuple[str, ...], Callable[[Mapping[str, bytes]], Declared | None]]] = {
    "python": (("pyproject.toml", "setup.cfg", "setup.py"), _python),
    "go": (("go.mod",), _go),
    "java": (("pom.xml", "build.gradle", "build.gradle.kts"), _java),
    "rust": (("Cargo.toml",), _rust),
    "php": (("composer.json",), _php),
    "ruby": ((".ruby-version",), _ruby),
}


def declared(family: str, files: Mapping[str, bytes]) -> Declared | None:
    """What the tree's root files (path -> bytes, the family's READERS files) declare."""
    reader = READERS.get(family)
    return reader[1](files) if reader else None


def newer(decl: Declared, read: str) -> bool:
    """Whether the declared least version is past the version read (compared to the
    declaration's own precision: "3.11" holds for 3.11.7)."""
    have = numbers(read)
    return bool(have) and decl.version > have[:len(decl.version)]
