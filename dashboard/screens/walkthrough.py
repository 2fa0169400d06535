"""Walkthrough page: a guided sequence on the default sample that sets seeds, query and budget, and explains."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.budget.policies import cut
from core.formats import FORMATS
from core.io.samples import default_sample
from core.queries import QUERIES, Query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from dashboard import cache
from dashboard.context_panel import cut_metrics, draw_panel
from dashboard.detour import keep_selection
from dashboard.query_widgets import QUERY_PARAMETER_PREFIX
from dashboard.renderings import accounting_for
from dashboard.sidebar import current, request_selection
from dashboard.state.teaching import (
    LessonSettings,
    WalkthroughPlan,
    figures_disagree,
    lesson_step,
    step_sentences,
    walkthrough_plan,
)
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

SEED = "svc-noise-0016"  # a service at the edge of the reference graph: its 2-hop dependencies sit far from it by id
LAYOUT = "nodes_then_edges"  # the plan's (dashboard.state.teaching.walkthrough_plan)
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
    """Set the sidebar to everything the step's lesson depends on: the default sample, the walkthrough's seed and
    query, its format, layout, policy, ordering and budget (after the sample's own defaults, which a change of
    sample would otherwise bring back)."""
    keep_selection("screens/walkthrough.py", "the walkthrough")
    request_selection({"source": "sample", "sample": default_sample().name, "seed_mode": "nodes", "seeds": [SEED],
                       "formats": [FORMATS.names()[0]], "layout": LAYOUT, "policy": step.policy,
                       "ordering": step.ordering, "budget": budget, "query": QUERY.name,
                       **{QUERY_PARAMETER_PREFIX + parameter: value for parameter, value in QUERY.arguments}})


@st.cache_data(max_entries=8, show_spinner="Choosing the walkthrough's budget…")
def plan_for(sample_name: str, format_name: str, tokenizer: str) -> WalkthroughPlan:
    """dashboard.state.teaching.walkthrough_plan on the sample: the budget where each step shows its point."""
    return walkthrough_plan(cache.sample_graph(sample_name), QUERY, Seeds((SEED,)), format_name, tokenizer)


def shown_step(selection, plan: WalkthroughPlan, sample_name: str, format_name: str) -> int | None:
    """The step (0, 1, 2) the sidebar shows now, or None (dashboard.state.teaching.lesson_step)."""
    wanted = LessonSettings(sample_name, (SEED,), QUERY.name, QUERY.arguments, format_name, LAYOUT, "", "", plan.budget)
    shown = LessonSettings(selection.loaded.sample.name if selection.loaded.sample else "", selection.seeds.node_ids,
                           selection.query.name, selection.query.arguments, selection.formats[0], selection.layout,
                           selection.ordering, selection.policy, selection.budget)
    return lesson_step(plan, wanted, shown)


def lesson_checked(selection, plan: WalkthroughPlan, sample_name: str, format_name: str) -> bool:
    """Before the panel draws: on a walkthrough step, its figures must be the ones the step's sentence states
    (dashboard.state.teaching.figures_disagree); elsewhere the panel shows the sidebar's own state, said so."""
    step = shown_step(selection, plan, sample_name, format_name)
    if step is None:
        st.caption("What the sidebar shows now (not a walkthrough step: press **Show me** on a step to see its "
                   "figures):")
        return True
    accounting = accounting_for(selection, format_name)
    figures = cut_metrics(selection, format_name, cut(accounting, FORMATS.get(format_name), selection.policy,
                                                      selection.budget))
    disagree = figures_disagree(plan.steps[step], figures.parse_ok, figures.evidence_survival,
                                figures.traversal_accuracy, figures.records_kept, figures.records_total)
    if disagree:
        st.error("The panel's figures do not match the lesson's text, so it is not drawn: "
                 + escape_markdown("; ".join(disagree)), icon="⚠️")
        return False
    st.caption(f"Step {step + 1:,}, as its sentence states (checked before drawing):")
    return True


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
    active = shown_step(selection, plan, sample.name, first)
    for number, (step, sentence) in enumerate(zip(STEPS, step_sentences(plan, FORMATS.get(first).title),
                                                  strict=True), start=1):
        with st.container(border=True):
            left, right = st.columns([4, 1])
            here = number - 1 == active  # the step the sidebar (and the panel below) shows now is marked
            left.markdown((":blue-badge[:material/arrow_downward: shown below] " if here else "")
                          + f"**{number}. {step.title}** — {ORDERINGS.get(step.ordering).title} ordering, "
                          f"{step.policy} policy")
            left.caption(escape_markdown(sentence))
            right.button("Show me", key=f"step_{number}", on_click=apply, args=(step, plan.budget), width="stretch",
                         type="primary" if here else "secondary")
    show_table(pd.DataFrame([{"step": f"{number}. {step.title}", "parses": figures.parse_ok,
                                "records kept": f"{figures.records_kept:,} / {figures.records_total:,}",
                                "evidence survival": figures.evidence_survival,
                                "traversal accuracy": figures.traversal_accuracy}
                               for number, (step, figures) in enumerate(zip(STEPS, plan.steps, strict=True), start=1)]),
               "walkthrough_steps", hide_index=True, width="content")
    region = cache.coverage(sample_graph.content_key, sample_graph, (SEED,), first, selection.tokenizer)
    st.markdown(f"**What each hop ring costs** in {FORMATS.get(first).title} (from {SEED}): "
                "a hop-tier cut at budget B keeps every unit within k hops exactly when B ≥ D_k(S).")
    show_table(pd.DataFrame(region, columns=["k (hops)", "units within k hops", "D_k(S) tokens"]), "coverage_table",
               hide_index=True, width="content")
    st.divider()
    if not lesson_checked(selection, plan, sample.name, first):
        return
    draw_panel(selection, selection.formats[0], selection.policy, colour=False, whitespace=False)
    links = st.columns(2)
    links[0].page_link("screens/contexts.py", label="Open the Contexts page", icon=":material/content_cut:")
    links[1].page_link("screens/graph.py", label="Open the Graph page", icon=":material/hub:")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
