"""The shared sidebar: every choice a page needs, bound to the URL, gathered into one Selection."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import streamlit as st

from core.analysis.context_windows import request_room
from core.analysis.session_defaults import (
    GraphDefaults,
    budget_text,
    graph_defaults,
    parameter_presets,
    sweep_budgets,
)
from core.budget import POLICIES
from core.budget.budget_list import PAGE_BUDGETS, parse_budgets
from core.errors import GraphContextError
from core.formats import FORMATS
from core.graph.model import Graph
from core.prompt.answers import schema_for
from core.queries import Query, Solution
from core.queries.answerable import has_answer, no_answer_reason
from core.questions.reading import QuestionReading
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.retrieval.seeds import Seeds
from core.tokens import MODELS, TOKENIZERS
from core.tokens.models import counting_note
from core.tokens.tokenizers.gguf_file import MAX_GGUF_UPLOAD_BYTES, is_gguf_name, stored_gguf_upload
from dashboard import cache, url_state
from dashboard.property_controls import KEYS as PROPERTY_KEYS
from dashboard.property_controls import filtering, property_filter_controls
from dashboard.query_widgets import (
    QUERY_PARAMETER_PREFIX,
    query_widgets,
    seed_widgets,
    widget_value,
)
from dashboard.sources import LoadedGraph, generator_keys, graph_source
from dashboard.state.budget_choice import BudgetChoice, Reports, decide, follow, graph_default, switched
from dashboard.state.glossary import glossary_markdown
from dashboard.views.markdown_text import escape_markdown

MAX_PANELS = 4
T = TypeVar("T")


@dataclass(frozen=True)
class Selection:
    """What the pages show: read from the widgets, never computed here."""

    loaded: LoadedGraph
    tokenizer: str
    formats: tuple[str, ...]
    budget: int | None  # None until with_budgets has decided it (the Overview draws before)
    budget_limit: int | None
    query: Query
    seeds: Seeds
    ordering: str
    layout: str
    policy: str
    model: str = "gpt-4o"
    approximation: str = ""  # why the counts only estimate the chosen model's, or "" when exact
    budgets: tuple[int, ...] = ()  # the sweep budgets of the analysis pages

    @property
    def approximate(self) -> bool:
        return bool(self.approximation)

    @property
    def tokenizer_label(self) -> str:
        """The tokenizer as a page names it, marked ≈ where its counts only estimate the model's."""
        return f"{self.tokenizer} (≈ approximate counts: {self.approximation})" if self.approximate else self.tokenizer

    @property
    def solution(self) -> Solution:
        """The query's gold answer and evidence on the full graph (cached by graph and query)."""
        return cache.solution(self.graph.content_key, self.graph, self.query_key, self.query)

    @property
    def evidence(self) -> frozenset[str]:
        return self.solution.evidence

    @property
    def no_answer(self) -> str | None:
        """Why the query measures nothing on this graph (its answer is empty: core.queries.answerable), or None."""
        return None if has_answer(self.query, self.solution) else no_answer_reason(self.query, self.solution)

    @property
    def question_shown(self) -> str:
        """The query's question as captions show it: seeds by label with their ids, never an empty slot."""
        return self.query.question_shown(self.graph)

    @property
    def query_key(self) -> str:
        return repr((self.query.name, self.query.arguments))

    @property
    def graph(self) -> Graph:
        return self.loaded.graph


def store(selection: Selection) -> None:
    st.session_state["selection"] = selection


def current() -> Selection:
    """The Selection the sidebar made in this run (pages call this)."""
    return st.session_state["selection"]


def format_label(name: str) -> str:
    """A format's name, marked when it loses information."""
    return name if FORMATS.get(name).lossless else f"{name} (lossy)"


SIDEBAR_BOUND_KEYS = ("source", "sample", "seed_mode", "seeds", "question", "query", "model", "tokenizer", "formats",
                      "ordering", "layout", "policy", "budgets", *PROPERTY_KEYS)
