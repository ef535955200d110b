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
; the `want` / `expected` fields of a test table
((keyed_element
   key: (literal_element (identifier) @_key)
   value: (literal_element) @assert)
  (#match? @_key "^([Ww]ant|[Ee]xpect)"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`pkg.Func` -> Func).
(call_expression function: [(identifier) (selector_expression)] @call)
