"""Post-images (determinacy/proposer/postimage.py): a base blob with a patch applied in memory.

git is the oracle throughout: it writes every diff (any context size, any diff algorithm), the
edited file is what the post-image must equal byte for byte (CRLF read as LF), and git's own
`--unified=0` hunk headers, read here without unidiff, say which lines are added.
"""

from __future__ import annotations

import ast
import re
import subprocess
import time
from pathlib import Path

import pytest
from conftest import GIT_ENV, ROOT, diff, git, make_repo
from hypothesis import example, given, settings
from hypothesis import strategies as st

from determinacy.codebase.repos import list_tree
from determinacy.proposer.patches import FileDiff, parse_patch
from determinacy.proposer.postimage import PostImage, apply, file_line, post_images


def run_git(repo: Path, *args: str) -> str:
    """git's output decoded as UTF-8 whatever the locale (the cases hold non-ASCII text)."""
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True,
                          capture_output=True).stdout.decode()


_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def git_added(unified0: str) -> frozenset[int]:
    """The new-side lines git reports as added: with no context, each hunk's `+c,d` is them."""
    out: set[int] = set()
    for m in _HUNK.finditer(unified0):
        start, count = int(m[1]), int(m[2]) if m[2] is not None else 1
        out.update(range(start, start + count))
    return frozenset(out)


def lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def one(images: list[PostImage]) -> PostImage:
    assert len(images) == 1, images
    return images[0]


def one_diff(files: list[FileDiff]) -> FileDiff:
    assert len(files) == 1, files
    return files[0]


def images_at_base(tmp_path: Path, files: dict[str, str], changes: dict[str, str]
                   ) -> tuple[list[PostImage], str]:
    """The post-images of `changes` over a repository holding `files`, bases read through the
    real `Tree.read` at the base commit; and the patch."""
    repo = tmp_path / "repo"
    base = make_repo(repo, files)
    patch = diff(repo, base, changes)
    tree = list_tree(repo / ".git", base)
    return post_images(parse_patch(patch, "gold patch"), tree.read), patch


def check_fragment_map(frag: PostImage, img: PostImage) -> None:
    """A fragment of the same diff shows real lines of the post-image, mapped by file_line."""
    assert frag.fragment and not img.fragment
    post = img.text.split("\n")
    for k, line in enumerate(frag.text.split("\n")[:-1], 1):
        real = file_line(frag, k)
        if real == 0:
            assert line == ""  # the blank line between two hunks
        else:
            assert post[real - 1] == line
    assert {file_line(frag, k) for k in frag.added} == img.added


# --- the property: any edit of any file, as git diffs it --------------------------------------

REAL = {  # files of this very repository, as cases start from
    "real/patches.py": (ROOT / "determinacy" / "proposer" / "patches.py").read_text(
        encoding="utf-8"),
    "real/conftest.py": (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"),
}
# Repeated, blank and string-delimiting lines make diffs ambiguous (where a change goes is
# git's choice, which the post-image must not second-guess).
POOL = ["", "", "    pass", "x = 1", '"""', "'''", "def f():", "    return x", "}", "# é 中 🙂",
        "\t", "a\x0cb", "line\u2028sep", "mid\rcr", "end\\"]
TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\n\r\x00"), max_size=10)
LINE = st.one_of(st.sampled_from(POOL), TEXT)
OPS = st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]),
                         st.integers(0, 10_000), st.integers(1, 5),
                         st.lists(LINE, max_size=4)), min_size=1, max_size=5)


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str, str]:
    """(path, base text, edited text)."""
    source = draw(st.sampled_from([*REAL, "generated"]))
    if source == "generated":
        path = draw(st.sampled_from(["pkg/mod.py", "docs/notes.txt", "a dir/file.c"]))
        lines = draw(st.lists(LINE, max_size=30))
    else:
        path, lines = source, REAL[source].split("\n")[:-1]
    new = list(lines)
    for kind, at, count, repl in draw(OPS):
        i = at % (len(new) + 1)
        if kind == "insert":
            new[i:i] = repl or [""]
        elif kind == "delete":
            del new[i:i + count]
        else:
            new[i:i + count] = repl
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    new_eol = draw(st.sampled_from([eol, eol, eol, "\r\n" if eol == "\n" else "\n"]))

    def text(ls: list[str], sep: str) -> str:
        return sep.join(ls) + (sep if ls and draw(st.booleans()) else "")

    return path, text(lines, eol), text(new, new_eol)


