; Definitions, uses and literals of Python.
; Written against tree-sitter-python 0.25.0 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.

; ---- scopes -------------------------------------------------------------------------------

(function_definition name: (identifier) @scope.name) @scope.function
(class_definition name: (identifier) @scope.name) @scope.class
(lambda) @scope.function

; The first parameter of a function written in a class body is the object it runs on.
(class_definition
  body: (block
    (function_definition
      parameters: (parameters . [(identifier) @scope.receiver
                                 (typed_parameter . (identifier) @scope.receiver)])) @scope.function))
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        parameters: (parameters . [(identifier) @scope.receiver
                                   (typed_parameter . (identifier) @scope.receiver)])) @scope.function)))

; ---- what yields no token -----------------------------------------------------------------

; A docstring: a string statement first in a module, class or function body (comments
; are nodes too, and may come before it).
(module . (comment)* . (expression_statement (string) @docstring))
(class_definition body: (block . (comment)* . (expression_statement (string) @docstring)))
(function_definition body: (block . (comment)* . (expression_statement (string) @docstring)))

; ---- imports: every name in them, module paths included ------------------------------------

; The name an import binds by its own choice (`import numpy as np`, `from m import a as b`).
(aliased_import alias: (identifier) @local.binding)
(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import

; ---- definitions --------------------------------------------------------------------------

(function_definition name: (identifier) @definition.function)
(class_definition name: (identifier) @definition.class)

; Members of an Enum subclass.
(class_definition
  superclasses: (argument_list (_) @_base)
  body: (block (expression_statement (assignment left: (identifier) @definition.enum-member)))
  (#match? @_base "(Enum|Flag)$"))

; Parameters (a lambda's are bound under an anonymous function: local).
(parameters (identifier) @definition.parameter)
(parameters (typed_parameter . (identifier) @definition.parameter))
(parameters (default_parameter name: (identifier) @definition.parameter))
(parameters (typed_default_parameter name: (identifier) @definition.parameter))
(parameters (list_splat_pattern (identifier) @definition.parameter))
(parameters (dictionary_splat_pattern (identifier) @definition.parameter))
(parameters (typed_parameter (list_splat_pattern (identifier) @definition.parameter)))
(parameters (typed_parameter (dictionary_splat_pattern (identifier) @definition.parameter)))
(lambda_parameters (identifier) @definition.parameter)
(lambda_parameters (default_parameter name: (identifier) @definition.parameter))
(lambda_parameters (list_splat_pattern (identifier) @definition.parameter))
(lambda_parameters (dictionary_splat_pattern (identifier) @definition.parameter))

; Attributes set on an object: the receiver's are the class's fields, any other is a use of
; a foreign name.
(assignment left: (attribute object: (_) @member.object attribute: (identifier) @member.write))
(assignment
  left: [(pattern_list (attribute object: (_) @member.object attribute: (identifier) @member.write))
         (tuple_pattern (attribute object: (_) @member.object attribute: (identifier) @member.write))])

; Assignments: a module's constants and variables, a class body's fields, a function's locals.
((assignment left: (identifier) @definition.constant)
  (#match? @definition.constant "^_*[A-Z][A-Z0-9_]*$"))
(assignment left: (identifier) @definition.variable)
(assignment left: [(pattern_list (identifier) @definition.variable)
                   (tuple_pattern (identifier) @definition.variable)
                   (list_pattern (identifier) @definition.variable)])
(assignment left: [(pattern_list (list_splat_pattern (identifier) @definition.variable))
                   (tuple_pattern (list_splat_pattern (identifier) @definition.variable))
                   (list_pattern (list_splat_pattern (identifier) @definition.variable))])
(named_expression name: (identifier) @definition.variable)
(for_statement left: (identifier) @definition.variable)
(for_statement left: [(pattern_list (identifier) @definition.variable)
                      (tuple_pattern (identifier) @definition.variable)])
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @definition.variable)))
(with_item value: (as_pattern alias: (as_pattern_target
  [(tuple (identifier) @definition.variable) (list (identifier) @definition.variable)])))

; Always local, wherever they are: comprehension variables and `except E as e`.
(for_in_clause left: (identifier) @local.variable)
(for_in_clause left: [(pattern_list (identifier) @local.variable)
                      (tuple_pattern (identifier) @local.variable)])
(except_clause (as_pattern alias: (as_pattern_target (identifier) @local.variable)))

; ---- uses ---------------------------------------------------------------------------------

; A keyword argument names a parameter of the callee: the file's own when the callee is.
; Callees are names up to two attributes deep (`Widget`, `self.make`, `a.b.c`); behind a
; longer chain or a call, the keyword is a foreign name's (no target: member-use). A pattern
; accepting any callee would be quadratic on long call chains.
(call
  function: [(identifier)
             (attribute object: [(identifier) (attribute object: (identifier))])] @member.target
  arguments: (argument_list (keyword_argument name: (identifier) @member.key)))
(keyword_argument name: (identifier) @member.key)

; `obj.attr` (the member is the access node's last name). Matching the name itself would
; keep a pending match per link of a long chain `a.b.c...`: quadratic.
(attribute object: (_) @member.object) @member.access

(identifier) @reference

; ---- literals -----------------------------------------------------------------------------

; A dict key (`{"compact": True}`, `**{"compact": True}`): a string that may name a keyword.
(pair key: (string) @string.key)
(string) @string
(interpolation) @interpolation
(integer) @number
(float) @number
