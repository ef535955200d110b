"""The rule matrix for C, as data (loaded by `tests/test_rules.py`, `_data_cases`).

A small library: the gold edits `src/badge.c`, the test patch `tests/test_badge.c`, a Unity
test file (Unity, cmocka and check all report a test by its function's name: `test_new`).
Rule texts are copies of those `test_rules.py` defines.
"""

from __future__ import annotations

from rule_checks import (
    ABSENT,
    FED,
    FOREIGN,
    LOCAL_W,
    MARK,
    NOT_GRADED_PASSED,
    NOT_KEYWORD,
    SCOPE_CHECKS,
    SHIP_CHECKS,
    crosses,
    literal,
)

DOC = "".join(f" * line {n}\n" for n in ("one", "two", "three", "four", "five", "six"))
SCAFFOLD = {
    "src": "src/badge.c",
    "test": "tests/test_badge.c",
    "files": {
        "src/badge.h": "#ifndef BADGE_H\n#define BADGE_H\n\n#include <stddef.h>\n\n"
                       "int helper(void);\n\n#endif\n",
        "src/badge.c": "/*\n * Badge helpers.\n *\n" + DOC + " */\n"
                       "#include <string.h>\n#include <sys/time.h>\n\n#include \"badge.h\"\n\n"
                       "enum store_kind {\n    KIND_MEMORY,\n    KIND_DISK,\n};\n\n"
                       "struct options {\n    int size;\n};\n\n"
                       "struct settings {\n    const char *region;\n    int total;\n};\n\n"
                       "int helper(void)\n{\n    return 1;\n}\n\n" + MARK,
        "tests/test_badge.c": "#include <string.h>\n\n#include \"unity.h\"\n"
                              "#include \"../src/badge.h\"\n\n"
                              "void setUp(void)\n{\n}\n\nvoid tearDown(void)\n{\n}\n\n"
                              "void test_helper(void)\n{\n"
                              "    TEST_ASSERT_EQUAL_INT(1, helper());\n}\n\n" + MARK,
    },
    "f2p": "test_new",
}


# `crossing.POSITIONAL` (the languages whose parameters no caller spells) is {"go", "java"}:
# until "c" is in it, a C parameter is an ordinary definition there.
SHIP = ("const char *shipping_label(int total, const char *region)\n{\n"
        '    if (total > 7500 && strcmp(region, "eu-west-3") == 0) {\n'
        '        return "free shipping over threshold";\n    }\n'
        '    return "standard shipping rate";\n}\n')
SHIP_TEST = ('void test_new(void)\n{\n    const char *region = "eu-west-3";\n'
             '    TEST_ASSERT_EQUAL_STRING("free shipping over threshold",\n'
             "                             shipping_label(9000, region));\n}\n\n"
             "void test_other(void)\n{\n"
             '    TEST_ASSERT_EQUAL_STRING("standard shipping rate", shipping_label(10, "us"));\n'
             "}\n")
# check: `START_TEST(name) { ... } END_TEST` (the grammar reads the second one as a function
# `START_TEST` after an `END_TEST` type: its one parameter's type is the test's name).
SHIP_CHECK = ('START_TEST(test_new)\n{\n    const char *region = "eu-west-3";\n'
              "    ck_assert_str_eq(shipping_label(9000, region),\n"
              '                     "free shipping over threshold");\n'
              "}\nEND_TEST\n\nSTART_TEST(test_other)\n{\n"
              '    ck_assert_str_eq(shipping_label(10, "us"), "standard shipping rate");\n'
              "}\nEND_TEST\n\nSTART_TEST(test_third)\n{\n    ck_assert_int_eq(helper(), 1);\n"
              "}\nEND_TEST\n\nSuite *badge_suite(void)\n{\n"
              '    Suite *s = suite_create("badge");\n    TCase *tc = tcase_create("core");\n'
              "    tcase_add_test(tc, test_new);\n    tcase_add_test(tc, test_other);\n"
              "    suite_add_tcase(s, tc);\n    return s;\n}\n")
# cmocka: `static void name(void **state)`, listed by `cmocka_unit_test(name)`.
SHIP_CMOCKA = ("static void new_case(void **state)\n{\n    (void)state;\n"
               '    const char *region = "eu-west-3";\n'
               "    assert_string_equal(shipping_label(9000, region),\n"
               '                        "free shipping over threshold");\n'
               "}\n\nstatic void other_case(void **state)\n{\n    (void)state;\n"
               '    assert_string_equal(shipping_label(10, "us"), "standard shipping rate");\n}\n\n'
               "int main(void)\n{\n    const struct CMUnitTest tests[] = {\n"
               "        cmocka_unit_test(new_case),\n        cmocka_unit_test(other_case),\n"
               "    };\n    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n")

