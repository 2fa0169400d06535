"""Walkthrough page: a guided sequence on the default sample that sets seeds, query and budget, and explains."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.budget_sweep import budget_sweep
from core.registry import FORMATS, ORDERINGS
from core.samples import default_sample
from core.seeds import Seeds
from core.teaching import comparison_sentence
from dashboard import cache
from dashboard.sidebar import current
from dashboard.views.context_panel import draw_panel

QUESTION = "db-identity fails: which services and teams are affected?"


@dataclass(frozen=True)
class Step:
    title: str
    policy: str
    ordering: str
    text: str


STEPS = (
    Step("Raw cut: the document breaks", "raw", "canonical",
         "The first format is cut after a quarter of its tokens, mid-record. The text ends wherever the "
         "budget ran out, so a decoder (or a model expecting valid syntax) gets a broken document, and "
         "the records it would need for the answer are not even reached."),
    Step("Record-aware: whole records, always valid", "record", "canonical",
         "The record policy appends whole records while the next still fits and closes the document, so "
         "it always parses. But in canonical order the records come by id, nodes before edges: the "
         "dependency edges that carry the answer are past the cut line (red marks)."),
    Step("Hop tiers: the nearest evidence comes first", "record", "hop_tiers",
         "Ordering by hop tier writes db-identity, then every unit one hop away, then the next ring. Every "
         "ring whose D_k(S) (the tokens of all units within k hops, in the table below) fits the budget is kept "
         "whole, so the evidence nearest the seed is guaranteed. This question's evidence reaches as far as "
         "its farthest dependent service, so the full answer needs the budget of that ring."),
)


def apply(step: Step, budget: int) -> None:
    """Set the sidebar to the step: default sample, seeds from the question, its policy, ordering and budget."""
    sample = default_sample()
    state = st.session_state
    state.update(source="sample", sample=sample.name, seed_mode="question", question=QUESTION,
                 formats=[FORMATS.names()[0]], policy=step.policy, ordering=step.ordering, budget=budget)
    if sample.query_template is not None:
        state["query"] = sample.query_template


@st.cache_data(max_entries=8, show_spinner="Cutting the walkthrough's budgets…")
def step_figures(sample_name: str, format_name: str, tokenizer: str, tight: int) -> pd.DataFrame:
    """Canonical against hop tiers for the walkthrough's format at the tight budget, twice it and four times it."""
    sample = default_sample()
    return budget_sweep(cache.sample_graph(sample_name), sample.default_query(), Seeds(tuple(sample.seeds)),
                        formats=[format_name], orderings=["canonical", "hop_tiers"], layout="nodes_then_edges",
                        policies=["record"], budgets=[tight, 2 * tight, 4 * tight], tokenizer=tokenizer)


def show() -> None:
    selection = current()
    st.title("Walkthrough")
    sample = default_sample()
    first = FORMATS.names()[0]
    sample_graph = cache.sample_graph(sample.name)
    tight = cache.walkthrough_budget(sample_graph.content_key, sample_graph, first, selection.tokenizer)
    st.markdown(f"On the **{sample.title}**: *{QUESTION}* Each step sets the sidebar (seeds from the question, "
                f"the {FORMATS.get(first).title} format, a tight budget of {tight:,} tokens) and the panel below "
                "shows what survives. The Contexts and Graph pages show the same state.")
    for number, step in enumerate(STEPS, start=1):
        with st.container(border=True):
            left, right = st.columns([4, 1])
            left.markdown(f"**{number}. {step.title}** — {ORDERINGS.get(step.ordering).title} ordering, "
                          f"{step.policy} policy")
            left.caption(step.text)
            right.button("Show me", key=f"step_{number}", on_click=apply, args=(step, tight), width="stretch")
    frame = step_figures(sample.name, first, selection.tokenizer, tight)
    st.markdown("**What the figures say** (record policy, computed now, not written in advance): "
                + comparison_sentence(frame, "hop_tiers", "canonical") + " "
                + comparison_sentence(frame, "hop_tiers", "canonical", "traversal_accuracy"))
    region = cache.coverage(sample_graph.content_key, sample_graph, sample.seeds, first, selection.tokenizer)
    st.markdown(f"**What each hop ring costs** in {FORMATS.get(first).title} (from {', '.join(sample.seeds)}): "
                "a hop-tier cut at budget B keeps every unit within k hops exactly when B ≥ D_k(S).")
    st.dataframe(pd.DataFrame(region, columns=["k (hops)", "units within k hops", "D_k(S) tokens"]),
                 hide_index=True, key="coverage_table")
    st.divider()
    st.caption("What the sidebar shows now:")
    draw_panel(selection, selection.formats[0], selection.policy, colour=False, whitespace=False)
    links = st.columns(2)
    links[0].page_link("screens/contexts.py", label="Open the Contexts page", icon=":material/content_cut:")
    links[1].page_link("screens/graph.py", label="Open the Graph page", icon=":material/hub:")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
