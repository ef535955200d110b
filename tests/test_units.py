"""The pure pieces a verdict rests on: prose normalization, test paths, lexing, the search."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import commit, diff, make_repo

from determinacy.codebase import search
from determinacy.codebase.repos import list_tree
from determinacy.config import DEFAULT_TEST_PATHS
from determinacy.paths import exclude_pathspecs, is_test_path
from determinacy.proposer.propose import propose, trivial_reason
from determinacy.prose import Prose, inflections, singulars, words
from determinacy.settle import receipt_command


def test_words_split_every_identifier_style() -> None:
    for ident in ("renderBadge", "render_badge", "render-badge", "RenderBadge", "RENDER_BADGE"):
        assert words(ident) == ["render", "badge"], ident
    assert words("HTTPServerError") == ["http", "server", "error"]


def test_prose_normalizations_only_make_certification_harder() -> None:
    p = Prose("Add a way to render a Badge.\nThe low stock flag; Use `--dry-run`.")
    assert p.match("render a Badge") == "exact"
    assert p.match("RENDER A BADGE") == "case-insensitive"
    assert p.match("lowStock") == "words"
    assert p.match("low_stock") == "words"
    assert p.match("dry_run") == "words"
    assert p.match("render_badge") == ""  # "render a badge" is not the run "render badge"
    assert p.match("lowStockFlagX") == ""
    # A run said in another order or number states the name too: "filename format" and
    # "terminal widths" give `format_filename` and `terminal_width` (a solver could write
    # either; only a word the prose lacks, or a word between, keeps a claim).
    q = Prose("Added a filename format function; explicit terminal widths; int ranges.")
    for name in ("stockLow", "flagStockLow"):
        assert p.match(name) == "words, singular or reordered", name
    assert q.match("TerminalWidths") == "words"
    for name in ("format_filename", "terminal_width", "IntRange"):
        assert q.match(name) == "words, singular or reordered", name
    for name in ("format_file_name", "filename_formatter", "width_of_terminal", "ranges_int_x"):
        assert q.match(name) == "", name
    for one, many in [("width", "widths"), ("box", "boxes"), ("entry", "entries"),
                      ("release", "releases"), ("cache", "caches"), ("cookie", "cookies")]:
        assert singulars(one) & singulars(many), (one, many)
    for a, b in [("http", "https"), ("new", "news"), ("clas", "class"), ("statu", "status")]:
        assert not singulars(a) & singulars(b), (a, b)
    r = Prose("Serve it over HTTPS port 8443 with the new releases, and more test cases.")
    assert r.match("HTTP_PORT") == "" and r.match("new_release") and r.match("test_case")
    # A single word keeps its ending: "window" does not state `WINDOWS`, nor "new" `news`.
    assert Prose("Close the window.").match("WINDOWS") == Prose("A new one.").match("news") == ""


def test_prose_states_a_run_of_its_words_with_other_endings_and_one_word_apart() -> None:
    """Three words or more, glue aside, with other endings and one word more or less: what the
    prose says as a solver would write it. Two words, or two words apart, stay open."""
    loose = "words, inflected, one apart"
    p = Prose("Setting terminal window title (#2200)")
    assert p.match("SET_WINDOW_TITLE") == loose  # "terminal" between
    assert p.match("set_terminal_title") == loose  # "window" left out
    assert p.match("SET_TITLE") == ""  # two words, one apart
    assert p.match("set_window_size") == ""  # a word the prose lacks
    assert p.match("title_window_set") == ""  # another order, apart
    # A message is compared as text: only glue may differ, never an ending or a word.
    q = Prose("validate that threading.thread_by_date is either 'none' or 'daily'")
    glue = "words, glue aside"
    assert q.match("threading.thread_by_date must be either 'none' or 'daily'") == glue
    assert q.match("threading.thread_by_date must be set to one of 'none' or 'daily'") == ""
    assert Prose("Disable overriding methods in final classes.").match(
        "Cannot override method on final class") == ""
    assert Prose("Removed the cache directories.").match("remove_cache_directory") == loose
    # The prose writes a message out for a sibling: one word swapped for another of its own.
    r = Prose('Errors: ".pick() cannot be used on schemas with refinements". Fix partial.')
    swapped = "words, one replaced by another of the prose"
    assert r.match(".partial() cannot be used on schemas with refinements") == swapped
    assert r.match(".extend() cannot be used on schemas with refinements") == ""
    assert r.match(".partial() cannot be used on schemas with partial refinements") == ""
    for word, stem in [("setting", "set"), ("removing", "remove"), ("stopped", "stop"),
                       ("destroyed", "destroy")]:
        assert stem in inflections(word), word


def test_prose_states_what_it_names_behind_an_accessor_verb() -> None:
    """`SetDefaultShellCompDirective` for "the default ShellCompDirective can be customized":
    the language's accessor idiom before words the prose says in a run (two at least)."""
    p = Prose("The default ShellCompDirective can be customized for a command.")
    accessor = "words, with an accessor's prefix"
    assert p.match("SetDefaultShellCompDirective") == accessor
    assert p.match("get_default_shell_comp_directive") == accessor
    assert p.match("SetDefaultShellTimeout") == ""  # a word the prose lacks
    assert p.match("SetCommand") == ""  # one word after the verb: any setter
    assert p.match("FetchDefaultShellCompDirective") == ""  # no accessor verb
    # The verb in the prose, and right after it every other word of the name, in any order.
    after = "words, after the prose's verb"
    q = Prose("Add a method to GsonBuilder to enable complex key serialization of maps.")
    assert q.match("enableComplexMapKeySerialization") == after
    assert q.match("disableComplexMapKeySerialization") == ""  # another verb
    assert q.match("enableMethodSerialization") == ""  # "method" is not after "enable"
    assert Prose("Allow setting method name on the builder.").match("setName") == after
    assert Prose("Allow setting method name on the builder.").match("setBuilder") == ""


