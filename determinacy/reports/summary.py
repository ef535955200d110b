"""The numbers of REPORT.md as data: one struct per named query it prints (queries/report_*.sql),
the document `report.json` they make (schemas/Report.json), and how REPORT.md shows each.

Both files are written from the same rows, so they cannot disagree. In report.json a count is
an integer, a rate a fraction (0..1), an interval `[low, high]` of fractions, and NULL (null)
says "not applicable"; REPORT.md shows them as percentages, and "n/a" or "-" for null.
"""

from __future__ import annotations

import functools
import operator
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec

from determinacy.records import RunInfo
from determinacy.reports.markdown import md_table
from determinacy.reports.query import Named, dicts


class Row(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


# A rate: a fraction of its denominator. An interval: [low, high], each a fraction.
Fraction = Annotated[float, msgspec.Meta(ge=0, le=1)]
Interval = Annotated[list[Fraction], msgspec.Meta(min_length=2, max_length=2)]


class Spine(Row):
    """The claimable spine as a floor (queries/report_spine.sql)."""

    spine: int  # claimable cases: AIRTIGHT, MISDETERMINED, CODEBASE-PLURAL
    audited: int
    errors: int
    partial: int  # AIRTIGHT-PARTIAL, counted apart
    test_data: int  # GOLD-TEST-DATA, counted apart
    incomplete: int  # ERROR cases for an incomplete tree
    images: int  # audited cases whose prose shows the solver images
    images_spine: int  # ... of them in the floor
    fail_to_pass_empty: int  # rows that loaded with an empty FAIL_TO_PASS: they grade nothing
    total: int
    rate: Fraction | None  # spine / audited; null when nothing was audited
    wilson_95: Interval | None  # [low, high]


class Group(Row):
    """The spine of one repository or language (queries/report_groups.sql)."""

    dimension: Literal["repository", "language"]
    group: str
    cases: int
    audited: int
    errors: int
    claimable: int
    rate: Fraction | None
    wilson_95: Interval | None


class Tier(Row):
    """Cases of one verdict class (queries/report_tiers.sql); share and interval null for
    ERROR, which is not audited."""

    verdict: str
    status: str
    cases: int
    share: Fraction | None  # of the audited cases
    wilson_95: Interval | None
    ran: bool  # false: an agent's class, and no agent ran


class FunnelStep(Row):
    """Candidates stopped by one settle step and no earlier one (queries/report_funnel.sql)."""

    code: str  # the step's code (view settle_steps), `proposed` for the first row
    step: str
    candidates: int
    cases: int


class Scope(Row):
    """One absence scope (queries/report_scopes.sql)."""

    scope: str  # tree, history, stdlib, dependencies
    read: str  # what was read
    cases: int
    constants_found: int  # graded constants found there (so not claimed)
    cases_partial: int  # cases a part of it left partial


class Hint(Row):
    """What declaration hints would change (queries/report_hints.sql)."""

    code: Literal["hinted", "repaired_claims", "repaired_cases", "unrepairable_claims"]
    what: str
    claims: int | None  # null: the row counts cases only
    cases: int


class Error(Row):
    """A case that could not be audited (the `errors` view)."""

    case_id: str
    instance_id: str | None
    row: int
    phase: str
    message: str
    transient: bool  # retried by the next run
    cause: str | None  # its cause's stable code (determinacy/causes.py)
    cause_detail: str | None  # what sets it apart within its cause ("a submodule")


class History(Row):
    """A history source's mining (queries/report_history.sql)."""

    kind: Literal["walked", "candidates", "merges", "heuristic", "discarded"]
    item: str
    commits: int
    tasks: int
    audited: int
    claimable: int


class PlotPoint(Row):
    """A bar of claimable.png (queries/report_plot.sql)."""

    repository: str
    series: str
    k: int
    n: int
    rate: Fraction
    wilson_95: Interval


class ScreenLevel(Row):
    """The coverage screen of one pass, at one level (queries/report_screen.sql)."""

    pass_no: int
    level: Literal["behaviors", "cases"]
    screened: int
    gap: int
    gap_rate: Fraction | None  # an upper bound
    wilson_95: Interval | None


class Refutation(Row):
    """What the refuter did (queries/report_refutation.sql)."""

    contested: int
    survived: int
    pending: int


class AgentOutcome(Row):
    """Agent witnesses by what they were proposed as and became (queries/report_agent.sql)."""

    proposed_as: str | None  # the kind the agent gave (null: none)
    evidence_supports: str | None  # the class the verified evidence supports; null: none
    status: str
    witnesses: int
    cases: int


class Pass(Row):
    """An agent pass the tables include (queries/report_passes.sql)."""

    pass_no: int
    agent: str | None
    refuter: str | None  # null: no refuter answered
    refuter_is_agent: bool | None
    agent_calls: int


def _nullable(tp: Any) -> Any:
    """A field's type as the tables give it: an empty text is null there, in a nested record
    too (`nulled`, determinacy/reports/tables.py)."""
    origin = typing.get_origin(tp)
    if tp is str or origin is Literal:
        return tp | None
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, map(_nullable, typing.get_args(tp)))
    if origin is list:  # texts in a list stay texts; records in it are rows
        (item,) = typing.get_args(tp)
        return list[_nullable(item) if _is_struct(item) else item]  # type: ignore[misc]
    if origin is dict:
        key, value = typing.get_args(tp)
        return dict[key, _nullable(value)]  # type: ignore[valid-type]
    if _is_struct(tp):
        return _as_stored(tp)
    return tp


