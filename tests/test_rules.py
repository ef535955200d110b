"""The proposer's rules as a matrix: for each rule of issue 6 and each language it applies to,
a positive and a negative control on real-world-shaped code, run through `propose` on real
`git diff` output against a real base (so every post-image is the whole file, never a hunk).

A case is a snippet the gold appends (or edits into) a language's source file and one the test
patch adds to its test file; its checks say what a user reads off each candidate.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import diff, make_repo
from rule_checks import CROSS, FOREIGN, IMPORT, LOCAL, MARK, NAMED, SEGMENT

from determinacy.codebase import repos
from determinacy.config import DEFAULT_TEST_PATHS
from determinacy.proposer.convention import related
from determinacy.proposer.crossing import NOT_KEYWORD
from determinacy.proposer.graded import (
    NOT_GRADED_ECHO,
    NOT_GRADED_PASSED,
    NOT_GRADED_TYPE,
)
from determinacy.proposer.propose import propose
from determinacy.prose import Prose
from determinacy.records import Proposal
from determinacy.settle import convention_evidence


def tabs(text: str) -> str:
    """Go as gofmt writes it: 4-space indents become tabs (snippets here are typed with spaces)."""
    return re.sub(r"(?m)^(?: {4})+", lambda m: "\t" * (len(m.group()) // 4), text)


@dataclass(frozen=True)
class Lang:
    """A small repository in one language: a source file and a test file with a MARK each."""

    src: str
    test: str
    files: dict[str, str]  # base files, MARKs included
    f2p: str  # the id of the test a case's snippet adds


DOC = "line one\n{p}line two\n{p}line three\n{p}line four\n{p}line five\n{p}line six\n"
PY = Lang("pkg/core.py", "tests/test_core.py", {
    "pkg/__init__.py": "",
    "pkg/core.py": '"""Core helpers."""\n\nimport mimetypes\nfrom dataclasses import dataclass\n'
                   '\n\ndef helper(items):\n    """Help with items.\n\n    ' + DOC.format(p="    ")
                   + '    """\n    return items\n\n\n@dataclass\nclass Settings:\n'
                   "    timeout: float = 10.0\n\n\n" + MARK,
    "tests/test_core.py": "import pytest\n\nfrom pkg.core import helper\n\n\n"
                          "def test_helper():\n    assert helper([1]) == [1]\n\n\n" + MARK},
    "tests/test_core.py::test_new")
GO = Lang("store/store.go", "store/store_test.go", {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "store/store.go": tabs(
        'package store\n\nimport (\n    "crypto/tls"\n    "errors"\n    "fmt"\n    "io"\n'
        '    "os"\n)\n\n/*\n' + DOC.format(p="") + "*/\ntype Kind int\n\nconst (\n"
        "    StoreMemory Kind = iota\n    StoreDisk\n)\n\nvar (\n"
        '    ErrNotFound = errors.New("not found")\n)\n\ntype Options struct {\n'
        "    Size int\n}\n\n" + MARK),
    "store/store_test.go": tabs(
        'package store\n\nimport (\n    "errors"\n    "io"\n    "testing"\n\n'
        '    "github.com/stretchr/testify/assert"\n)\n\nfunc TestHelper(t *testing.T) {\n'
        "    assert.Equal(t, StoreDisk, Kind(1))\n}\n\n" + MARK)}, "TestNew")
_ECMA_DOC = "/**\n * Helpers.\n *\n * " + DOC.format(p=" * ") + " */\n"
_ECMA_TEST = "test('helper', () => {\n  expect(helper()).toBe(1);\n});\n\n" + MARK
JS = Lang("src/badge.js", "test/badge.test.js", {
    "src/badge.js": _ECMA_DOC + "export function helper() {\n  return 1;\n}\n\n"
                    "export class RateLimiter {\n  capacity = 10;\n}\n\n" + MARK,
    "test/badge.test.js": "import { helper } from '../src/badge';\n\n" + _ECMA_TEST},
    "new case")
_TS_SRC = (_ECMA_DOC + "export function helper(): number {\n  return 1;\n}\n\n"
           "export class RateLimiter {\n  capacity: number = 10;\n}\n\n")
TS = Lang("src/badge.ts", "test/badge.test.ts", {
    "src/badge.ts": _TS_SRC + MARK,
    "test/badge.test.ts": "import { helper } from '../src/badge';\n\n" + _ECMA_TEST}, "new case")
TSX = Lang("src/Badge.tsx", "test/Badge.test.tsx", {
    "src/Badge.tsx": _TS_SRC + "export function Pill(): JSX.Element {\n  return <span>1</span>;\n"
                     "}\n\n" + MARK,
    "test/Badge.test.tsx": "import { render } from '@testing-library/react';\n"
                           "import { helper } from '../src/Badge';\n\n" + _ECMA_TEST},
    "new case")
JAVA = Lang("src/main/java/com/acme/Badge.java", "src/test/java/com/acme/BadgeTest.java", {
    "src/main/java/com/acme/Badge.java":
        "package com.acme;\n\nimport java.awt.GridBagConstraints;\nimport java.time.InstantSource;"
        "\n\n/**\n * " + DOC.format(p=" * ") + " */\npublic class Badge {\n"
        "    public static int helper() {\n        return 1;\n    }\n" + MARK + "}\n",
    "src/test/java/com/acme/BadgeTest.java":
        "package com.acme;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\n"
        "import java.time.Instant;\nimport java.time.InstantSource;\n"
        "import org.junit.jupiter.api.Test;\n\nclass BadgeTest {\n    @Test\n    void helper() {\n"
        "        assertEquals(1, Badge.helper());\n    }\n" + MARK + "}\n"},
    "BadgeTest.newCase")
LANGS = {"python": PY, "go": GO, "javascript": JS, "typescript": TS, "tsx": TSX, "java": JAVA}


@dataclass(frozen=True)
class Want:
    """What a user reads off the candidate for one constant (None: not checked)."""

    defuse: str | None = None
    rule: str | None = None
    kind: str | None = None
    decl: str | None = None
    asserting: bool | None = None
    # True: graded_by is exactly the case's FAIL_TO_PASS; False: empty; None: not checked.
    graded: bool | None = True
    absent: bool = False  # no candidate at all
    absent_ok: bool = False  # may be dropped (an ungraded copy) instead of checked
    test_data: str | None = None  # the gold-only data file it is in ("": none)
    # Text the CONVENTION evidence holds against the case's prose ("": no convention).
    convention: str | None = None


def crosses(decl: str | None = None, rule: str = CROSS) -> Want:
    return Want(defuse="gold→test", rule=rule, kind="identifier", decl=decl)


def literal(kind: str = "string", rule: str = "literal") -> Want:
    return Want(defuse="", rule=rule, kind=kind, asserting=True)


LOCAL_W = Want(defuse="none", rule=LOCAL, kind="identifier")
ABSENT = Want(absent=True)
# The test counts it nowhere: dropped, or kept with empty graded_by and a "not graded: ..."
# rule (propose lists ungraded shared constants too). Both satisfy it.
UNGRADED = Want(graded=False, absent_ok=True)
FED = Want(graded=False, absent_ok=True, asserting=False)  # and the test never asserts it
Checks = tuple[tuple[str, str, Want], ...]  # (id suffix, constant, what it must be)


@dataclass(frozen=True)
class Case:
    rule: str
    lang: str  # a key of LANGS, or a data format (the scaffold is then `on`)
    gold: str  # appended at the source file's MARK
    test: str  # appended at the test file's MARK
    checks: Checks
    edits: tuple[tuple[str, str], ...] = ()  # replacements the gold makes in the source file
    test_edits: tuple[tuple[str, str], ...] = ()  # and the test patch in the test file
    f2p: tuple[str, ...] = ()  # default: the language's f2p
    gold_files: dict[str, str] = field(default_factory=dict)  # whole files the gold writes
    test_files: dict[str, str] = field(default_factory=dict)
    base: dict[str, str] = field(default_factory=dict)  # more base files
    xfail: dict[str, str] = field(default_factory=dict)  # id suffix -> why
    on: str = ""  # the scaffold, when `lang` is a data format
    at_base: str = ""  # already at the source file's MARK at base (the gold's goes after it)
    prose: str = ""  # what the task says (for `Want.convention`)

    @property
    def scaffold(self) -> Lang:
        return LANGS[self.on or self.lang]

    @property
    def ids(self) -> list[str]:
        return list(self.f2p or (self.scaffold.f2p,))


def patches(tmp: Path, base: dict[str, str], gold: dict[str, str],
            test: dict[str, str]) -> tuple[str, str, Callable[[str], str | None]]:
    """Both patches as `git diff` writes them against one base commit, and its file reader."""
    sha = make_repo(tmp, base)
    tree = repos.list_tree(tmp / ".git", sha)
    return diff(tmp, sha, gold), diff(tmp, sha, test), tree.read


def _edit(text: str, snippet: str, edits: tuple[tuple[str, str], ...],
          fill: Callable[[str], str]) -> str:
    text = text.replace(MARK, fill(snippet))
    for old, new in edits:
        assert fill(old) in text, old
        text = text.replace(fill(old), fill(new), 1)
    return text


def run(tmp: Path, case: Case) -> Proposal:
    lang = case.scaffold
    fill = tabs if lang is GO else str
    files = lang.files | {lang.src: lang.files[lang.src].replace(MARK, fill(case.at_base) + MARK)}
    base = {p: t.replace(MARK, "") for p, t in files.items()} | case.base
    gold = ({lang.src: _edit(files[lang.src], case.gold, case.edits, fill)}
            if case.gold or case.edits else {}) | case.gold_files
    test = ({lang.test: _edit(files[lang.test], case.test, case.test_edits, fill)}
            if case.test or case.test_edits else {}) | case.test_files
    gold_patch, test_patch, read = patches(tmp, base, gold, test)
    near = related(set(gold), set(gold) - set(base), set(base), DEFAULT_TEST_PATHS)
    p = propose(gold_patch, test_patch, DEFAULT_TEST_PATHS, 3, fail_to_pass=case.ids, read=read,
                mirrors=near)
    assert not p.error and not p.fragments, (p.error, p.fragments)  # whole post-images
    return p


# ---- the cases -------------------------------------------------------------------------------

# The atom the test feeds in and asserts handed on grades nothing; the one the code chooses does.
PASSED_ON: Checks = (("negative", "_NET_WM_NAME", Want(graded=False, rule=NOT_GRADED_PASSED)),
                     ("positive", "UTF8_STRING", literal()))

def js_like(rule: str, gold: str, test: str, checks: Checks, **kw: Any) -> list[Case]:
    """One snippet pair for JavaScript, TypeScript and TSX (untyped JS is valid TS). A `f2p`
    given as a callable gets the language's test file path."""
    f2p = kw.pop("f2p", None)
    return [Case(rule, lang, gold, test, checks, **kw,
                 f2p=f2p(LANGS[lang].test) if callable(f2p) else f2p or ())
            for lang in ("javascript", "typescript", "tsx")]


def local_checks(fn: str) -> Checks:
    return (("positive", fn, crosses()), ("negative", "subtotal", LOCAL_W),
            ("negative-loop", "entry", LOCAL_W))


def seg_checks(seg: str) -> Checks:
    return (("positive", seg, literal(rule=SEGMENT)), ("negative-short", "bad port", ABSENT),
            ("negative-fed", "Config section missing:", FED))


SHIP_JS = ("export function shippingLabel(total, region = 'eu-west-3') {\n"
           "  if (total > 7500) return 'free shipping over threshold';\n"
           "  return 'standard shipping rate';\n}\n",
           "import { shippingLabel } from '../src/badge';\n\ndescribe('shipping', () => {\n"
           "  test('new case', () => {\n    const region = 'eu-west-3';\n"
           "    expect(shippingLabel(9000, region)).toBe('free shipping over threshold');\n  });\n"
           "\n  test('other case', () => {\n"
           "    expect(shippingLabel(10)).toBe('standard shipping rate');\n  });\n});\n")
SHIP_CHECKS = (("positive", "free shipping over threshold", literal()),
               ("negative-fed", "eu-west-3", FED),
               ("negative-not-run", "standard shipping rate", UNGRADED))
SCOPE_CHECKS = (SHIP_CHECKS[0], SHIP_CHECKS[2])
SHIP_PY = ('def shipping_label(total, region="eu-west-3"):\n    if total > 7500:\n'
           '        return "free shipping over threshold"\n    return "standard shipping rate"\n',
           '@pytest.mark.parametrize("region", ["eu-west-3"])\ndef test_new(region):\n'
           '    assert shipping_label(9000, region) == "free shipping over threshold"\n\n\n'
           'def test_other():\n    assert shipping_label(10) == "standard shipping rate"\n')
SHIP_PY_CLASS = (SHIP_PY[0], 'class TestShipping:\n    @pytest.mark.parametrize("region", '
                 '["eu-west-3"])\n    def test_new(self, region):\n        assert shipping_label('
                 '9000, region) == "free shipping over threshold"\n\n    def test_other(self):\n'
                 '        assert shipping_label(10) == "standard shipping rate"\n')
JACKSON = ("package com.acme;\n", "package com.acme;\n\n"
           "import com.fasterxml.jackson.databind.ObjectMapper;\n")
SHIP_JAVA = ("    public static String shippingLabel(int total, String region) {\n"
             '        if (total > 7500 && region.equals("eu-west-3")) {\n'
             '            return "free shipping over threshold";\n        }\n'
             '        return "standard shipping rate";\n    }\n',
             '    @Test\n    void newCase() {\n        String region = "eu-west-3";\n        '
             'assertEquals("free shipping over threshold", Badge.shippingLabel(9000, region));\n'
             "    }\n\n    @Test\n    void otherCase() {\n"
             '        assertEquals("standard shipping rate", Badge.shippingLabel(10, "us"));\n'
             "    }\n")
SHIP_GO = ("func ShippingLabel(total int, region string) string {\n"
           '    if region == "eu-west-3" && total > 7500 {\n'
           '        return "free shipping over threshold"\n    }\n'
           '    return "standard shipping rate"\n}\n')
