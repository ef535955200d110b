"""Tasks mined from a repository's own history (`[source] git`), before anyone scores on them.

The walk is the first-parent line without merges (`git rev-list --first-parent --no-merges`),
newest first. Each commit is tested by the configured heuristics (`tests+sources`: its diff
touches test files and source files; `conventional`: a `fix(scope): ...` subject; `scope`: a
loose `scope: summary` subject); a commit some heuristic found is a candidate, and a candidate
becomes a task only when its diff touches both test files (policy.test_paths) and source files:
base = its first parent, gold = the source part of its diff, test = the test part, FAIL_TO_PASS
= the test functions the test part adds or changes, in the language's test-id form (derived by
the tool, and the task says so). Every other candidate is discarded with its reason, and every
commit walked is kept (`MinedCommit`, the `commits` table) for REPORT.md's soundness counts.

The prose is `CommitProse.text()`: the commit's subject and body, and the text of the issues
its message names (`#123`) when an export of issues is given. `CommitProse` has no field that
could hold a diff, and it is built from `git log --format` output alone.

Git runs through `determinacy.git` (argv lists, no shell, no transport); everything between the
git calls (classifying files, splitting a diff, naming tests) is pure.
"""

from __future__ import annotations

import atexit
import contextlib
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import blake3
import msgspec

from determinacy import git, languages
from determinacy.config import HEURISTICS, Config, SourceCfg
from determinacy.errors import CaseFailure, ConfigError
from determinacy.paths import is_test_path
from determinacy.records import MinedCommit
from determinacy.sources.files import files_digest

_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_CONVENTIONAL = re.compile(
    r"^(?:feat|fix|perf|refactor|revert|test|tests|docs|style|build|ci|chore|security|deps)"
    r"(?:\([^()\n]*\))?!?: \S", re.IGNORECASE)
_ISSUE_REF = re.compile(r"(?<![\w/&])#([0-9]{1,9})\b")
_BATCH = 200  # commits read per round of git calls


# -- the prose: messages and issues only ----------------------------------------------------

class LinkedIssue(msgspec.Struct, frozen=True, forbid_unknown_fields=False):
    """An issue of the export: its number, title and body (other keys are ignored)."""

    number: int
    title: str = ""
    body: str | None = ""


class CommitProse(msgspec.Struct, frozen=True):
    """Everything a mined task's solver is shown: the commit message and the issues it names.
    No field can hold the commit's diff; `text()` is the task's prose."""

    subject: str
    body: str
    issues: tuple[LinkedIssue, ...] = ()

    def text(self) -> str:
        parts = [self.subject.strip()]
        if self.body.strip():
            parts.append(self.body.strip())
        for issue in self.issues:
            head = f"Issue #{issue.number}: {issue.title.strip()}".rstrip(": ")
            parts.append(f"{head}\n\n{(issue.body or '').strip()}".rstrip())
        return "\n\n".join(parts) + "\n"


def linked(subject: str, body: str, issues: dict[int, LinkedIssue]) -> tuple[LinkedIssue, ...]:
    """The exported issues a message names (`#123`), in the order it first names them."""
    numbers = dict.fromkeys(int(m.group(1)) for m in _ISSUE_REF.finditer(f"{subject}\n{body}"))
    return tuple(issues[n] for n in numbers if n in issues)


