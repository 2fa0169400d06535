"""The public air-routes GraphML (tests/data/air-routes): 81 comment lines before the graph, the head that made
format detection backtrack for minutes (hostile-inputs D1). It is detected, read and described in seconds."""

from __future__ import annotations

import time
from pathlib import Path

import networkx as nx

from core.cli import main
from core.io import load

AIR_ROUTES = Path(__file__).parents[2] / "data" / "air-routes" / "air-routes-small.graphml"


def test_the_air_routes_file_is_detected_as_graphml_and_read_with_networkx_counts():
    started = time.perf_counter()
    loaded = load(AIR_ROUTES.read_bytes(), name=AIR_ROUTES.name)
    assert time.perf_counter() - started < 2.0
    reference = nx.read_graphml(AIR_ROUTES)
    assert loaded.format == "graphml"
    assert (len(loaded.graph.nodes), len(loaded.graph.edges)) == (reference.number_of_nodes(),
                                                                  reference.number_of_edges()) == (47, 1_390)
    assert {node.type for node in loaded.graph.nodes} == {"airport", "version"}
    assert {edge.relation for edge in loaded.graph.edges} == {"route"}


def test_describe_reads_the_air_routes_file_in_seconds(capsys):
    started = time.perf_counter()
    assert main(["describe", "--graph", str(AIR_ROUTES)]) == 0
    assert time.perf_counter() - started < 5.0
    assert capsys.readouterr().out.startswith("47 nodes, 1,390 edges")
