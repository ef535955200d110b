"""Which packages a tree's manifests declare, at which version its lockfiles pin them.

Pure: the caller reads the files (git, at base) and hands their bytes in. Only direct
dependencies count (what a manifest names); a lockfile only supplies the exact version of those.
"""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from typing import Any, NamedTuple


class Pin(NamedTuple):
    """A direct dependency as a manifest declares it.

    `ecosystem`: "pypi", "npm", "go" or "maven". `name`: pypi: the PEP 503 normalized name
    (`zope-interface`); npm: the package name (`@scope/name`); go: the module path; maven:
    `group:artifact`. `version`: the exact version pinned (a lockfile's, or an exact `==`/go.mod
    version), "" when nothing pins one (a range only). `manifest`: the tree path declaring it.
    `spec`: the range the manifest declares, kept where no version is pinned ("" for any).
    """

    ecosystem: str
    name: str
    version: str
    manifest: str
    spec: str = ""


class _Dep(NamedTuple):
    """A declaration before lockfiles are consulted: `spec` as written (what a yarn.lock keys
    its entries by), `exact` the version the manifest itself pins ("" for a range). An npm
    alias (`"zod3": "npm:zod@~3.24.0"`) is locked under its `name` and is the package
    `real` at the range `wanted`."""

    ecosystem: str
    name: str
    spec: str
    exact: str
    real: str = ""
    wanted: str = ""


# (importer folder relative to the lockfile, "" for the root; name) -> [(specifier, version)]:
# the specifier is "" where a lockfile keeps none; several pairs where it holds several versions.
_Lock = dict[tuple[str, str], list[tuple[str, str]]]

_SKIPPED = {"node_modules", "vendor", "third_party", ".git",
            "test", "tests", "testdata", "fixtures", "examples", "example"}

# What a malformed file raises inside a parser (JSON, TOML and decoding errors are ValueErrors,
# ET.ParseError a SyntaxError; a deeply nested JSON a RecursionError).
_MALFORMED = (ValueError, TypeError, AttributeError, LookupError, SyntaxError, RecursionError)


def wanted(path: str) -> bool:
    """Whether a tree path ("/"-separated) is a manifest or lockfile this module parses; False
    under node_modules/, vendor/, third_party/, .git/ and any folder named test, tests, testdata,
    fixtures, examples, example at any depth."""
    return _kind(path) is not None and not _SKIPPED.intersection(path.split("/")[:-1])


def pins(files: Mapping[str, bytes]) -> list[Pin]:
    """The direct dependencies declared by the manifests among `files` (tree path -> bytes), each
    with the exact version its lockfile (or the manifest itself) pins, "" when nothing pins one.
    Sorted and without duplicates (same ecosystem, name, version: keep the first manifest path in
    path order). Never raises on malformed input: a file that does not parse contributes nothing
    (and is reported by `unparsed`)."""
    manifests, locks, _ = _parse(files)
    local = _workspace_names(files)
    first: dict[tuple[str, str, str, str], str] = {}
    for path in sorted(manifests):
        rel, found = _nearest_locks(path, _LOCKS_OF.get(_kind(path) or "", ()), locks)
        for dep in manifests[path]:
            if dep.ecosystem == "npm" and dep.name in local:
                continue  # a workspace package: in the tree, never fetched
            version = _locked(found, rel, dep.name, dep.spec) or dep.exact
            spec = "" if version else dep.wanted or dep.spec
            first.setdefault((dep.ecosystem, dep.real or dep.name, version, spec), path)
    return sorted(Pin(eco, name, version, path, spec)
                  for (eco, name, version, spec), path in first.items())


def _workspace_names(files: Mapping[str, bytes]) -> frozenset[str]:
    """The npm package names the tree's own package.json files give (a monorepo's
    workspaces, which its manifests declare like any dependency)."""
    names = set()
    for path, data in files.items():
        if path.rsplit("/", 1)[-1] == "package.json" and wanted(path):
            try:
                doc = json.loads(data)
            except _MALFORMED:  # `_parse` says it is unparsed
                continue
            if isinstance(doc, dict) and isinstance(doc.get("name"), str):
                names.add(doc["name"])
    return frozenset(names)


def unparsed(files: Mapping[str, bytes]) -> list[str]:
    """The paths among `files` that `wanted` accepts but that failed to parse (sorted)."""
    return _parse(files)[2]


