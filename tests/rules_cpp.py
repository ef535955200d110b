"""The rule matrix for C++, as data (loaded by `tests/test_rules.py`, `_data_cases`).

A small CMake project `storefront`: the gold edits `src/badge.cpp` (inside its namespace),
the test patch `tests/badge_test.cpp`, a GoogleTest file (gtest reports `Suite.Name`; the
graded test is `BadgeTest.NewCase`). Catch2 / doctest files come as whole test files (their
test cases are named by their titles). Rule texts are copies of those `test_rules.py` defines.
"""

from __future__ import annotations

from rule_checks import (
    ABSENT,
    FED,
    FOREIGN,
    IMPORT,
    LOCAL_W,
    MARK,
    NOT_GRADED_PASSED,
    NOT_KEYWORD,
    SCOPE_CHECKS,
    SEGMENT,
    SHIP_CHECKS,
    crosses,
    literal,
)

DOC = "".join(f" * line {n}\n" for n in ("one", "two", "three", "four", "five", "six"))
SCAFFOLD = {
    "src": "src/badge.cpp",
    "test": "tests/badge_test.cpp",
    "files": {
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\nproject(storefront CXX)\n"
                          "add_library(storefront src/badge.cpp)\n"
                          "add_executable(badge_test tests/badge_test.cpp)\n",
        "src/badge.cpp": "/*\n * Badges for the shop.\n *\n" + DOC + " */\n"
        '#include "storefront/badge.h"\n\n#include <ctime>\n#include <map>\n#include <ostream>\n'
        "#include <string>\n#include <vector>\n\nnamespace storefront {\n\n"
        "int helper() { return 1; }\n\nenum class Kind { kMemory, kDisk };\n\n"
        "struct Options {\n  int size = 8;\n};\n\n" + MARK + "}  // namespace storefront\n",
        "tests/badge_test.cpp": "#include <gtest/gtest.h>\n\n#include <map>\n#include <string>\n"
        '#include <vector>\n\n#include "storefront/badge.h"\n\nusing namespace storefront;\n\n'
        "TEST(BadgeTest, Helper) {\n  EXPECT_EQ(helper(), 1);\n}\n\n" + MARK,
    },
    "f2p": "BadgeTest.NewCase",
}


SHIP = ("std::string shipping_label(int total, const std::string& region) {\n"
        '  if (total > 7500 && region == "eu-west-3") {\n'
        '    return "free shipping over threshold";\n  }\n'
        '  return "standard shipping rate";\n}\n\n')
SHIP_TEST = ("TEST(BadgeTest, NewCase) {\n  const std::string region = \"eu-west-3\";\n"
             '  EXPECT_EQ(shipping_label(9000, region), "free shipping over threshold");\n}\n\n'
             "TEST(BadgeTest, OtherCase) {\n"
             '  EXPECT_EQ(shipping_label(10, "us"), "standard shipping rate");\n}\n')
# Catch2 and doctest files: a TEST_CASE is named by its title, a SECTION / SUBCASE in it
# runs with it.
CATCH = ('#include <catch2/catch_test_macros.hpp>\n\n#include "storefront/badge.h"\n\n'
         "using namespace storefront;\n\n"
         'TEST_CASE("new case", "[shipping]") {\n  const std::string region = "eu-west-3";\n'
         '  SECTION("over the threshold") {\n'
         '    REQUIRE(shipping_label(9000, region) == "free shipping over threshold");\n  }\n}\n\n'
         'TEST_CASE("other case", "[shipping]") {\n'
         '  CHECK(shipping_label(10, "us") == "standard shipping rate");\n}\n')
DOCTEST = ('#include <doctest/doctest.h>\n\n#include "storefront/badge.h"\n\n'
           'TEST_CASE("new case") {\n  SUBCASE("over the threshold") {\n'
           '    CHECK_EQ(storefront::shipping_label(9000, "eu-west-3"),\n'
           '             "free shipping over threshold");\n  }\n}\n\n'
           'TEST_CASE("other case") {\n'
           '  CHECK(storefront::shipping_label(10, "us") == "standard shipping rate");\n}\n')

