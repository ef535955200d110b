; Definitions, uses and literals of Ruby.
; Written against tree-sitter-ruby 0.23.1 (its bundled queries/tags.scm and locals.scm named
; the nodes). Capture vocabulary: README.md beside this file. A bare @reference loses to any
; other capture on the same node; otherwise the first pattern in this file wins.

; ---- scopes -------------------------------------------------------------------------------

(method name: [(identifier) (constant)] @scope.name) @scope.function
(method name: (setter (identifier) @scope.name)) @scope.function
(method name: (operator)) @scope.function
(singleton_method name: [(identifier) (constant)] @scope.name) @scope.function
(singleton_method name: (setter (identifier) @scope.name)) @scope.function
(lambda) @scope.function

; A module is a namespace holding methods and constants, as a class is. `class << self`
; is no scope of its own: the methods in it are the enclosing class's.
(class name: (constant) @scope.name) @scope.class
(class name: (scope_resolution name: (constant) @scope.name)) @scope.class
(module name: (constant) @scope.name) @scope.class
(module name: (scope_resolution name: (constant) @scope.name)) @scope.class

; A block is a closure: what it binds is its own. A block that is a class body written as
; a call (`Point = Struct.new(:x) do def dist ... end`, `Class.new(Base) do`, a concern's
; `included do` / `class_methods do`) holds methods of that class. The patterns are
; disjoint (a node's scope kind is set by whichever match comes first).
((call method: (_) @_m block: [(block) (do_block)] @scope.function)
  (#not-match? @_m "^(new|define|included|class_methods|prepended|class_eval|module_eval|class_exec|module_exec|concerning)$"))
((call receiver: (_) @_r method: (_) @_m block: [(block) (do_block)] @scope.function)
  (#match? @_m "^(new|define)$")
  (#not-match? @_r "^(Class|Module|Struct|Data)$"))
((call !receiver method: (_) @_m block: [(block) (do_block)] @scope.function)
  (#match? @_m "^(new|define)$"))
((assignment
   left: (constant) @scope.name
   right: (call receiver: (constant) @_r method: (identifier) @_m
                block: [(block) (do_block)] @scope.class))
  (#match? @_r "^(Class|Module|Struct|Data)$")
  (#match? @_m "^(new|define)$"))
((call receiver: (constant) @_r method: (identifier) @_m block: [(block) (do_block)] @scope.class)
  (#match? @_r "^(Class|Module|Struct|Data)$")
  (#match? @_m "^(new|define)$"))
((call method: (identifier) @_m block: [(block) (do_block)] @scope.class)
  (#match? @_m "^(included|class_methods|prepended|class_eval|module_eval|class_exec|module_exec|concerning)$"))

; ---- imports: require, require_relative, load and autoload with their paths ---------------

((call !receiver method: (identifier) @_req arguments: (argument_list (string))) @import
  (#match? @_req "^(require|require_relative|load|autoload)$"))

; ---- definitions --------------------------------------------------------------------------

(class name: (constant) @definition.class)
(class name: (scope_resolution name: (constant) @definition.class))
(module name: (constant) @definition.type)
(module name: (scope_resolution name: (constant) @definition.type))
; `def` in a class body is a method (the generic reader turns a class's function into one);
; `def self.x` is the class's too; a setter `def name=(v)` defines the attribute `name`.
(method name: [(identifier) (constant)] @definition.function)
(method name: (setter (identifier) @definition.function))
(singleton_method name: [(identifier) (constant)] @definition.function)
(singleton_method name: (setter (identifier) @definition.function))
(alias name: (identifier) @definition.function)

; Constants belong to the module or class around them (a method cannot assign one).
(assignment left: (constant) @definition.constant)
(assignment left: (scope_resolution name: (constant) @definition.constant))
(operator_assignment left: (constant) @definition.constant)
(left_assignment_list (constant) @definition.constant)
(assignment left: (global_variable) @definition.variable)

; Parameters: only a keyword parameter (`def f(name:)`) is named by callers (`f(name: 1)`);
; a positional one, a splat or a block's parameter is the method's own.
(method_parameters (keyword_parameter name: (identifier) @definition.parameter))
(method_parameters (identifier) @local.parameter)
(method_parameters (optional_parameter name: (identifier) @local.parameter))
(method_parameters (splat_parameter name: (identifier) @local.parameter))
(method_parameters (hash_splat_parameter name: (identifier) @local.parameter))
(method_parameters (block_parameter name: (identifier) @local.parameter))
(method_parameters (destructured_parameter (identifier) @local.parameter))
(block_parameters (identifier) @local.parameter)
(block_parameters (optional_parameter name: (identifier) @local.parameter))
(block_parameters (keyword_parameter name: (identifier) @local.parameter))
(block_parameters (splat_parameter name: (identifier) @local.parameter))
(block_parameters (hash_splat_parameter name: (identifier) @local.parameter))
(block_parameters (block_parameter name: (identifier) @local.parameter))
(block_parameters (destructured_parameter (identifier) @local.parameter))
(lambda_parameters (identifier) @local.parameter)
(lambda_parameters (optional_parameter name: (identifier) @local.parameter))
(lambda_parameters (keyword_parameter name: (identifier) @local.parameter))
(lambda_parameters (splat_parameter name: (identifier) @local.parameter))

; `self.name = ...` calls the class's writer: a field of the class; on any other object, a
; foreign name's use.
(assignment left: (call receiver: (_) @member.object method: (identifier) @member.write))
(operator_assignment left: (call receiver: (_) @member.object method: (identifier) @member.write))
(left_assignment_list (call receiver: (_) @member.object method: (identifier) @member.write))

; Local variables: a file's top-level variables are that file's alone (another file's
; `require` does not see them), so every assigned lowercase name is local. Instance and class
; variables are the object's private state, which no caller spells.
(assignment left: (identifier) @local.variable)
(operator_assignment left: (identifier) @local.variable)
(left_assignment_list (identifier) @local.variable)
(left_assignment_list (rest_assignment (identifier) @local.variable))
(destructured_left_assignment (identifier) @local.variable)
(assignment left: [(instance_variable) (class_variable)] @local.variable)
(operator_assignment left: [(instance_variable) (class_variable)] @local.variable)
(left_assignment_list [(instance_variable) (class_variable)] @local.variable)
(for pattern: (identifier) @local.variable)
(for pattern: (left_assignment_list (identifier) @local.variable))
(exception_variable (identifier) @local.variable)
; Pattern matching (`in [a, *rest]`, `in {name:}`, `in Integer => n`).
(in_clause pattern: (identifier) @local.variable)
(as_pattern name: (identifier) @local.variable)
(array_pattern (identifier) @local.variable)
(array_pattern (splat_parameter name: (identifier) @local.variable))
(find_pattern (identifier) @local.variable)
(keyword_pattern key: (hash_key_symbol) @local.variable !value)

; ---- uses ---------------------------------------------------------------------------------

; A keyword argument names a keyword parameter of the callee: `Widget.new(name: ...)` one of
; Widget's `initialize`, `render(width: 3)` one of `render`. Written as `:name => 1` it is a
; symbol (a literal).
((call receiver: (_) @member.target method: (identifier) @_new
       arguments: (argument_list (pair key: (hash_key_symbol) @member.key)))
  (#eq? @_new "new"))
(call method: (_) @member.target arguments: (argument_list (pair key: (hash_key_symbol) @member.key)))
; A hash literal's bare key (`{ name: 1 }`) and a hash pattern's key.
(pair key: (hash_key_symbol) @reference.key)
(keyword_pattern key: (hash_key_symbol) @reference.key)

; `obj.attr` and `Mod::Name` (the member is the node's last name). Matching the name itself
; would keep a pending match per link of a long chain `a.b.c...`: quadratic.
(call receiver: (_) @member.object) @member.access
(scope_resolution scope: (_) @member.object) @member.access

(identifier) @reference
(constant) @reference
(instance_variable) @reference
(class_variable) @reference
(global_variable) @reference

; ---- literals -----------------------------------------------------------------------------

; A hash's quoted key (`{ "retry_limit" => 3 }`, `{ "k": 1 }`): a string that may name a key.
(pair key: (string) @string.key)
; Quoted strings; a percent literal (`%q(...)`, `%(...)`) opens with no quote, so its text
; is read without its delimiters.
((string) @string
  (#not-match? @string "^%"))
((string (string_content) @string.text) @_percent
  (#match? @_percent "^%"))
; A heredoc's text (its body follows the line that opens it), read without its indent and
; terminator line; interpolation splits it into its fixed pieces.
(heredoc_body (heredoc_content) @string.text)
; Words of `%w[...]` and `%i[...]`.
(bare_string) @string
(bare_symbol) @string
; Symbols (`:ok`, `:"a b"`) are literals, read with their colon.
(simple_symbol) @string
(delimited_symbol) @string
(regex (string_content) @string.text)
(interpolation) @interpolation
(integer) @number
(float) @number
