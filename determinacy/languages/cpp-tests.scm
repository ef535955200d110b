; Test blocks, assertions and calls of GoogleTest, Catch2, doctest and Boost.Test code.
; Written against tree-sitter-cpp 0.23.4 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks ----------------------------------------------------------------------------

; GoogleTest: `TEST(Suite, Name) { ... }` (and TEST_F, TEST_P, typed tests) parses as a
; function named by the macro; gtest reports it as `Suite.Name`: the suite is a group around
; the body.
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_m
     parameters: (parameter_list
       . (parameter_declaration type: (_) @test.group.name)
       . (parameter_declaration type: (_) @test.name) .))
   body: (compound_statement) @test.case) @test.group
  (#any-of? @_m "TEST" "TEST_F" "TEST_P" "TYPED_TEST" "TYPED_TEST_P" "GTEST_TEST"))
; Boost.Test: `BOOST_AUTO_TEST_CASE(name) { ... }`, `BOOST_FIXTURE_TEST_CASE(name, F)`.
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_m
     parameters: (parameter_list . (parameter_declaration type: (_) @test.name)))
   body: (compound_statement) @test.case)
  (#any-of? @_m "BOOST_AUTO_TEST_CASE" "BOOST_FIXTURE_TEST_CASE"))

; Catch2 and doctest: `TEST_CASE("title", "[tags]") { ... }` parses as a call and the block
; after it (the grammar inserts the `;` it misses); a SECTION / SUBCASE inside is a case
; nested in its test case.
((_
   (expression_statement
     (call_expression
       function: (identifier) @_m
       arguments: (argument_list . (string_literal) @test.name)))
   .
   (compound_statement) @test.case)
  (#any-of? @_m "TEST_CASE" "SECTION" "SUBCASE" "TEMPLATE_TEST_CASE" "TEST_CASE_TEMPLATE"))
((_
   (expression_statement
     (call_expression
       function: (identifier) @_m
       arguments: (argument_list . (_) . (string_literal) @test.name)))
   .
   (compound_statement) @test.case)
  (#any-of? @_m "TEST_CASE_METHOD" "TEST_CASE_FIXTURE"))

; ---- assertions and expected values --------------------------------------------------------

; GoogleTest EXPECT_* / ASSERT_*, Catch2 and doctest REQUIRE / CHECK (and their _EQ, _THAT,
; _THROWS_WITH, ... forms), Boost BOOST_CHECK* / BOOST_REQUIRE* / BOOST_TEST, `assert(...)`.
((call_expression function: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^(EXPECT_[A-Z_0-9]+|ASSERT_[A-Z_0-9]+|(REQUIRE|CHECK|WARN|STATIC_REQUIRE|STATIC_CHECK|FAST_CHECK|FAST_REQUIRE)(_[A-Z_]+)?|BOOST_(CHECK|REQUIRE|WARN|TEST)[A-Z_]*|FAIL|FAIL_CHECK|ADD_FAILURE|ADD_FAILURE_AT|GTEST_FAIL|assert)$"))
(static_assert_declaration) @assert
; The failure message streamed after one: `EXPECT_EQ(a, b) << "for " << input;`, `FAIL() << ...`
((binary_expression
   left: (call_expression function: (identifier) @_m)
   operator: "<<") @assert
  (#match? @_m "^(EXPECT_[A-Z_0-9]+|ASSERT_[A-Z_0-9]+|FAIL|ADD_FAILURE|ADD_FAILURE_AT|GTEST_FAIL)$"))
((binary_expression
   left: (binary_expression
     left: (call_expression function: (identifier) @_m)
     operator: "<<")
   operator: "<<") @assert
  (#match? @_m "^(EXPECT_[A-Z_0-9]+|ASSERT_[A-Z_0-9]+|FAIL|ADD_FAILURE|ADD_FAILURE_AT|GTEST_FAIL)$"))
((binary_expression
   left: (binary_expression
     left: (binary_expression
       left: (call_expression function: (identifier) @_m)
       operator: "<<")
     operator: "<<")
   operator: "<<") @assert
  (#match? @_m "^(EXPECT_[A-Z_0-9]+|ASSERT_[A-Z_0-9]+|FAIL|ADD_FAILURE|ADD_FAILURE_AT|GTEST_FAIL)$"))
; gMock: EXPECT_CALL(mock, Method(args)) checks what the code passed on.
((call_expression function: (identifier) @_m arguments: (argument_list) @assert.called)
  (#eq? @_m "EXPECT_CALL"))

; ---- expected values built in a local: `std::string expected = "...";`, then asserted -------
; One step of assignment through pure string building (a literal, `+`, `std::string("...")`,
; fmt::format / std::format / absl::StrCat / absl::StrFormat / std::to_string): the literal
; is asserted when every later use of the local is.
(init_declarator
  declarator: (identifier) @assert.via.name
  value: [(string_literal) (raw_string_literal) (concatenated_string) (user_defined_literal)
          (binary_expression)] @assert.via)
(init_declarator
  declarator: (identifier) @assert.via.name
  value: [(argument_list . [(string_literal) (raw_string_literal)] .)
          (initializer_list . [(string_literal) (raw_string_literal)] .)] @assert.via)
((init_declarator
  declarator: (identifier) @assert.via.name
  value: (call_expression
    function: (qualified_identifier scope: (namespace_identifier) @_ns name: (identifier) @_f))
  @assert.via)
  (#any-of? @_ns "fmt" "std" "absl")
  (#any-of? @_f "format" "to_string" "string" "StrCat" "StrFormat" "Substitute"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`w.render` -> render, `acme::f` -> f);
; behind two qualifiers the name itself (`acme::ui::f` -> f).
(call_expression
  function: [(identifier) (field_expression) (qualified_identifier) (template_function)] @call)
(call_expression
  function: (qualified_identifier name: [(qualified_identifier name: (identifier) @call)
                                         (template_function name: (identifier) @call)]))
; A test that builds an object of a type (`FakeClock clock;`, `new FakeClock(...)`) runs its
; methods.
(declaration type: [(type_identifier) (template_type name: (type_identifier))] @call)
(new_expression type: [(type_identifier) (template_type name: (type_identifier))] @call)
(compound_literal_expression type: (type_identifier) @call)
