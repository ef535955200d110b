"""The syntax-aware proposer: what the hidden test really grades, one rule at a time, each with
a positive and a negative control on real-world-shaped code in a real repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import Audit, commit, diff, git, make_repo, row, write_benchmark

from determinacy.codebase import repos
from determinacy.config import DEFAULT_TEST_PATHS
from determinacy.proposer.graded import NOT_GRADED_RUN
from determinacy.prose import Prose
from determinacy.records import Candidate, CodebaseSearch, Proposal, Task
from determinacy.settle import settle


def candidates(tmp: Path, base_files: dict[str, str], gold: dict[str, str],
               test: dict[str, str], f2p: list[str], every: bool = False
               ) -> dict[str, Candidate]:
    """The candidates a FAIL_TO_PASS test grades (`every`: also the shared constants that
    are listed only to say why they did not count)."""
    repo = tmp / "r"
    base = make_repo(repo, base_files)
    gold_patch, test_patch = diff(repo, base, gold), diff(repo, base, test)
    tree = repos.list_tree(repo / ".git", base)
    from determinacy.proposer.propose import propose

    p = propose(gold_patch, test_patch, DEFAULT_TEST_PATHS, 3, fail_to_pass=f2p,
                read=tree.read)
    assert not p.error, p.error
    return {c.constant: c for c in p.candidates if every or c.graded_by}


def settled(got: dict[str, Candidate], prose: str, f2p: list[str]
            ) -> dict[str, tuple[bool, str]]:
    """(certified, convention) of each candidate, settled against `prose` with every one
    searched and absent from the codebase."""
    task = Task(case_id="c", instance_id="c", row=1, repo="o/r", base_commit="0" * 40,
                prose=prose, gold_patch="", test_patch="", fail_to_pass=f2p)
    p = Proposal(candidates=list(got.values()), gold_files=[], test_files=[])
    search = CodebaseSearch(repo="o/r", base_commit="0" * 40, absence="strict",
                            excluded=[], searched=list(got), found={})
    return {c.constant: (c.certified, c.convention) for c in settle(task, p, search).checks}


PY_BASE = {"pkg/__init__.py": "", "pkg/core.py": 'def helper():\n    """Help."""\n    return 1\n',
           "tests/test_core.py": "from pkg.core import helper\n\n\ndef test_helper():\n"
                                 "    assert helper() == 1\n"}


def test_python_defined_function_crosses_and_locals_do_not(tmp_path: Path) -> None:
    gold = {"pkg/core.py": PY_BASE["pkg/core.py"]
            + "\n\ndef render_badge(item):\n    counter = item.count\n    return counter\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_badge():\n    from pkg.core import render_badge\n"
              "    counter = 3\n    assert render_badge(Item(count=counter)) == 3\n"}
    got = candidates(tmp_path, PY_BASE, gold, test, ["tests/test_core.py::test_badge"])
    assert got["render_badge"].defuse == "gold→test"
    assert got["render_badge"].decl == "function"
    assert got["counter"].defuse == "none" and got["counter"].rule == "a local variable"


def test_python_docstring_text_is_never_a_candidate(tmp_path: Path) -> None:
    """A hunk that starts inside a docstring: the post-image parses it as a docstring."""
    base = {**PY_BASE, "pkg/core.py": 'def helper():\n    """Help.\n\n    Details.\n'
                                      '    """\n    return 1\n'}
    gold = {"pkg/core.py": 'def helper():\n    """Help.\n\n    Details about zebra_mode.\n'
                           '    """\n    return 1\n'}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_zebra():\n    zebra_mode = 1\n    assert helper() == zebra_mode\n"}
    got = candidates(tmp_path, base, gold, test, ["tests/test_core.py::test_zebra"])
    assert "zebra_mode" not in got


