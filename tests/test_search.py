"""The codebase search engine answers what `git grep -F --text` answers.

Generated repositories (a few commits sharing, changing and removing files; text with unicode,
regex metacharacters, CRLF and leading dashes; binary blobs with NULs) are searched by the
engine the ways the tool uses it (one repository-level `ensure` then a `find` per commit; a
`find` per commit alone; a persisted store, then a new process's engine over the same store)
and by `git grep`, one process per (commit, constant). Hits must be equal, and so must the
"path:line" a reader is shown: git's first match, in git's path order.

The engine also searches the UTF-16 and Latin-1 text of a blob re-encoded as UTF-8, which
`git grep` does not; the generated blobs never have such a form (text is UTF-8 without NUL,
binary blobs start with an ASCII tag and hold NULs), so the comparison is an exact equality.
`git grep` runs with LC_ALL=C: byte semantics, which is what the engine claims to match.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from conftest import GIT_ENV, git, make_repo
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from determinacy.codebase import repos, scan, search
from determinacy.codebase.repos import Tree, list_tree
from determinacy.codebase.scan import Scanner, searchable
from determinacy.codebase.search import Engine, Found
from determinacy.errors import CaseFailure
from determinacy.records import Unread
from determinacy.store import Store

REPO = "acme/generated"
ENV = {**GIT_ENV, "LC_ALL": "C"}
# What the engine calls an identifier (the only constants with case variants).
IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")

# Pieces of file contents: few enough that constants hit often, and overlapping on purpose.
WORDS = ["foo", "foobar", "bar", "abab", "bab", "ab", "getUserId", "GETUSERID", "getuserID",
         "x_1", "$x"]
UNICODE = ["é", "É", "ß", "日本", "日", "Ω"]
META = [".*", "a.b", "+?", "[](){}", "|^$", "\\", "\\d", "(?i)", "%s"]
SPACING = [" ", "\t", "\n", "\r\n", "\r", "\n\n", "-", "--flag", "-e"]
TOKENS = WORDS + UNICODE + META + SPACING


def searchable_constant(constant: str) -> bool:
    """The engine's contract (written out again here): a line search can find it."""
    return bool(constant) and "\n" not in constant and "\0" not in constant


# ---- generated repositories ---------------------------------------------------------------

text_files = st.lists(st.one_of(st.sampled_from(TOKENS), st.sampled_from(["\n", "\r\n"])),
                      max_size=20).map(lambda ts: "".join(ts).encode())
binary_files = st.lists(
    st.one_of(st.sampled_from(TOKENS).map(str.encode), st.binary(max_size=6),
              st.sampled_from([b"\0", b"\0\0", b"\xff\xfe", b"\xe9", b"\xc3"])),
    max_size=10,
).map(lambda parts: b"BIN\0\0" + b"".join(parts))  # no BOM; NULs at even and odd offsets
segments = st.text(alphabet="ab-_.é日Z", min_size=1, max_size=3).filter(
    lambda s: s not in (".", ".."))
paths = st.lists(segments, min_size=1, max_size=3).map("/".join)


@dataclass
class History:
    commits: list[dict[str, bytes]]  # path -> content, commit by commit
    constants: list[str]


def _file_paths(drawn: list[str]) -> list[str]:
    """Drop a path that another path uses as a directory (a tree cannot hold both)."""
    return [p for p in drawn if not any(q.startswith(p + "/") for q in drawn)]


