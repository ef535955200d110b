"""`determinacy verify`: re-check every claim of a stored audit from the raw task and the
repository, as a skeptic would.

Nothing the audit computed is trusted but the list of claims: each task is read again from
the source through the config, the text checks are a few lines of plain string code written
here (not `determinacy.prose` or `determinacy.patches`), and absence is `git grep -F` itself
(never the search engine, `determinacy.codebase.search`). Pure checks first; git only at the edge
(`Repo`), always through `determinacy.git` with an argument list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from determinacy import git
from determinacy.codebase import libraries, repos, stdlib
from determinacy.codebase.dependencies import scope as dependencies
from determinacy.config import Config
from determinacy.errors import CaseFailure, DeterminacyError
from determinacy.paths import is_test_path
from determinacy.proposer.graded import names_file
from determinacy.records import Task
from determinacy.reports.query import connect, dicts
from determinacy.settle import floor, quote, quoted
from determinacy.sources.rows import load_tasks
from determinacy.store import Store

CHANGED = "the task changed since the audit"
ABSENCE_VERDICTS = ("AIRTIGHT", "AIRTIGHT-PARTIAL")
TEST_DATA = "GOLD-TEST-DATA"
PRECEDENT_VERDICTS = ("MISDETERMINED", "CODEBASE-PLURAL")
# The parts of a task its claims rest on (`row` is only where it sits in the source).
TASK_FIELDS = ("instance_id", "repo", "base_commit", "prose", "gold_patch", "test_patch",
               "fail_to_pass", "pass_to_pass")


# --- pure checks ------------------------------------------------------------------------------

_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def added_text(patch: str) -> str:
    """The text of a unified diff's added lines, joined by newlines.

    Hunk-aware (the line counts of each `@@` header say where a hunk ends), so a `+++ b/path`
    file header is never text and an added line that itself starts with `++` is.
    """
    out: list[str] = []
    old = new = 0
    for line in patch.split("\n"):
        if old > 0 or new > 0:
            tag = line[:1]
            if tag == "+":
                out.append(line[1:])
                new -= 1
                continue
            if tag == "-":
                old -= 1
                continue
            if tag in (" ", ""):  # some tools strip the space of an empty context line
                old, new = old - 1, new - 1
                continue
            if tag == "\\":  # "\ No newline at end of file" counts for neither side
                continue
            old = new = 0  # counts that do not fit: read the line as a header
        if m := _HUNK.match(line):
            old = int(m.group(1)) if m.group(1) is not None else 1
            new = int(m.group(2)) if m.group(2) is not None else 1
    return "\n".join(out)


# camelCase, snake_case, kebab-case and spaces all split the same way: `HTTPServer` ->
# http, server; `render_badge` -> render, badge; digits are words of their own.
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def prose_states(constant: str, prose: str) -> str:
    """How the prose states `constant` ("" when it does not): case-insensitively, or its
    words as a run of the prose's words."""
    if constant.casefold() in prose.casefold():
        return "case-insensitively"
    w = words(constant)
    if w and f" {' '.join(w)} " in f" {' '.join(words(prose))} ":
        return f"as the words '{' '.join(w)}'"
    return ""


def changed_fields(stored: dict[str, Any], task: Task) -> list[str]:
    """The fields of the raw task that differ from the stored one (an empty text is NULL in
    the tables)."""
    return [f for f in TASK_FIELDS
            if ("" if (v := stored.get(f)) is None else v) != getattr(task, f)]


def text_failures(constant: str, task: Task) -> list[str]:
    """Checks (1)-(3) of an absence claim, over the raw task's texts."""
    if not constant:
        return ["no constant"]
    out = []
    if constant not in added_text(task.gold_patch):
        out.append("not on an added line of the gold patch")
    if constant not in added_text(task.test_patch):
        out.append("not on an added line of the test patch")
    if how := prose_states(constant, task.prose):
        out.append(f"the prose states it ({how})")
    return out


def file_diffs(patch: str) -> dict[str, str]:
    """Each file's part of a unified diff (from its `diff --git` line), by its new path (the
    old one for a deletion)."""
    out: dict[str, str] = {}
    for part in re.split(r"^(?=diff --git )", patch, flags=re.M):
        new = re.search(r"^\+\+\+ (?:b/)?(.+?)\t?$", part, re.M)
        old = re.search(r"^--- (?:a/)?(.+?)\t?$", part, re.M)
        path = new.group(1) if new and new.group(1) != "/dev/null" else \
            old.group(1) if old else ""
        if path:
            out[path] = part
    return out


