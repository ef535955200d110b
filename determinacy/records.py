"""Records that cross phase boundaries. Each is stored as canonical JSON and as table rows.

`schemas/` holds their JSON Schema (`determinacy schemas` regenerates it; a test fails on drift).
"""

from __future__ import annotations

from typing import Literal

import msgspec


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class Task(Record, kw_only=True):
    """One benchmark task, normalized from its source row."""

    case_id: str  # safe as a file name and a doit task name
    instance_id: str
    row: int  # 1-based row (line) in the source
    repo: str  # owner/name
    base_commit: str
    prose: str  # every text the solver is given, joined with headings
    gold_patch: str
    test_patch: str
    fail_to_pass: list[str]
    pass_to_pass: list[str] = []
    # Images the solver is shown (linked from the prose, or the config's `fields.images`):
    # the text checks cannot read them, so a constant shown only in one would certify wrongly.
    images: list[str] = []
    kept: str = ""  # the config's `fields.keep` columns, as one JSON object ("" when none)
    # Mined from a repository's history: the commit (gold and test are its two parts), the
    # heuristics that found it, and FAIL_TO_PASS derived by the tool, not given by a benchmark.
    commit: str = ""
    found_by: list[str] = []
    tests_derived: bool = False


class MinedCommit(Record, kw_only=True):
    """A commit the history source walked (first-parent), and what became of it."""

    row: int  # its place in the walk, newest first (a task's `row`); merges: 0
    commit: str
    subject: str
    found_by: list[str] = []  # the heuristics that matched it (none: not a candidate)
    task: bool = False  # it became a task (row of the source)
    discarded: str = ""  # why a candidate, or a merge, is not a task


class CaseError(Record, kw_only=True):
    """A case that could not be audited (or not yet: `transient` ones are retried)."""

    case_id: str
    instance_id: str
    row: int
    phase: str
    message: str
    transient: bool = False


Kind = Literal["identifier", "string", "number"]


class Sibling(Record, kw_only=True):
    """An existing name (or string literal) at base that a new one follows (method §7:
    convention).

    `word` is what the new name has in place of part of the sibling's: one part replaced
    (`Metrics` for `MetricsExporterConfig` beside `TracingExporterConfig`, `25` for
    `Windows 11 Version 25H2` beside `Windows 11 Version 24H2`) or added, the words around a
    group's affix (`RocksDB` for `StoreRocksDB` beside `StoreMemory` and `StoreDisk`), the
    words of a message that replace its sibling's (space-separated), or the text a string
    adds to a whole base literal; "" when the two names differ only in case. Settling
    decides whether the prose (or `base_at`) gives `word`."""

    name: str
    at: str  # "path:line" at base_commit
    word: str = ""
    # "path:line" of a name the base has that gives `word`: the whole name a group's affix
    # is carried onto (`HTTPError` for `isHTTPError`), or a name the base makes the very
    # same change with (`try_recv_from` beside `recv_from`, for `try_peek_from`): a family
    # completed as the base completes its own, which the prose need not say.
    base_at: str = ""
    # Where `word` comes from when neither the prose nor the base names it, as the receipt
    # says it: a name the gold itself defines (`Bucket` for `NewBucket` beside `NewQueue`
    # and `NewHeap`), or a number inside the range a numbered family spans.
    why: str = ""


class Candidate(Record, kw_only=True):
    """A constant in the added lines of both patches: something a test may hinge on."""

    constant: str
    kind: Kind
    gold_at: list[str]  # "path:line" in the gold patch's new side (first few)
    test_at: list[str]  # "path:line" in the test patch's new side (first few)
    trivial: str = ""  # why it can never certify ("" when it can)
    # Identifiers only: "gold→test" (gold defines, test uses), "test→gold", or "none".
    defuse: str = ""
    rule: str = ""  # which rule proposed it, or why a name does not cross
    language: str = ""  # of the gold file it is in ("" when lexed without a syntax tree)
    decl: str = ""  # function, class, method, field, key, ... when a side defines it
    scope: str = ""  # where the gold's occurrence is declared: "" module, "Class.method", ...
    graded_by: list[str] = []  # the FAIL_TO_PASS ids whose tests reach the test's occurrence
    asserting: bool = False  # the test uses it in an assertion or expected value
    fragment: bool = False  # read from hunks alone (no base file): syntax was partial
    # Where a side defines it (identifiers): for declaration hints and convention.
    defined_at: str = ""  # "path:line" of the first definition
    owner: str = ""  # the class or type it is a member of
    new_file: bool = False  # the defining file does not exist at base_commit
    signature: str = ""  # a callable's declaration line(s), body left out
    siblings: list[Sibling] = []  # what it follows: names of its group, literals of its file
    # Test data only the gold ships: every gold occurrence is in this file, which the graded
    # test reads and the test patch does not write ("" otherwise); `test_data_at` is the
    # graded test line that loads it ("" when its test path alone says it is test data).
    test_data: str = ""
    test_data_at: str = ""
    # A name the gold defines only in generated files, derived from a token the gold adds to
    # the generator's input (`ACTIVE` of a .proto for `Status_ACTIVE`): that token is what
    # the prose and absence are checked for; `generator_input` is its "path:line".
    derived_from: str = ""
    generator_input: str = ""


