; Definitions, uses and literals of Rust.
; Written against tree-sitter-rust 0.24.2 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.
;
; A macro's arguments are a flat token tree (`assert_eq!(w.name, "x")` is `w . name`, not a
; field expression): the names in it are uses, its literals literals.

; ---- scopes -------------------------------------------------------------------------------

(function_item name: (identifier) @scope.name) @scope.function
(function_signature_item name: (identifier) @scope.name) @scope.function
(closure_expression) @scope.function

; A type's body holds its fields, variants and method signatures; an `impl` block holds the
; methods and associated items of the type it implements (`impl Trait for Type`: Type's).
(struct_item name: (type_identifier) @scope.name) @scope.class
(union_item name: (type_identifier) @scope.name) @scope.class
(enum_item name: (type_identifier) @scope.name) @scope.class
(trait_item name: (type_identifier) @scope.name) @scope.class
(impl_item
  type: [(type_identifier) @scope.name
         (generic_type type: [(type_identifier) @scope.name
                              (scoped_type_identifier name: (type_identifier) @scope.name)])
         (scoped_type_identifier name: (type_identifier) @scope.name)]) @scope.class
(impl_item) @scope.class

; An item in a block (`const` in a function body, a block in a `const` initializer) is local.
(block) @scope.block

; ---- what yields no token -----------------------------------------------------------------

; Doc comments are comments (no node is captured in them); `#[doc = "..."]` is one too.
((attribute (identifier) @_doc value: (_) @docstring)
  (#eq? @_doc "doc"))

; ---- imports: `use` and `extern crate` (paths included), module names ----------------------

; The name an import binds by its own choice (`use a::B as C`, `extern crate a as b`).
(use_as_clause alias: (identifier) @local.binding)
(extern_crate_declaration alias: (identifier) @local.binding)
(use_declaration) @import
(extern_crate_declaration) @import
; A module's name is a file path's (`mod render;`, `mod tests { ... }`): never a definition.
(mod_item name: (identifier) @import)

; ---- definitions --------------------------------------------------------------------------

(function_item name: (identifier) @definition.function)
(function_signature_item name: (identifier) @definition.function)
(macro_definition name: (identifier) @definition.function)
(struct_item name: (type_identifier) @definition.class)
(union_item name: (type_identifier) @definition.class)
(enum_item name: (type_identifier) @definition.type)
(trait_item name: (type_identifier) @definition.type)
(type_item name: (type_identifier) @definition.type)
(associated_type name: (type_identifier) @definition.type)
(enum_variant name: (identifier) @definition.enum-member)
(field_declaration name: (field_identifier) @definition.field)
(const_item name: (identifier) @definition.constant)
(static_item (mutable_specifier) name: (identifier) @definition.variable)
(static_item name: (identifier) @definition.constant)

; Parameters (a closure's are bound under an anonymous function: local). `self` is a keyword
; (`Language.receivers`), no parameter's name.
(parameter pattern: (identifier) @definition.parameter)
(parameter pattern: [(tuple_pattern (identifier) @definition.parameter)
                     (reference_pattern (identifier) @definition.parameter)
                     (ref_pattern (identifier) @definition.parameter)
                     (mut_pattern (identifier) @definition.parameter)])
(closure_parameters (identifier) @definition.parameter)
(closure_parameters [(tuple_pattern (identifier) @definition.parameter)
                     (reference_pattern (identifier) @definition.parameter)
                     (reference_pattern (tuple_pattern (identifier) @definition.parameter))
                     (mut_pattern (identifier) @definition.parameter)])
(type_parameter name: (type_identifier) @local.type)
(const_parameter name: (identifier) @local.type)
(lifetime_parameter name: (lifetime (identifier) @local.type))

; Bindings of patterns (`let`, `if let`, `while let`, `match` arms, `for`): always local. A
; capitalized name in a pattern is a constant or variant (`None`, `Small`), never a binding.
(let_declaration pattern: (identifier) @local.variable)
(let_condition pattern: (identifier) @local.variable)
(for_expression pattern: (identifier) @local.variable)
((match_pattern (identifier) @local.variable)
  (#match? @local.variable "^[a-z_]"))
((tuple_pattern (identifier) @local.variable)
  (#match? @local.variable "^[a-z_]"))
((tuple_struct_pattern (identifier) @local.variable)
  (#match? @local.variable "^[a-z_]"))
((slice_pattern (identifier) @local.variable)
  (#match? @local.variable "^[a-z_]"))
((or_pattern (identifier) @local.variable)
  (#match? @local.variable "^[a-z_]"))
(reference_pattern (identifier) @local.variable)
(ref_pattern (identifier) @local.variable)
(mut_pattern (identifier) @local.variable)
(captured_pattern . (identifier) @local.variable)
(field_pattern name: (shorthand_field_identifier) @local.variable)
(field_pattern pattern: (identifier) @local.variable)
(label (identifier) @local.label)

; `self.x = ...` sets the type's field; any other object's is a foreign name's use.
(assignment_expression
  left: (field_expression value: (_) @member.object field: (field_identifier) @member.write))
(compound_assignment_expr
  left: (field_expression value: (_) @member.object field: (field_identifier) @member.write))

; ---- uses ---------------------------------------------------------------------------------

; A struct literal's (or struct pattern's) field: the file's own when the type named is
; declared here. Rust has no keyword arguments; these are its keyed fields. An enum
; variant's (`Size::Large { rows: 2 }`) belongs to the enum.
((struct_expression
  name: (scoped_type_identifier path: (identifier) @member.target)
  body: (field_initializer_list (field_initializer field: (field_identifier) @member.key)))
  (#match? @member.target "^[A-Z]"))
((struct_pattern
  type: (scoped_type_identifier path: (identifier) @member.target)
  (field_pattern name: (field_identifier) @member.key))
  (#match? @member.target "^[A-Z]"))
(struct_expression
  name: (_) @member.target
  body: (field_initializer_list (field_initializer field: (field_identifier) @member.key)))
(struct_pattern
  type: (_) @member.target
  (field_pattern name: (field_identifier) @member.key))

; `obj.attr` and `path::name` (the member is the access node's last name). Matching the name
; itself would keep a pending match per link of a long chain `a.b.c...`: quadratic.
(field_expression value: (_) @member.object field: (field_identifier)) @member.access
(scoped_identifier path: (_) @member.object name: (identifier)) @member.access
(scoped_type_identifier path: (_) @member.object name: (type_identifier)) @member.access

; In a macro's token tree, a name after a dot (`assert!(cfg.verify)`): a member of a value
; whose type the flat tokens do not say.
(token_tree "." . (identifier) @member.key)

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference
(shorthand_field_identifier) @reference

; ---- literals -----------------------------------------------------------------------------

(string_literal) @string
; A raw string's delimiters (`r#"`, `"#`) are no child node: its content is the literal.
(raw_string_literal (string_content) @string)
(char_literal) @string
(integer_literal) @number
(float_literal) @number
