"""Benchmark configs (TOML) and their validation.

Every error names the file and the dotted key, so a user can fix a config without reading code.
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
from determinacy.git import check_transport

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
    fail_to_pass: str
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


class Config(_Base, kw_only=True):
    name: Annotated[str, msgspec.Meta(pattern=_NAME)]
    description: str = ""
    # Exit 0 even when some cases are ERROR (like `run --allow-errors`): for a benchmark whose
    # broken rows are known and reported anyway.
    allow_errors: bool = False
    source: SourceCfg
    fields: FieldsCfg
    codebase: CodebaseCfg = CodebaseCfg()
    policy: PolicyCfg = PolicyCfg()
    agent: AgentCfg = AgentCfg()
    # Where the store is, relative to the config's folder (so a run from another folder finds
    # it, mirrors and all); "" means ./store. --store and DETERMINACY_STORE come first.
    store: str = ""
    # Folder of the config file: relative paths in it resolve from there. Set by load_config.
    root: str = "."
    # The config file itself, for error messages. Set by load_config.
    file: str = ""

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


def mapped_fields(f: FieldsCfg) -> list[tuple[str, str]]:
    """(config key under `fields`, column or dotted path) of every field a task is read from."""
    keys = ["instance_id", "repo", "base_commit", "gold_patch", "test_patch", "fail_to_pass"]
    out = [(k, str(getattr(f, k))) for k in keys]
    if f.pass_to_pass is not None:
        out.append(("pass_to_pass", f.pass_to_pass))
    if f.images is not None:
        out.append(("images", f.images))
    return (out + [(f"prose[{i}]", name) for i, name in enumerate(f.prose)]
            + [(f"keep[{i}]", name) for i, name in enumerate(f.keep)])


def argv(command: list[str] | str) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


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


def load_config(path: str | Path) -> Config:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(path, "", "config file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(path, "", f"not valid TOML: {e}") from None
    for key in ("root", "file"):
        if key in raw:
            raise ConfigError(path, key, "unknown key")
    if isinstance(raw.get("source"), dict) and "git" in raw["source"]:
        # A history row has fixed columns: [fields] may be left out.
        raw.setdefault("fields", dict(HISTORY_FIELDS))
    try:
        cfg = msgspec.convert(raw, Config)
    except msgspec.ValidationError as e:
        key, what = _key_of(str(e))
        raise ConfigError(path, key, what) from None
    if len(cfg.name) > MAX_NAME:
        raise ConfigError(path, "name", f"{len(cfg.name)} characters: at most {MAX_NAME} (it "
                          "names folders and files of the store and runs/)")
    if not re.fullmatch(_NAME[1:-1], cfg.name):
        raise ConfigError(path, "name", f"{cfg.name!r} is not a safe name (letters, digits and "
                          "._- only, starting with a letter or digit); it names folders")
    for key, column in mapped_fields(cfg.fields):
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
