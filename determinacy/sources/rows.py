"""Benchmark rows, from any kind of source (`kinds.py`), normalized to Tasks.

A row that cannot become a Task is returned as a CaseError naming its row and field; the others
go on. Only what is wrong with the whole source raises ConfigError: a file that cannot be read,
a mapped field that no row has (a misspelled column would otherwise drop text silently), or,
with no [fields] table, columns that match no known layout (sources/layouts.py).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from determinacy.config import Config, FieldsCfg, mapped_fields
from determinacy.errors import ConfigError, RowError
from determinacy.records import CaseError, MinedCommit, Task
from determinacy.sources import files as source_files
from determinacy.sources import kinds, layouts
from determinacy.sources.files import Row, clip

# Used with fullmatch: `$` would also match before a final newline, which would become part of
# a file name.
_SAFE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+@,~-]{0,199}")
_SHA = re.compile(r"[0-9a-fA-F]{7,64}")
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
# The id an ERROR row gets when its own is unusable; a raw id of this form is never kept, so a
# broken row cannot take the id another broken row falls back to.
_FALLBACK = re.compile(r"row-[0-9]+")
# A lone surrogate (JSON "\ud800") is not text: it cannot be encoded, so no record holding it
# can be stored.
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Loaded:
    tasks: list[Task] = field(default_factory=list)
    errors: list[CaseError] = field(default_factory=list)
    revision: str = ""  # the source revision actually read (pinned Hugging Face commit)
    source_digest: str = ""  # blake3 of the source files' bytes, in order
    mined: list[MinedCommit] = field(default_factory=list)  # history: every commit walked


_ABSENT = object()


_PLACE = re.compile(r"\{([^{}]+)\}")


def _lookup(row: dict[str, Any], expr: str) -> Any:
    """The value a field expression names, or _ABSENT: a null value is there, a missing key is
    not (nor is a path through something that is not an object). An expression is

    - a dotted path (`base.sha`);
    - a path through a list (`resolved_issues[].body`): the list of what each item has there;
    - a template over paths (`{org}/{repo}`): each one's text put in its place.
    """
    if "{" in expr:
        values = {m: _lookup(row, m) for m in _PLACE.findall(expr)}
        if any(v is _ABSENT or not isinstance(v, (str, int)) or isinstance(v, bool)
               for v in values.values()):
            return _ABSENT
        return _PLACE.sub(lambda m: str(values[m.group(1)]), expr)
    head, sep, rest = expr.partition("[].")
    if not sep and expr.endswith("[]"):
        head, sep, rest = expr[:-2], "[]", ""
    cur: Any = row
    for part in head.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _ABSENT
        cur = cur[part]
    if not sep:
        return cur
    if not isinstance(cur, list):
        return _ABSENT
    if not rest:
        return cur
    found = [v for item in cur if isinstance(item, dict)
             and (v := _lookup(item, rest)) is not _ABSENT]
    return found if found or not cur else _ABSENT


def columns_of(expr: str) -> list[str]:
    """The top-level columns a field expression reads."""
    paths = _PLACE.findall(expr) if "{" in expr else [expr]
    return [p.split("[]", 1)[0].split(".", 1)[0] for p in paths]


def _get(row: dict[str, Any], dotted: str, key: str, n: int) -> Any:
    value = _lookup(row, dotted)
    if value is _ABSENT:
        raise RowError(f"row {n}: missing field `{dotted}` (config key fields.{key})")
    return value


def _printable(text: str) -> str:
    """Text with any lone surrogate escaped (`\\ud800`): it can be stored and printed."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _show(value: str) -> str:
    """A value quoted for a message: escaped (repr), and short."""
    return clip(repr(value), 120)


def _check_text(value: str, what: str, n: int) -> str:
    if value.isascii():  # most fields: no surrogate possible, no scan
        return value
    if (m := _SURROGATE.search(value)) is not None:
        raise RowError(f"row {n}: field `{what}` is not valid text (a lone surrogate "
                       f"{ascii(m.group())} at character {m.start()})")
    return value