SEG_JS = ("export function loadModule(name, port) {\n"
          "  if (port > 65535) throw new Error(`bad port ${port}`);\n"
          "  throw new Error(`Cannot find module ${name} in registry`);\n}\n\n"
          "export const missing = (name) => `Config section missing: ${name}`;\n",
          "import { loadModule, summarize } from '../src/badge';\n\ntest('new case', () => {\n"
          "  expect(() => loadModule('left-pad', 1)).toThrow('Cannot find module left-pad in "
          "registry');\n  expect(() => loadModule('x', 70000)).toThrow('bad port 70000');\n"
          "  const lines = ['Config section missing: db'];\n  expect(summarize(lines)).toBe(1);\n"
          "});\n")

CASES: list[Case] = [
    # A name bound inside a function is local on both sides; a module-level one crosses.
    Case("local", "python",
         "def sum_prices(items):\n    subtotal = 0\n    for entry in items:\n"
         "        subtotal += entry\n    return subtotal\n",
         "def test_new():\n    from pkg.core import sum_prices\n\n    subtotal = 0\n"
         "    for entry in [1, 2]:\n        subtotal += entry\n"
         "    assert sum_prices([1, 2]) == subtotal\n", local_checks("sum_prices")),
    # An asserted test string equal to a gold local names no definition.
    Case("local", "python",
         'def describe(cfg):\n    retry_budget = cfg.get("retries", 3)\n'
         '    return f"{retry_budget} retries"\n',
         'def test_new():\n    from pkg.core import describe\n\n'
         '    assert "retry_budget" not in describe({})\n',
         (("positive-function", "describe", crosses("function")),
          ("negative-string", "retry_budget", LOCAL_W))),
    Case("local", "go",
         "func SumPrices(items []int) int {\n    subtotal := 0\n"
         "    for _, entry := range items {\n        subtotal += entry\n    }\n"
         "    return subtotal\n}\n",
         "func TestNew(t *testing.T) {\n    subtotal := 0\n"
         "    for _, entry := range []int{1, 2} {\n        subtotal += entry\n    }\n"
         "    assert.Equal(t, subtotal, SumPrices([]int{1, 2}))\n}\n", local_checks("SumPrices")),
    *js_like("local",
             "export function sumPrices(items) {\n  let subtotal = 0;\n"
             "  for (const entry of items) {\n    subtotal += entry;\n  }\n  return subtotal;\n}\n",
             "import { sumPrices } from '../src/badge';\n\ntest('new case', () => {\n"
             "  let subtotal = 0;\n  for (const entry of [1, 2]) {\n    subtotal += entry;\n  }\n"
             "  expect(sumPrices([1, 2])).toBe(subtotal);\n});\n", local_checks("sumPrices")),
    Case("local", "java",
         "    public static int sumPrices(int[] items) {\n        int subtotal = 0;\n"
         "        for (int entry : items) {\n            subtotal += entry;\n        }\n"
         "        return subtotal;\n    }\n",
         "    @Test\n    void newCase() {\n        int subtotal = 0;\n"
         "        for (int entry : new int[] {1, 2}) {\n            subtotal += entry;\n        }\n"
         "        assertEquals(subtotal, Badge.sumPrices(new int[] {1, 2}));\n    }\n",
         local_checks("sumPrices")),
    # A field set on a library's object is a use; one of a type the gold declares crosses.
    Case("field", "python",
         "def make_session():\n    session = requests.Session()\n    session.trust_env = False\n"
         "    return session\n\n\nclass RetryPolicy:\n    def __init__(self):\n"
         "        self.max_attempts = 3\n",
         "def test_new():\n    from pkg.core import RetryPolicy, make_session\n\n"
         "    assert make_session().trust_env is False\n"
         "    assert RetryPolicy().max_attempts == 3\n",
         (("positive", "max_attempts", crosses("field")),
          ("negative", "trust_env", Want(defuse="none", rule=FOREIGN)))),
    Case("field", "go",
         "func ClientConfig() *tls.Config {\n    cfg := &tls.Config{InsecureSkipVerify: true}\n"
         '    cfg.ServerName = "shop.example.com"\n    return cfg\n}\n\n'
         "type RetryOptions struct {\n    MaxAttempts int\n}\n",
         "func TestNew(t *testing.T) {\n    opts := RetryOptions{MaxAttempts: 3}\n"
         "    assert.Equal(t, 3, opts.MaxAttempts)\n"
         "    assert.True(t, ClientConfig().InsecureSkipVerify)\n"
         '    assert.NotEmpty(t, ClientConfig().ServerName)\n}\n',
         (("positive", "MaxAttempts", crosses("field")),
          ("negative", "InsecureSkipVerify", Want(defuse="none", rule=FOREIGN)),
          ("negative-assign", "ServerName", Want(defuse="none", rule=FOREIGN)))),
    *js_like("field",
             "export function configureAgent(agent) {\n  agent.keepAlive = true;\n  return agent;\n"
             "}\n\nexport class RetryPolicy {\n  constructor() {\n    this.maxAttempts = 3;\n  }\n"
             "}\n",
             "import http from 'http';\nimport { RetryPolicy, configureAgent } from '../src/badge';"
             "\n\ntest('new case', () => {\n"
             "  expect(configureAgent(new http.Agent()).keepAlive).toBe(true);\n"
             "  expect(new RetryPolicy().maxAttempts).toBe(3);\n});\n",
             (("positive", "maxAttempts", crosses("field")),
              ("negative", "keepAlive", Want(defuse="none", rule=FOREIGN)))),
    # A prop of a component the gold declares, set by the test as a JSX attribute.
    Case("field", "tsx",
         "export interface ToneProps {\n  tone: string;\n}\n\n"
         "export function ToneBadge({ tone }: ToneProps): JSX.Element {\n"
         "  return <span className={tone}>{tone}</span>;\n}\n",
         "import { ToneBadge } from '../src/Badge';\n\ntest('new case', () => {\n"
         "  const { container } = render(<ToneBadge tone=\"warn\" />);\n"
         "  expect(container.firstChild.className).toBe('warn');\n});\n",
         (("positive-jsx", "tone", crosses()),
          ("negative-jsx", "className", Want(defuse="none")))),
    Case("field", "java",
         "    public static GridBagConstraints wide() {\n"
         "        GridBagConstraints c = new GridBagConstraints();\n        c.gridwidth = 2;\n"
         "        return c;\n    }\n\n    public static class RetryPolicy {\n"
         "        public int maxAttempts = 3;\n    }\n",
         "    @Test\n    void newCase() {\n        assertEquals(2, Badge.wide().gridwidth);\n"
         "        assertEquals(3, new Badge.RetryPolicy().maxAttempts);\n    }\n",
         (("positive", "maxAttempts", crosses("field")),
          ("negative", "gridwidth", Want(defuse="none", rule=FOREIGN)))),
    # A test's mock implementing a library interface defines nothing the gold's calls cross to;
    # a method of a type the gold declares, called by the test, crosses.
    Case("mock", "python",
         "def rewind(fh):\n    fh.seek(0)\n    return fh\n\n\nclass LogFile:\n"
         "    def rotate_logs(self):\n        return True\n",
         "class FakeFile:\n    def seek(self, offset, whence=0):\n        self.offset = offset\n"
         "        return offset\n\n\ndef test_new():\n    from pkg.core import LogFile, rewind\n\n"
         "    fh = FakeFile()\n    rewind(fh)\n    assert fh.seek(0, 1) == 0\n"
         "    assert LogFile().rotate_logs()\n",
         (("positive", "rotate_logs", crosses("method")),
          ("negative", "seek", Want(defuse="none", kind="identifier")))),
    Case("mock", "go",
         "func Rewind(s io.Seeker) error {\n    _, err := s.Seek(0, io.SeekStart)\n    return err\n"
         "}\n\nfunc Reset(f *os.File) error {\n    return f.Truncate(0)\n}\n\n"
         "type LogFile struct{ size int64 }\n\nfunc (l *LogFile) Shrink(size int64) error {\n"
         "    l.size = size\n    return nil\n}\n",
         "type fakeFile struct{ pos int64 }\n\n"
         "func (f *fakeFile) Seek(offset int64, whence int) (int64, error) {\n"
         "    f.pos = offset\n    return offset, nil\n}\n\n"
         "func (f *fakeFile) Truncate(size int64) error { return nil }\n\n"
         "func TestNew(t *testing.T) {\n    f := &fakeFile{pos: 9}\n"
         "    assert.NoError(t, Rewind(f))\n    assert.NoError(t, f.Truncate(0))\n"
         "    pos, _ := f.Seek(0, io.SeekCurrent)\n    assert.Zero(t, pos)\n"
         "    assert.NoError(t, (&LogFile{}).Shrink(0))\n}\n",
         (("positive", "Shrink", crosses("method")),
          ("negative", "Seek", Want(defuse="none", kind="identifier")),
          ("negative-truncate", "Truncate", Want(defuse="none", kind="identifier")))),
    *js_like("mock",
             "export function flushTo(stream, lines) {\n"
             "  for (const line of lines) stream.write(line);\n}\n\nexport class LogFile {\n"
             "  rotateLogs() {\n    return true;\n  }\n}\n",
             "import { LogFile, flushTo } from '../src/badge';\n\nclass FakeStream {\n"
             "  constructor() {\n    this.chunks = [];\n  }\n\n  write(chunk) {\n"
             "    this.chunks.push(chunk);\n  }\n}\n\ntest('new case', () => {\n"
             "  const s = new FakeStream();\n  flushTo(s, ['a']);\n  s.write('b');\n"
             "  expect(s.chunks).toEqual(['a', 'b']);\n"
             "  expect(new LogFile().rotateLogs()).toBe(true);\n});\n",
             (("positive", "rotateLogs", crosses("method")),
              ("negative", "write", Want(defuse="none", kind="identifier")))),
    Case("mock", "java",
         "    public static long stamp(InstantSource source) {\n        return source.millis();\n"
         "    }\n\n    public static class LogFile {\n        public boolean rotateLogs() {\n"
         "            return true;\n        }\n    }\n",
         "    static class FixedSource implements InstantSource {\n"
         "        public Instant instant() {\n            return Instant.EPOCH;\n        }\n\n"
         "        public long millis() {\n            return 42L;\n        }\n    }\n\n"
         "    @Test\n    void newCase() {\n        FixedSource source = new FixedSource();\n"
         "        assertEquals(source.millis(), Badge.stamp(source));\n"
         "        assertTrue(new Badge.LogFile().rotateLogs());\n    }\n",
         (("positive", "rotateLogs", crosses("method")),
          ("negative", "millis", Want(defuse="none", kind="identifier")))),
    # Package names and import paths never cross; a gold definition the test imports does.
    Case("import", "python",
         'from ruamel.yaml import YAML\n\n\ndef load_settings(text):\n'
         '    return YAML(typ="safe").load(text)\n',
         'from ruamel.yaml import YAML\n\n\ndef test_new():\n    from pkg.core import load_settings'
         '\n\n    assert load_settings("a: 1") == YAML(typ="safe").load("a: 1")\n',
         (("positive", "load_settings", crosses("function")),
          ("negative", "ruamel", Want(defuse="none", rule=IMPORT)),
          ("negative-class", "YAML", Want(defuse="none")))),
    Case("import", "go", "", "", gold_files={"ratelimit/limiter.go": tabs(
        'package ratelimit\n\nimport "golang.org/x/time/rate"\n\n'
        "func NewLimiter(burst int) *rate.Limiter {\n"
        "    return rate.NewLimiter(rate.Limit(burst), burst)\n}\n")},
        test_files={"ratelimit/limiter_test.go": tabs(
            'package ratelimit\n\nimport (\n    "testing"\n\n    "golang.org/x/time/rate"\n)\n\n'
            "func TestNew(t *testing.T) {\n    var l *rate.Limiter = NewLimiter(5)\n"
            '    if l.Burst() != 5 {\n        t.Fatal("burst")\n    }\n}\n')},
        checks=(("positive", "NewLimiter", crosses("function")),
                ("negative", "ratelimit", Want(defuse="none", rule=IMPORT)),
                ("negative-path", "golang.org/x/time/rate", ABSENT),
                ("negative-qualifier", "rate", Want(defuse="none")))),
    *js_like("import",
             "import yaml from 'js-yaml';\n\nexport function loadSettings(text) {\n"
             "  return yaml.load(text);\n}\n",
             "import yaml from 'js-yaml';\nimport { loadSettings } from '../src/badge';\n\n"
             "test('new case', () => {\n  expect(loadSettings('a: 1')).toEqual(yaml.load('a: 1'));"
             "\n});\n",
             (("positive", "loadSettings", crosses("function")),
              ("negative", "js-yaml", ABSENT), ("negative-name", "yaml", Want(defuse="none")))),
    Case("import", "java",
         "    public static ObjectMapper mapper() {\n        return new ObjectMapper();\n    }\n",
         "    @Test\n    void newCase() {\n"
         "        assertEquals(new ObjectMapper().getClass(), Badge.mapper().getClass());\n    }\n",
         (("positive", "mapper", crosses("method")),
          ("negative", "jackson", Want(defuse="none", rule=IMPORT)),
          ("negative-class", "ObjectMapper", Want(defuse="none"))),
         edits=(JACKSON,), test_edits=(JACKSON,)),
    # Config files yield keys and values, never definitions; a value the test asserts is a
    # literal candidate.
    Case("config", "ini", "",
         "def test_new():\n    import otherlib\n    import somelib\n\n"
         '    from pkg.core import cfg\n\n    assert somelib.parse(otherlib.load("x"))\n'
         '    assert cfg().get("acme", "log_format") == "json-lines"\n',
         (("positive", "json-lines", literal()),
          ("negative", "otherlib", Want(defuse="none", decl="value")),
          ("negative-pin", "somelib", ABSENT)),
         on="python", base={"setup.cfg": "[options]\ninstall_requires =\n    requests\n"},
         gold_files={"setup.cfg": "[options]\ninstall_requires =\n    requests\n"
                     "    somelib>=1.4\n    otherlib\n\n[acme]\nlog_format = json-lines\n"}),
    # Data files: a value the gold adds and the graded test asserts; comments yield nothing.
    Case("datafile", "yaml", "",
         'def test_new():\n    from pkg.core import load_defaults\n\n    cfg = load_defaults()\n'
         '    assert cfg["service"]["region"] == "eu-west-3"\n'
         '    assert cfg["service"]["replicas"] == 120\n    assert "us-east-9" not in str(cfg)\n'
         '    assert cfg["service"].get("zone", "eu-west-3a") == "eu-west-3a"\n',
         (("positive", "eu-west-3", literal()), ("positive-number", "120", literal("number")),
          ("negative-comment", "us-east-9", ABSENT), ("negative-unadded", "widgets", ABSENT)),
         on="python", base={"config/defaults.yaml": "service:\n  name: widgets\n"},
         gold_files={"config/defaults.yaml": "service:\n  name: widgets\n  region: eu-west-3\n"
                     "  # region: us-east-9\n  replicas: 120\n"}),
    Case("datafile", "json", "",
         'def test_new():\n    from pkg.core import load_limits\n\n'
         '    limits = load_limits(override={"fallback_region": "ap-south-2"})\n'
         '    assert limits["max_batch_size"] == 640\n',
         (("positive", "640", literal("number")), ("negative-fed", "ap-south-2", FED)),
         on="python", base={"config/limits.json": '{\n  "timeout": 30\n}\n'},
         gold_files={"config/limits.json": '{\n  "timeout": 30,\n  "max_batch_size": 640,\n'
                     '  "fallback_region": "ap-south-2"\n}\n'}),
    Case("datafile", "toml", "",
         'def test_new():\n    from pkg.core import settings\n\n'
         '    assert settings()["log_format"] == "json-lines"\n\n\n'
         'def test_other():\n    assert settings()["legacy_format"] == "plain-text"\n',
         (("positive", "json-lines", literal()), ("negative-not-run", "plain-text", UNGRADED)),
         on="python", base={"pyproject.toml": '[project]\nname = "widgets"\n'},
         gold_files={"pyproject.toml": '[project]\nname = "widgets"\n\n[tool.widgets]\n'
                     'log_format = "json-lines"\nlegacy_format = "plain-text"\n'}),
    # A data file the graded test reads by name (its expected values) counts on the test side.
    Case("datafile", "json", 'DEFAULT_REGION = "eu-west-3"\n',
         "def test_new():\n    import json\n    from pathlib import Path\n\n"
         "    from pkg.core import DEFAULT_REGION\n\n"
         '    data = json.loads(Path(__file__).with_name("expected_region.json").read_text())\n'
         '    assert DEFAULT_REGION == data["region"]\n',
         (("positive-test-side", "eu-west-3", Want(defuse="", rule="literal", kind="string")),),
         on="python", test_files={"tests/expected_region.json": '{"region": "eu-west-3"}\n'}),
    # An expected-output file that holds the literal the graded test feeds in only echoes
    # the test's input back (a snapshot of the path it handed the parser); a literal of it the
    # test never feeds in is the fix's output.
    Case("echoed", "json",
         'PARSERS = {"mix.lock": "hexpm"}\n\n\n'
         "def analyze(path):\n"
         '    return {"type": PARSERS[path], "lockfilePath": path, "libraries": []}\n',
         "def test_new():\n    import json\n    from pathlib import Path\n\n"
         "    from pkg.core import analyze\n\n"
         '    want = json.loads((Path(__file__).parent / "golden" / "mix.lock.json").read_text())\n'
         '    got = analyze("mix.lock")\n    assert got == want\n'
         '    libs = got["libraries"]\n    assert not libs\n',
         (("negative", "mix.lock", Want(graded=False, rule=NOT_GRADED_ECHO)),
          ("positive", "hexpm", Want(defuse="", rule="literal", kind="string")),
          # A key the test reads out of the result is the fix's, not an input echoed.
          ("positive-key", "libraries", Want(defuse="", rule="literal", kind="string"))),
         on="python",
         test_files={"tests/golden/mix.lock.json": '{"type": "hexpm", "lockfilePath": '
                                                   '"mix.lock", "libraries": []}\n'}),
    # Text of docs and comments, even where a hunk starts inside them, yields no candidate.
    *[Case("doc", lang, gold, test, (("positive", name, crosses()),
                                     ("negative", doc, ABSENT), ("negative-comment", cmt, ABSENT)),
           edits=(("line five", f"line five, see {doc}"),))
      for lang, gold, test, name, doc, cmt in [
          ("python", "# legacy_stripes is gone.\ndef render_stripes(items):\n    return items\n",
           "def test_new():\n    from pkg.core import render_stripes\n\n    zebra_mode = True\n"
           "    legacy_stripes = False\n"
           "    assert render_stripes([zebra_mode, legacy_stripes]) == [True, False]\n",
           "render_stripes", "zebra_mode", "legacy_stripes"),
          ("go", "// legacyStripes is gone.\nfunc RenderStripes(n int) int {\n    return n\n}\n",
           "func TestNew(t *testing.T) {\n    zebraMode, legacyStripes := 1, 2\n"
           "    assert.Equal(t, 3, RenderStripes(zebraMode+legacyStripes))\n}\n",
           "RenderStripes", "zebraMode", "legacyStripes"),
          *[(lang,
             "// legacyStripes is gone.\nexport function renderStripes(n) {\n  return n;\n}\n",
             "import { renderStripes } from '../src/badge';\n\ntest('new case', () => {\n"
             "  const zebraMode = 1;\n  const legacyStripes = 2;\n"
             "  expect(renderStripes(zebraMode + legacyStripes)).toBe(3);\n});\n",
             "renderStripes", "zebraMode", "legacyStripes")
            for lang in ("javascript", "typescript", "tsx")],
          ("java", "    // legacyStripes is gone.\n    public static int renderStripes(int n) {\n"
           "        return n;\n    }\n",
           "    @Test\n    void newCase() {\n        int zebraMode = 1;\n"
           "        int legacyStripes = 2;\n"
           "        assertEquals(3, Badge.renderStripes(zebraMode + legacyStripes));\n    }\n",
           "renderStripes", "zebraMode", "legacyStripes")]],
    # The test side counts only inside FAIL_TO_PASS tests, and a literal only where asserted.
    Case("graded", "python", *SHIP_PY, SHIP_CHECKS),
    Case("graded", "go", SHIP_GO,
         "func TestNew(t *testing.T) {\n    tests := []struct {\n        region string\n"
         "        want   string\n    }{\n"
         '        {region: "eu-west-3", want: "free shipping over threshold"},\n    }\n'
         "    for _, tt := range tests {\n"
         "        assert.Equal(t, tt.want, ShippingLabel(9000, tt.region))\n    }\n}\n\n"
         "func TestOther(t *testing.T) {\n"
         '    assert.Equal(t, "standard shipping rate", ShippingLabel(10, "us"))\n}\n',
         SHIP_CHECKS),
    *js_like("graded", *SHIP_JS, SHIP_CHECKS),
    Case("graded", "java", *SHIP_JAVA, SHIP_CHECKS),
    # FAIL_TO_PASS id formats: each names one block; its sibling is not graded.
    Case("scope", "python", *SHIP_PY_CLASS, SCOPE_CHECKS,
         f2p=("tests/test_core.py::TestShipping::test_new",)),
    Case("scope", "python", *SHIP_PY, SCOPE_CHECKS, f2p=("tests/test_core.py::test_new[eu]",)),
    # Some benchmarks truncate a parametrized id (no closing `]`): it names the same test.
    Case("scope", "python", *SHIP_PY, SCOPE_CHECKS, f2p=("tests/test_core.py::test_new[eu-we",)),
    Case("scope", "go", SHIP_GO,
         'func TestNew(t *testing.T) {\n    t.Run("renders label", func(t *testing.T) {\n'
         '        assert.Equal(t, "free shipping over threshold", ShippingLabel(9000, "eu-west-3"))'
         '\n    })\n    t.Run("renders fallback", func(t *testing.T) {\n'
         '        assert.Equal(t, "standard shipping rate", ShippingLabel(10, "us"))\n    })\n}\n',
         SCOPE_CHECKS, f2p=("TestNew/renders label",)),
    *[c for ids in (("shipping new case",), ("new case",)) for c in js_like(
        "scope", *SHIP_JS, SCOPE_CHECKS, f2p=ids)],
    *js_like("scope", *SHIP_JS, SCOPE_CHECKS, f2p=lambda path: (f"{path} | shipping new case",)),
    *[Case("scope", "java", *SHIP_JAVA, SCOPE_CHECKS, f2p=(i,))
      for i in ("BadgeTest.newCase", "com.acme.BadgeTest#newCase", "BadgeTest#newCase")],
    # Definitions only the syntax tree sees: members of const/var blocks, struct fields, class
    # methods and annotated fields, edited into existing declarations.
    Case("syntax-def", "go",
         "func Backoff() int {\n    const maxRetries = 5\n    return maxRetries\n}\n",
         "func TestNew(t *testing.T) {\n    const maxRetries = 5\n"
         "    assert.NotEqual(t, StoreDisk, StoreRedisCluster)\n"
         "    assert.True(t, errors.Is(ErrQuotaExceeded, ErrQuotaExceeded))\n"
         "    assert.Equal(t, 5, Options{Burst: 5}.Burst)\n"
         "    assert.Equal(t, maxRetries, Backoff())\n}\n",
         (("positive-const", "StoreRedisCluster", crosses("constant")),
          ("positive-var", "ErrQuotaExceeded", crosses("variable")),
          ("positive-field", "Burst", crosses("field")), ("negative", "maxRetries", LOCAL_W)),
         edits=(("    StoreDisk\n", "    StoreDisk\n    StoreRedisCluster\n"),
                ('("not found")\n', '("not found")\n    ErrQuotaExceeded = errors.New("quota")\n'),
                ("    Size int\n", "    Size int\n    Burst int\n"))),
    Case("syntax-def", "python",
         "def tally(items):\n    running_total: int = 0\n    for item in items:\n"
         "        running_total += item\n    return running_total\n",
         "def test_new():\n    from pkg.core import Settings, tally\n\n    running_total: int = 0\n"
         "    assert Settings().backoff_seconds == 0.5\n"
         "    assert Settings(backoff_seconds=1.0).backoff_seconds == 1.0\n"
         "    assert tally([1]) == running_total + 1\n",
         (("positive", "backoff_seconds", crosses("field")),
          ("negative", "running_total", LOCAL_W)),
         edits=(("    timeout: float = 10.0\n",
                 "    timeout: float = 10.0\n    backoff_seconds: float = 0.5\n"),)),
    *[Case("syntax-def", lang,
           "export function drain(limiter: RateLimiter): number {\n"
           "  let remaining: number = limiter.capacity;\n  return remaining;\n}\n",
           "import { RateLimiter, drain } from '../src/badge';\n\ntest('new case', () => {\n"
           "  const remaining: number = 10;\n  const limiter = new RateLimiter();\n"
           "  expect(limiter.tryAcquire()).toBe(true);\n  expect(limiter.burstSize).toBe(5);\n"
           "  expect(drain(limiter)).toBe(remaining);\n});\n",
           (("positive-method", "tryAcquire", crosses("method")),
            ("positive-field", "burstSize", crosses("field")),
            ("negative", "remaining", LOCAL_W)),
           edits=(("  capacity: number = 10;\n", "  capacity: number = 10;\n"
                   "  burstSize: number = 5;\n\n  tryAcquire(): boolean {\n"
                   "    return this.capacity > 0;\n  }\n"),))
      for lang in ("typescript", "tsx")],
    Case("syntax-def", "java",
         "    public static final int MAX_BURST = 5;\n\n    public boolean tryAcquire() {\n"
         "        int remaining = 3;\n        return remaining > 0;\n    }\n",
         "    @Test\n    void newCase() {\n        int remaining = 3;\n"
         "        assertEquals(5, Badge.MAX_BURST);\n"
         "        assertTrue(new Badge().tryAcquire());\n        assertTrue(remaining > 0);\n"
         "    }\n",
         (("positive-constant", "MAX_BURST", crosses("constant")),
          ("positive-method", "tryAcquire", crosses("method")),
          ("negative", "remaining", LOCAL_W))),
    # A ≥12-character fixed segment of a gold format string inside an asserted test string.
    Case("segment", "python",
         'def check_version(v, port):\n    if not v[0].isdigit():\n'
         '        log.warning(f"Unable to parse old version {v}")\n    if port > 65535:\n'
         '        raise ValueError(f"bad port {port}")\n\n\n'
         'def missing(name):\n    return f"Config section missing: {name}"\n',
         'def test_new(caplog):\n    check_version("blabla", 80)\n'
         '    assert caplog.messages == ["Unable to parse old version blabla"]\n'
         '    with pytest.raises(ValueError, match="bad port 70000"):\n'
         '        check_version("1.0", 70000)\n    lines = ["Config section missing: db"]\n'
         "    assert summarize(lines) == 1\n", seg_checks("Unable to parse old version")),
    Case("segment", "go",
         "func OpenConfig(path string, port int) error {\n    if port > 65535 {\n"
         '        return fmt.Errorf("bad port %d", port)\n    }\n'
         '    return fmt.Errorf("open config file %s: %w", path, os.ErrNotExist)\n}\n\n'
         'func Missing(name string) string {\n    return fmt.Sprintf("Config section missing: %s", '
         "name)\n}\n",
         "func TestNew(t *testing.T) {\n"
         '    assert.EqualError(t, OpenConfig("/etc/app.yaml", 80), '
         '"open config file /etc/app.yaml: file does not exist")\n'
         '    assert.EqualError(t, OpenConfig("x", 70000), "bad port 70000")\n'
         '    lines := []string{"Config section missing: db"}\n'
         "    assert.Equal(t, 1, len(lines))\n}\n", seg_checks("open config file")),
    *js_like("segment", *SEG_JS, (*seg_checks("Cannot find module"),
                                   ("negative-short-tail", "in registry", ABSENT))),
    Case("segment", "java",
         "    public static String openConfig(String path) {\n"
         '        return String.format("Unable to open config %s", path);\n    }\n\n'
         "    public static String badPort(int port) {\n"
         '        return String.format("bad port %d", port);\n    }\n\n'
         "    public static String missing(String name) {\n"
         '        return String.format("Config section missing: %s", name);\n    }\n',
         "    @Test\n    void newCase() {\n"
         '        assertEquals("Unable to open config app.yml", Badge.openConfig("app.yml"));\n'
         '        assertEquals("bad port 70000", Badge.badPort(70000));\n'
         '        String line = "Config section missing: db";\n'
         "        assertTrue(Badge.summarize(line));\n    }\n",
         seg_checks("Unable to open config")),
    # A string naming what the other side defines crosses; one naming what it only uses
    # (a library's attribute) does not.
    Case("string-name", "python",
         "def render_compact(items, compact=True):\n"
         "    return [mimetypes.guess_type(i) for i in items] if compact else items\n",
         "def test_new(monkeypatch):\n    from pkg import core\n\n"
         '    monkeypatch.setattr(core.mimetypes, "guess_type", lambda p: ("image/png", None))\n'
         '    assert getattr(core, "render_compact")(["a.png"]) == [("image/png", None)]\n'
         '    assert core.helper(**{"compact": 1}) == {"compact": 1}\n'
         '    assert "guess_type" not in vars(core)\n',
         (("positive", "render_compact", crosses("function", NAMED)),
          ("positive-kwargs", "compact", crosses("parameter", NAMED)),
          ("negative", "guess_type", Want(defuse="none", rule=FOREIGN)))),
    # A string naming a gold definition is a use of it even where the test does not assert
    # it (it patches or looks the name up); a dotted path names it only through the module
    # or type the gold defines it in.
    Case("string-name-fed", "python",
         "def refresh_token():\n    return 'new'\n\n\ndef rotate_keys():\n    return 2\n\n\n"
         "def join_parts(*p):\n    return '/'.join(p)\n",
         "def test_new(monkeypatch):\n    from unittest import mock\n\n    from pkg import core\n\n"
         '    monkeypatch.setattr(core, "refresh_token", lambda: "x")\n'
         '    with mock.patch("pkg.core.rotate_keys", return_value=3), '
         'mock.patch("os.path.join_parts"):\n'
         "        assert core.helper([1]) == [1]\n",
         (("positive", "refresh_token", crosses("function", NAMED)),
          ("positive-dotted", "rotate_keys", crosses("function", NAMED)),
          ("negative-dotted", "join_parts", Want(graded=False, absent_ok=True)))),
    *js_like("string-name-fed",
             "export function refreshToken() {\n  return 'new';\n}\n\n"
             "export const DOMException = globalThis.DOMException ?? Error;\n",
             "import * as api from '../src/badge';\n\ntest('new case', () => {\n"
             "  jest.spyOn(api, 'refreshToken');\n  const known = ['DOMException', 'Error'];\n"
             "  expect(known.includes(new Error('x').name)).toBe(true);\n});\n",
             (("positive", "refreshToken", crosses("function", NAMED)),
              # The runtime's name of an error, not a lookup of the gold's constant.
              ("negative", "DOMException", Want(graded=False, absent_ok=True)))),
    *js_like("string-name",
             "export class Client {\n  constructor() {\n    this.retryLimit = 3;\n  }\n\n"
             "  load(path) {\n    return fs.readFileSync(path);\n  }\n}\n",
             "import fs from 'fs';\nimport { Client } from '../src/badge';\n\n"
             "test('new case', () => {\n  jest.spyOn(fs, 'readFileSync');\n"
             "  expect(new Client()['retryLimit']).toBe(3);\n  new Client().load('a.json');\n"
             "  expect(fs.readFileSync).toHaveBeenCalledWith('a.json');\n});\n",
             (("positive", "retryLimit", crosses("field", NAMED)),
              ("negative", "readFileSync", Want(defuse="none", rule=FOREIGN)))),
    Case("string-name", "go",
         "type Report struct {\n    TotalCount int\n}\n\n"
         "func Load(path string, burst int) ([]byte, error) {\n"
         "    return os.ReadFile(path)\n}\n",
         "func TestNew(t *testing.T) {\n    r := Report{}\n"
         '    assert.True(t, reflect.ValueOf(r).FieldByName("TotalCount").IsValid())\n'
         '    assert.Equal(t, "ReadFile", runtimeName(Load))\n'
         '    if runtimeName(Load) == "" {\n        t.Fatal("burst")\n    }\n}\n',
         (("positive", "TotalCount", crosses("field", NAMED)),
          ("negative", "ReadFile", Want(defuse="none", rule=FOREIGN)),
          # A message equal to a gold parameter's name is no keyword passed by name.
          ("negative-param-message", "burst", Want(defuse="none")))),
    Case("string-name", "java",
         "    public static String renderCompact() {\n        return \"\";\n    }\n\n"
         "    public static String describe(Exception e) {\n        return e.getMessage();\n"
         "    }\n",
         "    @Test\n    void newCase() throws Exception {\n"
         '        assertNotNull(Badge.class.getMethod("renderCompact"));\n'
         '        assertEquals("getMessage", Throwable.class.getMethod("getMessage").getName());\n'
         "    }\n",
         (("positive", "renderCompact", crosses("method", NAMED)),
          ("negative", "getMessage", Want(defuse="none", rule=FOREIGN)))),
    # A call assertion grades what the code chose to pass on; when the test fed that very
    # literal in itself, it checks only a hand-over (an X11 atom the test names, then asserts
    # the library was asked for).
    Case("passed-on", "python",
         "def intern_atom(lib, name):\n    return lib.XInternAtom(name, True)\n\n\n"
         "def wm_name(lib):\n"
         '    return lib.XGetProperty(intern_atom(lib, b"_NET_WM_NAME"), "UTF8_STRING")\n',
         "def test_new():\n    from unittest import mock\n\n    lib = mock.Mock()\n"
         '    intern_atom(lib, b"_NET_WM_NAME")\n'
         '    lib.XInternAtom.assert_called_once_with(b"_NET_WM_NAME", True)\n'
         "    wm_name(lib)\n"
         '    lib.XGetProperty.assert_called_with(lib.XInternAtom.return_value, "UTF8_STRING")\n',
         PASSED_ON),
    *js_like("passed-on",
             "export function internAtom(lib, name) {\n  return lib.intern(name, true);\n}\n\n"
             "export function wmName(lib) {\n"
             "  return lib.getProperty(internAtom(lib, '_NET_WM_NAME'), 'UTF8_STRING');\n}\n",
             "import { internAtom, wmName } from '../src/badge';\n\n"
             "test('new case', () => {\n"
             "  const lib = { intern: jest.fn(), getProperty: jest.fn() };\n"
             "  internAtom(lib, '_NET_WM_NAME');\n"
             "  expect(lib.intern).toHaveBeenCalledWith('_NET_WM_NAME', true);\n"
             "  wmName(lib);\n"
             "  expect(lib.getProperty).toHaveBeenCalledWith(undefined, 'UTF8_STRING');\n});\n",
             PASSED_ON),
]