def test_apply_matches_git_on_random_edits(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_repo(repo, REAL)

    @settings(max_examples=120, deadline=None, database=None)
    @given(case=cases(), context=st.sampled_from([0, 1, 3, 8]),
           algorithm=st.sampled_from(["myers", "minimal", "patience", "histogram"]))
    def check(case: tuple[str, str, str], context: int, algorithm: str) -> None:
        path, base, edited = case
        f = repo / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(base.encode())
        run_git(repo, "add", "--", path)  # the index holds the base; the work tree the edit
        f.write_bytes(edited.encode())
        how = [f"--diff-algorithm={algorithm}", "--"]
        patch = run_git(repo, "diff", f"-U{context}", *how, path)
        if not patch:
            assert base == edited
            return
        added = git_added(run_git(repo, "diff", "-U0", *how, path))
        files = parse_patch(patch, "gold patch")
        if not files:
            # unidiff calls a file removed when its one hunk leaves no new-side line (`+0,0`:
            # an emptied file, or with -U0 a deletion at the top), so parse_patch drops it;
            # nothing was added to it.
            assert not added and " +0,0 @@" in patch
            return
        fd = one_diff(files)
        img = one(post_images([fd], {path: base}.get))
        assert not img.fragment, img.why
        assert img.text == lf(edited)
        assert img.added == added
        assert file_line(img, 1) == 1
        check_fragment_map(apply(fd, None), img)

    check()


# --- hand cases -------------------------------------------------------------------------------

LONG = "".join(f"line {i}\n" for i in range(1, 101))


def staged(tmp_path: Path, files: dict[str, str], changes: dict[str, str | None],
           *flags: str) -> tuple[list[PostImage], str, list[str]]:
    """Like `images_at_base`, for what conftest's `diff` cannot write (a deletion: None; git
    diff `flags`; CRLF, which its text-mode output drops); also the paths that were read."""
    repo = tmp_path / "repo"
    base = make_repo(repo, files)
    for name, text in changes.items():
        if text is None:
            (repo / name).unlink()
        else:
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text)
    git(repo, "add", "-A")
    patch = run_git(repo, "diff", "--cached", *flags, base)  # bytes kept: CRLF stays
    tree = list_tree(repo / ".git", base)
    reads: list[str] = []

    def read(path: str) -> str | None:
        reads.append(path)
        return tree.read(path)

    return post_images(parse_patch(patch, "gold patch"), read), patch, reads


def test_new_deleted_binary_and_modified_files_in_one_patch(tmp_path: Path) -> None:
    images, patch, reads = staged(
        tmp_path, {"pkg/core.py": LONG, "pkg/old.py": "gone = 1\n", "data.bin": "\0\1\2"},
        {"pkg/core.py": LONG.replace("line 50\n", "line fifty\n"),
         "pkg/new.py": "def added():\n    return 2\n", "pkg/old.py": None, "data.bin": "\0\3"})
    assert "deleted file mode" in patch and "Binary files" in patch
    by_path = {img.path: img for img in images}
    assert set(by_path) == {"pkg/core.py", "pkg/new.py"}  # none of a deleted or binary file
    assert reads == ["pkg/core.py"]  # a new file has no base to read
    new = by_path["pkg/new.py"]
    assert (new.text, new.added, new.new_file, new.fragment, new.why) == \
        ("def added():\n    return 2\n", frozenset({1, 2}), True, False, "")
    core = by_path["pkg/core.py"]
    assert core.text == LONG.replace("line 50\n", "line fifty\n")
    assert core.added == {50} and not core.new_file and not core.fragment


def test_rename_with_changes_reads_the_old_path(tmp_path: Path) -> None:
    edited = LONG.replace("line 7\n", "line seven\nline 7.5\n")
    images, patch, reads = staged(tmp_path, {"pkg/long.py": LONG},
                                  {"pkg/long.py": None, "pkg/moved.py": edited})
    assert "rename from pkg/long.py" in patch
    img = one(images)
    assert reads == ["pkg/long.py"]
    assert (img.path, img.text, img.added, img.fragment) == \
        ("pkg/moved.py", edited, frozenset({7, 8}), False)