# A Python list literal of plain quoted strings (no escapes, no prefixes): what most exports
# write. Read without compiling it (ast.literal_eval compiles; on 2,000 rows that is most of
# the source's load time); anything else goes to literal_eval.
_PLAIN = r"""(?:'[^'\\\n]*'|"[^"\\\n]*")"""
_SIMPLE_LIST = re.compile(rf"\[\s*(?:{_PLAIN}\s*(?:,\s*{_PLAIN}\s*)*,?\s*)?\]")
_PLAIN_ITEM = re.compile(_PLAIN)


def _simple_list(text: str) -> list[str] | None:
    if not _SIMPLE_LIST.fullmatch(text):
        return None
    return [m.group()[1:-1] for m in _PLAIN_ITEM.finditer(text)]


def parse_test_ids(value: Any, what: str, n: int) -> list[str]:
    """A list of test ids given as a list, a JSON string or a Python list literal, or as the
    keys of a mapping (Multi-SWE-bench's `f2p_tests`: test id -> its outcomes)."""
    if value is None:
        return []
    if isinstance(value, str):
        text = _check_text(value, what, n).strip()
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):  # ValueError: also over the integer digit limit
            try:
                value = _simple_list(text)
                if value is None:
                    value = ast.literal_eval(text)
            # TypeError: an unhashable key (`{[]: 1}`); the others: not a literal, too deep.
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise RowError(
                    f"row {n}: field `{what}` is neither a list, a JSON list nor a Python list "
                    f"literal: {clip(repr(text), 80)}"
                ) from None
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, dict):
        value = list(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RowError(f"row {n}: field `{what}` must be a list of test ids (strings)")
    for i, v in enumerate(value):
        _check_text(v, f"{what}[{i}]", n)
    return value


def _text(value: Any, what: str, n: int, *, allow_empty: bool = False) -> str:
    if "[]" in what and isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "\n\n".join(v.strip() for v in value if v.strip())  # a path through a list
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RowError(f"row {n}: field `{what}` must be text, got {type(value).__name__}")
    _check_text(value, what, n)
    if not value.strip() and not allow_empty:
        raise RowError(f"row {n}: field `{what}` is empty")
    return value


def _size(n: int) -> str:
    return f"{n:,} bytes" if n < 1_000_000 else f"{n / 1e6:.1f} MB"


def _patch(cfg: Config, row: dict[str, Any], key: str, n: int) -> str:
    """A patch, bounded: past policy.max_patch_bytes parsing it would take minutes and GBs."""
    column = getattr(fields_of(cfg), key)
    text = _text(_get(row, column, key, n), column, n)
    size, limit = len(text.encode("utf-8")), cfg.policy.max_patch_bytes
    if size > limit:
        what = key.replace("_", " ")
        shown = f"{limit / 1e6:g} MB" if limit >= 1_000_000 else f"{limit:,} bytes"
        raise RowError(f"row {n}: {what} is {_size(size)}, over the {shown} limit "
                       "(policy.max_patch_bytes)")
    return text


def _safe_id(value: str) -> bool:
    return _SAFE_ID.fullmatch(value) is not None and ".." not in value


# Images a text links: markdown `![alt](url)`, HTML `<img src=...>`, a bare link to an image
# file, and GitHub's attachment links (rendered as the image itself).
_IMAGE_LINKS = (
    re.compile(r"!\[[^\]\n]*\]\(\s*<?([^)\s>]+)"),
    re.compile(r"<img\b[^>]*?\bsrc\s*=\s*[\"']?([^\"'\s>]+)", re.IGNORECASE),
    re.compile(r"(https?://[^\s<>\"')\]]+?\.(?:png|jpe?g|gif|webp|svg|bmp))(?![\w.])",
               re.IGNORECASE),
    re.compile(r"(https://github\.com/user-attachments/assets/[0-9A-Za-z-]+)"),
)


def linked_images(text: str) -> list[str]:
    """The images a text links, in order, each once."""
    found = sorted((m.start(), m.group(1)) for rx in _IMAGE_LINKS for m in rx.finditer(text))
    return list(dict.fromkeys(link for _, link in found))


def _image_list(value: Any, what: str, n: int, prose_columns: set[str]) -> list[str]:
    """The image links of an `images` field: a list of links, or a mapping from a text's
    column to its links (SWE-bench Multimodal's `image_assets`: the prose columns' lists
    count, or every list when no key is a prose column), either maybe as JSON text."""
    if value is None:
        return []
    if isinstance(value, str):
        text = _check_text(value, what, n).strip()
        if not text:
            return []
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return [text]  # one link
    if isinstance(value, dict):
        keys = [k for k in value if k in prose_columns] or list(value)
        value = [link for k in keys for link in (value[k] or [])] \
            if all(isinstance(value[k], list | type(None)) for k in keys) else None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RowError(f"row {n}: field `{what}` must be a list of image links, or a mapping "
                       "from a text's column to its list of links")
    return [_check_text(v, what, n) for v in value if v.strip()]


def _kept(row: dict[str, Any], columns: list[str], n: int) -> str:
    """The kept columns as one JSON object (their values as the source has them)."""
    if not columns:
        return ""
    values = {c: _get(row, c, f"keep[{i}]", n) for i, c in enumerate(columns)}
    text = json.dumps(values, sort_keys=True, ensure_ascii=False, default=str)
    return _check_text(text, "keep", n)


def _fail_to_pass(f: FieldsCfg, row: dict[str, Any], n: int) -> list[str]:
    """The graded test ids: of one column, or of several united in order, each id once."""
    if isinstance(f.fail_to_pass, str):
        return parse_test_ids(_get(row, f.fail_to_pass, "fail_to_pass", n), f.fail_to_pass, n)
    ids = [t for i, column in enumerate(f.fail_to_pass)
           for t in parse_test_ids(_get(row, column, f"fail_to_pass[{i}]", n), column, n)]
    return list(dict.fromkeys(ids))


def fields_of(cfg: Config) -> FieldsCfg:
    """The config's field mapping; `with_fields` gives one to a config without [fields]."""
    if cfg.fields is None:
        raise ConfigError(cfg.file or cfg.root, "fields", "the default mapping was not "
                          "detected yet (read the source with load_tasks or validate)")
    return cfg.fields


def with_fields(cfg: Config, located: tuple[list[Path], str, str] | None = None) -> Config:
    """The config with its field mapping: its [fields] table, or the default mapping of the
    layout (sources/layouts.py) the columns of the first row read match. `located`: what
    `locate(cfg)` gave, when the caller has it already."""
    if cfg.fields is not None:
        return cfg
    paths = (located or locate(cfg))[0]
    columns: dict[str, None] = {}
    rows = source_files.iter_rows(cfg, paths)
    for _, row in rows:
        if isinstance(row, dict):
            columns = dict.fromkeys(str(k) for k in row)
            break
    del rows  # a generator: dropped, it closes its file now
    where = cfg.file or cfg.root
    if not columns:
        raise ConfigError(where, "fields", "no [fields] table, and no row of the source is a "
                          "JSON object to detect the columns from")
    found = layouts.detect(columns)
    if found is None:
        raise ConfigError(where, "fields", "no [fields] table, and the columns match no known "
                          f"layout ({layouts.lacking(columns)}); the columns are: "
                          f"{_listing(columns)}. Write a [fields] table (`determinacy init "
                          "DATAFILE` writes a config with one)")
    layout, fields = found
    return msgspec.structs.replace(cfg, fields=fields, layout=layout.name)


def to_task(cfg: Config, n: int, row: dict[str, Any]) -> Task:
    """The task of one row. Raises RowError (naming the row and the field) and nothing else."""
    f = fields_of(cfg)
    instance_id = _text(_get(row, f.instance_id, "instance_id", n), f.instance_id, n)
    if not _safe_id(instance_id):
        raise RowError(
            f"row {n}: instance_id {_show(instance_id)} is not a safe name (letters, digits and "
            "._+@,~- only, no '..'); it would be used as a file name"
        )
    repo = _text(_get(row, f.repo, "repo", n), f.repo, n).strip()
    if not _REPO.fullmatch(repo) or ".." in repo.split("/"):
        raise RowError(f"row {n}: repo {_show(repo)} is not of the form owner/name")
    base = _text(_get(row, f.base_commit, "base_commit", n), f.base_commit, n).strip()
    if not _SHA.fullmatch(base):
        raise RowError(f"row {n}: base_commit {_show(base)} is not a commit hash")
    parts = []
    for i, name in enumerate(f.prose):
        # Every prose field must be there (a misspelled one would silently shrink the prose);
        # a null or empty one is there, and says nothing.
        value = _text(_get(row, name, f"prose[{i}]", n), name, n, allow_empty=True)
        if value.strip():
            parts.append(f"## {name}\n\n{value.strip()}\n")
    if not parts:
        raise RowError(f"row {n}: every prose field ({', '.join(f.prose)}) is empty")
    prose = "\n".join(parts)
    images = linked_images(prose)
    if f.images is not None:
        columns = {c for name in f.prose for c in columns_of(name)}
        images = list(dict.fromkeys(images + _image_list(_get(row, f.images, "images", n),
                                                         f.images, n, columns)))
    mined = cfg.source.git is not None  # a history row: its commit and how it was found
    return Task(
        case_id=instance_id,
        instance_id=instance_id,
        row=n,
        repo=repo,
        base_commit=base.lower(),
        prose=prose,
        gold_patch=_patch(cfg, row, "gold_patch", n),
        test_patch=_patch(cfg, row, "test_patch", n),
        fail_to_pass=_fail_to_pass(f, row, n),
        pass_to_pass=parse_test_ids(
            _get(row, f.pass_to_pass, "pass_to_pass", n), f.pass_to_pass, n
        )
        if f.pass_to_pass is not None
        else [],
        images=images,
        kept=_kept(row, f.keep, n),
        commit=str(row.get("commit", "")) if mined else "",
        found_by=[str(h) for h in row.get("found_by", [])] if mined else [],
        tests_derived=mined,
    )


@dataclass(frozen=True)
class _Bad:
    """A row that is not a task (yet without a case id): its row, raw id and why."""

    row: int
    raw_id: str
    message: str


def _raw_id(cfg: Config, row: Row) -> str:
    """The row's own instance_id, as far as it can be stored (for the ERROR's record)."""
    if not isinstance(row, dict):
        return ""
    try:
        value = _get(row, fields_of(cfg).instance_id, "instance_id", 0)
    except RowError:
        return ""
    if not isinstance(value, str):
        return ""
    return _printable(clip(value))


def _read_row(cfg: Config, n: int, row: Row) -> Task | _Bad:
    try:
        if isinstance(row, RowError):
            raise row
        return to_task(cfg, n, row)
    except RowError as e:
        return _Bad(row=n, raw_id=_raw_id(cfg, row), message=str(e))


class _Columns:
    """Which mapped fields the rows read have, and what is there instead (for the message)."""

    def __init__(self, cfg: Config):
        self.mapped = mapped_fields(fields_of(cfg))
        self.found: set[str] = set()
        # Keys seen at "" (the columns) and at each proper prefix of a dotted mapped path.
        self.keys: dict[str, dict[str, None]] = {"": {}}
        for _, path in self.mapped:
            parts = path.split(".")
            for i in range(1, len(parts)):
                self.keys.setdefault(".".join(parts[:i]), {})
        self.objects = 0

    def add(self, row: Row) -> None:
        if not isinstance(row, dict):
            return
        self.objects += 1
        self.found.update(key for key, path in self.mapped if key not in self.found
                          and _lookup(row, path) is not _ABSENT)
        for prefix, seen in self.keys.items():
            cur = _lookup(row, prefix) if prefix else row
            if isinstance(cur, dict):
                seen.update(dict.fromkeys(str(k) for k in cur))

    def check(self, cfg: Config) -> None:
        """A mapped field no row has is the config's mistake, not every row's."""
        if not self.objects:  # no row is an object: each is an ERROR already
            return
        for key, path in self.mapped:
            if key not in self.found:
                raise ConfigError(cfg.file or cfg.root, f"fields.{key}",
                                  f"no row read from the source has `{path}`; {self._there(path)}")

    def _there(self, path: str) -> str:
        parts = path.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if self.keys.get(prefix):
                return f"`{prefix}` has: {_listing(self.keys[prefix])}"
        return f"the columns are: {_listing(self.keys[''])}"


def _listing(names: dict[str, None], most: int = 60) -> str:
    shown = [f"`{_printable(clip(k, 80))}`" for k in list(names)[:most]]
    more = len(names) - most
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "") if shown else "(none)"


