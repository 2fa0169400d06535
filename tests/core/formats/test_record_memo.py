"""The per-graph record memos: kept on the graph, shared by every ordering of a format, bounded by how many records
they hold, and never pickled with it."""

from __future__ import annotations

import pickle

from core.formats import FORMATS, base
from core.formats.base import record_memo
from core.graph.units import graph_units
from core.io.samples import load_sample
from core.workbench import Workbench


def test_a_format_renders_the_same_from_its_memo() -> None:
    graph = load_sample("online-boutique")
    units = graph_units(graph)
    for name in ("jsonl", "yaml", "csv"):
        first = FORMATS.get(name).render(graph, units)
        again = FORMATS.get(name).render(graph, units)  # from the memo
        assert again.text == first.text
        assert [record.text for record in again.records] == [record.text for record in first.records]


def test_memos_beyond_the_two_newest_stay_while_their_records_fit(monkeypatch) -> None:
    graph = load_sample("online-boutique")
    monkeypatch.setattr(base, "RECORDS_KEPT", 12)

    def filled(name: str) -> dict:
        memo = record_memo(graph, name)
        memo.update({("record", index): None for index in range(4)})
        return memo

    memos = {name: filled(name) for name in ("a", "b", "c")}
    assert record_memo(graph, "a") is memos["a"]  # now the most recent
    memos["d"] = filled("d")  # 12 records were held: all four memos stay
    assert all(record_memo(graph, name) is memos[name] for name in ("b", "c", "a", "d"))
    record_memo(graph, "e")  # 16 held: the least recently used (b) goes, leaving 12
    assert [record_memo(graph, name) is memos[name] for name in ("c", "a", "d")] == [True, True, True]
    assert record_memo(graph, "b") is not memos["b"]


def test_a_memo_that_grows_after_it_was_weighed_is_weighed_again_when_fetched(monkeypatch) -> None:
    graph = load_sample("online-boutique")
    monkeypatch.setattr(base, "RECORDS_KEPT", 10)
    record_memo(graph, "a").update({("record", index): None for index in range(2)})
    record_memo(graph, "b")
    record_memo(graph, "c")  # a is weighed: 2 records
    grown = record_memo(graph, "a")
    grown.update({("record", index): None for index in range(2, 12)})  # 12 records now, over the bound alone
    record_memo(graph, "b")
    record_memo(graph, "d")  # a is the least recently used but one... c goes first, then a (12 > 10)
    assert record_memo(graph, "a") is not grown


def test_forgetting_a_graphs_memo_lets_its_records_go_and_keeps_the_others() -> None:
    graph, other = load_sample("online-boutique"), load_sample("nvidia-jetson")
    units = graph_units(graph)
    FORMATS.get("jsonl").render(graph, units)
    FORMATS.get("csv").render(graph, units)
    FORMATS.get("jsonl").render(other, graph_units(other))
    assert base.memos_held(graph) == {"jsonl": len(units), "csv": len(units)}
    assert Workbench().forget(graph, "jsonl") == len(units)
    assert base.memos_held(graph) == {"csv": len(units)}
    assert base.memos_held(other) == {"jsonl": len(graph_units(other))}  # another graph's memos are its own
    assert Workbench().forget(graph) == len(units) and base.memos_held(graph) == {}
    assert Workbench().forget(graph) == 0 and base.memos_held(other) == {"jsonl": len(graph_units(other))}


def test_a_graph_is_pickled_without_its_memos() -> None:
    """A graph sent to Ray (or copied) carries none of its records: the receiver builds what it renders."""
    graph = load_sample("online-boutique")
    FORMATS.get("jsonl").render(graph, graph_units(graph))
    received = pickle.loads(pickle.dumps(graph))
    assert received == graph and base.memos_held(received) == {} and base.memos_held(graph)


def test_a_memo_table_counts_as_the_records_it_holds(monkeypatch) -> None:
    """graphml keeps its whole document as one table: the policy weighs it by its records, not as one entry."""
    graph = load_sample("nvidia-jetson")
    rendering = FORMATS.get("graphml").render(graph, graph_units(graph))
    assert base.memos_held(graph) == {"graphml": 1 + len(rendering.records)}  # the table's entry and its records
    assert FORMATS.get("graphml").render(graph, graph_units(graph)).text == rendering.text  # from the memo
    monkeypatch.setattr(base, "RECORDS_KEPT", len(rendering.records))
    FORMATS.get("jsonl").render(graph, graph_units(graph))
    FORMATS.get("csv").render(graph, graph_units(graph))  # three memos, over the records kept: graphml goes
    assert set(base.memos_held(graph)) == {"jsonl", "csv"}


def test_a_memo_another_thread_fills_can_be_weighed_while_it_grows():
    """Two sessions rendering two formats of one large graph: a new memo weighs the others while another
    thread adds records to one of them. A table that adds a record when it is measured stands for that thread."""
    graph = load_sample("online-boutique")
    growing = record_memo(graph, "jsonl")

    class GrowsWhenMeasured(list):
        def __len__(self) -> int:
            growing[f"n:added-{super().__len__()}"] = None  # the other thread's insert, mid-iteration
            return super().__len__()

    growing["codes"] = GrowsWhenMeasured([1, 2, 3])
    assert record_memo(graph, "csv") == {}  # weighing "jsonl" does not raise
    assert base.memos_held(graph)["jsonl"] >= 4
