"""PHP: PHPUnit naming (`Class::testMethod`) and Pest titles; `$this`, `self` and `static` as
the receiver.

Receivers are compared with the text of an access's object: `$this` keeps its sigil, and
`self::`/`static::` reach the class's own static members (`parent::` reaches a base class the
file may not declare, so it is no receiver). The visibility and `readonly` modifiers are
listed too: `php-defuse.scm` reads a promoted constructor parameter (`private int $x`) as a
write on the receiver whose object is its modifier, so it declares a property of the class;
no expression's text is ever a modifier, so nothing else reads them as a receiver.

`::` joins a class and its test method, as PHPUnit's `--filter` and its reports name them;
every enclosing group is joined (PHP classes do not nest; Pest `describe()` blocks do).
"""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="php",
    extensions=(".php",),
    grammar="tree_sitter_php",
    entry="language_php",
    distribution="tree-sitter-php",
    defuse=("php-defuse.scm",),
    tests=("php-tests.scm",),
    receivers=frozenset({"$this", "self", "static",
                         "public", "protected", "private", "readonly"}),
    test_separator="::",
    test_outer_groups=True,
)
