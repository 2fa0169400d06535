"""The outside tables the lab reproduces, cell by cell beside the lab's own count of the same data.

    .venv/bin/python bench/published_tables.py

- the seed document's reference program: the bytes and o200k tokens of its five encoders on five graphs
  (tests/data/seed_reference_facts.json holds its figures; tests/core/formats/test_reference_compatibility.py
  checks them against the program itself when the seed document is beside the checkout);
- the ISONGraph knowledge-graph benchmark's published o200k table (BENCHMARK.md), for the five of its ten
  formats the lab writes as that benchmark's converters do, from a copy of its data (tests/data/published-formats);
- KG-LLM-Bench's generator output on a 23-entity graph beside the lab's kgllm_ profiles of its five formats and
  the lab's own formats of the same kind.

Each row ends with how many cells are equal. The docs page "Published tables, reproduced" quotes this output,
and tests/docs/test_quoted_output.py runs it to check every quoted line. Takes about 3 s.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import rdflib
from rdflib.compare import isomorphic

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.formats import FORMATS  # noqa: E402  (after the path: the script runs from a checkout)
from core.graph.units import graph_units  # noqa: E402
from core.io.generate import service_graph  # noqa: E402
from core.io.node_link import parse_node_link  # noqa: E402
from core.tokens import TOKENIZERS  # noqa: E402
from tests.published_sources import benchmark_isongraph, isongraph_row_keys, kgllm_graph, upper_cased  # noqa: E402

DATA = ROOT / "tests" / "data"
SEED_FORMATS = ("pretty_json", "compact_json", "jsonl", "csv", "typed_edges")
# ISONGraph's column -> the lab's format that writes the same text (the benchmark's converters, see
# tests/data/published-formats/isongraph/README.md); its Cypher, RDF/Turtle, GML, JSON-LD and GraphML columns
# are the benchmark's own writers, which no lab format copies.
# KG-LLM-Bench's generator file -> (the lab's profile of it, the lab's own format of that kind)
KGLLM_FILES = {"list_of_edges": ("kgllm_list_of_edges", "edge_tuples"),
               "structured_json": ("kgllm_structured_json", "structured_json"),
               "structured_yaml": ("kgllm_structured_yaml", "yaml"),
               "rdf_turtle3": ("kgllm_rdf_turtle3", "turtle"),
               "json_ld3": ("kgllm_json_ld3", "jsonld")}
ISONGRAPH_COLUMNS = {"JSON": "flat_json", "JSON Compact": "flat_compact_json", "TOON": "toon", "ISON": "ison",
                     "ISONGraph": "isongraph"}


def count(format_name: str, graph, units=None) -> tuple[str, int]:
    text = FORMATS.get(format_name).render(graph, graph_units(graph) if units is None else units).text
    return text, TOKENIZERS.get("o200k_base").count(text)


def in_file_order(graph, data: dict) -> list:
    """The graph's units in the order the benchmark's file lists them, as its converters write them."""
    units = {unit.key: unit for unit in graph_units(graph)}
    return [units[f"n:{node['id']}"] for node in data["nodes"]] + [
        units[f"e:{edge['source']}|{edge['relation']}|{edge['target']}"] for edge in data["edges"]]


def isongraph_count(data: dict) -> int:
    """isongraph of the graph the benchmark's converter builds (relations upper-cased), in the order its ISONGraph
    writes the rows, as tests/core/formats/test_published_isongraph.py checks byte for byte."""
    graph = parse_node_link(json.dumps(upper_cased(data)).encode("utf-8"))
    units = {unit.key: unit for unit in graph_units(graph)}
    order = [units[key] for key in isongraph_row_keys(benchmark_isongraph(data))]
    return count("isongraph", graph, order)[1]


def cell(theirs: int, ours: int) -> str:
    return f"{theirs:,}" if theirs == ours else f"{theirs:,} / {ours:,}"


def seed_table() -> list[str]:
    facts = json.loads((DATA / "seed_reference_facts.json").read_text(encoding="utf-8"))
    lines = ["The seed's reference program: o200k tokens of each encoder's text (reference / lab where they differ)",
             "", "| services, noise edges, seed | " + " | ".join(SEED_FORMATS) + " | equal |",
             "|---|" + "---:|" * (len(SEED_FORMATS) + 1)]
    equal_cells = 0
    for entry in facts["graphs"]:
        graph = service_graph(entry["services"], entry["noise_edges"], entry["seed"])
        cells, equal = [], 0
        for name in SEED_FORMATS:
            text, tokens = count(name, graph)
            expected = entry["formats"][name]
            same = (len(text.encode("utf-8")), tokens) == (expected["utf8_bytes"], expected["o200k_tokens"])
            equal += same
            cells.append(cell(expected["o200k_tokens"], tokens))
        equal_cells += equal
        lines.append(f"| {entry['services']}, {entry['noise_edges']}, {entry['seed']} | " + " | ".join(cells)
                     + f" | {equal} of {len(SEED_FORMATS)} |")
    lines += ["", f"{equal_cells} of {len(facts['graphs']) * len(SEED_FORMATS)} cells equal, bytes and tokens"]
    return lines


def isongraph_table() -> list[str]:
    folder = DATA / "published-formats" / "isongraph"
    graphs = json.loads((folder / "isongraph-kg-benchmark.json").read_text(encoding="utf-8"))
    published = json.loads((folder / "published-token-table.json").read_text(encoding="utf-8"))["tokens"]
    lines = ["ISONGraph's published o200k table, each graph in its file's order (published / lab where they differ)", "",
             "| graph | " + " | ".join(f"{column} ({name})" for column, name in ISONGRAPH_COLUMNS.items())
             + " | equal |", "|---|" + "---:|" * (len(ISONGRAPH_COLUMNS) + 1)]
    per_column = dict.fromkeys(ISONGRAPH_COLUMNS, 0)
    for graph_name, entry in graphs.items():
        graph = parse_node_link(json.dumps(entry["data"]).encode("utf-8"))
        units = in_file_order(graph, entry["data"])
        cells, equal = [], 0
        for column, format_name in ISONGRAPH_COLUMNS.items():
            theirs = published[graph_name][column]
            ours = isongraph_count(entry["data"]) if format_name == "isongraph" else count(format_name, graph, units)[1]
            per_column[column] += theirs == ours
            equal += theirs == ours
            cells.append(cell(theirs, ours))
        lines.append(f"| {graph_name} | " + " | ".join(cells) + f" | {equal} of {len(ISONGRAPH_COLUMNS)} |")
    lines += ["", "equal cells per column: " + ", ".join(f"{column} {equal} of {len(graphs)}"
                                                         for column, equal in per_column.items())]
    return lines


def same_rdf(ours: str, theirs: str, file_name: str) -> bool:
    """Whether two RDF texts mean the same graph (json_ld3's generator writes its @graph in an order that changes
    from run to run: rdflib's hashes)."""
    if not file_name.startswith(("rdf_", "json_ld")):
        return False
    syntax = "json-ld" if file_name.startswith("json_ld") else "turtle"
    return isomorphic(rdflib.Graph().parse(data=ours, format=syntax), rdflib.Graph().parse(data=theirs, format=syntax))


def kgllm_table() -> list[str]:
    folder = DATA / "published-formats" / "countries"
    graph, units = kgllm_graph(json.loads((folder / "graph.json").read_text(encoding="utf-8")))
    tokenizer = TOKENIZERS.get("o200k_base")
    lines = ["KG-LLM-Bench's generator on the countries graph (23 entities): its files beside the lab's profiles, "
             "o200k tokens", "", "| generator file | tokens | lab profile | tokens | same text | "
             "the lab's own format | tokens |", "|---|---:|---|---:|---|---|---:|"]
    for file_name, (profile, own) in KGLLM_FILES.items():
        theirs = (folder / "kg-llm-bench" / f"{file_name}.txt").read_text(encoding="utf-8")
        ours = FORMATS.get(profile).render(graph, units).text
        same = "bytes" if ours == theirs else "same RDF graph" if same_rdf(ours, theirs, file_name) else "no"
        lines.append(f"| {file_name} | {tokenizer.count(theirs):,} | {profile} | {tokenizer.count(ours):,} | {same} "
                     f"| {own} | {count(own, graph)[1]:,} |")
    return lines


def main() -> int:
    print("\n".join([*seed_table(), "", *isongraph_table(), "", *kgllm_table()]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
