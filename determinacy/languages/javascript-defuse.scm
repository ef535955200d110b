; Definitions the JavaScript grammar spells its own way (class fields, plain parameters).
; Written against tree-sitter-javascript 0.25.0 (its bundled queries/tags.scm named the nodes).
; Capture vocabulary: README.md beside this file.

; A class field holding a function is a method in all but name.
(field_definition
  property: (property_identifier) @scope.name
  value: [(arrow_function) (function_expression)] @scope.function)

(field_definition property: [(property_identifier) (private_property_identifier)] @definition.field)

(formal_parameters (identifier) @definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @definition.parameter))
(formal_parameters (rest_pattern (identifier) @definition.parameter))
(formal_parameters (object_pattern (shorthand_property_identifier_pattern) @definition.parameter))
(formal_parameters (object_pattern (pair_pattern value: (identifier) @definition.parameter)))
(formal_parameters (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @definition.parameter)))
(formal_parameters (array_pattern (identifier) @definition.parameter))
(formal_parameters (assignment_pattern left: (object_pattern (shorthand_property_identifier_pattern) @definition.parameter)))
(formal_parameters (assignment_pattern left: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @definition.parameter))))
(formal_parameters (assignment_pattern left: (object_pattern (pair_pattern value: (identifier) @definition.parameter))))
