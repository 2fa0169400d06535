"""ISONGraph's published token table: flat_json, flat_compact_json and toon reproduce its JSON, JSON Compact and
TOON cells (o200k) on its seven graphs, read from a copy of the benchmark's data (tests/data/published-formats)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toon_format

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.node_link import parse_node_link
from core.tokens import TOKENIZERS

HERE = Path(__file__).resolve().parents[2] / "data" / "published-formats" / "isongraph"
GRAPHS = json.loads((HERE / "isongraph-kg-benchmark.json").read_text(encoding="utf-8"))
TABLE = json.loads((HERE / "published-token-table.json").read_text(encoding="utf-8"))["tokens"]
CELLS = {"flat_json": "JSON", "flat_compact_json": "JSON Compact", "toon": "TOON"}
REFERENCE = {"flat_json": lambda data: json.dumps(data, indent=2),
             "flat_compact_json": lambda data: json.dumps(data, separators=(",", ":")),
             "toon": toon_format.encode}


@pytest.mark.parametrize("format_name", list(CELLS))
@pytest.mark.parametrize("graph_name", list(GRAPHS))
def test_the_lab_counts_the_published_cell(graph_name, format_name):
    data = GRAPHS[graph_name]["data"]
    graph = parse_node_link(json.dumps(data).encode("utf-8"))
    text = FORMATS.get(format_name).render(graph, graph_units(graph)).text
    encoding = TOKENIZERS.get("o200k_base")
    assert encoding.count(text) == TABLE[graph_name][CELLS[format_name]] == encoding.count(REFERENCE[format_name](data))


@pytest.mark.parametrize("format_name", list(CELLS))
def test_in_the_file_s_order_the_text_is_the_reference_encoder_s(format_name):
    data = GRAPHS["social_network"]["data"]  # ids 1-6: the canonical order is the file's
    graph = parse_node_link(json.dumps(data).encode("utf-8"))
    assert FORMATS.get(format_name).render(graph, graph_units(graph)).text == REFERENCE[format_name](data)
