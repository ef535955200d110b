"""Java: JUnit naming (`Class.method`, innermost class only), `this` as the receiver."""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="java",
    extensions=(".java",),
    grammar="tree_sitter_java",
    entry="language",
    distribution="tree-sitter-java",
    defuse=("java-defuse.scm",),
    tests=("java-tests.scm",),
    receivers=frozenset({"this"}),
    test_separator=".",
    test_outer_groups=False,
)
