; Test blocks, assertions and calls of Jest, Mocha, Vitest, node:test and ospec code, in
; JavaScript, TypeScript and TSX.
; Written against tree-sitter-javascript 0.25.0 and tree-sitter-typescript 0.23.2.
; Capture vocabulary: README.md beside this file.

; ---- test blocks: it()/test() titles inside describe() titles --------------------------------

((call_expression
   function: [(identifier) @_fn (member_expression object: (identifier) @_fn)]
   arguments: (arguments . [(string) (template_string)] @test.name)) @test.case
  (#any-of? @_fn "it" "test" "specify" "xit" "fit"))
; test.each(table)("title %s", fn)
((call_expression
   function: (call_expression
     function: (member_expression object: (identifier) @_fn property: (property_identifier) @_each))
   arguments: (arguments . [(string) (template_string)] @test.name)) @test.case
  (#any-of? @_fn "it" "test")
  (#eq? @_each "each"))
((call_expression
   function: [(identifier) @_fn (member_expression object: (identifier) @_fn)]
   arguments: (arguments . [(string) (template_string)] @test.group.name)) @test.group
  (#any-of? @_fn "describe" "context" "suite" "xdescribe" "fdescribe"))
; ospec: o.spec("group", fn) and o("title", fn) (a title then a function: `o(value)` alone
; is an assertion's subject)
((call_expression
   function: (member_expression object: (identifier) @_o property: (property_identifier) @_spec)
   arguments: (arguments . [(string) (template_string)] @test.group.name)) @test.group
  (#eq? @_o "o")
  (#eq? @_spec "spec"))
((call_expression
   function: (identifier) @_o
   arguments: (arguments . [(string) (template_string)] @test.name
                         . [(function_expression) (arrow_function)])) @test.case
  (#eq? @_o "o"))

; ---- assertions and expected values --------------------------------------------------------

; expect(actual) and the matcher chained on it: .toBe(expected), .not.toEqual(...),
; chai's .to.deep.equal(...)
((call_expression function: (identifier) @_e) @assert
  (#eq? @_e "expect"))
((call_expression
   function: (member_expression
     object: (call_expression function: (identifier) @_e))) @assert
  (#eq? @_e "expect"))
((call_expression
   function: (member_expression
     object: (member_expression
       object: (call_expression function: (identifier) @_e)))) @assert
  (#eq? @_e "expect"))
((call_expression
   function: (member_expression
     object: (member_expression
       object: (member_expression
         object: (call_expression function: (identifier) @_e))))) @assert
  (#eq? @_e "expect"))
; expect(fn).toHaveBeenCalledWith(...) and its kin: what the code passed on
((call_expression
   function: (member_expression
     object: (call_expression function: (identifier) @_e)
     property: (property_identifier) @_m)
   arguments: (arguments) @assert.called)
  (#eq? @_e "expect")
  (#match? @_m "^(toHaveBeenCalledWith|toHaveBeenLastCalledWith|toHaveBeenNthCalledWith|toBeCalledWith|lastCalledWith|nthCalledWith|calledWith)$"))
; ospec: o(actual).equals(expected), .deepEquals(...), .notEquals(...), .throws(...)
((call_expression
   function: (member_expression
     object: (call_expression function: (identifier) @_o))) @assert
  (#eq? @_o "o"))
; assert(x), assert.equal(a, b), assert.strictEqual(...), assert.deepEqual(...)
((call_expression
   function: [(identifier) @_a (member_expression object: (identifier) @_a)]) @assert
  (#eq? @_a "assert"))
; the `want` / `expected` fields of a test table
((pair key: (property_identifier) @_key value: (_) @assert)
  (#match? @_key "^([Ww]ant|[Ee]xpect)"))

; ---- expected values built in a local: `const expected = `...``, then asserted -----------------
; One step of assignment through pure string building (a literal, a template, `+`): the
; literal is asserted when every later use of the local is.
(variable_declarator
  name: (identifier) @assert.via.name
  value: [(string) (template_string) (binary_expression)] @assert.via)

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The callee node, whose last name is the called one (`this.helper` -> helper).
(call_expression function: [(identifier) (member_expression)] @call)
(new_expression constructor: [(identifier) (member_expression)] @call)
