"""Conventions (method §6.6, §7): the existing names and literals a new one follows, so that a
solver who reads the codebase could have written it. Each found is a Sibling (`path:line`, and
the word that replaces one of its parts); the verdict SQL turns them into CONVENTION.

Pure: the base files come through the `read` callable the proposer is given."""

from __future__ import annotations

import bisect
import functools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from determinacy import languages
from determinacy.paths import is_test_path
from determinacy.proposer import datafiles
from determinacy.proposer.occurrences import MAX_LOCATIONS, Occ, Side, loc_key
from determinacy.proposer.patches import IDENTIFIER, FileDiff, removed_lines, string_literals
from determinacy.proposer.postimage import base_line
from determinacy.prose import ACCESSORS, PLACEHOLDER, STOPWORDS, singulars, words
from determinacy.records import Sibling

MAX_MIRRORS = 4  # files a new file may mirror (`mirrored`)
MAX_PACKAGE = 8  # other files of a gold file's folder whose names it may follow


@functools.lru_cache(maxsize=1 << 17)
def _parts(path: str) -> tuple[str, str, tuple[str, ...]]:
    """Folder, extension and the name's words: asked of every path of a tree, per task."""
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    return folder, ext if dot else "", tuple(words(stem if dot else name))


def mirrors(new: str, old: str, parallel: bool = True) -> bool:
    """Does the new file `new` mirror the base file `old`? Same folder and extension, a name
    of two words or more with exactly one replaced (`bash_completions.go` for a new
    `zsh_completions.go`; a one-word name such as `settings.py` mirrors nothing: every module
    of its folder would); a name of three words or more so, in any folder. Or, when
    `parallel` (the new file's folder is new too), a parallel
    path: the same place in a folder whose name swaps one word, the swap repeated in the
    file's name if at all (`internal/logging/sink.go` for a new `internal/audit/sink.go`)."""
    a, b = new.split("/"), old.split("/")
    if new == old:
        return False
    _, ea, ma = _parts(new)
    _, eb, mb = _parts(old)
    if len(ma) >= 3 and ea == eb and replaced_part(ma, mb):
        # A name of three words or more with one replaced, in any folder: the type it
        # defines follows the other's (`UtcDateTypeAdapter.java`, `SqlDateTypeAdapter.java`).
        return True
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if diff == [len(a) - 1]:
        fa, ea, ma = _parts(new)
        fb, eb, mb = _parts(old)
        return ea == eb and bool(replaced_part(ma, mb))
    if not parallel or not diff or diff[0] == len(a) - 1:
        return False
    i = diff[0]
    return all(a[j] == b[j].replace(b[i], a[i]) for j in diff[1:])


def named_after(gold: str, old: str) -> bool:
    """Is `old` in a folder named after the gold file, one or two levels below it
    (`internal/encoding/encoder.go` for `encoding.go`): the package that implements what
    the file exposes, whose names the file's follow."""
    folder, ext, _ = _parts(gold)
    stem = gold.rsplit("/", 1)[-1].rpartition(".")[0]
    sub, o_ext, _ = _parts(old)
    head = f"{folder}/" if folder else ""
    if o_ext != ext or not stem or not sub.startswith(head):
        return False
    rest = sub[len(head):].split("/")
    return rest[-1] == stem and len(rest) <= 2


def mirrored(created: Iterable[str], listing: Iterable[str]) -> list[str]:
    """Files at base that a file the gold creates mirrors (`mirrors`), at most MAX_MIRRORS
    per new file. The names of the new file follow theirs (method §6.6)."""
    files = list(listing)
    folders = {p.rpartition("/")[0] for p in files}
    out: set[str] = set()
    for new in created:
        folder = new.rpartition("/")[0]
        fresh = folder not in folders
        # The new file's own folder first, then the nearest by path.
        out.update(sorted((p for p in files if mirrors(new, p, fresh)),
                          key=lambda p: (p.rpartition("/")[0] != folder, p))[:MAX_MIRRORS])
    return sorted(out)


def related(gold: Iterable[str], created: Iterable[str], listing: Iterable[str],
            test_paths: Sequence[str]) -> list[str]:
    """Files at base whose names the gold's may follow besides their own (method §6.6): the
    files a new file mirrors, the other source files of each gold file's folder (its
    package: a convention's sibling sits in a neighbouring file as often as in the same
    one), at most MAX_PACKAGE per folder, those whose names share most words with the gold
    file's first, and those of a folder named after a gold file (`named_after`)."""
    files = sorted(p for p in listing if not is_test_path(p, test_paths))
    created = set(created)
    out = set(mirrored(created, files))
    by_folder: dict[tuple[str, str], list[str]] = defaultdict(list)
    for p in files:
        folder, ext, _ = _parts(p)
        by_folder[(folder, ext)].append(p)
    for g in sorted(set(gold)):
        if is_test_path(g, test_paths):
            continue
        folder, ext, mine = _parts(g)
        near = [p for p in by_folder.get((folder, ext), ()) if p != g]
        near.sort(key=lambda p: (-len(set(mine) & set(_parts(p)[2])), p))
        out.update(near[:MAX_PACKAGE])
        out.update([p for p in files if named_after(g, p)][:MAX_PACKAGE])
    return sorted(out - (set(gold) - created))