class Proposal(Record, kw_only=True):
    """Output of the mechanical proposer for one case."""

    candidates: list[Candidate]
    gold_files: list[str]
    test_files: list[str]
    binary_files: list[str] = []  # skipped: a binary diff has no lines to read
    error: str = ""  # deterministic failure (a patch that does not parse)
    # FAIL_TO_PASS ids that name no test block of the test patch (a test elsewhere, or an id
    # format not understood: then the whole test patch counts as graded).
    unresolved_tests: list[str] = []
    fragments: list[str] = []  # files read from their hunks alone (no base, or no match)


class Unread(Record, kw_only=True):
    """A part of what absence is claimed over that could not be searched: absence is unknown
    there. `scope` says where: "" the tree at base_commit, "history" an ancestor's tree (path
    "<commit>:<path>") or a shallow end of the history, "stdlib" a standard library whose
    sources are required and not found, or older than the version the repository declares,
    "dependencies" a manifest that does not parse, a declared package no lockfile pins, or a
    pinned one whose sources could not be fetched (`detail` says why)."""

    path: str
    why: Literal["missing blob", "submodule", "shallow history", "no sources", "unparsed",
                 "not pinned", "fetch failed", "older version"]
    size: int = -1  # bytes; -1 when the mirror does not know (the blob itself is absent)
    scope: Literal["", "history", "stdlib", "dependencies"] = ""
    detail: str = ""


class ScopeRead(Record, kw_only=True):
    """One absence scope beyond the tree at base_commit, as one case's search read it: what it
    covered (`read`, for receipts and REPORT.md), how a skeptic re-checks a constant's absence
    there (`command`, with `{constant}` in place of the shell-quoted constant) and which
    searched constants it holds (constant -> where, "<commit>:<path>:<line>" in history,
    "<path>:<line>" in a library, "<package>@<version>:<path>:<line>" in a dependency). A
    library also says where it holds a constant as a whole string literal (`quoted`: in
    double, single or back quotes), what a literal needs there: a library spells countless
    words inside its own longer strings and names."""

    scope: Literal["history", "stdlib", "dependencies"]
    read: str
    command: str
    found: dict[str, str] = {}
    quoted: dict[str, str] = {}
    # Names a library holds as a whole word in at least 1% of its files: the language's own
    # vocabulary (`main`, `toString`), which a fix's new definitions take by default
    # (name -> "<n> of <N> files, <path>:<line>"); `vocabulary_command` counts them.
    vocabulary: dict[str, str] = {}
    vocabulary_command: str = ""
    files: int = 0  # a library's files


class TreeState(Record, kw_only=True):
    """What could be read of the tree at base_commit (the part the policy searches)."""

    commit: str  # the full sha the task's base_commit resolved to
    blobs: int  # files searched (distinct paths)
    unread: list[Unread] = []
    # What the mirror holds that would change a read and a plain clone does not copy (replace
    # refs, a grafts file): every read here ignores it, and the receipt says so.
    ignored: list[str] = []


class CodebaseSearch(Record, kw_only=True):
    """Which constants a fixed-string search of the tree at base_commit found, and where."""

    repo: str
    base_commit: str  # as the task gives it; `tree.commit` is the full sha searched
    absence: Literal["strict", "lenient"]
    excluded: list[str]  # glob pathspecs left out of the search (lenient policy)
    searched: list[str]
    found: dict[str, str]  # constant -> first "path:line"
    # An identifier not found, but present with other letter case: constant -> "path:line".
    variants: dict[str, str] = {}
    tree: TreeState | None = None
    unreadable: Literal["error", "exclude"] = "error"
    # FAIL_TO_PASS ids whose test file exists neither at base_commit nor in a patch.
    missing_tests: list[str] = []
    # pytest FAIL_TO_PASS ids whose own file, after the test patch, declares no test by that
    # name (prescreens/testids.py).
    undeclared_tests: list[str] = []
    # What absence also held over (recent history, standard libraries), in that order.
    scopes: list[ScopeRead] = []