def load_issues(path: Path, key: str = "source.issues") -> dict[int, LinkedIssue]:
    """An export of issues, one JSON object per line: {"number", "title", "body"}."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError as e:
        raise ConfigError(path, key, f"cannot read the issues export: {e}") from None
    out: dict[int, LinkedIssue] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            issue = msgspec.json.decode(line, type=LinkedIssue)
        except msgspec.DecodeError as e:
            raise ConfigError(path, key, f"line {n}: not an issue ({{\"number\": int, "
                              f"\"title\": str, \"body\": str}}): {e}") from None
        out.setdefault(issue.number, issue)
    return out


# -- heuristics and the parts of a diff ------------------------------------------------------

def found_by(subject: str, touches_tests: bool, touches_sources: bool,
             heuristics: list[str], scope_pattern: str) -> list[str]:
    """The configured heuristics that find a commit, in their canonical order."""
    hit = {"tests+sources": touches_tests and touches_sources,
           "conventional": bool(_CONVENTIONAL.match(subject)),
           "scope": bool(re.match(scope_pattern, subject))}
    return [h for h in HEURISTICS if h in heuristics and hit[h]]


def _unquote(text: str) -> str:
    """A path git wrote C-quoted (`"a/caf\\303\\251.py"` without the quotes)."""
    out, i = bytearray(), 0
    escapes = {"t": b"\t", "n": b"\n", '"': b'"', "\\": b"\\", "a": b"\a", "b": b"\b",
               "f": b"\f", "r": b"\r", "v": b"\v"}
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in "01234567":
                out.append(int(text[i + 1:i + 4], 8) & 0xFF)
                i += 4
                continue
            out += escapes.get(nxt, nxt.encode())
            i += 2
            continue
        out += c.encode()
        i += 1
    return out.decode("utf-8", "surrogateescape")


def section_path(header: str) -> str | None:
    """The path of one file's section of a diff made with `--no-renames` (both names are the
    same): `diff --git a/P b/P`, or its C-quoted form."""
    rest = header.removeprefix("diff --git ").rstrip("\n")
    if rest.startswith('"'):
        m = re.match(r'"((?:[^"\\]|\\.)*)"', rest)
        name = _unquote(m.group(1)) if m else ""
        return name[2:] if name.startswith("a/") else None
    if (len(rest) - 5) % 2 or not rest.startswith("a/"):
        return None
    half = (len(rest) - 5) // 2
    path, other = rest[2:2 + half], rest[2 + half:]
    return path if other == f" b/{path}" else None


def split_diff(patch: str) -> list[tuple[str, str]]:
    """(path, text) of each file's section of a diff, in order; a section whose path cannot
    be read has the path ""."""
    out: list[tuple[str, str]] = []
    for part in re.split(r"(?m)^(?=diff --git )", patch):
        if part.startswith("diff --git "):
            out.append((section_path(part.split("\n", 1)[0]) or "", part))
    return out


def is_binary(section: str) -> bool:
    head = section.split("\n@@", 1)[0]
    return "\nGIT binary patch\n" in head or bool(re.search(r"(?m)^Binary files .* differ$",
                                                            head))


def changed_lines(section: str) -> set[int]:
    """New-side lines a file's section adds, and the line just after each run it removes (a
    test that only loses lines changed too)."""
    from determinacy.proposer.patches import parse_patch

    try:
        files = parse_patch(section, "test patch")
    except CaseFailure:
        return set()
    out: set[int] = set()
    for fd in files:
        for hunk, raw in zip(fd.hunks, fd.raw):
            numbers = iter(ln for ln, _, _ in hunk)
            removed, last = False, 0
            for mark, _ in raw.lines:
                if mark == "-":
                    removed = True
                    continue
                last = next(numbers, last)
                if mark == "+" or removed:
                    out.add(last)
                removed = False
            if removed and last:
                out.add(last)
    return out


def derived_test_ids(path: str, text: str, changed: set[int]) -> list[str]:
    """The test functions of a file (its post-image) that hold a changed line, named as the
    language's runner names them: `path::Class::test` for pytest, `TestX` (`TestX/sub`) for
    Go, the full title for Jest, `Class.method` for JUnit."""
    lang = languages.for_path(path)
    if lang is None or not changed:
        return []
    facts = languages.analyze(path, text)
    if facts is None:
        return []
    # A block listed under several names (Jest: its full title and its bare one): the longest.
    spans: dict[tuple[int, int], str] = {}
    for b in facts.tests:
        if any(b.start <= ln <= b.end for ln in changed):
            if len(b.name) > len(spans.get((b.start, b.end), "")):
                spans[(b.start, b.end)] = b.name
    names = [spans[k] for k in sorted(spans)]
    if lang.name == "python":
        return [f"{path}::{name}" for name in names]
    return names


# -- one commit ------------------------------------------------------------------------------

@dataclass
class _Commit:
    row: int
    sha: str
    parents: list[str]
    subject: str
    body: str
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, new blob or "")


@dataclass
class _Part:
    sections: list[tuple[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(t for _, t in self.sections)

    def binary_only(self) -> bool:
        return bool(self.sections) and all(is_binary(t) for _, t in self.sections)


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _discard_before_diff(c: _Commit, tests: list[str], sources: list[str],
                         docs: list[str]) -> str:
    if not c.parents:
        return "a root commit: no parent to be its base"
    if not tests:
        return "touches no test file"
    if not sources:
        return "touches test files and docs only, no source file" if docs \
            else "touches only test files"
    return ""


# -- git ---------------------------------------------------------------------------------------

_CLONES: dict[tuple[str, int, int], Path] = {}


def _cleanup() -> None:
    for path in _CLONES.values():
        shutil.rmtree(path.parent, ignore_errors=True)


atexit.register(_cleanup)


def open_repo(cfg: Config) -> Path:
    """The git directory of `source.git`: a repository read in place, or a bundle cloned once
    per process into a temporary folder."""
    path = cfg.resolve(cfg.source.git or "")
    where = cfg.file or cfg.root
    if path.is_dir():
        if (gd := git.git_dir_of(path)) is not None:
            return gd
        raise ConfigError(where, "source.git", f"{path} is not a git repository")
    if not path.is_file():
        raise ConfigError(where, "source.git", f"{path} does not exist")
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _CLONES:
        tmp = Path(tempfile.mkdtemp(prefix="determinacy-history-"))
        try:
            p = git.transfer(["clone", "--mirror", "--quiet", "--", str(path),
                              str(tmp / "repo.git")], cwd=tmp, timeout=cfg.codebase.timeout)
        except CaseFailure as e:  # a timeout: still a problem of this config's source
            shutil.rmtree(tmp, ignore_errors=True)
            raise ConfigError(where, "source.git", f"cannot clone {path}: {e}") from None
        if p.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ConfigError(where, "source.git", f"{path} is neither a git repository nor a "
                              f"bundle git can clone: {git.stderr_reason(p.stderr)}")
        _CLONES[key] = tmp / "repo.git"
    return _CLONES[key]


class _Git:
    def __init__(self, cfg: Config, git_dir: Path):
        self.cfg, self.dir = cfg, git_dir
        self.where = cfg.file or cfg.root

    def run(self, *args: str, input: bytes | None = None, key: str = "source.git") -> bytes:
        try:
            p = git.run(self.dir, *args, input=input)
        except CaseFailure as e:
            raise ConfigError(self.where, key, str(e)) from None
        if p.returncode != 0:
            raise ConfigError(self.where, key, f"git {args[0]} failed in {self.dir}: "
                              f"{git.stderr_reason(p.stderr)}")
        return p.stdout

    def pathspecs(self) -> list[str]:
        specs = [f":(glob,exclude){p[1:]}" if p.startswith("!") else f":(glob){p}"
                 for p in self.cfg.source.paths]
        if specs and all(s.startswith(":(glob,exclude)") for s in specs):
            specs.insert(0, ".")  # only exclusions: everything else
        return ["--", *specs] if specs else []

    def revision(self) -> str:
        out = self.run("rev-parse", "--revs-only", *self.cfg.source.range.split(),
                       key="source.range").decode().split()
        if not out:
            raise ConfigError(self.where, "source.range",
                              f"{self.cfg.source.range!r} names no commit of {self.dir}")
        tips = [r for r in out if not r.startswith("^")]
        stops = [r[1:] for r in out if r.startswith("^")]
        if len(tips) == 1 and len(stops) == 1:
            return f"{stops[0]}..{tips[0]}"
        return " ".join(out)

    def walk(self, revision: str) -> list[str]:
        """The first-parent commits of `revision` (what `revision()` resolved the range to:
        the walk is of the commits the source memo is keyed by, even if a ref moved since)."""
        limit = self.cfg.source.max_commits
        out = self.run("rev-list", "--first-parent", "--no-merges",
                       *([f"--max-count={limit}"] if limit else []), "--end-of-options",
                       *revision.split(), *self.pathspecs(), key="source.range")
        return out.decode().split()

    def merges(self, revision: str, oldest: str | None) -> list[str]:
        """First-parent merges of the range (newer than `oldest` when the walk was cut)."""
        out = self.run("rev-list", "--first-parent", "--merges", "--end-of-options",
                       *revision.split(), *([f"^{oldest}"] if oldest else []),
                       *self.pathspecs(), key="source.range")
        return out.decode().split()

    def messages(self, shas: list[str]) -> dict[str, tuple[list[str], str, str]]:
        """sha -> (parents, subject, body)."""
        if not shas:
            return {}
        out = self.run("log", "-z", "--no-walk=unsorted", "--stdin", "--no-decorate",
                       "--format=%H%x1f%P%x1f%s%x1f%b", input="".join(
                           f"{s}\n" for s in shas).encode())
        got: dict[str, tuple[list[str], str, str]] = {}
        for record in out.decode("utf-8", "replace").split("\0"):
            fields = record.lstrip("\n").split("\x1f", 3)
            if len(fields) == 4 and _SHA.fullmatch(fields[0]):
                got[fields[0]] = (fields[1].split(), fields[2], fields[3])
        return got

    def files(self, commits: list[_Commit]) -> None:
        """Each commit's changed paths and their new blobs (`diff-tree --raw`, no blob read);
        a root commit's are all its files."""
        if not commits:
            return
        out = self.run("diff-tree", "--stdin", "--root", "-r", "--raw", "--no-renames", "-z",
                       "--no-abbrev", input="".join(f"{c.sha} {' '.join(c.parents[:1])}\n"
                                                    for c in commits).encode())
        by_sha = {c.sha: c for c in commits}
        tokens = out.decode("utf-8", "surrogateescape").split("\0")
        current: _Commit | None = None
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if _SHA.fullmatch(tok) and tok in by_sha:
                current, i = by_sha[tok], i + 1
            elif tok.startswith(":") and current is not None and i + 1 < len(tokens):
                meta = tok.split()
                new = meta[3] if len(meta) >= 5 and set(meta[3]) != {"0"} else ""
                current.files.append((tokens[i + 1], new))
                i += 2
            else:
                i += 1

    def patches(self, commits: list[_Commit]) -> dict[str, str | None]:
        """Each commit's diff against its first parent (None: it cannot be read, such as a
        blob a partial mirror lacks). One git process for all, one each if that fails."""
        args = ("diff-tree", "-p", "--no-renames", "--no-ext-diff", "--no-textconv",
                "--no-color", "--src-prefix=a/", "--dst-prefix=b/")
        try:
            out = self.run(*args, "--stdin", input="".join(
                f"{c.sha} {c.parents[0]}\n" for c in commits).encode())
        except ConfigError:
            got: dict[str, str | None] = {}
            for c in commits:
                try:
                    got[c.sha] = self.run(*args, c.parents[0], c.sha).decode(
                        "utf-8", "surrogateescape")
                except ConfigError:
                    got[c.sha] = None
            return got
        text = out.decode("utf-8", "surrogateescape")
        parts = re.split(r"(?m)^([0-9a-f]{40}(?:[0-9a-f]{24})?)\n", text)
        found = {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}
        return {c.sha: found.get(c.sha, "") for c in commits}

    def blobs(self, shas: list[str]) -> dict[str, bytes | None]:
        from determinacy.codebase.repos import cat_blobs

        return dict(cat_blobs(self.dir, sorted(set(shas))))


