"""Benchmark configs (TOML) and their validation.

Every error names the file and the dotted key, and what is valid there (the keys of its table,
the choices of its value), so a user can fix a config without reading code.
"""

from __future__ import annotations

import re
import shlex
import string
import tomllib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from determinacy.errors import ConfigError
from determinacy.git import check_transport, git_dir_of

# Test code, by git glob pathspec semantics ("**/" matches any leading folders, "*" stays within
# one path component). Used to keep test files out of the gold side and, under the lenient
# absence policy, out of the codebase search.
DEFAULT_TEST_PATHS: tuple[str, ...] = (
    "**/test/**",
    "**/tests/**",
    "**/testing/**",
    "**/__tests__/**",
    "**/__mocks__/**",
    "**/testdata/**",
    "**/test_data/**",
    "**/fixtures/**",
    "**/spec/**",
    "**/test_*.py",
    "**/*_test.py",
    "**/conftest.py",
    "**/*_test.go",
    "**/*.test.[jt]s",
    "**/*.spec.[jt]s",
    "**/*.test.[jt]sx",
    "**/*.spec.[jt]sx",
    "**/*_spec.rb",
    "**/*Test.java",
    "**/*Tests.java",
)

# Kept JSON-Schema friendly (`$`) for msgspec; `$` also matches before a final newline, so
# load_config checks the whole name again with fullmatch: the name becomes a folder name.
_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
# A column name or a dotted path into nested fields: no empty part.
_FIELD_PATH = re.compile(r"[^.]+(?:\.[^.]+)*")
# The largest patch read (bytes of UTF-8). Parsing and lexing cost about 8 s and 85 MB of memory
# per MB of one big hunk; the largest real patches seen are ~0.3 MB.
DEFAULT_MAX_PATCH_BYTES = 16_000_000
MAX_NAME = 100  # characters of a benchmark's name (room for `.sqlite` and the like)
WEEK = 7 * 24 * 3600.0  # the longest timeout a config may ask for (seconds)


