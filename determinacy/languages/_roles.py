"""Roles from capture names and scopes: def or local, and whose member a name is.

A definition crosses a module boundary only from module or class level; anything bound
under a function or a block is local. A member (`x.attr`, a keyword, a literal's field) is
the file's own when its object is the method's receiver or a type or module-level name the
file declares (or the member's name is one the file declares on some type), and a use of a
foreign name otherwise. Without types, "declares" is by name.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from determinacy.languages._literals import decode
from determinacy.languages._model import Kind, Language, Tok
from determinacy.languages._nesting import Interval, parents

if TYPE_CHECKING:
    from tree_sitter import Node

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_TYPES = frozenset({"class", "type"})
# Module-level names whose attributes are the file's own (`Color.RED`, `LABELS.ok`).
_OWNERS = frozenset({"class", "type", "constant", "variable"})
# What a keyword argument, a literal's field or a JSX attribute can belong to.
_NAMED = frozenset({"class", "type", "function", "method", "constant", "variable"})
_MEMBERS = frozenset({"method", "field", "enum-member"})
# How much of an object or a type is read to name it: a receiver or a type name is short,
# and reading all of `a.b.c....z` for each of its links would be quadratic.
_HEAD = 256
# Draft.tok() fills a Tok's fields by name: a field added to Tok must be added there too.
assert [f.name for f in fields(Tok)] == [
    "kind", "value", "line", "role", "decl", "scope", "owner", "asserting", "test",
    "fstring_parts", "passed_on"]


@dataclass(slots=True)
class Draft:
    """A token while its role is worked out (a Tok once done)."""

    kind: Kind
    value: str
    role: str = "use"
    decl: str = ""
    scope: str = ""
    owner: str = ""
    line: int = 0
    asserting: bool = False
    test: str = ""
    parts: tuple[str, ...] = ()
    passed_on: bool = False

    def tok(self) -> Tok:
        # A frozen dataclass's __init__ sets each field through object.__setattr__: a third
        # of the cost of a file's tokens. Filling the instance's dict (in field order, as
        # __init__ would) makes the very same object.
        tok = object.__new__(Tok)
        tok.__dict__.update(
            kind=self.kind, value=self.value, line=self.line, role=self.role,
            decl=self.decl, scope=self.scope, owner=self.owner, asserting=self.asserting,
            test=self.test, fstring_parts=self.parts, passed_on=self.passed_on)
        return tok


@dataclass(eq=False)
class Scope:
    start: int
    end: int
    kind: str  # function | class | block
    node: Node
    name_id: int = -1  # the node naming it: that name belongs to the enclosing scope
    name: str = ""
    owner: str = ""  # a Go method's receiver type
    receiver: str = ""  # the parameter naming the object a method runs on (self, Go's `s`)
    path: str = ""  # dotted names of the named scopes down to this one
    nested: bool = False  # under a function or a block
    parent: Scope | None = None

    @staticmethod
    def link(scopes: Iterable[Scope]) -> list[Scope]:
        """Fill in parents, paths and nesting, outermost first."""
        out = []
        for s, parent in parents([Interval(s.start, s.end, s) for s in scopes]):
            s.parent = parent
            base = parent.path if parent else ""
            if s.name:
                own = f"{s.owner}.{s.name}" if s.owner else s.name
                s.path = f"{base}.{own}" if base else own
            else:
                s.path = base
            s.nested = parent is not None and (parent.kind != "class" or parent.nested)
            out.append(s)
        return out

    def up(self) -> Iterator[Scope]:
        """This scope and those around it, innermost first."""
        s: Scope | None = self
        while s is not None:
            yield s
            s = s.parent


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


class Roles:
    def __init__(self, lang: Language, src: bytes):
        self.lang, self.src = lang, src
        self.owners: set[str] = set()
        self.named: set[str] = set()
        self.members: set[str] = set()
        self.imported: set[str] = set()
        self.def_starts: list[int] = []

    def first_pass(self, capture: str, d: Draft, inner: Scope | None, own: Scope | None,
                   imported: bool) -> None:
        """Everything a token's own capture and scopes say; members wait for the writes and
        reads passes. `inner` is the innermost scope around the token; `own`, the scope the
        token names, if any."""
        head, _, decl = capture.partition(".")
        d.scope = inner.path if inner else ""
        if own is not None and own.owner:  # a Go method's name: declared on its receiver type
            d.role, d.decl = ("local" if own.nested else "def"), decl
            d.scope, d.owner = _join(d.scope, own.owner), own.owner
        elif imported and capture == "local.binding":
            # The name an import binds (`import ky from`, `as alias`) is the importer's own
            # choice: a local, never a use of what the module defines.
            d.role, d.decl = "local", "binding"
        elif imported:
            d.role = "import"
        elif head == "reference":
            d.decl = decl
        elif head in ("definition", "local") and decl == "parameter":
            fn = next((s for s in inner.up() if s.kind == "function"), None) if inner else None
            crosses = head == "definition" and fn is not None and bool(fn.name) and not fn.nested
            d.role, d.decl = ("def" if crosses else "local"), decl
            d.scope = fn.path if fn else d.scope
        elif head in ("definition", "local"):
            nested = inner is not None and (inner.kind != "class" or inner.nested)
            d.role = "def" if head == "definition" and not nested else "local"
            d.decl = decl
            # A class body's names are its members (a `@local` type parameter is not one).
            if inner is not None and inner.kind == "class" and head == "definition":
                d.owner = inner.name
                d.decl = {"function": "method", "variable": "field"}.get(decl, decl)

    def declare(self, tok: Draft, node: Node) -> None:
        if (tok.role == "import" or tok.decl == "binding") and tok.kind == "identifier":
            self.imported.add(tok.value)
        if tok.role not in ("def", "local"):
            return
        bisect.insort(self.def_starts, node.start_byte)
        if tok.decl in _OWNERS and (tok.role == "def" or tok.decl in _TYPES):
            self.owners.add(tok.value)
        if tok.decl in _NAMED:
            self.named.add(tok.value)
        if tok.owner or tok.decl in _MEMBERS:
            self.members.add(tok.value)

    def writes(self, capture: str, d: Draft, helper: Node | None, inner: Scope | None,
               node: Node) -> None:
        """`obj.attr = ...`: a field of the class when obj is the receiver."""
        if capture != "member.write" or d.role == "import":
            return
        home = self._receiver(self._head(helper), inner)
        if home is None:
            d.role = "member-use"
            return
        d.owner, nested = home
        d.role, d.decl = ("local" if nested else "def"), "field"
        self.declare(d, node)

    def reads(self, capture: str, d: Draft, helper: Node | None, inner: Scope | None) -> None:
        """`obj.attr` and keyword/field names: the file's own, or a foreign name."""
        if capture not in ("member.read", "member.key") or d.role == "import":
            return
        if capture == "member.read":
            obj = self._head(helper)
            head = _IDENT.match(obj)
            own = (self._receiver(obj, inner) is not None or d.value in self.members
                   or (head is not None and head.group(0) in self.owners))
        else:
            own = helper is not None and not self._foreign(helper)
        d.role = "use" if own else "member-use"

    def _receiver(self, obj: str, inner: Scope | None) -> tuple[str, bool] | None:
        """(owning type, bound under a function) when `obj` is the running method's object."""
        for s in inner.up() if inner else ():
            if s.receiver:
                if obj != s.receiver:
                    return None
                if s.owner:
                    return s.owner, s.nested
                cls = next((c for c in s.up() if c.kind == "class"), None)
                return (cls.name, cls.nested) if cls else None
            if s.kind == "class" and obj in self.lang.receivers:
                return s.name, s.nested
        return None

    def _foreign(self, target: Node) -> bool:
        """Does a keyword or literal field name a member of something this file does not
        declare? An anonymous type written in place (`[]struct{...}{...}`) is declared here;
        a name from an import is not; otherwise the type's (last) name decides."""
        i = bisect.bisect_left(self.def_starts, target.start_byte)
        if i < len(self.def_starts) and self.def_starts[i] < target.end_byte:
            return False
        first = _IDENT.findall(self._head(target))
        last = _IDENT.findall(decode(self.src[max(target.start_byte, target.end_byte - _HEAD):
                                              target.end_byte]))
        if not first or first[0] in self.imported:
            return True
        return last[-1] not in self.named

    def _head(self, node: Node | None) -> str:
        """The node's text, or its first _HEAD bytes when longer (no receiver is)."""
        if node is None:
            return ""
        return decode(self.src[node.start_byte:min(node.end_byte, node.start_byte + _HEAD)])
