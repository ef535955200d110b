; Test blocks, assertions and calls of RSpec, Minitest and test-unit code.
; Written against tree-sitter-ruby 0.23.1 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; ---- test blocks --------------------------------------------------------------------------

; RSpec: `it "does x"` inside `describe Widget` / `context "when y"`, named as rspec prints
; its full description: the titles joined by spaces ("Widget when y does x"). A title with
; interpolation names no test a runner could report (the reader drops it).
((call
   . method: (identifier) @_fn
   arguments: (argument_list . (string) @test.name)
   block: (_)) @test.case
  (#match? @_fn "^(it|specify|example|scenario|fit|fspecify|fexample|fscenario|xit|xspecify|xexample|xscenario|focus)$"))
((call
   . method: (identifier) @_fn
   arguments: (argument_list . [(string) (constant) (scope_resolution)] @test.group.name)
   block: (_)) @test.group
  (#match? @_fn "^(describe|context|feature|example_group|fdescribe|fcontext|ffeature|xdescribe|xcontext|xfeature)$"))
((call
   . receiver: (constant) @_rspec
   . method: (identifier) @_fn
   arguments: (argument_list . [(string) (constant) (scope_resolution)] @test.group.name)
   block: (_)) @test.group
  (#eq? @_rspec "RSpec")
  (#match? @_fn "^(describe|context|feature|example_group)$"))

; Minitest and test-unit: a `test_` method of a class. Minitest reports `ClassName#test_x`,
; but one reader joins every group with one separator (a space, for RSpec), so the class is
; no group here: the block is named `test_x`, which a `ClassName#test_x` id names by its
; last part.
((class
   body: (body_statement (method name: (identifier) @test.name) @test.case))
  (#match? @test.name "^test_"))

; ---- assertions and expected values --------------------------------------------------------

; RSpec: expect(actual).to matcher(expected), expect { ... }.to raise_error(...),
; is_expected.to ..., and the matcher itself, so a literal it names is the expected value,
; not an input handed to the code (`eq("w-box")`).
((call
   receiver: (call . method: (identifier) @_e)
   method: (identifier) @_to) @assert
  (#match? @_e "^(expect|expect_any_instance_of)$")
  (#match? @_to "^(to|not_to|to_not)$"))
((call
   receiver: (call . method: (identifier) @_e)
   method: (identifier) @_to
   arguments: (argument_list (call) @assert))
  (#match? @_e "^(expect|expect_any_instance_of)$")
  (#match? @_to "^(to|not_to|to_not)$"))
; and the call a matcher chains on (`receive(:render).with(...)`: the method name)
((call
   receiver: (call . method: (identifier) @_e)
   method: (identifier) @_to
   arguments: (argument_list (call receiver: (call) @assert)))
  (#match? @_e "^(expect|expect_any_instance_of)$")
  (#match? @_to "^(to|not_to|to_not)$"))
((call
   receiver: (identifier) @_e
   method: (identifier) @_to) @assert
  (#match? @_e "^(is_expected|are_expected)$")
  (#match? @_to "^(to|not_to|to_not)$"))
((call
   receiver: (identifier) @_e
   method: (identifier) @_to
   arguments: (argument_list (call) @assert))
  (#match? @_e "^(is_expected|are_expected)$")
  (#match? @_to "^(to|not_to|to_not)$"))
; compound matchers: `eq("a").or eq("b")`
((call
   receiver: (call . method: (identifier) @_e)
   method: (identifier) @_to
   arguments: (argument_list
     (call receiver: (call) @assert method: (identifier) @_c arguments: (argument_list (call) @assert))))
  (#match? @_e "^(expect|expect_any_instance_of)$")
  (#match? @_to "^(to|not_to|to_not)$")
  (#match? @_c "^(and|or)$"))
; expect(obj).to receive(:m).with(...), have_received(:m).with(...): what the code passed on
((call
   receiver: (call . method: (identifier) @_e)
   method: (identifier) @_to
   arguments: (argument_list
     [(call receiver: (call . method: (identifier) @_r) method: (identifier) @_w
            arguments: (argument_list) @assert.called)
      (call receiver: (call receiver: (call . method: (identifier) @_r) method: (identifier) @_w
                            arguments: (argument_list) @assert.called))]))
  (#eq? @_e "expect")
  (#match? @_to "^(to|not_to|to_not)$")
  (#match? @_r "^(receive|have_received)$")
  (#eq? @_w "with"))
; Mocha: obj.expects(:m).with(...)
((call
   receiver: (call . receiver: [(identifier) (instance_variable) (constant)] . method: (identifier) @_x)
   method: (identifier) @_w
   arguments: (argument_list) @assert.called)
  (#eq? @_x "expects")
  (#eq? @_w "with"))
; the `expected` / `want` value of a `let` (`let(:expected) { "w-box" }`)
((call
   . method: (identifier) @_let
   arguments: (argument_list . (simple_symbol) @_name)
   block: [(block body: (_) @assert) (do_block body: (_) @assert)])
  (#match? @_let "^let!?$")
  (#match? @_name "^:(expected|want)"))

; Minitest / test-unit: assert_equal(expected, actual), refute_nil(x), flunk(msg), and a
; matcher helper named expect_* (RuboCop's expect_offense(<<~RUBY)).
((call !receiver method: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^(assert|refute|flunk)"))
((call !receiver method: (identifier) @_m arguments: (argument_list) @assert)
  (#match? @_m "^expect_"))
; minitest/spec: _(actual).must_equal(expected), value(x).wont_be_nil
((call
   receiver: (call . method: (identifier) @_v)
   method: (identifier) @_m) @assert
  (#match? @_v "^(_|value|expect)$")
  (#match? @_m "^(must|wont)_"))
; A heredoc an assertion names: its body follows the statement (`assert_equal <<~TEXT, out`,
; `expect_offense(<<~RUBY)`, `expect(out).to eq(<<~TEXT.chomp)`).
(_
  (call !receiver method: (identifier) @_m
        arguments: (argument_list [(heredoc_beginning) (call receiver: (heredoc_beginning))]))
  .
  (heredoc_body) @assert
  (#match? @_m "^(assert|refute|expect_)"))
(_
  (call
    receiver: (call . method: (identifier) @_e)
    method: (identifier) @_to
    arguments: (argument_list
      (call arguments: (argument_list [(heredoc_beginning) (call receiver: (heredoc_beginning))]))))
  .
  (heredoc_body) @assert
  (#eq? @_e "expect")
  (#match? @_to "^(to|not_to|to_not)$"))
; the `expected` / `want` fields of a test table: `{ input: "a", expected: "b" }`
((pair key: (hash_key_symbol) @_key value: (_) @assert)
  (#match? @_key "^(want|expected?)"))

; ---- expected values built in a local: `expected = "..."`, then asserted -------------------
; One step of assignment through pure string building (a literal, interpolation, `+`, `%`,
; format/sprintf, a heredoc): the literal is asserted when every later use of the local is.
(assignment
  left: (identifier) @assert.via.name
  right: [(string) (chained_string) (binary left: (string))] @assert.via)
((assignment
  left: (identifier) @assert.via.name
  right: (call !receiver method: (identifier) @_f) @assert.via)
  (#match? @_f "^(format|sprintf)$"))
(_
  (assignment left: (identifier) @assert.via.name right: (heredoc_beginning))
  .
  (heredoc_body) @assert.via)

; ---- calls: to reach helpers from tests -----------------------------------------------------

; The call node, whose last name is the called one (`obj.helper(x)` -> helper; a pattern
; reaching the method past its receiver would wait through a long `a.b.c...` chain); a bare
; name is a call too where a statement, a value or a receiver is (`widget = make_widget`,
; `make_widget.render`).
(call) @call
(call receiver: (identifier) @call)
(body_statement (identifier) @call)
(block_body (identifier) @call)
(assignment right: (identifier) @call)
(argument_list (identifier) @call)