BUDGET_SLIDER = "budget_slider"
BUDGET_NUMBER = "budget"  # the exact-number box, the one budget control bound to the URL
BUDGET_CHOICE = "budget_choice"  # the session's dashboard.state.budget_choice.BudgetChoice, decided once per run
BUDGET_SLOT = "budget_slot"  # the sidebar place of the budget controls, for this run
FORMATS_SLOT = "formats_slot"  # the sidebar place of the formats control, for this run
BUDGET_LIST_SLOT = "budget_list_slot"  # the sidebar place of the sweep budgets, for this run
GRAPH_SHOWN = "graph_shown"  # the content key of the graph this run's sidebar shows (before property filters)
PAGES_WITHOUT_BUDGET = ("",)  # the Overview, the first screen (its default page has the empty path)
QUESTION_APPLIED = "question_applied"  # the question whose template was last applied
PENDING_SELECTION = "pending_selection"  # values a click-through or the way back asks for, applied after the graph
WANTED_BUDGET = "wanted_budget"  # the budget such a request asks for, taken by with_budgets over any default
GLOSSARY_LABEL = "Glossary: records, evidence, hop tiers, D_k(S), grammar tokens, RDS"


def bound_sidebar_keys() -> list[str]:
    """The session-state keys of the sidebar's widgets that are bound to the URL (the budget's are assigned by
    `_budget` on every full run)."""
    parameters = [key for key in st.session_state if str(key).startswith(QUERY_PARAMETER_PREFIX)]
    return [*SIDEBAR_BOUND_KEYS, *generator_keys(), *parameters]


def draw() -> Selection:
    sidebar = st.sidebar
    url_state.hold_widget_values(bound_sidebar_keys())  # before any sidebar widget is drawn: see url_state
    loaded = graph_source(sidebar)
    graph = loaded.graph
    defaults = graph_defaults(graph, loaded.sample)
    changed = _graph_changed(graph)
    if changed:
        start_from_defaults(graph, defaults)
    apply_requested_selection()
    sidebar.divider()
    seeds, reading = seed_widgets(sidebar, graph, defaults)
    if reading is not None:
        query_from_question(reading)
    query = query_widgets(sidebar, graph, seeds, defaults)
    sidebar.divider()
    model, tokenizer, approximation, details = _model_and_tokenizer(sidebar)
    if not filtering():  # a filtered graph's renderings are other renderings
        cache.start_counting(graph, tokenizer, chosen_formats())
    _what_fits(details, tokenizer if is_gguf_name(tokenizer) else model, tokenizer, graph, query)
    st.session_state[FORMATS_SLOT] = sidebar.container()  # the formats control, drawn once the page is known
    formats = chosen_formats()
    ordering = sidebar.selectbox("Ordering", ORDERINGS.names() + ORDERINGS.ends_names(), key="ordering",
                                 bind="query-params")
    sidebar.caption(f"{ORDERINGS.get(ordering).title}: {ORDERINGS.get(ordering).description}")
    layout = sidebar.selectbox("Layout", LAYOUTS, key="layout", bind="query-params",
                               help="Interleaved puts each node's edges right after it (formats with separate "
                                    "node and edge sections always write nodes then edges)")
    policy = sidebar.segmented_control("Budget policy", tuple(POLICIES.names()), default="record", key="policy",
                                       bind="query-params", help="raw: the first B tokens of the complete text "
                                       "(may not parse); record: whole records while the next fits (always parses); "
                                       "sections: nodes and edges each get their share of B (LightRAG's 6,000 and "
                                       "8,000 of 30,000), each filled by the record rule; density, knapsack and "
                                       "connected choose units by the ordering's relevance per token (knapsack: the "
                                       "exact optimum; connected: a subgraph joined to the seeds)"
                                       ) or "record"
    filtered = property_filter_controls(sidebar, graph, query, tuple(formats), tokenizer)
    if filtered is not graph:
        loaded = replace(loaded, graph=filtered, label=f"{loaded.label} (properties filtered)")
    # The budgets are drawn once the page is known (with_budgets): their defaults need every shown format's
    # exact count, which on a large graph takes seconds, and a page that ignores them draws first.
    state = st.session_state
    state[BUDGET_SLOT], state[BUDGET_LIST_SLOT] = sidebar.container(), sidebar.container()
    with sidebar.expander(GLOSSARY_LABEL):  # in the sidebar, so every page where the words appear reaches it
        st.markdown(glossary_markdown())
    return Selection(loaded, tokenizer, formats, None, None, query, seeds, ordering, layout, policy, model,
                     approximation)