def assign_ids(read: list[Task | _Bad]) -> tuple[list[Task], list[CaseError]]:
    """Case ids that never collide (they are file names and doit task names).

    The first good row with an instance_id is audited under it; a later row with the same id is
    an ERROR. A broken row keeps its raw id only when it is safe and no task or earlier error
    has it; otherwise `row-N`, and when a task has that too, `row-N-2`, `row-N-3`, ...
    """
    first: dict[str, int] = {}
    rows: list[Task | _Bad] = []
    for r in read:
        if isinstance(r, Task) and r.instance_id in first:
            r = _Bad(row=r.row, raw_id=r.instance_id,
                     message=f"row {r.row}: duplicate instance_id {r.instance_id!r} "
                             f"(row {first[r.instance_id]} has it)")
        elif isinstance(r, Task):
            first[r.instance_id] = r.row
        rows.append(r)
    taken = set(first)
    tasks: list[Task] = []
    errors: list[CaseError] = []
    for r in rows:
        if isinstance(r, Task):
            tasks.append(r)
            continue
        case_id = _error_case_id(r, taken)
        taken.add(case_id)
        errors.append(CaseError(case_id=case_id, instance_id=r.raw_id, row=r.row, phase="load",
                                message=r.message))
    return tasks, errors


def _error_case_id(bad: _Bad, taken: set[str]) -> str:
    raw = bad.raw_id
    if _safe_id(raw) and not _FALLBACK.fullmatch(raw) and raw not in taken:
        return raw
    case_id, k = f"row-{bad.row}", 1
    while case_id in taken:
        k += 1
        case_id = f"row-{bad.row}-{k}"
    return case_id


