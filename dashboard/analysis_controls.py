"""Controls the analysis pages share: the budget list in the sidebar, the second tokenizer, error panels."""

from __future__ import annotations

import streamlit as st

from core.errors import GraphContextError
from core.tokens import TOKENIZERS
from dashboard.sidebar import current
from dashboard.views.markdown_text import escape_markdown

APPROXIMATION_NOTE = ("Counts are exact for every registered tokenizer (OpenAI, gpt-oss, Llama 3, Qwen, Mistral "
                      "Tekken, DeepSeek). Providers without a public tokenizer (Anthropic, Google) are approximated "
                      "by o200k_base: treat their figures as estimates.")


def budget_list() -> tuple[int, ...]:
    """The sweep budgets of the sidebar's list (drawn on every page, so a new graph's default reaches the URL)."""
    return current().budgets


def tokenizers_to_show(tokenizer: str, key: str) -> tuple[str, ...]:
    """The sidebar's tokenizer, and the ones the reader picks to compare it with, side by side.

    Each page has its own `key` (URL parameter): a parameter bound on one page is not carried to another.
    """
    side_by_side = st.toggle("Compare tokenizers side by side", value=False, key=key,
                             bind="query-params", help=APPROXIMATION_NOTE)
    if not side_by_side:
        return (tokenizer,)
    names = TOKENIZERS.names()  # the same options whatever the sidebar says, so a kept choice stays valid
    default = [name for name in names if name != tokenizer][:1]
    compared = st.multiselect("Compare with", names, default=default, max_selections=3, key=f"{key}_with",
                              bind="query-params", help="Any registered tokenizer (up to three beside the sidebar's)")
    st.caption(APPROXIMATION_NOTE)
    return (tokenizer, *[name for name in compared if name != tokenizer])


def show_error(error: GraphContextError) -> None:
    """Core's message for a sweep that cannot run with these settings (as text, never markup)."""
    st.warning(f"**Nothing to sweep with these settings.**\n\n{escape_markdown(str(error))}", icon="⚠️")
