; Definitions, uses and literals of C.
; Written against tree-sitter-c 0.24.2 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.
;
; A C name is declared by the identifier a declarator chain ends in (`*name`, `name[]`,
; `(*name)(...)`): the chains below are spelled out to the depths real code uses. Nothing is
; preprocessed: a macro's body is one `preproc_arg` token, read only when it is a single
; literal or name.

; ---- scopes -------------------------------------------------------------------------------

; A function, named by its declarator (under one or two `*` when it returns a pointer).
; check's `START_TEST(name)` after an `END_TEST` parses as a function `START_TEST` whose one
; parameter is a type named `name`: the test's name, read by the next pattern.
((function_definition
   declarator: [(function_declarator declarator: (identifier) @scope.name @definition.function)
                (pointer_declarator
                  declarator: (function_declarator
                    declarator: (identifier) @scope.name @definition.function))
                (pointer_declarator
                  declarator: (pointer_declarator
                    declarator: (function_declarator
                      declarator: (identifier) @scope.name @definition.function)))]) @scope.function
  (#not-match? @scope.name "^(START_TEST|TEST_IMPL)$"))
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_macro
     parameters: (parameter_list
       . (parameter_declaration type: (type_identifier) @scope.name @definition.function
                                !declarator) .))) @scope.function
  (#any-of? @_macro "START_TEST" "TEST_IMPL"))
; A function written through a macro (`START_TEST(name) {`, libuv's `TEST_IMPL(name) {`).
(function_definition
  declarator: (parenthesized_declarator (identifier) @scope.name @definition.function)) @scope.function
(function_definition) @scope.function

; A struct or union body holds its fields: named by its tag, or by the typedef that names an
; anonymous one (`typedef struct { ... } widget_t;`).
(struct_specifier
  name: (type_identifier) @scope.name @definition.type
  body: (field_declaration_list)) @scope.class
(union_specifier
  name: (type_identifier) @scope.name @definition.type
  body: (field_declaration_list)) @scope.class
(type_definition
  type: [(struct_specifier !name body: (field_declaration_list))
         (union_specifier !name body: (field_declaration_list))] @scope.class
  declarator: (type_identifier) @scope.name)
(struct_specifier body: (field_declaration_list)) @scope.class
(union_specifier body: (field_declaration_list)) @scope.class

; ---- imports: `#include` lines, the header's path included --------------------------------

(preproc_include) @import

; ---- declarations that only refer to a definition elsewhere ------------------------------

; A prototype (`int widget_width(const widget_t *w);`) and an `extern` variable name what is
; defined in some `.c` file: a test declaring the function it calls does not define it.
(declaration
  declarator: [(function_declarator declarator: (identifier) @reference.function)
               (pointer_declarator
                 declarator: (function_declarator declarator: (identifier) @reference.function))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator
                     declarator: (identifier) @reference.function)))])
((declaration
   (storage_class_specifier) @_extern
   declarator: [(identifier) @reference.variable
                (pointer_declarator declarator: (identifier) @reference.variable)
                (array_declarator declarator: (identifier) @reference.variable)
                (pointer_declarator (array_declarator declarator: (identifier) @reference.variable))])
  (#eq? @_extern "extern"))

; ---- definitions --------------------------------------------------------------------------

(enum_specifier name: (type_identifier) @definition.type body: (enumerator_list))
; Enumerators are plain names of the enclosing scope in C (no `Kind.A`).
(enumerator name: (identifier) @definition.enum-member)
(type_definition
  declarator: [(type_identifier) @definition.type
               (pointer_declarator declarator: (type_identifier) @definition.type)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (type_identifier) @definition.type)))])

; Macros: an object-like one is a constant, a function-like one a function.
(preproc_def name: (identifier) @definition.constant)
(preproc_function_def name: (identifier) @definition.function)
(preproc_params (identifier) @local.parameter)

; Fields, through their declarator chains (`*next`, `name[16]`, `(*render)(...)`).
(field_declaration
  declarator: [(field_identifier) @definition.field
               (pointer_declarator declarator: (field_identifier) @definition.field)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (field_identifier) @definition.field))
               (array_declarator declarator: (field_identifier) @definition.field)
               (array_declarator
                 declarator: (array_declarator declarator: (field_identifier) @definition.field))
               (pointer_declarator
                 declarator: (array_declarator declarator: (field_identifier) @definition.field))
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (field_identifier) @definition.field)))])

