; Definitions, uses and literals of PHP.
; Written against tree-sitter-php 0.25.1 (entry language_php; its bundled queries/tags.scm
; named the nodes). Capture vocabulary: README.md beside this file. A bare @reference loses
; to any other capture on the same node; otherwise the first pattern in this file wins.
;
; A variable `$total` is a `variable_name` node around a `name`: every capture here takes the
; `name`, so `$total`, a property `public int $total`, its use `$this->total` and a named
; argument `f(total: 1)` all read `total`.

; ---- scopes -------------------------------------------------------------------------------

(function_definition name: (name) @scope.name) @scope.function
(method_declaration name: (name) @scope.name) @scope.function
(anonymous_function) @scope.function
(arrow_function) @scope.function

(class_declaration name: (name) @scope.name) @scope.class
(interface_declaration name: (name) @scope.name) @scope.class
(trait_declaration name: (name) @scope.name) @scope.class
(enum_declaration name: (name) @scope.name) @scope.class
(anonymous_class) @scope.class

; ---- what yields no token -----------------------------------------------------------------

; `declare(strict_types=1)` configures the engine: its number is no value of the program.
(declare_statement (declare_directive) @docstring)

; ---- imports: namespaces, `use` declarations, included files -------------------------------

; The name a `use ... as Alias` binds is the importer's own choice.
(namespace_use_clause alias: (name) @local.binding)
(namespace_definition name: (namespace_name) @import)
(namespace_use_declaration) @import
; The namespace part of a qualified name (`\Acme\Widgets\Badge`): a package path.
(qualified_name prefix: (namespace_name) @import)
(include_expression) @import
(include_once_expression) @import
(require_expression) @import
(require_once_expression) @import

; ---- definitions --------------------------------------------------------------------------

(function_definition name: (name) @definition.function)
(method_declaration name: (name) @definition.method)
(class_declaration name: (name) @definition.class)
(interface_declaration name: (name) @definition.type)
(trait_declaration name: (name) @definition.type)
(enum_declaration name: (name) @definition.type)
(enum_case name: (name) @definition.enum-member)
; `const X = 1;` at file level, in a class, an interface or an enum.
(const_declaration (const_element (name) @definition.constant))
(property_declaration (property_element name: (variable_name (name) @definition.field)))
; `define('NAME', value)` declares a global constant by its string.
((function_call_expression
   function: (name) @_define
   arguments: (arguments . (argument (string (string_content) @definition.constant))))
  (#eq? @_define "define"))

; Constructor promotion (`public function __construct(private int $x)`) declares a property
; of the class. It is read as a write on the receiver: the modifier stands in for `$this`
; (php.py lists the modifiers among the receivers; no expression's text is a modifier).
(property_promotion_parameter
  visibility: (visibility_modifier) @member.object
  name: (variable_name (name) @member.write))
(property_promotion_parameter
  !visibility
  readonly: (readonly_modifier) @member.object
  name: (variable_name (name) @member.write))

; Parameters (a closure's or an arrow function's are bound under an anonymous function:
; local). PHP 8 callers may name them (`f(region: "x")`).
(simple_parameter name: (variable_name (name) @definition.parameter))
(variadic_parameter name: (variable_name (name) @definition.parameter))

; `$this->x = ...`, `self::$x = ...`: the receiver's property; any other object's is a use of
; a foreign name.
(assignment_expression
  left: (member_access_expression object: (_) @member.object name: (name) @member.write))
(assignment_expression
  left: (scoped_property_access_expression
    scope: (_) @member.object name: (variable_name (name) @member.write)))

; Assignments: a script's variables at file level, a function's locals.
(assignment_expression left: (variable_name (name) @definition.variable))
(assignment_expression left: (list_literal (variable_name (name) @definition.variable)))
(assignment_expression
  left: (list_literal (array_element_initializer (variable_name (name) @definition.variable))))
(foreach_statement "as" . (variable_name (name) @definition.variable))
(foreach_statement "as" . (by_ref (variable_name (name) @definition.variable)))
(foreach_statement "as" . (pair (variable_name (name) @definition.variable)))
(foreach_statement "as" . (pair (by_ref (variable_name (name) @definition.variable))))
(foreach_statement "as" . (list_literal (variable_name (name) @definition.variable)))

; Always local: `catch (E $e)`, `static $cache`, labels.
(catch_clause name: (variable_name (name) @local.variable))
(static_variable_declaration name: (variable_name (name) @local.variable))
(named_label_statement (name) @local.label)

; ---- uses ---------------------------------------------------------------------------------

; A named argument names a parameter of the callee (or a property of the attribute or class
; constructed): the file's own when the callee is. The callee is its own name node (a
; method's name, not the chain before it), so no pattern waits on a long chain.
(function_call_expression
  function: (_) @member.target
  arguments: (arguments (argument name: (name) @member.key)))
(member_call_expression
  name: (name) @member.target
  arguments: (arguments (argument name: (name) @member.key)))
(nullsafe_member_call_expression
  name: (name) @member.target
  arguments: (arguments (argument name: (name) @member.key)))
(scoped_call_expression
  name: (name) @member.target
  arguments: (arguments (argument name: (name) @member.key)))
(object_creation_expression
  [(name) (qualified_name)] @member.target
  (arguments (argument name: (name) @member.key)))
(attribute
  [(name) (qualified_name)] @member.target
  parameters: (arguments (argument name: (name) @member.key)))
(argument name: (name) @member.key)

; `$obj->attr`, `$obj->m()`, `Cls::m()`, `Cls::CONST`, `Cls::$prop` (the member is the access
; node's last name). Matching the name itself would keep a pending match per link of a long
; chain `$a->b()->c()...`: quadratic.
(member_access_expression object: (_) @member.object) @member.access
(nullsafe_member_access_expression object: (_) @member.object) @member.access
(member_call_expression object: (_) @member.object) @member.access
(nullsafe_member_call_expression object: (_) @member.object) @member.access
(scoped_call_expression scope: (_) @member.object) @member.access
(class_constant_access_expression . (_) @member.object) @member.access
(scoped_property_access_expression scope: (_) @member.object name: (variable_name) @member.access)

; Every other name; `$this`, `self`, `static`, `parent` and `Foo::class` name nothing the
; code chose.
((name) @reference
  (#not-match? @reference "^(this|self|static|parent|class)$"))

; ---- literals -----------------------------------------------------------------------------

; An array key (`['timeout' => 3]`): a string that may name an option.
(array_element_initializer . [(string) (encapsed_string)] @string.key . "=>")
(string) @string
(encapsed_string) @string
; A heredoc's or nowdoc's text, without its `<<<TAG` and closing tag.
(heredoc_body) @string
(nowdoc_body) @string
; Markup outside `<?php ... ?>`.
(text) @string.text

; What a double-quoted string or a heredoc interpolates (`"{$user->name} has $n"`), braces
; included.
(encapsed_string
  [(variable_name) (dynamic_variable_name) (member_access_expression)
   (nullsafe_member_access_expression) (subscript_expression) (member_call_expression)
   (nullsafe_member_call_expression) (scoped_property_access_expression)
   (scoped_call_expression) (function_call_expression) (class_constant_access_expression)
   "{" "}"] @interpolation)
(heredoc_body
  [(variable_name) (dynamic_variable_name) (member_access_expression)
   (nullsafe_member_access_expression) (subscript_expression) (member_call_expression)
   (nullsafe_member_call_expression) (scoped_property_access_expression)
   (scoped_call_expression) (function_call_expression) (class_constant_access_expression)
   "{" "}"] @interpolation)

(integer) @number
(float) @number
