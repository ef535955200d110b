"""JavaScript, TypeScript and TSX: one grammar family, so they share most patterns.

`ecma-*.scm` holds the patterns whose node types all three grammars have; the JavaScript
grammar alone spells class fields `field_definition`, TypeScript adds types, and only the
JavaScript and TSX grammars know JSX. Jest/Mocha naming: describe titles and the test title
joined by spaces, and the bare title too.
"""

from typing import Any

from determinacy.languages._model import Language

_COMMON: dict[str, Any] = dict(
    receivers=frozenset({"this"}),
    test_separator=" ",
    test_bare_titles=True,
)

JAVASCRIPT = Language(
    name="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    grammar="tree_sitter_javascript",
    entry="language",
    distribution="tree-sitter-javascript",
    defuse=("ecma-defuse.scm", "javascript-defuse.scm", "jsx-defuse.scm"),
    tests=("ecma-tests.scm",),
    **_COMMON,
)

TYPESCRIPT = Language(
    name="typescript",
    extensions=(".ts", ".mts", ".cts"),
    grammar="tree_sitter_typescript",
    entry="language_typescript",
    distribution="tree-sitter-typescript",
    defuse=("ecma-defuse.scm", "typescript-defuse.scm"),
    tests=("ecma-tests.scm",),
    **_COMMON,
)

TSX = Language(
    name="tsx",
    extensions=(".tsx",),
    grammar="tree_sitter_typescript",
    entry="language_tsx",
    distribution="tree-sitter-typescript",
    defuse=("ecma-defuse.scm", "typescript-defuse.scm", "jsx-defuse.scm"),
    tests=("ecma-tests.scm",),
    **_COMMON,
)