class SearchBatch(Record, kw_only=True):
    """One pass of the codebase search engine: every constant of `constants` looked for in
    every blob of the object `blobs` (sorted blob shas, one per line). The pairs it covers are
    never searched again; `found[i]` lists the blobs (indices) holding `constants[i]`. A
    `variant` batch looks for identifiers in other letter case, in blobs that do not hold
    them exactly."""

    blobs: str  # object hash of the blob list
    constants: list[str]
    variant: bool = False
    found: list[list[int]] = []


class Check(Record, kw_only=True):
    """A candidate settled against the prose and the codebase: one row of `candidates`."""

    case_id: str
    constant: str
    kind: Kind
    gold_at: list[str]
    test_at: list[str]
    trivial: str
    defuse: str  # identifiers: how the name crosses the code-test boundary ("none": it does not)
    prose_match: str  # "" | "exact" | "case-insensitive" | "words"
    codebase_searched: bool
    codebase_at: str  # first "path:line" at base_commit, "" when absent
    # Absent, but an identifier the codebase has in other letter case: its "path:line".
    codebase_variant: str = ""
    certified: bool
    command: str  # the receipt: a shell command that prints nothing when `constant` is absent
    ungraded: str = ""  # why no test is graded at all ("" when FAIL_TO_PASS reaches the patch)
    # What the proposer read (see Candidate).
    rule: str = ""
    language: str = ""
    decl: str = ""
    scope: str = ""
    graded_by: list[str] = []
    asserting: bool = False
    fragment: bool = False
    defined_at: str = ""
    owner: str = ""
    new_file: bool = False
    signature: str = ""
    # A name the codebase's convention predicts: "`Sibling` at path:line (`Old`→`New`, a prose
    # word)". Never certified; the case is a CONVENTION hypothesis instead.
    convention: str = ""
    test_data: str = ""  # see Candidate: certified as GOLD-TEST-DATA, counted apart
    test_data_at: str = ""
    # Certified, though a sibling at base is near (one part or word off) and nothing gives
    # the word: "`Sibling` at path:line". Evidence for the claim, shown in the receipt: a
    # solver who follows the codebase writes the sibling's form, which the test fails.
    otherwise: str = ""
    # Absent from the tree but found in a wider scope a solver reads: "history" or "stdlib",
    # and where ("<scope what>: <where>"). Never certified.
    found_in: str = ""
    found_at: str = ""
    # What absence held over, for a certified constant: "tree", then each scope's `read`;
    # and the commands re-checking each wider scope.
    absent_from: list[str] = []
    scope_commands: list[str] = []
    # A generated name: the generator input's token it was checked as, and where the gold
    # adds it (Candidate.derived_from).
    derived_from: str = ""
    generator_input: str = ""


Prescreen = Literal["leaked", "test-ids", "gold-run", "underivable", "self-capturing",
                 "duplicate"]


class ValidityCheck(Record, kw_only=True):
    """A row of `validity_checks`: one pre-screen's finding on one case (determinacy/
    prescreens). Each is mechanical (`pointers` and `command` are what a skeptic re-checks) and
    proposes a validity revision that `determinacy validity CONFIG accept` applies, never a
    run."""

    case_id: str
    instance_id: str
    prescreen: Prescreen
    # LEAKED, UNRUNNABLE, GOLD-FAILS, GOLD-FLAKY, RECALL-ONLY, SELF-CAPTURING, DUPLICATE
    verdict: str
    evidence: str  # one sentence a maintainer reads
    pointers: list[str] = []  # "prose:line", "path:line" of a patch's new side, a file
    command: str = ""  # re-runs the check where a command can ("" when the pointers do)
    proposed: Literal["", "disputed", "broken"] = ""  # the validity it proposes
    share: float | None = None  # leaked: the share of the gold's added lines the prose shows
    literal: str = ""  # the test id, the literal, the other instance: what the check is about


