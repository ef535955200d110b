"""Rust: `cargo test` naming (`tests::name`: the modules around a test in its file, joined by
`::`), `self` and `Self` as the receiver.

cargo prints a test under every module from the crate root (`parser::tests::name` for a
test in `src/parser.rs`; a file under `tests/` is a crate of its own, so `name` or
`module::name`). A file knows only the modules written in it, so the names here start there.
"""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="rust",
    extensions=(".rs",),
    grammar="tree_sitter_rust",
    entry="language",
    distribution="tree-sitter-rust",
    defuse=("rust-defuse.scm",),
    tests=("rust-tests.scm",),
    # `self` is a keyword (a `self_parameter` node, no parameter name the scope patterns can
    # capture as `@scope.receiver`), like Java's `this`; `Self` names the type an `impl` block
    # implements (`Self::LIMIT`, `Self { .. }`).
    receivers=frozenset({"self", "Self"}),
    # cargo joins a test's modules and its name with `::`, every module (not only the
    # innermost one, as JUnit does).
    test_separator="::",
    test_outer_groups=True,
)
