"""Context panels: escaped text, the cut line, dimmed dropped text, evidence marks and pages."""

from __future__ import annotations

import html
import re
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from core.tokens import TOKENIZERS
from core.tokens.token_spans import token_ends
from dashboard.views.context_html import (
    Highlight,
    context_html,
    page_bounds,
    page_containing,
    pages_around,
    record_bounds,
)

TAGS = re.compile(r"<[^>]*>")


def visible_text(markup: str) -> str:
    """The text a reader sees: tags and the cut-line label removed, entities decoded."""
    without_cut = re.sub(r'<span style="display:block[^>]*>.*?</span>|<style>.*?</style>', "", markup)
    return html.unescape(TAGS.sub("", without_cut))


@given(st.text(max_size=80), st.data())
def test_the_text_survives_escaping_exactly(text, data):
    cut = data.draw(st.integers(0, len(text)))
    ends = token_ends(TOKENIZERS.get("o200k_base"), text)
    markup = context_html(text, cut=cut, token_ends=ends)
    assert visible_text(markup) == text


def test_markup_in_the_text_is_escaped():
    markup = context_html('<img src=x onerror="alert(1)"><script>', cut=None)
    assert "<img" not in markup and "<script" not in markup
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;" in markup


def test_text_after_the_cut_is_struck_and_the_cut_line_is_marked():
    markup = context_html("keep|drop", cut=5, cut_label="budget 3 tokens")
    kept, dropped = markup.split("✂ budget 3 tokens")
    assert "keep|" in kept and 'class="dropped"' not in kept
    assert re.search(r'<span class="dropped">drop</span>', dropped)


def test_a_cut_at_the_end_still_shows_the_line():
    assert "✂" in context_html("all kept", cut=8)


def test_evidence_is_green_when_kept_and_red_when_cut():
    markup = context_html("aaa bbb ccc", cut=8, evidence=[Highlight(0, 3, True), Highlight(8, 11, False)])
    kept, dropped = markup.split("✂")
    assert '<span class="k kb">aaa</span>' in kept
    assert '<span class="c cb">ccc</span>' in dropped and '<span class="dropped">' in dropped
    assert ".gcl-context .k{box-shadow:inset 0 -3px 0 #16a34a}" in markup
    assert ".gcl-context .cb{background:#fee2e2}" in markup


def test_token_colours_alternate_per_token():
    markup = context_html("ab", cut=None, token_ends=[1, 2])
    classes = re.findall(r'<span class="(t[0-9])">', markup)
    assert len(classes) == 2 and classes[0] != classes[1]


def test_only_the_kept_text_has_token_colours():
    markup = context_html("ab|cd ef", cut=3, token_ends=[1, 2, 3, 4, 5, 8], evidence=[Highlight(6, 8, False)])
    kept, dropped = markup.split("✂")
    assert re.findall(r'<span class="t[0-9]">(.*?)</span>', kept) == ["a", "b", "|"]
    assert '<span class="dropped">cd <span class="c cb">ef</span></span>' in dropped  # evidence still marked


def test_whitespace_can_be_made_visible():
    markup = context_html("a b\n\tc", cut=None, show_whitespace=True)
    assert visible_text(markup) == "a·b↵\n→c"


def test_a_window_shows_only_its_part():
    markup = context_html("0123456789", cut=7, window=(5, 10))
    assert visible_text(markup) == "56789" and "✂" in markup


def test_pages_cover_the_text_and_end_after_line_breaks():
    text = "".join(f"line {index}\n" for index in range(2000))
    pages = page_bounds(text, 1000)
    assert pages[0][0] == 0 and pages[-1][1] == len(text)
    assert all(left[1] == right[0] for left, right in pairwise(pages))
    assert all(text[end - 1] == "\n" for _, end in pages)
    assert page_containing(pages, pages[3][0]) == 3 and page_containing(pages, len(text)) == len(pages) - 1


def test_record_bounds_follow_the_preamble():
    assert record_bounds("{", ["a,", "bc"]).tolist() == [1, 3, 5]  # records span [1, 3) and [3, 5)
    assert record_bounds("[", []).tolist() == [1]


def test_the_cut_page_starts_a_few_lines_above_the_cut():
    text = "".join(f"line {index:04}\n" for index in range(3000))  # 10 characters a line
    cut = text.index("line 2000")
    pages = pages_around(text, cut, 1000, lines_before=6)
    assert pages[0][0] == 0 and pages[-1][1] == len(text)
    assert all(left[1] == right[0] for left, right in pairwise(pages))
    page = pages[page_containing(pages, cut)]
    assert text[page[0]:cut].count("\n") == 6 and page[0] == text.index("line 1994")


def test_the_cut_page_starts_at_the_text_when_the_cut_is_near_it():
    text = "a\nb\nc\n" * 3
    assert pages_around(text, 4, 1000) == [(0, len(text))]


def test_the_cut_page_never_starts_far_above_the_cut_on_a_long_line():
    text = "x" * 5000
    pages = pages_around(text, 4000, 1000, reach=360)
    assert pages[page_containing(pages, 4000)][0] == 3640


def test_only_the_cut_page_differs_from_the_texts_own_pages():
    text = "".join(f"line {index:04}\n" for index in range(3000))
    grid = page_bounds(text, 1000)
    for cut in (0, 5, text.index("line 1000"), text.index("line 1095") + 3, len(text) - 4, len(text)):
        pages = pages_around(text, cut, 1000, grid=grid)
        assert pages == pages_around(text, cut, 1000)  # a kept grid changes nothing
        assert pages[0][0] == 0 and pages[-1][1] == len(text) and all(
            left[1] == right[0] and left[0] < left[1] for left, right in pairwise(pages))
        cut_page = pages[page_containing(pages, cut)]
        assert cut_page[1] - cut_page[0] <= 1500 and (cut_page[1] - cut_page[0] >= 500 or cut_page[1] == len(text))
        assert [page for page in pages if page not in grid] in ([], [cut_page], [pages[pages.index(cut_page) - 1], cut_page])
