"""Graph Context Lab dashboard: the entry point, with the shared sidebar and one module per page.

Run with `graph-context-lab dashboard` (loopback, the project's settings, from any folder).
"""

from __future__ import annotations

import gc

import streamlit as st

from core.execution.workers import SWEEP_THRESHOLDS
from dashboard import detour, run_marker, serving, sidebar, sources, url_state
from dashboard.views.markdown_text import escape_markdown

# The server holds graphs and renderings of hundreds of thousands of long-lived objects. At Python's default
# thresholds the full collection ran every few hundred thousand allocations while a graph was built and measured,
# freed almost nothing and took 130 ms (2,000 services) to 250 ms (200,000 edges) each time: 14 of them, 1.9 s, in
# a 2,000-service graph's first open. The sweeps' thresholds, for the whole server (set again on each run: a no-op).
gc.set_threshold(*SWEEP_THRESHOLDS)
st.set_page_config(page_title="Graph Context Lab", page_icon="🕸️", layout="wide")
serving.refuse_remote()  # loopback only, unless the user asked for the network by name (graph-context-lab dashboard)

# File pages (each module runs its show() as a script), so AppTest can switch to them by path.
PAGES = {
    "Explore": [
        st.Page("screens/overview.py", title="Overview", icon=":material/table_chart:", default=True),
        st.Page("screens/contexts.py", title="Contexts", icon=":material/content_cut:", url_path="contexts"),
        st.Page("screens/graph.py", title="Graph", icon=":material/hub:", url_path="graph"),
        st.Page("screens/walkthrough.py", title="Walkthrough", icon=":material/school:", url_path="walkthrough"),
    ],
    "Analysis": [
        st.Page("screens/advisor.py", title="Advisor", icon=":material/recommend:", url_path="advisor"),
        st.Page("screens/token_anatomy.py", title="Token anatomy", icon=":material/stacked_bar_chart:",
                url_path="token-anatomy"),
        st.Page("screens/budget_survival.py", title="Budget survival", icon=":material/show_chart:",
                url_path="budget-survival"),
        st.Page("screens/orderings.py", title="Orderings", icon=":material/sort:", url_path="orderings"),
        st.Page("screens/pareto.py", title="Pareto", icon=":material/scatter_plot:", url_path="pareto"),
        st.Page("screens/question_set.py", title="Question set", icon=":material/quiz:", url_path="question-set"),
    ],
    "Results": [
        st.Page("screens/exports.py", title="Exports", icon=":material/download:", url_path="exports"),
        st.Page("screens/model_answers.py", title="Model answers", icon=":material/forum:",
                url_path="model-answers"),
        st.Page("screens/audit.py", title="Audit a context", icon=":material/fact_check:", url_path="audit"),
    ],
}

# The sidebar draws before the navigation exists, so no page can be opened before every sidebar widget is
# bound to the URL (a click during the first run would otherwise drop their URL parameters). Only the
# budgets wait for the page: the pages that depend on the budget draw it in a fragment, and a page that
# ignores the budgets (the Overview) draws before they are counted, which on a large graph takes seconds.
selection = sidebar.draw()
url_state.restore_lost_parameters()
navigation = st.navigation(PAGES, expanded=True)  # thirteen pages: Streamlit folds all past the tenth behind "View more"
selection = sidebar.place_formats(selection, navigation.url_path)
detour.return_if_asked()  # "Back to your selection": the selection is restored, now the page it was on
detour.way_back(st.container())  # while a click-through's cut is shown: what it changed and the way back
status = st.container()  # where a large graph's counting shows its progress, above the page
later = sidebar.budgets_wait(navigation.url_path)
if not later:
    selection = sidebar.with_budgets(selection, navigation.url_path, status)
    url_state.restore_lost_parameters()  # the budget's too, when the sidebar drew it
sidebar.store(selection)
run_marker.count_full_run()
error = sources.source_error()
if error:
    st.error(f"**This graph source could not be used; the previous graph stays loaded.**\n\n{escape_markdown(error)}",
             icon="⚠️")
refusal = selection.no_answer  # an empty answer scores every cut correct: no page measures it
if refusal:
    st.error(f"**This query has no answer on this graph, so no page measures it.**\n\n{escape_markdown(refusal)}."
             "\n\nAsk about a node that has what the question asks for, or choose another query in the sidebar.",
             icon="⚠️")
else:
    navigation.run()
if later:
    sidebar.store(sidebar.with_budgets(selection, navigation.url_path, status))
    url_state.restore_lost_parameters()