def _parse(files: Mapping[str, bytes]) -> tuple[dict[str, list[_Dep]], dict[str, _Lock], list[str]]:
    """The wanted files parsed: manifests' declarations, lockfiles' pins, the paths that failed."""
    manifests: dict[str, list[_Dep]] = {}
    locks: dict[str, _Lock] = {}
    failed: list[str] = []
    for path, data in files.items():
        kind = _kind(path)
        if kind is None or not wanted(path):
            continue
        try:
            text = data.decode("utf-8-sig")  # a BOM is common in Windows-edited package.json
            if kind in _LOCK_PARSERS:
                locks[path] = _LOCK_PARSERS[kind](text)
            else:
                manifests[path] = _MANIFEST_PARSERS[kind](text)
        except _MALFORMED:
            failed.append(path)
    return manifests, locks, sorted(failed)


def _kind(path: str) -> str | None:
    """The format of a tree path, named by its canonical basename; None for other files."""
    folder, _, base = path.rpartition("/")
    if base in _MANIFEST_PARSERS or base in _LOCK_PARSERS:
        return base
    if (fnmatchcase(base, "requirements*.txt") or fnmatchcase(base, "*-requirements.txt")
            or (folder.rpartition("/")[2] == "requirements" and base.endswith(".txt"))):
        return "requirements.txt"
    return None


# --- lockfile pairing (every ecosystem) ---------------------------------------------------------

def _nearest_locks(manifest: str, names: tuple[str, ...],
                   locks: Mapping[str, _Lock]) -> tuple[str, list[_Lock]]:
    """The parsed lockfiles among `names` in the manifest's folder, else in its nearest ancestor
    folder holding one (workspaces lock at the root), preferred first; with the manifest's folder
    relative to theirs (the importer a pnpm or npm workspace lock files it under)."""
    folder = manifest.rpartition("/")[0]
    at = folder
    while True:
        found = [locks[p] for n in names if (p := f"{at}/{n}" if at else n) in locks]
        if found:
            return (folder[len(at):].lstrip("/") if at else folder), found
        if not at:
            return "", []
        at = at.rpartition("/")[0]


def _locked(locks: list[_Lock], rel: str, name: str, spec: str) -> str:
    """The version the first lock knowing `name` pins: its importer's entry, else the root's (npm
    hoists); the entry for the exact specifier, else the only version it holds; "" if ambiguous."""
    for lock in locks:
        entries = lock.get((rel, name)) or lock.get(("", name))
        if not entries:
            continue
        matching = {v for s, v in entries if s == spec}
        versions = matching or {v for _, v in entries}
        return versions.pop() if len(versions) == 1 else ""
    return ""


def _add(lock: _Lock, importer: str, name: str, spec: str, version: str) -> None:
    lock.setdefault((importer, name), []).append((spec, version))


# --- go -----------------------------------------------------------------------------------------

def _go_mod(text: str) -> list[_Dep]:
    """go.mod's direct requirements, `replace` directives applied."""
    requires: list[tuple[str, str]] = []
    replaces: dict[tuple[str, str], tuple[str, str]] = {}  # (module, version or "") -> target
    block = ""
    for raw in text.splitlines():
        line, _, comment = raw.partition("//")
        line = line.strip()
        if block and line == ")":
            block = ""
            continue
        if m := (not block and re.fullmatch(r"(\w+)\s*\(", line)):
            block = m[1]
            continue
        words = [w.strip('"`') for w in line.split()]
        verb, fields = (block, words) if block else (words[0] if words else "", words[1:])
        if not fields:
            continue
        if verb == "require":
            if len(fields) != 2 or not fields[1].startswith("v"):
                raise ValueError(f"bad require: {raw!r}")
            if not re.match(r"\s*indirect\b", comment):
                requires.append((fields[0], fields[1]))
        elif verb == "replace":
            old, new = _split_replace(fields, raw)
            replaces[old] = new
    if block:
        raise ValueError(f"unclosed {block} block")
    deps = []
    for module, version in requires:
        target = replaces.get((module, version)) or replaces.get((module, ""))
        if target and not target[1]:
            continue  # a local directory: its code is in the tree, not a dependency
        module, version = target or (module, version)
        deps.append(_Dep("go", module, version, version))
    return deps


