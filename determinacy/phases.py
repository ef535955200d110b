"""Per-case phases: propose -> codebase -> settle. Each goes through the action cache.

Between propose and codebase, one `search` per repository looks for every constant of all its
cases in one pass over its distinct blobs; the per-case codebase phase then reads its answers.

A phase writes a *ref*: a small JSON file naming its output object (or its error). doit tracks
refs; the action cache makes sure nothing is computed twice, whatever happened to doit's db.
A ref holds outputs only, not the action key, so a changed key with an identical output leaves
the ref's bytes alone and downstream phases stay up to date.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from pathlib import Path

import msgspec

from determinacy import languages, prescreens
from determinacy.codebase import repos, search  # scopes, stdlib: where used (no-op runs don't)
from determinacy.config import Config
from determinacy.errors import CaseFailure
from determinacy.paths import exclude_pathspecs
from determinacy.prescreens import testids
from determinacy.proposer import pool  # the rest of the proposer: where used (as scopes)
from determinacy.records import CaseError, CaseResult, CodebaseSearch, Proposal, Task
from determinacy.settle import settle, test_file
from determinacy.store import ActionKey, Store, digest, is_object_name, seal, write_if_changed

# Bump a phase's version when what it computes changes: its cached actions are then redone.
VERSIONS = {"propose": "36", "codebase": "16", "settle": "26"}
PHASES = tuple(VERSIONS)


class Ref(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    output: str = ""
    error: CaseError | None = None
    # An output that holds until a registry answers again (a dependency's fetch failed): the
    # next run computes it again, as it retries a transient error.
    again: bool = False
    # Ties the ref to its place (`<benchmark>/<phase>/<case>.json`): a ref copied from another
    # case or phase, or edited, no longer matches, and its phase runs again.
    seal: str = ""

    @property
    def retry(self) -> bool:
        return self.again or self.error is not None and self.error.transient


def _ref_seal(path: str | Path, ref: Ref) -> str:
    place = "/".join(str(path).rsplit("/", 3)[-3:])  # <benchmark>/<phase>/<case>.json
    return seal(place,
                msgspec.json.encode(msgspec.structs.replace(ref, seal=""), order="sorted"))


def read_ref(path: str | Path) -> Ref:
    with open(path, "rb") as f:  # a str too: the graph keeps refs as strings
        return msgspec.json.decode(f.read(), type=Ref)


def write_ref(path: Path, ref: Ref) -> None:
    ref = msgspec.structs.replace(ref, seal=_ref_seal(path, ref))
    write_if_changed(path, msgspec.json.encode(ref, order="sorted"))


def ref_needs_retry(path: str | Path, store: Store | None = None) -> bool:
    """Whether the phase that wrote `path` must run again: a transient error, a damaged ref
    (one not sealed to its place: its action is then found in the cache), or (given the
    store) an output object that is missing or damaged."""
    try:
        ref = read_ref(path)
    except (OSError, msgspec.DecodeError):
        return True
    if ref.seal != _ref_seal(path, ref) or ref.error is None and not is_object_name(ref.output):
        return True
    return ref.retry or (store is not None and bool(ref.output) and not store.intact(ref.output))


def _error(task: Task, phase: str, message: str, transient: bool) -> Ref:
    return Ref(error=CaseError(case_id=task.case_id, instance_id=task.instance_id, row=task.row,
                               phase=phase, message=message, transient=transient))


def finish(task: Task, phase: str, out: Path, body: Callable[[], Ref]) -> Ref:
    """Run a phase body, turn its CaseError into an error ref, write the ref."""
    try:
        ref = body()
    except CaseFailure as e:
        ref = _error(task, phase, str(e), e.transient)
    write_ref(out, ref)
    return ref


def upstream_error(out: Path, *upstream: Path) -> Ref | None:
    """The first upstream error, passed on as this phase's ref (a case fails once)."""
    for path in upstream:
        up = read_ref(path)
        if up.error is not None:
            write_ref(out, up)
            return up
    return None


def task_inputs(store: Store, task: Task) -> dict[str, str]:
    """Object hashes of a task's parts; phases key on the parts they read."""
    return {
        "gold": store.put(task.gold_patch.encode()),
        "test": store.put(task.test_patch.encode()),
        "prose": store.put(task.prose.encode()),
        "task": store.put_json(task),
    }


