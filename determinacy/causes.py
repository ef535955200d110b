"""Why a case is ERROR, as a stable cause code with its way out.

One pure mapping from a stored error (its phase and message) to a cause, so `run` can print
one line per cause (`136 cases: incomplete tree (1 blob missing in 79, a submodule in 37) ->
...`) and REPORT.md can group its error table the same way. The messages are the tool's own
(raised in codebase/repos.py, sources/rows.py, proposer/patches.py, agents/calls.py, ...); a
message no rule knows is `other`, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    code: str  # stable: a column of `errors`, a key of `run --json`'s errors_by_cause
    title: str
    way_out: str


# Short: the line of a cause is read on a terminal; README and the receipt say the rest.
_EXCLUDE = 'or [policy] unreadable = "exclude" (certify over the readable part)'
CAUSES: dict[str, Cause] = {c.code: c for c in (
    Cause("incomplete_tree", "incomplete tree",
          f"a complete mirror (README: Complete mirrors), [codebase] submodules, {_EXCLUDE}"),
    Cause("incomplete_scope", "incomplete scope",
          "an unshallow mirror, [codebase] stdlib_paths or a reachable registry, "
          f"{_EXCLUDE}"),
    Cause("row_unreadable", "row unreadable",
          "fix the row in the source, or the [fields] mapping that reads it"),
    Cause("patch_unreadable", "patch unreadable",
          "the row's gold or test patch is no usable unified diff: fix it in the source"),
    Cause("mirror_unusable", "mirror unusable",
          "fix [codebase] mirror (a bare repository, a clone or a bundle), or set "
          "codebase.fallback_clone = true to clone instead"),
    Cause("clone_failed", "clone failed",
          "check the network and [codebase] clone_url, or point [codebase] mirror at a local "
          "mirror; retried next run"),
    Cause("commit_missing", "base commit missing",
          "fetch the commit into the mirror, or use a mirror that has it; retried next run"),
    Cause("bad_commit", "base commit unusable",
          "give the row's base_commit as a full commit sha"),
    Cause("git_timeout", "git timed out",
          "raise [codebase] timeout, or use a local mirror; retried next run"),
    Cause("mirror_changed", "mirror changed while read",
          "leave the mirror alone while a run reads it; retried next run"),
    Cause("library_unreadable", "library unreadable",
          "check [codebase] stdlib_paths (a folder or a zip of the sources)"),
    Cause("agent_failed", "agent failed",
          "check the agent command (--agent, [agent] command) and the call's transcript "
          "(its hash is in the message, an object of the store); retried next run"),
    Cause("other", "other error", "read the message (REPORT.md, Errors; the case's receipt)"),
)}

# The per-case phases: an error of any other phase is an agent phase's (screen, witness, ...).
CASE_PHASES = ("load", "propose", "codebase", "settle")

# (cause, pattern on the message): the first that matches decides.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((c, re.compile(p)) for c, p in (
    ("incomplete_tree", r"^incomplete tree\b"),
    ("incomplete_scope", r"^incomplete scope\b|^cannot read the history before |"
                         r"^cannot read the date of "),
    ("mirror_changed", r"\(the mirror changed while it was read\?\)"),
    ("mirror_unusable", r"\(codebase\.mirror\)|^local mirror .* is not a git repository"),
    ("clone_failed", r"^cannot clone "),
    ("commit_missing", r"^base commit \S+ does not exist in "),
    ("bad_commit", r"^base commit .*(is ambiguous|is not a commit hash)"),
    ("git_timeout", r"^git \S+ timed out after "),
    ("patch_unreadable", r"does not parse as a unified diff|changes only binary files"),
    ("library_unreadable", r"no source files under |: cannot read "),
))


def cause_of(phase: str, message: str) -> Cause:
    """The cause of an error raised in `phase` with `message`."""
    if phase not in CASE_PHASES:
        return CAUSES["agent_failed"]
    for code, pattern in _RULES:
        if pattern.search(message):
            return CAUSES[code]
    if phase == "load":
        return CAUSES["row_unreadable"]
    return CAUSES["other"]


# `incomplete tree at <sha> (1 blob missing, a submodule): ...` (codebase/repos.py).
_SUMMARY = re.compile(r"^incomplete (?:tree|scope) at \S+ \(([^()]*)\)")
_ROW = re.compile(r"^row \d+: ")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def detail_of(cause: Cause, message: str) -> str:
    """What sets this case apart within its cause ("1 blob missing", "a submodule", "missing
    field `repo`", "timed out after 600 s"): cases with the same detail are counted together.
    "" when the cause has no finer kind."""
    first = message.split("\n", 1)[0]
    if cause.code in ("incomplete_tree", "incomplete_scope"):
        if m := _SUMMARY.match(first):
            return ", ".join(_bucket(part) for part in m.group(1).split(", "))
        # A tree that cannot be listed, or a message stored before it carried its summary:
        # what it names.
        kinds = [k for k, said in (("tree objects missing", ": cannot list "),
                                   ("blobs missing", "(missing blob"),
                                   ("a submodule", "(submodule")) if said in first]
        return ", ".join(kinds)
    if cause.code == "row_unreadable":
        what = _ROW.sub("", first)
        what = re.split(r" \(|: ", what, maxsplit=1)[0]
        return _QUOTED.sub("…", what)[:80]
    if cause.code == "agent_failed":
        what = first.split(": ", 1)[1] if ": " in first else first
        what = what.split(" (prompt ", 1)[0]
        return re.split(r": ", what, maxsplit=1)[0][:80]
    return ""


def _bucket(part: str) -> str:
    """`3 blobs missing` as `2-9 blobs missing`: cases count together by order of size."""
    n, _, rest = part.partition(" ")
    if not n.isdigit() or int(n) == 1:
        return part
    return f"{'2-9' if int(n) < 10 else '10+'} {rest}"


def plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def headline(cause: Cause, details: Iterable[tuple[str, int]], shown: int = 3) -> str:
    """`incomplete tree (1 blob missing in 79, a submodule in 37, ...)`: the cause and its
    commonest details with their case counts (`details`: (detail, cases), any order)."""
    ranked = sorted(((d, n) for d, n in details if d), key=lambda x: (-x[1], x[0]))
    if not ranked:
        return cause.title
    parts = [f"{d} in {n}" for d, n in ranked[:shown]]
    more = ", ..." if len(ranked) > shown else ""
    return f"{cause.title} ({', '.join(parts)}{more})"


@dataclass(frozen=True)
class Group:
    """The cases of one cause, for one summary line or one table of REPORT.md."""

    cause: Cause
    cases: int
    details: tuple[tuple[str, int], ...]  # (detail, cases)

    def headline(self) -> str:
        return headline(self.cause, self.details)

    def line(self) -> str:
        return f"{plural(self.cases, 'case')}: {self.headline()} -> {self.cause.way_out}"


def group(rows: Iterable[tuple[str, str, int]]) -> list[Group]:
    """Rows of (cause code, detail, cases) (queries/report_error_causes.sql) grouped by
    cause, most cases first."""
    by: dict[str, dict[str, int]] = {}
    for code, detail, n in rows:
        # A code this version does not know (a newer tool's, stored) is `other`: one group.
        details = by.setdefault(code if code in CAUSES else "other", {})
        details[detail or ""] = details.get(detail or "", 0) + n
    out = [Group(cause=CAUSES.get(code, CAUSES["other"]), cases=sum(d.values()),
                 details=tuple(sorted(d.items()))) for code, d in by.items()]
    return sorted(out, key=lambda g: (-g.cases, g.cause.code))


def first_line(message: str, limit: int = 200) -> str:
    """A message's first line, at most `limit` characters (the rest is in the receipt)."""
    line = message.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"