# Test data only the gold ships (GOLD-TEST-DATA): a value the graded test asserts, which the
# gold writes only into a file the test reads and the test patch does not write. Negative: a
# value the gold's code also makes; one of a data file outside test paths no test names.
def data_checks(path: str) -> Checks:
    return (("positive", "eu-north-7", Want(kind="string", test_data=path)),
            ("negative-product", "ap-south-9", Want(kind="string", test_data="")),
            ("negative-unnamed", "turbo-fast", Want(kind="string", test_data="")))


DATA = "default: eu-north-7\nbackup: ap-south-9\n"
MODES = '{"mode": "turbo-fast"}\n'
TEST_DATA_CASES = [
    Case("gold-test-data", "python",
         'def default_region(path):\n    return open(path).read().split()[1]\n\n\n'
         'FALLBACK = "ap-south-9"\n',
         'def test_new():\n    assert default_region("tests/fixtures/regions.yaml") == '
         '"eu-north-7"\n    assert FALLBACK == "ap-south-9"\n    assert mode() == "turbo-fast"\n',
         data_checks("tests/fixtures/regions.yaml"),
         gold_files={"tests/fixtures/regions.yaml": DATA, "pkg/modes.json": MODES}),
    Case("gold-test-data", "go",
         "func DefaultRegion(path string) string {\n    b, _ := os.ReadFile(path)\n"
         "    return string(b)\n}\n\nconst Fallback = \"ap-south-9\"\n",
         "func TestNew(t *testing.T) {\n"
         '    assert.Equal(t, "eu-north-7", DefaultRegion("testdata/regions.yaml"))\n'
         '    assert.Equal(t, "ap-south-9", Fallback)\n    assert.Equal(t, "turbo-fast", Mode())\n'
         "}\n",
         data_checks("store/testdata/regions.yaml"),
         gold_files={"store/testdata/regions.yaml": DATA, "store/modes.json": MODES}),
    *[Case("gold-test-data", lang,
           "export function defaultRegion(path) {\n  return fs.readFileSync(path, 'utf8');\n}\n"
           "\nexport const FALLBACK = 'ap-south-9';\n",
           "test('new case', () => {\n"
           "  expect(defaultRegion(`${__dirname}/fixtures/regions.json`)).toBe('eu-north-7');\n"
           "  expect(FALLBACK).toBe('ap-south-9');\n  expect(mode()).toBe('turbo-fast');\n});\n",
           data_checks("test/fixtures/regions.json"),
           gold_files={"test/fixtures/regions.json": '{"default": "eu-north-7", '
                                                     '"backup": "ap-south-9"}\n',
                       "src/modes.json": MODES})
      for lang in ("javascript", "typescript", "tsx")],
    Case("gold-test-data", "java",
         "    public static final String FALLBACK = \"ap-south-9\";\n\n"
         "    public static String defaultRegion(String path) {\n        return path;\n    }\n",
         "    @Test\n    void newCase() {\n"
         '        assertEquals("eu-north-7", Badge.defaultRegion("/regions.yaml"));\n'
         '        assertEquals("ap-south-9", Badge.FALLBACK);\n'
         '        assertEquals("turbo-fast", Badge.mode());\n    }\n',
         data_checks("src/test/resources/regions.yaml"),
         gold_files={"src/test/resources/regions.yaml": DATA,
                     "src/main/resources/modes.json": MODES}),
]
CASES += TEST_DATA_CASES


