"""Walkthrough page: a guided sequence on the default sample that sets seeds, query and budget, and explains."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.formats import FORMATS
from core.io.samples import default_sample
from core.queries import QUERIES, Query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from dashboard import cache
from dashboard.context_panel import draw_panel
from dashboard.query_widgets import QUERY_PARAMETER_PREFIX
from dashboard.sidebar import current
from dashboard.state.teaching import WalkthroughPlan, step_sentences, walkthrough_plan
from dashboard.views.markdown_text import escape_markdown

SEED = "svc-noise-0016"  # a service at the edge of the reference graph: its 2-hop dependencies sit far from it by id
QUERY = Query(QUERIES.get("dependencies_within"), (("hops", 2), ("relation", "depends_on"), ("start", SEED)))


@dataclass(frozen=True)
class Step:
    title: str
    policy: str
    ordering: str


STEPS = (
    Step("Raw cut: the document breaks", "raw", "canonical"),
    Step("Record-aware: whole records, always valid", "record", "canonical"),
    Step("Hop tiers: the nearest evidence comes first", "record", "hop_tiers"),
)


def apply(step: Step, budget: int) -> None:
    """Set the sidebar to the step: default sample, the walkthrough's seed and query, its policy, ordering and
    budget."""
    state = st.session_state
    state.update(source="sample", sample=default_sample().name, seed_mode="nodes", seeds=[SEED],
                 formats=[FORMATS.names()[0]], policy=step.policy, ordering=step.ordering, budget=budget,
                 query=QUERY.name)
    for parameter, value in QUERY.arguments:
        state[QUERY_PARAMETER_PREFIX + parameter] = value


@st.cache_data(max_entries=8, show_spinner="Choosing the walkthrough's budget…")
def plan_for(sample_name: str, format_name: str, tokenizer: str) -> WalkthroughPlan:
    """dashboard.state.teaching.walkthrough_plan on the sample: the budget where each step shows its point."""
    return walkthrough_plan(cache.sample_graph(sample_name), QUERY, Seeds((SEED,)), format_name, tokenizer)


def show() -> None:
    selection = current()
    st.title("Walkthrough")
    sample = default_sample()
    first = FORMATS.names()[0]
    sample_graph = cache.sample_graph(sample.name)
    plan = plan_for(sample.name, first, selection.tokenizer)
    question = QUERY.question_on(sample_graph)
    st.markdown(f"On the **{sample.title}**: *{escape_markdown(question)}* Each step sets the sidebar (seed "
                f"{SEED}, the {FORMATS.get(first).title} format, a budget of {plan.budget:,} tokens, chosen as the "
                "smallest hop ring that answers the question) and the panel below shows what survives. The "
                "Contexts and Graph pages show the same state. Every sentence is built from the figures computed "
                "now.")
    for number, (step, sentence) in enumerate(zip(STEPS, step_sentences(plan, FORMATS.get(first).title),
                                                  strict=True), start=1):
        with st.container(border=True):
            left, right = st.columns([4, 1])
            left.markdown(f"**{number}. {step.title}** — {ORDERINGS.get(step.ordering).title} ordering, "
                          f"{step.policy} policy")
            left.caption(escape_markdown(sentence))
            right.button("Show me", key=f"step_{number}", on_click=apply, args=(step, plan.budget), width="stretch")
    st.dataframe(pd.DataFrame([{"step": f"{number}. {step.title}", "parses": figures.parse_ok,
                                "records kept": f"{figures.records_kept:,} / {figures.records_total:,}",
                                "evidence survival": figures.evidence_survival,
                                "traversal accuracy": figures.traversal_accuracy}
                               for number, (step, figures) in enumerate(zip(STEPS, plan.steps, strict=True), start=1)]),
                 hide_index=True, key="walkthrough_steps", column_config={
                     "evidence survival": st.column_config.NumberColumn(format="percent"),
                     "traversal accuracy": st.column_config.NumberColumn(format="%.0f")})
    region = cache.coverage(sample_graph.content_key, sample_graph, (SEED,), first, selection.tokenizer)
    st.markdown(f"**What each hop ring costs** in {FORMATS.get(first).title} (from {SEED}): "
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