class Defs:
    """What the gold's files say around a definition: the names and literals its file
    already had at base (for convention, method §7) and a callable's declaration line."""

    def __init__(self, gold: Side, test: Side, diffs: dict[str, FileDiff],
                 read: Callable[[str], str | None] | None = None, mirrors: Sequence[str] = (),
                 deleted: Sequence[str] = ()):
        self.gold, self.test, self.diffs, self.read = gold, test, diffs, read
        self.mirrors = list(mirrors)
        self.deleted = sorted(deleted)  # files the gold deletes: all their definitions go
        self.new = {p for s in (gold, test) for p, img in s.images.items() if img.new_file}
        self._base: dict[str, list[tuple[Any, int]]] | None = None
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
        """The syntax facts of a whole file at base (None: no grammar reads it): its
        definitions and string literals, all that is read of them (the other tokens, most of
        a file, are never built)."""
        if path not in self._facts:
            text = self._base_text(path)
            self._facts[path] = (languages.analyze(self._at_base(path), text, (),
                                                   strings=True)
                                 if text is not None else None)
        return self._facts[path]

    def _names_in(self, text: str) -> set[str]:
        """The distinct names a text spells (a superset of its definitions)."""
        if text not in self._names:
            self._names[text] = set(IDENTIFIER.findall(text))
        return self._names[text]

    def _may_follow(self, mine: list[str], text: str | None, name: str = "") -> bool:
        """Whether some name `text` spells is `mine` (the words of `name`) with one part
        replaced or added (or replaced by a run of `name`'s), or two share its first or last
        part (an affix): only then is the file parsed for its definitions."""
        if text is None:
            return False
        affixed = 0
        for n in self._names_in(text):
            theirs = _words(n)
            if replaced_part(mine, theirs) or added_part(mine, theirs) or (
                    name and replaced_by_run(name, theirs)):
                return True
            if len(theirs) >= 2 and len(mine) >= 2 and n != "".join(mine) and (
                    theirs[0] == mine[0] or theirs[-1] == mine[-1]):
                affixed += 1
                if affixed >= 2:
                    return True
        return False

    def _base_defs(self) -> dict[str, list[tuple[Any, int]]]:
        """path -> (definition, its base line) for the definitions that exist at base: on
        lines the gold did not add, or on lines it only re-laid (the same text, blanks
        aside: gofmt realigns a struct's fields when one longer name is added)."""
        if self._base is None:
            self._base = {}
            for path, f in self.gold.facts.items():
                img = self.gold.images[path]
                if img.fragment or img.new_file:
                    continue
                fd = self.diffs[path]
                relaid = _relaid(fd)
                out = []
                for t in f.tokens:
                    if t.role != "def":
                        continue
                    if t.line not in img.added:
                        out.append((t, base_line(fd, t.line)))
                    elif old := relaid.get(" ".join(img.line(t.line).split())):
                        out.append((t, old))
                self._base[path] = out
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

    def _members(self, d: Occ) -> Iterator[tuple[Any, str]]:
        """(definition, "path:line" at base) of every existing name of `d`'s declaration
        group that it may follow: in its own file, the other files of its folder (its
        package), and, for a new file, the files it mirrors."""
        group = (d.decl, d.scope, d.owner)
        folder = d.path.rpartition("/")[0]
        for path, toks in self._base_defs().items():
            if path == d.path or path.rpartition("/")[0] == folder:
                for t, line in toks:
                    if (t.decl, t.scope, t.owner) == group:
                        yield t, f"{self._at_base(path)}:{line}"
        mine = words(d.value)
        for path in self.mirrors:
            if path.rpartition("/")[0] != folder and not named_after(d.path, path) and not (
                    self.is_new(d.path) and mirrors(d.path, path)):
                continue
            facts = (self._base_facts(path)
                     if self._may_follow(mine, self._base_text(path), d.value) else None)
            for t in facts.tokens if facts is not None else ():
                if t.role == "def" and (t.decl, t.scope, t.owner) == group:
                    yield t, f"{path}:{t.line}"

    def siblings(self, d: Occ) -> list[Sibling]:
        """Existing names `d` follows (method §6.6), each a CONVENTION hypothesis: a name of
        its declaration group (`_members`) with exactly one of its camel/snake parts
        replaced, or one part added (the new part is `word`); a definition the gold removes
        from its file altogether (a rename: `context_defaults` for a new
        `context_settings`); a group of two names or more that share an affix (`StoreMemory`,
        `StoreDisk`), `d` being the affix around new words (`StoreRocksDB`: `word` is
        `RocksDB`); or any existing definition of the gold's files that differs from it only
        in case. `base_at` says where the base defines the new word, when it does (a family
        completed with a name or a field the base has)."""
        mine = words(d.value)
        group = (d.decl, d.scope, d.owner)
        out: dict[str, Sibling] = {}
        img = self.gold.images.get(d.path)
        removed = []
        if d.path in self.diffs and img is not None and not img.fragment:
            removed = self._removed_defs(d.path, mine)
            for t in removed:
                word = replaced_part(mine, words(t.value))
                # Still in the file after the patch: a name the gold kept, not one it renamed.
                if word and (t.decl, t.scope, t.owner) == group and t.value not in out \
                        and t.value not in self._names_in(img.text):
                    out[t.value] = Sibling(name=t.value, word=word,
                                           at=f"{self._at_base(d.path)}:{t.line}")
        for path, toks in self._base_defs().items():
            for t, line in toks:
                if t.value != d.value and t.value.casefold() == d.value.casefold():
                    out.setdefault(t.value, Sibling(name=t.value,
                                                    at=f"{self._at_base(path)}:{line}"))
        for sib in self._case_renamed(d):
            out.setdefault(sib.name, sib)
        members = [(t, at) for t, at in self._members(d) if t.value != d.value]
        # Names the base defines beside the sibling that a family may be completed with: the
        # other members of its type, and what the gold removes from the file.
        kin = [(t, f"{self._at_base(d.path)}:{line}")
               for t, line in self._base_defs().get(d.path, ()) if d.owner and t.owner == d.owner
               ] + [(t, f"{self._at_base(d.path)}:{t.line}") for t in removed]
        owned = self._owned(d)
        loose = set()  # a run for one part: after the nearer forms
        for t, at in members:
            theirs = words(t.value)
            word = replaced_part(mine, theirs) or added_part(mine, theirs)
            if not word and (word := replaced_by_run(d.value, theirs)):
                loose.add(t.value)
            if word and t.value not in out:
                made = self._gold_defines(word, d)
                out[t.value] = Sibling(name=t.value, at=at, word=word,
                                       base_at=_witnessed(mine, theirs, kin + members)
                                       or _fielded(mine, theirs, owned),
                                       why=_numbered(mine, word, members)
                                       or (f"a name the gold defines at {made}" if made else "")
                                       or self._renamed_word(word, d))
        for sib in (self._parallel_owner(d) + self._tested(d) + self._spelled_by_string(d)
                    + self._accessor_of(d)):
            out.setdefault(sib.name, sib)
        for sib in self._affixed(d, members):
            if sib.name not in out or (sib.base_at or sib.why) and not (
                    out[sib.name].base_at or out[sib.name].why):
                out[sib.name] = sib
        # Those that say where their word comes from first: only MAX_LOCATIONS are kept.
        # Case alone first; then those the base or the gold explains, a word's form before
        # a whole name's (an accessor, a test's name); a run for one part after the rest.
        return sorted(out.values(), key=lambda s: (bool(s.word or s.why),
                                                   not (s.base_at or s.why), not s.word,
                                                   s.name in loose,
                                                   loc_key(s.at)))[:MAX_LOCATIONS]

    def _renamed_word(self, word: str, d: Occ) -> str:
        """The reason when `word` is a part of a definition of `d`'s kind that the gold
        removes from any of its files and that is gone after it (a rename, a file deleted and
        written anew): `JsonTreeWriter` beside `JsonTreeReader`, renamed from
        `JsonElementWriter`."""
        after = {o.value for o in self.gold.occs if o.role == "def"}
        pattern = re.compile(rf"[A-Za-z0-9_$]*{re.escape(word)}[A-Za-z0-9_$]*", re.I)
        for t, _ in self._removed_defs_anywhere(lambda text: bool(pattern.search(text))):
            if t.value != d.value and word in words(t.value) and t.value not in after \
                    and (t.decl, t.scope, t.owner) == (d.decl, d.scope, d.owner):
                return f"a word of `{t.value}`, which the gold renames"
        return ""

    def _removed_defs_anywhere(self, may_hold: Callable[[str], bool]
                               ) -> Iterator[tuple[Any, str]]:
        """(definition, path) of each definition the gold removes from any of its files, a
        file it deletes too, read from the whole base file: only files whose removed text
        `may_hold` accepts are parsed."""
        gone: list[tuple[str, FileDiff | None]] = sorted(self.diffs.items())
        gone += [(p, None) for p in self.deleted]
        for path, fd in gone:
            if fd is not None and fd.new_file:
                continue
            removed = ("".join(text for h in fd.raw for tag, text in h.lines if tag == "-")
                       if fd is not None else self._base_text(path) or "")
            if not may_hold(removed):
                continue
            facts = self._base_facts(path)
            lines = removed_lines(fd) if fd is not None else None
            for t in facts.tokens if facts is not None else ():
                if t.role == "def" and (lines is None or t.line in lines):
                    yield t, path

    def _owned(self, d: Occ) -> list[tuple[Any, str]]:
        """(definition, "path:line") of the members the base gives `d`'s owner (a type's
        fields and methods), in the gold's files and the files of their folders."""
        if not d.owner:
            return []
        out = [(t, f"{self._at_base(path)}:{line}") for path, toks in self._base_defs().items()
               for t, line in toks if t.owner == d.owner]
        folder = d.path.rpartition("/")[0]
        for path in self.mirrors:
            if path.rpartition("/")[0] != folder or d.owner not in (self._base_text(path) or ""):
                continue
            facts = self._base_facts(path)
            out += [(t, f"{path}:{t.line}") for t in (facts.tokens if facts else ())
                    if t.role == "def" and t.owner == d.owner]
        return out

    def _parallel_owner(self, d: Occ) -> list[Sibling]:
        """A member of a type whose name is `d`'s type's with one part replaced, renamed the
        same way (`_MaxLengthValidator.max_length` for `_MinLengthValidator.min_length`,
        `ZodDefault.removeDefault` for `ZodCatch.removeCatch`): the type's name gives it."""
        if not d.owner:
            return []
        mine, own = words(d.value), words(d.owner)
        out = []
        for path, toks in self._base_defs().items():
            for t, line in toks:
                if not t.owner or t.owner == d.owner or t.decl != d.decl \
                        or t.scope != d.scope.replace(d.owner, t.owner, 1):
                    continue
                theirs_owner = words(t.owner)
                new = replaced_part(own, theirs_owner)
                if not new:
                    continue
                old = theirs_owner[own.index(new)] if own.count(new) == 1 else ""
                theirs = words(t.value)
                if old and old in theirs and [new if w == old else w for w in theirs] == mine:
                    out.append(Sibling(name=t.value, at=f"{self._at_base(path)}:{line}",
                                       why=f"a member of `{t.owner}` renamed as `{d.owner}` "
                                           "renames its type"))
        return out[:1]

    def _accessor_of(self, d: Occ) -> list[Sibling]:
        """An accessor verb before a whole name of two words or more that the base has
        (`isHTTPError` with a class `HTTPError` at base, `get_user_name` with `UserName`):
        the language's idiom for a guard, getter or setter of that thing."""
        spans = [m.span() for m in _NAME_PART.finditer(d.value)]
        if len(spans) < 3 or d.value[:spans[0][1]].lower() not in ACCESSORS:
            return []
        rest = d.value[spans[1][0]:]
        at = self._name_at(rest)
        if not at:
            return []
        verb = d.value[:spans[0][1]]
        return [Sibling(name=rest, at=at, why=f"`{verb}` before a name the base has")]

    def _tested(self, d: Occ) -> list[Sibling]:
        """A test at base named after the name (`testParseString` for `parseString`,
        `test_min_length` for `min_length`): the base's own tests spell it."""
        mine = words(d.value)
        if len(mine) < 2:
            return []
        want = ["test", *mine]
        for path, img in sorted(self.test.images.items()):
            text = None if img.new_file else self._base_text(path)
            if text is None or d.value.lower() not in text.lower():
                continue
            for n in sorted(self._names_in(text)):
                m = re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", text) \
                    if words(n) == want else None
                if m:
                    line = text.count("\n", 0, m.start()) + 1
                    return [Sibling(name=n, at=f"{path}:{line}", why="a test at base named "
                                    "after it")]
        return []

    def _spelled_by_string(self, d: Occ) -> list[Sibling]:
        """A whole literal of `d`'s file at base that holds its words, three or more, in
        order (`"Failed to parse rpm -qf line: %s"` for a new `parseRpmQfLine`): a helper
        named after what the code already says it does."""
        mine = words(d.value)
        img = self.gold.images.get(d.path)
        text = self._base_text(d.path) if img is not None and not img.new_file else None
        if len(mine) < 3 or text is None or d.path not in self.diffs:
            return []
        run = re.compile(r"(?<![A-Za-z0-9])" + r"[^A-Za-z0-9]*".join(map(re.escape, mine))
                         + r"(?![a-z0-9])", re.I)
        for literal, line in self._base_literals(d.path, text, lambda v: bool(run.search(v))):
            return [Sibling(name=literal, at=f"{self._at_base(d.path)}:{line}",
                            why="its words, in this order, are a string the base has")]
        return []

    def _affixed(self, d: Occ, members: list[tuple[Any, str]]) -> list[Sibling]:
        """`d` as the affix two members of its group or more share, around new words: the
        Sibling's word is those words as `d` spells them, and `base_at` where a name spelled
        so is defined at base (`isHTTPError` beside `isTimeoutError`, `isRetryError`, with a
        `HTTPError` class at base)."""
        mine = words(d.value)
        groups: dict[tuple[int, int], list[tuple[Any, str]]] = defaultdict(list)
        for t, at in members:
            theirs = words(t.value)
            n = min(len(mine), len(theirs))
            p = next((i for i in range(n) if mine[i] != theirs[i]), n)
            q = next((i for i in range(n - p) if mine[-1 - i] != theirs[-1 - i]), n - p)
            if p + q and p + q < len(mine) and p + q < len(theirs):
                groups[(p, q)].append((t, at))
        out = []
        for (p, q), found in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            if len(found) < 2:
                continue
            spans = [m.span() for m in _NAME_PART.finditer(d.value)]
            last = len(spans) - 1
            word = d.value[spans[p][0]:spans[last - q][1]]
            t, at = min(found, key=lambda f: loc_key(f[1]))
            # The affix may be carried onto a whole name the base has (`is` + `HTTPError`).
            for whole in (word, d.value[spans[p][0]:] if p else "",
                          d.value[:spans[last - q][1]] if q else ""):
                # A single word is a name everywhere (`Pattern`): only a compound names
                # one thing the base has.
                if len(words(whole)) >= 2 and (base_at := self._name_at(whole)):
                    out.append(Sibling(name=t.value, at=at, word=whole, base_at=base_at))
                    break
                if whole and (made := self._gold_defines(whole, d)):
                    out.append(Sibling(name=t.value, at=at, word=whole,
                                       why=f"a name the gold defines at {made}"))
                    break
            else:
                out.append(Sibling(name=t.value, at=at, word=word))
        # The largest group, unless a smaller one finds where its word comes from (`File`
        # around a new `MattermostWebhookURL`, where `URLFile` around `MattermostWebhook`
        # finds nothing).
        return sorted(out, key=lambda sib: not (sib.base_at or sib.why))[:1]

    def _gold_defines(self, name: str, d: Occ) -> str:
        """`path:line` where the gold defines, besides `d`, a name of the same words as
        `name` ("" if it does not): the new names a family is completed with
        (`MattermostWebhookURLFile` beside a new `MattermostWebhookURL`, as every `XFile`
        beside its `X`; `NewBucket` beside a new type `Bucket`)."""
        mine = words(name)
        # Only a name the test uses too: a private field the test never names is the
        # solver's free choice, and so is the name built on it.
        used = {o.value for o in self.test.occs if o.kind == "identifier"}
        return next((o.where for o in self.gold.occs if o.role == "def"
                     and o.kind == "identifier" and o.value != d.value
                     and o.value in used and words(o.value) == mine), "")

    def _named_by_scope(self, word: str, gs: list[Occ]) -> str:
        """The receipt's reason when `word` is a word (maybe plural) of the new function the
        string is in, one the test calls (`"No nodes matched the query"` in a new
        `expectFirstNode` beside `expectFirst`'s `"No elements matched the query"`), else
        ""."""
        forms = singulars(word)
        used = {o.value for o in self.test.occs if o.kind == "identifier"}
        for o in gs:
            fn = o.scope.rsplit(".", 1)[-1]
            if fn in used and any(forms & singulars(w) for w in words(fn)) and (
                    at := next((g.where for g in self.gold.occs if g.value == fn
                                and g.role == "def" and g.kind == "identifier"), "")):
                return f"a word of the new function `{fn}` at {at} it is in"
        return ""

    def _case_renamed(self, d: Occ) -> list[Sibling]:
        """Definitions the gold removes, from any of its files (a deleted one too), whose
        name `d` spells with other letter case or other `_`/`$` marks around it: the same
        name exported, unexported, marked internal or moved (`mustParseURL` gone from
        `config/config.go`, `MustParseURL` new in `config/common/url.go`; `Cache` renamed
        `$Cache`)."""
        bare = d.value.strip("_$")
        if not bare:
            return []
        pattern = re.compile(rf"(?<![\w$])[_$]*{re.escape(bare)}[_$]*(?![\w$])", re.I)
        for t, path in self._removed_defs_anywhere(lambda text: any(
                m.group() != d.value for m in pattern.finditer(text))):
            if t.value != d.value and t.value.strip("_$").casefold() == bare.casefold():
                # Case alone needs no word; other marks are said (`$Cache` for `Cache`).
                why = ("" if t.value.casefold() == d.value.casefold()
                       else "the same name with other `_` or `$` marks")
                return [Sibling(name=t.value, at=f"{self._at_base(path)}:{t.line}", why=why)]
        return []

    def _name_at(self, name: str) -> str:
        """`path:line` where a gold file or a related file has a name of the same words as
        `name` at base ("" if none does; `HTTPError` for `http_error`), for four characters
        or more."""
        mine = words(name)
        if len(name) < 4 or not mine:
            return ""
        paths = sorted(p for p, img in self.gold.images.items() if not img.new_file)
        for path in paths + self.mirrors:
            text = self._base_text(path)
            for n in sorted(self._names_in(text)) if text is not None else ():
                if words(n) == mine:
                    m = re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", text or "")
                    if m:
                        return f"{self._at_base(path)}:{text.count(chr(10), 0, m.start()) + 1}"
        return ""

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
                    # A word only respelled needs none (`behaviour` -> `behavior`).
                    edit = _one_edit(_RUN.findall(constant), _RUN.findall(found))
                    respelled = edit is not None and not edit[0]
                    out[found] = Sibling(name=found, word="" if respelled else word,
                                         at=f"{self._at_base(path)}:{line}",
                                         why=edit[1] if edit and respelled
                                         else self._named_by_scope(word, gs))
        if len(out) < MAX_LOCATIONS:
            for path in sorted({o.path for o in gs}):
                for sib in (self._shaped(constant, path) + self._respelled(constant, path)
                            + self._edited(constant, path) + self._joined(constant, path)):
                    out.setdefault(sib.name, sib)
            # A fixed segment of a longer gold string follows what that string follows
            # (`" in route labels"` of `"invalid label name %q in route labels"`, built on
            # the base's `"invalid label name %q"`).
            for o in sorted({o for o in gs if o.value != constant}, key=lambda o: o.where):
                for sib in self._shaped(o.value, o.path) + self._edited(o.value, o.path):
                    out.setdefault(sib.name, sib)
        # One word replaced is the nearest form: those first, then the looser shapes, each
        # by place (only MAX_LOCATIONS are kept).
        ones = {name for name, sib in out.items() if sib.word and " " not in sib.word
                and len(words(name)) == len(mine)}
        return sorted(out.values(), key=lambda s: (s.name not in ones, loc_key(s.at)))[
            :MAX_LOCATIONS]

    def _shaped(self, constant: str, path: str) -> list[Sibling]:
        """Whole literals of a gold file at base that `constant` is built on: the same
        shape (punctuation and placeholders) with some words replaced and one of three
        letters or more kept (`"removing cache directory: %w"` beside `"reading cache file:
        %w"`: `word` is `removing directory`), or the literal itself with text added
        (`"Invalid URL {url!r}"` beside `"Invalid URL"`: `word` is what is added)."""
        img = self.gold.images.get(path)
        text = self._base_text(path) if img is not None and not img.new_file else None
        if text is None or path not in self.diffs:
            return []
        shape = _RUN.sub("\0", constant)
        mine = _RUN.findall(constant)

        def keep(v: str) -> bool:
            return v != constant and (_RUN.sub("\0", v) == shape or len(v) >= MIN_BUILT_ON
                                      and v in constant and len(words(v)) >= 2)
        out = []
        found = list(self._base_literals(path, text, keep))
        for literal, line in found:
            if _RUN.sub("\0", literal) == shape:
                pairs = list(zip(mine, _RUN.findall(literal), strict=True))
                new = [a for a, b in pairs if a != b]
                if not any(a == b and len(a) >= 3 for a, b in pairs) or not new:
                    continue
                word = " ".join(new) if len(new) > 1 else new[0]
            elif any(literal in longer and literal != longer and longer in constant
                     for longer, _ in found):
                continue  # the longest literal the string is built on says the most
            else:
                rest = constant.replace(literal, " ", 1)
                word = " ".join(rest.split()) or rest
            out.append(Sibling(name=literal, word=word, at=f"{self._at_base(path)}:{line}"))
        return out

    def _edited(self, constant: str, path: str) -> list[Sibling]:
        """Whole literals of a gold file at base that `constant` is with one small edit, at
        least MIN_KEPT of their words kept around it in order (placeholders aside): a run of
        one to three words replaced by one word, or one word by two or three (`word`: what
        `constant` has there: `"%s is not a valid UUID value"` beside `"%s is not a valid
        floating point value"`; `"Invalid nesting limit: "` beside `"Invalid version: "`);
        one word added (`word`: it) or taken out (`"... was in: {choices}"` beside `"... was
        not in: {choices}"`: no word, `why` says which); or one word respelled
        (`behaviour` -> `behavior`)."""
        img = self.gold.images.get(path)
        text = self._base_text(path) if img is not None and not img.new_file else None
        mine = _RUN.findall(PLACEHOLDER.sub(" ", constant))
        if text is None or path not in self.diffs or len(mine) < 2:
            return []
        low = {w.lower() for w in mine}

        def keep(v: str) -> bool:
            # Cheap first: it shares a word with `constant`, most of them for a long one.
            return v != constant and len({w.lower() for w in _RUN.findall(v)} & low) \
                >= (1 if len(mine) <= MIN_KEPT else MIN_KEPT)
        out = []
        skeleton = _SPAN.sub("\0", constant)

        def edited(literal: str) -> tuple[str, str] | None:
            theirs = _RUN.findall(PLACEHOLDER.sub(" ", literal))
            # A short message keeps its punctuation and first word: `"Invalid version: "`.
            short = (_SPAN.sub("\0", literal) == skeleton and theirs[:1] == mine[:1])
            return _one_edit(mine, theirs, 1 if short else MIN_KEPT)
        for literal, line in self._base_literals(path, text, keep):
            edit = edited(literal)
            if edit is not None:
                word, why = edit
                out.append(Sibling(name=literal, word=word, why=why,
                                   at=f"{self._at_base(path)}:{line}"))
        return out

    def _joined(self, constant: str, path: str) -> list[Sibling]:
        """Adjacent literals of a gold file at base that the code joins into one text
        holding `constant` (`" does not satisfy bounds" + " for type variable "`): the
        output the base already builds, whole or with a word edited."""
        img = self.gold.images.get(path)
        text = self._base_text(path) if img is not None and not img.new_file else None
        if text is None or path not in self.diffs or len(constant) < MIN_BUILT_ON:
            return []
        out = []
        for m in _JOINED.finditer(text):
            parts = [q[1:-1] for q in _PIECE.findall(m.group())]
            whole = "".join(parts)
            if constant in whole and not any(constant in p for p in parts):
                line = text.count("\n", 0, m.start()) + 1
                out.append(Sibling(name=whole, at=f"{self._at_base(path)}:{line}",
                                   why="the text the base builds from adjacent literals"))
        return out

    def _respelled(self, constant: str, path: str) -> list[Sibling]:
        """Whole literals of a gold file at base that hold `constant`'s words, three or more,
        in order, spelled otherwise (case, hyphens, punctuation: `"cannot be self closing;
        not a void tag"` for a new `"] cannot be self-closing; not a void tag"`). `word` is
        what `constant` spells otherwise, for the prose to give."""
        img = self.gold.images.get(path)
        text = self._base_text(path) if img is not None and not img.new_file else None
        runs = [r.lower() for r in _RUN.findall(constant)]
        if text is None or path not in self.diffs or len(runs) < 3:
            return []
        spelled = re.compile(r"(?<![A-Za-z0-9])" + r"[^A-Za-z0-9]+".join(map(re.escape, runs))
                             + r"(?![A-Za-z0-9])", re.I)

        def keep(v: str) -> bool:
            return constant not in v and bool(spelled.search(v))
        out = []
        for literal, line in self._base_literals(path, text, keep):
            theirs = set(literal.split())
            word = " ".join(t for t in constant.split() if t not in theirs and _RUN.search(t))
            out.append(Sibling(name=literal, word=word, at=f"{self._at_base(path)}:{line}"))
        return out

    def _base_literals(self, path: str, text: str, keep: Callable[[str], bool]
                       ) -> Iterator[tuple[str, int]]:
        """(text, line) of each whole string literal of a file at base (a data file's keys
        and values) that `keep` accepts, as its syntax tree (else its lexer) reads it."""
        at_base = self._at_base(path)
        if datafiles.format_of(at_base):
            for item in datafiles.items(at_base, text):
                if keep(item.value):
                    yield item.value, item.line
            return
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
        hits = [(m.group(2), bisect.bisect_right(starts, m.start(2)), m.start(2), m.end(2))
                for m in _QUOTED.finditer(text) if keep(m.group(2))]
        yield from self._whole(path, text, hits)

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
        yield from self._whole(path, text, hits)

    def _whole(self, path: str, text: str, hits: list[tuple[str, int, int, int]]
               ) -> Iterator[tuple[str, int]]:
        """(text, line) of the hits (text, line, start, end) that are whole string literals,
        as the file's syntax tree (else its lexer) reads them; parsed only when some are."""
        if not hits:
            return
        facts = self._base_facts(path)
        if facts is not None:
            strings = {(t.value, t.line) for t in facts.tokens if t.kind == "string"}
            yield from ((h, line) for h, line, _, _ in hits if (h, line) in strings)
            return
        spans = string_literals(self._at_base(path), text)
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
MIN_KEPT = 4  # words a string edited once (`_one_edit`) keeps of its sibling, at least
_SPAN = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")  # words and the blanks between them
# One-line literals joined by `+` (or set side by side, as Python and C join them).
_PIECE = re.compile(r""""(?:[^"\\\n])*"|'(?:[^'\\\n])*'""")
_JOINED = re.compile(rf"(?:{_PIECE.pattern})(?:[ \t]*\+?[ \t]*\n?[ \t]*\+?[ \t]*"
                     rf"(?:{_PIECE.pattern}))+")
