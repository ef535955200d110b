"""Python: pytest naming, `self` as the receiver (captured by the scope patterns)."""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="python",
    extensions=(".py", ".pyi"),
    grammar="tree_sitter_python",
    entry="language",
    distribution="tree-sitter-python",
    defuse=("python-defuse.scm",),
    tests=("python-tests.scm",),
    test_separator="::",
)
