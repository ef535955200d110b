"""Ruby: RSpec titles (`describe` and `it` joined by spaces) and Minitest `test_x`.

`self` is the object a method runs on (a keyword of the grammar, not a parameter), so it is
a receiver: `self.name = ...` declares the class's attribute. The test separator is a space,
as rspec prints a full description ("Widget#render draws a box" comes out as "Widget #render
draws a box": rspec glues a `#`/`.`/`::` title to a class title, which one separator cannot
say); every enclosing `describe`/`context` title is joined. Rake files, gemspecs and rackup
files are Ruby too.
"""

from determinacy.languages._model import Language

LANGUAGE = Language(
    name="ruby",
    extensions=(".rb", ".rake", ".gemspec", ".ru"),
    grammar="tree_sitter_ruby",
    entry="language",
    distribution="tree-sitter-ruby",
    defuse=("ruby-defuse.scm",),
    tests=("ruby-tests.scm",),
    receivers=frozenset({"self"}),
    test_separator=" ",
    test_outer_groups=True,
)