_QUOTED = re.compile(r"([\"'`])((?:(?!\1)[^\n\\])+)\1")  # a one-line literal, no escapes
MIN_BUILT_ON = 8  # a base literal at least this long that a new string extends
_NAME_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")  # as prose.words


def _one_edit(new: list[str], old: list[str], kept: int = MIN_KEPT
              ) -> tuple[str, str] | None:
    """(word, why) when the words `new` are `old` with one small edit and at least `kept`
    words kept (see `Defs._edited`); None otherwise."""
    n = min(len(new), len(old))
    p = next((i for i in range(n) if new[i] != old[i]), n)
    q = next((i for i in range(n - p) if new[-1 - i] != old[-1 - i]), n - p)
    mid_new, mid_old = new[p:len(new) - q], old[p:len(old) - q]
    if p + q < kept or (not mid_new and not mid_old):
        return None
    if not mid_new and len(mid_old) == 1:
        return "", f"with `{mid_old[0]}` taken out"
    if not mid_old and len(mid_new) == 1:
        # Glue needs no source (`allowed` -> `are allowed`); another word, the prose's.
        return ("", f"with `{mid_new[0]}` added") if mid_new[0].lower() in STOPWORDS \
            else (mid_new[0], "")
    if len(mid_new) == 1 and len(mid_old) == 1 and _respelling(mid_new[0], mid_old[0]):
        return "", f"with `{mid_old[0]}` respelled `{mid_new[0]}`"
    if len(mid_new) == 1 and 1 <= len(mid_old) <= 3 or len(mid_old) == 1 and \
            2 <= len(mid_new) <= 3:
        return " ".join(mid_new), ""
    return None