def propose_params(cfg: Config) -> dict[str, str | int | bool | list[str]]:
    """What proposing depends on besides the task: the policies and the syntax queries (a
    changed query or grammar recomputes every proposal)."""
    return {"test_paths": list(cfg.policy.test_paths), "min_length": cfg.policy.min_length,
            "queries": _queries_digest()}


@functools.cache  # once per process: query files and grammar wheels do not change under it
def _queries_digest() -> str:
    return languages.queries_digest()


def codebase_params(cfg: Config, task: Task) -> dict[str, str | int | bool | list[str]]:
    """What the search depends on besides the tree's content: where the mirror is (pointing
    the config at another mirror re-evaluates), and the policies."""
    mirror = cfg.mirror_path(task.repo)
    return {"repo": task.repo, "base_commit": task.base_commit, "absence": cfg.policy.absence,
            "excluded": excluded(cfg), "unreadable": cfg.policy.unreadable,
            "mirror": str(mirror) if mirror else "", "clone_url": cfg.clone_url(task.repo),
            "fallback_clone": cfg.codebase.fallback_clone}


def skipped(cfg: Config) -> list[str]:
    """Globs left out of the codebase search (the lenient policy's test paths)."""
    return list(cfg.policy.test_paths) if cfg.policy.absence == "lenient" else []


def excluded(cfg: Config) -> list[str]:
    """The same as git pathspecs, for the receipts' `git grep`."""
    return exclude_pathspecs(skipped(cfg))


def run_propose(store: Store, cfg: Config, task: Task, out: Path) -> Ref:
    from determinacy.proposer import imports
    from determinacy.proposer.convention import related
    from determinacy.proposer.patches import created_paths, new_paths, touched_paths

    inputs = task_inputs(store, task)

    def body() -> Ref:
        # Post-images start from the base files the patches touch; their blob ids (content
        # hashes) are in the key, so the same files at base are never parsed twice.
        tree = repos.open_tree(store, cfg, task.repo, task.base_commit)
        mirrors = related(new_paths(task.gold_patch), created_paths(task.gold_patch),
                          (e.path for e in tree.entries if e.kind == "blob"),
                          cfg.policy.test_paths)
        # And what tells a test's import from another module (`imports.READS`).
        touched = (touched_paths(task.gold_patch) | touched_paths(task.test_patch)
                   | set(mirrors) | imports.READS)
        bases = sorted([e.path, e.sha] for e in tree.entries if e.path in touched)
        key = ActionKey(phase="propose", version=VERSIONS["propose"],
                        params=propose_params(cfg),
                        inputs={"gold": inputs["gold"], "test": inputs["test"],
                                "tests": store.put_json(task.fail_to_pass),
                                "bases": store.put_json([bases, sorted(tree.missing)])})

        def compute() -> bytes:
            tree.preload(touched)  # post-images read these: one git process, not one each
            return pool.proposal(task.gold_patch, task.test_patch, cfg.policy.test_paths,
                                    cfg.policy.min_length, task.fail_to_pass, tree.read,
                                    touched, mirrors)

        h = store.action(key, compute)
        proposal = msgspec.json.decode(store.get(h), type=Proposal)
        if proposal.error:
            raise CaseFailure(proposal.error)
        return Ref(output=h)

    return finish(task, "propose", out, body)


def searched_constants(proposal: Proposal) -> list[str]:
    """The constants the codebase is searched for: a constant no FAIL_TO_PASS test grades can
    never certify, so it is not worth a search."""
    return sorted({k for c in proposal.candidates if not c.trivial and c.graded_by
                   for k in (c.constant, c.derived_from) if k})


def searched(proposal: Proposal, task: Task) -> list[str]:
    """What the tree is searched for: the constants, and the names of the tests FAIL_TO_PASS
    names (a test no file spells cannot run: prescreens/testids.py). Only the constants go on
    to the wider scopes."""
    return sorted({*searched_constants(proposal), *testids.names(task.fail_to_pass)})


def literals(proposal: Proposal) -> list[str]:
    """The searched constants some candidate takes as a literal: only these are looked for
    as whole strings of a library's code (a name is not, and four forms of each cost)."""
    return sorted({c.constant for c in proposal.candidates
                   if not c.trivial and c.graded_by and c.kind != "identifier"})


def gold_names(proposal: Proposal) -> list[str]:
    """The searched names the gold defines (and the generator tokens they derive from): a
    library gives these only as its vocabulary, the one count that reads its files again."""
    return sorted({k for c in proposal.candidates
                   if not c.trivial and c.graded_by and c.defuse == "gold→test"
                   for k in (c.constant, c.derived_from) if k})


