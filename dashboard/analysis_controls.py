"""Controls the analysis pages share: the budget list in the sidebar, the second tokenizer, error panels."""

from __future__ import annotations

import streamlit as st

from core.errors import GraphContextError
from core.registry import TOKENIZERS
from dashboard.sidebar import current
from dashboard.views.markdown_text import escape_markdown

APPROXIMATION_NOTE = ("Counts are exact for OpenAI's o200k_base and cl100k_base. Providers without a public "
                      "tokenizer (Anthropic, Google, …) are approximated by these: treat their figures as estimates.")


def budget_list() -> tuple[int, ...]:
    """The sweep budgets of the sidebar's list (drawn on every page, so a new graph's default reaches the URL)."""
    return current().budgets


def tokenizers_to_show(tokenizer: str, key: str) -> tuple[str, ...]:
    """The sidebar's tokenizer, and the other one when the reader asks for a side-by-side comparison.

    Each page has its own `key` (URL parameter): a parameter bound on one page is not carried to another.
    """
    side_by_side = st.toggle("Compare tokenizers side by side", value=False, key=key,
                             bind="query-params", help=APPROXIMATION_NOTE)
    if not side_by_side:
        return (tokenizer,)
    others = [name for name in TOKENIZERS.names() if name != tokenizer]
    st.caption(APPROXIMATION_NOTE)
    return (tokenizer, *others[:1])


def show_error(error: GraphContextError) -> None:
    """Core's message for a sweep that cannot run with these settings (as text, never markup)."""
    st.warning(f"**Nothing to sweep with these settings.**\n\n{escape_markdown(str(error))}", icon="⚠️")
