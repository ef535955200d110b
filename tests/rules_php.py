"""The rule matrix for PHP, as data (loaded by `tests/test_rules.py`, `_data_cases`).

A Composer package `acme/badge`: the gold edits `src/Badge.php` (class `Acme\\Badge`, PSR-4)
or adds classes beside it, the test patch edits `tests/BadgeTest.php`, a PHPUnit test case
whose new method is `testNewCase`. Rule texts are copies of those `test_rules.py` defines.

PHPUnit names a test `BadgeTest::testNewCase` (or `Acme\\Tests\\BadgeTest::testNewCase`, its
namespace dropped); the scaffold's id names the file too (as PHPUnit's TeamCity `locationHint`
does), and the scope cases below check the bare and the namespaced forms.
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
    SCOPE_CHECKS,
    SHIP_CHECKS,
    crosses,
    literal,
)

DOC = "".join(f"     * line {n}\n" for n in ("one", "two", "three", "four", "five", "six"))
SRC = "src/Badge.php"
TEST = "tests/BadgeTest.php"
SCAFFOLD = {
    "src": SRC,
    "test": TEST,
    "files": {
        "composer.json": '{\n    "name": "acme/badge",\n    "autoload": {"psr-4": {"Acme\\\\": '
                         '"src/"}},\n    "autoload-dev": {"psr-4": {"Acme\\\\Tests\\\\": '
                         '"tests/"}}\n}\n',
        SRC: "<?php\n\ndeclare(strict_types=1);\n\nnamespace Acme;\n\n"
             "use Psr\\Clock\\ClockInterface;\nuse Vendor\\Layout\\GridBag;\n\n"
             "final class Badge\n{\n    public int $timeout = 10;\n\n    /**\n     * Helpers.\n"
             "     *\n" + DOC + "     */\n    public static function helper(): int\n    {\n"
             "        return 1;\n    }\n" + MARK + "}\n",
        TEST: "<?php\n\ndeclare(strict_types=1);\n\nnamespace Acme\\Tests;\n\n"
              "use Acme\\Badge;\nuse PHPUnit\\Framework\\TestCase;\n\n"
              "final class BadgeTest extends TestCase\n{\n"
              "    public function testHelper(): void\n    {\n"
              "        $this->assertSame(1, Badge::helper());\n    }\n" + MARK + "}\n",
    },
    "f2p": f"{TEST}::BadgeTest::testNewCase",
}


def uses(*classes: str) -> tuple[tuple[str, str], ...]:
    """The test patch's `use` lines for classes the gold adds beside Badge."""
    return (("use Acme\\Badge;\n",
             "use Acme\\Badge;\n" + "".join(f"use Acme\\{c};\n" for c in classes)),)


def php_class(name: str, body: str) -> str:
    return (f"<?php\n\ndeclare(strict_types=1);\n\nnamespace Acme;\n\nfinal class {name}\n{{\n"
            + body + "}\n")


def method(name: str, body: str, sig: str = "", ret: str = "string") -> str:
    return (f"\n    public static function {name}({sig}): {ret}\n    {{\n{body}    }}\n")


def test(name: str, body: str) -> str:
    return f"\n    public function {name}(): void\n    {{\n{body}    }}\n"


SHIP = method("shippingLabel",
              "        if ($total > 7500 && $region === 'eu-west-3') {\n"
              "            return 'free shipping over threshold';\n        }\n"
              "        return 'standard shipping rate';\n",
              "int $total, string $region = 'eu-west-3'")
SHIP_TEST = (test("testNewCase", "        $region = 'eu-west-3';\n"
                  "        $this->assertSame('free shipping over threshold',\n"
                  "            Badge::shippingLabel(9000, $region));\n")
             + test("testOtherCase", "        $this->assertSame('standard shipping rate', "
                    "Badge::shippingLabel(10, 'us'));\n"))

# Pest: a test file of closures, `it()` inside `describe()`; the runner's id names the file.
PEST = "tests/Feature/ShippingTest.php"
PEST_TEST = ("<?php\n\nuse Acme\\Badge;\n\ndescribe('shipping', function () {\n"
             "    it('gives free shipping', function () {\n        $region = 'eu-west-3';\n"
             "        expect(Badge::shippingLabel(9000, $region))\n"
             "            ->toBe('free shipping over threshold');\n    });\n\n"
             "    it('charges the standard rate', function () {\n"
             "        expect(Badge::shippingLabel(10, 'us'))->toBe('standard shipping rate');\n"
             "    });\n});\n")