def _respelling(a: str, b: str) -> bool:
    """One letter added, dropped or changed in a word of five letters or more (`behaviour`,
    `behavior`), case aside."""
    a, b = a.lower(), b.lower()
    if min(len(a), len(b)) < 5 or a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def added_part(new: list[str], old: list[str]) -> str:
    """The part `new` adds to `old` (at least two parts) keeping the rest in order, or ""
    (`upstream_browser_version_short` beside `upstream_browser_version`)."""
    if len(new) != len(old) + 1 or len(old) < 2:
        return ""
    i = next((i for i, (a, b) in enumerate(zip(new, old)) if a != b), len(old))
    return new[i] if new[:i] + new[i + 1:] == old else ""


def _relaid(fd: FileDiff) -> dict[str, int]:
    """Each removed line's text, blanks collapsed -> its base line: where an added line with
    the same text only re-lays a line the base has."""
    out: dict[str, int] = {}
    for h in fd.raw:
        line = h.source_start
        for tag, text in h.lines:
            if tag == "-":
                out.setdefault(" ".join(text.split()), line)
            if tag != "+":
                line += 1
    out.pop("", None)
    return out


def _numbered(mine: list[str], word: str, members: list[tuple[Any, str]]) -> str:
    """The receipt's reason when `word` is a number inside the range (one step beyond,
    at most) the numbers of a family of two members or more span at its place
    (`PY_3_10_PLUS` beside `PY_3_9_PLUS` and `PY_3_12_PLUS`), else ""."""
    if not word.isdigit():
        return ""
    i = mine.index(word)
    nums = sorted({int(w[i]) for t, _ in members if len(w := words(t.value)) == len(mine)
                   and w[i].isdigit() and w[:i] + w[i + 1:] == mine[:i] + mine[i + 1:]})
    if len(nums) < 2 or not nums[0] - 1 <= int(word) <= nums[-1] + 1:
        return ""
    return f"a number inside the family's range ({nums[0]} to {nums[-1]})"


