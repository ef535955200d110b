"""The rule matrix for Ruby (loaded by tests/test_rules.py, `_data_cases`): a gem's
`lib/shop/store.rb` and its RSpec spec, each with a MARK inside `module Shop` / the
`RSpec.describe Shop` block where a case's snippet goes. Snippets are written at column 0
and indented into place by `ind`.
"""

from __future__ import annotations

from rule_checks import (
    ABSENT,
    FED,
    FOREIGN,
    IMPORT,
    LOCAL,
    LOCAL_W,
    MARK,
    NAMED,
    NOT_GRADED_PASSED,
    SCOPE_CHECKS,
    SEGMENT,
    SHIP_CHECKS,
    crosses,
    literal,
)


def ind(text: str, by: int = 2) -> str:
    """A snippet indented into the module (or describe) body; blank lines stay blank."""
    return "".join(" " * by + line if line.strip() else line
                   for line in text.splitlines(keepends=True))


DOC = "".join(f"  # line {n}\n" for n in ("one", "two", "three", "four", "five", "six"))
SRC = "lib/shop/store.rb"
SPEC = "spec/shop/store_spec.rb"
SCAFFOLD = {
    "src": SRC,
    "test": SPEC,
    "files": {
        "shop.gemspec": 'Gem::Specification.new do |s|\n  s.name = "shop"\n'
                        '  s.version = "0.1.0"\nend\n',
        SRC: '# frozen_string_literal: true\n\nrequire "json"\n\nmodule Shop\n'
             "  # Store helpers.\n  #\n" + DOC
             + "  KINDS = %i[memory disk].freeze\n\n  def self.helper(items)\n    items\n  end\n\n"
               "  class Settings\n    attr_reader :timeout\n\n"
               "    def initialize(timeout: 10.0)\n      @timeout = timeout\n    end\n  end\n\n"
             + MARK + "end\n",
        SPEC: '# frozen_string_literal: true\n\nrequire "spec_helper"\nrequire "shop/store"\n\n'
              'RSpec.describe Shop do\n  it "helps" do\n    expect(Shop.helper([1])).to eq([1])\n'
              "  end\n\n" + MARK + "end\n",
    },
    "f2p": "Shop new case",
}


SHIP_GOLD = ind('def self.shipping_label(total, region = "eu-west-3")\n'
                '  return "free shipping over threshold" if total > 7500\n\n'
                '  "standard shipping rate"\nend\n')
SHIP_TEST = ind('it "new case" do\n  region = "eu-west-3"\n'
                '  expect(Shop.shipping_label(9000, region))\n'
                '    .to eq("free shipping over threshold")\n'
                'end\n\nit "other case" do\n'
                '  expect(Shop.shipping_label(10)).to eq("standard shipping rate")\nend\n')

# A Minitest file beside the spec: `ShippingTest#test_new` names its method.
MINITEST = ('# frozen_string_literal: true\n\nrequire "minitest/autorun"\nrequire "shop/store"\n\n'
            "class ShippingTest < Minitest::Test\n  def test_new\n"
            '    assert_equal "free shipping over threshold", Shop.shipping_label(9000)\n  end\n\n'
            "  def test_other\n"
            '    assert_equal "standard shipping rate", Shop.shipping_label(10)\n  end\nend\n')


def describe(title: str, body: str) -> str:
    """`describe title do ... end` around a spec body written at column 0, indented."""
    return ind(f"describe {title} do\n" + ind(body) + "end\n")


SHIP_NESTED = ('it "new case" do\n'
               '  expect(Shop.shipping_label(9000)).to eq("free shipping over threshold")\n'
               'end\n\nit "other case" do\n'
               '  expect(Shop.shipping_label(10)).to eq("standard shipping rate")\nend\n')

SEG_GOLD = ind('def self.load_module(name, port)\n'
               '  raise ArgumentError, "bad port #{port}" if port > 65_535\n\n'
               '  raise ArgumentError, "Cannot find module #{name} in registry"\nend\n\n'
               'def self.missing(name) = "Config section missing: #{name}"\n')
SEG_TEST = ind('it "new case" do\n'
               '  expect { Shop.load_module("left-pad", 1) }\n'
               '    .to raise_error(ArgumentError, "Cannot find module left-pad in registry")\n'
               '  expect { Shop.load_module("x", 70_000) }\n'
               '    .to raise_error(ArgumentError, "bad port 70000")\n'
               '  lines = ["Config section missing: db"]\n'
               "  expect(Shop.summarize(lines)).to eq(1)\nend\n")


def spec(body: str) -> str:
    """One `it "new case"` block (the FAIL_TO_PASS test) holding `body`."""
    return ind('it "new case" do\n' + ind(body) + "end\n")