# Conventions (issue 20 §2): a new name or string the base's own shapes predict, given the
# word the prose (or the base) supplies, is a CONVENTION hypothesis; the same shape with a word
# nothing gives stays a claim. Names are constants, spelled as each language spells them.
def _name(lang: str, *parts: str) -> str:
    return "".join(parts) if lang == "go" else "_".join(p.upper() for p in parts)


def _const(lang: str, name: str, value: str) -> str:
    return {"python": f'{name} = "{value}"\n', "go": f'const {name} = "{value}"\n',
            "java": f'    public static final String {name} = "{value}";\n'}.get(
        lang, f"export const {name} = '{value}';\n")


def _asserts(lang: str, pairs: list[tuple[str, str]]) -> str:
    if lang == "python":
        return ("def test_new():\n    from pkg.core import " + ", ".join(n for n, _ in pairs)
                + "\n\n" + "".join(f'    assert {n} == "{v}"\n' for n, v in pairs))
    if lang == "go":
        return ("func TestNew(t *testing.T) {\n"
                + "".join(f'    assert.Equal(t, "{v}", {n})\n' for n, v in pairs) + "}\n")
    if lang == "java":
        return ("    @Test\n    void newCase() {\n"
                + "".join(f'        assertEquals("{v}", Badge.{n});\n' for n, v in pairs)
                + "    }\n")
    return ("test('new case', () => {\n"
            + "".join(f"  expect({n}).toBe('{v}');\n" for n, v in pairs) + "});\n")


_TYPE = {"python": "class HTTPError(Exception):\n    pass\n",
         "go": "type HTTPError struct{}\n",
         "java": "    static class HTTPError extends RuntimeException {}\n"}
CONVENTION_LANGS = ("python", "go", "javascript", "typescript", "tsx", "java")


