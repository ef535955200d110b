; Test blocks, assertions and calls of `go test` code.
; Written against tree-sitter-go 0.25.0 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks: `TestX`, and `TestX/sub name` for t.Run with a literal name -------------

((function_declaration name: (identifier) @test.name) @test.case
  (#match? @test.name "^(Test|Benchmark|Fuzz|Example)"))
((call_expression
   function: (selector_expression operand: (identifier) field: (field_identifier) @_run)
   arguments: (argument_list
     . [(interpreted_string_literal) (raw_string_literal)] @test.name
     . (_))) @test.case
  (#eq? @_run "Run"))

; ---- assertions and expected values --------------------------------------------------------

; t.Errorf(...), t.Fatal(...) (any receiver named by an identifier: t, b, tt)
((call_expression
   function: (selector_expression operand: (identifier) field: (field_identifier) @_m)
   arguments: (argument_list) @assert)
  (#any-of? @_m "Error" "Errorf" "Fatal" "Fatalf"))
; testify: assert.Equal(t, ...), require.NoError(t, ...)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg)
   arguments: (argument_list) @assert)
  (#any-of? @_pkg "assert" "require"))
; Gomega: Expect(x).To(Equal(y)), Ω(x).Should(...), Eventually(f).Should(...)
((call_expression
   function: (selector_expression
     operand: (call_expression function: (identifier) @_e)
     field: (field_identifier) @_m)
   arguments: (argument_list) @assert)
  (#any-of? @_e "Expect" "Ω" "Eventually" "Consistently")
  (#any-of? @_m "To" "ToNot" "NotTo" "Should" "ShouldNot"))
; the `want` / `expected` fields of a test table
((keyed_element
   key: (literal_element (identifier) @_key)
   value: (literal_element) @assert)
  (#match? @_key "^([Ww]ant|[Ee]xpect)"))

; ---- expected values built in a local: `msg := fmt.Sprintf(...)`, then asserted ---------------
; One step of assignment through pure string building (a literal, `+`, fmt.Sprintf/Sprint,
; fmt.Errorf, errors.New): the literal is asserted when every later use of the local is.
(short_var_declaration
  left: (expression_list . (identifier) @assert.via.name .)
  right: (expression_list .
    [(interpreted_string_literal) (raw_string_literal) (binary_expression)] @assert.via .))
((short_var_declaration
  left: (expression_list . (identifier) @assert.via.name .)
  right: (expression_list .
    (call_expression
      function: (selector_expression operand: (identifier) @_p field: (field_identifier) @_f))
    @assert.via .))
  (#any-of? @_p "fmt" "errors")
  (#any-of? @_f "Sprintf" "Sprint" "Sprintln" "Errorf" "New"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`pkg.Func` -> Func).
(call_expression function: [(identifier) (selector_expression)] @call)
