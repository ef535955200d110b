; Test blocks, assertions and calls of PHPUnit and Pest code.
; Written against tree-sitter-php 0.25.1 (entry language_php; its bundled queries/tags.scm
; named the nodes). Capture vocabulary: README.md beside this file.

; ---- test blocks: `ClassName::testMethod`, Pest `test('title')` / `it('title')` ---------------

; PHPUnit: a method named test*, one with a `#[Test]` attribute, or one whose docblock says
; `@test`, in a class.
((method_declaration name: (name) @test.name) @test.case
  (#match? @test.name "^test"))
((method_declaration
   attributes: (attribute_list (attribute_group (attribute [(name) (qualified_name)] @_ann)))
   name: (name) @test.name) @test.case
  (#match? @_ann "(^|\\\\)Test$"))
((comment) @_doc
  .
  (method_declaration name: (name) @test.name) @test.case
  (#match? @_doc "^/\\*\\*(.|\\n)*@test\\b"))
(class_declaration name: (name) @test.group.name) @test.group

; Pest: test('title', fn), it('title', fn) (also chained: `->with(...)`, `->skip()`), inside
; describe('title', fn).
((function_call_expression
   function: (name) @_fn
   arguments: (arguments . (argument [(string) (encapsed_string)] @test.name))) @test.case
  (#any-of? @_fn "test" "it"))
((function_call_expression
   function: (name) @_fn
   arguments: (arguments . (argument [(string) (encapsed_string)] @test.group.name))) @test.group
  (#eq? @_fn "describe"))

; ---- assertions and expected values --------------------------------------------------------

; $this->assertSame(...), self::assertEquals(...), Assert::assertTrue(...),
; $this->expectExceptionMessage(...), $this->fail(...), Laravel's $response->assertSee(...).
((member_call_expression name: (name) @_m arguments: (arguments) @assert)
  (#match? @_m "^(assert|expect[A-Z]|fail)"))
((nullsafe_member_call_expression name: (name) @_m arguments: (arguments) @assert)
  (#match? @_m "^(assert|expect[A-Z]|fail)"))
((scoped_call_expression name: (name) @_m arguments: (arguments) @assert)
  (#match? @_m "^(assert|expect[A-Z]|fail)"))
; assertSame(...) imported as a function, PHP's own assert(...)
((function_call_expression function: [(name) (qualified_name)] @_f arguments: (arguments) @assert)
  (#match? @_f "(^|\\\\)(assert|fail)"))
; A mock's expected call: $mock->expects(...)->method('send')->with('hello'): what the code
; passed on.
((member_call_expression
   object: (member_call_expression name: (name) @_meth)
   name: (name) @_m
   arguments: (arguments) @assert.called)
  (#eq? @_meth "method")
  (#any-of? @_m "with" "withConsecutive"))
; Pest: expect($actual) and the expectation chained on it: ->toBe(...), ->not->toBe(...),
; ->toBeString()->toContain(...). Their arguments too: a literal's call is the `arguments`
; node above its `argument`.
((function_call_expression function: (name) @_e arguments: (arguments) @assert) @assert
  (#eq? @_e "expect"))
((member_call_expression
   object: (function_call_expression function: (name) @_e)
   arguments: (arguments) @assert) @assert
  (#eq? @_e "expect"))
((member_call_expression
   object: (member_access_expression
     object: (function_call_expression function: (name) @_e))
   arguments: (arguments) @assert) @assert
  (#eq? @_e "expect"))
((member_call_expression
   object: (member_call_expression
     object: (function_call_expression function: (name) @_e))
   arguments: (arguments) @assert) @assert
  (#eq? @_e "expect"))
; the `expected` entries of a data set: ['input' => 'a', 'expected' => 'b']
((array_element_initializer
   . [(string) (encapsed_string)] @_key . "=>" . (_) @assert)
  (#match? @_key "^.([Ww]ant|[Ee]xpect)"))

; ---- expected values built in a local: `$expected = sprintf(...)`, then asserted --------------
; One step of assignment through pure string building (a literal, `.`, sprintf, implode): the
; literal is asserted when every later use of the local is.
(assignment_expression
  left: (variable_name (name) @assert.via.name)
  right: [(string) (encapsed_string) (heredoc) (nowdoc) (binary_expression)] @assert.via)
((assignment_expression
  left: (variable_name (name) @assert.via.name)
  right: (function_call_expression function: (name) @_f) @assert.via)
  (#any-of? @_f "sprintf" "vsprintf" "implode" "join" "str_repeat" "strtr" "str_replace"))

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The called name (`$this->helper()` -> helper, `\Acme\make()` -> make).
(function_call_expression function: [(name) (qualified_name)] @call)
(member_call_expression name: (name) @call)
(nullsafe_member_call_expression name: (name) @call)
(scoped_call_expression name: (name) @call)
(object_creation_expression [(name) (qualified_name)] @call)
; A data provider named by an attribute runs with the test: #[DataProvider('provideCases')]
((attribute
   (name) @_a
   parameters: (arguments . (argument (string) @call)))
  (#eq? @_a "DataProvider"))

; The arguments of every call, and each variable handed to a call that is no assertion: a
; literal or a local in them is what the code under test reads (an `argument` node stands
; between a value and its call's `arguments`). These name no function.
(function_call_expression arguments: (arguments) @call)
(member_call_expression arguments: (arguments) @call)
(nullsafe_member_call_expression arguments: (arguments) @call)
(scoped_call_expression arguments: (arguments) @call)
(object_creation_expression (arguments) @call)
((function_call_expression
   function: (_) @_f
   arguments: (arguments (argument !name (variable_name)) @call))
  (#not-match? @_f "(^|\\\\)(assert|fail|expect)"))
((member_call_expression
   name: (name) @_m
   arguments: (arguments (argument !name (variable_name)) @call))
  (#not-match? @_m "^(assert|expect[A-Z]|fail|to[A-Z]|and$|with$|withConsecutive$)"))
((nullsafe_member_call_expression
   name: (name) @_m
   arguments: (arguments (argument !name (variable_name)) @call))
  (#not-match? @_m "^(assert|expect[A-Z]|fail|to[A-Z]|and$)"))
((scoped_call_expression
   name: (name) @_m
   arguments: (arguments (argument !name (variable_name)) @call))
  (#not-match? @_m "^(assert|expect[A-Z]|fail)"))
(object_creation_expression (arguments (argument !name (variable_name)) @call))