def chosen_formats() -> tuple[str, ...]:
    """The formats the formats control reports in this run, read before it is drawn (`place_formats` draws it
    once the page is known): the session's, else the URL's (by name), else the default, as the control itself
    would."""
    names = FORMATS.names()
    held = st.session_state.get("formats")
    if isinstance(held, list):
        values = held
    elif "formats" in st.query_params:
        values = st.query_params.get_all("formats")
    else:
        values = names[:2]
    return tuple([name for name in dict.fromkeys(values) if name in names][:MAX_PANELS] or names[:1])


def formats_control(container) -> tuple[str, ...]:
    """The formats control (bound to the URL as `formats`), in the sidebar or on a page that draws it itself.

    Its options are the formats' names, with no format_func: a bound multiselect writes and accepts in the URL
    what format_func shows, so with "toon (lossy)" as the option a link's `formats=toon` was refused (the
    sidebar showed yaml and turtle for `?formats=toon&formats=yaml&formats=turtle`). The lossy ones chosen are
    named in a caption below instead."""
    names = FORMATS.names()
    chosen = tuple(container.multiselect("Formats (up to 4)", names, default=names[:2], max_selections=MAX_PANELS,
                                         key="formats", bind="query-params") or names[:1])
    lossy = [name for name in chosen if not FORMATS.get(name).lossless]
    if lossy:
        container.caption(f"Lossy (they drop information by design): {', '.join(lossy)}.")
    return chosen


PAGES_WITH_OWN_FORMATS = ("contexts",)  # the formats are chosen on the page, in its fragment, above the panels
OWN_FORMATS_NOTE = ("**Formats**: chosen on this page, above the panels they show (a change redraws only those). "
                    "The URL keeps them as `formats` for every page.")


def place_formats(selection: Selection, page_path: str) -> Selection:
    """Draw the formats control in the sidebar, unless the page `page_path` draws it itself."""
    formats = _in_sidebar_slot(FORMATS_SLOT, page_path in PAGES_WITH_OWN_FORMATS, OWN_FORMATS_NOTE, formats_control)
    return selection if formats is None else replace(selection, formats=formats)


def _in_sidebar_slot(slot_key: str, on_page: bool, note: str, draw: Callable[[Any], T]) -> T | None:
    """`draw` the control in the sidebar place kept for it, or, when the page draws it itself, say so there."""
    slot = st.session_state.pop(slot_key)
    if on_page:
        slot.caption(note)
        return None
    return draw(slot)


def budgets_wait(page_path: str) -> bool:
    """Whether the page `page_path` ignores the budgets, so it draws before they are counted (with_budgets)."""
    return page_path in PAGES_WITHOUT_BUDGET