def locate(cfg: Config) -> tuple[list[Path], str, str]:
    """The source's files, the revision read and the blake3 of their bytes (for a history:
    of the commits walked from, which name their content, and of the issues export)."""
    kind = kinds.of(cfg)
    paths, revision = kind.locate(cfg)
    return paths, revision, kind.digest(cfg, paths, revision)


def load_tasks(cfg: Config, limit: int | None = None,
               located: tuple[list[Path], str, str] | None = None) -> Loaded:
    """Every row read as a Task or a load ERROR. Raises ConfigError only (whole-config
    problems: an unreadable source, a mapped field that no row has). `located`: what
    `locate(cfg)` gave, when the caller has it already."""
    files, revision, source_digest = located = located or locate(cfg)
    cfg = with_fields(cfg, located)
    out = Loaded(revision=revision, source_digest=source_digest)
    columns = _Columns(cfg)
    read: list[Task | _Bad] = []
    # A history's walk stops once `limit` commits became rows; it records every commit it saw.
    rows, out.mined = kinds.of(cfg).read(cfg, files, limit, revision)
    for n, row in rows:
        if limit is not None and len(read) >= limit:
            break
        columns.add(row)
        read.append(_read_row(cfg, n, row))
    # With --limit N only the first N rows are read: the column check is over those, which are
    # the rows audited.
    columns.check(cfg)
    out.tasks, out.errors = assign_ids(read)
    return out