def convention_cases(lang: str) -> list[Case]:
    n = lambda *parts: _name(lang, *parts)  # noqa: E731
    c = lambda name, value: _const(lang, name, value)  # noqa: E731
    out = []

    def case(form: str, base: str, made: list[tuple[str, str]], checks: Checks, prose: str,
             **kw: Any) -> None:
        out.append(Case(f"convention-{form}", lang, "".join(c(a, v) for a, v in made),
                        _asserts(lang, made), checks, at_base=base, prose=prose, **kw))

    # A group's affix around a prose word in its own spelling (`StoreRocksDB`).
    case("affix", c(n("Store", "Memory"), "mem") + c(n("Store", "Disk"), "disk"),
         [(n("Store", "Rocks", "DB"), "rocks"), (n("Store", "Level", "Tape"), "tape")],
         (("positive", n("Store", "Rocks", "DB"), Want(convention="RocksDB" if lang == "go"
                                                     else "ROCKS_DB")),
          ("negative", n("Store", "Level", "Tape"), Want(convention=""))),
         "Back the store with RocksDB.")
    # A part added whose word is a prose stem (`upstream_version_short`, "shorten").
    case("part-added", c(n("Upstream", "Browser", "Version"), "1.2.3"),
         [(n("Upstream", "Browser", "Version", "Short"), "1.2"),
          (n("Upstream", "Browser", "Version", "Major"), "1")],
         (("positive", n("Upstream", "Browser", "Version", "Short"),
           Want(convention="added, a word of the prose")),
          ("negative", n("Upstream", "Browser", "Version", "Major"), Want(convention=""))),
         "Shorten the upstream browser version shown in the title.")
    # A message built on a sibling's shape from prose words.
    case("message-shape", c(n("Read", "Failed"), "reading cache file: %s"),
         [(n("Remove", "Failed"), "removing cache directory: %s"),
          (n("Purge", "Failed"), "purging stale entries: %s")],
         (("positive", "removing cache directory: %s",
           Want(kind="string", convention="`reading cache file: %s`")),
          ("negative", "purging stale entries: %s", Want(kind="string", convention=""))),
         "Remove the cache directory when the user asks.")
    # A whole base literal with text added that the prose gives.
    case("literal-extended", c(n("Not", "Found"), "store not found"),
         [(n("Not", "Found", "At"), "store not found at the path"),
          (n("Not", "Found", "In"), "store not found in quorum")],
         (("positive", "store not found at the path",
           Want(kind="string", convention="`store not found`")),
          ("negative", "store not found in quorum", Want(kind="string", convention=""))),
         "Say which path the store was looked up at.")
    # A family's affix applied to a name the base defines (`isHTTPError`, class `HTTPError`).
    # A single word (`Pattern`) is a name everywhere: it gives nothing.
    single = _TYPE.get(lang, "export class HTTPError extends Error {}\n").replace(
        "HTTPError", "Pattern")
    case("affix-base-name",
         _TYPE.get(lang, "export class HTTPError extends Error {}\n") + single
         + c(n("Is", "Timeout", "Error"), "t") + c(n("Is", "Retry", "Error"), "r"),
         [(n("Is", "HTTP", "Error"), "h"), (n("Is", "Quota", "Error"), "q"),
          (n("Is", "Pattern"), "p")],
         (("positive", n("Is", "HTTP", "Error"), Want(convention="a name the base has")),
          ("negative", n("Is", "Quota", "Error"), Want(convention="")),
          ("negative-single-word", n("Is", "Pattern"), Want(convention=""))),
         "Tell callers what failed.")
    # A numbered family completed inside its range (`PY_3_10_PLUS` by 8, 9 and 12).
    case("numbered", c(n("Version", "8", "Limit"), "8") + c(n("Version", "9", "Limit"), "9")
         + c(n("Version", "12", "Limit"), "12"),
         [(n("Version", "10", "Limit"), "10"), (n("Version", "20", "Limit"), "20")],
         (("positive", n("Version", "10", "Limit"), Want(convention="inside the family's range")),
          ("negative", n("Version", "20", "Limit"), Want(convention=""))),
         "Support more versions.")
    # A group's affix carried onto a name the gold itself defines (`NewBucket`, `Bucket`).
    case("affix-gold-name", c(n("Make", "Queue"), "q") + c(n("Make", "Heap"), "h"),
         [(n("Bucket"), "b"), (n("Make", "Bucket"), "mb"), (n("Make", "Trie"), "mt")],
         (("positive", n("Make", "Bucket"), Want(convention="a name the gold defines")),
          ("negative", n("Make", "Trie"), Want(convention=""))),
         "Rate-limit the senders.")
    # A base string respelled as the prose spells it (`self closing` -> `self-closing`).
    case("respelled", c(n("Tag", "Err"), "tag cannot be self closing here")
         + c(n("Value", "Err"), "value must be non empty"),
         [(n("Tag", "Error"), "cannot be self-closing here"),
          (n("Value", "Error"), "value must be non-empty")],
         (("positive", "cannot be self-closing here",
           Want(kind="string", convention="spelled `self-closing`")),
          ("negative", "value must be non-empty", Want(kind="string", convention=""))),
         "Tags cannot be self-closing.")
    # A family completed as the base completes its own: `try_peek_from` beside `peek_from`
    # when the base pairs `recv_from` with `try_recv_from`; a word another name merely holds
    # (`parse_dotted`) is no family.
    case("family", c(n("Recv", "From"), "r") + c(n("Try", "Recv", "From"), "tr")
         + c(n("Peek", "From"), "p") + c(n("Parse", "Dotted"), "d"),
         [(n("Try", "Peek", "From"), "tp"), (n("Parse", "Peek", "From"), "pp")],
         (("positive", n("Try", "Peek", "From"), Want(convention="a name the base has")),
          ("negative", n("Parse", "Peek", "From"), Want(convention=""))),
         "Add the non-blocking variants.")
    # One word replaced wins over looser shapes that sit earlier in the file: only three
    # siblings are kept, the nearest form first.
    case("nearest-first", c(n("Map", "Err"), "Not a valid mapping type.")
         + c(n("List", "Err"), "Not a valid list type.")
         + c(n("Num", "Err"), "Not a valid number type.")
         + c(n("Ip", "Err"), "Not a valid IPv4 address."),
         [(n("Iface", "Err"), "Not a valid IPv4 interface."),
          (n("Mask", "Err"), "Not a valid IPv4 netmask.")],
         (("positive", "Not a valid IPv4 interface.",
           Want(kind="string", convention="`Not a valid IPv4 address.`")),
          ("negative", "Not a valid IPv4 netmask.", Want(kind="string", convention=""))),
         "Add an IP interface field.")
    # A message with one small edit of a base one: a word taken out, glue added, a word
    # respelled (no word needed); a run of words replaced by one the prose gives, or a short
    # message's one word by the prose's phrase (issue 20, reading round of 2026-12-03).
    case("word-taken-out", c(n("Only", "Err"), "one or more of the choices was not in the list"),
         [(n("None", "Err"), "one or more of the choices was in the list"),
          (n("Some", "Err"), "several of the picks were outside the set")],
         (("positive", "one or more of the choices was in the list",
           Want(kind="string", convention="with `not` taken out")),
          ("negative", "several of the picks were outside the set",
           Want(kind="string", convention=""))),
         "Add the opposite validator.")
    case("glue-added", c(n("Indent", "Err"), "only spaces and tabs allowed in the indent")
         + c(n("Newline", "Err"), "only carriage returns given in the newline"),
         [(n("Indent", "Error"), "only spaces and tabs are allowed in the indent"),
          (n("Newline", "Error"), "only carriage returns permitted within the newline")],
         (("positive", "only spaces and tabs are allowed in the indent",
           Want(kind="string", convention="with `are` added")),
          ("negative", "only carriage returns permitted within the newline",
           Want(kind="string", convention=""))),
         "Polish the docs.")
    case("word-respelled", c(n("Eq", "Err"), "you have customized the behaviour of equality")
         + c(n("Ord", "Err"), "you have customized the handling of order"),
         [(n("Eq", "Error"), "you have customized the behavior of equality"),
          (n("Ord", "Error"), "you have customized the treatment of order")],
         (("positive", "you have customized the behavior of equality",
           Want(kind="string", convention="respelled `behavior`")),
          ("negative", "you have customized the treatment of order",
           Want(kind="string", convention=""))),
         "Polish the messages.")
    case("run-replaced", c(n("Float", "Err"), "%s is not a valid floating point value"),
         [(n("Uuid", "Err"), "%s is not a valid UUID value"),
          (n("Zebra", "Err"), "%s is not a valid zebra value")],
         (("positive", "%s is not a valid UUID value",
           Want(kind="string", convention="a word of the prose")),
          ("negative", "%s is not a valid zebra value", Want(kind="string", convention=""))),
         "Add UUID support.")
    case("short-template", c(n("Version", "Err"), "Invalid version: "),
         [(n("Nesting", "Err"), "Invalid nesting limit: "),
          (n("Stripe", "Err"), "Invalid stripe gauge: ")],
         (("positive", "Invalid nesting limit: ",
           Want(kind="string", convention="a word of the prose")),
          ("negative", "Invalid stripe gauge: ", Want(kind="string", convention=""))),
         "Let callers set a nesting limit.")
    # A name with one part replaced by a run of parts the prose spells (`PowerShell`).
    case("run-replaced-name", c(n("Gen", "Bash", "Completion"), "b")
         + c(n("Gen", "Zsh", "Completion"), "z"),
         [(n("Gen", "Power", "Shell", "Completion"), "p"),
          (n("Gen", "Nu", "Shell", "Completion"), "n")],
         (("positive", n("Gen", "Power", "Shell", "Completion"),
           Want(convention="a word of the prose")),
          ("negative", n("Gen", "Nu", "Shell", "Completion"), Want(convention=""))),
         "Add PowerShell completions.")
    # Literals the base joins into the text a new one spells whole.
    joined = {"python": '{} = "does not satisfy bounds" + " for type variable"\n',
              "go": 'const {} = "does not satisfy bounds" + " for type variable"\n',
              "java": '    public static final String {} = "does not satisfy bounds"\n'
                      '        + " for type variable";\n'}.get(
        lang, "export const {} = 'does not satisfy bounds' + ' for type variable';\n")
    case("joined", joined.format(n("Bound", "Err")),
         [(n("Bound", "Error"), "does not satisfy bounds for type variable"),
          (n("Kind", "Error"), "does not satisfy kinds for type parameter")],
         (("positive", "does not satisfy bounds for type variable",
           Want(kind="string", convention="adjacent literals")),
          ("negative", "does not satisfy kinds for type parameter",
           Want(kind="string", convention=""))),
         "Reformat the code.")
    # An accessor verb before a whole name the base has (`isHTTPError`, class `HTTPError`).
    case("accessor-base-name", _TYPE.get(lang, "export class HTTPError extends Error {}\n"),
         [(n("Is", "HTTP", "Error"), "h"), (n("Is", "Quota", "Error"), "q")],
         (("positive", n("Is", "HTTP", "Error"), Want(convention="before a name the base has")),
          ("negative", n("Is", "Quota", "Error"), Want(convention=""))),
         "Add type guards for errors.")
    # A name whose words are a base message's, in order (`parseRpmQfLine`).
    case("spelled-by-string", c(n("Warn", "Msg"), "Failed to parse rpm qf line: %s"),
         [(n("Parse", "Rpm", "Qf", "Line"), "p"), (n("Split", "Rpm", "Qf", "Row"), "s")],
         (("positive", n("Parse", "Rpm", "Qf", "Line"), Want(convention="a string the base has")),
          ("negative", n("Split", "Rpm", "Qf", "Row"), Want(convention=""))),
         "Handle the new output.")
    # A definition the gold removes, back with other letter case (`mustParseURL` exported).
    base_name = _const(lang, "defaultLimit", "10")
    out.append(Case("convention-case-renamed", lang,
                    _const(lang, "DefaultLimit", "10") + _const(lang, "DefaultQuota", "5"),
                    _asserts(lang, [("DefaultLimit", "10"), ("DefaultQuota", "5")]),
                    (("positive", "DefaultLimit", Want(convention="differs only in case")),
                     ("negative", "DefaultQuota", Want(convention=""))),
                    at_base=base_name, edits=((base_name, ""),), prose="Share the limits."))
    return out


# A sibling in another file of the package (the same folder at base).
_PACKAGE = {"python": "pkg/stores.py", "go": "store/kinds.go", "javascript": "src/stores.js",
            "typescript": "src/stores.ts", "tsx": "src/stores.tsx"}


def package_case(lang: str) -> Case:
    n = lambda *parts: _name(lang, *parts)  # noqa: E731
    head = "package store\n\n" if lang == "go" else ""
    made = [(n("Cache", "Redis"), "redis"), (n("Cache", "Tape"), "tape")]
    return Case("convention-package", lang, "".join(_const(lang, a, v) for a, v in made),
                _asserts(lang, made),
                (("positive", n("Cache", "Redis"), Want(convention=_PACKAGE[lang])),
                 ("negative", n("Cache", "Tape"), Want(convention=""))),
                base={_PACKAGE[lang]: tabs(head + _const(lang, n("Cache", "Memory"), "m")
                                           + _const(lang, n("Cache", "Disk"), "d"))},
                prose="Add a Redis cache.")


# Java: a new class beside its package's classes (`RedisStore` by `MemoryStore`).
_JAVA_PKG = "src/main/java/com/acme/"
CONVENTION_CASES = [
    *[c for lang in CONVENTION_LANGS for c in convention_cases(lang)],
    *[package_case(lang) for lang in _PACKAGE],
    Case("convention-package", "java", "",
         "    @Test\n    void newCase() {\n        assertEquals(1, new RedisStore().size());\n"
         "        assertEquals(2, new TapeStorage().size());\n    }\n",
         (("positive", "RedisStore", Want(convention=_JAVA_PKG)),
          ("negative", "TapeStorage", Want(convention=""))),
         base={_JAVA_PKG + f"{k}Store.java": f"package com.acme;\n\npublic class {k}Store "
               "{\n    public int size() {\n        return 0;\n    }\n}\n"
               for k in ("Memory", "Disk")},
         gold_files={_JAVA_PKG + f"{k}.java": f"package com.acme;\n\npublic class {k} {{\n"
                     f"    public int size() {{\n        return {i};\n    }}\n}}\n"
                     for i, k in ((1, "RedisStore"), (2, "TapeStorage"))},
         prose="Add a Redis store."),
]
CASES += CONVENTION_CASES