def test_prose_gives_the_names_a_wildcard_covers() -> None:
    """A family the prose names with a wildcard covers every name it matches whole."""
    p = Prose("Add par_rchunks* and the `try_*` variants, and *_mut ones. Not 2*3 or **bold**.")
    for name in ("par_rchunks_exact", "try_peek_from", "peek_mut"):
        assert p.match(name) == "prose wildcard", name
    for name in ("par_chunks", "x_mut_y", "retry_peek"):
        assert p.match(name) == "", name


def test_test_path_policy_uses_git_glob_semantics() -> None:
    tests = ["tests/a.py", "src/tests/b/c.py", "test_x.py", "a/test_x.py", "pkg/x_test.go",
             "web/a.spec.ts", "web/a.test.jsx", "conftest.py", "a/__tests__/x.js"]
    source = ["widgets/core.py", "testsuite/a.py", "contest.py", "src/latest.py", "a/spec.ts"]
    for p in tests:
        assert is_test_path(p, DEFAULT_TEST_PATHS), p
    for p in source:
        assert not is_test_path(p, DEFAULT_TEST_PATHS), p
    # A list of globs is one test, passed when any of them matches; an empty list, never.
    assert not is_test_path("tests/a.py", [])
    assert is_test_path("qa/check_x.py", ["docs/**", "qa/check_[a-z].py"])
    assert not is_test_path("qa/check_xy.py", ["docs/**", "qa/check_[a-z].py"])
    assert is_test_path("docs/a/b.md", ["qa/check_[a-z].py", "docs/**"])


def test_lenient_pathspecs_exclude_what_python_classifies_as_tests(tmp_path: Path) -> None:
    """The Python classifier and git's pathspecs must agree, or lenient receipts would lie."""
    files = {p: "needle\n" for p in ["tests/a.py", "src/tests/b.py", "src/test_c.py",
                                     "src/core.py", "web/a.spec.ts", "web/app.ts"]}
    sha = make_repo(tmp_path / "r", files)
    out = subprocess.run(["git", "grep", "-l", "needle", sha, "--", ".",
                          *exclude_pathspecs(DEFAULT_TEST_PATHS)],
                         cwd=tmp_path / "r", capture_output=True, text=True).stdout
    found = sorted(line.split(":", 1)[1] for line in out.splitlines())
    assert found == sorted(p for p in files if not is_test_path(p, DEFAULT_TEST_PATHS))


