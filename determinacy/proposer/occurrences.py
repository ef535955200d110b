"""What the proposer reads of one side of a task (the gold patch or the test patch): every
token on an added line, with its role, declaration kind, scope and test block, from the
post-image's syntax tree (`languages/`), a data file's keys and values (`datafiles.py`), or the
lexer (`patches.added_tokens`). The records every other module of the proposer shares."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from determinacy import languages
from determinacy.proposer import datafiles
from determinacy.proposer.patches import DEF, LOCAL_DEF, FileDiff, added_tokens
from determinacy.proposer.postimage import PostImage, file_line, post_images

MAX_LOCATIONS = 3


@dataclass(frozen=True)
class Occ:
    """One occurrence of a constant on one side, on an added line."""

    value: str
    kind: str  # identifier | string | number
    path: str
    line: int  # in the real file
    role: str  # def | local | use | import | member-use
    decl: str = ""
    scope: str = ""
    owner: str = ""
    language: str = ""  # "" when lexed without a syntax tree
    fragment: bool = False
    asserting: bool = False
    test: str = ""  # the test block it is in
    segments: tuple[str, ...] = ()
    passed_on: bool = False  # in a call assertion's arguments (what the code passed on)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


_FALLBACK_ROLE = {DEF: "def", LOCAL_DEF: "local"}
_GOLDEN = re.compile(r"(^|[/_.-])(expected|golden|want|snapshots?)([/_.-]|$)", re.I)


def _file_occurrences(fd: FileDiff, img: PostImage | None) -> tuple[list[Occ], Any]:
    """The tokens of one file on its added lines, and its syntax facts (None without)."""
    if img is not None and datafiles.format_of(fd.path):
        # A data file named as expected output (`expected_region.json`, `golden/`) is what a
        # test compares against; any other is input it feeds in.
        golden = bool(_GOLDEN.search(fd.path))
        return [Occ(i.value, "number" if datafiles.is_number(i.value) else "string", fd.path,
                    file_line(img, i.line), "use", decl="key" if i.key else "value",
                    language=datafiles.format_of(fd.path), fragment=img.fragment,
                    asserting=golden)
                for i in datafiles.items(fd.path, img.text, img.added)], None
    facts = languages.analyze(fd.path, img.text, img.added) if img is not None else None
    if facts is None or img is None:
        return [Occ(t.value, t.kind, t.path, t.line, _FALLBACK_ROLE.get(t.defines, "use"))
                for t in added_tokens([fd])], None
    # Import paths never certify (method §7): both patches importing one module is no graded
    # behavior.
    out = [Occ(t.value, t.kind, fd.path, file_line(img, t.line), t.role, decl=t.decl,
               scope=t.scope, owner=t.owner, language=facts.language, fragment=img.fragment,
               asserting=t.asserting, test=t.test, segments=t.fstring_parts,
               passed_on=t.passed_on)
           for t in facts.tokens if t.line in img.added
           and not (t.kind == "string" and t.role == "import")]
    return out, facts


@dataclass
class Side:
    occs: list[Occ]
    facts: dict[str, Any]  # path -> FileFacts
    images: dict[str, PostImage]


def read_side(files: list[FileDiff], read: Callable[[str], str | None] | None) -> Side:
    images = {img.path: img for img in post_images(files, read)}
    occs: list[Occ] = []
    facts: dict[str, Any] = {}
    for fd in files:
        if fd.binary:
            continue
        got, f = _file_occurrences(fd, images.get(fd.path))
        occs += got
        if f is not None:
            facts[fd.path] = f
    return Side(occs, facts, images)


def loc_key(loc: str) -> tuple[str, int]:
    path, _, line = loc.rpartition(":")
    return path, int(line)


def locations(occs: Iterable[Occ]) -> list[str]:
    return sorted({o.where for o in occs}, key=loc_key)[:MAX_LOCATIONS]
