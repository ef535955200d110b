"""The commented config `determinacy init DATAFILE` writes from a data file's columns: the
source, the [fields] mapping of the layout the columns match (sources/layouts.py), and every
optional key commented out at its default, with what it does.

The defaults are read from config.py's structs, so the text cannot drift from what a config
without the key means.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

from determinacy.config import (
    DEFAULT_DEAD_PATHS,
    DEFAULT_TEST_PATHS,
    AgentCfg,
    CodebaseCfg,
    FieldsCfg,
    PolicyCfg,
    ValidityCfg,
)
from determinacy.sources import layouts

GOLD_RUNS = '# gold_runs = ["eval_results.json"]'
# A column likely to hold each field, for a file no layout matches (the first one present).
_GUESSES = {
    "instance_id": ("instance_id", "id"),
    "repo": ("repo", "repository"),
    "base_commit": ("base_commit", "base_sha"),
    "gold_patch": ("patch", "gold_patch", "fix_patch"),
    "test_patch": ("test_patch",),
    "fail_to_pass": ("FAIL_TO_PASS", "fail_to_pass", "F2P", "f2p_tests"),
}
FIXME = "FIXME"


def toml_value(value: object) -> str:
    """A TOML literal of a string, number, boolean or list of them (strings JSON-escaped,
    which TOML's basic strings read the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _line(key: str, value: object, comment: str = "", *, off: bool = False) -> str:
    """`key = value  # comment`, or the comment on a line of its own above a long one."""
    text = f"{'# ' if off else ''}{key} = {toml_value(value)}"
    if not comment:
        return text
    if len(text) < 32 and 35 + len(comment) <= 100:
        return f"{text:<32} # {comment}"
    return f"# {comment}:\n{text}"


def source_key(datafile: Path) -> str:
    """The [source] key a data file is read under, by its extension."""
    name = datafile.name.lower()
    return "parquet" if name.endswith(".parquet") else "csv" if name.endswith(".csv") \
        else "jsonl"


def benchmark_name(datafile: Path) -> str:
    """A safe benchmark name from a file name (`swebench-pro-dev.jsonl` -> `swebench-pro-dev`)."""
    stem = datafile.name.split(".", 1)[0]
    return re.sub(r"[^A-Za-z0-9._-]", "-", stem).lstrip("._-")[:100] or "benchmark"


def _fields(columns: Collection[str]) -> tuple[str, list[str]]:
    """The [fields] table's lines, and the layout's name ("" when none matched)."""
    found = layouts.detect(columns)
    p2p = "PASS_TO_PASS"
    if found is not None:
        layout, f = found
        p2p = layout.pass_to_pass
        head = [f"# The columns match the {layout.name} layout: this is its default mapping, the "
                "one a config", "# without [fields] gets. Edit it to read other columns."]
    else:
        layout = None
        guess = {k: next((c for c in cands if c in columns), FIXME) for k, cands in
                 _GUESSES.items()}
        prose = [c for c in (layouts.PROSE, *layouts.EXTRA_PROSE) if c in columns] or [FIXME]
        f = FieldsCfg(**guess, prose=prose)
        head = ["# The columns match no known layout (" + layouts.lacking(columns) + "):",
                f'# map each key to a column (or a dotted path, `a.b`); "{FIXME}" marks a '
                "guess not made."]
    lines = [*head, "[fields]",
             _line("instance_id", f.instance_id, "the task id (a file name: letters, digits, "
                   "._+@,~-)"),
             _line("repo", f.repo, "owner/name (a template works: \"{org}/{repo}\")"),
             _line("base_commit", f.base_commit, "the commit the solver starts from"),
             _line("gold_patch", f.gold_patch, "the reference patch"),
             _line("test_patch", f.test_patch, "the hidden tests' patch"),
             _line("fail_to_pass", f.fail_to_pass, "graded test ids; several columns: "
                   "[\"a\", \"b\"] (their union)"),
             _line("pass_to_pass", f.pass_to_pass or p2p, "tests that must keep "
                   "passing", off=f.pass_to_pass is None),
             _line("prose", f.prose, "every text the solver is shown, in order"),
             _line("images", f.images or "image_assets", "links to images the solver is shown",
                   off=f.images is None),
             _line("keep", [], "columns kept as they are for SQL (tasks.kept)", off=True)]
    used = {f.instance_id, f.repo, f.base_commit, f.gold_patch, f.test_patch, *f.prose,
            *([f.fail_to_pass] if isinstance(f.fail_to_pass, str) else f.fail_to_pass),
            f.pass_to_pass, f.images}
    if other := [c for c in columns if c not in used]:
        lines.append(f"# Other columns (not read): {', '.join(other)}")
    return (layout.name if layout else ""), lines


def config_text(datafile: str, columns: Collection[str], *, name: str, kind: str,
                mirror: str | None = None) -> tuple[str, str]:
    """The config's text and the layout its columns matched ("" when none did)."""
    codebase, policy, agent = CodebaseCfg(), PolicyCfg(), AgentCfg()
    validity = ValidityCfg()
    layout, fields = _fields(columns)
    lines = [
        "# A determinacy config, written by `determinacy init` from the columns of "
        f"{Path(datafile).name}.",
        "# Check it with `determinacy validate`, audit with `determinacy run` (both take "
        "this file).",
        "# A commented key shows its default, or an example value where it has none.",
        "",
        _line("name", name, "names runs/<name>/ and the store's tables"),
        _line("description", "", "printed under REPORT.md's title", off=True),
        _line("allow_errors", False, "exit 0 even when some cases are ERROR", off=True),
        _line("store", "", "the store, relative to this file (\"\": ./store)", off=True),
        "",
        "[source]",
        _line(kind, datafile, "relative to this file; exactly one of jsonl, parquet, csv, "
              "hf_dataset, git"),
        "",
        *fields,
        "",
        "[codebase]",
        _line("mirror", mirror or "/srv/mirrors/{owner}/{name}.git", "local mirrors (a bare "
              "repository, a clone or a bundle): no network", off=mirror is None),
        _line("clone_url", codebase.clone_url, "where a repository without a mirror is "
              "cloned from", off=True),
        _line("fallback_clone", codebase.fallback_clone, "clone when a configured mirror is "
              "missing", off=True),
        _line("timeout", codebase.timeout, "seconds for one clone or fetch", off=True),
        _line("history", codebase.history, "absence also over this many commits before base",
              off=True),
        _line("stdlib", codebase.stdlib, "\"auto\", \"require\" or \"off\": the standard "
              "libraries read", off=True),
        f"{'# [codebase.stdlib_paths]':<32} # a language's standard library: a folder or a zip",
        "# python = \"/usr/lib/python3.12\"",
        f"{'# [codebase.dependencies]':<32} # pinned direct dependencies, read from a registry",
        "# pypi = \"https://pypi.org/simple\"",
        f"{'# [codebase.submodules]':<32} # a submodule's own mirror, by its path (or URL)",
        "# \"vendor/lib\" = \"/srv/mirrors/lib.git\"",
        "",
        "[policy]",
        _line("absence", policy.absence, "\"strict\" (the whole tree) or \"lenient\" (test "
              "paths left out)", off=True),
        _line("unreadable", policy.unreadable, "\"error\" or \"exclude\" (certify over the "
              "readable part)", off=True),
        _line("min_length", policy.min_length, "the shortest constant checked", off=True),
        _line("max_patch_bytes", policy.max_patch_bytes, "a longer patch is an ERROR row",
              off=True),
        f"{'# test_paths = [...]':<32} # test code; default: {len(DEFAULT_TEST_PATHS)} globs "
        "(README)",
        f"{'# dead_paths = [...]':<32} # not live code; default: {len(DEFAULT_DEAD_PATHS)} "
        "globs (README)",
        "",
        "[agent]",
        _line("command", "claude -p", "prompt on stdin, answer on stdout (split like a shell, "
              "never run by one)", off=True),
        _line("refuter", "", "another model family is stronger; default: the agent",
              off=True),
        _line("timeout", agent.timeout, "seconds per agent call", off=True),
        _line("max_chars", agent.max_chars, "longer inputs are shortened in prompts",
              off=True),
        "",
        "[validity]",
        f"{GOLD_RUNS:<32} # the harness's runs of the gold (a report or its logs)",
        _line("leak_min_chars", validity.leak_min_chars, "a gold line this long in the prose "
              "leaks", off=True),
    ]
    return "\n".join(lines) + "\n", layout
