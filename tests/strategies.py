"""Hypothesis strategies for graphs whose text is built to break formats."""

from __future__ import annotations

from hypothesis import strategies as st

from core.graph.model import Edge, Graph, Node

# Each of these has broken some graph serializer somewhere.
ADVERSARIAL = [
    "|", "\\", "\\p", "\n", "\r", "\r\n", "\t", ",", '"', "'", " ", "  lead", "trail  ", "", "é", "日本",
    "🕸️", "->", "#", "#graph-v1", "@0", "[", "]", ":", "|x|", "<|endoftext|>", "N", "E", "k", "=", "{}",
    "\u2028", "\x85", "\x0b", "\x00", "<img src=x onerror=alert(1)>", "null", "true", "1", "-",
    # prose and line formats: list words and separators, local ids, dictionary and section syntax
    " and ", "and", ", ", "(", ")", "@1", "a: b", "d=x, y", "x.", "is a", " — a ", "This", "has", "has link 1 to",
    "## edges", "[T]",
    # structured, RDF, XML and table formats: reserved keys, escape look-alikes, headers, markup
    "type", "properties", "target", "relation", "~type", "~", "%", "%41", "\\u000d", "\\s", "\ufffe", "\x0c",
    "yes", "1.0", "nodes[1]{id,type}:", "-----Entities-----", "|---|", "&amp;", "]]>",
]

texts = st.one_of(
    st.sampled_from(ADVERSARIAL),
    st.text(alphabet=st.sampled_from(list("ab|\\,\"'\n\r\t #@[]:-> é🕸")), max_size=8),
    st.text(max_size=6),
)
property_values = st.one_of(
    texts,
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
)
property_maps = st.dictionaries(texts, property_values, max_size=3)


@st.composite
def graphs(draw, max_nodes: int = 6, max_edges: int = 8, with_properties: bool = True) -> Graph:
    """Small graphs with adversarial ids, types, relations and properties, parallel edges and self-loops."""
    ids = draw(st.lists(texts, min_size=1, max_size=max_nodes, unique=True))
    props = property_maps if with_properties else st.just({})
    nodes = [Node(node_id, draw(texts), tuple(draw(props).items())) for node_id in ids]
    edge_count = draw(st.integers(min_value=0, max_value=max_edges))
    edges = []
    for _ in range(edge_count):
        edge = Edge(draw(st.sampled_from(ids)), draw(texts), draw(st.sampled_from(ids)),
                    tuple(draw(props).items()))
        edges.append(edge)
        if draw(st.booleans()) and len(edges) < max_edges:
            edges.append(edge)  # an exact parallel copy
    return Graph.build(nodes, edges)
