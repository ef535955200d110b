; JSX, in the grammars that parse it (javascript, tsx).
; Written against tree-sitter-javascript 0.25.0 and tree-sitter-typescript 0.23.2 (tsx).
; Capture vocabulary: README.md beside this file.

; An attribute names a prop of the element's component: the file's own when it declares
; the component, a foreign name's use otherwise (an HTML element's or a library's).
(jsx_opening_element name: (_) @member.target attribute: (jsx_attribute (property_identifier) @member.key))
(jsx_self_closing_element name: (_) @member.target attribute: (jsx_attribute (property_identifier) @member.key))

; Text between tags is a literal a test may look for.
(jsx_text) @string.text
