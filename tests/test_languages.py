"""determinacy.languages: each fixture's caret annotations, and what the registry promises.

A fixture `tests/languages/<lang>/sample.<ext>` annotates a token with a comment line below
it: `^` under the token's first character (or `<-`: at the comment marker's column), then
the words to check: a role, a decl, a kind, `asserting` / `!asserting`, `key=value` for
owner, scope, test or parts (fixed parts joined by `|`), or `none` (no token starts there).
Text after `--` explains and is not checked.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from determinacy import languages
from determinacy.languages import LANGUAGES, FileFacts, Language, Tok, _grammar, analyze, for_path
from determinacy.languages._extract import extract
from determinacy.languages._model import DECLS, QUERY_KINDS, ROLES

FIXTURES = Path(__file__).resolve().parent / "languages"
README = Path(languages.__file__).resolve().parent / "README.md"
SENTINEL = "ZZHIDDEN"  # written only in comments and docstrings of every fixture
ALL = sorted(LANGUAGES)


def fixture(lang: Language) -> Path:
    found = sorted((FIXTURES / lang.name).glob("sample.*"))
    assert len(found) == 1, f"{lang.name}: want one sample.* fixture, found {found}"
    return found[0]


# ---- caret annotations ------------------------------------------------------------------

@dataclass(frozen=True)
class Annotation:
    source_line: int  # the annotation's own line
    line: int  # the code line it points into
    col: int  # byte column in that line
    words: tuple[str, ...]


_ANNOTATION = re.compile(r"\s*(?P<mark>#|//)\s*(?P<arrow>\^|<-)(?P<rest>.*)")


def annotations(text: str) -> Iterator[Annotation]:
    lines = text.split("\n")
    target = 0
    for i, line in enumerate(lines, 1):
        m = _ANNOTATION.fullmatch(line)
        if m is None:
            target = i
            continue
        chars = m.start("arrow") if m.group("arrow") == "^" else m.start("mark")
        col = len(lines[target - 1][:chars].encode())
        yield Annotation(i, target, col, tuple(shlex.split(m.group("rest").split("--")[0])))


def check_annotation(ann: Annotation, at: dict[tuple[int, int], Tok]) -> str:
    """'' when the token at the annotated position has every property the words name."""
    tok = at.get((ann.line, ann.col))
    if "none" in ann.words:
        return "" if tok is None else f"want no token, got {tok}"
    if tok is None:
        return f"no token starts at line {ann.line} column {ann.col}"
    wrong = [w for w in ann.words if not _holds(w, tok)]
    return f"{tok} does not satisfy {wrong}" if wrong else ""


def _holds(word: str, tok: Tok) -> bool:
    if "=" in word:
        key, _, want = word.partition("=")
        got = "|".join(tok.fstring_parts) if key == "parts" else getattr(tok, key)
        return bool(got == want)
    if word in ROLES:
        return tok.role == word
    if word in DECLS:
        return tok.decl == word
    if word in ("identifier", "string", "number"):
        return tok.kind == word
    if word in ("asserting", "!asserting"):
        return tok.asserting == (word == "asserting")
    raise AssertionError(f"unknown annotation word {word!r}")


def _facts(lang: Language) -> tuple[str, FileFacts, dict[tuple[int, int], Tok]]:
    text = fixture(lang).read_text(encoding="utf-8")
    facts, cols = extract(lang, text)
    return text, facts, {(t.line, c): t for t, c in zip(facts.tokens, cols)}


# ---- the registry -----------------------------------------------------------------------

def test_registry_is_complete() -> None:
    """Every language has extensions (no two share one), queries of each kind that compile,
    a fixture, and a row in the README's table."""
    seen: dict[str, str] = {}
    readme = README.read_text(encoding="utf-8")
    for lang in LANGUAGES.values():
        assert lang.extensions, lang.name
        for ext in lang.extensions:
            assert ext not in seen, f"{ext}: {seen.get(ext)} and {lang.name}"
            seen[ext] = lang.name
            assert for_path(f"src/pkg/file{ext}") is lang
        for kind in QUERY_KINDS:
            assert lang.query_files(kind), (lang.name, kind)
            assert all(p.is_file() for p in lang.query_files(kind)), (lang.name, kind)
            assert _grammar.query(lang, kind).pattern_count > 0
        assert fixture(lang).suffix in lang.extensions
        row = f"| {lang.name} | {' '.join(lang.extensions)} | {lang.distribution} |"
        assert row in readme, row
    scm = {p.name for p in Path(languages.__file__).parent.glob("*.scm")}
    used = {p.name for lang in LANGUAGES.values() for k in QUERY_KINDS
            for p in lang.query_files(k)}
    assert scm == used, f"query files no language reads: {scm - used}"