CASES = [
    # A name bound inside a function is local on both sides; a namespace-level one crosses.
    ("local",
     "int sum_prices(const std::vector<int>& items) {\n  int subtotal = 0;\n"
     "  for (int entry : items) {\n    subtotal += entry;\n  }\n  return subtotal;\n}\n\n",
     "TEST(BadgeTest, NewCase) {\n  int subtotal = 0;\n  for (int entry : {1, 2}) {\n"
     "    subtotal += entry;\n  }\n  EXPECT_EQ(sum_prices({1, 2}), subtotal);\n}\n",
     [("positive", "sum_prices", crosses("function")), ("negative", "subtotal", LOCAL_W),
      ("negative-loop", "entry", LOCAL_W)]),
    # A member set on a library's struct is a use; a field of a struct the gold declares
    # crosses, read or named by a designated initializer.
    ("field",
     "std::tm stamp_for(int year) {\n  std::tm t{};\n  t.tm_year = year;\n  return t;\n}\n\n"
     "struct RetryPolicy {\n  int max_attempts = 3;\n  int backoff_ms = 100;\n};\n\n",
     "TEST(BadgeTest, NewCase) {\n  EXPECT_EQ(RetryPolicy{}.max_attempts, 3);\n"
     "  RetryPolicy fast{.backoff_ms = 5};\n  EXPECT_GT(fast.max_attempts, 0);\n"
     "  EXPECT_EQ(stamp_for(124).tm_year, 124);\n}\n",
     [("positive", "max_attempts", crosses("field")),
      ("positive-designated", "backoff_ms", crosses("field")),
      ("negative", "tm_year", {"defuse": "none", "rule": FOREIGN})]),
    # A designated initializer names a member of its type: a foreign type's on both sides
    # is no interface of the fix.
    ("designated",
     "struct Limits {\n  int burst = 1;\n};\n\n"
     "long wait_ms(const timespec& ts) {\n  return ts.tv_sec * 1000;\n}\n\n",
     "TEST(BadgeTest, NewCase) {\n  Limits l{.burst = 5};\n  EXPECT_EQ(l.burst, 5);\n"
     "  timespec ts{.tv_sec = 2};\n  EXPECT_EQ(wait_ms(ts), 2000);\n}\n",
     [("positive", "burst", crosses("field")),
      ("negative", "tv_sec", {"defuse": "none", "rule": FOREIGN})]),
    # A test double's method defines nothing the gold's calls cross to; a method of a class
    # the gold declares, called by the test, crosses.
    ("mock",
     "void flush_to(std::ostream& out, const std::vector<std::string>& lines) {\n"
     "  for (const auto& line : lines) out.write(line.data(), line.size());\n}\n\n"
     "class LogFile {\n public:\n  bool rotate_logs() { return true; }\n};\n\n",
     "class FakeStream : public std::ostream {\n public:\n"
     "  FakeStream& write(const char* s, std::streamsize n) {\n"
     "    chunks.emplace_back(s, n);\n    return *this;\n  }\n"
     "  std::vector<std::string> chunks;\n};\n\n"
     "TEST(BadgeTest, NewCase) {\n  FakeStream s;\n  flush_to(s, {\"a\"});\n  s.write(\"b\", 1);\n"
     "  EXPECT_EQ(s.chunks.size(), 2u);\n  EXPECT_TRUE(LogFile().rotate_logs());\n}\n",
     [("positive", "rotate_logs", crosses("method")),
      ("negative", "write", {"defuse": "none", "kind": "identifier"})]),
    # Namespaces and include paths never cross; a gold function the test calls does.
    ("import", "", "",
     [("positive", "burst_window", crosses("function")),
      ("negative", "ratelimit", {"defuse": "none", "rule": IMPORT}),
      ("negative-path", "absl/time/clock.h", ABSENT),
      ("negative-qualifier", "absl", {"defuse": "none"})],
     {"gold_files": {"src/ratelimit/limiter.cpp":
                     '#include "ratelimit/limiter.h"\n\n#include "absl/time/clock.h"\n\n'
                     "namespace ratelimit {\n\nabsl::Duration burst_window(int burst) {\n"
                     "  return absl::Seconds(burst);\n}\n\n}  // namespace ratelimit\n"},
      "test_files": {"tests/limiter_test.cpp":
                     '#include <gtest/gtest.h>\n\n#include "absl/time/clock.h"\n'
                     '#include "ratelimit/limiter.h"\n\nusing namespace ratelimit;\n\n'
                     "TEST(BadgeTest, NewCase) {\n"
                     "  EXPECT_EQ(burst_window(5), absl::Seconds(5));\n}\n"}}),
    # Text of comments, even where a hunk starts inside one, yields no candidate.
    ("doc",
     "// legacy_stripes is gone.\nint render_stripes(int n) { return n; }\n\n",
     "TEST(BadgeTest, NewCase) {\n  int zebra_mode = 1;\n  int legacy_stripes = 2;\n"
     "  EXPECT_EQ(render_stripes(zebra_mode + legacy_stripes), 3);\n}\n",
     [("positive", "render_stripes", crosses()), ("negative", "zebra_mode", ABSENT),
      ("negative-comment", "legacy_stripes", ABSENT)],
     {"edits": (("line five", "line five, see zebra_mode"),)}),
    # The test side counts only inside FAIL_TO_PASS tests, and a literal only where asserted.
    ("graded", SHIP, SHIP_TEST, SHIP_CHECKS),
    # FAIL_TO_PASS id formats: each names one block; its sibling is not graded.
    ("scope", SHIP, "", SCOPE_CHECKS,
     {"f2p": ("new case",), "test_files": {"tests/shipping_test.cpp": CATCH}}),
    ("scope", SHIP, "", SCOPE_CHECKS,
     {"f2p": ("new case",), "test_files": {"tests/shipping_test.cpp": DOCTEST}}),
    # Definitions only the syntax tree sees: an enum's member and a struct's field edited into
    # existing declarations, a class's method and `static constexpr` member; a constant in a
    # function body is local.
    ("syntax-def",
     "class RateLimiter {\n public:\n  static constexpr int kMaxBurst = 5;\n"
     "  bool try_acquire() { return tokens_ > 0; }\n\n private:\n  int tokens_ = 1;\n};\n\n"
     "int backoff() {\n  constexpr int kMaxRetries = 5;\n  return kMaxRetries;\n}\n\n",
     "TEST(BadgeTest, NewCase) {\n  constexpr int kMaxRetries = 5;\n"
     "  EXPECT_NE(Kind::kDisk, Kind::kRedisCluster);\n"
     "  EXPECT_EQ((Options{.size = 1, .burst = 5}).burst, 5);\n"
     "  EXPECT_EQ(RateLimiter::kMaxBurst, 5);\n  EXPECT_TRUE(RateLimiter().try_acquire());\n"
     "  EXPECT_EQ(kMaxRetries, backoff());\n}\n",
     [("positive-enum", "kRedisCluster", crosses("enum-member")),
      ("positive-field", "burst", crosses("field")),
      ("positive-constant", "kMaxBurst", crosses("constant")),
      ("positive-method", "try_acquire", crosses("method")),
      ("negative", "kMaxRetries", LOCAL_W)],
     {"edits": (("enum class Kind { kMemory, kDisk };",
                 "enum class Kind { kMemory, kDisk, kRedisCluster };"),
                ("  int size = 8;\n", "  int size = 8;\n  int burst = 1;\n"))}),
    # A method defined outside its class body is the class's, as its declaration is.
    ("syntax-def",
     "class Meter {\n public:\n  int read_gauge() const;\n};\n\n"
     "int Meter::read_gauge() const {\n  int sample = 4;\n  return sample;\n}\n\n",
     "TEST(BadgeTest, NewCase) {\n  Meter m;\n  int sample = 4;\n"
     "  EXPECT_EQ(m.read_gauge(), sample);\n}\n",
     [("positive", "read_gauge", crosses("method")), ("negative", "sample", LOCAL_W)]),
    # A ≥12-character fixed segment of a gold format string inside an asserted test string.
    ("segment",
     "std::string open_config(const std::string& path) {\n"
     '  return fmt::format("Unable to open config {}", path);\n}\n\n'
     "std::string bad_port(int port) {\n  return fmt::format(\"bad port {}\", port);\n}\n\n"
     "std::string missing(const std::string& name) {\n"
     '  return fmt::format("Config section missing: {}", name);\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  EXPECT_EQ(open_config("app.yml"), "Unable to open config app.yml");\n'
     '  EXPECT_EQ(bad_port(70000), "bad port 70000");\n'
     '  std::vector<std::string> lines = {"Config section missing: db"};\n'
     "  EXPECT_TRUE(summarize(lines));\n}\n",
     [("positive", "Unable to open config", literal(rule=SEGMENT)),
      ("negative-short", "bad port", ABSENT),
      ("negative-fed", "Config section missing:", FED)]),
    # A parameter never crosses: C++ callers pass arguments by position only. The test's
    # member of the same name is its own (`o.region`).
    ("parameter", SHIP,
     "TEST(BadgeTest, NewCase) {\n  Request o = load_request();\n"
     '  EXPECT_EQ(shipping_label(9000, o.region), "free shipping over threshold");\n}\n',
     [("positive", "shipping_label", crosses("function")),
      ("negative", "region", {"defuse": "none", "rule": NOT_KEYWORD})]),
    # An expected message built in a local (one step), then asserted, is asserted; a local
    # the test hands to the code under test is its input.
    ("local-expected",
     'std::string region_error() {\n  return "unknown region given";\n}\n\n'
     "std::string region_input(const std::string& s) {\n"
     '  return s == "region from config" ? "x" : "";\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  const std::string expected = "unknown region given";\n'
     "  EXPECT_EQ(region_error(), expected);\n"
     '  const std::string given = "region from config";\n'
     '  EXPECT_EQ(region_input(given), "x");\n}\n',
     [("positive", "unknown region given", literal()),
      ("negative", "region from config", FED)]),
    ("local-expected",
     "std::string region_error(int code) {\n"
     '  return fmt::format("unknown region given: {}", code);\n}\n\n'
     "std::string region_input(const std::string& s) {\n"
     '  return s == "region from config" ? "x" : "";\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  auto expected = fmt::format("unknown region given: {}", 7);\n'
     "  EXPECT_EQ(region_error(7), expected);\n"
     '  std::string given("region from config");\n'
     '  EXPECT_EQ(region_input(given), "x");\n}\n',
     [("positive", "unknown region given: {}", literal()),
      ("negative", "region from config", FED)]),
    # A test comparing the code's output with a literal asserts it; one it feeds in does not.
    ("compared",
     "std::string check(const std::string& s) {\n"
     '  return s == "plain input text" ? "" : "update needs bot tokens";\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  check("plain input text");\n'
     '  if (check("x") != "update needs bot tokens") {\n'
     '    FAIL() << "update needs bot tokens";\n  }\n}\n',
     [("positive", "update needs bot tokens", literal()),
      ("negative", "plain input text", FED)]),
    # gMock: EXPECT_CALL grades what the code chose to pass on; when the test fed that very
    # literal in itself, it checks only a hand-over.
    ("passed-on",
     "int intern_atom(Display& lib, const std::string& name) {\n"
     "  return lib.intern(name, true);\n}\n\n"
     "int wm_name(Display& lib) {\n"
     '  return lib.get_property(intern_atom(lib, "_NET_WM_NAME"), "UTF8_STRING");\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n  MockDisplay lib;\n"
     '  EXPECT_CALL(lib, intern("_NET_WM_NAME", true));\n'
     '  intern_atom(lib, "_NET_WM_NAME");\n'
     '  EXPECT_CALL(lib, get_property(testing::_, "UTF8_STRING"));\n'
     "  wm_name(lib);\n}\n",
     [("negative", "_NET_WM_NAME", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "UTF8_STRING", literal())]),
    # A literal the test feeds in and then asserts again is its own input read back.
    ("fed-back",
     'const std::string kLegacy = "P-legacy-1";\n\n'
     'std::string store_kind() {\n  return "memory-store";\n}\n\n',
     "TEST(BadgeTest, NewCase) {\n  std::map<std::string, int> m;\n"
     '  m["P-legacy-1"] = 5;\n  EXPECT_EQ(m.at("P-legacy-1"), 5);\n'
     '  EXPECT_EQ(store_kind(), "memory-store");\n}\n',
     [("negative", "P-legacy-1", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "memory-store", literal())]),
    # Conventions: a group's affix around a prose word in its own spelling (`STORE_ROCKS_DB`
    # beside STORE_MEMORY and STORE_DISK) is a CONVENTION; around another word it is not.
    ("convention-affix",
     'constexpr const char* STORE_ROCKS_DB = "rocks";\n'
     'constexpr const char* STORE_LEVEL_TAPE = "tape";\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  EXPECT_STREQ(STORE_ROCKS_DB, "rocks");\n  EXPECT_STREQ(STORE_LEVEL_TAPE, "tape");\n}\n',
     [("positive", "STORE_ROCKS_DB", {"convention": "ROCKS_DB"}),
      ("negative", "STORE_LEVEL_TAPE", {"convention": ""})],
     {"at_base": 'constexpr const char* STORE_MEMORY = "mem";\n'
                 'constexpr const char* STORE_DISK = "disk";\n\n',
      "prose": "Back the store with RocksDB."}),
    # Google style: `kStoreRocksDB` beside kStoreMemory and kStoreDisk.
    ("convention-affix",
     'constexpr char kStoreRocksDB[] = "rocks";\nconstexpr char kStoreLevelTape[] = "tape";\n\n',
     "TEST(BadgeTest, NewCase) {\n"
     '  EXPECT_STREQ(kStoreRocksDB, "rocks");\n  EXPECT_STREQ(kStoreLevelTape, "tape");\n}\n',
     [("positive", "kStoreRocksDB", {"convention": "RocksDB"}),
      ("negative", "kStoreLevelTape", {"convention": ""})],
     {"at_base": 'constexpr char kStoreMemory[] = "mem";\n'
                 'constexpr char kStoreDisk[] = "disk";\n\n',
      "prose": "Back the store with RocksDB."}),
]
