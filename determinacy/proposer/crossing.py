"""Does a name cross the code-test boundary (method §7)? The rule a name of the gold must pass
to be a hidden interface the test grades."""

from __future__ import annotations

import dataclasses
import re

from determinacy.proposer import datafiles
from determinacy.proposer.occurrences import Occ

# Languages without keyword arguments: a caller never spells a parameter's name.
POSITIONAL = frozenset({"go", "java", "rust", "c", "cpp"})
NOT_KEYWORD = "a parameter of a language without keyword arguments (its name is no interface)"


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _module(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".", 1)[0]


def dotted_names(test: list[Occ], gold: list[Occ]) -> list[Occ]:
    """The gold definitions test strings name by a dotted path (`mock.patch("pkg.mod.name")`,
    `"pkg.mod.Class.method"`): one more occurrence of the last name where the part before it
    is the module or the type the gold defines it in. A dotted string ending in a name the
    gold defines elsewhere (`"os.path.join"`) is not a use of it."""
    homes: dict[str, set[str]] = {}
    for o in gold:
        if o.role == "def" and o.kind == "identifier":
            homes.setdefault(o.value, set()).update({_module(o.path), o.owner} - {""})
    out = []
    for o in test:
        if o.kind == "string" and _DOTTED.fullmatch(o.value):
            *head, name = o.value.split(".")
            if head[-1] in homes.get(name, ()):
                out.append(dataclasses.replace(o, value=name))
    return out


def crossing(gold: list[Occ], test: list[Occ]) -> tuple[str, str]:
    """(defuse, rule): does a name cross the code-test boundary (method §7)?

    Defined by the gold at module or type level and used (not defined, not bound locally) by
    the test, or the reverse; a string on one side (a registration, a key) naming an
    identifier the other side uses as a keyword or attribute. Imports, locals and members of
    foreign types never cross; a method a test defines on its own type does not either.
    """
    g_defs = [o for o in gold if o.role == "def"]
    if g_defs and all(o.decl == "parameter" and o.language in POSITIONAL for o in g_defs):
        return "none", NOT_KEYWORD
    g_roles = {o.role for o in gold if o.kind == "identifier"}
    t_roles = {o.role for o in test if o.kind == "identifier"}
    if (g_roles | t_roles) <= {"import"}:
        return "none", "import or package name"
    # Importing a name is using it (`from pkg.mod import new_function`).
    test_uses = t_roles & {"use", "member-use", "import"}
    gold_uses = g_roles & {"use", "member-use", "import"}
    if "def" in g_roles and test_uses and not t_roles & {"def", "local"}:
        return "gold→test", "defined by the gold, used by the test"
    test_defs = [o for o in test if o.role == "def" and not (o.decl == "method" and o.owner)]
    if test_defs and gold_uses and not g_roles & {"def", "local"}:
        return "test→gold", "defined by the test, used by the gold"
    # A string on one side naming what the other side defines (`getattr(m, "new_func")`,
    # `monkeypatch.setattr(m, "new_func", ...)`). A string naming what the other side only
    # uses is most often a library's attribute (`monkeypatch.setattr(m, "guess_type")`).
    # A parameter is named only by a dict key (`fn(**{"compact": True})`): any other string
    # equal to one is most often a message or a `parametrize("region", ...)` argument name.
    keyed = any(o.kind == "string" and o.decl == "key" for o in test)
    g_named = {o.role for o in gold if o.kind == "identifier"
               and (o.decl != "parameter" or keyed)}
    if any(o.kind == "string" for o in test) and "def" in g_named and "local" not in g_roles:
        return "gold→test", "defined by the gold, named by a string of the test"
    if any(o.kind == "string" for o in gold) and test_defs and "local" not in t_roles:
        return "test→gold", "defined by the test, named by a string of the gold"
    if not g_roles and not t_roles:
        return "", "literal"
    if any(o.role == "def" and o.decl == "method" and o.owner for o in test) \
            and "def" not in g_roles:
        return "none", "a method of the test's own type (a test double the gold calls)"
    if "local" in g_roles | t_roles:
        return "none", "a local variable"
    if any(datafiles.format_of(o.path) for o in gold + test) and not (
            "def" in g_roles or "def" in t_roles):
        return "none", "a key or value of a data file (data defines no name)"
    if g_roles <= {"member-use"} and t_roles <= {"member-use"}:
        return "none", "a member of a type neither patch declares"
    return "none", "neither or both sides define it"