def test_only_the_tests_fail_to_pass_names_grade(tmp_path: Path) -> None:
    gold = {"pkg/core.py": PY_BASE["pkg/core.py"]
            + "\n\nLIMIT = 7500\nLABEL = 'free shipping over'\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_limit():\n    assert check(7500)\n\n\n"
              "def test_label():\n    assert label() == 'free shipping over'\n"}
    got = candidates(tmp_path, PY_BASE, gold, test, ["tests/test_core.py::test_limit"])
    assert "7500" in got and got["7500"].graded_by == ["tests/test_core.py::test_limit"]
    assert "free shipping over" not in got  # graded by a test FAIL_TO_PASS does not run
    every = candidates(tmp_path / "again", PY_BASE, gold, test,
                       ["tests/test_core.py::test_limit"], every=True)
    assert every["free shipping over"].rule == NOT_GRADED_RUN  # the receipt says why


def test_helpers_a_graded_test_calls_are_graded(tmp_path: Path) -> None:
    gold = {"pkg/core.py": PY_BASE["pkg/core.py"] + "\n\nMODE = 'turbo-charged'\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef check_mode(m):\n    assert m == 'turbo-charged'\n\n\n"
              "def test_mode():\n    check_mode(mode())\n\n\n"
              "def test_feed():\n    run('turbo-charged')\n"}
    got = candidates(tmp_path, PY_BASE, gold, test, ["tests/test_core.py::test_mode",
                                                     "tests/test_core.py::test_feed"])
    # Asserted in the helper test_mode calls; test_feed only feeds it in.
    assert got["turbo-charged"].graded_by == ["tests/test_core.py::test_mode"]


GO_BASE = {"go.mod": "module example.com/shop\n\ngo 1.21\n",
           "store/store.go": "package store\n\nimport \"crypto/tls\"\n\n"
                             "type Kind int\n\nconst (\n\tStoreMemory Kind = iota\n"
                             "\tStoreDisk\n)\n\n"
                             "func Config() *tls.Config {\n\treturn &tls.Config{}\n}\n",
           "store/store_test.go": "package store\n\nimport \"testing\"\n\n"
                                  "func TestKinds(t *testing.T) {\n"
                                  "\tif StoreDisk == StoreMemory {\n"
                                  "\t\tt.Fatal(\"same\")\n\t}\n}\n"}


def test_go_const_block_member_crosses_foreign_field_does_not(tmp_path: Path) -> None:
    gold = {"store/store.go": GO_BASE["store/store.go"]
            .replace("\tStoreDisk\n)", "\tStoreDisk\n\tStoreRedisCluster\n)")
            .replace("return &tls.Config{}", "return &tls.Config{InsecureSkipVerify: true}")}
    test = {"store/store_test.go": GO_BASE["store/store_test.go"]
            + "\nfunc TestRedis(t *testing.T) {\n\tif StoreRedisCluster == StoreDisk {\n"
              "\t\tt.Fatal(\"same\")\n\t}\n\tif !Config().InsecureSkipVerify {\n"
              "\t\tt.Fatal(\"verify\")\n\t}\n}\n"}
    got = candidates(tmp_path, GO_BASE, gold, test, ["TestRedis"])
    assert got["StoreRedisCluster"].defuse == "gold→test"
    assert got["InsecureSkipVerify"].defuse == "none"


def test_data_files_define_nothing(tmp_path: Path) -> None:
    base = {**PY_BASE, "setup.cfg": "[options]\ninstall_requires =\n    requests\n"}
    gold = {"setup.cfg": base["setup.cfg"] + "    somelib_client>=1.4\n",
            "pkg/core.py": PY_BASE["pkg/core.py"] + "\nimport somelib_client\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_lib():\n    import somelib_client\n    assert somelib_client\n"}
    got = candidates(tmp_path, base, gold, test, ["tests/test_core.py::test_lib"])
    assert "somelib_client" not in got or got["somelib_client"].defuse == "none"


def test_prose_templates_and_format_strings_state_constants() -> None:
    p = Prose("Emit an OS CPE cpe:2.3:o:fortinet:<product-name>:<version> for each line, "
              "and fail with open config: file not found when it is missing.")
    assert p.match("cpe:2.3:o:fortinet:fortiswitch:") == "prose template"
    assert p.match("open config: %w") == "format segments"
    assert p.match("cpe:2.3:h:fortinet:fortiswitch-") == ""  # another template: not stated
    assert p.match("Unable to parse old version") == ""


