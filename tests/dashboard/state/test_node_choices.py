"""A node picker lists every node of an ordinary graph; on a larger one the chosen nodes, then the hubs."""

from core.graph.model import Edge, Graph, Node
from dashboard.state.node_choices import node_choices


def star_graph() -> Graph:
    """hub has five edges, b two, every other node one."""
    leaves = ["a", "b", "c", "d", "e"]
    edges = [Edge("hub", "calls", leaf) for leaf in leaves] + [Edge("b", "calls", "c")]
    return Graph.build([Node(node_id, "Service") for node_id in ["hub", *leaves]], edges)


def test_a_graph_within_the_limit_lists_every_node_in_canonical_order():
    choices = node_choices(star_graph(), ["e"], limit=6)
    assert choices.options == ("a", "b", "c", "d", "e", "hub")
    assert not choices.bounded and choices.note == ""


def test_a_larger_graph_lists_the_chosen_then_the_best_connected():
    choices = node_choices(star_graph(), ["e", "missing", "e"], limit=3)
    assert choices.options == ("e", "hub", "b")  # c also has two edges; b comes first by id
    assert choices.bounded and choices.total == 6
    assert "3 of the graph's 6 nodes" in choices.note and "type any other node id" in choices.note


def test_more_chosen_than_the_limit_keeps_the_first_chosen():
    assert node_choices(star_graph(), ["d", "c", "a"], limit=2).options == ("d", "c")