# -- the walk ----------------------------------------------------------------------------------

@dataclass
class Mined:
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    commits: list[MinedCommit] = field(default_factory=list)
    stopped: bool = False  # the walk stopped at `limit` rows, before the range's end


def locate(cfg: Config) -> tuple[list[Path], str]:
    """The issues export (the only file read) and the revisions walked, as full shas."""
    g = _Git(cfg, open_repo(cfg))
    issues = [cfg.resolve(cfg.source.issues)] if cfg.source.issues else []
    return issues, g.revision()


def read(cfg: Config, paths: list[Path], limit: int | None, revision: str
         ) -> tuple[list[tuple[int, dict[str, Any]]], list[MinedCommit]]:
    """The rows of the walk from `revision` (at most `limit`) and every commit walked."""
    return mine(cfg, limit, revision)


def digest(cfg: Config, paths: list[Path], revision: str) -> str:
    """The commits walked from, which name their content, and the issues export."""
    got = files_digest(cfg, paths)
    return blake3.blake3(f"{revision}\0{got}".encode()).hexdigest()


def describe(src: SourceCfg) -> str:
    return f"git:{Path(src.git or '').name} {src.range} ({src.repo})"


def mine(cfg: Config, limit: int | None = None, revision: str | None = None
         ) -> tuple[list[tuple[int, dict[str, Any]]], list[MinedCommit]]:
    """The task rows of the walk (at most `limit`) and every commit walked; `revision`:
    what `locate` resolved the range to, when the caller has it."""
    g = _Git(cfg, open_repo(cfg))
    revision = revision or g.revision()
    issues = load_issues(cfg.resolve(cfg.source.issues)) if cfg.source.issues else {}
    shas = g.walk(revision)
    out = Mined()
    for start in range(0, len(shas), _BATCH):
        _mine_batch(g, cfg, issues, shas[start:start + _BATCH], start, out, limit)
        if out.stopped or (limit is not None and len(out.rows) >= limit):
            out.stopped = start + _BATCH < len(shas) or out.stopped
            break
    cut = out.stopped or cfg.source.max_commits is not None
    oldest = out.commits[-1].commit if cut and out.commits else None
    subjects = g.messages(merges := g.merges(revision, oldest))
    for sha in merges:
        out.commits.append(MinedCommit(
            row=0, commit=sha, subject=subjects.get(sha, ([], "", ""))[1],
            discarded="a merge: the first-parent walk leaves merges out"))
    return out.rows, out.commits