class CaseResult(Record, kw_only=True):
    case_id: str
    checks: list[Check]
    binary_files: list[str] = []
    tree: TreeState | None = None
    scopes: list[ScopeRead] = []  # what absence also held over (`found` left out)
    validity: list[ValidityCheck] = []  # the per-case pre-screens (all but duplicates, runs)


class Selection(Record, kw_only=True):
    """Which of the source's rows a run audited (`run --instance-ids/--repo/--filter/--limit`):
    the rows every given criterion takes, in source order, the first `limit` of them. All
    empty: every row. Ids and repositories are kept sorted: the same selection given in
    another order is the same report."""

    instance_ids: list[str] = []
    repos: list[str] = []
    filter: str = ""  # a DuckDB SQL boolean expression over the task's columns
    limit: int | None = None
    # `run --shard I/N`: shard I (0-based) of N of what the rest selects, whole repositories
    # each (selection.shard_of); "" when not sharded.
    shard: str = ""

    @property
    def chooses(self) -> bool:
        """Some criterion besides `limit` (which alone is applied as the source is read)."""
        return bool(self.instance_ids or self.repos or self.filter or self.shard)


class RunInfo(Record, kw_only=True):
    """What produced a set of tables: printed in REPORT.md and stored with the tables."""

    benchmark: str
    description: str
    tool_version: str
    config_digest: str
    source: str
    source_revision: str
    absence: str
    test_paths: list[str]
    min_length: int
    passes: list[int]
    agent: str
    refuter: str = ""
    # blake3 of the source files' bytes, in order: which data, not only which file name.
    source_digest: str = ""
    # Config key -> the column (or dotted path) it was read from; prose fields separately.
    fields: dict[str, str] = {}
    prose_fields: list[str] = []  # in the order they are shown to the solver
    # The layout whose default mapping `fields` is (no [fields] table); "": the config's.
    fields_layout: str = ""
    unreadable: str = "error"  # policy for blobs and submodules that cannot be read
    # Where a reader gets each repository, as the config says it ({owner}, {name}): the
    # mirror (relative to the config's folder, `config_file`) when there is one, else the URL.
    mirror: str = ""
    clone_url: str = ""
    config_file: str = ""
    selection: Selection = msgspec.field(default_factory=Selection)


class AgentCall(Record):
    """One agent invocation, kept whole: what it was asked, what it printed."""

    phase: str
    case_id: str
    pass_no: int
    argv: list[str]
    prompt: str  # object hash of the exact prompt text
    transcript: str  # object hash of {"stdout", "stderr", "exit"}
    truncated: list[str] = []  # inputs shortened to fit the prompt (never silently)


class Behavior(Record):
    """A graded behavior from the coverage screen (method §3), settled against the texts."""

    case_id: str
    pass_no: int
    index: int
    test_id: str
    behavior: str
    prose_clause: str
    clause_ok: bool  # the clause was found in the prose
    gold_snippet: str
    gold_ok: bool  # the snippet was found in the gold patch's added lines
    label: str  # COVERED | GAP | OUT_OF_SCOPE | INVALID (test id not in FAIL_TO_PASS)


class Precedent(Record):
    path: str
    snippet: str
    value: str
    verified: bool = False
    line: int = 0  # where the snippet starts in the file, when verified
    why: str = ""  # what failed, when not verified


class AgentWitness(Record):
    """A witness the agent proposed, and what the settlers made of it."""

    case_id: str
    pass_no: int
    index: int
    kind: str  # what the agent said it is
    verdict: str  # the class the verified evidence supports ("" when none)
    status: str  # claim | determinate | hypothesis | contested | rejected
    reason: str  # why rejected, or the refuter's reason
    behavior: str = ""
    r1: str = ""
    r2: str = ""
    constant: str = ""
    test_assertion: str = ""
    gold_anchor: str = ""
    prose_clause: str = ""
    gold_value: str = ""
    precedents: list[Precedent] = []
    # The receipt: AIRTIGHT, a search that prints nothing; precedents, searches that print each.
    command: str = ""
    refuter: str = ""  # the refuter's argv, joined, when one judged this witness


class AgentResult(Record):
    """Output of an agent phase for one case and pass."""

    case_id: str
    pass_no: int
    calls: list[AgentCall] = []
    behaviors: list[Behavior] = []
    witnesses: list[AgentWitness] = []


# -- scores (determinacy/score/): results of models, validity revisions, computed scores ------