def families(proposal: Proposal) -> list[str]:
    """The standard libraries a case's searched constants may come from: those of the
    languages its candidates are in (by syntax tree, else by the gold file's extension)."""
    from determinacy.codebase import stdlib

    out = set()
    for c in proposal.candidates:
        if c.trivial or not c.graded_by:
            continue
        lang = c.language
        if not lang and c.gold_at and (found := languages.for_path(
                c.gold_at[0].rsplit(":", 1)[0])) is not None:
            lang = found.name
        if lang in stdlib.FAMILY:
            out.add(stdlib.FAMILY[lang])
    return sorted(out)


def run_search(store: Store, cfg: Config, repo: str, cases: list[tuple[Task, Path]]) -> None:
    """Search every constant of the repository's cases in one pass over its distinct blobs
    (what the engine has not searched yet). Only warms the engine's cache: each case's
    codebase phase asks for its own answers, and reports its own errors."""
    from determinacy.codebase import scopes

    engine = search.engine(store)
    wants: list[tuple[frozenset[str], list[str]]] = []
    marks: list[str] = []
    todo: list[tuple[str, list[str], str]] = []
    wider: list[tuple[str, list[str], list[str]]] = []  # (commit, patterns, families)
    git_dir: Path | None = None
    state = repos.mirror_state(cfg, repo)
    for task, propose_ref in cases:
        try:
            up = read_ref(propose_ref)
        except (OSError, msgspec.DecodeError):
            continue
        if up.error is not None:
            continue
        proposal = msgspec.json.decode(store.get(up.output), type=Proposal)
        patterns = searched(proposal, task)
        # A case whose constants a stored batch covers is not listed again when a rerun
        # searches for another case of the repository.
        mark = digest(msgspec.json.encode([codebase_params(cfg, task), skipped(cfg), state,
                                           patterns], order="sorted"))
        if not patterns or engine.marked(repo, mark):
            continue
        try:
            git_dir, sha = repos.resolve(store, cfg, task.repo, task.base_commit)
        except CaseFailure:
            continue  # the case's codebase phase reports it
        todo.append((sha, patterns, mark))
        wider.append((sha, searched_constants(proposal), families(proposal),
                      literals(proposal)))
    if git_dir is None:
        return
    with contextlib.suppress(CaseFailure):  # else each tree is asked for on its own
        repos.survey(git_dir, sorted({sha for sha, _, _ in todo}))
    for sha, patterns, mark in todo:
        try:
            tree = repos.listed(git_dir, sha)
        except CaseFailure:
            continue
        wants.append((tree.blobs(skipped(cfg)), patterns))
        marks.append(mark)
    engine.ensure(git_dir, repo, wants)
    # The wider scopes of all the cases in one pass each too (else each case's codebase
    # phase scans a standard library for its own few constants).
    with contextlib.suppress(CaseFailure):
        scopes.warm(engine, store, cfg, git_dir, repo, wider, skipped(cfg))
    engine.mark(repo, marks)


