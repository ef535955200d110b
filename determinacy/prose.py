"""Is a constant stated in the prose? Every normalization here only makes certification harder
(method §6.3): exact, case-insensitive, and the constant's words as a run of the prose's words
(also singular, and for two to four words in any order)."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """`renderBadge`, `render_badge`, `render-badge`, `Render badge` -> ["render", "badge"]."""
    return [w.lower() for w in _WORD.findall(text)]


MAX_RUN = 4  # the longest run of words matched in any order


def singular(word: str) -> str:
    """A lower-case word with a plural ending taken off (`widths`, `boxes`, `entries`); words
    ending in ss, us or is kept (`class`, `status`, `this`)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


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


_VERSION = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")


class Prose:
    def __init__(self, text: str):
        self.text = text
        self.folded = text.casefold()
        self.joined = " " + " ".join(words(text)) + " "
        # The same words singular, and every run of two to four of them in any order: a prose
        # that says "terminal widths" or "filename format" states `terminal_width` and
        # `format_filename`.
        single = [singular(w) for w in words(text)]
        self.singular = " " + " ".join(single) + " "
        self.runs = {tuple(sorted(single[i:i + k])) for k in range(2, MAX_RUN + 1)
                     for i in range(len(single) - k + 1)}
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
        single = [singular(x) for x in w]
        if w and (f" {' '.join(single)} " in self.singular
                  or tuple(sorted(single)) in self.runs):
            return "words, singular or reordered"
        segments = fixed_segments(constant)
        if PLACEHOLDER.search(constant) and segments and all(
                seg.strip().casefold() in self.folded for seg in segments):
            return "format segments"
        if any(folded.startswith(o) for o in self.openings):
            return "prose template"
        return ""
