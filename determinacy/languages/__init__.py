"""Syntax-tree facts about source files: tree-sitter grammars read through `.scm` queries.

The registry maps extensions to languages; a language is data (`_model.Language`) plus its
query files beside this module. Grammars are imported on the first parse of their
language, so importing this package imports no tree_sitter.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib.metadata import PackageNotFoundError, version

from determinacy.languages import c, cpp, ecma, go, java, php, python, ruby, rust
from determinacy.languages._model import HERE, FileFacts, Language, TestBlock, Tok

__all__ = ["LANGUAGES", "FileFacts", "Language", "TestBlock", "Tok", "analyze", "for_path",
           "queries_digest"]

LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (python.LANGUAGE, go.LANGUAGE, ecma.JAVASCRIPT, ecma.TYPESCRIPT, ecma.TSX,
                 java.LANGUAGE, rust.LANGUAGE, c.LANGUAGE, cpp.LANGUAGE, php.LANGUAGE,
                 ruby.LANGUAGE)
}
_BY_EXTENSION: dict[str, Language] = {
    ext: lang for lang in LANGUAGES.values() for ext in lang.extensions
}


def for_path(path: str) -> Language | None:
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return _BY_EXTENSION.get("." + name.rsplit(".", 1)[-1].lower())


def analyze(path: str, text: str, lines: Collection[int] | None = None,
            strings: bool = False) -> FileFacts | None:
    """The facts of one file's text; None when no language handles `path`. With `lines`,
    the tokens are those on these lines and every declaring one, and with `strings` every
    string literal (`extract`)."""
    lang = for_path(path)
    if lang is None:
        return None
    from determinacy.languages._extract import extract

    return extract(lang, text, lines, strings)[0]


def queries_digest() -> str:
    """Changes when any query file or any grammar wheel's version changes: a cache key for
    results computed from these facts."""
    from determinacy.store import digest

    parts: list[bytes] = []
    for path in sorted(HERE.glob("*.scm")):
        parts += [path.name.encode(), path.read_bytes()]
    dists = sorted({"tree-sitter", *(lang.distribution for lang in LANGUAGES.values())})
    for dist in dists:
        try:
            parts.append(f"{dist}=={version(dist)}".encode())
        except PackageNotFoundError:
            parts.append(f"{dist} missing".encode())
    # Length-prefixed, so no two different inputs concatenate to the same bytes.
    return digest(b"".join(len(p).to_bytes(8, "big") + p for p in parts))
