"""Settle what an agent proposed (method §3-§5). The agent proposes; only these checks decide.

Pure functions: the codebase is reached through the two callables a caller passes in
(`search`: which constants the tree at base contains; `read`: a file at base), so tests can
drive every rule without git, and a lying agent can only ever fail a check. What they settle
(the `agent_witnesses` and `behaviors` tables) feeds the verdict, which is decided in
`queries/views.sql` only; the mechanical candidates are settled by `determinacy/settle.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from determinacy.agents.calls import list_field, text_field
from determinacy.paths import is_test_path
from determinacy.prose import Prose
from determinacy.records import AgentWitness, Behavior, Candidate, Precedent, Task
from determinacy.settle import quote, receipt_command, ungraded_reason

Search = Callable[[list[str]], dict[str, str]]  # constants -> {found constant: "path:line"}
Read = Callable[[str], str | None]  # path at base -> text, None when absent

CLAIMABLE = ("AIRTIGHT", "MISDETERMINED", "CODEBASE-PLURAL")
NEEDS_REFUTATION = ("MISDETERMINED", "CODEBASE-PLURAL")
MIN_CLAUSE_WORDS = 3


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def in_text(quote: str, text: str, *, fold: bool = False, min_chars: int = 3) -> bool:
    """`quote` occurs in `text`, whitespace collapsed (and case folded with `fold`)."""
    q, t = squash(quote), squash(text)
    if len(q) < min_chars:
        return False
    return q.casefold() in t.casefold() if fold else q in t


def clause_verifies(clause: str, prose: str) -> bool:
    """A prose clause counts only when it is a real quote of at least three words."""
    return len(clause.split()) >= MIN_CLAUSE_WORDS and in_text(clause, prose, fold=True)


def settle_screen(task: Task, pass_no: int, answer: dict[str, Any],
                  gold_added: str) -> list[Behavior]:
    out = []
    for i, b in enumerate(list_field(answer, "behaviors")):
        test_id = text_field(b, "test_id")
        clause, snippet = text_field(b, "prose_clause"), text_field(b, "gold_snippet")
        clause_ok = clause_verifies(clause, task.prose)
        gold_ok = in_text(snippet, gold_added)
        if test_id not in task.fail_to_pass:
            label = "INVALID"
        elif not gold_ok:
            label = "OUT_OF_SCOPE"
        else:
            label = "COVERED" if clause_ok else "GAP"
        out.append(Behavior(case_id=task.case_id, pass_no=pass_no, index=i, test_id=test_id,
                            behavior=text_field(b, "behavior"), prose_clause=clause,
                            clause_ok=clause_ok, gold_snippet=snippet, gold_ok=gold_ok,
                            label=label))
    return out


def is_live(path: str, test_paths: Sequence[str], dead_paths: Sequence[str]) -> bool:
    return not is_test_path(path, test_paths) and not is_test_path(path, dead_paths)


def verify_precedent(p: Any, read: Read, test_paths: Sequence[str],
                     dead_paths: Sequence[str],
                     lacks: Callable[[str], bool] = lambda path: False) -> Precedent:
    """`lacks(path)`: the path is in the tree but cannot be read (the precedent is then
    unchecked, not absent)."""
    path, snippet, value = (text_field(p, k) for k in ("path", "snippet", "value"))
    path = path.strip()
    while path.startswith("./"):  # `./x` is `x`; `./../x` stays outside the tree
        path = path[2:]
    why = ""
    if not path or ".." in path.split("/") or path.startswith("/") or not _plain(path):
        why = "no usable path"
    elif not is_live(path, test_paths, dead_paths):
        why = "not a live path (test, vendor, example, fixture or deprecated code)"
    else:
        text = read(path)
        if text is None and lacks(path):
            why = "unreadable at base_commit (the mirror lacks its blob, or a submodule)"
        elif text is None:
            why = "no such file at base_commit"
        elif not in_text(snippet, text):
            why = "snippet not found verbatim in the file"
        elif not squash(value) or squash(value) not in squash(snippet):
            why = "value not found in the snippet"
        else:
            return Precedent(path=path, snippet=snippet, value=value, verified=True,
                             line=_line_of(snippet, text))
    return Precedent(path=path, snippet=snippet, value=value, verified=False, why=why)


def _plain(text: str) -> bool:
    """Printable text that encodes: what a file path of a repository can be."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(ch) < 32 for ch in text)


