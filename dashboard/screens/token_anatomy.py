"""Token anatomy page: where each format's tokens go (structure, ids, types, values, preamble, marker)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from core.analysis.prefix_stability import DEFAULT_EDITS
from core.analysis.request_anatomy import request_rows
from core.prompt.answers import schema_for
from core.specs import SweepSpec
from core.tokens import TOKENIZERS
from core.tokens.tokenizers.gguf_file import is_gguf_name
from dashboard import cache
from dashboard.analysis_cache import SCOPES, anatomy_frame
from dashboard.analysis_controls import tokenizers_to_show
from dashboard.sidebar import Selection, budget_controls, current
from dashboard.views.charts import anatomy_chart
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.prefix_chart import prefix_stability_chart
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
    cache_section(selection)


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


CACHE_NOTE = ("A provider's prompt cache reuses the longest prefix of a request it has already seen. After one edit to the "
              "graph (a node added, an edge removed or a property changed, each drawn with its seed and applied to the "
              "graph as loaded), the context is rendered again: the share is the tokens of the first rendering whose "
              "text stays a byte-identical prefix of the new one, over all its tokens. Every ordering, nodes then "
              "edges, for the formats in the sidebar.")
CACHE_REQUESTS = "prefix_stability_requested"  # the measurements this session asked for
RADII = {"the whole graph": None, "within 1 hop of the seeds": 1, "within 2 hops of the seeds": 2,
         "within 3 hops of the seeds": 3}


def cache_section(selection: Selection) -> None:
    """What a prompt cache keeps after an edit (core.analysis.prefix_stability), measured when the reader asks."""
    st.subheader("What a prompt cache keeps after an edit")
    st.caption(CACHE_NOTE)
    seeds = selection.seeds.node_ids
    if not seeds:
        st.info("Pick seed nodes in the sidebar: the seed orderings start from them.", icon=":material/info:")
        return
    controls = st.columns(3)
    edits = int(controls[0].number_input("Edits", min_value=1, max_value=100, value=DEFAULT_EDITS, key="cache_edits",
                                         help="Each edit is applied to the graph as loaded, on its own"))
    edit_seed = int(controls[1].number_input("Edit seed", min_value=0, value=0, step=1, key="cache_edit_seed",
                                             help="Edit i is drawn with this seed + i (the CLI's --edit-seed)"))
    context = controls[2].selectbox("Context", list(RADII), key="cache_radius",
                                    help="Render only the units near the seeds, so an edit farther away falls outside "
                                         "the context")
    radius = RADII[context]
    key = (selection.graph.content_key, selection.tokenizer, selection.formats, seeds, selection.query_key, edits,
           edit_seed, radius)
    requested = st.session_state.setdefault(CACHE_REQUESTS, set())
    if key not in requested:
        st.button("Measure what the cache keeps", on_click=requested.add, args=(key,), key="cache_measure",
                  help=f"Renders each format in every ordering {edits + 1:,} times: once as loaded, once per edit")
        return
    summary, samples, edit_list, touching = measured_stability(
        selection.graph.content_key, selection.graph, selection.tokenizer, selection.formats, seeds,
        selection.query_key, selection.query, edits, edit_seed, radius)
    label = f"{selection.tokenizer}, approximate" if selection.approximate else selection.tokenizer
    st.plotly_chart(prefix_stability_chart(samples, label, edits), width="stretch", key="cache_chart")
    where = "the whole graph is rendered" if radius is None else f"the units within {radius} hop(s) are rendered"
    st.caption(f"{touching:,} of {edits:,} edits touched the rendered units ({where}); an edit outside them can still "
               "move the context under an ordering that reads the whole graph (PageRank, centrality).")
    show_table(summary, "cache_table", hide_index=True)
    with st.expander(f"The {edits:,} edits and their seeds"):
        show_table(edit_list, "cache_edits_table", hide_index=True)


@st.cache_data(max_entries=16, show_spinner="Rendering every format and ordering before and after each edit")
def measured_stability(content_key: str, _graph, tokenizer: str, formats: tuple[str, ...], seeds: tuple[str, ...],
                       query_key: str, _query, edits: int, edit_seed: int, radius: int | None
                       ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, int]:
    """The workbench's measurement as the frames the page draws (cached by its inputs, the graph by its key)."""
    spec = SweepSpec.from_names(_graph, [_query], seeds=seeds, format_names=formats, layouts=["nodes_then_edges"],
                                tokenizer_name=tokenizer, radius=radius)
    result = cache.workbench().prefix_stability(spec, edits, edit_seed)
    edit_list = pd.DataFrame([{"edit": index + 1, "seed": edit.seed, "kind": edit.kind, "what": edit.what,
                               "touched the context": hit}
                              for index, (edit, hit) in enumerate(zip(result.edits, result.touched))])
    return result.summary().drop(columns=["layout"]), result.samples(), edit_list, result.touching


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
