"""Cached calls for the analysis pages: sweeps (with a progress bar while they run), markers and anatomies.

Keyed by the graph's content key and every setting; a sweep is kept in a small LRU store rather than
`st.cache_data`, so the progress bar belongs to the run that computes it and is never replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pandas as pd
import streamlit as st

from core.analysis.pareto_tables import answer_points, dominated_formats, efficiency_table
from core.analysis.token_anatomy import Anatomy, anatomy_table
from core.budget import DEFAULT_POLICIES
from core.formats import FORMATS
from core.retrieval import ORDERINGS
from dashboard.cache import workbench
from dashboard.progress_run import Progress, progress_bar
from dashboard.result_store import ResultStore
from dashboard.sidebar import Selection
from dashboard.views.charts import survival_figure

SWEEPS_KEPT = 12
ANATOMIES_KEPT = 32  # anatomies (one per tokenizer, scope and budget) and markers: smaller than sweeps, more of them
SCOPES = ("complete text", "cut at the budget")
SWEEP_STOPPED = "sweep_stopped"  # the key of the sweep (or advice) the reader stopped
Result = TypeVar("Result")


@st.cache_resource
def _store() -> ResultStore:
    return ResultStore(SWEEPS_KEPT)


def settings_key(selection: Selection, *parts: object) -> tuple:
    """The graph's content key, the query, the seeds, the tokenizer and whatever else the result depends on."""
    return (selection.graph.content_key, selection.query_key, selection.seeds.node_ids, selection.tokenizer, *parts)


def sweep(selection: Selection, formats: tuple[str, ...], orderings: tuple[str, ...], layout: str,
          policies: tuple[str, ...], budgets: tuple[int, ...]) -> pd.DataFrame:
    """core.analysis.budget_sweep.budget_sweep for these settings, computed once, with a progress bar while it runs."""
    key = settings_key(selection, "sweep", formats, orderings, layout, policies, budgets)
    return with_progress(key, "Sweeping budgets", "cuts", "sweep", lambda progress: workbench().budget_sweep(
        selection.graph, selection.query, selection.seeds, formats=list(formats), orderings=list(orderings),
        layout=layout, policies=list(policies), budgets=list(budgets), tokenizer=selection.tokenizer,
        progress=progress))


def with_progress(key: tuple, what: str, unit: str, name: str, compute: Callable[[Progress], Result],
                  store: ResultStore | None = None) -> Result:
    """`compute(progress)` once per key (kept in `store`, else the sweeps'), behind a bar with the time left and a
    Stop button. A stopped computation shows nothing until the reader runs it again (`name` says what in the notice)."""
    store = store or _store()
    found = store.get(key)
    if found is not None:
        if st.session_state.get(SWEEP_STOPPED) == key:  # Stop pressed as the run ended: its result stands
            del st.session_state[SWEEP_STOPPED]
        return found
    if st.session_state.get(SWEEP_STOPPED) == key:
        st.info(f"**The {name} was stopped.** Nothing is shown until it runs to the end.", icon="⏹️")
        st.button(f"Run the {name}", key=f"sweep_restart_{abs(hash(key))}", on_click=st.session_state.pop,
                  args=(SWEEP_STOPPED, None))
        st.stop()
    with progress_bar(key, what, unit, on_stop=lambda: st.session_state.__setitem__(SWEEP_STOPPED, key),
                      stop_help=f"Stop this {name}; the page then waits until you run it again") as progress:
        result = compute(progress)
        store.put(key, result)  # before the bar is removed: a click meanwhile ends the run at that Streamlit call
    return result


def pending(key: tuple) -> bool:
    """Whether the result of `with_progress(key, ...)` (in the sweeps' store) is still to be computed: not stored,
    and not stopped by the reader (a stopped run shows only its notice)."""
    return _store().get(key) is None and st.session_state.get(SWEEP_STOPPED) != key


def preliminary(key: tuple, what: str, unit: str, name: str, compute: Callable[[Progress], Result]) -> Result:
    """`with_progress` for a quick first result drawn while the full one is computed (the Advisor's verdict at the
    budget alone), kept in the smaller store so that it never pushes a sweep out."""
    return with_progress(key, what, unit, name, compute, _measure_store())


def markers(key: tuple, selection: Selection, formats: tuple[str, ...], ordering: str, layout: str) -> pd.DataFrame:
    """core.analysis.format_markers, computed once per key, behind a bar (a format at a time)."""
    return with_progress(key, "Measuring D_k(S) and full texts", "formats", "measurement",
                         lambda progress: workbench().format_markers(selection.graph, selection.query,
                                                                     selection.seeds,
                                                         formats=list(formats), ordering=ordering, layout=layout,
                                                         tokenizer=selection.tokenizer, progress=progress),
                         _measure_store())