def test_a_segment_of_a_gold_message_the_test_asserts(tmp_path: Path) -> None:
    gold = {"pkg/core.py": PY_BASE["pkg/core.py"]
            + "\n\ndef load(v):\n    log.warning(f'Unable to parse old version {v}')\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_warns(caplog):\n    load('blabla')\n"
              "    assert caplog.messages == ['Unable to parse old version blabla']\n\n\n"
              "def test_feeds(caplog):\n    feed('Unable to parse old version x')\n"}
    got = candidates(tmp_path, PY_BASE, gold, test, ["tests/test_core.py::test_warns",
                                                     "tests/test_core.py::test_feeds"])
    c = got["Unable to parse old version"]
    assert c.graded_by == ["tests/test_core.py::test_warns"]  # the fed-in copy does not count


def test_without_a_repository_hunks_are_fragments(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    base = make_repo(repo, PY_BASE)
    gold = diff(repo, base, {"pkg/core.py": PY_BASE["pkg/core.py"] + "\n\ndef fresh_name():\n"
                             "    return 2\n"})
    test = diff(repo, base, {"tests/test_core.py": PY_BASE["tests/test_core.py"]
                             + "\n\ndef test_fresh():\n    assert fresh_name() == 2\n"})
    commit(repo, {})
    from determinacy.proposer.propose import propose

    p = propose(gold, test, DEFAULT_TEST_PATHS, 3, fail_to_pass=["tests/test_core.py::test_fresh"])
    assert p.fragments == ["pkg/core.py", "tests/test_core.py"]
    assert {c.constant: c.fragment for c in p.candidates}["fresh_name"] is True


def test_a_name_the_codebase_convention_predicts(tmp_path: Path) -> None:
    """`StoreRedis` beside `StoreMemory` and `StoreDisk`: one part replaced by a word of the
    prose (CONVENTION when the prose says it); a case-only copy of an existing name is
    predicted whatever the prose says; an unrelated new name has no sibling."""
    gold = {"store/store.go": GO_BASE["store/store.go"]
            .replace("\tStoreDisk\n)", "\tStoreDisk\n\tStoreRedis\n\tStoredisk\n\tQuorum\n)")}
    test = {"store/store_test.go": GO_BASE["store/store_test.go"]
            + "\nfunc TestRedis(t *testing.T) {\n\tif StoreRedis == Storedisk {\n"
              "\t\tt.Fatal(\"same\")\n\t}\n\tif Quorum == StoreDisk {\n"
              "\t\tt.Fatal(\"q\")\n\t}\n}\n"}
    got = candidates(tmp_path, GO_BASE, gold, test, ["TestRedis"])
    redis, lower, quorum = got["StoreRedis"], got["Storedisk"], got["Quorum"]
    assert {(s.name, s.word) for s in redis.siblings} >= {("StoreMemory", "redis"),
                                                           ("StoreDisk", "redis")}
    assert redis.siblings[0].at.startswith("store/store.go:")
    assert [(s.name, s.word) for s in lower.siblings][:1] == [("StoreDisk", "")]
    assert quorum.siblings == []

    said = settled(got, "Add a store backed by Redis.", ["TestRedis"])
    assert said["StoreRedis"][0] is False and "`StoreMemory` at store/store.go:8" in \
        said["StoreRedis"][1] and "`redis`" in said["StoreRedis"][1]
    assert said["Storedisk"][0] is False and "differs only in case" in said["Storedisk"][1]
    assert said["Quorum"] == (True, "")
    silent = settled(got, "Add a store backed by a key-value server.", ["TestRedis"])
    assert silent["StoreRedis"] == (True, "")  # the prose gives no word to follow the sibling


def test_a_renamed_name_the_prose_predicts(tmp_path: Path) -> None:
    """A rename leaves the old name on a line the gold removes: `context_settings` for
    `context_defaults` is CONVENTION when the prose says "settings", a claim when it does
    not. A name the gold removes in a comment predicts nothing."""
    doc = '"""Contexts.\n\nLine one.\nLine two.\nLine three.\nLine four.\n"""\n'
    base = {**PY_BASE, "pkg/core.py": doc + "# The old job_limits option is gone.\n"
                                      'RETRY_DEFAULTS = {"count": 1}\n\n\n'
                                      "def make_context(name, context_defaults=None):\n"
                                      "    job_tally = 0\n"
                                      "    return name, context_defaults, job_tally\n"}
    gold = {"pkg/core.py": doc + 'RETRY_SETTINGS = {"count": 1}\n\n\n'
                                 "def make_context(name, context_settings=None, job_quota=0):\n"
                                 "    return name, context_settings, job_quota\n"}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_settings():\n    from pkg.core import RETRY_SETTINGS, make_context\n"
              "\n    assert RETRY_SETTINGS\n"
              '    assert make_context("x", context_settings={"a": 1}, job_quota=2)[2] == 2\n'}
    f2p = ["tests/test_core.py::test_settings"]
    got = candidates(tmp_path, base, gold, test, f2p)
    renamed, other = got["context_settings"], got["job_quota"]
    assert renamed.defuse == "gold→test"
    assert [(s.name, s.at, s.word) for s in renamed.siblings] == [
        ("context_defaults", "pkg/core.py:12", "settings")]
    # Read from the whole base file: a hunk that opens inside the docstring above loses none.
    assert [(s.name, s.at, s.word) for s in got["RETRY_SETTINGS"].siblings] == [
        ("RETRY_DEFAULTS", "pkg/core.py:9", "settings")]
    # A removed comment, or a removed local (`job_tally`), is no sibling of a parameter.
    assert other.siblings == []

    said = settled(got, "Context: defaults -> settings. Jobs get a quota.", f2p)
    assert said["context_settings"] == (
        False, "`context_defaults` at pkg/core.py:12 with one part replaced by `settings`, a "
               "word of the prose")
    assert said["job_quota"] == (True, "")
    assert settled(got, "Rework how contexts are made.", f2p)["context_settings"] == (True, "")