@st.composite
def histories(draw: st.DrawFn) -> History:
    contents = draw(st.lists(st.one_of(text_files, text_files, binary_files),
                             min_size=2, max_size=6))
    names = _file_paths(draw(st.lists(paths, min_size=1, max_size=8, unique=True)))
    commits: list[dict[str, bytes]] = []
    current: dict[str, bytes] = {}
    for _ in range(draw(st.integers(2, 4))):
        nxt: dict[str, bytes] = {}
        for p in names:
            # A file stays (its blob shared with the previous commit), goes, or changes.
            act = draw(st.sampled_from(["keep", "keep", "drop", "set"] if p in current
                                       else ["absent", "set"]))
            if act == "keep":
                nxt[p] = current[p]
            elif act == "set":
                nxt[p] = draw(st.sampled_from(contents))
        commits.append(nxt)
        current = nxt

    # Constants mostly from the lines of what the commits hold, so that they hit often.
    used = [c for files in commits for c in files.values()] or contents
    lines = [ln for c in used for ln in c.decode("utf-8", "replace").split("\n")]
    picked: list[str] = []
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(["substring"] * 3 + ["recased", "tokens", "text"]))
        if kind in ("substring", "recased"):
            s = draw(st.sampled_from(lines))
            i = draw(st.integers(0, len(s)))
            c = s[i:draw(st.integers(min(len(s), i + 1), min(len(s), i + 10)))]
            if kind == "recased":  # a case variant, when it is an identifier
                flips = draw(st.lists(st.booleans(), min_size=len(c), max_size=len(c)))
                c = "".join(ch.swapcase() if f else ch for ch, f in zip(c, flips))
        elif kind == "tokens":
            c = "".join(draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=3)))
        else:
            c = draw(st.text(max_size=4))
        if draw(st.integers(0, 5)) == 0:
            c = "-" + c
        picked.append(c)
    # Also what the engine never searches: empty, multi-line, NUL.
    picked += draw(st.lists(st.sampled_from(["", "foo\nbar", "a\0b", "\n"]), max_size=2))
    return History(commits=commits, constants=list(dict.fromkeys(picked)))


def _build(repo: Path, commits: list[dict[str, bytes]]) -> list[str]:
    """A bare repository holding the commits (one `git fast-import`); their shas in order."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "--bare")
    stream = bytearray()
    for n, files in enumerate(commits):
        stream += b"commit refs/heads/main\n"
        stream += b"committer t <t@example.invalid> %d +0000\ndata 1\nc\ndeleteall\n" % (n + 1)
        for path, data in sorted(files.items()):
            stream += b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data)
        stream += b"\n"
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, env=ENV, input=bytes(stream),
                   check=True, capture_output=True)
    return git(repo, "rev-list", "--reverse", "refs/heads/main").split()


def _grep(repo: Path, sha: str, constant: str, *flags: str) -> str | None:
    """git's answer: None when absent, else the first match's "path:line" (git's order)."""
    q = subprocess.run(["git", "grep", "-F", "-q", "--text", *flags, "-e", constant, sha],
                       cwd=repo, env=ENV, capture_output=True)
    assert q.returncode in (0, 1), (constant, q.stderr)
    if q.returncode == 1:
        return None
    # -z: "<commit>:<path>\0<line>\0<text>", safe whatever the path holds.
    n = subprocess.run(["git", "grep", "-F", "-n", "-z", "--text", *flags, "-e", constant, sha],
                       cwd=repo, env=ENV, capture_output=True)
    assert n.returncode == 0, (constant, n.stderr)
    where, line, _ = n.stdout.split(b"\0", 2)
    prefix = f"{sha}:".encode()
    assert where.startswith(prefix), n.stdout
    return f"{where[len(prefix):].decode()}:{int(line)}"


def _git_found(repo: Path, sha: str, constants: list[str]) -> Found:
    """What the engine must answer, from git alone: exact hits, and for identifiers absent
    exactly, the first match in other letter case (`-i`: ASCII only under LC_ALL=C)."""
    hits: dict[str, str] = {}
    variants: dict[str, str] = {}
    for c in constants:
        if not searchable_constant(c):
            continue
        if (at := _grep(repo, sha, c)) is not None:
            hits[c] = at
        elif IDENTIFIER.fullmatch(c) and (at := _grep(repo, sha, c, "-i")) is not None:
            variants[c] = at
    return Found(hits=hits, variants=variants)


def _ensure_then_find(engine: Engine, trees: list[Tree], constants: list[str]) -> list[Found]:
    """The repository-level pass the tool makes: one ensure over every tree, then finds."""
    engine.ensure(trees[0].git_dir, REPO, [(t.blobs(), constants) for t in trees])
    return [engine.find(t, REPO, constants) for t in trees]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()} if root.exists() else set()


# Hyperscan serves where its wheels exist; ahocorasick-rs everywhere.
BACKENDS = ["ahocorasick"] + (["hyperscan"] if scan.BACKEND == "hyperscan" else [])


