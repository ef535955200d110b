; Test blocks, assertions and calls of pytest and unittest code.
; Written against tree-sitter-python 0.25.0 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks: `test_x`, `TestClass::test_x` ------------------------------------------

(decorated_definition
  definition: (function_definition name: (identifier) @test.name)
  (#match? @test.name "^test")) @test.case
((function_definition name: (identifier) @test.name) @test.case
  (#match? @test.name "^test"))
(class_definition name: (identifier) @test.group.name) @test.group

; A test's parameters are the fixtures it runs.
((function_definition
   name: (identifier) @_name
   parameters: (parameters
     [(identifier) @test.fixture
      (typed_parameter . (identifier) @test.fixture)
      (default_parameter name: (identifier) @test.fixture)
      (typed_default_parameter name: (identifier) @test.fixture)]))
  (#match? @_name "^test")
  ; (#not-any-of? keeps every name when given two in py-tree-sitter 0.26.1)
  (#not-match? @test.fixture "^(self|cls)$"))

; ---- assertions and expected values --------------------------------------------------------

(assert_statement) @assert
; self.assertEqual(...), self.mock.assert_called_with(...): the receiver is a name or a
; name's attribute (a pattern accepting any receiver is quadratic on long call chains).
((call
   function: (attribute
     object: [(identifier) (attribute object: (identifier))]
     attribute: (identifier) @_m)
   arguments: (_) @assert)
  (#match? @_m "^(assert|fail)"))
; mock.assert_called_with(...), mock.method.assert_any_call(...): what the code passed on
((call
   function: (attribute
     object: [(identifier) (attribute object: (identifier))]
     attribute: (identifier) @_m)
   arguments: (_) @assert.called)
  (#match? @_m "^assert_(called_with|called_once_with|any_call|has_calls)$"))
; pytest.raises(E, match=...), pytest.warns(W, match=...): only `match` is compared with
; what is raised (`message=`, gone in pytest 5, was what pytest printed when nothing was);
; pytest.approx(x) compares x. pytest.fail(msg) only prints its message.
((call
   function: (attribute object: (identifier) @_pkg attribute: (identifier) @_fn)
   arguments: (argument_list (keyword_argument name: (identifier) @_k value: (_) @assert)))
  (#eq? @_pkg "pytest")
  (#any-of? @_fn "raises" "warns")
  (#eq? @_k "match"))
((call function: (identifier) @_fn
   arguments: (argument_list (keyword_argument name: (identifier) @_k value: (_) @assert)))
  (#eq? @_fn "raises")
  (#eq? @_k "match"))
((call
   function: (attribute object: (identifier) @_pkg attribute: (identifier) @_fn)
   arguments: (_) @assert)
  (#eq? @_pkg "pytest")
  (#eq? @_fn "approx"))
((call function: (identifier) @_fn arguments: (_) @assert)
  (#eq? @_fn "approx"))

; ---- expected values built in a local: `expected = f"..."`, then asserted ---------------------
; One step of assignment through pure string building (a literal, an f-string, `%`, `+`,
; `"...".format(...)`): the literal is asserted when every later use of the local is.
(assignment
  left: (identifier) @assert.via.name
  right: [(string) (concatenated_string) (binary_operator left: (string))] @assert.via)
((assignment
  left: (identifier) @assert.via.name
  right: (call function: (attribute object: (string) attribute: (identifier) @_f)) @assert.via)
  (#eq? @_f "format"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`self.helper` -> helper).
(call function: [(identifier) (attribute)] @call)