STORE_BASE = ("<?php\n\ndeclare(strict_types=1);\n\nnamespace Acme;\n\nenum Store: string\n{\n"
              "    case Memory = 'mem';\n    case Disk = 'disk';\n}\n")

CASES = [
    # A name bound inside a function is local on both sides; a class-level one crosses.
    ("local",
     method("sumPrices", "        $subtotal = 0;\n        foreach ($items as $entry) {\n"
            "            $subtotal += $entry;\n        }\n        return $subtotal;\n",
            "array $items", "int"),
     test("testNewCase", "        $subtotal = 0;\n        foreach ([1, 2] as $entry) {\n"
          "            $subtotal += $entry;\n        }\n"
          "        $this->assertSame($subtotal, Badge::sumPrices([1, 2]));\n"),
     [("positive", "sumPrices", crosses("method")), ("negative", "subtotal", LOCAL_W),
      ("negative-loop", "entry", LOCAL_W)]),
    # A property set on a library's object is a use; one of a class the gold declares (here
    # a promoted constructor parameter) crosses.
    ("field",
     method("wide", "        $c = new GridBag();\n        $c->gridwidth = 2;\n"
            "        return $c;\n", ret="GridBag"),
     test("testNewCase", "        $this->assertSame(2, Badge::wide()->gridwidth);\n"
          "        $this->assertSame(3, (new RetryPolicy())->maxAttempts);\n"),
     [("positive", "maxAttempts", crosses("field")),
      ("negative", "gridwidth", {"defuse": "none", "rule": FOREIGN})],
     {"gold_files": {"src/RetryPolicy.php": php_class(
         "RetryPolicy", "    public function __construct(public int $maxAttempts = 3)\n"
                        "    {\n    }\n")},
      "test_edits": uses("RetryPolicy")}),
    # A test's double of a library interface (an anonymous class) defines nothing the gold's
    # calls cross to; a method of a class the gold declares, called by the test, crosses.
    ("mock",
     method("stamp", "        return $clock->now()->getTimestamp();\n",
            "ClockInterface $clock", "int"),
     test("testNewCase", "        $clock = new class implements ClockInterface {\n"
          "            public function now(): \\DateTimeImmutable\n            {\n"
          "                return new \\DateTimeImmutable('@42');\n            }\n        };\n"
          "        $this->assertSame($clock->now()->getTimestamp(), Badge::stamp($clock));\n"
          "        $this->assertTrue((new LogFile())->rotateLogs());\n"),
     [("positive", "rotateLogs", crosses("method")),
      ("negative", "now", {"defuse": "none", "kind": "identifier"})],
     {"gold_files": {"src/LogFile.php": php_class(
         "LogFile", "    public function rotateLogs(): bool\n    {\n        return true;\n"
                    "    }\n")},
      "test_edits": (*uses("LogFile"), ("use PHPUnit", "use Psr\\Clock\\ClockInterface;\n"
                                                    "use PHPUnit"))}),
    # Namespaces and imported class names never cross; a gold method the test calls does.
    ("import",
     method("httpClient", "        return new Client(['timeout' => 2]);\n", ret="Client"),
     test("testNewCase", "        $this->assertInstanceOf(Client::class, Badge::httpClient());\n"),
     [("positive", "httpClient", crosses("method")),
      ("negative", "GuzzleHttp", {"defuse": "none", "rule": IMPORT}),
      ("negative-class", "Client", {"defuse": "none"})],
     {"edits": (("use Psr", "use GuzzleHttp\\Client;\nuse Psr"),),
      "test_edits": (("use PHPUnit", "use GuzzleHttp\\Client;\nuse PHPUnit"),)}),
    # Text of docs and comments yields no candidate.
    ("doc",
     "    // legacyStripes is gone.\n"
     + method("renderStripes", "        return $n;\n", "int $n", "int"),
     test("testNewCase", "        $zebraMode = 1;\n        $legacyStripes = 2;\n"
          "        $this->assertSame(3, Badge::renderStripes($zebraMode + $legacyStripes));\n"),
     [("positive", "renderStripes", crosses()), ("negative", "zebraMode", ABSENT),
      ("negative-comment", "legacyStripes", ABSENT)],
     {"edits": (("line five", "line five, see zebraMode"),)}),
    # The test side counts only inside FAIL_TO_PASS tests, and a literal only where asserted.
    ("graded", SHIP, SHIP_TEST, SHIP_CHECKS),
    ("graded", SHIP, "", SHIP_CHECKS,
     {"test_files": {PEST: PEST_TEST}, "f2p": (f"{PEST}::shipping::gives free shipping",)}),
    # FAIL_TO_PASS id formats: each names one block; its sibling is not graded.
    ("scope", SHIP, SHIP_TEST, SCOPE_CHECKS, {"f2p": (f"{TEST}::testNewCase",)}),
    ("scope", SHIP, SHIP_TEST, SCOPE_CHECKS,
     {"f2p": ("BadgeTest::testNewCase",)}),
    ("scope", SHIP, SHIP_TEST, SCOPE_CHECKS,
     {"f2p": ("Acme\\Tests\\BadgeTest::testNewCase",)}),
    # Definitions only the syntax tree sees: a class constant, a method, a property edited
    # into the class, a case edited into an enum.
    ("syntax-def",
     "    public const MAX_BURST = 5;\n\n    public function tryAcquire(): bool\n    {\n"
     "        $remaining = 3;\n        return $remaining > 0;\n    }\n",
     test("testNewCase", "        $remaining = 3;\n"
          "        $this->assertSame(5, Badge::MAX_BURST);\n"
          "        $this->assertTrue((new Badge())->tryAcquire());\n"
          "        $this->assertSame(0.5, (new Badge())->backoffSeconds);\n"
          "        $this->assertNotSame(Store::Disk, Store::RedisCluster);\n"
          "        $this->assertTrue($remaining > 0);\n"),
     [("positive-constant", "MAX_BURST", crosses("constant")),
      ("positive-method", "tryAcquire", crosses("method")),
      ("positive-field", "backoffSeconds", crosses("field")),
      ("positive-case", "RedisCluster", crosses("enum-member")),
      ("negative", "remaining", LOCAL_W)],
     {"edits": (("    public int $timeout = 10;\n",
                 "    public int $timeout = 10;\n    public float $backoffSeconds = 0.5;\n"),),
      "base": {"src/Store.php": STORE_BASE},
      "gold_files": {"src/Store.php": STORE_BASE.replace(
          "    case Disk = 'disk';\n",
          "    case Disk = 'disk';\n    case RedisCluster = 'redis';\n")},
      "test_edits": uses("Store")}),
    # PHP 8 callers may name a parameter (`f(region: 'us')`): it crosses there. Passed by
    # position from a local, or read from the test's own property, it does not.
    ("parameter", SHIP,
     test("testNewCase", "        $this->assertSame('standard shipping rate', "
          "Badge::shippingLabel(10, region: 'us'));\n"),
     [("positive-keyword", "region", crosses())]),
    ("parameter", SHIP,
     test("testNewCase", "        $region = 'us';\n        $this->assertSame('standard shipping "
          "rate', Badge::shippingLabel(10, $region));\n"),
     [("positive", "shippingLabel", crosses("method")), ("negative-local", "region", LOCAL_W)]),
    ("parameter", SHIP,
     "\n    private string $region = 'us';\n"
     + test("testNewCase", "        $this->assertSame('standard shipping rate', "
            "Badge::shippingLabel(10, $this->region));\n"),
     [("positive", "shippingLabel", crosses("method")),
      ("negative-receiver", "region", {"defuse": "none"})]),
    # An expected message built in a local, then asserted, is asserted (one step); a local
    # the test hands to the code under test is its input.
    ("local-expected",
     method("regionError", "        return 'unknown region given';\n")
     + method("regionInput", "        return $s === 'region from config' ? 'x' : '';\n",
              "string $s"),
     test("testNewCase", "        $expected = 'unknown region given';\n"
          "        $this->assertSame($expected, Badge::regionError());\n"
          "        $given = 'region from config';\n"
          "        $this->assertSame('x', Badge::regionInput($given));\n"),
     [("positive", "unknown region given", literal()), ("negative", "region from config", FED)]),
    ("local-expected",
     method("regionError", "        return sprintf('%s', 'unknown region given');\n")
     + method("regionInput", "        return $s === 'region from config' ? 'x' : '';\n",
              "string $s"),
     test("testNewCase", "        $expected = sprintf('%s', 'unknown region given');\n"
          "        $this->assertSame($expected, Badge::regionError());\n"
          "        $given = 'region from config';\n"
          "        $this->assertSame('x', Badge::regionInput($given));\n"),
     [("positive", "unknown region given", literal()), ("negative", "region from config", FED)]),
    # A literal the test feeds in and then asserts again is its own input read back; a mock's
    # expected call on what the test fed in checks only a hand-over.
    ("fed-back",
     "    public const LEGACY = 'P-legacy-1';\n"
     + method("storeKind", "        return 'memory-store';\n"),
     test("testNewCase", "        $m = new \\ArrayObject();\n"
          "        $m->offsetSet('P-legacy-1', 5);\n"
          "        $this->assertSame(5, $m->offsetGet('P-legacy-1'));\n"
          "        $this->assertSame('memory-store', Badge::storeKind());\n"),
     [("negative", "P-legacy-1", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "memory-store", literal())]),
    ("passed-on",
     method("internAtom", "        return $lib->intern($name, true);\n",
            "object $lib, string $name", "mixed")
     + method("wmName", "        return $lib->getProperty(self::internAtom($lib, '_NET_WM_NAME'), "
              "'UTF8_STRING');\n", "object $lib", "mixed"),
     test("testNewCase", "        $lib = $this->createMock(Atoms::class);\n"
          "        $lib->expects($this->once())->method('intern')->with('_NET_WM_NAME', true);\n"
          "        Badge::internAtom($lib, '_NET_WM_NAME');\n"
          "        $lib->expects($this->once())->method('getProperty')"
          "->with(null, 'UTF8_STRING');\n        Badge::wmName($lib);\n"),
     [("negative", "_NET_WM_NAME", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "UTF8_STRING", literal())]),
    # A test comparing the code's output with a literal asserts it; a literal it hands to
    # the code is its input.
    ("compared",
     method("check", "        return $s === 'plain input text' ? '' : "
            "'update needs bot tokens';\n", "string $s"),
     test("testNewCase", "        Badge::check('plain input text');\n"
          "        if (Badge::check('x') !== 'update needs bot tokens') {\n"
          "            $this->fail('update needs bot tokens');\n        }\n"),
     [("positive", "update needs bot tokens", literal()), ("negative", "plain input text", FED)]),
    # A string naming a gold method where the test reflects on it crosses; one naming a
    # library's method does not.
    ("string-name",
     method("renderCompact", "        return '';\n")
     + method("describe", "        return $e->getMessage();\n", "\\Exception $e"),
     test("testNewCase",
          "        $this->assertTrue(method_exists(Badge::class, 'renderCompact'));\n"
          "        $this->assertTrue(method_exists(\\Exception::class, 'getMessage'));\n"),
     [("positive", "renderCompact", crosses("method") | {
         "rule": "defined by the gold, named by a string of the test"}),
      ("negative", "getMessage", {"defuse": "none", "rule": FOREIGN})]),
]


