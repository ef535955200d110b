; Definitions, uses and literals shared by JavaScript, TypeScript and TSX: only node types
; all three grammars have.
; Written against tree-sitter-javascript 0.25.0 and tree-sitter-typescript 0.23.2 (their
; bundled queries/tags.scm and locals.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern wins (this file comes first).

; ---- scopes -------------------------------------------------------------------------------

(function_declaration name: (identifier) @scope.name) @scope.function
(generator_function_declaration name: (identifier) @scope.name) @scope.function
(method_definition name: (_) @scope.name) @scope.function
; A function expression or arrow function is named by what it is bound to.
(variable_declarator
  name: (identifier) @scope.name
  value: [(arrow_function) (function_expression) (generator_function)] @scope.function)
(pair
  key: (property_identifier) @scope.name
  value: [(arrow_function) (function_expression) (generator_function)] @scope.function)
(assignment_expression
  left: [(identifier) @scope.name (member_expression property: (property_identifier) @scope.name)]
  right: [(arrow_function) (function_expression) (generator_function)] @scope.function)
(arrow_function) @scope.function
(function_expression) @scope.function
(generator_function) @scope.function

(class_declaration name: (_) @scope.name) @scope.class
(class name: (_) @scope.name) @scope.class
(class) @scope.class

; `let` and `const` bind per block, loop header and catch clause.
(statement_block) @scope.block
(for_statement) @scope.block
(for_in_statement) @scope.block
(catch_clause) @scope.block
(switch_body) @scope.block
(class_static_block) @scope.block

; ---- imports: every name in them and the module string ------------------------------------

; The names an import binds by its own choice (a default or namespace import, an alias).
(import_clause (identifier) @local.binding)
(namespace_import (identifier) @local.binding)
(import_specifier alias: (identifier) @local.binding)
(import_statement) @import
(export_statement (export_clause) @import source: (_))
(export_statement source: (string) @import)
((call_expression function: (identifier) @_req arguments: (arguments . (string) @import))
  (#eq? @_req "require"))
(call_expression function: (import) arguments: (arguments . (string) @import))

; ---- definitions --------------------------------------------------------------------------

(function_declaration name: (identifier) @definition.function)
(generator_function_declaration name: (identifier) @definition.function)
(class_declaration name: (_) @definition.class)
(method_definition name: [(property_identifier) (private_property_identifier)] @definition.method)
(variable_declarator
  name: (identifier) @definition.function
  value: [(arrow_function) (function_expression) (generator_function)])
(export_specifier alias: (_) @definition.variable)

; A named function or class expression's name is visible only inside it.
(function_expression name: (identifier) @local.function)
(class name: (_) @local.class)

(lexical_declaration kind: "const" (variable_declarator name: (identifier) @definition.constant))
(variable_declarator name: (identifier) @definition.variable)
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @definition.variable))
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @definition.variable)))
(variable_declarator name: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @definition.variable)))
(variable_declarator name: (object_pattern (rest_pattern (identifier) @definition.variable)))
(variable_declarator name: (array_pattern (identifier) @definition.variable))
(variable_declarator name: (array_pattern (assignment_pattern left: (identifier) @definition.variable)))

; Loop and catch variables live in their block; labels name a statement.
(for_in_statement left: (identifier) @local.variable)
(for_in_statement left: (object_pattern (shorthand_property_identifier_pattern) @local.variable))
(for_in_statement left: (array_pattern (identifier) @local.variable))
(catch_clause parameter: (identifier) @local.variable)
(labeled_statement label: (statement_identifier) @local.label)

(arrow_function parameter: (identifier) @definition.parameter)

; CommonJS exports and prototype methods are definitions, though written as assignments.
((assignment_expression
   left: (member_expression object: (identifier) @_exports property: (property_identifier) @definition.function)
   right: [(arrow_function) (function_expression) (generator_function)])
  (#eq? @_exports "exports"))
((assignment_expression
   left: (member_expression object: (identifier) @_exports property: (property_identifier) @definition.variable))
  (#eq? @_exports "exports"))
((assignment_expression
   left: (member_expression
     object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
     property: (property_identifier) @definition.variable))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
((assignment_expression
   left: (member_expression
     object: (member_expression property: (property_identifier) @_proto)
     property: (property_identifier) @definition.method))
  (#eq? @_proto "prototype"))

; `this.x = ...` declares the class's field; any other object's is a foreign name's use.
(assignment_expression
  left: (member_expression
    object: (_) @member.object
    property: [(property_identifier) (private_property_identifier)] @member.write))

; ---- uses ---------------------------------------------------------------------------------

; An object literal's key written as a bare name.
(pair key: (property_identifier) @reference.key)
(pair_pattern key: (property_identifier) @reference.key)

; `obj.attr` (the member is the access node's last name). Matching the name itself would
; keep a pending match per link of a long chain `a.b.c...`: quadratic.
(member_expression object: (_) @member.object) @member.access

(identifier) @reference
(property_identifier) @reference
(private_property_identifier) @reference
(shorthand_property_identifier) @reference
(shorthand_property_identifier_pattern) @reference
(statement_identifier) @reference

; ---- literals -----------------------------------------------------------------------------

; An object literal's quoted key (`{"retryLimit": 3}`): a string that may name a field.
(pair key: (string) @string.key)
(string) @string
(template_string) @string
(template_substitution) @interpolation
(regex pattern: (regex_pattern) @string.text)
(number) @number
