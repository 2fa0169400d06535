"""Bad CLI input ends in one line naming the cause and the fix, with exit status 2, before any long work."""

from __future__ import annotations

import json
import socket
import time

import pytest

from core.cli import main
from core.io import load_graph, save_graph
from core.io.generate import service_graph

pytestmark = pytest.mark.timeout(120)


def refused(arguments: list[str], capsys) -> str:
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert error.startswith("graph-context-lab: error: ") and error.count("\n") == 1 and "Fix:" in error
    assert "Traceback" not in error and "(None)" not in error
    return error


@pytest.mark.parametrize("arguments, words", [
    (["sweep", "--query", "impact_owners:failed=nosuch"], "names the node 'nosuch' (failed), which is not in the graph"),
    (["sweep", "--query", "dependencies_within:hops=-5"], "hops=-5 is negative"),
    (["sweep", "--graph", ""], "the graph argument is empty"),
    (["sweep", "--seeds", ""], "--seeds is empty"),
    (["sweep", "--question", ""], "--question is empty"),
    (["benchmark", "--services", "5", "--noise-edges", "100000000000"], "more than the services generator allows"),
    (["benchmark", "--services", "100000000"], "services = 100,000,000 is more than"),
    (["benchmark", "--services", "5", "--noise-edges", "80"], "only 17 free ordered pairs"),
    (["benchmark", "--graph", "/dev/zero"], "the path is a device"),
    (["evaluate", "--store", "/nonexistent/dir/x.sqlite"], "the folder /nonexistent/dir of the run store does not exist"),
    (["benchmark", "--graph", "falkordb://127.0.0.1:1/g"], "cannot reach the FalkorDB server"),
    (["benchmark", "--graph", "falkordb://user:pw@127.0.0.1:1/g"], "FALKORDB_PASSWORD"),
])
def test_bad_arguments_are_one_line_errors(arguments, words, capsys, tmp_path):
    if arguments[0] in ("sweep", "benchmark"):
        arguments = arguments + ["--output", str(tmp_path / ("r.csv" if arguments[0] == "sweep" else "r.json"))]
    assert words in refused(arguments + (["--no-progress"] if arguments[0] == "sweep" else []), capsys)


def test_a_store_that_is_a_folder_is_refused(tmp_path, capsys):
    assert "is a folder, not a run store file" in refused(["evaluate", "--store", str(tmp_path)], capsys)


def test_an_output_in_a_missing_folder_is_refused_before_the_sweep_runs(tmp_path, capsys):
    started = time.perf_counter()
    error = refused(["sweep", "--services", "2000", "--noise-edges", "4000", "--output",
                     str(tmp_path / "missing" / "r.csv")], capsys)
    assert "does not exist" in error and time.perf_counter() - started < 5


def test_a_zero_byte_file_is_refused_not_benchmarked_as_a_perfect_empty_graph(tmp_path, capsys):
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert "the file is empty (0 bytes)" in refused(["benchmark", "--graph", str(empty), "--output",
                                                       str(tmp_path / "r.json")], capsys)


def test_serve_reader_refuses_a_port_out_of_range(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["serve-reader", "--port", "65536"])
    assert exit_.value.code == 2 and "65536 is not a port" in capsys.readouterr().err


def test_serve_reader_says_what_to_do_when_the_port_is_taken(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        error = refused(["serve-reader", "--port", str(taken.getsockname()[1])], capsys)
    assert "is already in use" in error and "--port 0" in error


def test_serve_reader_says_what_to_do_with_an_unknown_host(capsys):
    assert "is not known" in refused(["serve-reader", "--host", "no-such-host.invalid", "--port", "0"], capsys)


@pytest.mark.parametrize("format", ["gexf", "pajek"])
def test_convert_writes_gexf_and_pajek_that_read_back(format, tmp_path, capsys):
    output = tmp_path / f"graph.{format}"
    assert main(["convert", "reference-services", str(output), "--to", format]) == 0
    assert load_graph(output.read_bytes(), name=output.name) == load_graph(
        save_graph(service_graph(), "node-link").encode(), name="g.json")


def test_the_cli_reads_a_falkordb_graph(falkordb_server, tmp_path):
    from tests.core.io.test_falkordb_source import load_into
    graph = service_graph(8, 10, 2)
    load_into(falkordb_server, "cli", graph)
    output = tmp_path / "report.json"
    url = f"falkordb://{falkordb_server.host}:{falkordb_server.port}/cli"
    assert main(["benchmark", "--graph", url, "--output", str(output)]) == 0
    report = json.loads(output.read_text())
    assert (report["graph"]["nodes"], report["graph"]["edges"]) == (len(graph.nodes), len(graph.edges))
    assert report["graph_hash"] == graph.sha256
    converted = tmp_path / "around.json"
    assert main(["convert", url, str(converted), "--to", "node-link", "--cypher-seeds", "db-identity",
                 "--cypher-hops", "1"]) == 0
    assert {node.id for node in load_graph(converted.read_bytes(), name="a.json").nodes} == {
        "db-identity", "svc-auth"}


def test_an_operating_system_error_without_a_file_name_does_not_end_in_none(monkeypatch, capsys):
    import errno

    from core.commands import benchmark

    def failing(arguments):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(benchmark, "run", failing)
    assert "No space left on device. Fix:" in refused(["benchmark"], capsys)