def _mine_batch(g: _Git, cfg: Config, issues: dict[int, LinkedIssue], batch: list[str],
                start: int, out: Mined, limit: int | None) -> None:
    # Docs go with the gold part, but are no source file. (The proposer is imported where
    # history is mined: a run that reads its source from the store never loads it.)
    from determinacy.proposer.propose import is_doc

    info = g.messages(batch)
    commits = [_Commit(row=start + i + 1, sha=s, parents=parents, subject=subject, body=body)
               for i, s in enumerate(batch)
               for parents, subject, body in [info.get(s, ([], "", ""))]]
    g.files(commits)
    tests_of = cfg.policy.test_paths
    verdicts: dict[str, tuple[list[str], str]] = {}
    wanted: list[_Commit] = []
    for c in commits:
        # Each path classified once (a root commit lists the whole tree).
        tests, docs, sources = [], [], []
        for path, _ in c.files:
            (tests if is_test_path(path, tests_of) else docs if is_doc(path)
             else sources).append(path)
        heur = found_by(c.subject, bool(tests), bool(sources), list(cfg.source.heuristics),
                        cfg.source.scope_pattern)
        why = _discard_before_diff(c, tests, sources, docs) if heur else ""
        verdicts[c.sha] = (heur, why)
        if heur and not why:
            wanted.append(c)
    patches = g.patches(wanted) if wanted else {}
    blobs = g.blobs([b for c in wanted for p, b in c.files
                     if b and is_test_path(p, tests_of) and languages.for_path(p)])
    for c in commits:
        if limit is not None and len(out.rows) >= limit:
            out.stopped = True  # the walk ends at the last commit it needed
            return
        heur, why = verdicts[c.sha]
        row: dict[str, Any] | None = None
        if heur and not why:
            row, why = _task_row(cfg, c, heur, patches[c.sha], blobs, issues)
        if row is not None:
            out.rows.append((c.row, row))
        out.commits.append(MinedCommit(row=c.row, commit=c.sha, subject=c.subject,
                                       found_by=heur, task=row is not None, discarded=why))


