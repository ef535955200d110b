; Definitions, uses and literals of Java.
; Written against tree-sitter-java 0.23.5 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.

; ---- scopes -------------------------------------------------------------------------------

(class_declaration name: (identifier) @scope.name) @scope.class
(interface_declaration name: (identifier) @scope.name) @scope.class
(enum_declaration name: (identifier) @scope.name) @scope.class
(record_declaration name: (identifier) @scope.name) @scope.class
(annotation_type_declaration name: (identifier) @scope.name) @scope.class
(object_creation_expression (class_body) @scope.class)
(method_declaration name: (identifier) @scope.name) @scope.function
(constructor_declaration name: (identifier) @scope.name) @scope.function
(compact_constructor_declaration name: (identifier) @scope.name) @scope.function
(lambda_expression) @scope.function
(static_initializer) @scope.block
(class_body (block) @scope.block)

; ---- imports: the package and import declarations ------------------------------------------

(package_declaration) @import
(import_declaration) @import

; ---- definitions --------------------------------------------------------------------------

(class_declaration name: (identifier) @definition.class)
(record_declaration name: (identifier) @definition.class)
(interface_declaration name: (identifier) @definition.type)
(enum_declaration name: (identifier) @definition.type)
(annotation_type_declaration name: (identifier) @definition.type)
(method_declaration name: (identifier) @definition.method)
(annotation_type_element_declaration name: (identifier) @definition.method)
(enum_constant name: (identifier) @definition.enum-member)

; `static final` fields are constants; other fields are fields.
((field_declaration
   (modifiers) @_mods
   declarator: (variable_declarator name: (identifier) @definition.constant))
  (#match? @_mods "static")
  (#match? @_mods "final"))
(field_declaration declarator: (variable_declarator name: (identifier) @definition.field))
(constant_declaration declarator: (variable_declarator name: (identifier) @definition.constant))
; A record's components are its fields.
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @definition.field)))

(formal_parameter name: (identifier) @definition.parameter)
(spread_parameter (variable_declarator name: (identifier) @definition.parameter))
(inferred_parameters (identifier) @definition.parameter)
(lambda_expression parameters: (identifier) @definition.parameter)
(type_parameter (type_identifier) @local.type)

(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.variable))
(enhanced_for_statement name: (identifier) @local.variable)
(catch_formal_parameter name: (identifier) @local.variable)
(resource name: (identifier) @local.variable)
(instanceof_expression name: (identifier) @local.variable)
(labeled_statement (identifier) @local.label)

; `this.x = ...` declares the class's field; any other object's is a foreign name's use.
(assignment_expression
  left: (field_access object: (_) @member.object field: (identifier) @member.write))

; ---- uses ---------------------------------------------------------------------------------

; `obj.attr` (the member is the access node's last name). Matching the name itself would
; keep a pending match per link of a long chain `a.b.c...`: quadratic.
(field_access object: (_) @member.object) @member.access
(method_invocation object: (_) @member.object) @member.access

(identifier) @reference
(type_identifier) @reference

; ---- literals -----------------------------------------------------------------------------

(string_literal) @string
(character_literal) @string
(string_interpolation) @interpolation
(decimal_integer_literal) @number
(hex_integer_literal) @number
(octal_integer_literal) @number
(binary_integer_literal) @number
(decimal_floating_point_literal) @number
(hex_floating_point_literal) @number