def test_search_finds_patterns_hidden_by_overlapping_matches(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    sha = make_repo(repo, {"a.txt": "foobar here\n-x flag\n", "b/c.txt": "nothing\n"})
    tree = list_tree(repo / ".git", sha)
    engine = search.Engine(None)
    found = engine.find(tree, "r", ["foo", "foobar", "oba", "-x", "absent", "bar h"]).hits
    assert set(found) == {"foo", "foobar", "oba", "-x", "bar h"}
    assert found["-x"] == "a.txt:2"
    assert engine.find(tree, "r", ["nothing"], ["b/**"]).hits == {}


def test_trivial_constants_never_certify() -> None:
    assert trivial_reason("ab", 3)
    assert trivial_reason("---", 3)
    assert trivial_reason("self", 3)
    assert trivial_reason("two\nlines", 3)
    assert trivial_reason("render_badge", 3) == ""


def test_receipt_quotes_every_constant_and_keeps_dashes_patterns() -> None:
    cmd = receipt_command("--no-color", "abc123", [])
    assert cmd == "git grep -F -n -e '--no-color' abc123"
    cmd = receipt_command("it's $(rm -rf /)", "abc123", [])
    assert cmd == "git grep -F -n -e 'it'\"'\"'s $(rm -rf /)' abc123"


def test_proposer_skips_comments_and_reads_strings_names_numbers(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    base = make_repo(repo, {"pkg/core.py": "X = 1\n", "tests/test_core.py": "import pkg\n"})
    gold = diff(repo, base, {"pkg/core.py": (
        "X = 1\n"
        "# shared_comment_word lives only in comments\n"
        "def shiny_helper():\n"
        "    return {'colour_key': 4500}  # trailing_comment_name\n"
    )})
    test = diff(repo, base, {"tests/test_core.py": (
        "import pkg\n"
        "# shared_comment_word\n"
        "def test_it():\n"
        "    assert pkg.core.shiny_helper() == {'colour_key': 4500}  # trailing_comment_name\n"
    )})
    p = propose(gold, test, DEFAULT_TEST_PATHS, 3)
    got = {c.constant: c.kind for c in p.candidates}
    assert got["shiny_helper"] == "identifier"
    assert got["colour_key"] == "string"
    assert got["4500"] == "number"
    assert "shared_comment_word" not in got and "trailing_comment_name" not in got
    c = next(c for c in p.candidates if c.constant == "shiny_helper")
    assert c.gold_at == ["pkg/core.py:3"] and c.test_at == ["tests/test_core.py:4"]


def test_gold_side_is_the_whole_gold_patch_but_its_docs(tmp_path: Path) -> None:
    """What the solver must write: also a fixture under tests/ the gold adds (method §6.2),
    never its changelog or docs."""
    repo = tmp_path / "r"
    base = make_repo(repo, {"pkg/a.py": "", "tests/test_a.py": "", "CHANGELOG.md": ""})
    gold = diff(repo, base, {"pkg/a.py": "value = 1\n",
                             "tests/testdata/cases.yaml": "mode: zebra-stripes\n",
                             "CHANGELOG.md": "- add the giraffe_mode option\n"})
    test = diff(repo, base, {"tests/test_a.py": "def test_a():\n"
                             "    assert load('cases.yaml') == 'zebra-stripes'\n"
                             "    assert giraffe_mode()\n"})
    got = {c.constant: c for c in propose(gold, test, DEFAULT_TEST_PATHS, 3,
                                          fail_to_pass=["tests/test_a.py::test_a"]).candidates}
    assert got["zebra-stripes"].gold_at == ["tests/testdata/cases.yaml:1"]
    assert "giraffe_mode" not in got


def test_unparsable_and_binary_patches_are_case_errors(tmp_path: Path) -> None:
    p = propose("this is not a diff\n", "this is not a diff\n", DEFAULT_TEST_PATHS, 3)
    assert "unified diff" in p.error
    binary = ("diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\n"
              "Binary files a/logo.png and b/logo.png differ\n")
    repo = tmp_path / "r"
    base = make_repo(repo, {"tests/test_a.py": ""})
    test = diff(repo, base, {"tests/test_a.py": "x = 1\n"})
    p = propose(binary, test, DEFAULT_TEST_PATHS, 3)
    assert "binary" in p.error and p.binary_files == ["logo.png"]
    commit(repo, {})  # the repo stays usable


def test_blob_cache_is_bounded_and_keeps_the_recently_used() -> None:
    from determinacy.codebase.repos import BlobCache

    cache = BlobCache(max_bytes=10, max_blob=6)
    cache.put("a", b"1234")
    cache.put("b", b"1234")
    assert cache.get("a") == b"1234"  # now the most recent
    cache.put("c", b"1234")  # over 10 bytes: the least recently used ("b") goes
    assert cache.get("b") is None and cache.get("a") == b"1234" and cache.get("c") == b"1234"
    cache.put("big", b"1234567")  # larger than max_blob: never kept
    assert cache.get("big") is None


def test_the_reports_claimable_verdicts_are_the_judges() -> None:
    """REPORT.md, CLAIMS.md and the plots count the floor with the SQL macro `claimable`,
    and the tiers table labels the classes: both say what agents.checks.CLAIMABLE says."""
    import duckdb

    from determinacy.agents.checks import CLAIMABLE
    from determinacy.reports.query import query_text

    views = query_text("views")
    con = duckdb.connect()
    con.execute(views.split("CREATE OR REPLACE VIEW")[0])  # the macros
    tiers = views[views.index("SELECT * FROM (VALUES", views.index("VIEW tiers")):]
    rows = con.execute(tiers[:tiers.index(";")]).fetchall()
    assert len(rows) == 13
    said = {v for _, v, *_ in rows if con.execute("SELECT claimable(?)", [v]).fetchone()[0]}
    assert said == {v for _, v, status, _ in rows if status == "claimable"} == set(CLAIMABLE)