def with_budgets(selection: Selection, page_path: str, status) -> Selection:
    """The Selection with its inspected budget, range and sweep budgets, their controls drawn in the sidebar places
    draw() kept (the inspected budget's on the page for PAGES_WITH_OWN_BUDGET). The exact counts the defaults come
    from show their progress in `status` (a main-area container) while a large graph's are counted."""
    state = st.session_state
    graph = selection.graph
    with status:
        totals = cache.complete_tokens(graph.content_key, graph, selection.tokenizer, selection.formats)
    previous: BudgetChoice | None = state.get(BUDGET_CHOICE)
    shown = state[GRAPH_SHOWN]  # the graph before property filters: a filter keeps the budget unless out of range
    choice = decide(previous, shown, totals.values(), graph_default(totals, selection.formats, state.get(WHAT_FITS)),
                    _reports(), st.query_params.get(BUDGET_NUMBER), state.pop(WANTED_BUDGET, None))
    state[BUDGET_CHOICE] = choice
    budgets = _budget_list(state.pop(BUDGET_LIST_SLOT), totals, switched(previous, shown))
    return place_budget(replace(selection, budget=choice.budget, budget_limit=choice.limit, budgets=budgets),
                        page_path)


WHAT_FITS = "what_fits"  # this run's room for context in the reader's request (None: no window known)
GGUF_UPLOAD = "gguf_upload"


def _what_fits(sidebar, reader: str, tokenizer: str, graph: Graph, query: Query) -> None:
    """What fits in the reader's request (window - chat wrapper - frame - reserved output): shown, and kept so the
    inspected budget's default never exceeds it (with_budgets)."""
    solution = cache.solution(graph.content_key, graph, repr((query.name, query.arguments)), query)
    try:
        room = request_room(reader, TOKENIZERS.get(tokenizer), schema_for(query.name, solution.answer),
                            query.question_on(graph))
    except GraphContextError as error:
        room = None
        sidebar.caption(f"No request room: {escape_markdown(str(error))}")
    st.session_state[WHAT_FITS] = room.fits if room is not None else None
    if room is not None:
        sidebar.caption(f"**What fits**: {room.fits:,} tokens of context in one request to {escape_markdown(reader)} "
                        f"(window {room.window.window:,} − chat wrapper {room.wrapper:,} − frame {room.frame:,} − "
                        f"{room.window.reserved_output:,} kept for the answer), the default budget's ceiling.",
                        help=escape_markdown(room.window.source))


def _gguf_tokenizer(sidebar) -> str | None:
    """A local model's own tokenizer: a .gguf file by path or upload, offered as `gguf:PATH` when it loads."""
    with sidebar.expander("A local model's tokenizer (GGUF file)"):
        path = st.text_input("Path of a .gguf file", key="gguf_path", placeholder="~/models/model.gguf",
                             help="llama.cpp, Ollama and LM Studio keep models as .gguf files; the file's own "
                                  "vocabulary, merges and pre-tokenizer count, as llama.cpp counts")
        upload = st.file_uploader("…or upload one", type=["gguf"], key=GGUF_UPLOAD,
                                  help=f"Up to {MAX_GGUF_UPLOAD_BYTES // 1_000_000:,} MB; a larger file by its path")
        try:
            if upload is not None:
                path = stored_gguf_upload(upload.getvalue())
            if not path:
                return None
            name = f"gguf:{path.strip()}"
            loaded = TOKENIZERS.get(name)
        except GraphContextError as error:
            st.warning(escape_markdown(str(error)), icon="⚠️")
            return None
        st.caption(escape_markdown(loaded.family))
    return name


def _tokenizer_follows_model() -> None:
    st.session_state["tokenizer"] = MODELS.get(st.session_state["model"]).tokenizer