def consts(*pairs: tuple[str, str]) -> str:
    return ind("".join(f'{n} = "{v}"\n' for n, v in pairs))


def asserts(*pairs: tuple[str, str]) -> str:
    return spec("".join(f'expect(Shop::{n}).to eq("{v}")\n' for n, v in pairs))


CASES = [
    # A name bound inside a method or block is local on both sides; a module's method crosses.
    ("local",
     ind("def self.sum_prices(items)\n  subtotal = 0\n  items.each { |entry| subtotal += entry }\n"
         "  subtotal\nend\n"),
     spec("subtotal = 0\n[1, 2].each { |entry| subtotal += entry }\n"
          "expect(Shop.sum_prices([1, 2])).to eq(subtotal)\n"),
     [("positive", "sum_prices", crosses("method")), ("negative", "subtotal", LOCAL_W),
      ("negative-block", "entry", LOCAL_W)]),
    # A file's top-level variable is that file's own (a required file does not see it).
    ("local",
     "", spec("expect(Shop.retry_budget).to eq(3)\n"),
     [("positive", "retry_budget", crosses("method")),
      ("negative-toplevel", "fallback_budget", LOCAL_W)],
     {"gold_files": {"lib/shop/budget.rb": "fallback_budget = 3\n\nmodule Shop\n"
                                           "  def self.retry_budget = 3\nend\n"},
      "test_edits": (('require "shop/store"\n',
                      'require "shop/store"\n\nfallback_budget = 3\n'),)}),
    # Library paths and the `require` that loads them never cross; a gold method does.
    ("import",
     ind('require "bigdecimal"\n\ndef self.parse_amount(text) = BigDecimal(text)\n'),
     spec('expect(Shop.parse_amount("1.5")).to eq(BigDecimal("1.5"))\n'),
     [("positive", "parse_amount", crosses("method")),
      ("negative-path", "bigdecimal", ABSENT),
      ("negative-require", "require", {"defuse": "none", "rule": IMPORT}),
      ("negative-class", "BigDecimal", {"defuse": "none"})],
     {"test_edits": (('require "spec_helper"\n',
                      'require "bigdecimal"\nrequire "spec_helper"\n'),)}),
    # An attribute set on a library's object is a use of a foreign name; the writer of a
    # class the gold declares (`self.max_attempts = 3`) crosses.
    ("field",
     ind('def self.make_session\n  http = Net::HTTP.new("shop.example.com")\n'
         "  http.read_timeout = 5\n  http\nend\n\n"
         "class RetryPolicy\n  attr_accessor :max_attempts\n\n"
         "  def initialize\n    self.max_attempts = 3\n  end\nend\n"),
     spec("expect(Shop.make_session.read_timeout).to eq(5)\n"
          "expect(Shop::RetryPolicy.new.max_attempts).to eq(3)\n"),
     [("positive", "max_attempts", crosses("field")),
      ("negative", "read_timeout", {"defuse": "none", "rule": FOREIGN})]),
    # A test double's method the gold calls on it defines nothing that crosses; a method of a
    # class the gold declares, called by the test, does.
    ("mock",
     ind("def self.rewind(io)\n  io.seek(0)\n  io\nend\n\nclass LogFile\n"
         "  def rotate_logs = true\nend\n"),
     "  class FakeIO\n    def seek(offset)\n      @offset = offset\n    end\n  end\n\n"
     + spec("io = FakeIO.new\nShop.rewind(io)\nexpect(io.seek(0)).to eq(0)\n"
            "expect(Shop::LogFile.new.rotate_logs).to be(true)\n"),
     [("positive", "rotate_logs", crosses("method")),
      ("negative", "seek", {"defuse": "none", "kind": "identifier"})]),
    # Definitions only the syntax tree sees: a constant edited into a class, a method of a
    # Struct's class body, a constant of a module; a block's local stays local.
    ("syntax-def",
     ind("MAX_BURST = 5\n\nLimiter = Struct.new(:capacity) do\n"
         "  def try_acquire = capacity.positive?\n"
         "end\n\ndef self.backoff\n  [1].map { |n| max_retries = 5 * n }.first\nend\n"),
     spec("max_retries = 5\nexpect(Shop::MAX_BURST).to eq(5)\n"
          "expect(Shop::Limiter.new(1).try_acquire).to be(true)\n"
          "expect(Shop::Settings::DEFAULT_RETRIES).to eq(2)\n"
          "expect(Shop.backoff).to eq(max_retries)\n"),
     [("positive-constant", "MAX_BURST", crosses("constant")),
      ("positive-struct-method", "try_acquire", crosses("method")),
      ("positive-class-constant", "DEFAULT_RETRIES", crosses("constant")),
      ("negative", "max_retries", LOCAL_W)],
     {"edits": (("  class Settings\n", "  class Settings\n    DEFAULT_RETRIES = 2\n\n"),)}),
    # A constant assigned in a block belongs to the module around it in Ruby (`configure do
    # RETRY_CODES = ... end` defines Shop::RETRY_CODES); the reader makes what a block binds
    # local, and no query can exempt a constant from its block.
    ("syntax-def",
     ind("[1].each do\n  RETRY_CODES = [429].freeze\nend\n"),
     spec("expect(Shop::RETRY_CODES).to eq([429])\n"),
     [("positive-block-constant", "RETRY_CODES", crosses("constant"))],
     {"xfail": {"positive-block-constant": "a constant in a plain block is read as local"}}),
    # The test side counts only inside the FAIL_TO_PASS block, and a literal only asserted.
    ("graded", SHIP_GOLD, SHIP_TEST, SHIP_CHECKS),
    # FAIL_TO_PASS id formats: nested titles joined by spaces, a Minitest `Class#test_x`.
    ("scope", SHIP_GOLD, describe('"shipping"', SHIP_NESTED), SCOPE_CHECKS,
     {"f2p": ("Shop shipping new case",)}),
    # A class title spells `::` (`Shop Shop::Settings new case`): no pytest `file::test`.
    ("scope", SHIP_GOLD, describe("Shop::Settings", SHIP_NESTED), SCOPE_CHECKS,
     {"f2p": ("Shop Shop::Settings new case",)}),
    # rspec glues a `#method` title to a class's (`Shop#label new case`); one separator
    # (a space) cannot say so. A `.method` title is still found by its last part.
    ("scope", SHIP_GOLD, describe('".shipping_label"', SHIP_NESTED), SCOPE_CHECKS,
     {"f2p": ("Shop.shipping_label new case",)}),
    ("scope", SHIP_GOLD, describe('"#shipping_label"', SHIP_NESTED), SCOPE_CHECKS,
     {"f2p": ("Shop#shipping_label new case",),
      "xfail": {"positive": "rspec joins `Shop` and `#x` without a space",
                "negative-not-run": "rspec joins `Shop` and `#x` without a space"}}),
    ("scope", SHIP_GOLD, "", SCOPE_CHECKS,
     {"f2p": ("ShippingTest#test_new",),
      "test_files": {"test/shipping_test.rb": MINITEST}}),
    ("scope", SHIP_GOLD, "", SCOPE_CHECKS,
     {"f2p": ("Shop::ShippingTest#test_new",),
      "test_files": {"test/shop/shipping_test.rb": MINITEST.replace(
          "class ShippingTest", "module Shop\nclass ShippingTest") + "end\n"}}),
    # A keyword parameter crosses where a caller names it (`zone: "x"`); a positional one is
    # the method's own, whatever the test calls its own names.
    ("parameter",
     ind('def self.ship(total, region, zone: "eu")\n  "#{total} #{region} #{zone}"\nend\n'),
     spec('opts = Struct.new(:region).new("us")\n'
          'expect(Shop.ship(9000, opts.region, zone: "x")).to eq("9000 us x")\n'),
     [("positive-keyword", "zone", crosses("parameter")),
      ("negative-positional", "region", {"defuse": "none", "rule": LOCAL})]),
    # An expected message built in a local, then asserted, is asserted (one step); a local the
    # test hands to the code is its input.
    ("local-expected",
     ind('def self.region_error = "unknown region given"\n\n'
         'def self.region_input(s) = s == "region from config" ? "x" : ""\n'),
     spec('expected = "unknown region given"\nexpect(Shop.region_error).to eq(expected)\n'
          'given = "region from config"\nexpect(Shop.region_input(given)).to eq("x")\n'),
     [("positive", "unknown region given", literal()), ("negative", "region from config", FED)]),
    # The same through a heredoc and a Minitest assertion.
    ("local-expected",
     ind('def self.region_error = "unknown region given"\n\n'
         'def self.region_input(s) = s == "region from config" ? "x" : ""\n'),
     "",
     [("positive", "unknown region given", literal()), ("negative", "region from config", FED)],
     {"f2p": ("RegionTest#test_new",),
      "test_files": {"test/region_test.rb":
                     '# frozen_string_literal: true\n\nrequire "minitest/autorun"\n\n'
                     "class RegionTest < Minitest::Test\n  def test_new\n    expected = <<~TEXT\n"
                     "      unknown region given\n    TEXT\n"
                     "    assert_equal expected.chomp, Shop.region_error\n"
                     '    given = "region from config"\n'
                     '    assert_equal "x", Shop.region_input(given)\n  end\nend\n'}}),
    # A ≥12-character fixed segment of a gold string inside an asserted test string.
    ("segment", SEG_GOLD, SEG_TEST,
     [("positive", "Cannot find module", literal(rule=SEGMENT)),
      ("negative-short", "bad port", ABSENT),
      ("negative-fed", "Config section missing:", FED)]),
    # RuboCop's message shape: `format(MSG, good:, bad:)` with `%<name>s` references, asserted
    # in an `expect_offense` heredoc. `%<name>s` is no placeholder the reader knows, so the
    # template is never cut into its segments.
    ("segment",
     ind('MSG = "Use `%<good>s` instead of `%<bad>s` here."\n\n'
         "def self.lint(bad) = format(MSG, good: bad.tr(\".\", \"&.\"), bad: bad)\n"),
     spec('expect(Shop.lint("a.b")).to eq(<<~TEXT.chomp)\n'
          "  Use `a&.b` instead of `a.b` here.\nTEXT\n"),
     [("positive", "` instead of `", literal(rule=SEGMENT))]),
    # The same message built by interpolation is cut, and the heredoc it is checked against
    # is asserted.
    ("segment",
     ind('def self.lint(bad)\n  good = bad.tr(".", "&.")\n'
         '  "Use `#{good}` instead of the unsafe `#{bad}` call."\nend\n'),
     spec("expect(Shop.lint(\"a.b\")).to eq(<<~TEXT)\n"
          "  Use `a&.b` instead of the unsafe `a.b` call.\nTEXT\n"),
     [("positive", "` instead of the unsafe `", literal(rule=SEGMENT))]),
    # A string naming a gold method (`public_send("render_compact")`) crosses; one naming a
    # library's method (`respond_to?("to_json")`) does not. Named by a symbol (`:name`, the
    # idiom), the name keeps its colon: no crossing.
    ("string-name",
     ind("def self.render_compact(items) = items.map(&:to_s)\n\n"
         "def self.to_payload(obj) = obj.to_json\n"),
     spec('expect(Shop.public_send("render_compact", [1])).to eq(["1"])\n'
          'expect(Shop.respond_to?(:render_compact)).to be(true)\n'
          'expect(1.respond_to?("to_json")).to be(true)\n'),
     [("positive", "render_compact", crosses("method", NAMED)),
      ("negative", "to_json", {"defuse": "none", "rule": FOREIGN})]),
    ("string-name-symbol",
     ind("def self.render_badge(items) = items\n"),
     spec("expect(Shop).to respond_to(:render_badge)\n"),
     [("positive", "render_badge", crosses("method", NAMED))]),
    # A call assertion grades what the code chose to pass on; a literal the test fed in
    # itself checks only a hand-over.
    ("passed-on",
     ind("def self.intern(lib, name) = lib.intern_atom(name, true)\n\n"
         'def self.wm_name(lib) = lib.get_property(intern(lib, "_NET_WM_NAME"), "UTF8_STRING")\n'),
     spec('lib = spy("lib")\nShop.intern(lib, "_NET_WM_NAME")\n'
          'expect(lib).to have_received(:intern_atom).with("_NET_WM_NAME", true)\n'
          "Shop.wm_name(lib)\n"
          'expect(lib).to have_received(:get_property).with(nil, "UTF8_STRING")\n'),
     [("negative", "_NET_WM_NAME", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "UTF8_STRING", literal())]),
    # Comments, even in the gold's doc block, yield no candidate.
    ("doc",
     ind("# legacy_stripes is gone.\ndef self.render_stripes(items) = items\n"),
     spec("zebra_mode = true\nlegacy_stripes = false\n"
          "expect(Shop.render_stripes([zebra_mode, legacy_stripes])).to eq([true, false])\n"),
     [("positive", "render_stripes", crosses()), ("negative", "zebra_mode", ABSENT),
      ("negative-comment", "legacy_stripes", ABSENT)],
     {"edits": (("line five", "line five, see zebra_mode"),)}),
    # A group's affix around a prose word in its own spelling (`STORE_ROCKS_DB`) is a
    # CONVENTION; around a word the prose does not give, it stays a claim.
    ("convention-affix",
     consts(("STORE_ROCKS_DB", "rocks"), ("STORE_LEVEL_TAPE", "tape")),
     asserts(("STORE_ROCKS_DB", "rocks"), ("STORE_LEVEL_TAPE", "tape")),
     [("positive", "STORE_ROCKS_DB", {"convention": "ROCKS_DB"}),
      ("negative", "STORE_LEVEL_TAPE", {"convention": ""})],
     {"at_base": consts(("STORE_MEMORY", "mem"), ("STORE_DISK", "disk")),
      "prose": "Back the store with RocksDB."}),
]