class _Base(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


# The history source's heuristics: which commits of the walk are candidates.
Heuristic = Literal["tests+sources", "conventional", "scope"]
HEURISTICS: tuple[Heuristic, ...] = ("tests+sources", "conventional", "scope")
# A loose `scope: summary` subject (`browser: fix a crash`, `docs/api: ...`).
DEFAULT_SCOPE_PATTERN = r"^[\w.][\w./-]{0,39}: \S"


class SourceCfg(_Base, kw_only=True):
    jsonl: str | None = None
    parquet: str | None = None
    csv: str | None = None
    hf_dataset: str | None = None
    split: str = "test"
    revision: str | None = None
    # Hugging Face: the dataset's config (the hub's "subset"), and glob patterns of the files
    # to read instead of the hub's usual layout for `split` (`["go/*.jsonl"]`).
    subset: str | None = None
    data_files: list[str] = msgspec.field(default_factory=list)
    # A repository's own history: a git directory, a clone or a bundle.
    git: str | None = None
    range: str = "HEAD"  # revisions as `git rev-list` takes them: "v1.0..main", "main"
    max_commits: Annotated[int, msgspec.Meta(ge=1)] | None = None  # the newest N walked
    # Glob pathspecs the walked commits must touch ("!glob" leaves paths out).
    paths: list[str] = msgspec.field(default_factory=list)
    repo: str | None = None  # owner/name the mined tasks are of
    issues: str | None = None  # a jsonl export of issues: {"number", "title", "body"}
    heuristics: list[Heuristic] = msgspec.field(default_factory=lambda: list(HEURISTICS))
    scope_pattern: str = DEFAULT_SCOPE_PATTERN  # the loose `scope: summary` heuristic


class FieldsCfg(_Base, kw_only=True):
    instance_id: str
    repo: str
    base_commit: str
    gold_patch: str
    test_patch: str
    # One column, or several whose test ids are united (in order, each id once): Multi-SWE-bench
    # grades f2p_tests, s2p_tests and n2p_tests alike.
    fail_to_pass: str | Annotated[list[str], msgspec.Meta(min_length=1)]
    pass_to_pass: str | None = None
    prose: Annotated[list[str], msgspec.Meta(min_length=1)] = msgspec.field(
        default_factory=lambda: ["problem_statement"]
    )
    # Images the solver is shown (a list of links, or a mapping from a text's column to its
    # links, or either as JSON text): the text checks cannot read them, so each such case is
    # flagged. Links written in the prose itself are flagged without this.
    images: str | None = None
    # Columns kept for SQL as they are (the tasks table's `kept`, a JSON object).
    keep: list[str] = msgspec.field(default_factory=list)


# The columns of a row the history source mines from a commit: what [fields] maps when a
# config with `source.git` has no [fields] table.
HISTORY_FIELDS = {"instance_id": "instance_id", "repo": "repo", "base_commit": "base_commit",
                  "gold_patch": "patch", "test_patch": "test_patch",
                  "fail_to_pass": "FAIL_TO_PASS", "prose": ["problem_statement"]}


# The standard libraries `[codebase] stdlib_paths` may name (codebase/stdlib.py reads them).
STDLIB_FAMILIES = ("c", "ecma", "go", "java", "php", "python", "ruby", "rust")


class CodebaseCfg(_Base, kw_only=True):
    clone_url: str = "https://github.com/{owner}/{name}.git"
    # A local mirror (bare repository, clone or git bundle). A folder is searched in place and
    # never written to or fetched into; a bundle is cloned into the store.
    mirror: str | None = None
    # A configured mirror that does not exist is an error, unless this allows cloning instead.
    fallback_clone: bool = False
    # Seconds for one clone or fetch (a week at most: `inf` would overflow every wait).
    timeout: Annotated[float, msgspec.Meta(gt=0, le=WEEK)] = 1800.0
    # Absence also holds over the trees of this many first-parent commits before base (what
    # `git log` shows a solver; 0: the tree at base only).
    history: Annotated[int, msgspec.Meta(ge=0)] = 10
    # Absence also holds over the standard library of each language the case is in, read
    # from sources on disk. "auto": where they are found (the running Python's, the JDK's
    # src.zip, GOROOT, ...); "require": a case whose standard library is not found is
    # partial (or an ERROR, under policy unreadable = "error"); "off".
    stdlib: Literal["auto", "require", "off"] = "auto"
    # A language's standard-library sources: a folder or a zip (python, go, java, ecma, rust,
    # c, php, ruby). Takes the place of what "auto" would find.
    stdlib_paths: dict[str, str] = msgspec.field(default_factory=dict)
    # Absence also holds over the direct dependencies the manifests at base declare, at the
    # versions their lockfiles pin, their sources fetched once per (package, version) into the
    # store from the registry named for their ecosystem: pypi (a simple index), npm (a
    # registry, or a folder of `npm pack` tarballs), go (a GOPROXY), maven (a repository
    # root); a URL (https://, file://) or a folder. An ecosystem named nowhere is not read.
    dependencies: dict[str, str] = msgspec.field(default_factory=dict)
    # Submodules read from local mirrors (never fetched by the tool): a key names a submodule by
    # its path in the repository ("vendor/lib"), by "owner/name:path" for one repository of
    # several, or by the URL its .gitmodules gives; the value is a local mirror (a bare
    # repository or a clone) holding the commit the gitlink names. An unmapped submodule is an
    # unread part of the tree (see policy.unreadable).
    submodules: dict[str, str] = msgspec.field(default_factory=dict)


# The ecosystems `[codebase.dependencies]` may name (codebase/dependencies reads them).
ECOSYSTEMS = ("go", "maven", "npm", "pypi")


# Not live code: a precedent found here says nothing about how the codebase decides.
DEFAULT_DEAD_PATHS: tuple[str, ...] = (
    "**/vendor/**",
    "**/third_party/**",
    "**/node_modules/**",
    "**/example/**",
    "**/examples/**",
    "**/deprecated/**",
)


class AgentCfg(_Base, kw_only=True):
    # argv of a CLI that reads the prompt on stdin and prints its answer (a shell-like string
    # is split with shlex, never run through a shell).
    command: list[str] | str = msgspec.field(default_factory=list)
    refuter: list[str] | str = msgspec.field(default_factory=list)  # default: the agent
    timeout: Annotated[float, msgspec.Meta(gt=0, le=WEEK)] = 600.0  # seconds per call
    # Longer patches or prose are shortened in prompts; the receipt says so.
    max_chars: Annotated[int, msgspec.Meta(ge=1000)] = 60000


class PolicyCfg(_Base, kw_only=True):
    absence: Literal["strict", "lenient"] = "strict"
    # A blob or submodule that cannot be read makes absence unknown. "error": the case is an
    # ERROR (incomplete tree). "exclude": certify over the readable part; every such claim
    # names the unread paths and is counted apart (AIRTIGHT-PARTIAL).
    unreadable: Literal["error", "exclude"] = "error"
    test_paths: list[str] = msgspec.field(default_factory=lambda: list(DEFAULT_TEST_PATHS))
    min_length: Annotated[int, msgspec.Meta(ge=1)] = 3
    # Besides test paths, paths that are not live code (for codebase precedents).
    dead_paths: list[str] = msgspec.field(default_factory=lambda: list(DEFAULT_DEAD_PATHS))
    # A longer gold or test patch is an ERROR row, not minutes of parsing and gigabytes.
    max_patch_bytes: Annotated[int, msgspec.Meta(ge=1)] = DEFAULT_MAX_PATCH_BYTES


class ValidityCfg(_Base, kw_only=True):
    """The pre-screens' inputs (determinacy/prescreens)."""

    # The benchmark harness's runs of the gold patch: report files or folders, in any format
    # `determinacy score` reads (a SWE-bench harness report or its logs, SWE-bench Pro's
    # eval_results.json, a jsonl of {instance_id, resolved}).
    gold_runs: list[str] = msgspec.field(default_factory=list)
    # A gold added line at least this long (whitespace normalized) found in the prose leaks.
    leak_min_chars: Annotated[int, msgspec.Meta(ge=8)] = 30


class Config(_Base, kw_only=True):
    name: Annotated[str, msgspec.Meta(pattern=_NAME)]
    description: str = ""
    # Exit 0 even when some cases are ERROR (like `run --allow-errors`): for a benchmark whose
    # broken rows are known and reported anyway.
    allow_errors: bool = False
    source: SourceCfg
    # None: no [fields] table; the default mapping of a known layout (sources/layouts.py) is
    # detected from the columns of the rows read (sources.rows.with_fields), named in `layout`.
    fields: FieldsCfg | None = None
    codebase: CodebaseCfg = CodebaseCfg()
    policy: PolicyCfg = PolicyCfg()
    agent: AgentCfg = AgentCfg()
    validity: ValidityCfg = ValidityCfg()
    # Where the store is, relative to the config's folder (so a run from another folder finds
    # it, mirrors and all); "" means ./store. --store and DETERMINACY_STORE come first.
    store: str = ""
    # Folder of the config file: relative paths in it resolve from there. Set by load_config.
    root: str = "."
    # The config file itself, for error messages. Set by load_config.
    file: str = ""
    # The layout whose default mapping `fields` is, when the config has no [fields] table.
    layout: str = ""

    def store_dir(self) -> Path:
        return self.resolve(self.store) if self.store else Path("store")

    def resolve(self, path: str) -> Path:
        p = Path(path).expanduser()
        return p if p.is_absolute() else Path(self.root) / p

    def mirror_path(self, repo: str) -> Path | None:
        if not self.codebase.mirror:
            return None
        owner, name = split_repo(repo)
        return self.resolve(self.codebase.mirror.format(owner=owner, name=name))

    def clone_url(self, repo: str) -> str:
        owner, name = split_repo(repo)
        return self.codebase.clone_url.format(owner=owner, name=name)

    def submodule_mirror(self, repo: str, path: str, url: str) -> tuple[str, Path] | None:
        """The `[codebase] submodules` entry (key, mirror folder) for the submodule of `repo`
        at `path` whose .gitmodules URL is `url` ("" when unknown): `owner/name:path` first,
        then the path, then the URL (compared without a trailing `/` or `.git`)."""
        subs = self.codebase.submodules
        for key in (f"{repo}:{path}", path):
            if key in subs:
                return key, self.resolve(subs[key])
        if url:
            want = same_url(url)
            for key, where in sorted(subs.items()):
                if submodule_key_kind(key) == "url" and same_url(key) == want:
                    return key, self.resolve(where)
        return None

    def submodule_keys(self, repo: str) -> list[str]:
        """The `[codebase] submodules` keys that may apply to `repo`'s submodules."""
        return sorted(k for k in self.codebase.submodules
                      if submodule_key_kind(k) != "repo path" or k.startswith(f"{repo}:"))


def mapped_fields(f: FieldsCfg) -> list[tuple[str, str]]:
    """(config key under `fields`, column or dotted path) of every field a task is read from."""
    keys = ["instance_id", "repo", "base_commit", "gold_patch", "test_patch"]
    out = [(k, str(getattr(f, k))) for k in keys]
    out += ([("fail_to_pass", f.fail_to_pass)] if isinstance(f.fail_to_pass, str)
            else [(f"fail_to_pass[{i}]", c) for i, c in enumerate(f.fail_to_pass)])
    if f.pass_to_pass is not None:
        out.append(("pass_to_pass", f.pass_to_pass))
    if f.images is not None:
        out.append(("images", f.images))
    return (out + [(f"prose[{i}]", name) for i, name in enumerate(f.prose)]
            + [(f"keep[{i}]", name) for i, name in enumerate(f.keep)])


def argv(command: list[str] | str) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


def submodule_key_kind(key: str) -> str:
    """What a `[codebase] submodules` key names: a "url" (`scheme://...`, scp-like
    `user@host:path`, or an absolute local path), a "repo path" (`owner/name:path`) or a
    "path"."""
    if "://" in key or key.startswith("/") or re.match(r"^[^/:@]+@[^/:]+:", key):
        return "url"
    return "repo path" if ":" in key else "path"


def same_url(url: str) -> str:
    """A submodule URL as keys are compared: no trailing `/` or `.git`, a `file://` URL as
    its path."""
    url = url.strip().removeprefix("file://").rstrip("/")
    return url[:-4] if url.endswith(".git") else url


def split_repo(repo: str) -> tuple[str, str]:
    owner, _, name = repo.partition("/")
    return owner, name


_MSGSPEC_PATH = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`")


def _key_of(message: str) -> tuple[str, str]:
    """Turn msgspec's `... - at `$.a.b`` into ("a.b", "...")."""
    m = _MSGSPEC_PATH.search(message)
    path = m.group("path") if m else ""
    text = message[: m.start()] if m else message
    key = re.sub(r"\[(\d+)\]", r"[\1]", path).lstrip(".")
    for pattern, what in ((_MISSING, "missing required key"), (_UNKNOWN, "unknown key")):
        fm = pattern.match(text)
        if fm:
            key = f"{key}.{fm.group('field')}" if key else fm.group("field")
            return key, what
    return key, text


# Keys load_config sets itself: never written in a config.
_SET_BY_LOAD = ("root", "file", "layout")


def _type_at(key: str) -> msgspec.inspect.Type | None:
    """The type a dotted config key (`policy.absence`, `source.heuristics[0]`) holds."""
    mi = msgspec.inspect
    t: mi.Type = mi.type_info(Config)
    for part in re.sub(r"\[\d+\]", ".[]", key).split(".") if key else []:
        step: mi.Type | None = None
        # Of a union (`X | None`, `str | list[str]`), the member this step goes into.
        for u in t.types if isinstance(t, mi.UnionType) else (t,):
            if part == "[]" and isinstance(u, mi.ListType):
                step = u.item_type
            elif part != "[]" and isinstance(u, mi.DictType):
                step = u.value_type
            elif isinstance(u, mi.StructType):
                step = next((f.type for f in u.fields if f.name == part), None)
            if step is not None:
                break
        if step is None:
            return None
        t = step
    return t


def _valid_keys(table: str) -> str:
    """`[policy] takes: absence, ...`: the keys of the table a key is in."""
    t = _type_at(table)
    while isinstance(t, msgspec.inspect.UnionType):
        t = next((u for u in t.types if isinstance(u, msgspec.inspect.StructType)), None)
    if not isinstance(t, msgspec.inspect.StructType):
        return "see README: the config"
    names = [f.name for f in t.fields if table or f.name not in _SET_BY_LOAD]
    return f"{f'[{table}]' if table else 'the top level'} takes: {', '.join(names)}"


def _explained(key: str, what: str) -> str:
    """msgspec's message, with what the key may be: the valid keys of its table for an unknown
    one, the choices for a value that is not one of them."""
    if what == "unknown key":
        return f"unknown key; {_valid_keys(key.rpartition('.')[0])}"
    if what == "missing required key" and key.startswith("fields."):
        return (f"{what} (or leave the whole [fields] table out: SWE-bench's and SWE-bench "
                "Pro's columns are mapped by default)")
    t = _type_at(key)
    choices = [v for u in (t.types if isinstance(t, msgspec.inspect.UnionType) else (t,))
               if isinstance(u, msgspec.inspect.LiteralType) for v in u.values]
    if choices and what.startswith("Invalid enum value"):
        return f"{what}; one of: {', '.join(repr(c) for c in choices)}"
    return what


def dataset_config(dataset: str, split: str = "test", revision: str | None = None) -> Config:
    """The config of `run --dataset NAME --split S`: a Hugging Face dataset read with the
    default mapping its columns match, the store and runs in the current folder. Its name is
    the dataset's (`SWE-bench_Pro`), with the split unless that is `test` (`SWE-Gym-train`)."""
    where = f"--dataset {dataset}"
    if not _REPO_NAME.fullmatch(dataset) or ".." in dataset.split("/"):
        raise ConfigError(where, "source.hf_dataset", f"{dataset!r} is not a Hugging Face "
                          "dataset id (owner/name)")
    if not split or not re.fullmatch(r"[A-Za-z0-9_.-]+", split):
        raise ConfigError(where, "source.split", f"{split!r} is not a split name")
    stem = dataset.split("/", 1)[1]
    name = re.sub(r"[^A-Za-z0-9._-]", "-", stem if split == "test" else f"{stem}-{split}")
    name = name.lstrip("._-")[:MAX_NAME] or "dataset"
    return Config(name=name, description=f"Hugging Face dataset {dataset}, split {split}.",
                  source=SourceCfg(hf_dataset=dataset, split=split, revision=revision),
                  root=str(Path.cwd()), file=where)


def load_config(path: str | Path) -> Config:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(path, "", "config file not found") from None
    except OSError as e:  # a folder, a path through a file, no permission: not "not found"
        raise ConfigError(path, "", f"cannot read the config file: {e.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(path, "", f"not valid TOML: {e}") from None
    for key in _SET_BY_LOAD:
        if key in raw:
            raise ConfigError(path, key, f"unknown key; {_valid_keys('')}")
    if isinstance(raw.get("source"), dict) and "git" in raw["source"]:
        # A history row has fixed columns: [fields] may be left out.
        raw.setdefault("fields", dict(HISTORY_FIELDS))
    try:
        cfg = msgspec.convert(raw, Config)
    except msgspec.ValidationError as e:
        key, what = _key_of(str(e))
        raise ConfigError(path, key, _explained(key, what)) from None
    if len(cfg.name) > MAX_NAME:
        raise ConfigError(path, "name", f"{len(cfg.name)} characters: at most {MAX_NAME} (it "
                          "names folders and files of the store and runs/)")
    if not re.fullmatch(_NAME[1:-1], cfg.name):
        raise ConfigError(path, "name", f"{cfg.name!r} is not a safe name (letters, digits and "
                          "._- only, starting with a letter or digit); it names folders")
    for key, column in mapped_fields(cfg.fields) if cfg.fields is not None else []:
        if not _FIELD_PATH.fullmatch(column):
            raise ConfigError(path, f"fields.{key}",
                              f"{column!r} is not a column name or a dotted path (a.b)")
    sources = [k for k in SOURCE_KINDS if getattr(cfg.source, k)]
    if len(sources) != 1:
        raise ConfigError(
            path, "source", f"give exactly one of {', '.join(SOURCE_KINDS)} (found {sources})"
        )
    cfg = _check_source(path, cfg, raw.get("source", {}))
    # Paths in the config are relative to its folder, also while it is checked.
    cfg = msgspec.structs.replace(cfg, root=str(path.resolve().parent), file=str(path))
    for family, where in cfg.codebase.stdlib_paths.items():
        if family not in STDLIB_FAMILIES:
            raise ConfigError(path, f"codebase.stdlib_paths.{family}", "not a language's "
                              f"standard library (one of {', '.join(STDLIB_FAMILIES)})")
        if not cfg.resolve(where).exists():
            raise ConfigError(path, f"codebase.stdlib_paths.{family}",
                              f"{where!r} does not exist (a folder or a zip of its sources)")
    for ecosystem, where in cfg.codebase.dependencies.items():
        key = f"codebase.dependencies.{ecosystem}"
        if ecosystem not in ECOSYSTEMS:
            raise ConfigError(path, key, f"not an ecosystem (one of {', '.join(ECOSYSTEMS)})")
        if not where.strip():
            raise ConfigError(path, key, "expected a registry URL or a folder")
        if "://" not in where and not cfg.resolve(where).is_dir():
            raise ConfigError(path, key, f"{where!r} is neither a URL nor a folder")
    for sub, where in cfg.codebase.submodules.items():
        _check_submodule(path, cfg, sub, where)
    for i, where in enumerate(cfg.validity.gold_runs):
        if not cfg.resolve(where).exists():
            raise ConfigError(path, f"validity.gold_runs[{i}]",
                              f"{where!r} does not exist (a harness report file or folder)")
    for i, pattern in enumerate(cfg.policy.test_paths):
        if not pattern or "\n" in pattern:
            raise ConfigError(path, f"policy.test_paths[{i}]", "expected a non-empty glob")
    for key, command in (("agent.command", cfg.agent.command),
                         ("agent.refuter", cfg.agent.refuter)):
        try:
            argv(command)
        except ValueError as e:
            raise ConfigError(path, key, f"cannot split the command: {e}") from None
    for key, template in (("codebase.clone_url", cfg.codebase.clone_url),
                          ("codebase.mirror", cfg.codebase.mirror or "")):
        try:
            # Only the bare fields: `{owner.__class__}` or `{name!r:>9}` would make the path
            # from something else than the repository's name.
            fields = [f for _, f, spec, conv in string.Formatter().parse(template)
                      if f is not None and (f not in ("owner", "name") or spec or conv)]
            if fields:
                raise ValueError(f"it has {{{fields[0]}...}}")
            filled = template.format(owner="o", name="n")
        except (KeyError, IndexError, ValueError) as e:
            raise ConfigError(path, key, f"template may use only {{owner}} and {{name}} ({e})") \
                from None
        if (why := check_transport(filled)) is not None:
            raise ConfigError(path, key, why)
        if long := [c for c in filled.split("/") if len(c.encode()) > 255]:
            raise ConfigError(path, key, f"a path component of {len(long[0].encode())} bytes "
                              "(`" + long[0][:40] + "...`): file systems allow 255")
    return cfg


def _check_submodule(path: Path, cfg: Config, sub: str, where: str) -> None:
    key = f"codebase.submodules.{sub}"
    form = ('a submodule\'s path ("vendor/lib"), "owner/name:path", or the URL its '
            ".gitmodules gives")
    kind = submodule_key_kind(sub)
    rel = sub.split(":", 1)[1] if kind == "repo path" else sub
    if kind == "repo path" and not _REPO_NAME.fullmatch(sub.split(":", 1)[0]):
        raise ConfigError(path, key, f"{sub.split(':', 1)[0]!r} is not owner/name: the key is "
                          f"{form}")
    if kind != "url" and (not rel or rel.startswith("/") or rel.endswith("/")
                          or ".." in rel.split("/") or "" in rel.split("/")):
        raise ConfigError(path, key, f"{rel!r} is not a path in the repository (relative, no "
                          f"'..', no trailing '/'): the key is {form}")
    mirror = cfg.resolve(where) if where.strip() else None
    if mirror is None or not mirror.is_dir() or git_dir_of(mirror) is None:
        raise ConfigError(path, key, f"{where!r} is not a local mirror of the submodule (a bare "
                          "repository or a clone, read in place; submodules are never fetched)")


SOURCE_KINDS = ("jsonl", "parquet", "csv", "hf_dataset", "git")
# Keys that only one kind of source reads: given with another, they would be silently ignored.
_ONLY_WITH = {
    "hf_dataset": ("split", "revision", "subset", "data_files"),
    "git": ("range", "max_commits", "paths", "repo", "issues", "heuristics", "scope_pattern"),
}
_REPO_NAME = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


def _check_source(path: Path, cfg: Config, raw: dict[str, object]) -> Config:
    """The keys of [source] that depend on its kind; a git source's mirror defaults to the
    history itself."""
    src = cfg.source
    for kind, keys in _ONLY_WITH.items():
        if getattr(src, kind) is None:
            for key in keys:
                if key in raw:
                    raise ConfigError(path, f"source.{key}", f"is read only with source.{kind}")
    if src.hf_dataset is not None:
        for i, pattern in enumerate(src.data_files):
            if not pattern or pattern.startswith("/") or ".." in pattern.split("/"):
                raise ConfigError(path, f"source.data_files[{i}]",
                                  "expected a glob relative to the dataset's root")
    if src.git is None:
        return cfg
    tokens = src.range.split()
    if not tokens or any(t.startswith("-") for t in tokens):
        raise ConfigError(path, "source.range", f"{src.range!r} is not a revision range "
                          "(revisions such as \"v1.0..main\" or \"main\", no options)")
    for i, spec in enumerate(src.paths):
        # `:` starts git's pathspec magic, after a `!` too (`!:(top)x`): a glob only.
        if not spec.lstrip("!") or "\n" in spec or spec.removeprefix("!").startswith(":"):
            raise ConfigError(path, f"source.paths[{i}]", "expected a glob (\"!glob\" to leave "
                              "paths out)")
    try:
        re.compile(src.scope_pattern)
    except re.error as e:
        raise ConfigError(path, "source.scope_pattern", f"not a regular expression: {e}") \
            from None
    if not src.heuristics:
        raise ConfigError(path, "source.heuristics", f"name at least one of {HEURISTICS}")
    repo = src.repo or f"local/{_repo_stem(path.resolve().parent / src.git)}"
    if not _REPO_NAME.fullmatch(repo) or ".." in repo.split("/"):
        raise ConfigError(path, "source.repo", f"{repo!r} is not of the form owner/name")
    codebase = cfg.codebase
    if codebase.mirror is None:
        # The history is the repository: its commits are the tasks' base commits.
        literal = src.git.replace("{", "{{").replace("}", "}}")
        codebase = msgspec.structs.replace(codebase, mirror=literal)
    return msgspec.structs.replace(cfg, source=msgspec.structs.replace(src, repo=repo),
                                   codebase=codebase)


def _repo_stem(git: Path) -> str:
    """A name for a repository at a path: its folder (or bundle) name without `.git`."""
    name = git.resolve().name
    for suffix in (".bundle", ".git"):
        name = name.removesuffix(suffix)
    return re.sub(r"[^A-Za-z0-9_.-]", "-", name).strip(".") or "repo"


def config_digest(cfg: Config) -> str:
    """Hash of what the config says (not where it lives), for the report."""
    from determinacy.store import digest

    # Where the config and its store live is not what it says.
    return digest(msgspec.json.encode(msgspec.structs.replace(cfg, root=".", file="",
                                                              store=""), order="sorted"))