# Names a type, its members or the base's tests predict (issue 20, reading round of
# 2026-12-03): a member of a type renamed as its type is, a family completed with a member
# the type has, a test at base named after the name, a word of the definition the gold
# renames; each beside the same shape with a word nothing gives.
OWNER_CASES = [
    Case("convention-parallel-owner", "python",
         "class _MinLengthValidator:\n    min_length = 0\n    min_stride = 1\n",
         "def test_new():\n    from pkg.core import _MinLengthValidator\n\n"
         "    assert _MinLengthValidator.min_length + _MinLengthValidator.min_stride == 1\n",
         (("positive", "min_length", Want(convention="renamed as `_MinLengthValidator`")),
          ("negative", "min_stride", Want(convention=""))),
         at_base="class _MaxLengthValidator:\n    max_length = 0\n\n\n", prose="Add min_len."),
    Case("convention-parallel-owner", "go",
         "func (z *ZodCatch) RemoveCatch() int { return 1 }\n"
         "func (z *ZodCatch) RemoveWrap() int { return 2 }\n",
         "func TestNew(t *testing.T) {\n    z := &ZodCatch{}\n"
         "    assert.Equal(t, 3, z.RemoveCatch()+z.RemoveWrap())\n}\n",
         (("positive", "RemoveCatch", Want(convention="renamed as `ZodCatch`")),
          ("negative", "RemoveWrap", Want(convention=""))),
         at_base="type ZodDefault struct{}\ntype ZodCatch struct{}\n\n"
                 "func (z *ZodDefault) RemoveDefault() int { return 0 }\n\n",
         prose="Fix catch."),
    Case("convention-field-kin", "go",
         "func (c *Command) ResetCommands() { c.commands = nil }\n"
         "func (c *Command) ResetHooks() { c.flags = 0 }\n",
         "func TestNew(t *testing.T) {\n    c := &Command{}\n    c.ResetCommands()\n"
         "    c.ResetHooks()\n    assert.Nil(t, c.commands)\n}\n",
         (("positive", "ResetCommands", Want(convention="a name the base has beside it")),
          ("negative", "ResetHooks", Want(convention=""))),
         at_base="type Command struct {\n    flags    int\n    commands []int\n}\n\n"
                 "func (c *Command) ResetFlags() { c.flags = 0 }\n\n",
         prose="Reset to a blank slate in tests."),
    Case("convention-field-kin", "python",
         "    def reset_commands(self):\n        self.commands = []\n\n"
         "    def reset_hooks(self):\n        self.flags = 0\n",
         "def test_new():\n    from pkg.core import Command\n\n    c = Command()\n"
         "    c.reset_commands()\n    c.reset_hooks()\n    assert c.commands == []\n",
         (("positive", "reset_commands", Want(convention="a name the base has beside it")),
          ("negative", "reset_hooks", Want(convention=""))),
         at_base="class Command:\n    def __init__(self):\n        self.flags = 0\n"
                 "        self.commands = [1]\n\n    def reset_flags(self):\n"
                 "        self.flags = 0\n\n",
         prose="Reset to a blank slate in tests."),
    Case("convention-tested", "python",
         "def parse_string(text):\n    return text\n\n\ndef parse_blob(data):\n    return data\n",
         "def test_new():\n    from pkg.core import parse_blob, parse_string\n\n"
         '    assert parse_string("a") + parse_blob("b") == "ab"\n',
         (("positive", "parse_string", Want(convention="a test at base named after it")),
          ("negative", "parse_blob", Want(convention=""))),
         base={"tests/test_core.py": PY.files["tests/test_core.py"].replace(
             MARK, "def test_parse_string():\n    assert helper('a') == 'a'\n\n\n")},
         prose="Static parsing helpers."),
    Case("convention-tested", "go",
         "func ParseString(s string) string { return s }\n"
         "func ParseBlob(s string) string { return s }\n",
         'func TestNew(t *testing.T) {\n'
         '    assert.Equal(t, "ab", ParseString("a")+ParseBlob("b"))\n}\n',
         (("positive", "ParseString", Want(convention="a test at base named after it")),
          ("negative", "ParseBlob", Want(convention=""))),
         base={"store/store_test.go": GO.files["store/store_test.go"].replace(
             MARK, tabs("func TestParseString(t *testing.T) {}\n\n"))},
         prose="Static parsing helpers."),
    Case("convention-tested", "java",
         "    public static String parseString(String s) {\n        return s;\n    }\n"
         "    public static String parseBlob(String s) {\n        return s;\n    }\n",
         '    @Test\n    void newCase() {\n        assertEquals("ab", Badge.parseString("a")'
         ' + Badge.parseBlob("b"));\n    }\n',
         (("positive", "parseString", Want(convention="a test at base named after it")),
          ("negative", "parseBlob", Want(convention=""))),
         base={"src/test/java/com/acme/BadgeTest.java": JAVA.files[
             "src/test/java/com/acme/BadgeTest.java"].replace(
             MARK, "    @Test\n    void testParseString() {}\n")},
         prose="Static parsing helpers."),
    Case("convention-renamed-word", "python",
         "class JsonTreeWriter:\n    pass\n\n\nclass JsonTreeStamper:\n    pass\n",
         "def test_new():\n    from pkg.core import JsonTreeStamper, JsonTreeWriter\n\n"
         "    assert JsonTreeWriter() and JsonTreeStamper()\n",
         (("positive", "JsonTreeWriter", Want(convention="which the gold renames")),
          ("negative", "JsonTreeStamper", Want(convention=""))),
         at_base="class JsonTreeReader:\n    pass\n\n\nclass JsonElementWriter:\n    pass\n\n\n",
         edits=(("class JsonElementWriter:\n    pass\n\n\n", ""),), prose="Graphs."),
]
OWNER_CASES.append(Case(
    "convention-mirror-elsewhere", "java", "",
    "    @Test\n    void newCase() {\n        assertEquals(1, new UtcDateTypeAdapter().size());\n"
    "        assertEquals(2, new RawDateTypeAdapter().size());\n    }\n",
    (("positive", "UtcDateTypeAdapter", Want(convention="a word of the prose")),
     ("negative", "RawDateTypeAdapter", Want(convention=""))),
    base={"src/main/java/com/acme/sql/SqlDateTypeAdapter.java":
          "package com.acme.sql;\n\npublic class SqlDateTypeAdapter {\n"
          "    public int size() {\n        return 0;\n    }\n}\n"},
    gold_files={f"extras/src/main/java/com/acme/extras/{k}.java":
                f"package com.acme.extras;\n\npublic class {k} {{\n"
                f"    public int size() {{\n        return {i};\n    }}\n}}\n"
                for i, k in ((1, "UtcDateTypeAdapter"), (2, "RawDateTypeAdapter"))},
    prose="Add a sample Date type adapter for UTC."))
OWNER_CASES.append(Case(
    "convention-marks-renamed", "java",
    "    public static int $Primitives() {\n        return 1;\n    }\n"
    "    public static int $Wrappers() {\n        return 2;\n    }\n",
    "    @Test\n    void newCase() {\n"
    "        assertEquals(3, Badge.$Primitives() + Badge.$Wrappers());\n    }\n",
    (("positive", "$Primitives", Want(convention="other `_` or `$` marks")),
     ("negative", "$Wrappers", Want(convention=""))),
    at_base="    public static int Primitives() {\n        return 1;\n    }\n",
    edits=(("    public static int Primitives() {\n        return 1;\n    }\n", ""),),
    prose="Prefix internal classes with $."))
# The same forms in the other languages they apply to.
_JAVA_T = "    @Test\n    void newCase() {\n{}    }\n"
OWNER_CASES += [
    Case("convention-parallel-owner", "java",
         "    static class MinLengthValidator {\n        int minLength = 0;\n"
         "        int minStride = 1;\n    }\n",
         _JAVA_T.replace("{}", "        Badge.MinLengthValidator v =\n"
                         "            new Badge.MinLengthValidator();\n"
                         "        assertEquals(1, v.minLength + v.minStride);\n"),
         (("positive", "minLength", Want(convention="renamed as `MinLengthValidator`")),
          ("negative", "minStride", Want(convention=""))),
         at_base="    static class MaxLengthValidator {\n        int maxLength = 0;\n    }\n",
         prose="Add min_len."),
    *js_like("convention-parallel-owner",
             "export class MinLengthValidator {\n  minLength = 0;\n  minStride = 1;\n}\n",
             "import { MinLengthValidator } from '../src/badge';\n\ntest('new case', () => {\n"
             "  const v = new MinLengthValidator();\n  expect(v.minLength + v.minStride).toBe(1);\n"
             "});\n",
             (("positive", "minLength", Want(convention="renamed as `MinLengthValidator`")),
              ("negative", "minStride", Want(convention=""))),
             at_base="export class MaxLengthValidator {\n  maxLength = 0;\n}\n\n",
             prose="Add min_len."),
    Case("convention-field-kin", "java", "",
         _JAVA_T.replace("{}", "        Badge.Command c = new Badge.Command();\n"
                         "        c.resetCommands();\n        c.resetHooks();\n"
                         "        assertEquals(0, c.flags);\n"),
         (("positive", "resetCommands", Want(convention="a name the base has beside it")),
          ("negative", "resetHooks", Want(convention=""))),
         at_base="    static class Command {\n        int flags = 0;\n        int[] commands;\n"
                 "        void resetFlags() {\n            flags = 0;\n        }\n    }\n",
         edits=(("        void resetFlags() {\n",
                 "        void resetCommands() {\n            commands = null;\n        }\n"
                 "        void resetHooks() {\n            flags = 0;\n        }\n"
                 "        void resetFlags() {\n"),),
         prose="Reset to a blank slate in tests."),
    *js_like("convention-field-kin", "",
             "import { Command } from '../src/badge';\n\ntest('new case', () => {\n"
             "  const c = new Command();\n  c.resetCommands();\n  c.resetHooks();\n"
             "  expect(c.flags).toBe(0);\n});\n",
             (("positive", "resetCommands", Want(convention="a name the base has beside it")),
              ("negative", "resetHooks", Want(convention=""))),
             at_base="export class Command {\n  flags = 0;\n  commands = [];\n\n"
                     "  resetFlags() {\n    this.flags = 0;\n  }\n}\n\n",
             edits=(("  resetFlags() {\n",
                     "  resetCommands() {\n    this.commands = [];\n  }\n\n"
                     "  resetHooks() {\n    this.flags = 0;\n  }\n\n  resetFlags() {\n"),),
             prose="Reset to a blank slate in tests."),
    Case("convention-renamed-word", "go",
         "type JsonTreeWriter struct{}\ntype JsonTreeStamper struct{}\n",
         "func TestNew(t *testing.T) {\n    assert.NotNil(t, &JsonTreeWriter{})\n"
         "    assert.NotNil(t, &JsonTreeStamper{})\n}\n",
         (("positive", "JsonTreeWriter", Want(convention="which the gold renames")),
          ("negative", "JsonTreeStamper", Want(convention=""))),
         at_base="type JsonTreeReader struct{}\ntype JsonElementWriter struct{}\n\n",
         edits=(("type JsonElementWriter struct{}\n\n", ""),), prose="Graphs."),
    Case("convention-renamed-word", "java",
         "    static class JsonTreeWriter {}\n    static class JsonTreeStamper {}\n",
         _JAVA_T.replace("{}", "        assertNotNull(new Badge.JsonTreeWriter());\n"
                         "        assertNotNull(new Badge.JsonTreeStamper());\n"),
         (("positive", "JsonTreeWriter", Want(convention="which the gold renames")),
          ("negative", "JsonTreeStamper", Want(convention=""))),
         at_base="    static class JsonTreeReader {}\n    static class JsonElementWriter {}\n",
         edits=(("    static class JsonElementWriter {}\n", ""),), prose="Graphs."),
    *js_like("convention-renamed-word",
             "export class JsonTreeWriter {}\nexport class JsonTreeStamper {}\n",
             "import { JsonTreeStamper, JsonTreeWriter } from '../src/badge';\n\n"
             "test('new case', () => {\n  expect(new JsonTreeWriter()).toBeTruthy();\n"
             "  expect(new JsonTreeStamper()).toBeTruthy();\n});\n",
             (("positive", "JsonTreeWriter", Want(convention="which the gold renames")),
              ("negative", "JsonTreeStamper", Want(convention=""))),
             at_base="export class JsonTreeReader {}\nexport class JsonElementWriter {}\n\n",
             edits=(("export class JsonElementWriter {}\n\n", ""),), prose="Graphs."),
    Case("convention-marks-renamed", "python",
         "def _primitives():\n    return 1\n\n\ndef _wrappers():\n    return 2\n",
         "def test_new():\n    from pkg.core import _primitives, _wrappers\n\n"
         "    assert _primitives() + _wrappers() == 3\n",
         (("positive", "_primitives", Want(convention="other `_` or `$` marks")),
          ("negative", "_wrappers", Want(convention=""))),
         at_base="def primitives():\n    return 1\n\n\n",
         edits=(("def primitives():\n    return 1\n\n\n", ""),), prose="Make them private."),
    *js_like("convention-marks-renamed",
             "export function $primitives() {\n  return 1;\n}\n"
             "export function $wrappers() {\n  return 2;\n}\n",
             "import { $primitives, $wrappers } from '../src/badge';\n\n"
             "test('new case', () => {\n  expect($primitives() + $wrappers()).toBe(3);\n});\n",
             (("positive", "$primitives", Want(convention="other `_` or `$` marks")),
              ("negative", "$wrappers", Want(convention=""))),
             at_base="export function primitives() {\n  return 1;\n}\n\n",
             edits=(("export function primitives() {\n  return 1;\n}\n\n", ""),),
             prose="Prefix internal helpers with $."),
    Case("convention-mirror-elsewhere", "python", "",
         "def test_new():\n    from pkg.extras.utc_date_type_adapter import UtcDateTypeAdapter\n"
         "    from pkg.extras.raw_date_type_adapter import RawDateTypeAdapter\n\n"
         "    assert UtcDateTypeAdapter().size() + RawDateTypeAdapter().size() == 3\n",
         (("positive", "UtcDateTypeAdapter", Want(convention="a word of the prose")),
          ("negative", "RawDateTypeAdapter", Want(convention=""))),
         base={"pkg/sql/sql_date_type_adapter.py":
               "class SqlDateTypeAdapter:\n    def size(self):\n        return 0\n"},
         gold_files={f"pkg/extras/{f}.py": f"class {k}:\n    def size(self):\n"
                     f"        return {i}\n"
                     for i, f, k in ((1, "utc_date_type_adapter", "UtcDateTypeAdapter"),
                                     (2, "raw_date_type_adapter", "RawDateTypeAdapter"))},
         prose="Add a sample Date type adapter for UTC."),
    *js_like("convention-mirror-elsewhere", "",
             "import { UtcDateTypeAdapter } from '../src/extras/UtcDateTypeAdapter';\n"
             "import { RawDateTypeAdapter } from '../src/extras/RawDateTypeAdapter';\n\n"
             "test('new case', () => {\n"
             "  expect(new UtcDateTypeAdapter().size() + new RawDateTypeAdapter().size())"
             ".toBe(3);\n});\n",
             (("positive", "UtcDateTypeAdapter", Want(convention="a word of the prose")),
              ("negative", "RawDateTypeAdapter", Want(convention=""))),
             base={"src/sql/SqlDateTypeAdapter.ts":
                   "export class SqlDateTypeAdapter {\n  size() {\n    return 0;\n  }\n}\n"},
             gold_files={f"src/extras/{k}.ts": f"export class {k} {{\n  size() {{\n"
                         f"    return {i};\n  }}\n}}\n"
                         for i, k in ((1, "UtcDateTypeAdapter"), (2, "RawDateTypeAdapter"))},
             prose="Add a sample Date type adapter for UTC."),
]
CASES += OWNER_CASES

# A name the test imports from another module is that module's, whatever the gold defines:
# the standard library's (`from types import new_class`), a package's the manifests declare.
CASES += [
    Case("foreign-import", "python",
         "def new_class(name):\n    return name\n\n\ndef new_widget(name):\n    return name\n",
         "def test_new():\n    from types import new_class\n\n    from pkg.core import new_widget\n"
         '\n    assert new_class("A", ()) and new_widget("w")\n',
         (("negative-stdlib", "new_class",
           Want(defuse="none", rule="imported by the test from `types`, not the gold's")),
          ("positive", "new_widget", crosses("function")))),
    Case("foreign-import", "typescript",
         "export function isStandardSchema(): boolean {\n  return true;\n}\n"
         "export function toStandard(): number {\n  return 1;\n}\n",
         "import { isStandardSchema } from '@standard-schema/spec';\n"
         "import { toStandard } from '../src/badge';\n\ntest('new case', () => {\n"
         "  expect(isStandardSchema() && toStandard()).toBe(1);\n});\n",
         (("negative-package", "isStandardSchema",
           Want(defuse="none", rule="imported by the test from `@standard-schema/spec`, not "
                                    "the gold's")),
          ("positive", "toStandard", crosses("function"))),
         gold_files={"package.json": '{"devDependencies": {"@standard-schema/spec": "^1"}}\n'}),
]

