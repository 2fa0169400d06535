"""Graph text shown inside Streamlit markdown, escaped so it stays text (no links, images, HTML or colours)."""

from __future__ import annotations

import re

# Everything markdown, Streamlit's :colour[...] / :emoji: directives and LaTeX ($) give meaning to.
# Safe on any text: a single character class.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&=\"'])")


def escape_markdown(text: str) -> str:
    """`text` with every markdown-special character backslash-escaped and line breaks as spaces."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))
