; Definitions and uses of TypeScript's own syntax: types, interfaces, enums, typed parameters.
; Written against tree-sitter-typescript 0.23.2 (its bundled queries/tags.scm and locals.scm
; named the nodes); used for both its grammars, typescript and tsx.
; Capture vocabulary: README.md beside this file.

; ---- scopes -------------------------------------------------------------------------------

(abstract_class_declaration name: (_) @scope.name) @scope.class
(interface_declaration name: (_) @scope.name) @scope.class
(enum_declaration name: (_) @scope.name) @scope.class
(type_alias_declaration name: (_) @scope.name) @scope.class
(internal_module name: (_) @scope.name) @scope.class
; A class field holding a function is a method in all but name. (Signatures have no body:
; they are declarations, not functions a test could reach.)
(public_field_definition
  name: (property_identifier) @scope.name
  value: [(arrow_function) (function_expression)] @scope.function)

; ---- definitions --------------------------------------------------------------------------

(abstract_class_declaration name: (_) @definition.class)
(interface_declaration name: (_) @definition.type)
(type_alias_declaration name: (_) @definition.type)
(enum_declaration name: (_) @definition.type)
(internal_module name: (_) @definition.type)
(function_signature name: (identifier) @definition.function)
(method_signature name: (_) @definition.method)
(abstract_method_signature name: (_) @definition.method)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @definition.field)
(property_signature name: (property_identifier) @definition.field)
(enum_body (property_identifier) @definition.enum-member)
(enum_body (enum_assignment name: (property_identifier) @definition.enum-member))
(type_parameter name: (type_identifier) @local.type)

(required_parameter pattern: (identifier) @definition.parameter)
(optional_parameter pattern: (identifier) @definition.parameter)
(required_parameter pattern: (rest_pattern (identifier) @definition.parameter))
(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @definition.parameter))
(required_parameter pattern: (object_pattern (pair_pattern value: (identifier) @definition.parameter)))
(required_parameter pattern: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @definition.parameter)))
(required_parameter pattern: (array_pattern (identifier) @definition.parameter))

; ---- uses ---------------------------------------------------------------------------------

; `obj.attr` (the member is the access node's last name). Matching the name itself would
; keep a pending match per link of a long chain `a.b.c...`: quadratic.
(nested_type_identifier module: (_) @member.object) @member.access
(type_identifier) @reference.type
(nested_identifier (identifier) @reference)