; Parameters: a defined function's are `def` (named, not nested), a prototype's or a function
; pointer type's are local. C has no keyword arguments: crossing.POSITIONAL says whether a
; language's parameters can cross.
(parameter_declaration
  declarator: [(identifier) @definition.parameter
               (pointer_declarator declarator: (identifier) @definition.parameter)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (identifier) @definition.parameter))
               (array_declarator declarator: (identifier) @definition.parameter)
               (pointer_declarator
                 declarator: (array_declarator declarator: (identifier) @definition.parameter))
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (identifier) @definition.parameter)))])

; `const` objects are constants (`static const int limit = 3;`, `const char NAME[] = "..."`,
; `const char *const NAME = "..."`); a pointer to const data is a variable.
((declaration
   (type_qualifier) @_const
   declarator: [(identifier) @definition.constant
                (array_declarator declarator: (identifier) @definition.constant)
                (init_declarator
                  declarator: [(identifier) @definition.constant
                               (array_declarator declarator: (identifier) @definition.constant)])])
  (#eq? @_const "const"))
((declaration
   declarator: (init_declarator
     declarator: (pointer_declarator
       (type_qualifier) @_const
       declarator: [(identifier) @definition.constant
                    (array_declarator declarator: (identifier) @definition.constant)])))
  (#eq? @_const "const"))

; Variables: module-level ones are definitions, a function's are local (by scope).
(declaration
  declarator: [(identifier) @definition.variable
               (pointer_declarator declarator: (identifier) @definition.variable)
               (pointer_declarator
                 declarator: (pointer_declarator declarator: (identifier) @definition.variable))
               (array_declarator declarator: (identifier) @definition.variable)
               (pointer_declarator
                 declarator: (array_declarator declarator: (identifier) @definition.variable))
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (identifier) @definition.variable)))])
(declaration
  declarator: (init_declarator
    declarator: [(identifier) @definition.variable
                 (pointer_declarator declarator: (identifier) @definition.variable)
                 (pointer_declarator
                   declarator: (pointer_declarator declarator: (identifier) @definition.variable))
                 (array_declarator declarator: (identifier) @definition.variable)
                 (array_declarator
                   declarator: (array_declarator declarator: (identifier) @definition.variable))
                 (pointer_declarator
                   declarator: (array_declarator declarator: (identifier) @definition.variable))
                 (function_declarator
                   declarator: (parenthesized_declarator
                     (pointer_declarator declarator: (identifier) @definition.variable)))
                 (function_declarator
                   declarator: (parenthesized_declarator
                     (pointer_declarator
                       declarator: (array_declarator
                         declarator: (identifier) @definition.variable))))]))

(labeled_statement label: (statement_identifier) @local.label)

; ---- uses ---------------------------------------------------------------------------------

; A designated initializer's field (`.width = 3`): the file's own when the initialized type
; is declared here. The type is the declaration's (of one object or of an array of them) or a
; compound literal's; a nested initializer's field is a foreign name's.
(declaration
  type: (_) @member.target
  declarator: (init_declarator
    value: (initializer_list
      (initializer_pair designator: (field_designator (field_identifier) @member.key)))))
(declaration
  type: (_) @member.target
  declarator: (init_declarator
    value: (initializer_list
      (initializer_list
        (initializer_pair designator: (field_designator (field_identifier) @member.key))))))
(compound_literal_expression
  type: (type_descriptor) @member.target
  value: (initializer_list
    (initializer_pair designator: (field_designator (field_identifier) @member.key))))
(field_designator (field_identifier) @member.key)

; `obj.attr` and `ptr->attr` (the member is the access node's last name). Matching the name
; itself would keep a pending match per link of a long chain `a->b->c...`: quadratic. C has
; no receiver: a field written through any object is read as one read through it.
(field_expression argument: (_) @member.object) @member.access

(identifier) @reference
(field_identifier) @reference
(type_identifier) @reference
(statement_identifier) @reference

; ---- literals -----------------------------------------------------------------------------

; A macro whose whole body is one literal or one name (`#define PREFIX "w-"`, `#define
; WIDTH 80`, `#define widget_new widget_create`); a body followed by blanks or a comment
; keeps them in its token and is left unread.
((preproc_arg) @string
  (#match? @string "^\"([^\"\\\\\n]|\\\\.)*\"$"))
((preproc_arg) @string
  (#match? @string "^'([^'\\\\\n]|\\\\.)+'$"))
((preproc_arg) @number
  (#match? @number "^(0[xX][0-9a-fA-F]+|[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?)[uUlLfF]*$"))
((preproc_arg) @reference
  (#match? @reference "^[A-Za-z_][A-Za-z0-9_]*$"))

; Adjacent literals (`"a" "b"`) are read one by one: each is a literal of its own.
(string_literal) @string
(char_literal) @string
(number_literal) @number
