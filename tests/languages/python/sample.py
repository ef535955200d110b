# ruff: noqa -- a parser fixture: undefined names and unused variables are on purpose.
"""Widget rendering for the dashboard.

ZZHIDDEN_module_doc: render_all and DEFAULT_WIDTH are named here, and a docstring yields
no token.
"""

import os.path as osp
#      ^ import
#         ^ import
#                 ^ local binding
from collections import OrderedDict
#    ^ import
#                       ^ import
from enum import Enum

import pytest

# ZZHIDDEN_comment: DEFAULT_WIDTH is documented in a comment, which yields nothing.
DEFAULT_WIDTH = 0x7FFF_FFFF
# <- def constant scope=
#               ^ number use
label_prefix = "w-"
# <- def variable


class Color(Enum):
    """ZZHIDDEN_enum_doc"""

    RED = 1
    # <- def enum-member owner=Color scope=Color
    GREEN = -2
    #        ^ number -- the minus is an operator, not part of the number


class Widget:
    """A box on the dashboard. ZZHIDDEN_class_doc."""

    width: int = 0
    # <- def field owner=Widget
    #      ^ use

    def __init__(self, name: str, *, size: int = 3) -> None:
    #   ^ def method owner=Widget scope=Widget
    #                  ^ def parameter scope=Widget.__init__
    #                                ^ def parameter
        """ZZHIDDEN_init_doc"""
        self.name = name
        #    ^ def field owner=Widget scope=Widget.__init__
        #           ^ use
        self.width = size
        registry.latest = self
        #        ^ member-use -- an attribute of something this file does not declare
        self.cache: OrderedDict = OrderedDict()
        #    ^ def field owner=Widget

    def render(self) -> str:
        padded = self.name.ljust(DEFAULT_WIDTH % 40)
        # <- local variable scope=Widget.render
        #             ^ use -- self's attribute
        #                  ^ member-use -- str.ljust is foreign
        #                        ^ use
        parts = [p for p in padded.split(",")]
        #              ^ local variable -- a comprehension variable
        return f"{label_prefix}{padded}: {self.width}px" + str(len(parts))
        #      ^ string "parts=: |px"
        #         ^ use


def render_all(widgets, *, sep="\n"):
#   ^ def function scope=
#              ^ def parameter scope=render_all
    out = []
    # <- local variable
    for w in widgets:
    #   ^ local variable
        out.append(w.render())
        #   ^ member-use
        #            ^ use -- render is a method this file declares
    options = dict(strict=True)
    #              ^ member-use -- a keyword of a callee this file does not declare
    try:
        return sep.join(out, **options)
    except TypeError as exc:
    #                   ^ local variable
        raise ValueError("cannot render %s" % exc) from exc
        #                ^ string "parts=cannot render "


def make_widget(name):
#   ^ def function
    return Widget(name, size=len(name))
    #                   ^ use -- a keyword of a class this file declares
    #                        ^ use


def helper_table():
    lookup = {"small": 1, "large": 2}
    #         ^ string use
    total = 0
    for key, value in lookup.items():
    #   ^ local variable
        total += value
    return total


def test_render_all(tmp_path):
#   ^ def function test=test_render_all
#                   ^ def parameter scope=test_render_all
    widget = make_widget("box")
    # <- local variable test=test_render_all
    #                    ^ string !asserting
    assert widget.render() == "w-box: 0px"
    #                         ^ asserting string
    #      ^ asserting use
    with pytest.raises(KeyError, match="missing") as excinfo:
    #                                  ^ asserting string
    #           ^ member-use !asserting
    #                                                ^ local variable
        osp.join(tmp_path, "x")
        #                  ^ !asserting string
        # <- use -- the imported name, used
    assert excinfo.type is KeyError


class TestWidget:
    # ZZHIDDEN_test_comment mentions test_width.
    def test_width(self):
        assert Widget("a", size=2).width == 2
        #                                   ^ asserting number test=TestWidget::test_width
        self.assertEqual(helper_table(), 3)
        #                ^ asserting use
        #                                ^ asserting number

    def test_color(self):
        color = Color.RED
        #             ^ use -- a member of an enum this file declares
        assert color.value == 1