def _split_replace(fields: list[str], raw: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """`old [v] => new [v]` as ((old, v or ""), (new, v)); (path, "") for a local directory."""
    if "=>" not in fields:
        raise ValueError(f"bad replace: {raw!r}")
    i = fields.index("=>")
    old, new = fields[:i], fields[i + 1:]
    if len(old) not in (1, 2) or len(new) not in (1, 2):
        raise ValueError(f"bad replace: {raw!r}")
    local = new[0].startswith(("./", "../", "/")) or new[0] in (".", "..")
    if not local and len(new) != 2:
        raise ValueError(f"replace to a module without a version: {raw!r}")
    return (old[0], old[1] if len(old) == 2 else ""), (new[0], "" if local else new[1])


# --- pypi ---------------------------------------------------------------------------------------

_PEP508 = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*)",
                     re.S)


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement(text: str) -> tuple[str, str] | None:
    """(normalized name, specifier) of a PEP 508 string, markers dropped; None for a direct URL
    reference (`name @ url`) or what is no requirement."""
    m = _PEP508.fullmatch(text.split(";", 1)[0])
    if not m or (m[2] and m[2][0] not in "<>=!~("):
        return None
    return _norm(m[1]), m[2].strip().strip("()").strip()


def _pep440_exact(spec: str) -> str:
    m = re.fullmatch(r"===?\s*([^\s,;*]+)", spec.strip())
    return m[1] if m else ""


def _poetry_exact(spec: str) -> str:
    """Poetry reads a bare version as `==` (`"1.2.3"`)."""
    m = re.fullmatch(r"=?\s*(\d[^\s,;*^~<>=!|]*)", spec.strip())
    return m[1] if m else _pep440_exact(spec)


def _pep508_deps(strings: list[str], own: str = "") -> list[_Dep]:
    deps = []
    for s in strings:
        req = _requirement(s)
        if req and req[0] != own:  # `own[extra]` reuses the project's own extras
            deps.append(_Dep("pypi", req[0], req[1], _pep440_exact(req[1])))
    return deps


def _requirements(text: str) -> list[_Dep]:
    """A pip requirements file; options, includes (-r, -c), editables, paths and URLs skipped."""
    reqs = []
    for line in re.sub(r"\\\r?\n", " ", text).splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        line = re.split(r"\s+--?[A-Za-z]", line, maxsplit=1)[0]  # per-line options (--hash=...)
        if (line and not line.startswith("-") and "://" not in line
                and not line.endswith((".whl", ".zip", ".tar.gz", ".tgz"))):
            reqs.append(line)
    return _pep508_deps(reqs)


