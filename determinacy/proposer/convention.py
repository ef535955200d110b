"""Conventions (method §6.6, §7): the existing names and literals a new one follows, so that a
solver who reads the codebase could have written it. Each found is a Sibling (`path:line`, and
the word that replaces one of its parts); the verdict SQL turns them into CONVENTION.

Pure: the base files come through the `read` callable the proposer is given."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from determinacy import languages
from determinacy.proposer import datafiles
from determinacy.proposer.occurrences import MAX_LOCATIONS, Occ, Side, loc_key
from determinacy.proposer.patches import IDENTIFIER, FileDiff, removed_lines, string_literals
from determinacy.proposer.postimage import base_line
from determinacy.prose import words
from determinacy.records import Sibling

MAX_MIRRORS = 4  # files a new file may mirror (`mirrored`)


def mirrored(created: Iterable[str], listing: Iterable[str]) -> list[str]:
    """Files at base that a file the gold creates mirrors: in the same folder, with the same
    extension, a name of two words or more with exactly one replaced (`bash_completions.go`
    for a new `zsh_completions.go`; a one-word name such as `settings.py` mirrors nothing:
    every module of its folder would), at most MAX_MIRRORS per new file. The names of the
    new file follow theirs (method §6.6)."""
    folders: dict[tuple[str, str], list[tuple[str, list[str]]]] = defaultdict(list)
    for path in listing:
        folder, _, name = path.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        folders[(folder, ext if dot else "")].append((path, words(stem if dot else name)))
    out: set[str] = set()
    for new in created:
        folder, _, name = new.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        mine = words(stem if dot else name)
        out.update(sorted(p for p, theirs in folders.get((folder, ext if dot else ""), ())
                          if p != new and replaced_part(mine, theirs))[:MAX_MIRRORS])
    return sorted(out)


class Defs:
    """What the gold's files say around a definition: the names and literals its file
    already had at base (for convention, method §7) and a callable's declaration line."""

    def __init__(self, gold: Side, test: Side, diffs: dict[str, FileDiff],
                 read: Callable[[str], str | None] | None = None, mirrors: Sequence[str] = ()):
        self.gold, self.diffs, self.read, self.mirrors = gold, diffs, read, list(mirrors)
        self.new = {p for s in (gold, test) for p, img in s.images.items() if img.new_file}
        self._base: dict[str, list[Any]] | None = None
        self._names: dict[str, set[str]] = {}
        self._texts: dict[str, str | None] = {}
        # Syntax facts of base files, each parsed once, and only for a name or string that
        # may follow one of its names or literals (a cheap text check first).
        self._facts: dict[str, Any] = {}

    def is_new(self, path: str) -> bool:
        return path in self.new

    def _at_base(self, path: str) -> str:
        """The file's path at base_commit (its old name when the gold renames it)."""
        fd = self.diffs.get(path)
        return (fd.old_path or path) if fd is not None else path

    def _base_text(self, path: str) -> str | None:
        """The text at base of a gold file (by its path after the patch) or a mirror."""
        if path not in self._texts:
            self._texts[path] = self.read(self._at_base(path)) if self.read else None
        return self._texts[path]

    def _base_facts(self, path: str) -> Any:
        """The syntax facts of a whole file at base (None: no grammar reads it)."""
        if path not in self._facts:
            text = self._base_text(path)
            self._facts[path] = (languages.analyze(self._at_base(path), text)
                                 if text is not None else None)
        return self._facts[path]

    def _names_in(self, text: str) -> set[str]:
        """The distinct names a text spells (a superset of its definitions)."""
        if text not in self._names:
            self._names[text] = set(IDENTIFIER.findall(text))
        return self._names[text]

    def _may_follow(self, mine: list[str], text: str | None) -> bool:
        """Whether some name `text` spells is `mine` with one part replaced: only then is the
        file parsed for its definitions."""
        return text is not None and any(replaced_part(mine, words(n))
                                        for n in self._names_in(text))

    def _base_defs(self) -> dict[str, list[Any]]:
        """path -> definitions on lines the gold did not add (so they exist at base)."""
        if self._base is None:
            self._base = {}
            for path, f in self.gold.facts.items():
                img = self.gold.images[path]
                if not img.fragment and not img.new_file:
                    self._base[path] = [t for t in f.tokens if t.role == "def"
                                        and t.line not in img.added]
        return self._base

    def _removed_defs(self, path: str, mine: list[str]) -> list[Any]:
        """The definitions on the lines the gold removes from `path` (base lines), read from
        the whole base file: what a rename leaves behind."""
        fd = self.diffs[path]
        removed = "".join(text for h in fd.raw for tag, text in h.lines if tag == "-")
        if not self._may_follow(mine, removed):
            return []
        lines = removed_lines(fd)
        facts = self._base_facts(path)
        return [t for t in facts.tokens if t.role == "def" and t.line in lines] \
            if facts is not None else []

    def siblings(self, d: Occ) -> list[Sibling]:
        """Existing names `d` follows: same declaration kind, scope and owner in its file
        (or, for a new file, in the files it mirrors), with exactly one of its camel/snake
        parts replaced (the new part is `word`); so is a definition the gold removes from
        its file altogether (a rename: `context_defaults` for a new `context_settings`); or
        any existing definition of the gold's files that differs from it only in case."""
        mine = words(d.value)
        group = (d.decl, d.scope, d.owner)
        out: dict[str, Sibling] = {}
        img = self.gold.images.get(d.path)
        if d.path in self.diffs and img is not None and not img.fragment:
            for t in self._removed_defs(d.path, mine):
                word = replaced_part(mine, words(t.value))
                # Still in the file after the patch: a name the gold kept, not one it renamed.
                if word and (t.decl, t.scope, t.owner) == group and t.value not in out \
                        and t.value not in self._names_in(img.text):
                    out[t.value] = Sibling(name=t.value, word=word,
                                           at=f"{self._at_base(d.path)}:{t.line}")
        for path, toks in self._base_defs().items():
            fd = self.diffs[path]
            for t in toks:
                if t.value == d.value or t.value in out:
                    continue
                at = f"{self._at_base(path)}:{{}}"
                if t.value.casefold() == d.value.casefold():
                    out[t.value] = Sibling(name=t.value, at=at.format(base_line(fd, t.line)))
                elif path == d.path and (t.decl, t.scope, t.owner) == group:
                    word = replaced_part(mine, words(t.value))
                    if word:
                        out[t.value] = Sibling(name=t.value,
                                               at=at.format(base_line(fd, t.line)), word=word)
        if self.is_new(d.path):
            # A new file's names follow the file it mirrors (same kind, scope and owner).
            for path in self.mirrors:
                facts = (self._base_facts(path)
                         if self._may_follow(mine, self._base_text(path)) else None)
                for t in facts.tokens if facts is not None else ():
                    if t.role == "def" and t.value not in out \
                            and (t.decl, t.scope, t.owner) == group:
                        word = replaced_part(mine, words(t.value))
                        if word:
                            out[t.value] = Sibling(name=t.value, at=f"{path}:{t.line}",
                                                   word=word)
        return sorted(out.values(), key=lambda s: (s.word != "", loc_key(s.at)))[
            :MAX_LOCATIONS]

    def text_siblings(self, constant: str, gs: list[Occ]) -> list[Sibling]:
        """Existing strings a new string follows: a whole literal (or data-file key or
        value) that the base version of a file of its gold occurrences holds, the same text
        with exactly one of its words replaced (the new word is `word`): `"Windows 11
        Version 24H2"` beside a new `"Windows 11 Version 25H2"`, also where the gold edits
        that literal in place."""
        mine = words(constant)
        if len(mine) < 2:
            return []
        # Each word in turn left open; a literal starts at a quote (no backtracking into
        # a long run of letters).
        ones = [re.compile(re.escape(constant[:r.start()]) + _RUN.pattern
                           + re.escape(constant[r.end():])) for r in _RUN.finditer(constant)]
        out: dict[str, Sibling] = {}
        for path in sorted({o.path for o in gs}):
            img = self.gold.images.get(path)
            text = self._base_text(path) if img is not None and not img.new_file else None
            if text is None or path not in self.diffs:
                continue
            for found, line in self._base_strings(path, text, ones):
                word = replaced_part(mine, words(found))
                if word and found not in out:
                    out[found] = Sibling(name=found, word=word,
                                         at=f"{self._at_base(path)}:{line}")
        return sorted(out.values(), key=lambda s: loc_key(s.at))[:MAX_LOCATIONS]

    def _base_strings(self, path: str, text: str, patterns: list[re.Pattern[str]]
                      ) -> Iterator[tuple[str, int]]:
        """(text, line) of each string of a gold file at base that one of `patterns` matches
        whole: a data file's keys and values; elsewhere, the content of a whole string
        literal, as its syntax tree (else its lexer) reads it: never a comment, a docstring or
        part of a longer string."""
        at_base = self._at_base(path)
        if datafiles.format_of(at_base):
            for item in datafiles.items(at_base, text):
                if any(p.fullmatch(item.value) for p in patterns):
                    yield item.value, item.line
            return
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
        hits = []  # text between two equal quotes, first: few survive, the parse is for them
        for p in patterns:
            for hit in re.finditer(f"(?<=[\"'`])(?:{p.pattern})(?=[\"'`])", text):
                a, b = hit.span()
                if text[a - 1] == text[b]:
                    hits.append((hit.group(), bisect.bisect_right(starts, a), a, b))
        if not hits:
            return
        facts = self._base_facts(path)
        if facts is not None:
            strings = {(t.value, t.line) for t in facts.tokens if t.kind == "string"}
            yield from ((h, line) for h, line, _, _ in hits if (h, line) in strings)
            return
        spans = string_literals(at_base, text)
        yield from ((h, line) for h, line, a, b in hits if spans is None or (a, b) in spans)

    def signature(self, d: Occ) -> str:
        """A callable's declaration from its name to the body's opening (`:` or `{`), at
        most a few lines, blanks collapsed."""
        img = self.gold.images.get(d.path)
        if d.decl not in ("function", "method") or img is None or img.fragment:
            return ""
        lines = img.text.split("\n")[d.line - 1:d.line + 5]
        text = " ".join(x.strip() for x in lines)
        end = min((i for i in (_body_start(text),) if i >= 0), default=len(text))
        return re.sub(r"\s+", " ", text[:end]).strip()[:300]


def _body_start(text: str) -> int:
    """Where a declaration's body opens: the first `{`, or a `:` that ends a line's
    parameter list (Python), whichever comes first outside brackets."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth <= 0 and (ch == "{" or ch == ":" and text[i + 1:i + 2] in (" ", "")):
            return i
    return -1


_RUN = re.compile(r"[A-Za-z0-9]+")  # a word of a string, as `text_siblings` swaps one


def replaced_part(new: list[str], old: list[str]) -> str:
    """The part of `new` that replaces exactly one part of `old` (same number of parts, at
    least two), or ""."""
    if len(new) != len(old) or len(new) < 2:
        return ""
    diff = [i for i, (a, b) in enumerate(zip(new, old, strict=True)) if a != b]
    return new[diff[0]] if len(diff) == 1 else ""
