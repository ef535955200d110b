"""Benchmark configs (TOML) and their validation.

Every error names the file and the dotted key, so a user can fix a config without reading code.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path
from typing import Annotated, Literal

import msgspec

from determinacy.errors import ConfigError

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

_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"


class _Base(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


class SourceCfg(_Base, kw_only=True):
    jsonl: str | None = None
    parquet: str | None = None
    hf_dataset: str | None = None
    split: str = "test"
    revision: str | None = None


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


class CodebaseCfg(_Base, kw_only=True):
    clone_url: str = "https://github.com/{owner}/{name}.git"
    # A local mirror (bare repository, clone or git bundle). A folder is searched in place;
    # a bundle is cloned into the store. Used instead of the network when it exists.
    mirror: str | None = None


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
    timeout: Annotated[float, msgspec.Meta(gt=0)] = 600.0
    # Longer patches or prose are shortened in prompts; the receipt says so.
    max_chars: Annotated[int, msgspec.Meta(ge=1000)] = 60000


class PolicyCfg(_Base, kw_only=True):
    absence: Literal["strict", "lenient"] = "strict"
    test_paths: list[str] = msgspec.field(default_factory=lambda: list(DEFAULT_TEST_PATHS))
    min_length: Annotated[int, msgspec.Meta(ge=1)] = 3
    # Besides test paths, paths that are not live code (for codebase precedents).
    dead_paths: list[str] = msgspec.field(default_factory=lambda: list(DEFAULT_DEAD_PATHS))


class Config(_Base, kw_only=True):
    name: Annotated[str, msgspec.Meta(pattern=_NAME)]
    description: str = ""
    source: SourceCfg
    fields: FieldsCfg
    codebase: CodebaseCfg = CodebaseCfg()
    policy: PolicyCfg = PolicyCfg()
    agent: AgentCfg = AgentCfg()
    # Folder of the config file: relative paths in it resolve from there. Set by load_config.
    root: str = "."

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
    if "root" in raw:
        raise ConfigError(path, "root", "unknown key")
    try:
        cfg = msgspec.convert(raw, Config)
    except msgspec.ValidationError as e:
        key, what = _key_of(str(e))
        raise ConfigError(path, key, what) from None
    sources = [k for k in ("jsonl", "parquet", "hf_dataset") if getattr(cfg.source, k)]
    if len(sources) != 1:
        raise ConfigError(
            path, "source", f"give exactly one of jsonl, parquet, hf_dataset (found {sources})"
        )
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
            template.format(owner="o", name="n")
        except (KeyError, IndexError, ValueError) as e:
            raise ConfigError(path, key, f"template may use only {{owner}} and {{name}} ({e})") \
                from None
    return msgspec.structs.replace(cfg, root=str(path.resolve().parent))


def config_digest(cfg: Config) -> str:
    """Hash of what the config says (not where it lives), for the report."""
    from determinacy.store import digest

    return digest(msgspec.json.encode(msgspec.structs.replace(cfg, root="."), order="sorted"))
