"""Task validity, versioned (method §9): unreviewed / valid / disputed / broken.

Revision 0 is derived from the verdicts: a claimable case (AIRTIGHT, AIRTIGHT-PARTIAL,
MISDETERMINED, CODEBASE-PLURAL) is disputed, a GOLD-TEST-DATA case (its test reads a file only
the gold writes) broken, every other case unreviewed; the rule is
queries/score_tasks.sql. Revision N is revision 0 with the stored revisions 1..N applied in
order (a later one overrides an earlier one of the same task). A revision is appended, never
edited: scores/<benchmark>/validity/<N>.json is created once. The pre-screens' findings
(the `validity_checks` table) propose revisions (`proposals`); `accept` appends them, each
naming its check, and nothing else does.
"""

from __future__ import annotations

import datetime
import getpass
import re
from collections.abc import Iterator
from typing import Literal

import msgspec

from determinacy.errors import DeterminacyError
from determinacy.records import ValidityRevision
from determinacy.score.stored import benchmarks, encode, folder
from determinacy.store import Store, create_once, seal

State = Literal["valid", "disputed", "broken"]
STATES: tuple[State, ...] = ("valid", "disputed", "broken")
_NAME = re.compile(r"(\d{6})\.json")


def _seal(rev: ValidityRevision) -> str:
    fields = msgspec.to_builtins(msgspec.structs.replace(rev, seal=""))
    if not rev.check:  # as revisions were sealed before a pre-screen could propose one
        del fields["check"]
    return seal(msgspec.json.encode(fields, order="sorted"))


def revisions(store: Store, benchmark: str) -> list[ValidityRevision]:
    """Every stored revision, in order (1, 2, ...). A revision is a person's decision, which
    no run can recompute: a damaged one is an error naming its file."""
    out = []
    for p in sorted((folder(store, benchmark) / "validity").glob("*.json")):
        if not _NAME.fullmatch(p.name):
            continue
        try:
            rev = msgspec.json.decode(p.read_bytes(), type=ValidityRevision)
        except msgspec.DecodeError as e:  # ValidationError too
            raise DeterminacyError(f"{p}: a damaged validity revision ({e}); restore it from "
                                   "a backup of the store") from None
        if rev.seal and rev.seal != _seal(rev):
            raise DeterminacyError(f"{p}: a damaged validity revision (its bytes are not the "
                                   "ones written); restore it from a backup of the store")
        if rev.revision != len(out) + 1 or int(p.stem) != rev.revision:
            raise DeterminacyError(f"{p}: expected validity revision {len(out) + 1}, found "
                                   f"{rev.revision}; the revisions of {benchmark} are damaged")
        out.append(rev)
    return out


def damaged(store: Store) -> Iterator[str]:
    """Each benchmark's first validity revision that does not read back (`store verify`)."""
    for bench in benchmarks(store):
        try:
            revisions(store, bench)
        except DeterminacyError as e:
            yield f"validity: {e}"


def append(store: Store, benchmark: str, instance_id: str, validity: State, reason: str,
           author: str | None, verdict: str, time: str | None = None,
           check: str = "") -> ValidityRevision:
    """Store the next revision: `instance_id` is now `validity`, for `reason`."""
    if validity not in STATES:
        raise DeterminacyError(f"validity must be one of {', '.join(STATES)}, not {validity!r}")
    if not reason.strip():
        raise DeterminacyError("a revision needs a --reason")
    if author is None:
        try:
            author = getpass.getuser()
        except (KeyError, OSError):
            author = "unknown"
    when = time or datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    with store.lock(f"validity-{benchmark}"):
        n = len(revisions(store, benchmark)) + 1
        rev = ValidityRevision(revision=n, instance_id=instance_id, validity=validity,
                               reason=reason.strip(), author=author, time=when,
                               verdict=verdict, check=check)
        rev = msgspec.structs.replace(rev, seal=_seal(rev))
        path = folder(store, benchmark) / "validity" / f"{n:06d}.json"
        if not create_once(path, encode(rev)):
            raise DeterminacyError(f"{path} exists already: run again")
    return rev


def upto(revs: list[ValidityRevision], revision: int | None) -> list[ValidityRevision]:
    """The revisions applied at `revision` (default: the newest)."""
    if revision is None:
        return revs
    if revision < 0 or revision > len(revs):
        raise DeterminacyError(f"no validity revision {revision}: there are revisions 0 to "
                               f"{len(revs)}")
    return revs[:revision]


