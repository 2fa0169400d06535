"""Token anatomy page: where each format's tokens go (structure, ids, types, values, preamble, marker)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from core.analysis.request_anatomy import request_rows
from core.prompt.answers import schema_for
from core.tokens import TOKENIZERS
from core.tokens.tokenizers.gguf_file import is_gguf_name
from dashboard.analysis_cache import SCOPES, anatomy_frame
from dashboard.analysis_controls import tokenizers_to_show
from dashboard.sidebar import Selection, budget_controls, current
from dashboard.views.charts import anatomy_chart
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

RULE = ("Each character is given a category from the renderer's atom spans (property keys, punctuation and "
        "whitespace are structure). A token that straddles two categories is counted once, in the category "
        "holding most of its bytes (a tie goes to its first byte's), so the categories sum exactly to the "
        "token count. The grammar (the instructions a model needs to read the format) counts with the preamble.")


def show() -> None:
    selection = current()
    st.title("Token anatomy")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering {selection.ordering} · layout "
               f"{selection.layout}. What is the syntax tax of each format on this graph?"
               + (f" Counts are approximate (≈): {escape_markdown(selection.approximation)}." if selection.approximate
                  else ""))
    controls = st.columns([2, 1.4, 2])  # room for "Truncation marker" and its help at 1280 px (it read "Truncation m…")
    scope = controls[0].segmented_control("Text", SCOPES, default=SCOPES[0], key="anatomy_scope",
                                          bind="query-params") or SCOPES[0]
    marker = controls[1].toggle("Truncation marker", value=False, key="marker", bind="query-params",
                                help="Write [k of n records shown] after a cut document",
                                disabled=scope == SCOPES[0])
    with controls[2]:
        tokenizers = tokenizers_to_show(selection.tokenizer, "anatomy_tokenizers")
    st.caption(RULE)
    at_budget(selection, scope, marker, tokenizers)
    whole_request(selection)


REQUEST_NOTE = ("The request a provider bills: the model's chat template (**wrapper**: role headers, special tokens, "
                "a default system prompt, the reply's opening) around the lab's answer frame (**frame**: instructions, "
                "question, answer shape) around the graph (**context**: grammar and data, as budgets count them), each "
                "exact; together the tokens of the whole wrapped request.")


@st.cache_data(max_entries=32, show_spinner="Counting the whole request")
def request_table(content_key: str, _graph, reader: str, tokenizer: str, formats: tuple[str, ...], query_key: str,
                  question: str, _schema) -> pd.DataFrame:
    rows = request_rows(reader, TOKENIZERS.get(tokenizer), _schema, question, _graph, formats)
    return pd.DataFrame(rows).set_index("format") if rows else pd.DataFrame()


def whole_request(selection: Selection) -> None:
    """Wrapper, frame and context of the request holding each shown format's complete text."""
    reader = selection.tokenizer if is_gguf_name(selection.tokenizer) else selection.model
    st.subheader("The whole request")
    st.caption(REQUEST_NOTE)
    schema = schema_for(selection.query.name, selection.solution.answer)
    question = selection.query.question_on(selection.graph)
    table = request_table(selection.graph.content_key, selection.graph, reader, selection.tokenizer,
                          selection.formats, selection.query_key, question, schema)
    if table.empty:
        st.info(f"{escape_markdown(reader)} publishes no chat template: its wrapper is not counted (the frame and "
                "the context are).", icon="ℹ️")
        return
    template = str(table["chat template"].iloc[0]).replace("`", "")  # a code span shows its text as it is
    st.markdown(f"Sent to **{escape_markdown(reader)}** with its chat template `{template}`, the complete text as "
                "context:")
    show_table(table.drop(columns=["chat template"]), "request_table")  # the number style: 4,082, not 4082


@st.fragment
def at_budget(selection: Selection, scope: str, marker: bool, tokenizers: tuple[str, ...]) -> None:
    """The budget controls and the charts of the cut they change: moving the budget reruns only this."""
    slider, number = st.columns([4, 1], vertical_alignment="bottom")
    selection = replace(selection, budget=budget_controls(slider, selection.budget_limit, number))
    if scope == SCOPES[1]:
        st.markdown(f"Each format cut at **{selection.budget:,}** tokens under the **{selection.policy}** policy.")
    else:
        st.caption("The budget applies when the text shown is the cut at the budget.")
    for column, tokenizer in zip(st.columns(len(tokenizers)), tokenizers):
        with column:
            table = anatomy_frame(selection, tokenizer, scope, marker and scope == SCOPES[1])
            label = f"{tokenizer}, approximate" if selection.approximate and tokenizer == selection.tokenizer else tokenizer
            st.plotly_chart(anatomy_chart(table, label), width="stretch", key=f"anatomy_chart_{tokenizer}")
            show_table(table, f"anatomy_table_{tokenizer}", column_config={
                "syntax tax": st.column_config.NumberColumn(help="Share of tokens that carry no graph value: "
                                                            "structure, preamble and grammar, marker")})


if __name__ == "__main__":  # run as a page by st.navigation
    show()
