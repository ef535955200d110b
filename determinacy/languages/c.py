"""C: a test is named by its function, as Unity, cmocka, check, greatest and libuv report it.

C has no receiver (`receivers` stays empty: a field is the file's own by its name or its
object's type). No C harness nests tests in named groups the runner reports (check's suites
and test cases are built at run time from strings), so the queries capture no `@test.group`
and `test_separator` / `test_outer_groups` never join anything: a test's name is bare.
"""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="c",
    # `.h` is read as C: a C++ header spelled `.h` parses with errors, its names still read.
    extensions=(".c", ".h"),
    grammar="tree_sitter_c",
    entry="language",
    distribution="tree-sitter-c",
    defuse=("c-defuse.scm",),
    tests=("c-tests.scm",),
    test_separator=".",
    test_outer_groups=True,
)