CASES += [Case("foreign-import", lang,
                "export function isStandardSchema() {\n  return true;\n}\n"
                "export function toStandard() {\n  return 1;\n}\n",
                "import { isStandardSchema } from '@standard-schema/spec';\n"
                "import { toStandard } from '../src/badge';\n\ntest('new case', () => {\n"
                "  expect(isStandardSchema() && toStandard()).toBe(1);\n});\n",
                (("negative-package", "isStandardSchema",
                  Want(defuse="none", rule="imported by the test from `@standard-schema/spec`, "
                                           "not the gold's")),
                 ("positive", "toStandard", crosses("function"))),
                gold_files={"package.json":
                            '{"devDependencies": {"@standard-schema/spec": "^1"}}\n'})
          for lang in ("javascript", "tsx")]

# pytest.raises(..., match=...) compares the message; message= (pytest < 5) only printed it.
CASES.append(Case(
    "raises-message", "python",
    'def check(x):\n    if x:\n        raise ValueError("kaboom happened right here")\n'
    '    raise ValueError("boom happened over there")\n',
    "def test_new():\n    from pkg.core import check\n\n"
    '    with pytest.raises(ValueError, match="kaboom happened right here"):\n        check(1)\n'
    '    with pytest.raises(ValueError, message="boom happened over there"):\n        check(0)\n',
    (("positive-match", "kaboom happened right here", literal()),
     ("negative-message", "boom happened over there", Want(asserting=False, graded=None,
                                                           absent_ok=True)))))

# A parameter's name crosses only where callers can spell it (a keyword argument); in Go and
# Java a test's member of the same name is its own.
PARAM_CHECKS: Checks = (("positive", "ShippingLabel", crosses()),
                        ("negative", "region", Want(defuse="none", rule=NOT_KEYWORD)))
CASES += [
    Case("parameter", "go", SHIP_GO,
         "func TestNew(t *testing.T) {\n    var o struct{ region string }\n"
         '    assert.Equal(t, "free shipping over threshold", ShippingLabel(9000, o.region))\n}\n',
         PARAM_CHECKS),
    Case("parameter", "java", SHIP_JAVA[0],
         "    @Test\n    void newCase() {\n        Options o = new Options();\n"
         '        assertEquals("free shipping over threshold",\n'
         "                     Badge.shippingLabel(9000, o.region));\n    }\n",
         (("positive", "shippingLabel", crosses()), PARAM_CHECKS[1])),
    Case("parameter", "python", SHIP_PY[0],
         'def test_new():\n'
         '    assert shipping_label(9000, region="x") == "standard shipping rate"\n',
         (("positive-keyword", "region", crosses()),)),
]

# The name an import binds by the importer's choice (a default import, an alias) is the
# test's own, even when the gold defines the same name; a name imported as itself crosses.
BIND_CHECKS: Checks = (("positive", "badgeText", crosses()), ("negative", "label", LOCAL_W))
CASES += [
    *js_like("import-binding",
             "export function label() {\n  return 'y';\n}\n\n"
             "export function badgeText() {\n  return 'x';\n}\n\nexport default label;\n",
             "import label from '../src/badge';\nimport { badgeText } from '../src/badge';\n\n"
             "test('new case', () => {\n  expect(label()).toBe('y');\n"
             "  expect(badgeText()).toBe('x');\n});\n", BIND_CHECKS),
    Case("import-binding", "python",
         'def label():\n    return "y"\n\n\ndef badge_text():\n    return "x"\n',
         "def test_new():\n    from pkg.core import badge_text, label as badge\n"
         "    from pkg.core import badge_text as label\n\n"
         '    assert label() == "x"\n    assert badge() == "y"\n    assert badge_text()\n',
         (("positive", "badge_text", crosses()), ("negative", "label", LOCAL_W))),
]


# `go test` builds every `_test.go` of a package into one binary: a name any of them uses
# fails the graded test too when the fix leaves it undefined (names, not literals); another
# package's tests are another binary. A Ginkgo suite function runs every spec of its package.
PKG_GOLD = ('func ShippingLabel(total int) string {\n    return "standard shipping rate"\n}\n\n'
            "func FallbackRegion() string {\n    return \"fallback-region\"\n}\n\n"
            "func PackRegion() string {\n    return \"packed\"\n}\n")
CASES += [
    Case("go-package", "go", PKG_GOLD,
         "func TestNew(t *testing.T) {\n    assert.NotEmpty(t, ShippingLabel(10))\n}\n",
         (("positive", "FallbackRegion", crosses()),
          ("negative-literal", "fallback-region", UNGRADED),
          ("negative-package", "PackRegion", Want(graded=False, absent_ok=True))),
         test_files={
             "store/region_test.go": tabs(
                 'package store\n\nimport (\n    "testing"\n\n'
                 '    "github.com/stretchr/testify/assert"\n)\n\n'
                 "func TestRegion(t *testing.T) {\n"
                 '    assert.Equal(t, "fallback-region", FallbackRegion())\n}\n'),
             "other/pack_test.go": tabs(
                 'package other\n\nimport (\n    "testing"\n\n'
                 '    "example.com/shop/store"\n)\n\n'
                 "func TestPack(t *testing.T) {\n    _ = store.PackRegion()\n}\n")}),
    Case("go-package", "go", PKG_GOLD,
         'func TestNew(t *testing.T) {\n    RegisterFailHandler(Fail)\n'
         '    RunSpecs(t, "Store Suite")\n}\n',
         (("positive-spec", "fallback-region", literal()),
          ("negative-no-suite", "packed", UNGRADED)),
         test_files={
             "store/specs_test.go": tabs(
                 "package store\n\nimport (\n    . \"github.com/onsi/ginkgo/v2\"\n"
                 "    . \"github.com/onsi/gomega\"\n)\n\n"
                 'var _ = Describe("regions", func() {\n    It("falls back", func() {\n'
                 '        Expect(FallbackRegion()).To(Equal("fallback-region"))\n    })\n})\n'),
             "other/pack_test.go": tabs(
                 "package other\n\nimport (\n    . \"github.com/onsi/gomega\"\n\n"
                 '    "example.com/shop/store"\n)\n\n'
                 'var _ = It("packs", func() {\n'
                 '    Expect(store.PackRegion()).To(Equal("packed"))\n})\n')}),
]

# A literal the test block feeds in and then asserts again (`put("P-legacy-1")`, then
# `get("P-legacy-1")` inside the assertion) is its own input read back; one it only asserts
# is the fix's.
FED_BACK: Checks = (("negative", "P-legacy-1", Want(graded=False, rule=NOT_GRADED_PASSED)),
                      ("positive", "memory-store", literal()))
CASES += [
    Case("fed-back", "python",
         'def store_kind():\n    return "memory-store"\n\n\nLEGACY = "P-legacy-1"\n',
         "def test_new():\n    from pkg import core\n\n    store = {}\n"
         '    store["P-legacy-1"] = 5\n    assert store.get("P-legacy-1") == 5\n'
         '    assert core.store_kind() == "memory-store"\n', FED_BACK),
    Case("fed-back", "go",
         'const Legacy = "P-legacy-1"\n\nfunc StoreKind() string {\n    return "memory-store"\n}\n',
         "func TestNew(t *testing.T) {\n"
         '    os.Setenv("P-legacy-1", "5")\n    assert.Equal(t, "5", os.Getenv("P-legacy-1"))\n'
         '    assert.Equal(t, "memory-store", StoreKind())\n}\n', FED_BACK),
    *js_like("fed-back",
             "export const LEGACY = 'P-legacy-1';\n\nexport function storeKind() {\n"
             "  return 'memory-store';\n}\n",
             "import { storeKind } from '../src/badge';\n\ntest('new case', () => {\n"
             "  const m = new Map();\n  m.set('P-legacy-1', 5);\n"
             "  expect(m.get('P-legacy-1')).toBe(5);\n"
             "  expect(storeKind()).toBe('memory-store');\n});\n", FED_BACK),
    Case("fed-back", "java",
         '    public static final String LEGACY = "P-legacy-1";\n\n'
         "    public static String storeKind() {\n        return \"memory-store\";\n    }\n",
         "    @Test\n    void newCase() {\n"
         "        java.util.Map<String, Integer> m = new java.util.HashMap<>();\n"
         '        m.put("P-legacy-1", 5);\n        assertEquals(5, m.get("P-legacy-1"));\n'
         '        assertEquals("memory-store", Badge.storeKind());\n    }\n', FED_BACK),
]

# A TypeScript test that names a type only in type positions runs whatever the name when
# its runner strips types (esbuild, tsx, swc): the type is not graded; the function is.
CASES += [
    Case("type-only", lang,
         "export interface SchemaShape {\n  x: number;\n}\n\n"
         "export function parseShape(): SchemaShape {\n  return { x: 1 };\n}\n",
         "import { parseShape, SchemaShape } from '../src/badge';\n\ntest('new case', () => {\n"
         "  const s: SchemaShape = parseShape();\n  expect(s.x).toBe(1);\n});\n",
         (("positive", "parseShape", crosses()),
          ("negative", "SchemaShape", Want(graded=False, rule=NOT_GRADED_TYPE))))
    for lang in ("typescript", "tsx")]

# Documentation at any depth (`packages/docs/*.mdx`) is no code the solver writes: a string
# only its examples hold grades nothing; the same string in the source does.
CASES += [
    Case("docs", "python", 'def greet():\n    return "hello beautiful world"\n',
         'def test_new():\n    from pkg.core import greet\n\n'
         '    assert greet() == "hello beautiful world"\n'
         '    assert greet() != "HELLO there friend"\n',
         (("positive", "hello beautiful world", literal()),
          ("negative", "HELLO there friend", Want(absent=True))),
         gold_files={"packages/docs/content/api.mdx":
                     "Call `greet()`: it returns `\"HELLO there friend\"`.\n"
                     "```python\nprint(\"HELLO there friend\")\n"
                     "print(\"hello beautiful world\")\n```\n"}),
]

# Scratch and benchmark code the gold touches (`playground.ts`, `packages/bench/`) ships
# nothing: a string only it holds grades nothing; the same string in the source does.
CASES += [
    Case("scratch", "typescript",
         "export function greet(): string {\n  return 'hello beautiful world';\n}\n",
         "import { greet } from '../src/badge';\n\ntest('new case', () => {\n"
         "  expect(greet()).toBe('hello beautiful world');\n"
         "  expect(() => greet()).not.toThrow('stuff went sideways');\n"
         "  expect(greet()).not.toBe('benched and measured');\n});\n",
         (("positive", "hello beautiful world", literal()),
          ("negative-playground", "stuff went sideways", Want(absent=True)),
          ("negative-bench", "benched and measured", Want(absent=True))),
         gold_files={"playground.ts": "console.log('stuff went sideways');\n",
                     "packages/bench/index.ts": "console.log('benched and measured');\n"}),
]

CASES += [
    Case("scratch", "python", 'def greet():\n    return "hello beautiful world"\n',
         'def test_new():\n    from pkg.core import greet\n\n'
         '    assert greet() == "hello beautiful world"\n'
         '    assert greet() != "stuff went sideways"\n'
         '    assert greet() != "benched and measured"\n',
         (("positive", "hello beautiful world", literal()),
          ("negative-playground", "stuff went sideways", Want(absent=True)),
          ("negative-bench", "benched and measured", Want(absent=True))),
         gold_files={"playground.py": 'print("stuff went sideways")\n',
                     "benchmarks/run.py": 'print("benched and measured")\n'}),
    Case("scratch", "go", 'func Greet() string {\n    return "hello beautiful world"\n}\n',
         'func TestNew(t *testing.T) {\n    assert.Equal(t, "hello beautiful world", Greet())\n'
         '    assert.NotEqual(t, "benched and measured", Greet())\n}\n',
         (("positive", "hello beautiful world", literal()),
          ("negative-bench", "benched and measured", Want(absent=True))),
         gold_files={"bench/main.go": tabs('package main\n\nimport "fmt"\n\nfunc main() {\n'
                                           '    fmt.Println("benched and measured")\n}\n')}),
    Case("scratch", "java",
         '    public static String greet() {\n        return "hello beautiful world";\n    }\n',
         _JAVA_T.replace("{}", '        assertEquals("hello beautiful world", Badge.greet());\n'
                         '        assertNotEquals("benched and measured", Badge.greet());\n'),
         (("positive", "hello beautiful world", literal()),
          ("negative-bench", "benched and measured", Want(absent=True))),
         gold_files={"benchmarks/src/main/java/Run.java":
                     'class Run {\n    void run() {\n'
                     '        System.out.println("benched and measured");\n    }\n}\n'}),
]

# An expected message built in a local by pure string building, then asserted, is asserted
# (one step); a local the test hands to the code under test is its input.
LOCAL_MSG: Checks = (("positive", "unknown region given", literal()),
                     ("negative", "region from config", FED))
