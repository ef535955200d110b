"""Is a constant stated in the prose? Every normalization here only makes certification harder
(method §6.3): exact, case-insensitive, and the constant's words as a run of the prose's words
(for two words or more also singular or plural, and up to four in any order)."""

from __future__ import annotations

import itertools
import os
import re
import unicodedata

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """`renderBadge`, `render_badge`, `render-badge`, `Render badge` -> ["render", "badge"]."""
    return [w.lower() for w in _WORD.findall(text)]


MAX_RUN = 4  # the longest run of a name's words matched in any order
# Words whose final s is no plural ending (besides those ending in ss, us and is).
_NOT_PLURAL = frozenset(
    "https news always perhaps whereas yes its thus plus windows series species ios macos "
    "chaos kudos alias canvas atlas bias gas lens".split())


def singulars(word: str) -> set[str]:
    """A lower-case word and what it may be with a plural ending taken off: `widths` ->
    width; `caches` -> cache or cach; `entries` -> entry or entrie. Two words are one when
    their sets meet (`release` and `releases`, never `http` and `https`)."""
    out = {word}
    if len(word) > 3 and word.endswith("s") and word not in _NOT_PLURAL \
            and not word.endswith(("ss", "us", "is")):
        out.add(word[:-1])
        if word.endswith("es"):
            out.add(word[:-2])
        if word.endswith("ies"):
            out.add(word[:-3] + "y")
    return out


def inflections(word: str) -> set[str]:
    """A lower-case word and its stem with a plural or verb ending taken off: `setting` ->
    set, `removing` -> remove, `destroyed` -> destroy, `caches` -> cache. Two words are one
    when their sets meet."""
    out = singulars(word)
    for end in ("ing", "ed"):
        stem = word[:-len(end)]
        if word.endswith(end) and len(stem) >= 3:
            out |= {stem, stem + "e"}
            if len(stem) >= 4 and stem[-1] == stem[-2]:  # setting, stopped
                out.add(stem[:-1])
    return out


# Placeholders of format strings and of templates written in prose: `%s`, `%w`, `%-5d`, `{}`,
# `{name}`, `{0:>3}`, `${expr}`, `<product-name>`.
PLACEHOLDER = re.compile(r"%[-+ #0-9.]*[a-zA-Z]|\$\{[^}]*\}|\{[^{}\s]*\}|<[A-Za-z][\w .-]*>")
# A prose template's fixed opening at least this long, starting a constant, states it.
MIN_OPENING = 8
_OPENING = re.compile(r"(?<!\S)([^\s<{%$]{" + str(MIN_OPENING) + r",})(?:"
                      + PLACEHOLDER.pattern + ")")


def fixed_segments(text: str) -> list[str]:
    """The parts of a format string or template between its placeholders."""
    return [p for p in PLACEHOLDER.split(text) if p.strip()]


# Words that glue a message together: adding or swapping one says nothing a solver must know.
STOPWORDS = frozenset(
    "a an the of to for in on at by with from is are be was were not no and or as it this "
    "that".split())

_NAME = re.compile(r"[A-Za-z_$][\w$]*")
# The verbs a name puts before what the prose calls a thing (`SetDefaultShellCompDirective`
# for "the default ShellCompDirective"): the language's accessor and toggle idiom.
ACCESSORS = frozenset("set get is has enable disable with add remove new".split())
# A name with a wildcard: at least three characters of name around one or more `*`.
_WILDCARD = re.compile(r"(?<![\w*])(?=[\w*]*\w{3})(?:\w+\*[\w*]*|\*\w[\w*]*)(?![\w*])")
# Glue, and the modal words a message adds to what the prose says ("x must be y" for "x is
# y"): left out of both sides by `_loosely`.
_GLUE = STOPWORDS | frozenset(
    "must should can cannot could will would shall may might has have had been being do does "
    "did".split())

_VERSION = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")


# Prose whose letters are this share or more outside the Latin script is written in another
# language: it may give a name in words of its own, which no normalization here matches.
OTHER_SCRIPT = 0.2


