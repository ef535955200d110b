"""Test ids that cannot run: a FAIL_TO_PASS id no test answers (UNRUNNABLE, broken: every fix
fails it, the gold too).

Three mechanical shapes. A pytest id names a file that exists neither at base_commit nor in a
patch (the codebase phase's `missing_tests`). A pytest id's own file, after the test patch,
does not spell its test's name as a whole word (`undeclared`: a truncated id, whose name is
a piece of the real one, or a renamed one). Or the id's test name (`test_b` of
`tests/x.py::A::test_b[1]`, `TestX` of Go's `TestX/sub`, `method` of `Class#method`) is
spelled by no file at base_commit and by neither patch (any line, any header): whatever the
runner, a test it can run is declared somewhere, so a renamed id is one no file spells. A Go
id's test is searched as its declaration, `func TestX(` (gofmt's spelling, the only one `go
test` reads), so a truncated Go id is caught too. The name is searched with the case's
constants. Absence is claimed only where the
search read the whole tree (strict policy, nothing unread). A suite title or a runner's
numbering (`file.js | some title`, `Suite.js | test_2954`) is no declared name and is not
checked; nor is a parametrize id whose function exists: which ids a parameter list produces
is pytest's to say, by running it.
"""

from __future__ import annotations

import re

from determinacy.records import CodebaseSearch, Task, ValidityCheck
from determinacy.settle import quote, receipt_command

_NAME = re.compile(r"[A-Za-z_$][\w$]{2,}")
_FILE_HEAD = re.compile(r"[^:]*(/|\.[A-Za-z]\w*)(?=::)")


def leaf(test_id: str) -> str:
    """The name a runner finds the id's test by ("" when the id has none: a suite title)."""
    t = test_id.strip()
    if _FILE_HEAD.match(t):  # pytest: path::Class::test[params]
        t = t.partition("::")[2]
    elif " | " in t:  # a built file and a suite title, or a runner's own numbering
        return ""  # (`Suite.js | test_2954`): neither is declared anywhere
    t = re.sub(r"\[.*$", "", t)  # parameters, or a truncated parameter part
    t = re.sub(r"\s+\(.*$", "", t)  # unittest's `test_x (module.Class)`
    t = re.sub(r"\(.*$", "", t)  # JUnit's `testX()`, `testX(int)`
    t = t.split("/", 1)[0]  # Go subtests and GoogleTest instances: the declared function
    t = re.split(r"::|[.#\\]", t)[-1]
    return t if _NAME.fullmatch(t) else ""


_BASES = ("", "object", "unittest.TestCase", "TestCase")


def undeclared(test_id: str, text: str) -> bool:
    """Does the post-image of a pytest id's own file (`text`) declare no test by its name?
    The name is looked for as a whole word (a truncated `test_attribu` is a piece of
    `test_attribute`). A method of a class that inherits from anything but `object` or
    `TestCase` may come from its base: not undeclared (unknown), nor when the class is not
    in the file."""
    name = leaf(test_id)
    if not name or re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text):
        return False
    parts = re.sub(r"\[.*$", "", test_id.strip().partition("::")[2]).split("::")
    if len(parts) > 1:
        m = re.search(rf"^[ \t]*class[ \t]+{re.escape(parts[-2])}[ \t]*(?:\(([^)]*)\))?[ \t]*:",
                      text, re.M)
        if m is None or (m.group(1) or "").strip() not in _BASES:
            return False
    return True


# A Go test id (`TestX`, `TestX/sub case`): `go test` finds TestX only by its declaration,
# `func TestX(` as gofmt spells it, so that string is searched (a truncated `TestConve` is a
# piece of `TestConvert`, but `func TestConve(` is a piece of nothing).
_GO_ID = re.compile(r"(?:Test|Benchmark|Fuzz|Example)(?:[A-Z0-9_]\w*)?(?:/.*)?", re.S)


def probe(test_id: str) -> str:
    """What the tree is searched for to find the id's test ("" when nothing can be)."""
    name = leaf(test_id)
    if name and _GO_ID.fullmatch(test_id.strip()):
        return f"func {name}("
    return name


def names(fail_to_pass: list[str]) -> list[str]:
    """What the codebase phase searches for, for the ids' tests."""
    return sorted({n for i in fail_to_pass if (n := probe(i))})


def _why(test_id: str, search: CodebaseSearch, spelled: str, commit: str,
         whole: bool) -> tuple[str, str, str] | None:
    """(evidence, pointer, re-check command) when the id cannot run, else None."""
    name, path = leaf(test_id), test_id.strip().split("::", 1)[0]
    if test_id in search.missing_tests:
        return (f"FAIL_TO_PASS names `{test_id}`, whose file `{path}` exists neither at "
                "base_commit nor in either patch", path,
                f"git ls-tree --name-only {commit} -- {quote(path)}; grep -c -F -e "
                f"{quote('+++ b/' + path)} gold.diff hidden_test.diff"
                "   # expect no output, then 0 and 0")
    if test_id in search.undeclared_tests:
        return (f"FAIL_TO_PASS names `{test_id}`, but `{path}` after the test patch declares "
                f"no `{name}` (not as a whole word, and its class inherits no tests): a "
                "truncated or renamed id", path,
                f"git checkout {commit} && git apply --include={quote(path)} hidden_test.diff "
                f"&& grep -n -w -F -e {quote(name)} {quote(path)}   # expect no output")
    want = probe(test_id)
    if not whole or not want or want not in search.searched or want in search.found \
            or want in spelled:
        return None
    what = f"its test `{name}`" if want == name else f"`{want}`, which declares its test"
    return (f"FAIL_TO_PASS names `{test_id}`, but no file at base_commit and no line of either "
            f"patch spells {what}: no runner can find it", test_id,
            f"{receipt_command(want, commit, [])}; grep -c -F -e {quote(want)} gold.diff "
            "hidden_test.diff   # expect no output, then 0 and 0")


def check(task: Task, search: CodebaseSearch) -> list[ValidityCheck]:
    whole = search.absence == "strict" and not search.excluded and search.tree is not None \
        and not search.tree.unread
    spelled = task.gold_patch + "\n" + task.test_patch  # as the receipt's grep reads them
    commit = search.tree.commit if search.tree else task.base_commit
    out = []
    for test_id in sorted({i for i in task.fail_to_pass if i.strip()}):
        if (why := _why(test_id, search, spelled, commit, whole)) is not None:
            evidence, pointer, command = why
            out.append(ValidityCheck(
                case_id=task.case_id, instance_id=task.instance_id, prescreen="test-ids",
                verdict="UNRUNNABLE", literal=test_id, proposed="broken", pointers=[pointer],
                evidence=evidence, command=command))
    return out