Outcome = Literal["pass", "fail", "error", "missing"]
Validity = Literal["unreviewed", "valid", "disputed", "broken"]


class ResultRow(Record, kw_only=True):
    """One model's result on one instance, as a results file states it."""

    instance_id: str
    model: str
    outcome: Outcome  # error: the harness could not evaluate it (infrastructure), not a failure
    where: str  # where the file says it: "line 3", "resolved_ids", "<folder>/report.json"
    # Per-test counts, when the file has them (jsonl fields, a per-instance report.json).
    f2p_passed: int | None = None
    f2p_total: int | None = None
    p2p_failed: int | None = None


class ResultFile(Record, kw_only=True):
    """A results file (or folder) read for scoring. Stored once under
    scores/<benchmark>/results/<blake3 of this record>.json and never rewritten."""

    path: str  # as given on the command line
    # swebench-report | swebench-experiments | instance-reports | swebench-pro-eval | jsonl
    format: str
    source_digest: str  # blake3 of the file's bytes (a folder: of its files' paths and bytes)
    tool_version: str  # the determinacy that read it
    rows: list[ResultRow]
    # What an instance of the audit the file does not name is: missing, or (a format that
    # lists only the exceptions, as SWE-bench's experiments results.json) a fail.
    unnamed: Literal["missing", "fail"] = "missing"


class ValidityRevision(Record, kw_only=True):
    """One task reclassified (method §9): scores/<benchmark>/validity/<revision>.json, created
    once and never rewritten. Revision 0 is not stored: it is derived from the verdicts
    (a claimable case is disputed, every other case unreviewed); revision N applies 1..N."""

    revision: int
    instance_id: str
    validity: Literal["valid", "disputed", "broken"]
    reason: str
    author: str
    time: str  # UTC, ISO 8601
    verdict: str  # the audit's verdict of the instance when the revision was made
    # blake3 of the revision without it: a damaged file is named, never read as another
    # decision ("" in revisions written before it was kept).
    seal: str = ""
    # The pre-screen whose proposal it accepts (ValidityCheck.prescreen; "" set by hand).
    check: str = ""


class ModelScore(Record, kw_only=True):
    """One model's scores over the audit's tasks (SCORES.md, the `scores` view)."""

    model: str
    rank: int  # by the all-attempted score (1 = best; ties share a rank)
    determinate_rank: int  # by the determinate-subset score
    attempted: int  # tasks scored: pass + fail (+ errors / missing the policy counts as fail)
    passed: int
    errors: int  # infrastructure errors, counted apart unless the policy says fail
    missing: int  # tasks of the audit the results do not name, apart unless the policy says
    broken: int  # tasks marked broken (validity): left out of every score
    not_in_audit: int  # results for instances the audit does not have: ignored
    score: float | None
    wilson_low: float | None
    wilson_high: float | None
    determinate_attempted: int  # attempted minus the disputed tasks
    determinate_passed: int
    determinate_score: float | None
    determinate_low: float | None
    determinate_high: float | None
    disputed_attempted: int
    disputed_passed: int
    sensitivity_low: float | None  # every disputed task counted against the model
    sensitivity_high: float | None  # ... and for it
    hypotheses_attempted: int  # unreviewed tasks whose verdict is a hypothesis
    hypotheses_passed: int
    band_low: float | None  # disputed and hypothesis tasks counted against the model
    band_high: float | None  # ... and for it (a wider band: hypotheses are readings)
    partial_tasks: int  # attempted tasks with per-test counts
    partial_credit: float | None  # mean clamp01((F2P passed - P2P regressed) / F2P total)
    partial_determinate: float | None  # the same over the determinate subset
    partial_disputed: float | None  # ... and over the disputed tasks
    # The same count with no task left out as broken: the benchmark's own number (under the
    # SWE-bench leaderboard convention, the leaderboard's). None in sets scored before it.
    benchmark_attempted: int | None = None
    benchmark_passed: int | None = None
    benchmark_score: float | None = None


class PairScore(Record, kw_only=True):
    """Two models compared on their common eligible set (both attempted, not broken)."""

    model_a: str  # the higher score on the common set
    model_b: str
    common: int
    a_passed: int
    b_passed: int
    a_only: int  # discordant: A passed, B failed
    b_only: int  # discordant: B passed, A failed
    mcnemar_p: float  # exact, two-sided (binomial on the discordant pairs)
    margin: float | None  # A's score minus B's on the common set
    disputed: int  # disputed tasks of the common set
    a_low: float | None  # A's sensitivity interval on the common set
    a_high: float | None
    b_low: float | None
    b_high: float | None
    resolved: bool
    why: str  # one sentence: what leaves it unresolved, or that nothing does