CASES += [
    Case("local-expected", "python",
         'def region_error():\n    return "unknown region given"\n\n\n'
         'def region_input(s):\n    return "x" if s == "region from config" else ""\n',
         "def test_new():\n    from pkg import core\n\n"
         '    expected = "unknown region given"\n    assert core.region_error() == expected\n'
         '    given = "region from config"\n    assert core.region_input(given) == "x"\n',
         LOCAL_MSG),
    Case("local-expected", "go",
         'func RegionError() string {\n    return fmt.Sprintf("%s", "unknown region given")\n}\n\n'
         'func RegionInput(s string) string {\n    if s == "region from config" {\n'
         '        return "x"\n    }\n    return ""\n}\n',
         "func TestNew(t *testing.T) {\n"
         '    want := fmt.Sprintf("%s", "unknown region given")\n'
         "    if got := RegionError(); got != want {\n        t.Fatal(got)\n    }\n"
         '    given := "region from config"\n    assert.Equal(t, "x", RegionInput(given))\n}\n',
         LOCAL_MSG),
    *js_like("local-expected",
             "export function regionError() {\n  return 'unknown region given';\n}\n\n"
             "export function regionInput(s) {\n"
             "  return s === 'region from config' ? 'x' : '';\n}\n",
             "import { regionError, regionInput } from '../src/badge';\n\n"
             "test('new case', () => {\n  const expected = 'unknown region given';\n"
             "  expect(regionError()).toBe(expected);\n  const given = 'region from config';\n"
             "  expect(regionInput(given)).toBe('x');\n});\n", LOCAL_MSG),
    Case("local-expected", "java",
         "    public static String regionError() {\n"
         '        return "unknown region given";\n    }\n\n'
         "    public static String regionInput(String s) {\n"
         '        return s.equals("region from config") ? "x" : "";\n    }\n',
         "    @Test\n    void newCase() {\n"
         '        String expected = "unknown region given";\n'
         "        assertEquals(expected, Badge.regionError());\n"
         '        String given = "region from config";\n'
         '        assertEquals("x", Badge.regionInput(given));\n    }\n', LOCAL_MSG),
]

# A test comparing the code's output with a literal (`if err.Error() != "..." {`, then the
# same text in its failure message) asserts it; a literal it hands to the code is its input.
COMPARED: Checks = (("positive", "update needs bot tokens", literal()),
                    ("negative", "plain input text", FED))
CASES += [
    Case("compared", "go",
         'func Check(s string) error {\n    if s == "plain input text" {\n'
         "        return nil\n    }\n"
         '    return errors.New("update needs bot tokens")\n}\n',
         "func TestNew(t *testing.T) {\n"
         '    if err := Check("plain input text"); err != nil {\n        t.Fatal(err)\n    }\n'
         '    if err := Check("x"); err.Error() != "update needs bot tokens" {\n'
         '        t.Errorf("want %s", "update needs bot tokens")\n    }\n}\n', COMPARED),
    Case("compared", "python",
         'def check(s):\n    return "" if s == "plain input text" else "update needs bot tokens"\n',
         "def test_new():\n    from pkg import core\n\n"
         '    core.check("plain input text")\n'
         '    if core.check("x") != "update needs bot tokens":\n'
         '        raise AssertionError("update needs bot tokens")\n', COMPARED),
    *js_like("compared",
             "export function check(s) {\n"
             "  return s === 'plain input text' ? '' : 'update needs bot tokens';\n}\n",
             "import { check } from '../src/badge';\n\ntest('new case', () => {\n"
             "  check('plain input text');\n"
             "  if (check('x') !== 'update needs bot tokens') {\n"
             "    throw new Error('update needs bot tokens');\n  }\n});\n", COMPARED),
]

# A fixed segment of a longer gold string follows what that string follows: the base's
# `"invalid label name %q"` extended with words the prose gives (else it stays a claim).
SEG_BASE = {"go": "func CheckName(k string) error {\n"
                  '    return fmt.Errorf("invalid label name %q", k)\n}\n',
            "python": 'def check_name(k):\n    raise ValueError("invalid label name %r" % k)\n'}
SEG_GOLD = {"go": 'func CheckLabels(k string) error {\n'
                  '    return fmt.Errorf("invalid label name %q in route labels", k)\n}\n',
            "python": 'def check_labels(k):\n'
                      '    raise ValueError("invalid label name %r in route labels" % k)\n'}
SEG_TEST = {"go": "func TestNew(t *testing.T) {\n"
                  '    assert.EqualError(t, CheckLabels("-x-"),\n'
                  '        `invalid label name "-x-" in route labels`)\n}\n',
            "python": "def test_new():\n    import pytest\n\n    from pkg import core\n\n"
                      "    with pytest.raises(ValueError) as e:\n        core.check_labels('-x-')\n"
                      '    assert str(e.value) == "invalid label name \'-x-\' in route labels"\n'}
CASES += [
    Case("convention-segment", lang, SEG_GOLD[lang], SEG_TEST[lang],
         ((check, "in route labels", Want(kind="string", convention=said)),),
         at_base=SEG_BASE[lang], prose=prose)
    for lang in ("go", "python")
    for check, prose, said in (("positive", "Validate the route labels' names.",
                                "with `in route labels` added, a word of the prose"),
                               ("negative", "Validate the names.", ""))]

# A folder named after the gold file, one or two levels below it, is the package that
# implements what the file exposes (`internal/encoding/` for `encoding.go`): its names are
# siblings; a folder of another name is not.
NAMED_AFTER = {"go": ("store/internal/store/encoder.go", "store/internal/codecs/encoder.go",
                      "package store\n\nfunc NewEncoderRegistry() int {\n    return 1\n}\n",
                      "func NewCodecRegistry() int {\n    return 2\n}\n",
                      "func TestNew(t *testing.T) {\n"
                      "    assert.Equal(t, 2, NewCodecRegistry())\n}\n",
                      "NewCodecRegistry"),
               "typescript": ("src/badge/encoder.ts", "src/codecs/encoder.ts",
                              "export function newEncoderRegistry() {\n  return 1;\n}\n",
                              "export function newCodecRegistry() {\n  return 2;\n}\n",
                              "import { newCodecRegistry } from '../src/badge';\n\n"
                              "test('new case', () => {\n"
                              "  expect(newCodecRegistry()).toBe(2);\n});\n",
                              "newCodecRegistry")}
CASES += [
    Case("convention-named-folder", lang, gold, test,
         ((check, name, Want(convention=want)),), base={where: tabs(base)},
         prose="Add a default codec registry.")
    for lang, (named, other, base, gold, test, name) in NAMED_AFTER.items()
    for check, where, want in (("positive", named, named), ("negative", other, ""))]

# A message with one word replaced by a word of the new function it is in (and the test
# calls): `"No nodes matched the query"` in `expectFirstNode` beside `expectFirst`'s.
def _fn(lang: str, name: str, value: str) -> str:
    return {"python": f'def {name}():\n    return "{value}"\n\n\n',
            "go": f'func {name}() string {{\n    return "{value}"\n}}\n\n',
            "java": f'    public static String {name}() {{\n        return "{value}";\n    }}\n\n'
            }.get(lang, f"export function {name}() {{\n  return '{value}';\n}}\n\n")


def scope_word_case(lang: str) -> Case:
    n = (lambda *p: "".join(p)) if lang == "go" else (
        lambda *p: "_".join(x.lower() for x in p)) if lang == "python" else (
        lambda *p: p[0].lower() + "".join(p[1:]))
    made = [(n("Expect", "First", "Node"), "No nodes matched the query"),
            (n("Expect", "First", "Tag"), "No widgets matched the query")]
    test = _asserts(lang, [(f"{a}()", v) for a, v in made])
    if lang == "python":
        test = test.replace("import " + ", ".join(f"{a}()" for a, _ in made),
                            "import " + ", ".join(a for a, _ in made))
    elif lang not in ("go", "java"):
        test = f"import {{ {', '.join(a for a, _ in made)} }} from '../src/badge';\n\n" + test
    return Case("convention-scope-word", lang, "".join(_fn(lang, a, v) for a, v in made), test,
                (("positive", made[0][1], Want(kind="string",
                                                convention="a word of the new function")),
                 ("negative", made[1][1], Want(kind="string", convention=""))),
                at_base=_fn(lang, n("Expect", "First"), "No elements matched the query"),
                prose="Add lookups that fail loudly.")


CASES += [scope_word_case(lang) for lang in CONVENTION_LANGS]


# Maven and Gradle compile a module's whole `src/test/` tree before running one test: a name
# any test file of the module uses is graded (names, not literals); another module's is not.
_JT = "src/test/java/com/acme/"
CASES += [
    Case("compile-unit", "java",
         "    public static String shippingLabel(int total) {\n        return \"rate\";\n"
         "    }\n\n    public static String fallbackRegion() {\n"
         "        return \"fallback-region\";\n    }\n\n"
         "    public static String packRegion() {\n        return \"packed\";\n    }\n",
         "    @Test\n    void newCase() {\n"
         "        assertNotNull(Badge.shippingLabel(10));\n    }\n",
         (("positive", "fallbackRegion", crosses()),
          ("negative-literal", "fallback-region", UNGRADED),
          ("negative-module", "packRegion", Want(graded=False, absent_ok=True))),
         test_files={
             _JT + "RegionTest.java":
                 "package com.acme;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\n"
                 "import org.junit.jupiter.api.Test;\n\nclass RegionTest {\n    @Test\n"
                 "    void region() {\n"
                 '        assertEquals("fallback-region", Badge.fallbackRegion());\n    }\n}\n',
             "other/" + _JT + "PackTest.java":
                 "package com.acme;\n\nimport org.junit.jupiter.api.Test;\n\n"
                 "class PackTest {\n    @Test\n    void pack() {\n"
                 "        Badge.packRegion();\n    }\n}\n"}),
]

# gofmt realigns a struct's fields when a longer name joins them: the re-laid lines still
# hold the base's names (siblings), and only the new ones are new.
_RELAID_BASE = "type Global struct {\n    SlackURL     string\n    SlackURLFile string\n}\n"
CASES += [
    Case("convention-relaid", "go", "",
         "func TestNew(t *testing.T) {\n    g := Global{}\n"
         '    assert.Equal(t, "", g.MattermostURL+g.MattermostURLFile+g.QuotaLimit)\n}\n',
         (("positive", "MattermostURLFile", Want(convention="a word of the prose")),
          ("negative", "QuotaLimit", Want(convention=""))),
         at_base=_RELAID_BASE,
         edits=((_RELAID_BASE,
                 "type Global struct {\n    SlackURL          string\n"
                 "    SlackURLFile      string\n    MattermostURL     string\n"
                 "    MattermostURLFile string\n    QuotaLimit        string\n}\n"),),
         prose="Send notifications to a Mattermost URL."),
]

# Languages whose matrix lives beside this file as plain data (`tests/rules_<lang>.py`): a
# SCAFFOLD (`src`, `test`, `files` with MARKs, `f2p`) and CASES of (rule, gold, test,
# [(suffix, constant, Want fields)], Case fields).
def _data_cases() -> list[Case]:
    import importlib.util

    out = []
    for path in sorted(Path(__file__).parent.glob("rules_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        lang = path.stem.removeprefix("rules_")
        sc = mod.SCAFFOLD
        LANGS[lang] = Lang(sc["src"], sc["test"], sc["files"], sc["f2p"])
        for rule, gold, test, checks, *extra in mod.CASES:
            out.append(Case(rule, lang, gold, test,
                            tuple((k, c, Want(**w)) for k, c, w in checks),
                            **(extra[0] if extra else {})))
    return out


CASES += _data_cases()

def _params() -> list[object]:
    out: list[object] = []
    for case in CASES:
        for suffix, constant, want in case.checks:
            marks = ([pytest.mark.xfail(strict=True, reason=case.xfail[suffix])]
                     if suffix in case.xfail else [])
            tag = f"[{case.ids[0]}]" if case.rule == "scope" else ""
            out.append(pytest.param(case, constant, want, marks=marks,
                                    id=f"{case.rule}-{case.lang}-{suffix}{tag}"))
    return out


@pytest.fixture(scope="module")
def proposal(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Case], Proposal]:
    """One repository and one `propose` per case, shared by its checks."""
    cache: dict[int, Proposal] = {}  # by id(case): CASES lives as long as the module

    def get(case: Case) -> Proposal:
        if id(case) not in cache:
            cache[id(case)] = run(tmp_path_factory.mktemp("repo"), case)
        return cache[id(case)]
    return get


@pytest.mark.parametrize(("case", "constant", "want"), _params())
def test_rule(case: Case, constant: str, want: Want,
              proposal: Callable[[Case], Proposal]) -> None:
    got = [c for c in proposal(case).candidates if c.constant == constant]
    assert len(got) <= 1, got  # one candidate per constant
    if want.absent:
        assert not got, got
        return
    if want.absent_ok and not got:
        return
    if want.graded is False:  # never a graded candidate, whatever else it is
        assert all(not c.graded_by and c.rule.startswith("not graded") for c in got), got
    else:
        assert got, f"{constant!r} is not a candidate"
    if want.graded:
        assert got[0].graded_by == sorted(case.ids), got[0]
    for c in got:
        for name in ("defuse", "rule", "kind", "decl", "asserting", "test_data"):
            expected = getattr(want, name)
            assert expected is None or getattr(c, name) == expected, (name, c)
        if want.convention is not None:
            said = convention_evidence(c, Prose(case.prose))
            assert (want.convention in said) if want.convention else not said, (said, c)


# ---- format strings against prose --------------------------------------------------------------

@pytest.mark.parametrize(("prose", "constant", "match"), [
    pytest.param("Fail with open config: file not found when it is missing.",
                 "open config: %w", "format segments", id="format-go-positive"),
    pytest.param("Fail with a config error when it is missing.",
                 "open config: %w", "", id="format-go-negative"),
    pytest.param("Log 'Unable to parse old version' and the version given.",
                 "Unable to parse old version {v}", "format segments", id="format-python-positive"),
    pytest.param("Log a warning for an old version.",
                 "Unable to parse old version {v}", "", id="format-python-negative"),
    pytest.param("Throw Cannot find module left-pad in registry for unknown names.",
                 "Cannot find module ${name} in registry", "format segments",
                 id="format-javascript-positive"),
    # Every fixed segment must be stated, not only the opening.
    pytest.param("Throw Cannot find module for unknown names.",
                 "Cannot find module ${name} in registry", "", id="format-javascript-negative"),
])
def test_format_segments_against_prose(prose: str, constant: str, match: str) -> None:
    assert Prose(prose).match(constant) == match


def test_segment_candidates_are_stated_by_prose_that_quotes_them(
        proposal: Callable[[Case], Proposal]) -> None:
    """The proposer's segment (not the whole template) is what the prose is matched against."""
    case = next(c for c in CASES if c.rule == "segment" and c.lang == "go")
    seg = {c.constant: c for c in proposal(case).candidates}["open config file"]
    prose = Prose("Return open config file <path>: <cause> on failure.")
    assert prose.match(seg.constant) == "exact"