def other_script(text: str) -> float:
    """The share of the text's letters that are not Latin (CJK, Cyrillic, Greek, ...)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    latin = sum(1 for ch in letters if ch.isascii() or "LATIN" in unicodedata.name(ch, ""))
    return 1 - latin / len(letters)


class Prose:
    def __init__(self, text: str):
        self.text = text
        self.folded = text.casefold()
        self.joined = " " + " ".join(words(text)) + " "
        # Where each word, or it without a plural ending, stands: "terminal widths" and
        # "filename format" state `terminal_width` and `format_filename` (`_said`).
        self._at: dict[str, set[int]] = {}
        for i, w in enumerate(words(text)):
            for form in singulars(w):
                self._at.setdefault(form, set()).add(i)
        # Each word that is no glue word, as its inflections: a message or a name may say
        # what the prose says with other endings or glue (`_loosely`).
        self._content = [inflections(w) for w in words(text) if w not in _GLUE]
        self._plain = [{w} for w in words(text) if w not in _GLUE]
        # Where each form stands among them: a run is looked for only where it can start.
        self._content_at: dict[str, list[int]] = {}
        self._plain_at: dict[str, list[int]] = {}
        for i, (forms, (plain,)) in enumerate(zip(self._content, self._plain, strict=True)):
            for f in forms:
                self._content_at.setdefault(f, []).append(i)
            self._plain_at.setdefault(plain, []).append(i)
        # Names the prose gives as a family (`par_rchunks*`, "the `try_*` variants"): each a
        # pattern a whole name matches.
        self.wildcards = [re.compile(r"\w*".join(map(re.escape, m.split("*"))))
                          for m in sorted(set(_WILDCARD.findall(text)))]
        # Versions written as names drop their dots (`qt_66` for Qt 6.6, `py311`): every
        # leading run of a dotted version's numbers, joined.
        self.versions = {"".join(v.split(".")[:n]) for v in _VERSION.findall(text)
                         for n in range(2, v.count(".") + 2)}
        # Openings of the prose's templates: `cpe:2.3:o:fortinet:<product-name>:<version>`
        # states every constant that begins with `cpe:2.3:o:fortinet:`.
        self.openings = sorted({m.group(1).casefold() for m in _OPENING.finditer(text)})

    def has_word(self, word: str) -> bool:
        """`word` (one part of a name, lower case) is a word of the prose."""
        return f" {word.lower()} " in self.joined or word in self.versions

    def has_stem(self, word: str) -> bool:
        """A word of the prose and `word` (four characters or more) share a stem: they differ
        at most in an ending of two characters past a common start of four or more (`short`
        and "shorten", `removing` and "remove", `directory` and "directories")."""
        w = word.lower()
        if len(w) < 4:
            return False
        for p in self._at:
            if len(p) >= 4 and p[:4] == w[:4]:
                n = len(os.path.commonprefix([p, w]))
                if n >= max(4, min(len(p), len(w)) - 2):
                    return True
        return False

    def gives(self, word: str) -> bool:
        """Does the prose give what a new name or string has in place of its sibling's? A
        word or a run of words (`RocksDB`: "rocks db"), maybe with an ending; for several
        words separated by blanks (a message's), each one, or a word only glue
        (STOPWORDS). Placeholders need no word."""
        parts = words(PLACEHOLDER.sub(" ", word))
        if " " not in word.strip():
            return (not parts or f" {' '.join(parts)} " in self.joined
                    or len(parts) == 1 and (self.has_word(parts[0]) or self.has_stem(parts[0])))
        return all(p in STOPWORDS or self.has_word(p) or self.has_stem(p) for p in parts)

    def _said(self, name: list[str]) -> bool:
        """The words of a name as a run of the prose's words, each maybe plural on either
        side; a run of two to MAX_RUN words in any order too."""
        at = [set().union(*(self._at.get(f, set()) for f in singulars(w))) for w in name]
        if any(all(s + j in at[j] for j in range(1, len(name))) for s in at[0]):
            return True
        if len(name) > MAX_RUN:
            return False
        orders = list(itertools.permutations(range(len(name))))
        starts = {p - j for ps in at for p in ps for j in range(len(name))}
        return any(all(s + order[j] in at[j] for j in range(len(name)))
                   for s in starts for order in orders)

    def match(self, constant: str) -> str:
        """The first normalization under which `constant` is in the prose, or ""."""
        if constant in self.text:
            return "exact"
        folded = constant.casefold()
        if folded in self.folded:
            return "case-insensitive"
        w = words(constant)
        if w and f" {' '.join(w)} " in self.joined:
            return "words"
        if len(w) >= 2 and self._said(w):
            return "words, singular or reordered"
        segments = fixed_segments(constant)
        if PLACEHOLDER.search(constant) and segments and all(
                seg.strip().casefold() in self.folded for seg in segments):
            return "format segments"
        if any(folded.startswith(o) for o in self.openings):
            return "prose template"
        if any(w.fullmatch(constant) for w in self.wildcards):
            return "prose wildcard"
        content = [x for x in w if x not in _GLUE]
        if _NAME.fullmatch(constant) and self._loosely(content, inflected=True):
            return "words, inflected, one apart"
        if not _NAME.fullmatch(constant) and self._loosely(content, inflected=False):
            return "words, glue aside"
        if not _NAME.fullmatch(constant) and self._swapped(w):
            return "words, one replaced by another of the prose"
        if _NAME.fullmatch(constant) and len(w) >= 3 and w[0] in ACCESSORS and (
                f" {' '.join(w[1:])} " in self.joined or self._said(w[1:])):
            return "words, with an accessor's prefix"
        if _NAME.fullmatch(constant) and len(w) >= 2 and w[0] in ACCESSORS \
                and self._after_verb(w[0], w[1:]):
            return "words, after the prose's verb"
        return ""

    def _after_verb(self, verb: str, rest: list[str]) -> bool:
        """The prose has the accessor `verb` (with any ending) and, among the content words
        right after it (as many as `rest` has, and one more), every word of `rest`, in any
        order, each maybe inflected: "Allow setting method name" gives `setName`, "to enable
        complex key serialization of maps" `enableComplexMapKeySerialization`."""
        window = len(rest) + 1
        for i in self._content_at.get(verb, ()):
            near = self._content[i + 1:i + 1 + window]
            if all(any(inflections(x) & forms for forms in near) for x in rest):
                return True
        return False

    def _swapped(self, mine: list[str]) -> bool:
        """A message of four words or more that is a run of the prose's words with one of
        them replaced by another word the prose has: the prose writes the shape out for a
        sibling (`".pick() cannot be used on object schemas containing refinements"`, and
        "partial") and the solver fills it in."""
        if len(mine) < 4:
            return False
        at = [self._at.get(x, set()) for x in mine]
        if not all(at[i] for i in range(len(mine))):
            return False  # every word, the swapped one too, is a word of the prose
        # All but one word stand in place, so one of the two rarest does: start there.
        rare = sorted(range(len(mine)), key=lambda i: len(at[i]))[:2]
        starts = {p - i for i in rare for p in at[i]}
        return any(sum(s + i not in ps for i, ps in enumerate(at)) == 1 for s in starts)

    def _loosely(self, mine: list[str], inflected: bool) -> bool:
        """Three words or more, glue left out, as a run of the prose's words: a name with
        other endings and at most one prose word left out (`SET_WINDOW_TITLE` for "Setting
        terminal window title"); a message word for word ("x must be either 'none' or
        'daily'" for "x is either 'none' or 'daily'"), since a test compares its text. A
        word the prose lacks keeps the claim."""
        if len(mine) < 3:
            return False
        forms = [inflections(x) if inflected else {x} for x in mine]
        prose = self._content if inflected else self._plain
        n = len(forms)

        def run(j: int, skips: int) -> bool:
            i = 0
            while i < n and j < len(prose):
                if forms[i] & prose[j]:
                    i, j = i + 1, j + 1
                elif skips and i:
                    skips, j = skips - 1, j + 1
                else:
                    return False
            return i == n
        index = self._content_at if inflected else self._plain_at
        starts = sorted({j for f in forms[0] for j in index.get(f, ())})
        return any(run(j, int(inflected)) for j in starts)