def test_data_failures(constant: str, data_file: str, loaded_at: str, task: Task) -> list[str]:
    """What a GOLD-TEST-DATA claim says: the gold patch writes `data_file` with the constant
    on an added line, the test patch does not write it, the test patch's added lines grade the
    constant (and spell the file's name where the claim says a line loads it), and the prose
    does not state it."""
    if not constant or not data_file:
        return ["no constant or no file"]
    out = []
    gold, test = file_diffs(task.gold_patch), file_diffs(task.test_patch)
    if data_file not in gold:
        out.append(f"the gold patch does not write {data_file}")
    elif constant not in added_text(gold[data_file]):
        out.append(f"not on an added line of the gold patch's {data_file}")
    if data_file in test:
        out.append(f"the test patch writes {data_file} too")
    test_added = added_text(task.test_patch)
    if constant not in test_added:
        out.append("not on an added line of the test patch")
    if loaded_at and not names_file(test_added, data_file):
        out.append(f"the test patch never spells {data_file.rsplit('/', 1)[-1]}")
    if how := prose_states(constant, task.prose):
        out.append(f"the prose states it ({how})")
    return out


def squash(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Precedent:
    """A verified precedent of an agent claim: `value` stands at `path:line` at base."""

    path: str
    line: int
    value: str
    snippet: str


def conflict_failures(verdict: str, precedents: Sequence[Precedent], gold_value: str,
                      gold_added: str) -> list[str]:
    """What a MISDETERMINED / CODEBASE-PLURAL claim says besides its precedents' lines: the
    gold's value is the gold patch's, and the precedents disagree as the verdict says."""
    if not precedents:
        return ["no verified precedent"]
    out = []
    gold = squash(gold_value)
    if not gold or gold not in squash(gold_added):
        out.append(f"the gold's value {quote(gold_value)} is not on an added line of the gold "
                   "patch")
    values = [(p.path, squash(p.value)) for p in precedents]
    if verdict == "MISDETERMINED" and all(v == gold for _, v in values):
        out.append("no precedent's value differs from the gold's")
    if verdict == "CODEBASE-PLURAL" and not any(
            pa != pb and va != vb for pa, va in values for pb, vb in values):
        out.append("no two precedents in different files differ")
    return out


def value_on_line(value: str, snippet: str, text: str, line: int) -> bool:
    """`value` stands on line `line` of `text` (for a snippet of several lines, on the lines
    it covers from there), whitespace collapsed as the audit quotes it."""
    lines = text.split("\n")
    if not value.strip() or not 1 <= line <= len(lines):
        return False
    span = max(1, len(snippet.strip("\n").split("\n")))
    return squash(value) in squash(" ".join(lines[line - 1 : line - 1 + span]))


# --- git at the edge --------------------------------------------------------------------------


@dataclass
class Repo:
    """One repository's git directory, read through determinacy.git only."""

    git_dir: Path
    may_fetch: bool = False  # the store's own clone (a configured mirror is read in place)
    # The repository's name and the config: which submodules the config maps to mirrors.
    name: str = ""
    cfg: Config | None = None
    _trees: dict[str, repos.Tree] = field(default_factory=dict)

    def tree(self, commit: str) -> repos.Tree:
        """The audit's own listing of the tree at `commit` (`repos.list_tree`), with the
        submodules the config maps read from their mirrors (`repos.with_submodules`)."""
        if commit not in self._trees:
            tree = repos.list_tree(self.git_dir, commit)
            self._trees[commit] = (repos.with_submodules(self.cfg, self.name, tree)
                                   if self.cfg is not None else tree)
        return self._trees[commit]

    def unreadable(self, commit: str) -> list[tuple[str, str]]:
        """(path, why) of what `git grep` cannot read at `commit`: submodules not read from
        a mirror (it skips them silently) and blobs an object store lacks. Raises
        CaseFailure when git cannot say. The listing is the audit's own; the absence check
        itself is git grep, never the tool's search."""
        return sorted((u.path, u.why) for u in self.tree(commit).state().unread)

    def submodules(self, commit: str) -> list[tuple[str, str, Path]]:
        """(path, commit, git directory) of each submodule at `commit` read from its mirror,
        nested ones too, by their path in this repository."""
        out = []
        todo = [("", self.tree(commit))]
        while todo:
            prefix, tree = todo.pop()
            for m in tree.modules:
                if m.tree is not None:
                    out.append((f"{prefix}{m.path}", m.commit, m.tree.git_dir))
                    todo.append((f"{prefix}{m.path}/", m.tree))
        return sorted(out)

    def grep_submodule(self, path: str, commit: str, git_dir: Path, constant: str,
                       excluded: set[str], skipped: Sequence[str]) -> tuple[str, str]:
        """`git grep -F -n -e <constant> <commit>` in the mirror of the submodule at `path`:
        (its first hit outside the paths `excluded` and the globs `skipped`, as a path of
        this repository, "") or ("", why). The globs are applied to each hit's path here, as
        the audit applies them, not as pathspecs inside the submodule."""
        inside = [p.removeprefix(f"{path}/") for p in sorted(excluded)
                  if p.startswith(f"{path}/")]
        pathspecs = [":(top)", *(f":(top,exclude,literal){p}" for p in inside)]
        p = git.run(git_dir, "grep", "-F", "-n", "-z", "-e", constant, commit, "--",
                    *pathspecs)
        if p.returncode == 1 and not p.stderr.strip():
            return "", ""
        if p.returncode != 0:
            return "", (f"git grep in the mirror of submodule {path} failed (exit "
                        f"{p.returncode}): {git.stderr_reason(p.stderr)}")
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            name, _, rest = line.partition("\0")
            at = f"{path}/{name.removeprefix(f'{commit}:')}"
            if not (skipped and is_test_path(at, skipped)):
                number, _, text = rest.partition("\0")
                return f"{at}:{number}:{text}"[:200], ""
        return "", ""

    def grep(self, commit: str, constant: str, pathspecs: Sequence[str],
             more: Sequence[str] = ()) -> tuple[str, str]:
        """`git grep -F -n -e <constant> <commit> [<more>...] -- <pathspecs>`: (its first
        hit, "") when it prints one, ("", "") when it finds nothing, ("", why) when it
        failed. A hit in `commit` drops its `<commit>:` prefix; one in `more` keeps it."""
        p = git.run(self.git_dir, "grep", "-F", "-n", "-e", constant, commit, *more, "--",
                    *pathspecs)
        out = p.stdout.decode("utf-8", "replace").splitlines()
        # Exit 1 with nothing on stderr is "no match"; git grep also exits 1 when it could not
        # read a blob (it says so on stderr): unknown is never absence.
        if p.returncode == 1 and not p.stderr.strip():
            return "", ""
        if p.returncode == 0 and out:
            hit = out[0].removeprefix(f"{commit}:")
            more_lines = f" (and {len(out) - 1} more lines)" if len(out) > 1 else ""
            return hit[:200] + more_lines, ""
        return "", f"git grep failed (exit {p.returncode}): {git.stderr_reason(p.stderr)}"

    def show(self, commit: str, path: str) -> tuple[str | None, str]:
        """The text of `path` at `commit` (`git show <sha>:<path>`), or (None, why)."""
        p = git.run(self.git_dir, "show", f"{commit}:{path}")
        if p.returncode != 0:
            return None, f"git show {commit}:{path} failed: {git.stderr_reason(p.stderr)}"
        return p.stdout.decode("utf-8", "replace"), ""


# --- claims -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A row of the `witnesses` view with status 'claim', and what it rests on."""

    case_id: str
    verdict: str
    constant: str
    proposer: str
    pass_no: int
    commit: str  # the full sha the audit searched (`trees`), "" when it has none
    unread: tuple[str, ...] = ()  # paths the audit did not read: AIRTIGHT-PARTIAL skips them
    precedents: tuple[Precedent, ...] = ()  # the verified ones, for codebase verdicts
    gold_value: str = ""
    test_data: str = ""  # GOLD-TEST-DATA: the file only the gold writes, the line loading it
    test_data_at: str = ""
    absent_from: tuple[str, ...] = ()  # the scopes absence held over ("tree at ..." first)
    kind: str = ""  # identifier, string, ...: a library holds a literal as a whole string
    defuse: str = ""  # a name the gold defines is given only as the library's vocabulary
    language: str = ""  # whose dependencies the audit read (a Go name is no npm package's)

    @property
    def partial(self) -> bool:
        return self.verdict == "AIRTIGHT-PARTIAL"


@dataclass(frozen=True)
class Outcome:
    claim: Claim
    failures: tuple[str, ...]

    @property
    def confirmed(self) -> bool:
        return not self.failures

    def line(self) -> str:
        c = self.claim
        # A codebase verdict has no constant of its own: the gold's value is what it is about.
        head = f"{c.case_id} {c.verdict} {quote(c.constant or c.gold_value)}"
        if c.partial:
            head += " (over the readable part)"
        return f"CONFIRMED {head}" if self.confirmed else \
            f"FAILED {head}: {'; '.join(self.failures)}"


_CLAIMS = """
SELECT w.case_id, w.verdict, w.constant, w.kind, w.proposer, w.pass_no,
       coalesce(tr.commit, '') AS commit,
       coalesce(list_transform(tr.unread, lambda u: u.path), []) AS unread,
       (SELECT first(a.precedents) FROM agent_witnesses a
        WHERE w.proposer = 'agent' AND a.case_id = w.case_id AND a.pass_no = w.pass_no
          AND a.status = 'claim' AND a.constant IS NOT DISTINCT FROM w.constant
          AND a.command IS NOT DISTINCT FROM w.command
          AND a.refuter IS NOT DISTINCT FROM w.refuter) AS precedents,
       (SELECT first(a.gold_value) FROM agent_witnesses a
        WHERE w.proposer = 'agent' AND a.case_id = w.case_id AND a.pass_no = w.pass_no
          AND a.status = 'claim' AND a.constant IS NOT DISTINCT FROM w.constant
          AND a.command IS NOT DISTINCT FROM w.command
          AND a.refuter IS NOT DISTINCT FROM w.refuter) AS gold_value,
       coalesce(k.test_data, '') AS test_data, coalesce(k.test_data_at, '') AS test_data_at,
       coalesce(k.absent_from, []) AS absent_from, coalesce(k.defuse, '') AS defuse,
       coalesce(k.language, '') AS language
FROM witnesses w LEFT JOIN trees tr ON tr.case_id = w.case_id
LEFT JOIN (SELECT case_id, constant, first(test_data) AS test_data,
                  first(test_data_at) AS test_data_at, first(absent_from) AS absent_from,
                  first(defuse) AS defuse, first(language) AS language
           FROM candidates WHERE certified GROUP BY case_id, constant) k
  ON w.proposer = 'mechanical' AND k.case_id = w.case_id AND k.constant = w.constant
WHERE w.status = 'claim' AND (CAST($case AS VARCHAR) IS NULL OR w.case_id = $case)
ORDER BY w.case_id, w.pass_no, w.proposer, w.verdict, w.constant
"""


def stored_claims(con: Any, case: str | None) -> list[Claim]:
    out = []
    for r in dicts(con, _CLAIMS, {"case": case}):
        precedents = tuple(Precedent(path=p["path"], line=p["line"], value=p["value"],
                                     snippet=p["snippet"])
                           for p in r["precedents"] or [] if p["verified"])
        out.append(Claim(case_id=r["case_id"], verdict=r["verdict"], constant=r["constant"],
                         proposer=r["proposer"], pass_no=r["pass_no"], commit=r["commit"],
                         unread=tuple(r["unread"]), precedents=precedents,
                         gold_value=r["gold_value"] or "", test_data=r["test_data"] or "",
                         test_data_at=r["test_data_at"] or "",
                         absent_from=tuple(r["absent_from"] or ()), kind=r["kind"] or "",
                         defuse=r["defuse"], language=r["language"]))
    return out


@dataclass
class Verifier:
    store: Store
    cfg: Config
    skipped: list[str]  # globs a lenient audit left out of its search (its receipts too)
    repos: dict[str, Repo | CaseFailure] = field(default_factory=dict)
    commits: dict[tuple[str, str], str | CaseFailure] = field(default_factory=dict)

    def locate(self, task: Task) -> tuple[Repo, str]:
        """The task's repository and the full sha its base commit names (raises CaseFailure)."""
        if task.repo not in self.repos:
            try:
                self.repos[task.repo] = Repo(*repos.ensure_mirror(self.store, self.cfg,
                                                                     task.repo),
                                             name=task.repo, cfg=self.cfg)
            except CaseFailure as e:
                self.repos[task.repo] = e
        repo = self.repos[task.repo]
        if isinstance(repo, CaseFailure):
            raise repo
        key = (task.repo, task.base_commit)
        if key not in self.commits:
            try:
                # As the audit resolved it: an object name, never a ref; the store's own clone
                # may fetch a commit it lacks, a configured mirror is never written to.
                self.commits[key] = repos.resolve_commit(
                    self.store, self.cfg, repo.git_dir, task.repo, task.base_commit,
                    repo.may_fetch)
            except CaseFailure as e:
                self.commits[key] = e
        sha = self.commits[key]
        if isinstance(sha, CaseFailure):
            raise sha
        return repo, sha

    def absence(self, repo: Repo, sha: str, claim: Claim) -> list[str]:
        """Check (4): `git grep` prints nothing, over the whole tree (AIRTIGHT) or all but
        the paths the audit could not read (AIRTIGHT-PARTIAL)."""
        excluded = set(claim.unread) if claim.partial else set()
        unread = [(p, why) for p, why in repo.unreadable(sha)
                  if p not in excluded and not (self.skipped and is_test_path(p, self.skipped))]
        if unread:
            shown = ", ".join(f"{p} ({why})" for p, why in unread[:3])
            more = f" and {len(unread) - 3} more" if len(unread) > 3 else ""
            return [f"absence unknown: git grep cannot read {shown}{more}"]
        # `:(top)` so that neither the current folder nor core.worktree narrows the search.
        pathspecs = [":(top)", *(f":(top,exclude,literal){p}" for p in sorted(excluded)),
                     *(f":(top,exclude,glob){g}" for g in self.skipped)]
        hit, why = repo.grep(sha, claim.constant, pathspecs)
        if why:
            return [why]
        if hit:
            return [f"present at base: git grep prints {hit}"]
        # The submodules the audit read from their mirrors: git grep in each, at its commit.
        for path, commit, git_dir in repo.submodules(sha):
            hit, why = repo.grep_submodule(path, commit, git_dir, claim.constant, excluded,
                                           self.skipped)
            if why:
                return [why]
            if hit:
                return [f"present at base in submodule {path} ({commit[:12]}): git grep in "
                        f"its mirror prints {hit}"]
        return (self.history(repo, sha, claim, pathspecs) + self.libraries(claim)
                + self.dependencies(repo, sha, claim))

    def history(self, repo: Repo, sha: str, claim: Claim, pathspecs: list[str]) -> list[str]:
        """The claim held over the first-parent commits before base: `git grep` over each
        ancestor's tree, as many as the config reads now."""
        if not any(s.startswith("history: ") and not s.startswith("history: nothing")
                   for s in claim.absent_from):
            return []
        depth = self.cfg.codebase.history
        p = git.run(repo.git_dir, "rev-list", "--first-parent", f"-n{depth + 1}", sha)
        if p.returncode:
            return [f"cannot list the history before {sha}: {git.stderr_reason(p.stderr)}"]
        ancestors = p.stdout.decode().split()[1:]
        if not ancestors:
            return []
        # One git grep over every ancestor's tree, as the receipt's command runs it.
        hit, why = repo.grep(ancestors[0], claim.constant, pathspecs, ancestors[1:])
        if why and not claim.partial:
            return [f"history: {why}"]
        return [f"present in history (at or before {ancestors[0][:12]}): git grep prints "
                f"{hit}"] if hit else []

    def libraries(self, claim: Claim) -> list[str]:
        """The claim held over standard libraries: each one it names is read again from its
        files on this machine (plain bytes, not the search engine)."""
        out = []
        for label in claim.absent_from[1:]:
            if label.startswith(("history: ", "dependencies: ")):
                continue
            source = _library_source(self.cfg, label)
            if source is None:
                out.append(f"cannot re-check {label}: not on this machine")
                continue
            out += _library_failures(source, label, claim)
        return out

    def dependencies(self, repo: Repo, sha: str, claim: Claim) -> list[str]:
        """The claim held over the pinned dependencies: the manifests at base read again, each
        package's files (fetched once into the store) read as plain bytes."""
        if not any(s.startswith("dependencies: ") for s in claim.absent_from):
            return []
        family = stdlib.FAMILY.get(claim.language)
        try:
            got = dependencies.read(self.store, self.cfg, repos.listed(repo.git_dir, sha),
                                    [family] if family else sorted(set(stdlib.FAMILY.values())))
        except CaseFailure as e:
            return [f"cannot re-check the dependencies: {e}"]
        if got.unread and not claim.partial:
            return [f"cannot re-check the dependencies: {repos.describe_unread(got.unread)}"]
        out = []
        for pkg in got.packages:
            out += _library_failures(pkg.lib.source, pkg.name, claim)
        return out

    def precedents(self, repo: Repo, sha: str, claim: Claim) -> list[str]:
        out = []
        policy = self.cfg.policy
        for p in claim.precedents:
            if is_test_path(p.path, policy.test_paths) or is_test_path(p.path,
                                                                       policy.dead_paths):
                out.append(f"precedent {p.path} is not a live path")
                continue
            text, why = repo.show(sha, p.path)
            if text is None:
                out.append(why)
            elif not value_on_line(p.value, p.snippet, text, p.line):
                out.append(f"precedent value {quote(p.value)} is not on {p.path}:{p.line}")
        return out

    def check(self, claim: Claim, task: Task | None, stored: dict[str, Any] | None,
              load_error: str) -> Outcome:
        if task is None:
            why = (f"the task's row no longer loads: {load_error}" if load_error
                   else "the task is no longer in the source")
            return Outcome(claim, (why,))
        failures = []
        changed = changed_fields(stored, task) if stored is not None else ["not stored"]
        if changed:
            failures.append(f"{CHANGED} ({', '.join(changed)})")
        absence = claim.verdict in ABSENCE_VERDICTS
        if absence:
            failures += text_failures(claim.constant, task)
        elif claim.verdict == TEST_DATA:
            failures += test_data_failures(claim.constant, claim.test_data, claim.test_data_at,
                                           task)
        elif claim.verdict in PRECEDENT_VERDICTS:
            failures += conflict_failures(claim.verdict, claim.precedents, claim.gold_value,
                                          added_text(task.gold_patch))
        else:
            failures.append(f"unknown claim verdict {claim.verdict!r}")
        try:
            repo, sha = self.locate(task)
            if claim.commit and sha != claim.commit:
                failures.append(f"base commit {task.base_commit} resolves to {sha}, not "
                                f"{claim.commit} (the commit the audit searched)")
            if absence and claim.constant:
                failures += self.absence(repo, sha, claim)
            elif claim.verdict in PRECEDENT_VERDICTS:
                failures += self.precedents(repo, sha, claim)
        except CaseFailure as e:
            failures.append(str(e))
        return Outcome(claim, tuple(failures))


def _library_failures(source: libraries.Source, label: str, claim: Claim) -> list[str]:
    """The library gives the claim's constant: a literal as a whole string, a name the test
    defines anywhere, a name the gold defines as a whole word of 1% of its files."""
    if claim.kind == "identifier" and claim.defuse == "gold→test":
        word = re.compile(rb"(?<![A-Za-z0-9_$])" + re.escape(claim.constant.encode())
                          + rb"(?![A-Za-z0-9_$])")
        total, holding = 0, []
        for path, data in libraries.files(source):
            if data is None:
                return [f"cannot re-check {label}: {path} unreadable"]
            total += 1
            if word.search(data):
                holding.append(path)
        least = floor(total)
        return [f"the vocabulary of {source.label}: a whole word in {len(holding)} of its "
                f"{total} files (from {holding[0]})"] if len(holding) >= least else []
    needles = [n.encode("utf-8", "surrogatepass") for n in (
        [claim.constant] if claim.kind == "identifier" else quoted(claim.constant))]
    for path, data in libraries.files(source):
        if data is None:
            return [f"cannot re-check {label}: {path} unreadable"]
        if at := [data.index(n) for n in needles if n in data]:
            line = data[:min(at)].count(b"\n") + 1
            return [f"present in {source.label}: {path}:{line}"]
    return []


def _library_source(cfg: Config, label: str) -> libraries.Source | None:
    """The library a receipt names ("<label>, N files"), as the config and machine give it."""
    for family in stdlib.FAMILIES:
        source = stdlib.for_config(cfg, family)
        if source is not None and label.rsplit(", ", 1)[0] == source.label:
            return source
    return None


def verify(store: Store, cfg: Config, case: str | None = None) -> list[Outcome]:
    """Every claim of the stored audit of `cfg` (or of one case), re-checked."""
    con = connect(store, cfg.name)
    stored = {r["case_id"]: r for r in dicts(con, "SELECT * FROM tasks WHERE loaded")}
    if case is not None and case not in stored:
        raise DeterminacyError(f"no audited case {case!r} in the tables of {cfg.name!r}")
    claims = stored_claims(con, case)
    [run] = dicts(con, "SELECT absence, test_paths FROM run")
    # The policy the claims were made under, as their receipts print it.
    skipped = list(run["test_paths"]) if run["absence"] == "lenient" else []
    loaded = load_tasks(cfg)
    tasks = {t.case_id: t for t in loaded.tasks}
    errors = {e.case_id: e.message for e in loaded.errors}
    v = Verifier(store=store, cfg=cfg, skipped=skipped)
    return [v.check(c, tasks.get(c.case_id), stored.get(c.case_id), errors.get(c.case_id, ""))
            for c in claims]