def _is_struct(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, msgspec.Struct)


@functools.cache
def _as_stored(struct: type[msgspec.Struct], name: str = "") -> Any:
    """`struct` as a row of the tables holds it: every field, each empty text null."""
    fields = [(f, _nullable(t)) for f, t in typing.get_type_hints(struct).items()]
    return msgspec.defstruct(
        name or struct.__name__, fields,
        bases=(Row,), kw_only=True, frozen=True, forbid_unknown_fields=True, module=__name__)


# The run as the `run` view has it: RunInfo's fields (a new one shows up here by itself), an
# empty text null; `passes` lists every pass the tables hold.
ReportRun = _as_stored(RunInfo, "ReportRun")


class Report(Row):
    """runs/<benchmark>/report.json: every number REPORT.md prints. The agent sections are
    empty when no pass is in the tables."""

    run: ReportRun  # type: ignore[valid-type]  # RunInfo, as stored
    spine: Spine
    groups: list[Group]
    tiers: list[Tier]
    funnel: list[FunnelStep]
    scopes: list[Scope]
    hints: list[Hint]
    errors: list[Error]
    history: list[History]
    plot: list[PlotPoint]
    screen: list[ScreenLevel]
    refutation: Refutation
    agent: list[AgentOutcome]
    passes: list[Pass]


_ERRORS = ("SELECT case_id, instance_id, \"row\", phase, message, transient, cause, "
           "cause_detail FROM errors ORDER BY \"row\", case_id, phase, message")


def _rows(q: Named, name: str, struct: type[Row]) -> list[Any]:
    return msgspec.convert(q.dicts(name), list[struct])  # type: ignore[valid-type]


def build(q: Named, run: dict[str, Any]) -> Report:
    agent = bool(run["passes"])
    return Report(
        run=msgspec.convert(run, ReportRun), spine=_rows(q, "report_spine", Spine)[0],
        groups=_rows(q, "report_groups", Group), tiers=_rows(q, "report_tiers", Tier),
        funnel=_rows(q, "report_funnel", FunnelStep),
        scopes=_rows(q, "report_scopes", Scope), hints=_rows(q, "report_hints", Hint),
        errors=msgspec.convert(dicts(q.con, _ERRORS), list[Error]),
        history=_rows(q, "report_history", History),
        plot=_rows(q, "report_plot", PlotPoint),
        screen=_rows(q, "report_screen", ScreenLevel) if agent else [],
        refutation=_rows(q, "report_refutation", Refutation)[0],
        agent=_rows(q, "report_agent", AgentOutcome) if agent else [],
        passes=_rows(q, "report_passes", Pass) if agent else [])


