"""C++: GoogleTest `Suite.Name`, Catch2 / doctest titles (`title.section` for a SECTION)."""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="cpp",
    # `.h` stays C's (the registry maps an extension to one language); `.ipp`, `.tpp` and
    # `.inl` hold template definitions a header includes.
    extensions=(".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp",
                ".inl"),
    grammar="tree_sitter_cpp",
    entry="language",
    distribution="tree-sitter-cpp",
    defuse=("cpp-defuse.scm",),
    tests=("cpp-tests.scm",),
    # No `receivers`: the query reads `this->x` as a plain use of the class's own member (C++
    # declares every field in its class body, and a method defined outside it, `Widget::f`,
    # has no class scope around it for a receiver to be looked up in).
    # gtest reports `Suite.Name` (the suite is the group around the test's body); a Catch2
    # SECTION / doctest SUBCASE is joined to its TEST_CASE title with the same ".", where
    # Catch2's reporters write "/" (one separator per language).
    test_separator=".",
    test_outer_groups=True,
)
