"""Is a constant stated in the prose? Every normalization here only makes certification harder
(method §6.3): exact, case-insensitive, and the constant's words as a run of the prose's words."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """`renderBadge`, `render_badge`, `render-badge`, `Render badge` -> ["render", "badge"]."""
    return [w.lower() for w in _WORD.findall(text)]


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
        segments = fixed_segments(constant)
        if PLACEHOLDER.search(constant) and segments and all(
                seg.strip().casefold() in self.folded for seg in segments):
            return "format segments"
        if any(folded.startswith(o) for o in self.openings):
            return "prose template"
        return ""