def test_copy_with_changes_reads_the_source(tmp_path: Path) -> None:
    edited = LONG.replace("line 99\n", "line 99\nline 99.5\n")
    images, patch, reads = staged(tmp_path, {"pkg/long.py": LONG}, {"pkg/copy.py": edited},
                                  "-C", "--find-copies-harder")
    assert "copy from pkg/long.py" in patch
    img = one(images)
    assert reads == ["pkg/long.py"]
    assert (img.path, img.text, img.added, img.fragment) == \
        ("pkg/copy.py", edited, frozenset({100}), False)


def test_pure_rename_is_the_base_with_nothing_added(tmp_path: Path) -> None:
    images, _, reads = staged(tmp_path, {"a.txt": LONG}, {"a.txt": None, "b.txt": LONG})
    img = one(images)
    assert reads == ["a.txt"] and (img.path, img.text, img.added) == ("b.txt", LONG, frozenset())


def test_context_mismatch_falls_back_to_a_fragment(tmp_path: Path) -> None:
    edited = LONG.replace("line 10\n", "line ten\n").replace("line 60\n", "line sixty\n")
    images, patch = images_at_base(tmp_path, {"f.txt": LONG}, {"f.txt": edited})
    fd = one_diff(parse_patch(patch, "gold patch"))
    img = one(images)
    assert not img.fragment and img.added == {10, 60}
    # The base the patch is applied to differs from the one it was made on, in each hunk.
    frag = apply(fd, LONG.replace("line 58\n", "line 58 changed\n"))
    assert frag.fragment and frag.why == "context mismatch at line 58"
    assert not frag.new_file
    assert frag.text == ("".join(f"line {i}\n" for i in range(7, 10)) + "line ten\n"
                         + "".join(f"line {i}\n" for i in range(11, 14)) + "\n"
                         + "".join(f"line {i}\n" for i in range(57, 60)) + "line sixty\n"
                         + "".join(f"line {i}\n" for i in range(61, 64)))
    check_fragment_map(frag, img)
    # A removed line that differs is a mismatch as much as a context line.
    assert apply(fd, LONG.replace("line 10\n", "line 10 \n")).why == "context mismatch at line 10"
    # A base too short for the second hunk.
    short = apply(fd, "".join(f"line {i}\n" for i in range(1, 40)))
    assert short.fragment and short.why == "context mismatch at line 57 (the base has 39 lines)"
    # A base with its lines shifted: exact application does not look for them elsewhere.
    shifted = apply(fd, "extra\n" + LONG)
    assert shifted.fragment and shifted.why == "context mismatch at line 7"


def test_hunks_out_of_order_or_past_a_final_line_are_fragments() -> None:
    base = "a\nb\nc\nd\n"
    backwards = ("--- a/f\n+++ b/f\n@@ -3,1 +3,1 @@\n-c\n+C\n@@ -1,1 +1,1 @@\n-a\n+A\n")
    img = apply(one_diff(parse_patch(backwards, "p")), base)
    assert img.fragment and img.why.startswith("context mismatch at line 1 (hunks overlap")
    # The patch says line 2 ends the file, but the base goes on.
    early_end = "--- a/f\n+++ b/f\n@@ -2,1 +2,1 @@\n-b\n+B\n\\ No newline at end of file\n"
    img = apply(one_diff(parse_patch(early_end, "p")), base)
    assert img.fragment and img.why.startswith("context mismatch at line 3")
    assert (img.text, img.added, file_line(img, 1)) == ("B\n", frozenset({1}), 2)
    # ... or a later hunk, or a later line of the same hunk, follows the end it claims.
    end_then_hunk = early_end + "@@ -4,1 +4,1 @@\n-d\n+D\n"
    assert apply(one_diff(parse_patch(end_then_hunk, "p")), base).why.startswith(
        "context mismatch at line 3")
    end_then_line = "--- a/f\n+++ b/f\n@@ -1,1 +1,2 @@\n-a\n+A\n\\ No newline at end of " \
                    "file\n+A2\n"
    assert apply(one_diff(parse_patch(end_then_line, "p")), base).why.startswith(
        "context mismatch at line 1")


