; Definitions, uses and literals of C++.
; Written against tree-sitter-cpp 0.23.4 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file. A bare @reference loses to any other
; capture on the same node; otherwise the first pattern in this file wins.

; ---- scopes -------------------------------------------------------------------------------

; Every function body is a scope (a destructor, an operator, a test macro's body too); the
; patterns after this one name it.
(function_definition) @scope.function
(lambda_expression) @scope.function

; A free function, or a method written in its class body (its name is a field_identifier
; there). A test macro (`TEST(Suite, Name) { ... }`, below) parses as a function named by the
; macro: its scope is named by the test instead.
((function_definition
   declarator: [(function_declarator declarator: (identifier) @scope.name)
                (pointer_declarator declarator: (function_declarator declarator: (identifier) @scope.name))
                (reference_declarator (function_declarator declarator: (identifier) @scope.name))]) @scope.function
  (#not-match? @scope.name "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|GTEST_TEST|BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE)$"))
(function_definition
  declarator: [(function_declarator declarator: (field_identifier) @scope.name)
               (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @scope.name))
               (reference_declarator (function_declarator declarator: (field_identifier) @scope.name))]) @scope.function
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_m
     parameters: (parameter_list . (parameter_declaration) . (parameter_declaration type: (_) @scope.name) .))) @scope.function
  (#any-of? @_m "TEST" "TEST_F" "TEST_P" "TYPED_TEST" "TYPED_TEST_P" "GTEST_TEST"))
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @_m
     parameters: (parameter_list . (parameter_declaration type: (_) @scope.name)))) @scope.function
  (#any-of? @_m "BOOST_AUTO_TEST_CASE" "BOOST_FIXTURE_TEST_CASE"))

; A method defined outside its class (`std::string Widget::render() const {`) is declared on
; the class, as a Go method on its receiver's type; a constructor (`Widget::Widget`) is named
; by the class and declares nothing.
((function_definition
   declarator: [(function_declarator
                  declarator: (qualified_identifier
                    scope: [(namespace_identifier) @scope.owner
                            (template_type name: (type_identifier) @scope.owner)]
                    name: (identifier) @scope.name))
                (pointer_declarator declarator: (function_declarator
                  declarator: (qualified_identifier
                    scope: [(namespace_identifier) @scope.owner
                            (template_type name: (type_identifier) @scope.owner)]
                    name: (identifier) @scope.name)))
                (reference_declarator (function_declarator
                  declarator: (qualified_identifier
                    scope: [(namespace_identifier) @scope.owner
                            (template_type name: (type_identifier) @scope.owner)]
                    name: (identifier) @scope.name)))]) @scope.function
  (#not-eq? @scope.owner @scope.name))
((function_definition
   declarator: (function_declarator
     declarator: (qualified_identifier
       name: (qualified_identifier
         scope: [(namespace_identifier) @scope.owner
                 (template_type name: (type_identifier) @scope.owner)]
         name: (identifier) @scope.name)))) @scope.function
  (#not-eq? @scope.owner @scope.name))
((function_definition
   declarator: (function_declarator
     declarator: (qualified_identifier
       scope: [(namespace_identifier) @_owner (template_type name: (type_identifier) @_owner)]
       name: (identifier) @scope.name))) @scope.function
  (#eq? @_owner @scope.name))

; A Catch2 / doctest test case (`TEST_CASE("title") { ... }`) parses as a call, then a block
; at file or namespace level: that block is a test's body, whose names are its own.
(translation_unit (compound_statement) @scope.function)
(declaration_list (compound_statement) @scope.function)
(preproc_if (compound_statement) @scope.function)
(preproc_ifdef (compound_statement) @scope.function)
(preproc_else (compound_statement) @scope.function)
(preproc_elif (compound_statement) @scope.function)

; A named class, struct, union or enum holds its members.
(class_specifier name: (type_identifier) @scope.name body: (field_declaration_list)) @scope.class
(struct_specifier name: (type_identifier) @scope.name body: (field_declaration_list)) @scope.class
(union_specifier name: (type_identifier) @scope.name body: (field_declaration_list)) @scope.class
(class_specifier name: (template_type name: (type_identifier) @scope.name) body: (field_declaration_list)) @scope.class
(struct_specifier name: (template_type name: (type_identifier) @scope.name) body: (field_declaration_list)) @scope.class
(enum_specifier name: (type_identifier) @scope.name body: (enumerator_list)) @scope.class
(class_specifier body: (field_declaration_list)) @scope.class
(struct_specifier body: (field_declaration_list)) @scope.class
(union_specifier body: (field_declaration_list)) @scope.class

; ---- what yields no token -----------------------------------------------------------------

; A test macro's head (`TEST(Suite, Name)`, `BOOST_AUTO_TEST_CASE(name)`): the names a runner
; reports, no name of the code (the tests query reads them).
((function_definition
   declarator: (function_declarator declarator: (identifier) @_m) @docstring)
  (#any-of? @_m "TEST" "TEST_F" "TEST_P" "TYPED_TEST" "TYPED_TEST_P" "GTEST_TEST"
                "BOOST_AUTO_TEST_CASE" "BOOST_FIXTURE_TEST_CASE"))

; ---- imports: includes, using-declarations and directives, namespace names ----------------

(preproc_include) @import
(using_declaration) @import
; `namespace fs = std::filesystem;` binds a name of the importer's choice.
(namespace_alias_definition name: (namespace_identifier) @local.binding)
(namespace_alias_definition) @import
; A namespace is a package: its name never certifies.
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @import)

; ---- definitions --------------------------------------------------------------------------

; A constructor declared in its class body is named by the class: a use of it.
(field_declaration_list
  (declaration declarator: (function_declarator declarator: (identifier) @reference.class)))
(field_declaration_list
  (function_definition declarator: (function_declarator declarator: (identifier) @reference.class)))

; Functions: defined or declared (a header's prototype), at namespace level or in a class.
(function_definition
  declarator: [(function_declarator declarator: [(identifier) (field_identifier)] @definition.function)
               (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @definition.function))
               (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @definition.function))])
(declaration
  declarator: [(function_declarator declarator: (identifier) @definition.function)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @definition.function))
               (reference_declarator (function_declarator declarator: (identifier) @definition.function))])
(field_declaration
  declarator: [(function_declarator declarator: (field_identifier) @definition.method)
               (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @definition.method))
               (reference_declarator (function_declarator declarator: (field_identifier) @definition.method))])
; A method defined outside its class (the scope patterns give its class as the owner).
((function_declarator
   declarator: (qualified_identifier
     scope: [(namespace_identifier) @_owner (template_type name: (type_identifier) @_owner)]
     name: (identifier) @definition.method))
  (#not-eq? @_owner @definition.method))
((function_declarator
   declarator: (qualified_identifier
     name: (qualified_identifier
       scope: [(namespace_identifier) @_owner (template_type name: (type_identifier) @_owner)]
       name: (identifier) @definition.method)))
  (#not-eq? @_owner @definition.method))

; Macros: `#define NAME value` is a constant, `#define NAME(x) ...` a function.
(preproc_def name: (identifier) @definition.constant)
(preproc_function_def name: (identifier) @definition.function)
(preproc_params (identifier) @local.parameter)

; Types and their members.
(class_specifier name: (type_identifier) @definition.class body: (_))
(struct_specifier name: (type_identifier) @definition.class body: (_))
(union_specifier name: (type_identifier) @definition.class body: (_))
(enum_specifier name: (type_identifier) @definition.type body: (_))
(type_definition declarator: (type_identifier) @definition.type)
(alias_declaration name: (type_identifier) @definition.type)
(concept_definition name: (identifier) @definition.type)
(enumerator name: (identifier) @definition.enum-member)

; `static constexpr` and `static const` members, and `const` / `constexpr` variables, are
; constants; other members are fields.
((field_declaration (type_qualifier) @_q
   declarator: [(field_identifier) @definition.constant
                (pointer_declarator declarator: (field_identifier) @definition.constant)
                (array_declarator declarator: (field_identifier) @definition.constant)])
  (#any-of? @_q "constexpr" "constinit"))
((field_declaration (storage_class_specifier) @_s (type_qualifier) @_q
   declarator: [(field_identifier) @definition.constant
                (pointer_declarator declarator: (field_identifier) @definition.constant)
                (array_declarator declarator: (field_identifier) @definition.constant)])
  (#eq? @_s "static")
  (#eq? @_q "const"))
(field_declaration
  declarator: [(field_identifier) @definition.field
               (pointer_declarator declarator: (field_identifier) @definition.field)
               (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @definition.field))
               (reference_declarator (field_identifier) @definition.field)
               (array_declarator declarator: (field_identifier) @definition.field)])

((declaration (type_qualifier) @_q
   declarator: (init_declarator
     declarator: [(identifier) @definition.constant
                  (pointer_declarator declarator: (identifier) @definition.constant)
                  (reference_declarator (identifier) @definition.constant)
                  (array_declarator declarator: (identifier) @definition.constant)]))
  (#any-of? @_q "const" "constexpr" "constinit"))

; Variables: at namespace level they cross; in a function or a block they are local.
(declaration
  declarator: (init_declarator
    declarator: [(identifier) @definition.variable
                 (pointer_declarator declarator: (identifier) @definition.variable)
                 (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @definition.variable))
                 (reference_declarator (identifier) @definition.variable)
                 (array_declarator declarator: (identifier) @definition.variable)
                 (structured_binding_declarator (identifier) @definition.variable)]))
(declaration
  declarator: [(identifier) @definition.variable
               (pointer_declarator declarator: (identifier) @definition.variable)
               (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @definition.variable))
               (reference_declarator (identifier) @definition.variable)
               (array_declarator declarator: (identifier) @definition.variable)])

; Always local: loop, catch and lambda-capture variables, labels, template parameters.
(for_range_loop
  declarator: [(identifier) @local.variable
               (pointer_declarator declarator: (identifier) @local.variable)
               (reference_declarator (identifier) @local.variable)
               (structured_binding_declarator (identifier) @local.variable)
               (reference_declarator (structured_binding_declarator (identifier) @local.variable))])
(catch_clause
  parameters: (parameter_list
    (parameter_declaration
      declarator: [(identifier) @local.variable
                   (pointer_declarator declarator: (identifier) @local.variable)
                   (reference_declarator (identifier) @local.variable)])))
(lambda_capture_initializer left: (identifier) @local.variable)
(labeled_statement label: (statement_identifier) @local.label)
(type_parameter_declaration (type_identifier) @local.type)
(optional_type_parameter_declaration name: (type_identifier) @local.type)
(variadic_type_parameter_declaration (type_identifier) @local.type)

; Parameters (a lambda's, a prototype's or a template's are local: no named function body).
(parameter_declaration
  declarator: [(identifier) @definition.parameter
               (pointer_declarator declarator: (identifier) @definition.parameter)
               (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @definition.parameter))
               (reference_declarator (identifier) @definition.parameter)
               (array_declarator declarator: (identifier) @definition.parameter)])
(optional_parameter_declaration
  declarator: [(identifier) @definition.parameter
               (pointer_declarator declarator: (identifier) @definition.parameter)
               (reference_declarator (identifier) @definition.parameter)])
(variadic_parameter_declaration
  declarator: [(variadic_declarator (identifier) @definition.parameter)
               (reference_declarator (variadic_declarator (identifier) @definition.parameter))])

; A member set on an object: C++ declares every field in its class body, so this declares
; nothing; `this->x = ...` is the class's own member (a use), any other object's is a
; foreign name's use.
((assignment_expression
   left: (field_expression argument: (_) @member.object field: (field_identifier) @member.write))
  (#not-eq? @member.object "this"))

; ---- uses ---------------------------------------------------------------------------------

; A designated initializer (`Options{.timeout = 5}`, `Options o = {.timeout = 5};`) names a
; member of the initialized type: the file's own when the type is declared here.
(declaration
  type: (_) @member.target
  declarator: (init_declarator
    value: (initializer_list
      (initializer_pair designator: (field_designator (field_identifier) @member.key)))))
(compound_literal_expression
  type: (_) @member.target
  value: (initializer_list
    (initializer_pair designator: (field_designator (field_identifier) @member.key))))
(new_expression
  type: (_) @member.target
  arguments: (initializer_list
    (initializer_pair designator: (field_designator (field_identifier) @member.key))))
(field_designator (field_identifier) @member.key)

; `obj.attr`, `ptr->attr` and `ns::name` / `Type::member` (the member is the access node's
; last name). Matching the name itself would keep a pending match per link of a long chain
; `a.b.c...`: quadratic. `this->attr` is the running object's member: a plain use.
((field_expression argument: (_) @member.object) @member.access
  (#not-eq? @member.object "this"))
((field_expression
   argument: (_) @member.object
   field: [(template_method) (dependent_name (template_method) @member.access)] @member.access)
  (#not-eq? @member.object "this"))
(qualified_identifier scope: (_) @member.object) @member.access
(qualified_identifier
  scope: (_) @member.object
  name: [(template_function) (template_type) (template_method)] @member.access)

(identifier) @reference
(field_identifier) @reference
(type_identifier) @reference
(namespace_identifier) @reference
(statement_identifier) @reference

; ---- literals -----------------------------------------------------------------------------

(string_literal) @string
(char_literal) @string
; A raw string's text is its content, without the delimiter and parentheses around it.
(raw_string_literal (raw_string_content) @string.text)
(number_literal) @number
; A macro's value is text to the grammar: a lone literal is one (not one a comment or blanks
; follow, which the grammar keeps in the value).
((preproc_arg) @string
  (#match? @string "^\"([^\"\\\\]|\\\\.)*\"$"))
((preproc_arg) @number
  (#match? @number "^[-+]?[0-9][0-9A-Za-z.']*$"))