# Conventions: a class constant the base's siblings predict, given the word the prose
# supplies, is a CONVENTION hypothesis; the same shape with a word nothing gives is not.
def _consts(*pairs: tuple[str, str]) -> str:
    return "".join(f"    public const {n} = '{v}';\n" for n, v in pairs)


def _asserts(*pairs: tuple[str, str]) -> str:
    return test("testNewCase", "".join(f"        $this->assertSame('{v}', Badge::{n});\n"
                                       for n, v in pairs))


_MADE = (("STORE_ROCKS_DB", "rocks"), ("STORE_LEVEL_TAPE", "tape"))
_PARTS = (("UPSTREAM_BROWSER_VERSION_SHORT", "1.2"), ("UPSTREAM_BROWSER_VERSION_MAJOR", "1"))
CASES += [
    ("convention-affix", _consts(*_MADE), _asserts(*_MADE),
     [("positive", "STORE_ROCKS_DB", {"convention": "ROCKS_DB"}),
      ("negative", "STORE_LEVEL_TAPE", {"convention": ""})],
     {"at_base": _consts(("STORE_MEMORY", "mem"), ("STORE_DISK", "disk")),
      "prose": "Back the store with RocksDB."}),
    ("convention-part-added", _consts(*_PARTS), _asserts(*_PARTS),
     [("positive", "UPSTREAM_BROWSER_VERSION_SHORT", {"convention": "added, a word of the prose"}),
      ("negative", "UPSTREAM_BROWSER_VERSION_MAJOR", {"convention": ""})],
     {"at_base": _consts(("UPSTREAM_BROWSER_VERSION", "1.2.3")),
      "prose": "Shorten the upstream browser version shown in the title."}),
]