@pytest.mark.skipif(len(BACKENDS) < 2, reason="no Hyperscan wheel for this platform")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=5), min_size=1, max_size=12),
       st.binary(max_size=200), st.booleans())
@example([b"elf", b"self", b"f", b"\xc3\xa9", b"a\0b"], b"self\0 myself a\0b \xc3\xa9", False)
@example([b"ab", b"AB", b"Ab"], b"xaBx", True)
def test_both_automata_find_the_same_constants(patterns: list[bytes], data: bytes,
                                               variant: bool) -> None:
    """Overlapping, nested, repeated and non-ASCII constants; NULs; exact and variant."""
    constants = [c for p in patterns if scan.searchable_constant(c := p.decode("utf-8",
                                                                                 "replace"))]
    got = {b: Scanner(constants, variant, backend=b).scan(data) for b in BACKENDS}
    assert got["hyperscan"] == got["ahocorasick"], got


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(histories())
@example(History(  # every kind of content and constant at once, always run
    commits=[{"d-x": b"-e foo\r\nabab\n", "d/a.txt": "\n日本 é\n[](){}|^$\\\n".encode(),
              "d.txt": b"BIN\0\0\xff\xe9 foobar\0getuserid\n"},
             {"d-x": b"-e foo\r\nabab\n", "d/é/b": b"x\nGETUSERID.*\n"}],
    constants=["abab", "bab", "foo", "foobar", "-e foo\r", "é", "日本", "[](){}|^$\\",
               "getUserId", "Ω", ".*", "", "foo\nbar", "a\0b"]))
def test_engine_answers_as_git_grep(history: History) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo.git"
        shas = _build(repo, history.commits)
        trees = [list_tree(repo, sha) for sha in shas]
        assert not any(t.missing for t in trees)
        # The premise of an exact comparison: no blob has a decoded (UTF-16, Latin-1) form.
        # (Binary blobs hold NULs at both parities, so only a freak draw looks like UTF-16.)
        blobs = sorted({e.sha for t in trees for e in t.entries})
        for _, data in repos.cat_blobs(repo, blobs):
            assert data is not None
            assume(len(searchable(data)) == 1)

        constants = history.constants
        want = [_git_found(repo, sha, constants) for sha in shas]

        def check(got: list[Found], how: str) -> None:
            for n, (g, w) in enumerate(zip(got, want)):
                assert g.hits == w.hits, (how, n, history.commits[n])
                assert g.variants == w.variants, (how, n, history.commits[n])

        check(_ensure_then_find(Engine(None), trees, constants), "ensure, then find")
        for backend in BACKENDS:  # each automaton the engine may use, the same answers
            with mock.patch.object(scan, "BACKEND", backend):
                check(_ensure_then_find(Engine(None), trees, constants), backend)
        # No ensure: each find searches what its tree adds to the earlier ones.
        alone = Engine(None)
        check([alone.find(t, REPO, constants) for t in trees], "find alone")
        # Partly covered pairs: a part of the constants first, the rest with the next find.
        half = Engine(None)
        for n, t in enumerate(trees):
            half.find(t, REPO, constants[n % 2::2])
        check([half.find(t, REPO, list(reversed(constants))) for t in trees], "in parts")

        root = Path(tmp) / "store"
        check(_ensure_then_find(Engine(Store(root)), trees, constants), "persisted")
        if any(t.blobs() for t in trees) and any(map(searchable_constant, constants)):
            assert _files(root / "search"), "the pass was not stored"
        before = _files(root)
        # A new process over the same store: everything is covered, nothing is scanned again.
        with mock.patch.object(search, "_search",
                               side_effect=AssertionError("scanned again")):
            check([Engine(Store(root)).find(t, REPO, constants) for t in trees], "reopened")
        assert _files(root) == before


# ---- case variants --------------------------------------------------------------------------

