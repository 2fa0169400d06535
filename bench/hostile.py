"""How long the importers take to answer the hostile classes of issue 17 (loaded or refused), CPU beside wall.

Not a test (tests/core/io/test_hostile_classes.py holds the time limits): it prints the median of a
few runs of each case, and for GML the ratio of our reader to networkx's parse_gml on the same file,
measured in the same run. Run: .venv/bin/python bench/hostile.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx

from core.errors import LoadError
from core.io import load_graph, save_graph
from core.io.generate import service_graph


def measured(action, repeats: int) -> tuple[float, float, str]:
    """Median wall and CPU seconds, and the outcome of the last run."""
    walls, cpus, outcome = [], [], ""
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            result = action()
            outcome = f"loads {len(result.nodes):,} nodes" if hasattr(result, "nodes") else str(result)
        except LoadError as error:
            outcome = f"refused: {error.what[:60]}"
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), outcome


def cases() -> list[tuple[str, object]]:
    nested = b"graph [\n" + b"  a [ b [ c 1 ] ]\n" * 1_100_000 + b"]\n"
    body = b"".join(b'  node [ id %d labelV "t" ]\n' % index for index in range(5_000))
    body += b"".join(b"  edge [ source %d target %d ]\n" % (index % 5_000, index * 7 % 5_000) for index in range(20_000))
    gml = b"graph [ directed 1 multigraph 1\n" + body + b"]\n"
    header = b"source,target," + b",".join(b"c%d" % index for index in range(20_000))
    wide = header + b"\na,b" + b",x" * 20_000 + b"\n"
    node_link = save_graph(service_graph(3_000, 6_000, 7), "node-link").encode()
    graphml = (b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph>'
               + b"".join(b'<node id="n%d"/>' % index for index in range(900_000)) + b"</graph></graphml>")
    return [
        (f"GML, {len(nested) / 1e6:.1f} MB of nested lists", lambda: load_graph(nested, name="n.gml")),
        (f"GML, {len(gml) / 1e6:.2f} MB, 5,000 nodes, 20,000 edges", lambda: load_graph(gml, name="g.gml")),
        ("  the same file through networkx's parse_gml (parsing only)",
         lambda: f"{nx.parse_gml(gml.decode(), label='id').number_of_nodes():,} nodes"),
        ("CSV header of 20,000 columns", lambda: load_graph(wide, name="w.csv")),
        (f"node-link JSON, {len(node_link) / 1e6:.2f} MB, format detected", lambda: load_graph(node_link, name="g.json")),
        ("  the same file with --format node-link", lambda: load_graph(node_link, name="g.json", format="node-link")),
        (f"GraphML, {len(graphml) / 1e6:.1f} MB, 900,000 nodes", lambda: load_graph(graphml, name="h.graphml")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    results = []
    for label, action in cases():
        wall, cpu, outcome = measured(action, repeats)
        results.append(cpu)
        print(f"{label:<58} {wall:7.2f} s wall {cpu:7.2f} s CPU  {outcome}")
    print(f"GML: our reader (with the graph built) / networkx's parse alone, CPU: {results[1] / results[2]:.2f}")
    print(f"node-link: detected / named format, CPU: {results[4] / results[5]:.2f}")


if __name__ == "__main__":
    main()
