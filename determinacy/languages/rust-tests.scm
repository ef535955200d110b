; Test blocks, assertions and calls of `cargo test` code (libtest, tokio, rstest...).
; Written against tree-sitter-rust 0.24.2 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks: `name`, `tests::name` (the modules around it in this file) ----------------

; A function under a test attribute (`#[test]`, `#[tokio::test]`, `#[rstest]`), with any
; other attributes and comments between. The attributes are siblings before the function,
; not part of it: the block is the function alone.
((_
   (attribute_item (attribute [(identifier) @_attr
                               (scoped_identifier name: (identifier) @_attr)]))
   .
   [(attribute_item) (line_comment) (block_comment)]*
   .
   (function_item name: (identifier) @test.name) @test.case)
  (#any-of? @_attr "test" "rstest" "test_case" "bench" "wasm_bindgen_test" "quickcheck"))
(mod_item name: (identifier) @test.group.name body: (declaration_list)) @test.group

; rstest: a test's parameters name the fixtures it runs.
((_
   (attribute_item (attribute (identifier) @_rstest))
   .
   [(attribute_item) (line_comment) (block_comment)]*
   .
   (function_item parameters: (parameters (parameter pattern: (identifier) @test.fixture))))
  (#eq? @_rstest "rstest"))

; ---- assertions and expected values --------------------------------------------------------

; assert!, assert_eq!, assert_ne!, debug_assert_eq!, assert_matches!, prop_assert_eq!,
; insta's assert_snapshot!, pretty_assertions::assert_eq!. The whole invocation is the
; region: a call inside its arguments (`assert_eq!(parse(input), want)`) is then a call the
; reader sees (`@call` below), and a local handed to it the code's input.
((macro_invocation
   macro: [(identifier) @_m (scoped_identifier name: (identifier) @_m)]) @assert
  (#match? @_m "^(debug_|prop_)?assert"))
; the `want` / `expected` fields of a test table (`Case { input: "a", want: "b" }`)
((field_initializer field: (field_identifier) @_key value: (_) @assert)
  (#match? @_key "^(want|expect)"))
; #[should_panic(expected = "...")]: the panic message the test expects.
((attribute (identifier) @_sp arguments: (token_tree) @assert)
  (#eq? @_sp "should_panic"))

; ---- expected values built in a local: `let expected = format!(...)`, then asserted ---------
; One step of assignment through pure string building (a literal, `+`, format!, concat!,
; String::from, `"...".to_string()`): the literal is asserted when every later use of the
; local is.
(let_declaration
  pattern: (identifier) @assert.via.name
  value: [(string_literal) (raw_string_literal) (binary_expression)] @assert.via)
((let_declaration
  pattern: (identifier) @assert.via.name
  value: (macro_invocation macro: (identifier) @_m) @assert.via)
  (#any-of? @_m "format" "concat"))
((let_declaration
  pattern: (identifier) @assert.via.name
  value: (call_expression
    function: (scoped_identifier path: (identifier) @_t name: (identifier) @_f)) @assert.via)
  (#eq? @_t "String")
  (#eq? @_f "from"))
((let_declaration
  pattern: (identifier) @assert.via.name
  value: (call_expression
    function: (field_expression
      value: [(string_literal) (raw_string_literal)]
      field: (field_identifier) @_f)) @assert.via)
  (#any-of? @_f "to_string" "to_owned" "into"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`widget::make` -> make, `w.render` ->
; render, `parse::<T>` -> parse).
(call_expression function: [(identifier) (scoped_identifier) (field_expression)] @call)
(call_expression
  function: (generic_function function: [(identifier) (scoped_identifier) (field_expression)] @call))
(macro_invocation macro: [(identifier) (scoped_identifier)] @call)
; Inside a macro's token tree a call is a name and a parenthesized token tree
; (`assert_eq!(make_widget("a").render(), ...)`).
((token_tree (identifier) @call . (token_tree) @_args)
  (#match? @_args "^[(]"))