def _witnessed(mine: list[str], theirs: list[str], pool: list[tuple[Any, str]]) -> str:
    """Where the base makes the very change the new name makes to its sibling between two
    names of its own ("" if nowhere): `try_recv_from` beside `recv_from` witnesses
    `try_peek_from` beside `peek_from`; `matchRoute` beside `findRoute` would witness
    `matchPattern` for `findPattern`. A word some other name merely contains is no family."""
    names = {tuple(words(t.value)): at for t, at in pool}
    if len(mine) == len(theirs):
        diff = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
        if len(diff) != 1:
            return ""
        i = diff[0]
        old, new = theirs[i], mine[i]
        for w, at in sorted(names.items(), key=lambda kv: loc_key(kv[1])):
            if len(w) > 1 and new in w and w != tuple(mine):
                j = w.index(new)
                if w[:j] + (old,) + w[j + 1:] in names:
                    return at
        return ""
    if len(mine) == len(theirs) + 1:
        i = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), len(theirs))
        new = mine[i]
        for w, at in sorted(names.items(), key=lambda kv: loc_key(kv[1])):
            if len(w) > 2 and new in w and w != tuple(mine):
                j = w.index(new)
                if w[:j] + w[j + 1:] in names:
                    return at
    return ""


def replaced_by_run(name: str, old: list[str]) -> str:
    """The two or three parts of `name`, as it spells them, that take the place of exactly
    one part of `old` (at least two parts), the rest the same ("" if none):
    `GenPowerShellCompletion` beside `GenBashCompletion` -> `PowerShell`."""
    spans, new = _name_parts(name)
    k = len(new) - len(old)
    if len(old) < 2 or k not in (1, 2):
        return ""
    p = next((i for i in range(len(old)) if new[i] != old[i]), len(old))
    if p == len(old) or new[p + k + 1:] != old[p + 1:] or new[p] == old[p]:
        return ""
    return name[spans[p][0]:spans[p + k][1]]