def test_case_variants_are_shown_where_they_are_and_never_count_as_hits(tmp_path: Path) -> None:
    """An identifier present only in other letter case is a variant (its first place, in
    path order); one present exactly is a hit, and then never a variant, even where an earlier
    file holds it in other case."""
    repo = tmp_path / "r"
    sha = make_repo(repo, {"a/first.py": "x = 1\nuid = getUserId()\n",
                           "b.py": "y = 2\nz = 3\nGETUSERID = 2\n", "c.txt": "user id\n"})
    tree = list_tree(repo / ".git", sha)
    found = Engine(None).find(tree, "r", ["getUserID", "getUserId", "GETUSERID", "USER ID",
                                          "getUserIdx"])
    assert found.hits == {"getUserId": "a/first.py:2", "GETUSERID": "b.py:3"}
    # Not an identifier ("USER ID"), or nowhere in any case ("getUserIdx"): neither.
    assert found.variants == {"getUserID": "a/first.py:2"}


# ---- fail closed ----------------------------------------------------------------------------

def _loose(git_dir: Path, sha: str) -> Path:
    """The loose object file of `sha` (a repository `git add` wrote, never packed)."""
    path = git_dir / "objects" / sha[:2] / sha[2:]
    assert path.is_file(), path
    return path


def test_a_blob_the_mirror_lacks_is_unread_never_absent(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    # Content unique to this test: the process's blob cache must not already hold it.
    sha = make_repo(repo, {"a.txt": "kept_constant\n",
                           "lost/b.txt": f"lost_constant {tmp_path}\n"})
    git_dir = repo / ".git"
    lost = git(repo, "rev-parse", f"{sha}:lost/b.txt").strip()
    _loose(git_dir, lost).unlink()
    tree = list_tree(git_dir, sha)
    assert tree.missing == {lost} and lost not in tree.blobs()
    assert tree.state().unread == [Unread(path="lost/b.txt", why="missing blob")]
    with mock.patch.object(repos, "cat_blobs", wraps=repos.cat_blobs) as cat:
        found = Engine(None).find(tree, "r", ["kept_constant", "lost_constant"])
    assert found.hits == {"kept_constant": "a.txt:1"}  # callers see `unread`: absence unknown
    assert cat.called and all(lost not in call.args[1] for call in cat.call_args_list)


def test_a_blob_lost_after_listing_fails_the_search(tmp_path: Path) -> None:
    """A blob listed as present that cat-file cannot give is an error, not an absence, and
    leaves nothing stored that would later claim one."""
    repo = tmp_path / "r"
    sha = make_repo(repo, {"a.txt": "kept_constant\n", "b.txt": f"late_constant {tmp_path}\n"})
    git_dir = repo / ".git"
    tree = list_tree(git_dir, sha)
    assert not tree.missing
    obj = _loose(git_dir, git(repo, "rev-parse", f"{sha}:b.txt").strip())
    saved = obj.read_bytes()
    obj.unlink()
    store = tmp_path / "store"
    engine = Engine(Store(store))
    for _ in range(2):  # the failed pair stays uncovered: asked again, it fails again
        with pytest.raises(CaseFailure) as err:
            engine.find(tree, "r", ["kept_constant", "late_constant"])
        assert err.value.transient
    obj.write_bytes(saved)
    want = {"kept_constant": "a.txt:1", "late_constant": "b.txt:1"}
    assert Engine(Store(store)).find(tree, "r", ["kept_constant", "late_constant"]).hits == want
    assert engine.find(tree, "r", ["kept_constant", "late_constant"]).hits == want


def test_a_damaged_batch_is_never_trusted(tmp_path: Path) -> None:
    """A stored batch whose bytes were altered (yet still parse) covers nothing: the pairs
    are searched again instead of answering "absent" from it."""
    repo = tmp_path / "r"
    sha = make_repo(repo, {"a.txt": "needle here\n"})
    tree = list_tree(repo / ".git", sha)
    store = Store(tmp_path / "store")
    assert Engine(store).find(tree, REPO, ["needle"]).hits == {"needle": "a.txt:1"}
    [batch] = [p for p in (store.root / "search").rglob("*") if p.is_file()
               and p.parent.name != "marks"]
    obj = store.root / "objects" / batch.name[:2] / batch.name
    original = obj.read_bytes()
    assert b'"found":[[0]]' in original
    obj.write_bytes(original.replace(b'"found":[[0]]', b'"found":[[]]'))
    assert Engine(store).find(tree, REPO, ["needle"]).hits == {"needle": "a.txt:1"}