_WORDCHAR = re.compile(r"[A-Za-z0-9_]")


def in_code(constant: str, text: str) -> bool:
    """`constant` occurs in `text` as a whole token: a piece of a longer name is not the
    constant a test grades (`r_badge` inside `render_badge`)."""
    left = r"(?<![A-Za-z0-9_])" if _WORDCHAR.match(constant[:1]) else ""
    right = r"(?![A-Za-z0-9_])" if _WORDCHAR.match(constant[-1:]) else ""
    return re.search(left + re.escape(constant) + right, text) is not None


_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _line_of(snippet: str, text: str) -> int:
    """1-based line where the snippet's first non-blank line stands in `text` (0: unknown)."""
    first = next((ln.strip() for ln in snippet.splitlines() if ln.strip()), "")
    for n, line in enumerate(text.splitlines(), 1):
        if first and first in line:
            return n
    return 0


def precedent_command(precedents: Sequence[Precedent], base_commit: str) -> str:
    """Searches that print each verified precedent's value in its file at base_commit."""
    return " && ".join(
        f"git grep -F -n -e {quote(p.value.strip())} {base_commit} -- {quote(p.path)}"
        for p in precedents if p.verified)


_WITNESS_FIELDS = ("kind", "behavior", "r1", "r2", "constant", "test_assertion", "gold_anchor",
                   "prose_clause", "gold_value")


def settle_witnesses(
    task: Task, pass_no: int, answer: dict[str, Any], *, gold_added: str, test_added: str,
    candidates: Sequence[Candidate], search: Search, read: Read, test_paths: Sequence[str],
    dead_paths: Sequence[str], min_length: int, excluded: list[str], commit: str,
    missing_tests: Sequence[str] = (), lacks: Callable[[str], bool] = lambda path: False,
) -> list[AgentWitness]:
    """`commit` is the full sha `task.base_commit` resolved to: what the receipts name."""
    # The proposer is imported where an agent's answer is settled: a no-op run settles none.
    from determinacy.proposer.propose import trivial_reason

    prose = Prose(task.prose)
    ungraded = ungraded_reason(task, missing_tests)
    mechanical = {c.constant: c for c in candidates}
    raw = list_field(answer, "witnesses")
    proposals = [{k: text_field(w, k) for k in _WITNESS_FIELDS} for w in raw]
    for f in proposals:
        f["kind"] = f["kind"].strip().lower().replace("-", "_")
    # One codebase search for every airtight constant of the answer, not one per proposal;
    # absence is only ever concluded for a constant in this search.
    constants = sorted({f["constant"] for f in proposals if f["kind"] == "airtight"
                        and f["constant"] and not trivial_reason(f["constant"], min_length)})
    in_codebase = search(constants) if constants else {}
    out = []
    for i, (w, f) in enumerate(zip(raw, proposals)):
        kind = f["kind"]
        precedents = [verify_precedent(p, read, test_paths, dead_paths, lacks)
                      for p in list_field(w, "precedents")]
        verdict, status, reason, command = "", "rejected", "", ""
        if kind == "airtight":
            reason = ungraded or _airtight_failure(f, prose, gold_added, test_added, mechanical,
                                                   in_codebase, set(constants), min_length)
            if not reason:
                verdict, status = "AIRTIGHT", "claim"
                command = receipt_command(f["constant"], commit, excluded)
        elif kind in ("misdetermined", "plural", "determined_codebase"):
            verdict, status, reason = _codebase_verdict(f, precedents, gold_added, test_added)
            if verdict:
                command = precedent_command(precedents, commit)
        elif kind == "prose_affirmative":
            if clause_verifies(f["prose_clause"], task.prose):
                verdict, status = "PROSE-AFFIRMATIVE", "hypothesis"
            else:
                reason = "the prose clause is not a verbatim quote of the prose"
        elif kind == "borderline":
            verdict, status = "BORDERLINE", "hypothesis"
        else:
            reason = f"unknown kind {kind!r}"
        out.append(AgentWitness(
            case_id=task.case_id, pass_no=pass_no, index=i, kind=kind, verdict=verdict,
            status=status, reason=reason, precedents=precedents, command=command,
            **{k: v for k, v in f.items() if k != "kind"},
        ))
    return out


