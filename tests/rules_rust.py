"""The rule matrix for Rust, as data (loaded by `tests/test_rules.py`, `_data_cases`).

A small crate `shop`: the gold edits `src/badge.rs` (a module of the library), the test patch
`tests/badge.rs`, an integration test (its own crate: cargo reports its tests by their bare
names, `new_case`). Rule texts are copies of those `test_rules.py` defines.
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
    SHIP_CHECKS,
    crosses,
    literal,
)

DOC = "".join(f"//! line {n}\n" for n in ("one", "two", "three", "four", "five", "six"))
SCAFFOLD = {
    "src": "src/badge.rs",
    "test": "tests/badge.rs",
    "files": {
        "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": "pub mod badge;\n",
        "src/badge.rs": "//! Badges for the shop.\n//!\n" + DOC
        + "\nuse std::collections::HashMap;\n\npub fn helper() -> u32 {\n    1\n}\n\n"
        "#[derive(Debug, PartialEq)]\npub enum Kind {\n    Memory,\n    Disk,\n}\n\n"
        "pub struct Options {\n    pub size: usize,\n}\n\nimpl Options {\n"
        "    pub const DEFAULT_SIZE: usize = 8;\n}\n\n"
        "pub fn counts() -> HashMap<String, usize> {\n    HashMap::new()\n}\n\n" + MARK,
        "tests/badge.rs": "use shop::badge::*;\n\n#[test]\nfn helper_works() {\n"
        "    assert_eq!(helper(), 1);\n}\n\n" + MARK,
    },
    "f2p": "new_case",
}


SHIP = ('pub fn shipping_label(total: u32, region: &str) -> &\'static str {\n'
        '    if total > 7500 && region == "eu-west-3" {\n'
        '        return "free shipping over threshold";\n    }\n'
        '    "standard shipping rate"\n}\n')
SHIP_TEST = ('#[test]\nfn new_case() {\n    let region = "eu-west-3";\n'
             '    assert_eq!(shipping_label(9000, region), "free shipping over threshold");\n}\n\n'
             '#[test]\nfn other_case() {\n'
             '    assert_eq!(shipping_label(10, "us"), "standard shipping rate");\n}\n')

CASES = [
    # A name bound inside a function is local on both sides; a module-level one crosses.
    ("local",
     "pub fn sum_prices(items: &[u32]) -> u32 {\n    let mut subtotal = 0;\n"
     "    for entry in items {\n        subtotal += entry;\n    }\n    subtotal\n}\n",
     "#[test]\nfn new_case() {\n    let mut subtotal = 0;\n    for entry in [1, 2] {\n"
     "        subtotal += entry;\n    }\n    assert_eq!(sum_prices(&[1, 2]), subtotal);\n}\n",
     [("positive", "sum_prices", crosses("function")), ("negative", "subtotal", LOCAL_W),
      ("negative-loop", "entry", LOCAL_W)]),
    # A field set on a library's value is a use of a foreign name; one of a type the gold
    # declares crosses (read in a macro's tokens or outside one).
    ("field",
     "pub fn client_config() -> rustls::ClientConfig {\n"
     "    let mut cfg = rustls::ClientConfig::default();\n    cfg.enable_sni = false;\n"
     "    cfg\n}\n\npub struct RetryPolicy {\n    pub max_attempts: u32,\n}\n",
     "#[test]\nfn new_case() {\n    let policy = RetryPolicy { max_attempts: 3 };\n"
     "    let sni = client_config().enable_sni;\n    assert_eq!(policy.max_attempts, 3);\n"
     "    assert!(!client_config().enable_sni && !sni);\n}\n",
     [("positive", "max_attempts", crosses("field")),
      ("negative", "enable_sni", {"defuse": "none", "rule": FOREIGN})]),
    # A test's double implementing a library trait defines nothing the gold's calls cross
    # to; a method of a type the gold declares, called by the test, crosses.
    ("mock",
     "pub fn rewind<S: std::io::Seek>(s: &mut S) -> std::io::Result<u64> {\n"
     "    s.seek(std::io::SeekFrom::Start(0))\n}\n\npub struct LogFile;\n\nimpl LogFile {\n"
     "    pub fn rotate_logs(&self) -> bool {\n        true\n    }\n}\n",
     "struct FakeFile {\n    pos: u64,\n}\n\nimpl std::io::Seek for FakeFile {\n"
     "    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {\n"
     "        self.pos = 0;\n        let _ = to;\n        Ok(self.pos)\n    }\n}\n\n"
     "#[test]\nfn new_case() {\n    let mut f = FakeFile { pos: 9 };\n"
     "    assert_eq!(rewind(&mut f).unwrap(), 0);\n"
     "    assert_eq!(f.seek(std::io::SeekFrom::Current(0)).unwrap(), 0);\n"
     "    assert!(LogFile.rotate_logs());\n}\n",
     [("positive", "rotate_logs", crosses("method")),
      ("negative", "seek", {"defuse": "none", "kind": "identifier"})]),
    # Paths in `use` never cross; a gold definition the test calls does.
    ("import",
     "use std::collections::BTreeMap;\n\n"
     "pub fn load_settings(text: &str) -> BTreeMap<String, String> {\n"
     "    let mut out = BTreeMap::new();\n    out.insert(text.to_string(), text.to_string());\n"
     "    out\n}\n",
     "use std::collections::BTreeMap;\n\n#[test]\nfn new_case() {\n"
     "    let want: BTreeMap<String, String> = BTreeMap::new();\n"
     '    assert_ne!(load_settings("a: 1"), want);\n}\n',
     [("positive", "load_settings", crosses("function")),
      ("negative", "collections", {"defuse": "none", "rule": IMPORT}),
      ("negative-type", "BTreeMap", {"defuse": "none"})]),
    # A module's name is a file path's: the gold's `mod ratelimit;` and the test's `use`
    # path never cross.
    ("import", "", "",
     [("positive", "new_limiter", crosses("function")),
      ("negative-module", "ratelimit", {"defuse": "none", "rule": IMPORT})],
     {"gold_files": {"src/lib.rs": "pub mod badge;\npub mod ratelimit;\n",
                     "src/ratelimit.rs": "pub fn new_limiter(burst: u32) -> u32 {\n"
                                         "    burst.max(1)\n}\n"},
      "test_files": {"tests/ratelimit.rs": "use shop::ratelimit::new_limiter;\n\n#[test]\n"
                                           "fn new_case() {\n    assert_eq!(new_limiter(5), 5);\n"
                                           "}\n"}}),
    # Text of comments and doc comments, even where a hunk starts inside them, yields nothing.
    ("doc",
     "// legacy_stripes is gone.\npub fn render_stripes(n: u32) -> u32 {\n    n\n}\n",
     "#[test]\nfn new_case() {\n    let zebra_mode = 1;\n    let legacy_stripes = 2;\n"
     "    assert_eq!(render_stripes(zebra_mode + legacy_stripes), 3);\n}\n",
     [("positive", "render_stripes", crosses()), ("negative", "zebra_mode", ABSENT),
      ("negative-comment", "legacy_stripes", ABSENT)],
     {"edits": (("line five", "line five, see zebra_mode"),)}),
    # The test side counts only inside FAIL_TO_PASS tests, and a literal only where asserted.
    ("graded", SHIP, SHIP_TEST, SHIP_CHECKS),
    # A test in a module of the test file: cargo reports `shipping::new_case`.
    ("scope", SHIP, "mod shipping {\n    use super::*;\n\n"
     + "".join("    " + ln if ln else "" for ln in SHIP_TEST.splitlines(True)) + "}\n",
     [SHIP_CHECKS[0], SHIP_CHECKS[2]], {"f2p": ("shipping::new_case",)}),
    # A unit test in the library's own tree (`src/badge/tests.rs`, `mod tests;` in
    # `src/badge.rs`): cargo reports it under its module path from the crate root, the file
    # knows only `new_case`.
    ("scope", SHIP, "", [SHIP_CHECKS[0], SHIP_CHECKS[2]],
     {"f2p": ("badge::tests::new_case",), "at_base": "#[cfg(test)]\nmod tests;\n\n",
      "test_files": {"src/badge/tests.rs": "use super::*;\n\n" + SHIP_TEST}}),
    # Definitions only the syntax tree sees, edited into existing declarations: an enum's
    # variant, a struct's field, an impl block's constant and method; a constant in a
    # function body is local.
    ("syntax-def",
     "pub fn backoff() -> u32 {\n    const MAX_RETRIES: u32 = 5;\n    MAX_RETRIES\n}\n",
     "#[test]\nfn new_case() {\n    const MAX_RETRIES: u32 = 5;\n"
     "    assert_ne!(Kind::Disk, Kind::RedisCluster);\n"
     "    let opts = Options { size: 1, burst: 5 };\n    assert_eq!(opts.burst, 5);\n"
     "    assert_eq!(Options::MAX_BURST, 5);\n    assert!(opts.try_acquire());\n"
     "    assert_eq!(MAX_RETRIES, backoff());\n}\n",
     [("positive-variant", "RedisCluster", crosses("enum-member")),
      ("positive-field", "burst", crosses("field")),
      ("positive-constant", "MAX_BURST", crosses("constant")),
      ("positive-method", "try_acquire", crosses("method")),
      ("negative", "MAX_RETRIES", LOCAL_W)],
     {"edits": (("    Disk,\n", "    Disk,\n    RedisCluster,\n"),
                ("    pub size: usize,\n", "    pub size: usize,\n    pub burst: u32,\n"),
                ("    pub const DEFAULT_SIZE: usize = 8;\n",
                 "    pub const DEFAULT_SIZE: usize = 8;\n    pub const MAX_BURST: u32 = 5;\n\n"
                 "    pub fn try_acquire(&self) -> bool {\n        self.burst > 0\n    }\n"))}),
    # Rust has no keyword arguments: a parameter's name is no interface, whatever the test
    # spells; a struct literal's keyed field is (it names a field the gold declares).
    ("parameter",
     SHIP + "\npub struct ShippingOptions {\n    pub express: bool,\n}\n",
     "#[test]\nfn new_case() {\n    struct Order {\n        region: &'static str,\n    }\n"
     '    let o = Order { region: "eu-west-3" };\n'
     "    let opts = ShippingOptions { express: true };\n"
     '    assert_eq!(shipping_label(9000, o.region), "free shipping over threshold");\n'
     "    assert!(opts.express);\n}\n",
     [("positive", "shipping_label", crosses()),
      ("positive-keyed", "express", crosses("field")),
      ("negative", "region", {"defuse": "none", "rule": NOT_KEYWORD})]),
    # A test reading a library value's member of the parameter's name: the gold's
    # parameter is still no interface (`crossing.POSITIONAL` holds rust).
    ("parameter", SHIP,
     "#[test]\nfn new_case() {\n    let url = url::Url::parse(\"https://x\").unwrap();\n"
     "    let label = shipping_label(9000, url.region);\n"
     '    assert_eq!(label, "free shipping over threshold");\n}\n',
     [("negative-foreign", "region", {"defuse": "none", "rule": NOT_KEYWORD})]),
    # An expected message built in a local by pure string building (format!), then
    # asserted, is asserted (one step); a local the test hands to the code is its input.
    ("local-expected",
     'pub fn region_error() -> String {\n    format!("{}", "unknown region given")\n}\n\n'
     "pub fn region_input(s: &str) -> &'static str {\n"
     '    if s == "region from config" {\n        "x"\n    } else {\n        ""\n    }\n}\n',
     "#[test]\nfn new_case() {\n"
     '    let expected = format!("{}", "unknown region given");\n'
     "    assert_eq!(region_error(), expected);\n"
     '    let given = "region from config";\n    assert_eq!(region_input(given), "x");\n}\n',
     [("positive", "unknown region given", literal()), ("negative", "region from config", FED)]),
    # A test comparing the code's output with a literal asserts it; a literal it hands to
    # the code is its input.
    ("compared",
     "pub fn check(s: &str) -> Result<(), String> {\n"
     '    if s == "plain input text" {\n        return Ok(());\n    }\n'
     '    Err("update needs bot tokens".to_string())\n}\n',
     "#[test]\nfn new_case() {\n"
     '    check("plain input text").unwrap();\n'
     '    if check("x").unwrap_err() != "update needs bot tokens" {\n'
     '        panic!("want {}", "update needs bot tokens");\n    }\n}\n',
     [("positive", "update needs bot tokens", literal()),
      ("negative", "plain input text", FED)]),
    # A literal the test feeds in, then hands to a call inside its assertion, is its own
    # input read back; one it only asserts is the fix's.
    ("fed-back",
     'pub const LEGACY: &str = "P-legacy-1";\n\n'
     "pub fn store_kind() -> &'static str {\n    \"memory-store\"\n}\n",
     "#[test]\nfn new_case() {\n    let mut m = std::collections::HashMap::new();\n"
     '    m.insert("P-legacy-1", 5);\n    assert_eq!(m.get("P-legacy-1"), Some(&5));\n'
     '    assert_eq!(store_kind(), "memory-store");\n}\n',
     [("negative", "P-legacy-1", {"graded": False, "rule": NOT_GRADED_PASSED}),
      ("positive", "memory-store", literal())]),
    # A group's affix around a prose word in its own spelling is a CONVENTION; around a word
    # nothing gives, a claim.
    ("convention-affix",
     'pub const STORE_ROCKS_DB: &str = "rocks";\npub const STORE_LEVEL_TAPE: &str = "tape";\n',
     '#[test]\nfn new_case() {\n    assert_eq!(STORE_ROCKS_DB, "rocks");\n'
     '    assert_eq!(STORE_LEVEL_TAPE, "tape");\n}\n',
     [("positive", "STORE_ROCKS_DB", {"convention": "ROCKS_DB"}),
      ("negative", "STORE_LEVEL_TAPE", {"convention": ""})],
     {"at_base": 'pub const STORE_MEMORY: &str = "mem";\npub const STORE_DISK: &str = "disk";\n',
      "prose": "Back the store with RocksDB."}),
]