def test_binary_and_non_git_names() -> None:
    binary = one_diff(parse_patch("diff --git a/x.png b/x.png\nindex 1..2 100644\n"
                                  "Binary files a/x.png and b/x.png differ\n", "p"))
    assert binary.binary and post_images([binary], lambda path: "") == []
    assert apply(binary, "").why == "binary diff"
    # unidiff takes differing names for a rename: the base under the new name is the one.
    orig = one_diff(parse_patch("--- f.txt.orig\n+++ f.txt\n@@ -1 +1 @@\n-a\n+b\n", "p"))
    assert orig.old_path == "f.txt.orig"
    img = one(post_images([orig], {"f.txt": "a\n"}.get))
    assert (img.fragment, img.text, img.added) == (False, "b\n", frozenset({1}))


def test_a_missing_base_or_repository_gives_fragments(tmp_path: Path) -> None:
    edited = LONG.replace("line 3\n", "line three\n")
    _, patch = images_at_base(tmp_path, {"f.txt": LONG}, {"f.txt": edited})
    files = parse_patch(patch, "gold patch")
    for img, why in [(one(post_images(files, None)), "no repository"),
                     (one(post_images(files, lambda path: None)), "base file missing"),
                     (apply(files[0], None), "base file missing")]:
        assert img.fragment and img.why == why
        assert img.text == "line 1\nline 2\nline three\nline 4\nline 5\nline 6\n"
        assert img.added == {3} and file_line(img, 3) == 3
    # A FileDiff built by hand, without the old sides, cannot be checked against a base.
    hand = FileDiff("f.txt", False, [[(1, "x\n", True)]])
    img = apply(hand, "y\n")
    assert img.fragment and img.text == "x\n" and img.added == {1}


@pytest.mark.parametrize(("base", "edited"), [
    ("a\nb", "a\nb\nc"),  # the base ends without a newline, the edit adds after it
    ("a\nb\n", "a\nb"),  # the edit removes the final newline
    ("a\nb", "a\nB"),  # both end without one; the last line changes
    ("a\nb\nc", "A\nb\nc"),  # an unchanged last line without newline, in the context
    ("a\nb\nc", "A\nb\nc\n"),
    ("x", "y"),
    ("", "x\ny\n"),  # an empty file gains lines
    ("", "x"),
])
def test_final_newlines(tmp_path: Path, base: str, edited: str) -> None:
    for context in ("-U3", "-U0"):
        images, _, _ = staged(tmp_path / context, {"f.txt": base}, {"f.txt": edited}, context)
        img = one(images)
        assert not img.fragment, img.why
        assert img.text == edited


def test_a_final_newline_the_base_lacks_is_tolerated(tmp_path: Path) -> None:
    _, patch = images_at_base(tmp_path, {"f.txt": "a\nb\n"}, {"f.txt": "a\nb\nc\n"})
    fd = one_diff(parse_patch(patch, "gold patch"))
    img = apply(fd, "a\nb")  # the same base but for its final newline
    assert (img.fragment, img.text, img.added) == (False, "a\nb\nc\n", frozenset({3}))


def test_crlf_files(tmp_path: Path) -> None:
    base = "one\r\ntwo\r\nthree\r\nfour\r\n"
    edited = "one\r\n2\r\nthree\r\nfour\r\nfive\r\n"
    images, patch, reads = staged(tmp_path, {"w.txt": base}, {"w.txt": edited})
    assert "\r\n" in patch
    img = one(images)
    assert (img.fragment, img.text, img.added) == (False, lf(edited), frozenset({2, 5}))
    # A base checked out with CRLF (or LF) applies a patch made on the other ending.
    fd = one_diff(parse_patch(patch, "gold patch"))
    assert apply(fd, lf(base)).text == lf(edited)


def test_a_hunk_that_starts_inside_a_string_parses_whole(tmp_path: Path) -> None:
    doc = "".join(f"    Paragraph {i} of a long docstring.\n" for i in range(1, 21))
    base = f'def f():\n    """Summary.\n\n{doc}    """\n    return 1\n\n\ndef g():\n    pass\n'
    edited = base.replace("Paragraph 19 of", "Paragraph nineteen of").replace(
        "    return 1\n", "    return 2\n")
    images, patch = images_at_base(tmp_path, {"m.py": base}, {"m.py": edited})
    img = one(images)
    assert not img.fragment and img.text == edited
    ast.parse(img.text)  # the post-image is whole Python
    hunk_alone = one(post_images(parse_patch(patch, "gold patch"), None))
    assert hunk_alone.text.startswith("    Paragraph 16")  # the hunk opens in the docstring
    with pytest.raises(SyntaxError):
        ast.parse(hunk_alone.text)  # ... so, parsed alone, its closing quotes open a string
    assert [img.text.split("\n")[n - 1] for n in sorted(img.added)] == \
        ["    Paragraph nineteen of a long docstring.", "    return 2"]