@st.cache_resource
def _measure_store() -> ResultStore:
    return ResultStore(ANATOMIES_KEPT)


def anatomies(key: tuple, selection: Selection, formats: tuple[str, ...], ordering: str, layout: str,
              tokenizer: str, budget: int | None, policy: str, marker: bool) -> list[Anatomy]:
    """core.analysis.format_anatomies.format_anatomies, computed once per key, behind a bar (a format at a time)."""
    return with_progress(key, f"Sorting {tokenizer} tokens into categories", "formats", "token anatomy",
                         lambda progress: workbench().format_anatomies(
                             selection.graph, selection.query, selection.seeds, formats=list(formats),
                             ordering=ordering, layout=layout, tokenizer=tokenizer, budget=budget, policy=policy,
                             marker=marker, progress=progress), _measure_store())


def survival_policies(selection: Selection) -> tuple[str, ...]:
    """The prefix policies, and the sidebar's policy beside them when it is another (sections or a selecting one)."""
    return tuple(dict.fromkeys((*DEFAULT_POLICIES, selection.policy)))


def survival_sweep(selection: Selection, budgets: tuple[int, ...]) -> pd.DataFrame:
    """The chosen formats under the chosen ordering, the prefix policies and the sidebar's, at every budget."""
    return sweep(selection, selection.formats, (selection.ordering,), selection.layout, survival_policies(selection),
                 budgets)


def orderings_sweep(selection: Selection, format_name: str, budgets: tuple[int, ...]) -> pd.DataFrame:
    """One format under every registered ordering and the sidebar's policy, at every budget of the list."""
    return sweep(selection, (format_name,), tuple(ORDERINGS.names() + ORDERINGS.ends_names()), selection.layout,
                 (selection.policy,), budgets)


def pareto_sweep(selection: Selection, budgets: tuple[int, ...]) -> pd.DataFrame:
    """Every registered format under the sidebar's ordering, layout and policy, at every budget of the list."""
    return sweep(selection, tuple(FORMATS.names()), (selection.ordering,), selection.layout, (selection.policy,),
                 budgets)


@st.cache_resource(max_entries=16, show_spinner=False)
def _survival_chart(key: tuple, _frame: pd.DataFrame, _markers: pd.DataFrame, title: str, inspected: int):
    return survival_figure(_frame, _markers, title, inspected)


def survival_chart(selection: Selection, budgets: tuple[int, ...], frame: pd.DataFrame, markers: pd.DataFrame,
                   title: str, inspected: int | None = None):
    """The Budget survival figure of `survival_sweep(selection, budgets)` and `selection_markers(selection)`,
    built once per setting: building it (plotly's validation) was most of a redraw's time."""
    key = settings_key(selection, "survival chart", selection.formats, selection.ordering, selection.layout,
                       survival_policies(selection), budgets)
    return _survival_chart(key, frame, markers, title, inspected or 0)


@st.cache_resource(max_entries=16, show_spinner=False)
def _pareto_tables(key: tuple, _frame: pd.DataFrame, accuracy: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    return (answer_points(_frame, accuracy), dominated_formats(_frame, accuracy), efficiency_table(_frame, accuracy))


def pareto_tables(selection: Selection, budgets: tuple[int, ...], frame: pd.DataFrame,
                  accuracy: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """core.analysis.pareto_tables' front over what answers, dominated formats and efficiency table of
    `pareto_sweep(selection, budgets)`, computed once per setting and accuracy."""
    key = settings_key(selection, "pareto tables", selection.ordering, selection.layout, selection.policy, budgets)
    return _pareto_tables(key, frame, accuracy)


def anatomy_frame(selection: Selection, tokenizer: str, scope: str, marker: bool) -> pd.DataFrame:
    """core.analysis.format_anatomies.format_anatomies for every registered format, as a table."""
    formats = tuple(FORMATS.names())
    budget = selection.budget if scope == SCOPES[1] else None
    key = settings_key(selection, "anatomy", selection.ordering, selection.layout, tokenizer, budget,
                       selection.policy, marker)
    found = anatomies(key, selection, formats, selection.ordering, selection.layout, tokenizer, budget,
                      selection.policy, marker)
    return pd.DataFrame(anatomy_table(found)).set_index("format")


def selection_markers(selection: Selection) -> pd.DataFrame:
    """D_k(S) and full-text tokens of the chosen formats under the chosen ordering and layout (core.analysis.format_markers)."""
    key = settings_key(selection, "markers", selection.formats, selection.ordering, selection.layout)
    return markers(key, selection, selection.formats, selection.ordering, selection.layout)
