"""Names a test imports from a module outside the repository (method §7: what crosses).

`from types import new_class` in a test binds the standard library's `new_class`, whatever
the gold defines under that name; `import { StandardSchemaV1 } from "@standard-schema/spec"`
binds a package's. Such a name in that file is the other module's: no use of the gold's.

Pure: the test files' post-images and a reader of base files come in. Python modules are
outside when their top-level name is a standard library module the tree does not shadow;
ECMAScript specifiers when they are `node:` builtins or packages a manifest declares.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping

from determinacy.proposer.postimage import PostImage

_PY_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)", re.M)
_ES_IMPORT = re.compile(r"\bimport\s+(?:type\s+)?(\{[^}]*\}|[\w$]+(?:\s*,\s*\{[^}]*\})?)"
                        r"\s*from\s*(['\"])([^'\"\n]+)\2")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_ES_EXT = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
_NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def foreign(images: Mapping[str, PostImage], read: Callable[[str], str | None] | None,
            manifests: Iterable[str] = ()) -> dict[tuple[str, str], str]:
    """(test file, name) -> the outside module it is imported from. `manifests`: the texts of
    package.json files (at base and as the patches leave them) that declare packages."""
    declared = _declared(manifests)
    out: dict[tuple[str, str], str] = {}
    for path, img in images.items():
        if path.endswith(".py"):
            for module, names in _python(img.text):
                if _outside_python(module, read):
                    out.update({(path, n): module for n in names})
        elif path.endswith(_ES_EXT):
            for spec, names in _ecma(img.text):
                if spec.startswith("node:") or _package(spec) in declared:
                    out.update({(path, n): spec for n in names})
    return out


def _python(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for m in _PY_FROM.finditer(text):
        names = [part.split(" as ")[-1].strip() for part in m.group(2).strip("() \n").split(",")]
        out.append((m.group(1), [n for n in names if _NAME.fullmatch(n)]))
    return out


def _shadows(top: str) -> tuple[str, ...]:
    """The tree paths whose module would shadow the standard library's `top`."""
    return (f"{top}.py", f"{top}/__init__.py", f"src/{top}.py", f"src/{top}/__init__.py")


# Every base file `foreign` may read: the caller lists them among those a proposal reads.
READS = frozenset({"package.json"} | {p for top in sys.stdlib_module_names
                                      for p in _shadows(top)})


def _outside_python(module: str, read: Callable[[str], str | None] | None) -> bool:
    top = module.split(".")[0]
    if not top or top not in sys.stdlib_module_names:
        return False  # relative, the repository's own, or a package: not known here
    # A module of the tree with that name shadows the library's.
    return read is not None and all(read(p) is None for p in _shadows(top))


def _ecma(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for m in _ES_IMPORT.finditer(text):
        names = []
        for part in re.split(r"[{},]", m.group(1)):
            part = part.strip().removeprefix("type ").strip()
            name = part.split(" as ")[-1].strip()
            if _NAME.fullmatch(name):
                names.append(name)
        out.append((m.group(3), names))
    return out


def _package(spec: str) -> str:
    """The package a bare specifier names (`@scope/name/sub` -> `@scope/name`); "" for a
    relative or absolute one."""
    if spec.startswith((".", "/")):
        return ""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") else parts[0]


def _declared(manifests: Iterable[str]) -> frozenset[str]:
    names: set[str] = set()
    for text in manifests:
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        if not isinstance(doc, dict):
            continue
        for section in _NPM_SECTIONS:
            deps = doc.get(section)
            if isinstance(deps, dict):
                names.update(k for k in deps if isinstance(k, str))
    return frozenset(names)