def _airtight_failure(f: dict[str, str], prose: Prose, gold_added: str, test_added: str,
                      mechanical: dict[str, Candidate], in_codebase: dict[str, str],
                      searched: set[str], min_length: int) -> str:
    """Method §6, the same checks as the mechanical tier; "" when every one holds."""
    from determinacy.proposer.propose import trivial_reason

    c = f["constant"]
    if not c or c != c.strip():
        return "no constant (or one with surrounding spaces)"
    if reason := trivial_reason(c, min_length):
        return f"trivial constant: {reason}"
    if not in_code(c, test_added):
        return "constant not in the test patch's added lines (as a whole token)"
    anchor = f["gold_anchor"]
    if not in_code(c, gold_added) and not (anchor and anchor in gold_added and in_code(c, anchor)):
        return "constant not in the gold patch's added lines (nor in a verified gold anchor)"
    if m := prose.match(c):
        return f"constant stated in the prose ({m})"
    names = _NAME.findall(c)
    crossing = [mechanical.get(n) for n in names]
    if names and all(m is not None and m.kind == "identifier" and m.defuse == "none"
                     for m in crossing):
        return "only names neither or both patches define: a correct fix cannot fail on them"
    if c not in searched:
        return "constant not searched in the codebase"
    if c in in_codebase:
        return f"constant present in the codebase at {in_codebase[c]}"
    return ""


def _codebase_verdict(f: dict[str, str], precedents: list[Precedent], gold_added: str,
                      test_added: str) -> tuple[str, str, str]:
    verified = [p for p in precedents if p.verified]
    if not verified:
        return "", "rejected", "no precedent verified"
    gold_value = squash(f["gold_value"])
    if not gold_value or gold_value not in squash(gold_added):
        return "", "rejected", "gold_value not found in the gold patch's added lines"
    pins = in_text(f["test_assertion"], test_added)
    differing = [p for p in verified if squash(p.value) != gold_value]
    if pins and _two_files_differ(verified):
        return "CODEBASE-PLURAL", "needs-refutation", ""
    if pins and differing:
        return "MISDETERMINED", "needs-refutation", ""
    if any(squash(p.value) == gold_value for p in verified):
        return "DETERMINED-CODEBASE", "determinate", ""
    if not pins:
        return "", "rejected", "test_assertion not found in the test patch's added lines"
    return "", "rejected", "precedents do not conflict"


def _two_files_differ(verified: list[Precedent]) -> bool:
    """Two precedents in different files that make different choices."""
    return any(a.path != b.path and squash(a.value) != squash(b.value)
               for a in verified for b in verified)


def apply_refutations(witnesses: list[AgentWitness], answer: dict[str, Any],
                      refuter: str) -> list[AgentWitness]:
    """Only a candidate the refuter explicitly failed to refute becomes a claim."""
    import msgspec

    pending = [w for w in witnesses if w.status == "needs-refutation"]
    judged: dict[int, tuple[bool, str]] = {}
    for r in list_field(answer, "refutations"):
        n = r.get("candidate") if isinstance(r, dict) else None
        if isinstance(n, int) and not isinstance(n, bool) and isinstance(
                r.get("comparable"), bool):
            judged.setdefault(n, (r["comparable"], text_field(r, "reason")))
    out = []
    for w in witnesses:
        if w.status == "needs-refutation":
            n = pending.index(w) + 1
            comparable, why = judged.get(n, (False, "the refuter gave no answer for it"))
            w = msgspec.structs.replace(
                w, status="claim" if comparable else "contested",
                reason=why if not comparable else (why or "the refuter failed to refute it"),
                refuter=refuter)
        out.append(w)
    return out


def candidates_text(witnesses: list[AgentWitness]) -> str:
    """The refuter's view of the pending candidates, numbered from 1."""
    parts = []
    for n, w in enumerate((w for w in witnesses if w.status == "needs-refutation"), 1):
        lines = [f"### Candidate {n}: {w.verdict}", f"Behavior: {w.behavior}",
                 f"The test pins: {w.r1}", f"Gold's value: {w.gold_value}",
                 f"Test assertion: {w.test_assertion}", "Precedents at the base commit:"]
        for p in w.precedents:
            if p.verified:
                lines += [f"- {p.path} (value: {p.value})", "```", p.snippet, "```"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