def test_a_sibling_in_a_renamed_file_is_shown_at_its_base_path(tmp_path: Path) -> None:
    """The gold moves `pkg/old.py` to `pkg/core.py` and adds `StoreRedis` beside
    `StoreMemory`: the sibling's receipt names the file as it is at base_commit, where a
    skeptic's `git show` finds it."""
    from determinacy.proposer.propose import propose

    body = "class StoreMemory:\n    pass\n\n\nclass StoreDisk:\n    pass\n"
    repo = tmp_path / "r"
    sha = make_repo(repo, {"pkg/__init__.py": "", "pkg/old.py": body,
                           "tests/test_core.py": "def test_nothing():\n    pass\n"})
    git(repo, "checkout", "-q", "--detach", sha)
    git(repo, "mv", "pkg/old.py", "pkg/core.py")
    (repo / "pkg" / "core.py").write_text(body + "\n\nclass StoreRedis:\n    pass\n")
    git(repo, "add", "-A")
    gold_patch = git(repo, "diff", "--cached", "-M", sha)
    git(repo, "reset", "-q", "--hard", sha)
    git(repo, "checkout", "-q", "main")
    assert "rename from pkg/old.py" in gold_patch
    test_patch = diff(repo, sha, {"tests/test_core.py": "def test_nothing():\n    pass\n\n\n"
                                  "def test_redis():\n    from pkg.core import StoreRedis\n\n"
                                  "    assert StoreRedis()\n"})
    tree = repos.list_tree(repo / ".git", sha)
    p = propose(gold_patch, test_patch, DEFAULT_TEST_PATHS, 3,
                fail_to_pass=["tests/test_core.py::test_redis"], read=tree.read)
    [redis] = [c for c in p.candidates if c.constant == "StoreRedis"]
    assert ("StoreMemory", "pkg/old.py:1", "redis") in [(s.name, s.at, s.word)
                                                         for s in redis.siblings]


