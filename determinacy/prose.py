"""Is a constant stated in the prose? Every normalization here only makes certification harder
(method §6.3): exact, case-insensitive, and the constant's words as a run of the prose's words."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def words(text: str) -> list[str]:
    """`renderBadge`, `render_badge`, `render-badge`, `Render badge` -> ["render", "badge"]."""
    return [w.lower() for w in _WORD.findall(text)]


class Prose:
    def __init__(self, text: str):
        self.text = text
        self.folded = text.casefold()
        self.joined = " " + " ".join(words(text)) + " "

    def match(self, constant: str) -> str:
        """The first normalization under which `constant` is in the prose, or ""."""
        if constant in self.text:
            return "exact"
        if constant.casefold() in self.folded:
            return "case-insensitive"
        w = words(constant)
        if w and f" {' '.join(w)} " in self.joined:
            return "words"
        return ""