def test_every_query_names_its_grammar_wheel() -> None:
    for lang in LANGUAGES.values():
        for kind in QUERY_KINDS:
            for path in lang.query_files(kind):
                head = path.read_text(encoding="utf-8").split("\n", 3)[:3]
                assert any(re.search(r"tree-sitter-\w+ \d+\.\d+\.\d+", h) for h in head), path


@pytest.mark.parametrize("path,want", [
    ("pkg/mod.py", "python"), ("stubs/mod.pyi", "python"), ("MAIN.PY", "python"),
    ("cmd/main.go", "go"), ("a.jsx", "javascript"), ("a.mjs", "javascript"),
    ("a.cjs", "javascript"), ("types/index.d.ts", "typescript"), ("a.mts", "typescript"),
    ("a.cts", "typescript"), ("App.tsx", "tsx"), ("src/Main.java", "java"),
    ("Makefile", None), ("README.md", None), ("data.json", None), ("dir.py/file", None),
])
def test_for_path(path: str, want: str | None) -> None:
    lang = for_path(path)
    assert (lang.name if lang else None) == want
    if want is None:
        assert analyze(path, "x = 1\n") is None


def test_import_does_not_load_tree_sitter() -> None:
    code = ("import sys, determinacy, determinacy.languages as L; L.for_path('a.py'); "
            "L.queries_digest(); print(sorted(m for m in sys.modules if 'tree_sitter' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_queries_digest_follows_query_files(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # The public function may be cached per process; the files are read by the one it wraps.
    digest = getattr(languages.queries_digest, "__wrapped__", languages.queries_digest)
    first = digest()
    assert re.fullmatch(r"[0-9a-f]{64}", first) and digest() == first
    assert languages.queries_digest() == first
    for p in Path(languages.__file__).parent.glob("*.scm"):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    monkeypatch.setattr(languages, "HERE", tmp_path)
    assert digest() == first
    edited = tmp_path / "python-defuse.scm"
    edited.write_text(edited.read_text() + "\n(identifier) @reference\n")
    assert digest() != first


# ---- the fixtures -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_fixture_annotations(name: str) -> None:
    text, facts, at = _facts(LANGUAGES[name])
    assert facts.language == name and not facts.has_errors
    anns = list(annotations(text))
    assert len(anns) >= 30, f"{name}: only {len(anns)} annotations"
    errors = [f"line {a.source_line}: {e}" for a in anns if (e := check_annotation(a, at))]
    assert not errors, "\n".join(errors)
    assert analyze(str(fixture(LANGUAGES[name])), text) == facts


# Each rule needs a positive and a negative control in every fixture: def vs local, the
# receiver's attribute (def with an owner) vs a foreign one (member-use), an import vs a
# use of the imported name, asserting vs not.
_CONTROLS = ("def", "local", "import", "use", "member-use", "asserting", "!asserting",
             "field", "parameter", "string", "number")


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("every", [1, 2, 3, 7])
def test_tokens_of_some_lines_are_those_of_the_whole_file(name: str, every: int) -> None:
    """Asked for some lines only (the added lines of a diff), each of their tokens is the
    very token a whole-file reading gives (same role, scope, owner...): the declarations it
    depends on are read wherever they are, and so are the definitions elsewhere."""
    lang = LANGUAGES[name]
    text = fixture(lang).read_text()
    whole, _ = extract(lang, text)
    for offset in range(every):
        lines = {n for n in range(1, text.count("\n") + 2) if n % every == offset}
        part, _ = extract(lang, text, lines)
        assert [t for t in part.tokens if t.line in lines] == \
            [t for t in whole.tokens if t.line in lines]
        assert [t for t in part.tokens if t.role == "def"] == \
            [t for t in whole.tokens if t.role == "def"]
        assert (part.tests, part.functions, part.calls) == \
            (whole.tests, whole.functions, whole.calls)
        _same_as_whole(whole, extract(lang, text, lines, strings=True)[0], lines, True)


def _same_as_whole(whole: FileFacts, part: FileFacts, lines: set[int], strings: bool) -> None:
    """A reading of some lines (and, with `strings`, every string literal) holds the whole
    file's very tokens there, its every definition, and nothing the whole file lacks."""
    def wanted(t: Tok) -> bool:
        return t.line in lines or t.role == "def" or strings and t.kind == "string"

    assert [t for t in part.tokens if wanted(t)] == [t for t in whole.tokens if wanted(t)]
    assert set(part.tokens) <= set(whole.tokens)
    assert (part.tests, part.functions, part.calls, part.has_errors) == \
        (whole.tests, whole.functions, whole.calls, whole.has_errors)


# Real files, not written for these tests: the package's own source.
_CORPUS = sorted((FIXTURES.parent.parent / "determinacy").rglob("*.py"))


@pytest.mark.parametrize("chunk", range(4))
def test_partial_readings_of_real_files_are_the_whole_readings(chunk: int) -> None:
    """What the proposer reads of a post-image (its added lines) and of a base file (its
    definitions and strings) is what reading the whole file gives, on a corpus of real
    files; both costs a fraction of the whole reading."""
    for path in _CORPUS[chunk::4]:
        text = path.read_text(encoding="utf-8")
        lang = for_path(path.name)
        assert lang is not None
        whole, _ = extract(lang, text)
        added = {n for n in range(1, text.count("\n") + 2) if n % 9 in (2, 3)}
        for lines, strings in ((added, False), (set(), True), (added, True)):
            _same_as_whole(whole, extract(lang, text, lines, strings)[0], lines, strings)


@pytest.mark.parametrize("name", ALL)
def test_fixture_has_every_control(name: str) -> None:
    text = fixture(LANGUAGES[name]).read_text(encoding="utf-8")
    words = {w for a in annotations(text) for w in a.words}
    missing = [c for c in _CONTROLS if c not in words]
    assert not missing, f"{name} fixture lacks annotations for {missing}"
    assert any(w.startswith("owner=") for w in words)
    assert any(w.startswith("parts=") for w in words)
    assert any(w.startswith("test=") for w in words)


_COMMENT_LINE = {"python": re.compile(r"\s*#"), "ruby": re.compile(r"\s*#")}
_C_COMMENT_LINE = re.compile(r"\s*(//|/\*|\*)")


@pytest.mark.parametrize("name", ALL)
def test_comments_and_docstrings_yield_nothing(name: str) -> None:
    """The sentinel word is only in comments and docstrings, and no token lies on a line
    that is only a comment (the annotations are such lines); the names those comments
    mention do yield tokens where code uses them."""
    text, facts, _ = _facts(LANGUAGES[name])
    assert text.count(SENTINEL) >= 3
    assert not [t for t in facts.tokens if SENTINEL in t.value]
    lines = text.split("\n")
    comment = _COMMENT_LINE.get(name, _C_COMMENT_LINE)
    assert not [t for t in facts.tokens if comment.match(lines[t.line - 1])]
    mentioned = set(re.findall(SENTINEL + r"\w*: (\w+)", text))
    assert mentioned and mentioned <= {t.value for t in facts.tokens}


def test_python_docstring_is_only_the_first_statement() -> None:
    src = ('# header ZZHIDDEN\n"""Module ZZHIDDEN."""\n'
           'def f():\n    # lead ZZHIDDEN\n    """Doc ZZHIDDEN."""\n    "second"\n    return 1\n')
    facts = analyze("m.py", src)
    assert facts is not None
    assert [t.value for t in facts.tokens if t.kind == "string"] == ["second"]
    assert not [t for t in facts.tokens if SENTINEL in t.value]


# name -> (first line, last line) of every test block of each fixture, and a called name
TEST_BLOCKS: dict[str, dict[str, tuple[int, int]]] = {
    "python": {"test_render_all": (107, 123), "TestWidget::test_width": (128, 133),
               "TestWidget::test_color": (135, 138)},
    "go": {"TestRender": (94, 127), "TestRender/small box": (108, 119)},
    "javascript": {"Widget renders a label": (96, 107), "renders a label": (96, 107),
                   "Widget rejects a bad width": (109, 114),
                   "rejects a bad width": (109, 114)},
    "typescript": {"Widget renders": (89, 100), "renders": (89, 100)},
    "tsx": {"Badge shows the label": (64, 72), "shows the label": (64, 72)},
    "java": {"WidgetTest.rendersLabel": (93, 105), "WidgetTest.rejectsBadWidth": (107, 114)},
    "rust": {"tests::renders_label": (131, 150), "tests::rejects_bad_width": (155, 161)},
    "ruby": {"Dashboard::Widget rendering renders a label": (109, 122),
             "Dashboard::Widget rendering when the width is negative raises": (125, 129),
             "test_width": (135, 146)},
    "php": {"WidgetTest::testRendersLabel": (142, 156), "WidgetTest::rejectsBadWidth": (161, 170),
            "WidgetTest::keepsWidth": (172, 178), "widget::renders a label": (188, 193)},
    "c": {"test_render": (123, 146), "render_fallback": (148, 157)},
    "cpp": {"WidgetTest.RendersLabel": (136, 149), "WidgetTest.RejectsBadWidth": (151, 163)},
}
HELPER = {"python": "make_widget", "go": "newWidget", "javascript": "makeWidget",
          "typescript": "makeWidget", "tsx": "renderBadge", "java": "makeWidget",
          "rust": "make_widget",
          "ruby": "make_widget",
          "php": "makeWidget",
          "c": "widget_new",
          "cpp": "make_widget"}


@pytest.mark.parametrize("name", ALL)
def test_test_blocks(name: str) -> None:
    _, facts, _ = _facts(LANGUAGES[name])
    assert {b.name: (b.start, b.end) for b in facts.tests} == TEST_BLOCKS[name]
    assert any(HELPER[name] in b.calls for b in facts.tests)
    assert HELPER[name] in facts.functions
    start, end = facts.functions[HELPER[name]]
    assert 1 <= start <= end
    for block in facts.tests:
        inside = [t for t in facts.tokens if block.start <= t.line <= block.end]
        assert any(t.test == block.name or t.test.endswith(block.name) for t in inside)


def test_pytest_fixtures_count_as_calls() -> None:
    src = ("def test_x(tmp_path, widget_factory):\n    assert helper()\n"
           "class TestY:\n    def test_y(self, cls, db):\n        self.check()\n")
    facts = analyze("t.py", src)
    assert facts is not None
    assert {b.name: b.calls for b in facts.tests} == {
        "test_x": {"tmp_path", "widget_factory", "helper"}, "TestY::test_y": {"db", "check"}}


def test_go_subtest_needs_a_literal_name() -> None:
    src = ('package p\nfunc TestX(t *testing.T) {\n\tt.Run(name, func(t *testing.T) {})\n'
           '\tt.Run("lit", func(t *testing.T) {})\n}\n')
    facts = analyze("p_test.go", src)
    assert facts is not None
    assert [b.name for b in facts.tests] == ["TestX", "TestX/lit"]


# ---- format strings --------------------------------------------------------------------

@pytest.mark.parametrize("path,src,want", [
    ("a.py", 'x = f"Hello {name}, you are {age!r:>3}."\n', ("Hello ", ", you are ", ".")),
    ("a.py", 'x = "%s of %(total)d"\n', (" of ",)),
    ("a.py", 'x = "{} and {name}"\n', (" and ",)),
    ("a.py", 'x = "no placeholder, 100% sure"\n', ()),
    ("a.py", 'x = f"plain"\n', ()),
    ("a.go", 'package p\nvar x = fmt.Sprintf("got %v, want %q", a, b)\n', ("got ", ", want ")),
    ("a.js", "const x = `hi ${user.name}!`;\n", ("hi ", "!")),
    ("a.ts", "const x: string = `${a}-${b}`;\n", ("-",)),
    ("a.tsx", "const x = <p title={`n=${n}`} />;\n", ("n=",)),
    ("A.java", 'class A { String x = String.format("%s-%d", a, b); }\n', ("-",)),
])
def test_fstring_parts(path: str, src: str, want: tuple[str, ...]) -> None:
    facts = analyze(path, src)
    assert facts is not None and not facts.has_errors
    strings = [t for t in facts.tokens if t.kind == "string"]
    assert [t.fstring_parts for t in strings] == [want]


# ---- bad input ----------------------------------------------------------------------------

GARBAGE = '}{ ((( ]] <<"unterminated \x00 )))\n\tdef class func {{{'


# What puts a file into code: a PHP file is HTML text until `<?php`.
CODE_OPENS = {"php": "<?php "}


@pytest.mark.parametrize("name", ALL)
def test_garbage_parses_with_errors(name: str) -> None:
    facts = analyze("x" + LANGUAGES[name].extensions[0], CODE_OPENS.get(name, "") + GARBAGE)
    assert facts is not None and facts.has_errors


@pytest.mark.parametrize("name", ALL)
def test_truncated_and_huge_input(name: str) -> None:
    lang = LANGUAGES[name]
    text = fixture(lang).read_text(encoding="utf-8")
    path = "x" + lang.extensions[0]
    for cut in (1, 7, len(text) // 3, len(text) // 2, len(text) - 3):
        facts = analyze(path, text[:cut])
        assert facts is not None
    whole = analyze(path, text)
    assert whole is not None
    huge = analyze(path, text * 25)
    assert huge is not None and len(huge.tokens) >= 20 * len(whole.tokens)
    assert max(t.line for t in huge.tokens) <= (text * 25).count("\n") + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(ALL), text=st.text(max_size=200))
def test_analyze_never_raises(name: str, text: str) -> None:
    facts = analyze("x" + LANGUAGES[name].extensions[0], text)
    assert facts is not None
    lines = text.count("\n") + 1
    assert all(1 <= t.line <= lines for t in facts.tokens)
    assert all(1 <= b.start <= b.end <= lines for b in facts.tests)


def test_lone_surrogates_and_nul_bytes() -> None:
    facts = analyze("a.py", 'x = "\ud800"\ny = "\x00"\n')
    assert facts is not None
    assert [t.value for t in facts.tokens if t.kind == "string"] == ["\ud800", "\x00"]