def test_a_new_file_follows_the_file_it_mirrors(tmp_path: Path) -> None:
    """A new `zsh_completions.go` mirrors `bash_completions.go` (same folder, one word of the
    name replaced): its `GenZshCompletion` follows `GenBashCompletion` there (CONVENTION when
    the prose says zsh). A name with no counterpart there has no sibling; a file in another
    folder or with another extension is no mirror."""
    from determinacy.proposer.convention import mirrored
    from determinacy.proposer.propose import propose

    go = "package cmd\n\nimport \"io\"\n\n"
    base = {"go.mod": "module example.com/cli\n\ngo 1.21\n",
            "cmd/command.go": "package cmd\n\ntype Command struct{}\n",
            "cmd/bash_completions.go": go + "// GenBashCompletion writes bash completion.\n"
                                       "func (c *Command) GenBashCompletion(w io.Writer) error {\n"
                                       "\treturn nil\n}\n",
            "cmd/bash_completions.py": "", "docs/zsh_completions.go": "package docs\n",
            "cmd/flags.go": "package cmd\n"}
    gold = {"cmd/zsh_completions.go": go + "func (c *Command) GenZshCompletion(w io.Writer) error {"
                                      "\n\treturn nil\n}\n\n"
                                      "func (c *Command) QuoteZshWords(w io.Writer) error {\n"
                                      "\treturn nil\n}\n"}
    test = {"cmd/zsh_completions_test.go": "package cmd\n\nimport \"testing\"\n\n"
                                           "func TestZsh(t *testing.T) {\n"
                                           "\tc := &Command{}\n\tif c.GenZshCompletion(nil) != nil "
                                           "|| c.QuoteZshWords(nil) != nil {\n"
                                           "\t\tt.Fatal(\"zsh\")\n\t}\n}\n"}
    assert mirrored(["cmd/zsh_completions.go"], sorted(base)) == ["cmd/bash_completions.go"]
    assert mirrored(["cmd/args.go"], sorted(base)) == []  # a one-word name: no mirror
    repo = tmp_path / "r"
    sha = make_repo(repo, base)
    gold_patch, test_patch = diff(repo, sha, gold), diff(repo, sha, test)
    tree = repos.list_tree(repo / ".git", sha)
    p = propose(gold_patch, test_patch, DEFAULT_TEST_PATHS, 3, fail_to_pass=["TestZsh"],
                read=tree.read, mirrors=["cmd/bash_completions.go"])
    got = {c.constant: c for c in p.candidates}
    new, other = got["GenZshCompletion"], got["QuoteZshWords"]
    assert new.defuse == other.defuse == "gold→test"
    assert [(s.name, s.at, s.word) for s in new.siblings] == [
        ("GenBashCompletion", "cmd/bash_completions.go:6", "zsh")]
    assert other.siblings == []
    bare = propose(gold_patch, test_patch, DEFAULT_TEST_PATHS, 3, fail_to_pass=["TestZsh"],
                   read=tree.read)
    assert {c.constant: c for c in bare.candidates}["GenZshCompletion"].siblings == []
    # A run finds the mirror itself, proposes with it (with and without worker processes)
    # and settles: the new name the prose's word predicts is a hypothesis, the other a claim.
    cfg = write_benchmark(tmp_path / "bench", [row("zsh", sha, "Add zsh completion.",
                                                   gold_patch, test_patch, repo="acme/cli",
                                                   f2p=["TestZsh"])],
                          mirror=str(repo / ".git"))
    for jobs in ("1", "2"):
        audit = Audit(tmp_path / f"j{jobs}")
        audit.run(cfg, "--jobs", jobs)
        got_sql = {r["constant"]: (r["certified"], r["convention"]) for r in audit.sql(
            cfg, "select constant, certified, convention from candidates "
                 "where constant in ('GenZshCompletion', 'QuoteZshWords')")}
        assert got_sql == {"GenZshCompletion": (False, "`GenBashCompletion` at "
                                                "cmd/bash_completions.go:6 with one part "
                                                "replaced by `zsh`, a word of the prose"),
                           "QuoteZshWords": (True, None)}, jobs


