"""Escaped graph text renders as the same text in Streamlit markdown, never as markup."""

from __future__ import annotations

from dashboard.views.markdown_text import escape_markdown

HOSTILE = "![x](http://example.com/p.png) <img src=x onerror=alert(1)> :red[boom] $x$ **bold** [link](http://a)"


def test_special_characters_are_escaped():
    escaped = escape_markdown(HOSTILE)
    assert "](http" not in escaped and ":red[" not in escaped and "**" not in escaped
    assert "\\<img" in escaped
    assert escaped.replace("\\", "") == HOSTILE


def test_line_breaks_become_spaces():
    assert escape_markdown("a\nb") == "a b"
