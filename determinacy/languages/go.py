"""Go: `go test` naming (`TestX/sub name`); the receiver is captured by the scope patterns."""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="go",
    extensions=(".go",),
    grammar="tree_sitter_go",
    entry="language",
    distribution="tree-sitter-go",
    defuse=("go-defuse.scm",),
    tests=("go-tests.scm",),
    test_separator="/",
)
