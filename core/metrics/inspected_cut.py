"""The metrics of the one cut a page inspects, quick enough to redraw on every budget change of a large graph.

`Workbench.measure_cut` is the door to it (the dashboard's Contexts panels and Walkthrough ask it).

The figures are `core.metrics.cut_metrics.measure_cut`'s, from the same counts, with two savings a
sweep also makes:
- what the document holds is read from its kept units where the format allows
  (`core.metrics.cut_reading.read_cut`) instead of decoding megabytes of text, and the kept node and
  edge counts come from the rendering's prefix counts instead of a pass over every kept key;
- the reading and whether it answers the query are remembered per record prefix, on the accounting (so they go
  with it): a budget step that keeps the same records has the same document, so moving the budget by a token
  re-reads nothing.
Only light readings are remembered (a view of the kept units), never a decoded graph, and never a raw
or sections text (megabytes each, and a new one on every budget step).
"""

from __future__ import annotations

import threading
from collections.abc import Collection

from cachetools import LRUCache

from core.budget.policies import Cut
from core.formats.base import Format
from core.graph.derived import derived, memo_of
from core.graph.model import Graph
from core.metrics.cut_metrics import CutMetrics, DecodedCut, KeptKeys, answers, cut_metrics
from core.metrics.cut_reading import document_identity, read_cut
from core.queries import Query, Solution
from core.tokens.prefix_tokens import PrefixTokens

DOCUMENTS_REMEMBERED = 8  # per rendering: the last few documents a page showed (budget steps back and forth)

REMEMBERED = "remembered documents"  # the accounting's memo entry: [the graph it renders, LRUCache of readings]
# The dashboard's sessions run in threads and share renderings. One lock for every accounting, not one in each
# accounting's memo (which a lock would keep from pickling).
_LOCK = threading.Lock()


def _remembered(accounting: PrefixTokens, graph: Graph) -> LRUCache:
    """(document identity, query) -> (reading, whether it answers), for this accounting read against `graph`."""
    entry: list = derived(accounting, REMEMBERED, lambda: [graph, LRUCache(DOCUMENTS_REMEMBERED)])
    if entry[0] is not graph:  # read against another graph (an equal one loaded again): start over
        entry[:] = [graph, LRUCache(DOCUMENTS_REMEMBERED)]
    return entry[1]


def inspected_metrics(result: Cut, format_: Format, accounting: PrefixTokens, graph: Graph, query: Query,
                      gold: Solution) -> CutMetrics:
    """`measure_cut` of `result` (a cut of `accounting`, a rendering of `graph`) for `query` and its gold
    answer on the graph, the document read from its kept units where the format allows."""
    if result.selection:
        kept: Collection[str] = frozenset(result.kept_keys)
        nodes = sum(1 for key in kept if key.startswith("n:"))
        counts = (nodes, len(kept) - nodes)
    else:
        kept = KeptKeys(accounting.record_of_key, result.records_kept)
        node_counts, edge_counts = accounting.kept_node_and_edge_counts
        counts = (int(node_counts[result.records_kept]), int(edge_counts[result.records_kept]))
    reading, accurate = _reading_and_answer(result, format_, accounting, graph, query, gold)
    evidence_kept = sum(1 for key in gold.evidence if key in kept)
    return cut_metrics(result, reading, accurate, evidence_kept, len(gold.evidence), 0, 0, counts)


def _reading_and_answer(result: Cut, format_: Format, accounting: PrefixTokens, graph: Graph, query: Query,
                        gold: Solution) -> tuple[DecodedCut, bool]:
    identity = document_identity(result, accounting)
    key = (identity, query.name, repr(query.arguments))  # repr: an argument may be a list
    if identity is None or identity[0] != "prefix":  # empty, or a raw or sections text: each step differs
        reading = read_cut(result, format_, accounting, graph)
        return reading, answers(query, gold, reading)
    with _LOCK:
        documents = _remembered(accounting, graph)
        remembered = documents.get(key)
    if remembered is not None:
        return remembered
    reading = read_cut(result, format_, accounting, graph)
    found = (reading, answers(query, gold, reading))
    if not isinstance(reading.graph, Graph):  # a view of the kept units: light to keep
        with _LOCK:
            documents[key] = found
    return found


def remembered_documents(accounting: PrefixTokens) -> int:
    """How many documents of this rendering are remembered (tests read it)."""
    with _LOCK:
        entry = memo_of(accounting).get(REMEMBERED)
        return 0 if entry is None else len(entry[1])

