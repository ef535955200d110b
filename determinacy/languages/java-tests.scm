; Test blocks, assertions and calls of JUnit 4/5 (and JUnit 3 `testX`) code.
; Written against tree-sitter-java 0.23.5 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks: `ClassName.methodName` ----------------------------------------------------

((method_declaration
   (modifiers [(marker_annotation name: (identifier) @_ann)
               (annotation name: (identifier) @_ann)])
   name: (identifier) @test.name) @test.case
  (#any-of? @_ann "Test" "ParameterizedTest" "RepeatedTest" "TestFactory" "TestTemplate"))
((method_declaration name: (identifier) @test.name) @test.case
  (#match? @test.name "^test"))
(class_declaration name: (identifier) @test.group.name) @test.group

; ---- assertions and expected values --------------------------------------------------------

(assert_statement) @assert
; assertEquals(...), Assertions.assertThrows(...), assertThat(actual). The anchors make a
; pattern fail at once on a long builder chain instead of waiting through it (quadratic).
((method_invocation . name: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^(assert|fail)"))
((method_invocation . object: (identifier) . name: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^(assert|fail)"))
; AssertJ / Truth: assertThat(actual).isEqualTo(expected), one or two calls down the chain
((method_invocation
   . object: (method_invocation . name: (identifier) @_m)
   arguments: (argument_list) @assert)
  (#match? @_m "^assert"))
((method_invocation
   . object: (method_invocation . object: (method_invocation . name: (identifier) @_m))
   arguments: (argument_list) @assert)
  (#match? @_m "^assert"))

; ---- expected values built in a local: `String expected = "..." + x;`, then asserted ----------
; One step of assignment through pure string building (a literal, `+`, String.format): the
; literal is asserted when every later use of the local is.
(variable_declarator
  name: (identifier) @assert.via.name
  value: [(string_literal) (binary_expression)] @assert.via)
((variable_declarator
  name: (identifier) @assert.via.name
  value: (method_invocation object: (identifier) @_o name: (identifier) @_m) @assert.via)
  (#eq? @_o "String")
  (#any-of? @_m "format" "join" "valueOf"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The invocation node, whose last name is the called one (`a.b().helper(x)` -> helper).
(method_invocation) @call
(object_creation_expression type: (type_identifier) @call)