def _model_and_tokenizer(sidebar) -> tuple[str, str, str, object]:
    """"Which model will read this?" sets the tokenizer; any registered tokenizer can still be picked, in an
    expander returned last (the tokenizer, its source and what fits, folded: the sidebar was 3,143 px tall).

    Counts for a model without a public tokenizer, or with another model's tokenizer, are marked
    approximate here, on every page (core.tokens.models.counting_note says why).
    """
    model = sidebar.selectbox("Which model will read this?", MODELS.names(), key="model", bind="query-params",
                              format_func=lambda name: MODELS.get(name).title, on_change=_tokenizer_follows_model)
    gguf = _gguf_tokenizer(sidebar)
    details = sidebar.expander("Tokenizer and what fits in one request")
    options = TOKENIZERS.names() + ([gguf] if gguf else [])
    state = st.session_state
    if gguf and state.get("gguf_offered") != gguf:  # a newly given file's tokenizer is chosen at once
        state["tokenizer"] = gguf
    state["gguf_offered"] = gguf
    if state.get("tokenizer") not in options:
        state.pop("tokenizer", None)
    tokenizer = details.selectbox("Tokenizer", options, key="tokenizer", bind="query-params",
                                  help="Set by the model; every registered tokenizer loads offline from its package, "
                                       "and a GGUF file's own from the file (above)")
    chosen = TOKENIZERS.get(tokenizer)
    details.caption(f"{chosen.family} · {chosen.source} · {chosen.licence}")
    approximation = counting_note(MODELS.get(model), tokenizer)
    if approximation:
        sidebar.warning(f"Approximate counts (≈): {approximation}.", icon="⚠️")
    return model, tokenizer, approximation, details


def _graph_changed(graph: Graph) -> bool:
    """Whether this run shows another graph than the last run that drew the sidebar (not the first graph)."""
    shown = st.session_state.get(GRAPH_SHOWN)
    st.session_state[GRAPH_SHOWN] = graph.content_key
    return shown is not None and shown != graph.content_key


def query_from_question(reading: QuestionReading) -> None:
    """A newly typed question sets the query it was read as (core.questions.reading): its template and every
    argument the reading gave, node parameters included.

    The first run keeps what the URL says (its query may have been chosen after the question).
    """
    state = st.session_state
    question = str(state.get("question") or "")
    if QUESTION_APPLIED not in state or state[QUESTION_APPLIED] == question:
        state[QUESTION_APPLIED] = question
        return
    state[QUESTION_APPLIED] = question
    state["query"] = reading.query.name
    for parameter, value in reading.query.all_arguments.items():  # a default too: no earlier value stays
        state[QUERY_PARAMETER_PREFIX + parameter] = widget_value(value)


def request_selection(values: dict[str, object]) -> None:
    """Set the sidebar to `values` (session keys: sample, seeds, query and its q_ parameters, formats, ordering,
    layout, policy, budget), from a widget callback. Those the graph source reads are assigned now; the rest are
    applied after the next run has loaded the graph, since a new graph starts from its own seeds, query and
    budget and would overwrite them (the walkthrough opened after another sample showed that sample's budget)."""
    state = st.session_state
    state.update(values)
    state[PENDING_SELECTION] = dict(values)


def apply_requested_selection() -> None:
    """After the graph's defaults: the values `request_selection` asked for (the budget through `_budget`)."""
    state = st.session_state
    pending = state.pop(PENDING_SELECTION, None)
    if not pending:
        return
    drawn = {"source", "sample", "generator", "budget", *generator_keys()}  # the graph source's: assigned already
    state.update({key: value for key, value in pending.items() if key not in drawn})
    if "budget" in pending:
        state[WANTED_BUDGET] = int(pending["budget"])


def start_from_defaults(graph: Graph, defaults: GraphDefaults) -> None:
    """Seeds, question, query template and its parameters take the new graph's defaults, as a fresh URL does.

    Values are assigned (not deleted): the browser still holds the old graph's widget values and would send
    them back; an assigned value wins over them, and the bound widgets write it into the URL.
    """
    state = st.session_state
    for key in [key for key in state if str(key).startswith(QUERY_PARAMETER_PREFIX)]:
        del state[key]
    state["seeds"] = list(defaults.seeds)
    state["question"] = state[QUESTION_APPLIED] = defaults.question
    state["query"] = defaults.query.name
    for parameter, value in parameter_presets(graph, defaults.query.template, defaults.seeds, defaults).items():
        state[QUERY_PARAMETER_PREFIX + parameter] = widget_value(value)