def run_codebase(store: Store, cfg: Config, task: Task, propose_ref: Path, out: Path) -> Ref:
    from determinacy.codebase import scopes

    if (failed := upstream_error(out, propose_ref)) is not None:
        return failed
    up = read_ref(propose_ref)
    proposal = msgspec.json.decode(store.get(up.output), type=Proposal)
    constants = searched_constants(proposal)
    patterns = searched(proposal, task)

    def body() -> Ref:
        # The tree is listed before the key: the key covers what of it could be read, so a
        # mirror that gains (or loses) blobs is searched again.
        tree = repos.open_tree(store, cfg, task.repo, task.base_commit)
        state = tree.state(skipped(cfg))
        # What else absence holds over (history, standard libraries); what of it cannot be
        # read is unread like a missing blob.
        plan = scopes.plan(store, cfg, tree, families(proposal), skipped(cfg)) if constants \
            else scopes.Plan(commit=tree.commit, depth=0)
        state = msgspec.structs.replace(state, unread=[*state.unread, *plan.unread])
        repos.require_complete(state, cfg)
        key = ActionKey(phase="codebase", version=VERSIONS["codebase"],
                        params={**codebase_params(cfg, task), "commit": state.commit},
                        inputs={"patterns": store.put_json(patterns),
                                "tree": store.put_json(state),
                                "scopes": store.put_json(plan.key()),
                                "tests": store.put_json(task.fail_to_pass),
                                # Which test files exist and what they declare.
                                "patches": store.put_json([task.gold_patch,
                                                           task.test_patch])})

        def compute() -> bytes:
            engine = search.engine(store)
            found = engine.find(tree, task.repo, patterns, skipped(cfg))
            # Only what the tree lacks is looked for further: settle reads no scope for the
            # rest (the repository's search task already scanned the libraries for all).
            absent = [p for p in constants if p not in found.hits]
            wider = scopes.search(engine, tree.git_dir, task.repo, plan, absent,
                                  [x for x in literals(proposal) if x not in found.hits],
                                  [x for x in gold_names(proposal) if x not in found.hits],
                                  excluded(cfg))
            return msgspec.json.encode(CodebaseSearch(
                repo=task.repo, base_commit=task.base_commit, absence=cfg.policy.absence,
                excluded=excluded(cfg), searched=patterns, found=found.hits,
                variants=found.variants, tree=state, unreadable=cfg.policy.unreadable,
                missing_tests=missing_tests(task, tree),
                undeclared_tests=undeclared_tests(task, tree), scopes=wider), order="sorted")

        return Ref(output=store.action(key, compute),
                   again=any(u.why == "fetch failed" for u in plan.unread))

    return finish(task, "codebase", out, body)


def missing_tests(task: Task, tree: repos.Tree) -> list[str]:
    """FAIL_TO_PASS ids naming a test file that is neither in the tree at base_commit nor
    added by a patch: such a test cannot run."""
    from determinacy.proposer.patches import new_paths

    files = ({e.path for e in tree.entries} | new_paths(task.test_patch)
             | new_paths(task.gold_patch))
    return sorted(i for i in task.fail_to_pass if (f := test_file(i)) and f not in files)


def settle_params(cfg: Config) -> dict[str, str | int | bool | list[str]]:
    """What settling depends on besides its inputs: the pre-screens it runs too."""
    return {"prescreens": prescreens.VERSION, "leak_min_chars": cfg.validity.leak_min_chars}


def undeclared_tests(task: Task, tree: repos.Tree) -> list[str]:
    """pytest FAIL_TO_PASS ids whose own file, after the test patch, declares no test by
    that name (`testids.undeclared`). A file that cannot be read, or that the gold patch
    changes too, is unknown: never undeclared."""
    from determinacy.proposer.patches import new_paths, parse_patch, touched_paths
    from determinacy.proposer.postimage import apply

    try:
        diffs = {f.path: f for f in parse_patch(task.test_patch, "the test patch")}
    except CaseFailure:
        return []
    gold = touched_paths(task.gold_patch) | new_paths(task.gold_patch)
    out = []
    for i in task.fail_to_pass:
        path = test_file(i)
        if not path or not testids.leaf(i) or path in gold or tree.lacks(path):
            continue
        base = tree.read(path)
        if path in diffs:
            img = apply(diffs[path], base)
            text = None if img.fragment else img.text
        else:
            text = base
        if text is not None and testids.undeclared(i, text):
            out.append(i)
    return sorted(set(out))


def run_settle(store: Store, cfg: Config, task: Task, propose_ref: Path, codebase_ref: Path,
               out: Path) -> Ref:
    if (failed := upstream_error(out, propose_ref, codebase_ref)) is not None:
        return failed
    p_hash, c_hash = read_ref(propose_ref).output, read_ref(codebase_ref).output
    key = ActionKey(phase="settle", version=VERSIONS["settle"],
                    params=settle_params(cfg),
                    inputs={"proposal": p_hash, "codebase": c_hash,
                            "task": task_inputs(store, task)["task"]})

    def compute() -> bytes:
        proposal = msgspec.json.decode(store.get(p_hash), type=Proposal)
        search = msgspec.json.decode(store.get(c_hash), type=CodebaseSearch)
        result = settle(task, proposal, search)
        result = msgspec.structs.replace(result, validity=prescreens.of_case(
            task, search, result.checks, cfg.validity.leak_min_chars))
        return msgspec.json.encode(result, order="sorted")

    ref = Ref(output=store.action(key, compute))
    write_ref(out, ref)
    return ref


def load_result(store: Store, ref: Ref) -> CaseResult:
    return msgspec.json.decode(store.get(ref.output), type=CaseResult)
