"""The Audit page: an uploaded context is decoded in the chosen format and shown with the same report as the CLI."""

from __future__ import annotations

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import load_sample
from tests.dashboard.conftest import metric, on_page, started

GRAPH = load_sample("reference-services")  # the app's default sample


def context_bytes() -> tuple[bytes, int]:
    """svc-api written twice and svc-auth once, the edges of svc-auth and db-identity (db-identity's record is
    dropped, so an edge to it dangles, as do those to nodes not written), a node the graph does not have; and how
    many edges dangle."""
    records = {record.unit_keys[0]: record.text.strip("\n")
               for record in FORMATS.get("typed_edges").render(GRAPH, graph_units(GRAPH)).records}
    written = {"svc-api", "svc-auth"}
    edges = [edge for edge in GRAPH.edges if {edge.source, edge.target} & {"svc-auth", "db-identity"}]
    lines = ["#graph-v1", records["n:svc-api"], records["n:svc-api"], records["n:svc-auth"],
             "N|<img src=x onerror=alert(1)>|service",
             *(f"E|{edge.source}|{edge.relation}|{edge.target}" for edge in edges)]
    dangling = sum(1 for edge in edges if not {edge.source, edge.target} <= written)
    return "\n".join(lines).encode(), dangling


def uploaded(app, data: bytes, name: str = "context.txt", format_name: str = "typed_edges"):
    app.selectbox(key="audit_format").set_value(format_name).run()
    app.main.file_uploader(key="audit_upload").set_value((name, data, "text/plain")).run()
    assert not app.exception, [item.value for item in app.exception]
    return app


def test_an_uploaded_context_shows_the_clis_report_and_its_figures():
    data, dangling = context_bytes()
    app = uploaded(on_page(started(), "audit"), data)
    report = app.code[0].value.splitlines()
    assert report[0].startswith("context.txt: typed_edges, ")
    assert report[2] == "not in the graph: 1 node record: <img src=x onerror=alert(1)>; 0 edge records"
    assert report[4].startswith("duplicates: 1 unit written more often than the graph has it, 1 extra record: "
                                "n:svc-api (2 times")
    assert metric(app, "Dangling edges") == [f"{dangling:,}"]
    assert metric(app, "Records written twice") == ["1"]
    assert metric(app, "Answered from it") == ["no"]  # the sidebar's question, on db-identity, lost its node
    # the upload's text is never markup: the hostile id is in the code block and a table, no element holds it raw
    assert not any("<img" in item.value for item in app.markdown)


def test_a_context_in_another_format_is_refused_with_the_formats_place():
    data, _ = context_bytes()
    app = uploaded(on_page(started(), "audit"), data, format_name="jsonl")
    assert not app.code and "This context cannot be audited" in app.error[0].value
    assert "not valid jsonl" in app.error[0].value and "line 1" in app.error[0].value


def test_a_binary_upload_is_refused_as_binary():
    app = uploaded(on_page(started(), "audit"), b"\x00\x01\x02binary" * 50, name="blob.bin")
    assert "probably binary" in app.error[0].value