CASES = [
    # A name bound inside a function is local on both sides; a module-level one crosses.
    ("local",
     "int sum_prices(const int *items, size_t count)\n{\n    int subtotal = 0;\n"
     "    for (size_t entry = 0; entry < count; entry++) {\n"
     "        subtotal += items[entry];\n    }\n    return subtotal;\n}\n",
     "void test_new(void)\n{\n    int prices[] = {1, 2};\n    int subtotal = 0;\n"
     "    for (size_t entry = 0; entry < 2; entry++) {\n        subtotal += prices[entry];\n"
     "    }\n    TEST_ASSERT_EQUAL_INT(subtotal, sum_prices(prices, 2));\n}\n",
     [("positive", "sum_prices", crosses("function")), ("negative", "subtotal", LOCAL_W),
      ("negative-loop", "entry", LOCAL_W)]),
    # A field of a struct the gold declares crosses, read or designated; one of a system
    # header's struct (`struct timeval`), written by the gold and read by the test, does not.
    ("field",
     "struct retry_policy {\n    int max_attempts;\n};\n\n"
     "struct retry_policy retry_default(void)\n{\n"
     "    struct retry_policy p = { .max_attempts = 3 };\n    return p;\n}\n\n"
     "void stamp_start(struct timeval *tv)\n{\n    tv->tv_usec = 0;\n}\n",
     "void test_new(void)\n{\n    struct timeval tv;\n    stamp_start(&tv);\n"
     "    TEST_ASSERT_EQUAL_INT(0, tv.tv_usec);\n"
     "    TEST_ASSERT_EQUAL_INT(3, retry_default().max_attempts);\n}\n",
     [("positive", "max_attempts", crosses("field")),
      ("negative", "tv_usec", {"defuse": "none", "rule": FOREIGN})]),
    # Include paths never cross; a library's function both sides call is no definition of
    # either; a gold function the test calls crosses.
    ("import",
     "json_t *load_settings(const char *text)\n{\n    json_error_t err;\n"
     "    return json_loads(text, 0, &err);\n}\n",
     "void test_new(void)\n{\n    json_error_t err;\n"
     '    json_t *want = json_loads("{}", 0, &err);\n'
     '    TEST_ASSERT_TRUE(json_equal(load_settings("{}"), want));\n}\n',
     [("positive", "load_settings", crosses("function")),
      ("negative-path", "jansson.h", ABSENT),
      ("negative-name", "json_loads", {"defuse": "none"})],
     {"edits": (('#include "badge.h"\n', '#include "badge.h"\n#include "jansson.h"\n'),),
      "test_edits": (('#include "unity.h"\n', '#include "jansson.h"\n#include "unity.h"\n'),)}),
    # Comments yield no candidate, even where a hunk starts inside one.
    ("doc",
     "/* legacy_stripes is gone. */\nint render_stripes(int n)\n{\n    return n;\n}\n",
     "void test_new(void)\n{\n    int zebra_mode = 1;\n    int legacy_stripes = 2;\n"
     "    TEST_ASSERT_EQUAL_INT(3, render_stripes(zebra_mode + legacy_stripes));\n}\n",
     [("positive", "render_stripes", crosses()), ("negative", "zebra_mode", ABSENT),
      ("negative-comment", "legacy_stripes", ABSENT)],
     {"edits": (("line five", "line five, see zebra_mode"),)}),
    # The test side counts only inside FAIL_TO_PASS tests, and a literal only where asserted.
    ("graded", SHIP, SHIP_TEST, SHIP_CHECKS),
    # FAIL_TO_PASS names one test function; its sibling is not graded (Unity, check, cmocka;
    # a pytest-style `file::name` id too).
    ("scope", SHIP, SHIP_TEST, SCOPE_CHECKS),
    ("scope", SHIP, SHIP_TEST, SCOPE_CHECKS, {"f2p": ("tests/test_badge.c::test_new",)}),
    ("scope", SHIP, SHIP_CHECK, SCOPE_CHECKS),
    ("scope", SHIP, SHIP_CMOCKA, SCOPE_CHECKS, {"f2p": ("new_case",)}),
    # Definitions only the syntax tree sees, edited into existing declarations: an enum's
    # member, a struct's field; a macro constant; a function's own constant is local.
    ("syntax-def",
     "#define MAX_BURST 5\n\nint backoff(void)\n{\n    const int max_retries = 5;\n"
     "    return max_retries;\n}\n",
     "void test_new(void)\n{\n    const int max_retries = 5;\n"
     "    struct options o = { .burst = 5 };\n"
     "    TEST_ASSERT_NOT_EQUAL(KIND_DISK, KIND_REDIS_CLUSTER);\n"
     "    TEST_ASSERT_EQUAL_INT(5, o.burst);\n    TEST_ASSERT_EQUAL_INT(5, MAX_BURST);\n"
     "    TEST_ASSERT_EQUAL_INT(max_retries, backoff());\n}\n",
     [("positive-enum", "KIND_REDIS_CLUSTER", crosses("enum-member")),
      ("positive-field", "burst", crosses("field")),
      ("positive-macro", "MAX_BURST", crosses("constant")),
      ("negative", "max_retries", LOCAL_W)],
     {"edits": (("    KIND_DISK,\n", "    KIND_DISK,\n    KIND_REDIS_CLUSTER,\n"),
                ("    int size;\n", "    int size;\n    int burst;\n"))}),
    # C has no keyword arguments: a parameter's name is no interface, even where the test
    # reads a member of that name; a field the gold adds, set by a designated initializer,
    # crosses.
    ("parameter", SHIP,
     "void test_new(void)\n{\n"
     '    struct settings s = { .zone = "eu", .region = "eu-west-3", .total = 9000 };\n'
     '    TEST_ASSERT_EQUAL_STRING("free shipping over threshold",\n'
     "                             shipping_label(s.total, s.region));\n}\n",
     [("positive", "shipping_label", crosses("function")),
      ("positive-designated", "zone", crosses("field")),
      ("negative", "region", {"defuse": "none", "rule": NOT_KEYWORD})],
     {"edits": (("    int total;\n", "    int total;\n    const char *zone;\n"),)}),
    # An expected message built in a local (a literal, or snprintf into a buffer), then
    # asserted, is asserted; a local the test hands to the code under test is its input.
    ("local-expected",
     'const char *region_error(void)\n{\n    return "unknown region given";\n}\n\n'
     "const char *region_input(const char *s)\n{\n"
     '    return strcmp(s, "region from config") == 0 ? "x" : "";\n}\n',
     "void test_new(void)\n{\n"
     '    const char *expected = "unknown region given";\n'
     "    TEST_ASSERT_EQUAL_STRING(expected, region_error());\n"
     '    const char *given = "region from config";\n'
     '    TEST_ASSERT_EQUAL_STRING("x", region_input(given));\n}\n',
     [("positive", "unknown region given", literal()),
      ("negative", "region from config", FED)]),
    ("local-expected",
     "int describe_region(char *out, size_t len, const char *name)\n{\n"
     '    if (strcmp(name, "mars") == 0) {\n'
     '        return snprintf(out, len, "unknown region: %s", name);\n    }\n'
     '    return snprintf(out, len, "region %s", name);\n}\n',
     "void test_new(void)\n{\n"
     '    const char *given = "mars";\n    char want[64];\n    char got[64];\n'
     '    snprintf(want, sizeof want, "unknown region: %s", given);\n'
     "    describe_region(got, sizeof got, given);\n"
     "    TEST_ASSERT_EQUAL_STRING(want, got);\n}\n",
     [("positive", "unknown region: %s", literal()), ("negative", "mars", FED)]),
    # `strcmp(...) != 0` compares the code's output with a literal; one it hands to the code
    # is its input.
    ("compared",
     "const char *check(const char *s)\n{\n"
     '    return strcmp(s, "plain input text") == 0 ? "" : "update needs bot tokens";\n}\n',
     "void test_new(void)\n{\n"
     '    check("plain input text");\n'
     '    if (strcmp(check("x"), "update needs bot tokens") != 0) {\n'
     '        TEST_FAIL_MESSAGE("update needs bot tokens");\n    }\n}\n',
     [("positive", "update needs bot tokens", literal()),
      ("negative", "plain input text", FED)]),
    # cmocka's expect_string(...) grades what the code chose to pass on; when the test fed
    # that very literal in itself, it checks only a hand-over.
    ("passed-on",
     "int intern_atom(struct display *d, const char *name)\n{\n"
     "    return d->intern(name, 1);\n}\n\n"
     "int wm_name(struct display *d)\n{\n"
     '    return d->get_property(intern_atom(d, "_NET_WM_NAME"), "UTF8_STRING");\n}\n',
     "static void new_case(void **state)\n{\n    struct display *d = *state;\n"
     '    expect_string(mock_intern, name, "_NET_WM_NAME");\n'
     '    intern_atom(d, "_NET_WM_NAME");\n'
     '    expect_string(mock_get_property, type, "UTF8_STRING");\n'
     "    wm_name(d);\n}\n",
     [("negative", "_NET_WM_NAME", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "UTF8_STRING", literal())],
     {"f2p": ("new_case",)}),
    # A group's affix around a prose word in its own spelling (`STORE_ROCKS_DB`) is a
    # CONVENTION; the same affix around a word nothing gives is not.
    ("convention-affix",
     '#define STORE_ROCKS_DB "rocks"\n#define STORE_LEVEL_TAPE "tape"\n',
     "void test_new(void)\n{\n"
     '    TEST_ASSERT_EQUAL_STRING("rocks", STORE_ROCKS_DB);\n'
     '    TEST_ASSERT_EQUAL_STRING("tape", STORE_LEVEL_TAPE);\n}\n',
     [("positive", "STORE_ROCKS_DB", {"convention": "ROCKS_DB"}),
      ("negative", "STORE_LEVEL_TAPE", {"convention": ""})],
     {"at_base": '#define STORE_MEMORY "mem"\n#define STORE_DISK "disk"\n',
      "prose": "Back the store with RocksDB."}),
]