def test_a_string_the_codebase_convention_predicts(tmp_path: Path) -> None:
    """`"Windows 11 Version 24H2"` beside the literal `"Windows 11 Version 23H2"`: one word
    replaced by a word of the prose (CONVENTION when the prose says it). Text that is no
    whole literal (a comment, part of a longer string) predicts nothing."""
    base = {**PY_BASE, "pkg/core.py": 'RELEASES = {\n    22631: "Windows 11 Version 23H2",\n'
                                      '    9600: "Desktop Edition for Legacy builds",\n}\n'
                                      "# Legacy Desktop Edition is not supported.\n"
                                      '# Replaces "Legacy Client Edition" builds.\n'
                                      'NOTE = "the \'Legacy Home Edition\' line"\n'
                                      'CHANNEL = "Stable Channel 7"\n\n\n'
                                      "def release_name(build):\n"
                                      '    """Names \'Legacy Home Edition\' too."""\n'
                                      '    return RELEASES.get(build, "")\n'}
    gold = {"pkg/core.py": base["pkg/core.py"].replace(
        "    9600:", '    26100: "Windows 11 Version 24H2",\n'
                    '    17763: "Legacy Server Edition",\n    9600:').replace(
        "Stable Channel 7", "Stable Channel 8")}
    test = {"tests/test_core.py": PY_BASE["tests/test_core.py"]
            + "\n\ndef test_release():\n    from pkg.core import CHANNEL, release_name\n\n"
              '    assert release_name(26100) == "Windows 11 Version 24H2"\n'
              '    assert release_name(17763) == "Legacy Server Edition"\n'
              '    assert CHANNEL == "Stable Channel 8"\n'}
    f2p = ["tests/test_core.py::test_release"]
    got = candidates(tmp_path, base, gold, test, f2p)
    new, other = got["Windows 11 Version 24H2"], got["Legacy Server Edition"]
    assert [(s.name, s.at, s.word) for s in new.siblings] == [
        ("Windows 11 Version 23H2", "pkg/core.py:2", "24")]
    # A comment, a docstring and a quote inside a longer string are no literals.
    assert other.siblings == []
    # A literal the gold edits in place was there at base all the same.
    assert [(s.name, s.at, s.word) for s in got["Stable Channel 8"].siblings] == [
        ("Stable Channel 7", "pkg/core.py:8", "8")]

    said = settled(got, "Add Windows 11 24H2, and a server edition for old builds.", f2p)
    assert said["Windows 11 Version 24H2"] == (
        False, "`Windows 11 Version 23H2` at pkg/core.py:2 with one part replaced by `24`, a "
               "word of the prose")
    assert said["Legacy Server Edition"] == (True, "")
    assert settled(got, "Add the newest release.", f2p)["Windows 11 Version 24H2"] == (True, "")


def test_ospec_tests_and_assertions(tmp_path: Path) -> None:
    """ospec (`o.spec` groups, `o("title", fn)` tests, `o(actual).equals(expected)`): an
    aggregate id (`Suite.js | test suite`) grades the file's tests; a literal counts only
    where it is asserted."""
    base = {"src/badge.ts": "export function label(n: number): string {\n  return ''\n}\n",
            "test/BadgeTest.ts": "import o from \"@tutao/otest\"\n"}
    gold = {"src/badge.ts": "export function label(n: number): string {\n"
                            "  return n > 100 ? 'free shipping over threshold' : 'eu-west-3'\n}\n"}
    test = {"test/BadgeTest.ts": base["test/BadgeTest.ts"]
            + "o.spec(\"shipping\", function () {\n  o(\"new case\", function () {\n"
              "    const region = 'eu-west-3'\n"
              "    o(label(9000)).equals('free shipping over threshold')\n  })\n})\n"}
    got = candidates(tmp_path, base, gold, test, ["test/tests/BadgeTest.js | test suite"],
                     every=True)
    assert got["free shipping over threshold"].asserting
    assert got["free shipping over threshold"].graded_by == \
        ["test/tests/BadgeTest.js | test suite"]
    assert got["eu-west-3"].graded_by == []  # fed in, never asserted


