"""Node pickers on a graph with more nodes than a list should hold: the hubs listed, any id typed and checked."""

import pytest

from core.io.samples import load_sample
from dashboard.state import node_choices
from tests.dashboard.conftest import started, unescaped


@pytest.fixture
def short_lists(monkeypatch):
    """Pickers list at most 5 nodes, so nvidia-jetson (49 nodes) has more than a list holds."""
    monkeypatch.setattr(node_choices, "NODE_CHOICES", 5)


def test_the_seed_box_lists_the_seeds_then_the_hubs_and_takes_a_typed_id(short_lists):
    app = started(sample="nvidia-jetson")
    box = app.sidebar.multiselect(key="seeds")
    graph = load_sample("nvidia-jetson")
    assert len(box.options) == 5 and set(box.value) <= set(box.options)
    assert "type any other node id" in box.help
    unlisted = next(node.id for node in graph.nodes if node.id not in box.options)
    box.set_value([unlisted]).run()
    assert not app.exception
    assert app.sidebar.multiselect(key="seeds").value == [unlisted]
    assert unlisted in app.sidebar.multiselect(key="seeds").options  # the chosen id is listed from then on


def test_a_typed_id_that_is_no_node_is_named_and_left_out(short_lists):
    app = started(sample="nvidia-jetson")
    seeds = app.sidebar.multiselect(key="seeds").value
    app.sidebar.multiselect(key="seeds").set_value([*seeds, "no-such-node"]).run()
    assert not app.exception
    warnings = [unescaped(item.value) for item in app.sidebar.warning]
    assert any("Seed 'no-such-node': not a node id of this graph" in warning for warning in warnings), warnings
    assert app.sidebar.multiselect(key="seeds").value == [*seeds, "no-such-node"]  # what was typed stays in view