# A file's every name is held against each new one (`_may_follow`): their parts once each.
# The lists are shared: callers only read them.
_words = functools.lru_cache(maxsize=1 << 16)(words)


@functools.lru_cache(maxsize=1 << 12)
def _name_parts(name: str) -> tuple[list[tuple[int, int]], list[str]]:
    spans = [m.span() for m in _NAME_PART.finditer(name)]
    return spans, [name[a:b].lower() for a, b in spans]


def _fielded(mine: list[str], theirs: list[str], owned: list[tuple[Any, str]]) -> str:
    """Where the base has the word the new name puts in its sibling's, as a member of the
    same type that also has the sibling's word ("" if not): `ResetCommands` beside
    `ResetFlags` when the type has the fields `commands` and `flags`."""
    if len(mine) != len(theirs):
        return ""
    diff = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
    if len(diff) != 1:
        return ""
    names = {tuple(words(t.value)): at for t, at in owned}
    new, old = (mine[diff[0]],), (theirs[diff[0]],)
    return names[new] if new in names and old in names else ""


def replaced_part(new: Sequence[str], old: Sequence[str]) -> str:
    """The part of `new` that replaces exactly one part of `old` (same number of parts, at
    least two), or ""."""
    if len(new) != len(old) or len(new) < 2:
        return ""
    diff = [i for i, (a, b) in enumerate(zip(new, old, strict=True)) if a != b]
    return new[diff[0]] if len(diff) == 1 else ""
