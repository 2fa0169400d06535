"""Classes of hostile input, each answered (loaded or refused with a LoadError) within a time limit.

A limit that is only checked after the work is done is not a limit: these inputs were hangs, memory
blow-ups or quadratic checks (issue 17). Each test builds the class's large member in memory and
holds a per-test timeout well above the time it takes on a loaded 2-core machine.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from core.errors import FormatError, LoadError, ParameterError
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io import load, load_graph, load_graph_file, loading
from core.io.generate import service_graph
from core.io.limits import LimitError, Limits


def answer(data: bytes, name: str, **settings):
    try:
        return load_graph(data, name=name, **settings)
    except LoadError as error:
        return error


@pytest.mark.timeout(60)
def test_gml_nesting_is_checked_in_linear_time_whatever_the_size():
    nested = b"graph [\n" + b"  a [ b [ c 1 ] ]\n" * 1_100_000 + b"]\n"  # 19.8 MB of lists, no records
    assert len(nested) < Limits().max_bytes
    started = time.perf_counter()
    outcome = answer(nested, "nested.gml")
    assert isinstance(outcome, LimitError) and "2,200,001 lists" in str(outcome)
    deep = b"graph [\n" + b"x [ " * 5_000_000 + b"]\n"
    assert "nests too deeply" in str(answer(deep, "deep.gml", limits=Limits(max_bytes=len(deep))))
    assert time.perf_counter() - started < 30


@pytest.mark.timeout(120)
def test_a_gml_within_the_limits_is_read_without_networkx_s_per_line_cost():
    body = b"".join(b'  node [ id %d labelV "t" ]\n' % index for index in range(20_000))
    body += b"".join(b"  edge [ source %d target %d ]\n" % (index % 20_000, index * 7 % 20_000) for index in range(40_000))
    graph = load_graph(b"graph [ directed 1 multigraph 1\n" + body + b"]\n", name="big.gml")
    assert (len(graph.nodes), len(graph.edges)) == (20_000, 40_000)


@pytest.mark.timeout(30)
def test_a_gml_with_more_node_records_than_the_limit_is_refused_before_they_are_read():
    data = b"graph [\n" + b"".join(b"  node [ id %d ]\n" % index for index in range(60_000)) + b"]\n"
    assert "60,000 nodes, the limit is 50,000" in str(answer(data, "many.gml"))


@pytest.mark.timeout(30)
@pytest.mark.parametrize("columns", [20_000, 100_000])
def test_a_csv_header_of_many_columns_is_checked_in_linear_time(columns):
    header = b"source,target," + b",".join(b"c%d" % index for index in range(columns))
    started = time.perf_counter()
    outcome = answer(header + b"\na,b" + b",x" * columns + b"\n", "wide.csv")
    assert not isinstance(outcome, LoadError), outcome
    repeated = answer(header + b",c7\na,b\n", "repeated.csv")
    assert "names the column(s) c7 more than once" in str(repeated)
    assert time.perf_counter() - started < 10


@pytest.mark.timeout(30)
@pytest.mark.parametrize("levels", [3, 9, 20])
def test_yaml_aliases_are_refused_before_anything_is_built(levels):
    lines = ["a0: &a0 {type: t, r: [x, x, x, x, x, x, x, x, x, x]}"]
    lines += [f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 10)}]" for level in range(1, levels + 1)]
    text = "\n".join(lines) + "\n"  # 10**levels references in a few hundred bytes
    with pytest.raises(FormatError, match="aliases are refused"):
        FORMATS.get("yaml").decode(text)
    assert "aliases are refused" in str(answer(text.encode(), "bomb.yaml"))


@pytest.mark.timeout(30)
def test_json_is_detected_without_running_the_yaml_reader(monkeypatch):
    graph = service_graph(2_000, 4_000, 7)
    text = FORMATS.get("pretty_json").render(graph, graph_units(graph)).text
    assert len(text) > 500_000
    original = loading._decoded
    tried: list[str] = []
    monkeypatch.setattr(loading, "_decoded", lambda format, data, name: tried.append(format) or original(format, data, name))
    loaded = load(text.encode(), name="graph.json")
    assert loaded.graph == graph and "yaml" not in tried and tried  # the JSON readers only


@pytest.mark.timeout(30)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_without_reading_them(device):
    if not Path(device).exists():
        pytest.skip(f"{device} is not on this system")
    with pytest.raises(LoadError, match="the path is a device, not a graph file"):
        load_graph_file(device)


@pytest.mark.timeout(30)
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "graph.json"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="named pipe"):
        load_graph_file(fifo)


@pytest.mark.timeout(30)
def test_a_file_that_grows_past_its_size_is_read_only_to_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "growing.json"
    path.write_bytes(b"{}")
    real_open = Path.open

    class Endless:  # a file whose stat said 2 bytes but whose reads never end (like a device)
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self, size=-1):
            assert size > 0, "the reader asked for the whole file"
            return b" " * size

    monkeypatch.setattr(Path, "open", lambda self, *a, **k: Endless() if self == path else real_open(self, *a, **k))
    with pytest.raises(LimitError, match="more than 1,000 bytes"):
        load_graph_file(path, limits=Limits(max_bytes=1_000))


@pytest.mark.timeout(60)
def test_graphml_nodes_are_counted_while_streaming_and_stop_at_the_limit():
    nodes = b"".join(b'<node id="n%d"/>' % index for index in range(900_000))  # ~19 MB, within the byte limit
    data = b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph>' + nodes + b"</graph></graphml>"
    assert len(data) < Limits().max_bytes
    started = time.perf_counter()
    outcome = answer(data, "huge.graphml")
    assert isinstance(outcome, LimitError) and "50,001 nodes, the limit is 50,000" in str(outcome)
    assert time.perf_counter() - started < 20


@pytest.mark.timeout(30)
@pytest.mark.parametrize("services, noise_edges, words", [
    (5, 100_000_000_000, "more than the services generator allows"),
    (100_000_000, 80, "more than the services generator allows"),
    (5, 18, "only 17 free ordered pairs"),
])
def test_generator_requests_beyond_the_limits_are_refused_up_front(services, noise_edges, words):
    with pytest.raises(ParameterError, match=words):
        service_graph(services, noise_edges)


def test_the_largest_possible_noise_request_is_still_built():
    assert len(service_graph(5, 17).edges) == 8 + 17
