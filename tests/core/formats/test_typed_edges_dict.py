"""typed_edges_dict: typed edges with the relations and types replaced by codes from a preamble dictionary."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats.typed_edges_dict import FORMAT, assign_codes, relation_codes, type_codes
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service"), Node("team-core", "team")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "owned_by", "team-core"),
     Edge("svc-auth", "owned_by", "team-core", {"since": 2021})])


def render(graph, units=None):
    return FORMAT.render(graph, graph_units(graph) if units is None else units)


def test_a_small_graph_reads_as_a_dictionary_then_coded_lines():
    assert render(SMALL).text == """\
#graph-dict-v1
REL: B=owned_by|D=depends_on
TYPE: s=service|t=team
N|svc-api|s|{"tier":1}
N|svc-auth|s
N|team-core|t
E|svc-api|D|svc-auth
E|svc-api|B|team-core
E|svc-auth|B|team-core|{"since":2021}"""


def test_the_dictionary_is_the_preamble_and_comes_from_the_whole_graph():
    graph = service_graph()
    full = render(graph)
    assert full.preamble == "#graph-dict-v1\nREL: D=depends_on|B=owned_by\nTYPE: s=service|t=team|d=database"
    assert render(graph, []).text == full.preamble  # an empty cut still carries (and pays for) the dictionary


def test_codes_avoid_letters_and_digits_that_look_alike():
    usage = dict.fromkeys(["ice", "line", "one", "only", "io", "l1", "0"], 1)
    codes = assign_codes(usage, "ABCDEFGHJKMNPQRSTUVWXYZ")
    assert len(set(codes.values())) == len(codes)
    assert not any(char in code for code in codes.values() for char in "ILO01")


def test_colliding_initials_get_deterministic_distinct_codes():
    graph = Graph.build([Node("a", "service"), Node("b", "server"), Node("c", "store")],
                        [Edge("a", "depends_on", "b"), Edge("b", "describes", "c"), Edge("c", "depends_on", "a")])
    assert relation_codes(graph) == {"depends_on": "D", "describes": "E"}
    assert type_codes(graph) == {"server": "s", "service": "e", "store": "t"}
    assert relation_codes(graph) == relation_codes(Graph.build(graph.nodes, reversed(graph.edges)))


def test_names_that_would_break_the_tables_are_escaped_there():
    graph = Graph.build([Node("a", "x|y"), Node("b", "line\nbreak")], [Edge("a", "d=x, y", "b")])
    text = render(graph).text
    assert text.splitlines()[1:3] == ["REL: D=d=x, y", "TYPE: b=line\\nbreak|x=x\\py"]
    assert FORMAT.decode(text) == graph


def test_an_unknown_code_is_rejected_with_its_line():
    text = render(SMALL).text.replace("E|svc-api|D|svc-auth", "E|svc-api|Q|svc-auth")
    with pytest.raises(FormatError, match="unknown relation code 'Q'") as error:
        FORMAT.decode(text)
    assert error.value.line == 7


def test_a_code_defined_twice_is_rejected():
    with pytest.raises(FormatError, match="defined twice"):
        FORMAT.decode("#graph-dict-v1\nREL: D=depends_on|D=owned_by\nTYPE:")