def test_multiple_hunks(tmp_path: Path) -> None:
    lines = LONG.split("\n")[:-1]
    lines[4] = "line five"
    del lines[40:43]
    lines[80:80] = ["inserted 1", "inserted 2"]
    edited = "\n".join(lines[:-1]) + "\nthe last line\n"
    images, patch = images_at_base(tmp_path, {"f.txt": LONG}, {"f.txt": edited})
    assert patch.count("\n@@ ") == 4
    img = one(images)
    assert not img.fragment and img.text == edited
    assert img.added == {5, 81, 82, 99}


def test_empty_files(tmp_path: Path) -> None:
    images, patch, reads = staged(tmp_path, {"keep.txt": "k\n"}, {"empty.txt": ""})
    assert "new file mode" in patch and "@@" not in patch
    img = one(images)
    assert (img.path, img.text, img.added, img.new_file, img.fragment) == \
        ("empty.txt", "", frozenset(), True, False)
    assert reads == []


def test_file_line_maps_a_fragment_back_to_the_file(tmp_path: Path) -> None:
    edited = LONG.replace("line 5\n", "line five\n").replace("line 50\n", "")
    images, patch = images_at_base(tmp_path, {"f.txt": LONG}, {"f.txt": edited})
    img = one(images)
    frag = one(post_images(parse_patch(patch, "gold patch"), None))
    first = [2, 3, 4, 5, 6, 7, 8]  # line 5 with three lines of context each side
    second = [47, 48, 49, 50, 51, 52]  # line 50 removed: base 47..53 less one
    assert [file_line(frag, k) for k in range(1, 15)] == [*first, 0, *second]
    assert frag.added == {4} and file_line(frag, 4) == 5
    assert frag.text.split("\n")[11] == "line 51"  # new-side line 50 is base line 51
    check_fragment_map(frag, img)
    assert file_line(img, 77) == 77  # a whole post-image's lines are the file's
    with pytest.raises(ValueError):
        file_line(frag, 15)
    with pytest.raises(ValueError):
        file_line(frag, 0)


WRONG_BASE_PATCH = (
    "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
    "@@ -9,2 +9,3 @@\n line 9\n+line 9.5\n line 10\n\\ No newline at end of file\n")
FITS = [f"line {i}" for i in range(1, 11)]


@settings(max_examples=80, deadline=None, database=None)
@example(base="\n".join(FITS))
@example(base="\n".join(FITS) + "\n")  # a final newline the patch says is not there
@given(base=st.lists(st.sampled_from([*FITS[:4], *FITS[8:], "", "x"]), max_size=12)
       .map("\n".join))
def test_apply_never_raises_on_a_wrong_base(base: str) -> None:
    img = apply(one_diff(parse_patch(WRONG_BASE_PATCH, "p")), base)
    lines = base.split("\n")
    fits = lines[1:4] == FITS[1:4] and lines[8:10] == FITS[8:] and (
        len(lines) == 10 or lines[10:] == [""])
    assert img.fragment == (not fits)
    if fits:
        assert img.text == "\n".join([*lines[:2], "line three", *lines[3:9], "line 9.5",
                                      "line 10"])
        assert img.added == {3, 10}
    else:
        assert img.why.startswith("context mismatch at line ")
        assert img.text == "line 2\nline three\nline 4\n\nline 9\nline 9.5\nline 10\n"


def test_large_files_apply_in_linear_time(tmp_path: Path) -> None:
    base = "".join(f"value_{i} = {i * 7919}  # a comment to make lines long\n"
                   for i in range(60_000))
    lines = base.split("\n")
    for i in range(0, 60_000, 50):
        lines[i] = lines[i].replace("= ", "= -")
    edited = "\n".join(lines)
    _, patch = images_at_base(tmp_path, {"big.py": base}, {"big.py": edited})
    assert len(base) > 3_000_000 and len(patch) > 300_000
    fd = one_diff(parse_patch(patch, "gold patch"))
    t = time.perf_counter()
    img = apply(fd, base)
    elapsed = time.perf_counter() - t
    assert not img.fragment and img.text == edited and len(img.added) == 1200
    assert elapsed < 1.0, elapsed  # about 0.02 s: one pass, no search
