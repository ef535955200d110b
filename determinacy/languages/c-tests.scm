; Test blocks, assertions and calls of C test code: Unity, cmocka, check, greatest, libuv,
; CUnit, acutest and plain `assert`.
; Written against tree-sitter-c 0.24.2 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks: the test function's name, as the harnesses report it ----------------------

; `void test_x(void)` (Unity, acutest, Redis's unit tests), `testX`, CuTest's `TestX`.
((function_definition
   declarator: [(function_declarator declarator: (identifier) @test.name)
                (pointer_declarator
                  declarator: (function_declarator declarator: (identifier) @test.name))]) @test.case
  (#match? @test.name "^([Tt]est_|test[A-Z0-9]|Test[A-Z])"))
; cmocka: `static void name(void **state)`, listed by `cmocka_unit_test(name)` (its setup
; and teardown functions take the same parameter).
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @test.name
     parameters: (parameter_list
       . (parameter_declaration
           type: (primitive_type) @_void
           declarator: (pointer_declarator
             declarator: (pointer_declarator declarator: (identifier) @_state))) .))) @test.case
  (#eq? @_void "void")
  (#eq? @_state "state")
  (#not-match? @test.name "[Ss]et_?[Uu]p|[Tt]ear_?[Dd]own"))
; greatest: `TEST name(void)`.
((function_definition
   type: (type_identifier) @_macro
   declarator: (function_declarator declarator: (identifier) @test.name)) @test.case
  (#eq? @_macro "TEST"))
; check: `START_TEST(name) { ... } END_TEST`; libuv: `TEST_IMPL(name) { ... }`. After an
; `END_TEST` the grammar reads `START_TEST` as a function and `name` as its parameter's type.
((function_definition
   type: (type_identifier) @_macro
   declarator: (parenthesized_declarator (identifier) @test.name)) @test.case
  (#any-of? @_macro "START_TEST" "TEST_IMPL"))
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_macro
     parameters: (parameter_list
       . (parameter_declaration type: (type_identifier) @test.name !declarator) .))) @test.case
  (#any-of? @_macro "START_TEST" "TEST_IMPL"))

; ---- assertions and expected values --------------------------------------------------------

; assert(x), Unity's TEST_ASSERT_EQUAL_STRING(...), cmocka's assert_int_equal(...), check's
; ck_assert_str_eq(...), libuv/greatest ASSERT_EQ(...), CUnit, munit, GLib, criterion,
; tinytest, Zephyr.
((call_expression function: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^(assert|ASSERT|TEST_(ASSERT|CHECK|EXPECT|FAIL)|ck_assert|ck_abort|fail_unless|fail_if|CU_(ASSERT|FAIL)|munit_assert|g_assert|cr_(assert|expect)|tt_(assert|want|int_op|uint_op|str_op|mem_op|ptr_op|fail)|zassert|EXPECT_)"))
; String equality is a comparison (`strcmp(got, "x") == 0`, `0 != memcmp(...)`,
; `!strcmp(got, want)`), as `got != want` is (`_extract._compared`). Wherever it is: the
; region cannot ask for a test function around it at any depth.
((binary_expression
   left: (call_expression function: (identifier) @_f arguments: (argument_list) @assert)
   operator: ["==" "!="])
  (#match? @_f "^(strn?cmp|strn?casecmp|memcmp|wcscmp|streq)$"))
((binary_expression
   operator: ["==" "!="]
   right: (call_expression function: (identifier) @_f arguments: (argument_list) @assert))
  (#match? @_f "^(strn?cmp|strn?casecmp|memcmp|wcscmp|streq)$"))
((unary_expression
   operator: "!"
   argument: (call_expression function: (identifier) @_f arguments: (argument_list) @assert))
  (#match? @_f "^(strn?cmp|strn?casecmp|memcmp|wcscmp|streq)$"))
; cmocka's expect_string(mock, param, "x"), expect_value(...): what the code passes on.
((call_expression function: (identifier) @_m arguments: (argument_list) @assert.called)
  (#match? @_m "^expect_(not_)?(value|string|memory|any|check|in_range|in_set)(_count)?$"))

; ---- expected values built in a local: `const char *want = "..."`, then asserted ------------
; One step of pure string building (a literal, adjacent literals, `sprintf`/`snprintf`/
; `strcpy` into the local): the literal is asserted when every later use of the local is.
(init_declarator
  declarator: [(identifier) @assert.via.name
               (pointer_declarator declarator: (identifier) @assert.via.name)
               (array_declarator declarator: (identifier) @assert.via.name)]
  value: [(string_literal) (concatenated_string)] @assert.via)
((call_expression
   function: (identifier) @_f
   arguments: (argument_list . (identifier) @assert.via.name)) @assert.via
  (#any-of? @_f "sprintf" "snprintf" "strcpy" "strncpy"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`ops->render` -> render).
(call_expression function: [(identifier) (field_expression)] @call)