def test_a_pool_worker_proposes_what_the_caller_would(tmp_path: Path) -> None:
    """With `--jobs` > 1 the proposer runs in worker processes, handed the files the patches
    touch: the same bytes as in the caller; a file it was not handed is read by the caller
    instead of being taken as missing."""
    from determinacy.proposer import pool

    repo = tmp_path / "r"
    base = make_repo(repo, PY_BASE)
    gold = diff(repo, base, {"pkg/core.py": PY_BASE["pkg/core.py"]
                             + "\n\ndef make_widget():\n    return 'WIDGET_KIND'\n"})
    test = diff(repo, base, {"tests/test_core.py": PY_BASE["tests/test_core.py"]
                             + "\n\ndef test_widget():\n    from pkg.core import make_widget\n"
                             "    assert make_widget() == 'WIDGET_KIND'\n"})
    tree = repos.list_tree(repo / ".git", base)
    args = (gold, test, DEFAULT_TEST_PATHS, 3, ["tests/test_core.py::test_widget"], tree.read)
    here = pool.proposal(*args, ["pkg/core.py", "tests/test_core.py"])
    assert b"WIDGET_KIND" in here
    pool.start(2)
    try:
        assert pool.proposal(*args, ["pkg/core.py", "tests/test_core.py"]) == here
        assert pool.proposal(*args, ["pkg/core.py"]) == here  # the test file: not handed
    finally:
        pool.stop()


def test_the_proposer_workers_die_with_a_killed_run(tmp_path: Path) -> None:
    """A run killed outright (SIGKILL: nothing of it runs again) leaves no worker behind."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "run.py"
    script.write_text(
        "import sys, time\n"
        "from determinacy.proposer import pool as workers\n"
        "if __name__ == '__main__':\n"
        "    workers.start(2)\n"
        "    pool = workers._pool()\n"
        "    for f in [pool.submit(time.sleep, 0.01) for _ in range(4)]:\n"
        "        f.result()\n"
        "    print(*pool._processes, flush=True)\n"
        "    time.sleep(60)\n")
    run = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert run.stdout is not None
        pids = [int(p) for p in run.stdout.readline().split()]
        assert pids
        run.send_signal(signal.SIGKILL)
        run.wait(10)
    finally:
        run.kill()
        run.wait()

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        # A zombie is dead (its parent, gone, never reaped it; init will).
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"

    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def test_grades_says_which_test_occurrences_grade_and_why_the_others_do_not() -> None:
    """Inside a graded test a name always grades, a literal only where the test asserts it;
    a call assertion on a value the block fed in, and an expected-output value the graded test
    itself feeds in, grade nothing; the strongest reason is the constant's rule."""
    from determinacy.proposer.graded import (
        NOT_GRADED_ECHO,
        NOT_GRADED_FED,
        NOT_GRADED_PASSED,
        NOT_GRADED_RUN,
        Graded,
        grades,
    )
    from determinacy.proposer.occurrences import Occ, Side

    def occ(value: str, line: int, kind: str = "string", path: str = "tests/test_a.py",
            **kw: Any) -> Occ:
        return Occ(value, kind, path, line, "use", language=kw.pop("language", "python"),
                   test=kw.pop("test", "test_a"), **kw)

    name = occ("render_badge", 2, kind="identifier")
    fed = occ("P123", 3)  # store.put("P123", ...)
    passed = occ("P123", 4, asserting=True, passed_on=True)  # m.assert_called_with("P123")
    asserted = occ("P123 saved", 5, asserting=True)
    echoed = occ("P123", 1, path="tests/golden/expected.json", asserting=True, decl="value",
                 language="json", test="")
    lexed = occ("free shipping", 6, language="")  # no syntax tree: every graded literal counts
    outside = occ("unused", 200)  # beyond the graded block
    test = Side(occs=[name, fed, passed, asserted, echoed, lexed, outside], facts={}, images={})
    grading = Graded({"tests/test_a.py": [(1, 100, "t::a")]},
                     {"tests/golden/expected.json": ["t::a"]}, [])
    got = grades(test, grading)
    assert {o.line: got.ids[o] for o in test.occs if o.path.endswith(".py")} == {
        2: ["t::a"], 3: [], 4: [], 5: ["t::a"], 6: ["t::a"], 200: []}
    assert got.ids[echoed] == []
    assert got.ungraded == {fed: NOT_GRADED_FED, passed: NOT_GRADED_PASSED,
                            echoed: NOT_GRADED_ECHO}
    assert got.why_not([fed, passed, echoed]) == NOT_GRADED_PASSED
    assert got.why_not([fed, echoed]) == NOT_GRADED_ECHO
    assert got.why_not([fed]) == NOT_GRADED_FED
    assert got.why_not([outside]) == NOT_GRADED_RUN
