; Definitions, uses and literals of Go.
; Written against tree-sitter-go 0.25.0 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.

; ---- scopes -------------------------------------------------------------------------------

(function_declaration name: (identifier) @scope.name) @scope.function
(func_literal) @scope.function

; A method is declared on its receiver's type, and runs on the receiver's name.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      name: (identifier)? @scope.receiver
      type: [(type_identifier) @scope.owner
             (pointer_type (type_identifier) @scope.owner)
             (generic_type type: (type_identifier) @scope.owner)
             (pointer_type (generic_type type: (type_identifier) @scope.owner))]))
  name: (field_identifier) @scope.name) @scope.function

; A named struct or interface type holds its fields and method specs.
(type_spec name: (type_identifier) @scope.name type: [(struct_type) (interface_type)]) @scope.class

; ---- imports: the package clause, import names and paths ----------------------------------

(package_clause) @import
(import_declaration) @import

; ---- definitions --------------------------------------------------------------------------

(function_declaration name: (identifier) @definition.function)
(method_declaration name: (field_identifier) @definition.method)
(method_elem name: (field_identifier) @definition.method)
(type_spec name: (type_identifier) @definition.type)
(type_alias name: (type_identifier) @definition.type)
(field_declaration name: (field_identifier) @definition.field)
(const_spec name: (identifier) @definition.constant)
(var_spec name: (identifier) @definition.variable)

; Parameters, the receiver and named results.
(parameter_declaration name: (identifier) @definition.parameter)
(variadic_parameter_declaration name: (identifier) @definition.parameter)
(type_parameter_declaration name: (identifier) @local.type)

; `:=` only binds inside a function body.
(short_var_declaration left: (expression_list (identifier) @local.variable))
(range_clause left: (expression_list (identifier) @local.variable) ":=")
(receive_statement left: (expression_list (identifier) @local.variable) ":=")
(type_switch_statement alias: (expression_list (identifier) @local.variable))
(labeled_statement label: (label_name) @local.label)

; The receiver's fields are the type's; a field set on anything else is a foreign name's use.
(assignment_statement
  left: (expression_list
    (selector_expression operand: (_) @member.object field: (field_identifier) @member.write)))

; ---- uses ---------------------------------------------------------------------------------

; A keyed literal's field: the file's own when the literal's type is declared here. The type
; is written on the literal, or on the enclosing slice/array/map literal when elided.
(composite_literal
  type: [(type_identifier) (qualified_type) (generic_type) (struct_type)] @member.target
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @member.key))))
(composite_literal
  type: [(slice_type) (array_type) (implicit_length_array_type)] @member.target
  body: (literal_value
    (literal_element
      (literal_value (keyed_element key: (literal_element (identifier) @member.key))))))
(composite_literal
  type: (map_type) @member.target
  body: (literal_value
    (keyed_element
      value: (literal_element
        (literal_value (keyed_element key: (literal_element (identifier) @member.key)))))))

; `obj.attr` (the member is the access node's last name). Matching the name itself would
; keep a pending match per link of a long chain `a.b.c...`: quadratic.
(selector_expression operand: (_) @member.object) @member.access
(qualified_type package: (package_identifier) @member.object) @member.access

(identifier) @reference
(field_identifier) @reference
(type_identifier) @reference
(package_identifier) @reference
(label_name) @reference

; ---- literals -----------------------------------------------------------------------------

(interpreted_string_literal) @string
(raw_string_literal) @string
(rune_literal) @string
(int_literal) @number
(float_literal) @number
(imaginary_literal) @number
