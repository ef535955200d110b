"""The language version a repository's root files declare, and whether the sources read
meet it."""

from __future__ import annotations

import pytest

from determinacy.codebase.declared import declared, newer


@pytest.mark.parametrize(("family", "files", "least", "where"), [
    ("python", {"pyproject.toml": b'[project]\nrequires-python = ">=3.9, <4"\n'}, (3, 9),
     "pyproject.toml requires-python"),
    ("python", {"pyproject.toml": b'[tool.poetry.dependencies]\npython = "^3.10"\n'}, (3, 10),
     "pyproject.toml tool.poetry.dependencies.python"),
    ("python", {"setup.py": b"setup(name='x', python_requires='>=3.7')\n"}, (3, 7),
     "setup.py python_requires"),
    ("go", {"go.mod": b"module example.com/x\n\ngo 1.21\n\ntoolchain go1.21.3\n"}, (1, 21),
     "go.mod go"),
    ("java", {"pom.xml": b"<properties><maven.compiler.source>1.8</maven.compiler.source>"
              b"</properties>"}, (8,), "pom.xml maven.compiler.source"),
    ("java", {"build.gradle.kts": b"java { toolchain { languageVersion = "
              b"JavaLanguageVersion.of(21) } }"}, (21,), "build.gradle.kts toolchain"),
    ("rust", {"Cargo.toml": b'[package]\nname = "x"\nrust-version = "1.70"\n'}, (1, 70),
     "Cargo.toml rust-version"),
    ("php", {"composer.json": b'{"require": {"php": "^7.4 || ^8.0"}}'}, (7, 4),
     "composer.json require.php"),
])
def test_the_least_declared_version_is_read_from_the_root_files(
        family: str, files: dict[str, bytes], least: tuple[int, ...], where: str) -> None:
    got = declared(family, files)
    assert got is not None and got.version == least and got.where == where


def test_nothing_declared_is_none_never_a_guess() -> None:
    assert declared("python", {"pyproject.toml": b'[project]\nname = "x"\n'}) is None
    assert declared("python", {"pyproject.toml": b"not toml ["}) is None
    assert declared("python", {"setup.cfg": b'[options]\npython_requires = "<4"\n'}) is None
    assert declared("ecma", {"package.json": b'{"engines": {"node": ">=18"}}'}) is None
    assert declared("go", {}) is None


def test_a_declared_version_past_the_one_read_is_newer_at_its_own_precision() -> None:
    go121 = declared("go", {"go.mod": b"go 1.21\n"})
    py311 = declared("python", {"setup.cfg": b"[options]\npython_requires = >=3.11\n"})
    assert go121 is not None and py311 is not None
    assert newer(go121, "1.19.8") and not newer(go121, "1.21.0") and not newer(go121, "1.22")
    assert not newer(py311, "3.11.7") and newer(py311, "3.10.12")
    assert not newer(py311, "")  # a version not known is not compared


def test_a_manifest_that_holds_anything_declares_nothing_and_raises_nothing() -> None:
    """Manifests are data: 5,000-digit versions, tables where strings belong, JSON and TOML
    nested past the recursion limit, a 10 MB .ruby-version."""
    deep_toml = b"a = " + b"[" * 100_000 + b"]" * 100_000
    for family, files in (
            ("python", {"pyproject.toml": b'[project]\nrequires-python = ">=3.' + b"9" * 5000
                        + b'"\n'}),
            ("python", {"pyproject.toml": b"project = [1]\n"}),
            ("python", {"pyproject.toml": b"[tool]\npoetry = 3\n"}),
            ("python", {"pyproject.toml": deep_toml}),
            ("php", {"composer.json": b"[" * 100_000}),
            ("php", {"composer.json": b'{"require": "x"}'}),
            ("go", {"go.mod": b"go 1." + b"1" * 5000 + b"\n"})):
        assert declared(family, files) is None, (family, files)
    ruby = declared("ruby", {".ruby-version": b"3.2.2" + b"x" * 10_000_000})
    assert ruby is not None and ruby.version == (3, 2, 2) and len(ruby.spec) == 80