def _reports() -> Reports:
    """What the browser sent for the two budget controls in this request."""
    return Reports(_reported(BUDGET_SLIDER), _reported(BUDGET_NUMBER))


def _reported(key: str) -> int | None:
    """The whole number the browser reported for a budget control (None before it is drawn)."""
    value = st.session_state.get(key)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def budget_controls(container, limit: int, number_container=None) -> int:
    """Slider and exact number for the inspected budget, drawn in `container` (the sidebar, or a page's
    fragment beside what the budget changes; the number in `number_container` if given) over 0..`limit` (the
    Selection's budget_limit). Returns the budget.

    The slider is not the bound widget because its identity changes with its range, and the browser would
    remount it from the old URL value; a number input keeps its identity. In a full run with_budgets has
    decided; in a fragment rerun this decides (dashboard.state.budget_choice.follow), and the control being
    pressed is not assigned, so a redraw of the fragment does not pull it back."""
    state = st.session_state
    choice: BudgetChoice = state[BUDGET_CHOICE]
    if choice.drawn:  # this run is a fragment rerun (the full run drew the decision): it decides here
        choice = follow(choice, _reports())
    keys = {"slider": BUDGET_SLIDER, "number": BUDGET_NUMBER}
    for control in choice.assigned():
        state[keys[control]] = choice.budget
    container.slider("Token budget", 0, limit, key=BUDGET_SLIDER, format="%,d")
    (number_container or container).number_input("Exact budget", 0, limit, key=BUDGET_NUMBER, bind="query-params",
                                                  help="Type a budget; the slider follows.")
    # The budget is assigned in every full run, and Streamlit writes an assigned value back to a URL that lost it
    # only for a widget it drew in the last run: a page opened while a sample switch's run drew (the browser builds
    # the page's URL before it has the new budget) lost `budget` in about 2 of 9 clicks. Only this key: writing back
    # every bound one put `q_hops` and others into the URL and broke the way back's switch_page.
    url_state.write_back((BUDGET_NUMBER,))
    if choice.refusal:
        container.warning(escape_markdown(choice.refusal), icon="⚠️")
    state[BUDGET_CHOICE] = replace(choice, drawn=True)
    return choice.budget


PAGES_WITH_OWN_BUDGET = ("contexts", "graph", "token-anatomy")  # the budget is drawn on the page, in a fragment
OWN_BUDGET_NOTE = ("**Token budget**: set on this page, beside what it changes (a change redraws only that). "
                   "The URL keeps it as `budget` for every page.")


def place_budget(selection: Selection, page_path: str) -> Selection:
    """Draw the budget controls in the sidebar, unless the page `page_path` draws them itself."""
    budget = _in_sidebar_slot(BUDGET_SLOT, page_path in PAGES_WITH_OWN_BUDGET, OWN_BUDGET_NOTE,
                              lambda slot: budget_controls(slot, selection.budget_limit))
    return selection if budget is None else replace(selection, budget=budget)


def _budget_list(sidebar, totals: dict[str, int], changed: bool) -> tuple[int, ...]:
    """The sweep budgets (bound to the URL), by default spanning this graph's complete texts; a bad list says
    why and the default is used."""
    default = sweep_budgets(totals)
    if changed:
        st.session_state["budgets"] = budget_text(default)
    text = sidebar.text_input("Budgets for sweeps", value=budget_text(default), key="budgets", bind="query-params",
                              help="Whole numbers of tokens from 1, separated by commas or spaces (the Budget survival, Orderings, "
                                   "Pareto and Exports pages). The default spans this graph's complete texts, from "
                                   "a quarter of the smallest to the largest.")
    try:
        return parse_budgets(text, most=PAGE_BUDGETS)
    except GraphContextError as error:
        sidebar.error(escape_markdown(str(error)))
        return default