class RankStability(Record, kw_only=True):
    """Kendall tau-b between the all-attempted and the determinate-subset rankings, next to
    the taus of removing as many random tasks instead."""

    models: int
    removed: int  # disputed tasks among the scored ones: how many each draw removes
    tau: float | None
    draws: int
    seed: int
    defined: int  # draws whose tau is defined (no ranking all tied)
    random_mean: float | None
    random_low: float | None  # 2.5th percentile
    random_high: float | None  # 97.5th percentile
    at_or_below: float | None  # share of draws with a tau at most the observed one


class ClassRate(Record, kw_only=True):
    """How often the models solved the tasks of one verdict class (or validity state)."""

    group: str  # the verdict, or the validity state
    status: str  # claimable, hypothesis, determinate, ... (tiers.status) or "validity"
    tasks: int
    attempts: int  # (model, task) pairs scored
    passes: int
    rate: float | None
    solved_by_none: int  # tasks every model that attempted failed
    solved_by_all: int  # tasks every model that attempted solved


class ResultSource(Record, kw_only=True):
    path: str
    format: str
    source_digest: str
    record: str  # blake3 of the stored ResultFile
    models: list[str]
    rows: int


class ScorePolicy(Record, kw_only=True):
    """What a score counts a task the results do not name, or name as an error (SCORES.md
    names it above every table; determinacy/score/policy.py)."""

    convention: Literal["swebench-leaderboard", "attempted-only", "mixed"]  # the first: default
    errors: Literal["exclude", "fail"]  # fail: counted as unresolved; exclude: left out
    missing: Literal["exclude", "fail"]
    flags: str  # the options that give it
    text: str  # the sentence SCORES.md prints


class BrokenTask(Record, kw_only=True):
    """A task left out of every score, and what put it there (SCORES.md)."""

    instance_id: str
    revision: int  # the revision that made it broken (0: derived from its verdict)
    by: str  # the validity check whose proposal was accepted, "GOLD-TEST-DATA", or "hand"
    reason: str


class ScoreSet(Record, kw_only=True):
    """Every number of one `determinacy score`: SCORES.md and scores.json. Stored under
    scores/<benchmark>/scores/<blake3 of this record>.json, never rewritten; the `scores`
    view has one row per model of every stored set."""

    benchmark: str
    tool_version: str  # the determinacy that scored
    audit_tool_version: str  # the determinacy that audited (RunInfo.tool_version)
    source_digest: str  # the dataset's content hash (RunInfo.source_digest)
    passes: list[int]  # the agent passes the verdicts are taken over
    verdicts_digest: str  # blake3 of the sorted (instance_id, verdict) pairs used
    validity_revision: int  # revisions 1..N applied over revision 0 (verdict-derived)
    errors_policy: Literal["exclude", "fail"]
    missing_policy: Literal["exclude", "fail"]
    policy: ScorePolicy | None = None  # the convention named (None: a set scored before it)
    # The audit's selection when it took part of the source (None: every row): the scores
    # are then over those tasks, not the benchmark's.
    selection: Selection | None = None
    tasks: int  # tasks of the audit (by instance_id)
    disputed: int  # at this revision
    hypotheses: int
    broken: int
    results: list[ResultSource]
    revisions: list[ValidityRevision]  # the revisions applied (1..validity_revision)
    models: list[ModelScore]
    pairs: list[PairScore]
    rank_stability: RankStability
    by_verdict: list[ClassRate]
    by_validity: list[ClassRate]
    broken_tasks: list[BrokenTask] = []  # every broken task, with what made it broken


STORED_RECORDS: tuple[type[Record], ...] = (
    Task, CaseError, Sibling, Candidate, Proposal, Unread, ScopeRead, TreeState, CodebaseSearch,
    SearchBatch, Check, MinedCommit, ValidityCheck,
    CaseResult, RunInfo,
    AgentCall, Behavior, Precedent, AgentWitness, AgentResult,
    ResultRow, ResultFile, ValidityRevision, ModelScore, PairScore, RankStability, ClassRate,
    ResultSource, BrokenTask, ScoreSet,
)