# Columns that usually hold text the solver is given: unmapped, they are prose the audit never
# reads (and a constant they state would be certified wrongly).
PROSE_LIKE = ("problem_statement", "requirements", "interface", "hints_text", "hints",
              "issue", "issue_body", "body", "title", "description", "resolved_issues")


@dataclass
class Validation:
    """What `determinacy validate` reports about a source under a config."""

    files: list[Path]
    rows: int = 0
    tasks: int = 0
    layout: str = ""  # the detected layout's description ("": the config's [fields])
    shown: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    missing: dict[str, int] = field(default_factory=dict)  # mapped field -> rows without it
    prose_like: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)  # why rows are not tasks, one line a cause
    ungraded: int = 0  # tasks whose FAIL_TO_PASS is empty: they grade nothing
    fail_to_pass: str = ""  # what fields.fail_to_pass reads, for the message
    mirrors: list[str] = field(default_factory=list)  # mirror problems, one a repository
    notes: list[str] = field(default_factory=list)  # what run will do, not problems
    commits_checked: int = 0


def _preview(value: Any) -> str:
    if isinstance(value, str):
        if "\n" in value:
            return f"<{value.count(chr(10)) + 1} lines>"
        return clip(repr(value), 60)
    return clip(json.dumps(value, default=str), 60)