def _task_row(cfg: Config, c: _Commit, heur: list[str], patch: str | None,
              blobs: dict[str, bytes | None], issues: dict[int, LinkedIssue]
              ) -> tuple[dict[str, Any] | None, str]:
    """The commit's task row, or why it is none."""
    if patch is None:
        return None, "its diff cannot be read from this repository (a blob is missing)"
    tests, gold = _Part(), _Part()
    for path, text in split_diff(patch):
        if not path:
            return None, "its diff cannot be split into test and source files (a path git " \
                         "quoted in a way this tool does not read)"
        (tests if is_test_path(path, cfg.policy.test_paths) else gold).sections.append(
            (path, text))
    for what, part in (("source", gold), ("test", tests)):
        if not part.sections:
            return None, f"its diff has no {what} file section"
        if part.binary_only():
            return None, f"the {what} part changes only binary files"
        if _size(part.text) > cfg.policy.max_patch_bytes:
            return None, (f"the {what} part is {_size(part.text):,} bytes, over "
                          "policy.max_patch_bytes")
        try:
            part.text.encode("utf-8")
        except UnicodeEncodeError:  # decoded with surrogateescape: no row could hold it
            return None, f"the {what} part is not UTF-8 text"
    new_blob = dict(c.files)
    ids: list[str] = []
    for path, text in tests.sections:
        data = blobs.get(new_blob.get(path, ""))
        if data is None or languages.for_path(path) is None:
            continue
        with contextlib.suppress(UnicodeDecodeError):
            ids += derived_test_ids(path, data.decode("utf-8"), changed_lines(text))
    if not ids:
        return None, "the test part adds or changes no test function (FAIL_TO_PASS would be " \
                     "empty)"
    owner, _, name = (cfg.source.repo or "local/repo").partition("/")
    prose = CommitProse(subject=c.subject, body=c.body,
                        issues=linked(c.subject, c.body, issues))
    return {
        "instance_id": f"{owner}__{name}-{c.sha[:12]}",
        "repo": cfg.source.repo,
        "base_commit": c.parents[0],
        "commit": c.sha,
        "patch": gold.text,
        "test_patch": tests.text,
        "FAIL_TO_PASS": list(dict.fromkeys(ids)),
        "problem_statement": prose.text(),
        "issues": [i.number for i in prose.issues],
        "found_by": heur,
    }, ""