def encode(report: Report) -> str:
    """report.json's text: the struct's field order, two-space indents, no timestamp."""
    return msgspec.json.format(msgspec.json.encode(report, order="deterministic"),
                               indent=2).decode("utf-8") + "\n"


# -- how REPORT.md shows them ---------------------------------------------------------------


def pct(x: float | None, none: str = "n/a") -> str:
    return none if x is None else f"{100 * x:.1f}%"


def interval(v: list[float] | None, none: str = "n/a") -> str:
    return none if v is None else f"{pct(v[0])} – {pct(v[1])}"


Column = tuple[str, Callable[[Any], Any]]


def table(rows: list[Any], columns: list[Column]) -> str:
    return md_table([h for h, _ in columns], [tuple(get(r) for _, get in columns)
                                              for r in rows])


def groups(q: Named, dimension: str) -> str:
    return table([g for g in _rows(q, "report_groups", Group) if g.dimension == dimension], [
        (dimension, lambda g: g.group), ("cases", lambda g: g.cases),
        ("audited", lambda g: g.audited), ("errors", lambda g: g.errors),
        ("claimable", lambda g: g.claimable), ("rate", lambda g: pct(g.rate)),
        ("Wilson 95%", lambda g: interval(g.wilson_95))])


def tiers(q: Named) -> str:
    return table(_rows(q, "report_tiers", Tier), [
        ("verdict", lambda t: t.verdict), ("status", lambda t: t.status),
        ("cases", lambda t: t.cases), ("share of audited", lambda t: pct(t.share, "")),
        ("Wilson 95%", lambda t: interval(t.wilson_95, "")),
        ("phase", lambda t: "ran" if t.ran else "not run (no agent)")])


def funnel(q: Named) -> str:
    return table(_rows(q, "report_funnel", FunnelStep), [
        ("step", lambda s: s.step), ("candidates", lambda s: s.candidates),
        ("cases", lambda s: s.cases)])


def scopes(q: Named) -> str:
    return table(_rows(q, "report_scopes", Scope), [
        ("scope", lambda s: s.scope), ("what was read", lambda s: s.read),
        ("cases", lambda s: s.cases), ("graded constants found there", lambda s:
                                       s.constants_found),
        ("cases partial there", lambda s: s.cases_partial)])


def hints(q: Named) -> str:
    return table(_rows(q, "report_hints", Hint), [
        ("what", lambda h: h.what), ("claims", lambda h: h.claims), ("cases", lambda h: h.cases)])


def screen(q: Named) -> str:
    return table(_rows(q, "report_screen", ScreenLevel), [
        ("pass", lambda s: s.pass_no), ("level", lambda s: s.level),
        ("screened", lambda s: s.screened), ("GAP", lambda s: s.gap),
        ("GAP rate (upper bound)", lambda s: pct(s.gap_rate, "")),
        ("Wilson 95%", lambda s: interval(s.wilson_95, ""))])


def agent(q: Named) -> str:
    return table(_rows(q, "report_agent", AgentOutcome), [
        ("proposed as", lambda a: a.proposed_as),
        ("evidence supports", lambda a: a.evidence_supports or "-"),
        ("status", lambda a: a.status), ("witnesses", lambda a: a.witnesses),
        ("cases", lambda a: a.cases)])


def passes(q: Named) -> str:
    return table(_rows(q, "report_passes", Pass), [
        ("pass", lambda p: p.pass_no), ("agent", lambda p: p.agent),
        ("refuter", lambda p: p.refuter), ("refuter is the agent", lambda p: p.refuter_is_agent),
        ("agent calls", lambda p: p.agent_calls)])


def refutation(q: Named) -> Refutation:
    return _rows(q, "report_refutation", Refutation)[0]