_ROW_PREFIX = re.compile(r"row (\d+): ")


def _grouped(messages: list[str], most: int = 8) -> list[str]:
    """One line per cause: `rows 2, 9 and 3 more: missing field ...` (the row numbers
    stripped off each message, identical rests merged, in the order first seen)."""
    causes: dict[str, list[str]] = {}
    for m in messages:
        found = _ROW_PREFIX.match(m)
        rest, row = (m[found.end():], found.group(1)) if found else (m, "")
        causes.setdefault(rest, []).append(row)
    out = []
    for rest, rows in causes.items():
        numbered = [r for r in rows if r]
        if not numbered:
            out.append(rest)
            continue
        shown = ", ".join(numbered[:most]) + (f" and {len(numbered) - most} more"
                                              if len(numbered) > most else "")
        out.append(f"row{'s' if len(numbered) > 1 else ''} {shown}: {rest}")
    return out


def validate(cfg: Config, show: int = 3, commits: int = 20) -> Validation:
    """Check what `run` checks before any audit, auditing nothing: the mapping (the config's
    or the detected layout's) applied to the first `show` rows, mapped fields rows lack,
    unmapped prose-like columns, rows that are not tasks (a FAIL_TO_PASS that does not parse,
    a missing field, a duplicate id, ...), tasks that grade nothing, and each repository's
    mirror with `commits` of its tasks' base commits (codebase/preflight.py)."""
    from determinacy.codebase import preflight

    kind = kinds.of(cfg)
    files, revision = kind.locate(cfg)
    cfg = with_fields(cfg, (files, revision, ""))
    f = fields_of(cfg)
    # A history's rows come from the repository (the issues export is the only file read).
    out = Validation(files=[cfg.resolve(cfg.source.git), *files] if cfg.source.git else files)
    out.layout = layouts.describe(cfg.layout, f) if cfg.layout else ""
    out.fail_to_pass = (f"`{f.fail_to_pass}`" if isinstance(f.fail_to_pass, str)
                        else " + ".join(f"`{c}`" for c in f.fail_to_pass))
    mapped = mapped_fields(f)
    columns: dict[str, None] = {}
    read: list[Task | _Bad] = []
    for n, row in kind.read(cfg, files, None, revision)[0]:
        out.rows += 1
        if isinstance(row, dict):
            columns.update(dict.fromkeys(row))
            for key, path in mapped:
                if _lookup(row, path) is _ABSENT:
                    out.missing[f"{key} `{path}`"] = out.missing.get(f"{key} `{path}`", 0) + 1
            if len(out.shown) < show:
                out.shown.append((n, {f"{key} `{path}`": "(missing)" if (v := _lookup(
                    row, path)) is _ABSENT else _preview(v) for key, path in mapped}))
        read.append(_read_row(cfg, n, row))
    tasks, errors = assign_ids(read)  # as run numbers them: a duplicate id is an ERROR too
    out.tasks = len(tasks)
    out.bad = _grouped([e.message for e in errors])
    out.ungraded = sum(1 for t in tasks if not t.fail_to_pass)
    used = {c for _, path in mapped for c in columns_of(path)}
    out.prose_like = [c for c in columns if c in PROSE_LIKE and c not in used]
    checked = preflight.check(cfg, [preflight.Row(t.row, t.repo, t.base_commit)
                                    for t in tasks], commits)
    out.mirrors, out.notes, out.commits_checked = checked.problems, checked.notes, checked.checked
    return out