def _table(doc: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise TypeError(f"{key} is not a table")
    return value


def _strings(value: object) -> list[str]:
    """A list of requirement strings (PEP 735 `{include-group = ...}` entries skipped)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError("not a list")
    return [v for v in value if isinstance(v, str)]


def _toml_deps(table: Mapping[str, Any], exact: Callable[[str], str]) -> list[_Dep]:
    """A Poetry or Pipfile dependency table: `name = "spec"` or `name = {version = ...}`; path,
    git and URL sources skipped, `python` too (the interpreter, no package)."""
    deps = []
    for name, value in table.items():
        if name.lower() == "python":
            continue
        if isinstance(value, dict):
            if value.keys() & {"path", "git", "url", "file"}:
                continue
            value = value.get("version", "")
        spec = value if isinstance(value, str) else ""  # a list: several constraints by marker
        spec = "" if spec.strip() == "*" else spec.strip()
        deps.append(_Dep("pypi", _norm(name), spec, exact(spec)))
    return deps


def _pyproject(text: str) -> list[_Dep]:
    """PEP 621 `[project]` (with optional dependencies), PEP 735 groups and Poetry's tables."""
    doc = tomllib.loads(text)
    project = _table(doc, "project")
    strings = _strings(project.get("dependencies"))
    for group in [*_table(project, "optional-dependencies").values(),
                  *_table(doc, "dependency-groups").values()]:
        strings += _strings(group)
    deps = _pep508_deps(strings, _norm(str(project.get("name", ""))))
    poetry = _table(_table(doc, "tool"), "poetry")
    tables = [_table(poetry, "dependencies"), _table(poetry, "dev-dependencies"),
              *(_table(g, "dependencies") for g in _table(poetry, "group").values())]
    for table in tables:
        deps += _toml_deps(table, _poetry_exact)
    return deps


def _pipfile(text: str) -> list[_Dep]:
    doc = tomllib.loads(text)
    return [*_toml_deps(_table(doc, "packages"), _pep440_exact),
            *_toml_deps(_table(doc, "dev-packages"), _pep440_exact)]


def _toml_lock(text: str) -> _Lock:
    """poetry.lock, uv.lock and pdm.lock share `[[package]] name = ..., version = ...`."""
    lock: _Lock = {}
    for package in tomllib.loads(text).get("package", []):
        if isinstance(package.get("version"), str):
            _add(lock, "", _norm(package["name"]), "", package["version"])
    return lock


def _pipfile_lock(text: str) -> _Lock:
    doc = json.loads(text)
    lock: _Lock = {}
    for section in ("default", "develop"):
        for name, entry in _table(doc, section).items():
            version = entry.get("version", "")  # a git or path entry has none
            if version.startswith("=="):
                _add(lock, "", _norm(name), "", version[2:])
    return lock


# --- npm ----------------------------------------------------------------------------------------

_NPM_SECTIONS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
_NPM_NAME = re.compile(r"(@[^/@\s]+/)?[^/@\s:]+")


def _npm_registry(spec: str) -> bool:
    """Whether a package.json value names a registry version (not a path, link, git or URL)."""
    if spec.startswith(("file:", "link:", "workspace:", "portal:", "git", "http", ".", "/", "~/")):
        return False
    return "/" not in spec or spec.startswith("npm:")  # `owner/repo` is GitHub shorthand


def _alias(spec: str) -> tuple[str, str]:
    """(package, range) of an npm alias's target (`zod@~3.24.0`, `@scope/x@^1`); ("", "")
    for a plain range."""
    at = spec.find("@", 1)
    head = spec[:at] if at > 0 else ""
    if not head or not re.fullmatch(r"(@[\w.-]+/)?[\w.-]+", head):
        return "", ""
    return head, spec[at + 1:].strip()


def _package_json(text: str) -> list[_Dep]:
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise TypeError("package.json is not an object")
    deps = []
    for section in _NPM_SECTIONS:
        for name, spec in _table(doc, section).items():
            if not isinstance(spec, str):
                raise TypeError(f"{section}.{name} is not a string")
            spec = spec.strip()
            if _npm_registry(spec):
                spec = spec.removeprefix("npm:")  # as yarn berry's headers key it, stripped
                real, wanted = _alias(spec)
                m = re.fullmatch(r"=?v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)",
                                 wanted if real else spec)
                deps.append(_Dep("npm", name, spec, m[1] if m else "", real, wanted))
    return deps


def _package_lock(text: str) -> _Lock:
    """package-lock.json / npm-shrinkwrap.json: v2/v3 `packages`, else v1 `dependencies`."""
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise TypeError("lockfile is not an object")
    lock: _Lock = {}
    if "packages" in doc:
        for key, entry in _table(doc, "packages").items():
            importer, sep, name = key.rpartition("node_modules/")
            version = entry.get("version", "")
            # a nested node_modules/a/node_modules/b is a's own copy, not the importer's
            if sep and "node_modules/" not in importer and version[:1].isdigit():
                _add(lock, importer.rstrip("/"), name, "", version)
    else:
        for name, entry in _table(doc, "dependencies").items():
            if str(entry.get("version", ""))[:1].isdigit():  # v1 writes git deps as URLs
                _add(lock, "", name, "", entry["version"])
    return lock


def _yarn_spec(text: str) -> tuple[str, str] | None:
    """`name@range` of a yarn.lock header as (name, range), berry's `npm:` dropped."""
    text = text.strip().strip('"')
    at = text.find("@", 1)
    if at < 0 or not _NPM_NAME.fullmatch(text[:at]):
        return None
    return text[:at], text[at + 1:].removeprefix("npm:")


def _yarn_lock(text: str) -> _Lock:
    """yarn.lock, v1 (`version "1.2.3"`) and berry (`version: 1.2.3`), keyed by the specifiers
    each entry's header lists."""
    lock: _Lock = {}
    specs: list[tuple[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            if not line.endswith(":"):
                raise ValueError(f"not a yarn.lock entry header: {line!r}")
            specs = [s for s in map(_yarn_spec, line[:-1].split(",")) if s]
        elif m := re.fullmatch(r'  version:? +"?([^"\s]+)"?\s*', line):
            for name, spec in specs:
                _add(lock, "", name, spec, m[1])
    return lock


def _yaml_pair(line: str) -> tuple[str, str] | None:
    """`key: value` or `key:` of one stripped YAML line, quotes dropped; None for anything else."""
    m = re.fullmatch(r"""(?:'([^']*)'|"([^"]*)"|([^'"\s-][^:]*?))\s*:(?:\s+(.*))?""", line)
    if not m:
        return None
    return m[1] or m[2] or m[3] or "", (m[4] or "").strip().strip("'\"")


def _pnpm_lock(text: str) -> _Lock:
    """pnpm-lock.yaml, read by indentation (no YAML library): the importers' (or v5's top-level)
    dependency sections, `name: 1.2.3_peer` (v5) or `name: {version: 1.2.3(peer)}` (v6, v9)."""
    lock: _Lock = {}
    stack: list[tuple[int, str]] = []
    versioned = False
    for raw in text.splitlines():
        pair = _yaml_pair(raw.strip())
        if pair is None or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, pair[0]))
        keys = [k for _, k in stack]
        versioned = versioned or keys == ["lockfileVersion"]
        workspace = keys[0] == "importers" and len(keys) > 1
        importer, rest = (keys[1], keys[2:]) if workspace else (".", keys)
        if (rest and rest[0] in _NPM_SECTIONS and pair[1]
                and (len(rest) == 2 or (len(rest) == 3 and rest[2] == "version"))):
            version = re.split(r"[_(]", pair[1], maxsplit=1)[0]
            if version[:1].isdigit():  # not `link:../b`
                _add(lock, "" if importer == "." else importer, rest[1], "", version)
    if not versioned:
        raise ValueError("no lockfileVersion: not a pnpm lockfile")
    return lock


# --- maven --------------------------------------------------------------------------------------

def _pom(text: str) -> list[_Dep]:
    """pom.xml's own `<dependencies>`, properties substituted, versions completed from its own
    `<dependencyManagement>` (a parent pom's is not read: it may not be in the tree)."""
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.I):
        raise ValueError("DTDs are refused (entity expansion)")
    root = ET.fromstring(text)
    for el in root.iter():
        el.tag = el.tag.rpartition("}")[2]  # the maven namespace, or none
    if root.tag != "project":
        raise ValueError("not a maven project")

    def child(el: ET.Element, path: str) -> str:
        found = el.find(path)
        return (found.text or "").strip() if found is not None else ""

    props = {p.tag: (p.text or "").strip() for p in root.findall("properties/*")}
    props["project.parent.version"] = child(root, "parent/version")
    props["project.version"] = child(root, "version") or props["project.parent.version"]
    props["project.groupId"] = child(root, "groupId") or child(root, "parent/groupId")

    def subst(s: str) -> str:
        for _ in range(10):  # properties may name properties; bounded against blow-up
            new = re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m[1], m[0]), s)
            if new == s or len(new) > 1000:
                break
            s = new
        return s

    def coords(dep: ET.Element) -> tuple[str, str]:
        """(`group:artifact`, or "" if either is missing or unresolved; version)."""
        group, artifact = subst(child(dep, "groupId")), subst(child(dep, "artifactId"))
        ok = group and artifact and "${" not in group + artifact
        return (f"{group}:{artifact}" if ok else ""), subst(child(dep, "version"))

    managed = dict(map(coords, root.findall("dependencyManagement/dependencies/dependency")))
    deps = []
    for dep in root.findall("dependencies/dependency"):
        name, version = coords(dep)
        if not name or child(dep, "scope") in ("system", "import"):
            continue
        version = version or managed.get(name, "")
        if "${" in version or version[:1] in "[(":
            version = ""  # unresolved here, or a range
        deps.append(_Dep("maven", name, version, version))
    return deps


_MANIFEST_PARSERS: dict[str, Callable[[str], list[_Dep]]] = {
    "go.mod": _go_mod, "requirements.txt": _requirements, "pyproject.toml": _pyproject,
    "Pipfile": _pipfile, "package.json": _package_json, "pom.xml": _pom,
}
_LOCK_PARSERS: dict[str, Callable[[str], _Lock]] = {
    "poetry.lock": _toml_lock, "uv.lock": _toml_lock, "pdm.lock": _toml_lock,
    "Pipfile.lock": _pipfile_lock, "package-lock.json": _package_lock,
    "npm-shrinkwrap.json": _package_lock, "yarn.lock": _yarn_lock, "pnpm-lock.yaml": _pnpm_lock,
}
# A manifest -> the lockfiles that pin it, preferred first (requirements files pin themselves).
_LOCKS_OF: dict[str, tuple[str, ...]] = {
    "pyproject.toml": ("poetry.lock", "uv.lock", "pdm.lock"),
    "Pipfile": ("Pipfile.lock",),
    "package.json": ("npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock"),
}