def set_validity(store: Store, benchmark: str, instance_id: str, validity: State,
                 reason: str, author: str | None) -> tuple[ValidityRevision, str]:
    """Append the revision that makes `instance_id` (a task of the stored audit) `validity`.
    Returns it and the task's validity before it."""
    from determinacy.reports.query import connect
    from determinacy.score.compute import load_tasks

    revs = revisions(store, benchmark)
    tasks = {t["instance_id"]: t for t in load_tasks(connect(store, benchmark), revs)}
    if instance_id not in tasks:
        raise DeterminacyError(f"the audit of {benchmark} has no task {instance_id!r} (see "
                               "`determinacy sql CONFIG \"select instance_id from verdicts\"`)")
    t = tasks[instance_id]
    rev = append(store, benchmark, instance_id, validity, reason, author, t["verdict"])
    return rev, t["validity"]


def listing(store: Store, benchmark: str) -> tuple[list[str], list[tuple[object, ...]]]:
    """Every revision as table rows, revision 0 (derived from the verdicts) first."""
    from determinacy.reports.query import connect
    from determinacy.score.compute import load_tasks

    revs = revisions(store, benchmark)
    tasks = load_tasks(connect(store, benchmark), [])
    disputed = sorted(t["instance_id"] for t in tasks if t["derived"] == "disputed")
    broken = sorted(t["instance_id"] for t in tasks if t["derived"] == "broken")
    cols = ["revision", "instance", "validity", "verdict", "author", "time", "reason"]
    rows: list[tuple[object, ...]] = [
        (0, f"{len(disputed)} claimable cases of {len(tasks)} tasks", "disputed", "claimable",
         "determinacy", "", "derived from the verdicts: every claimable case is disputed, "
         "every other unreviewed")]
    if broken:
        rows.append((0, f"{len(broken)} GOLD-TEST-DATA cases of {len(tasks)} tasks", "broken",
                     "GOLD-TEST-DATA", "determinacy", "", "derived from the verdicts: the "
                     "graded test reads a file only the gold patch writes, so no other fix "
                     "can pass"))
    rows += [(r.revision, r.instance_id, r.validity, r.verdict, r.author, r.time, r.reason)
             for r in revs]
    return cols, rows


class Proposal(msgspec.Struct, frozen=True, kw_only=True):
    """The validity the pre-screens propose for one task (the strongest of its findings)."""

    instance_id: str
    validity: State
    prescreen: str  # the check whose finding it is
    verdict: str  # the task's audit verdict
    now: str  # its validity at the newest revision
    reason: str
    accepted: bool  # a revision already applied it


def proposals(store: Store, benchmark: str) -> list[Proposal]:
    """Per task, the strongest revision its validity checks propose (broken over disputed;
    then the first check of prescreens.CHECKS), with every finding in the reason."""
    from determinacy.prescreens import CHECKS
    from determinacy.reports.query import connect, dicts
    from determinacy.score.compute import load_tasks

    con = connect(store, benchmark)
    revs = revisions(store, benchmark)
    tasks = {t["instance_id"]: t for t in load_tasks(con, revs)}
    found: dict[str, list[dict[str, object]]] = {}
    for r in dicts(con, "SELECT instance_id, prescreen, verdict, proposed, evidence FROM "
                        "validity_checks WHERE proposed IS NOT NULL ORDER BY instance_id"):
        found.setdefault(str(r["instance_id"]), []).append(r)
    out = []
    for iid, rows in sorted(found.items()):
        if iid not in tasks:
            continue
        rows.sort(key=lambda r: (r["proposed"] != "broken", CHECKS.index(str(r["prescreen"]))))
        top = rows[0]
        state: State = "broken" if top["proposed"] == "broken" else "disputed"
        done = any(r.instance_id == iid and r.check == top["prescreen"]
                   and r.validity == state for r in revs)
        out.append(Proposal(
            instance_id=iid, validity=state, prescreen=str(top["prescreen"]),
            verdict=tasks[iid]["verdict"], now=tasks[iid]["validity"], accepted=done,
            reason="; ".join(f"{r['verdict']} ({r['prescreen']}): {r['evidence']}"
                             for r in rows)))
    return out


def accept(store: Store, benchmark: str, instance_ids: list[str], prescreen: str | None,
           author: str | None) -> list[ValidityRevision]:
    """Append a revision for each proposal not yet accepted (of `instance_ids` when given,
    of the `prescreen` check when given). Naming a task with no proposal is an error."""
    props = proposals(store, benchmark)
    known = {p.instance_id for p in props}
    if missing := [i for i in instance_ids if i not in known]:
        raise DeterminacyError(f"no validity check proposes a revision for {missing[0]!r} "
                               "(see `determinacy validity CONFIG proposed`)")
    return [append(store, benchmark, p.instance_id, p.validity, p.reason, author, p.verdict,
                   check=p.prescreen)
            for p in props if not p.accepted and (not instance_ids or p.instance_id in
                                                  instance_ids)
            and (prescreen is None or p.prescreen == prescreen)]
