"""The sidebar's "database" source against a real FalkorDB server: the graph read is the graph stored."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.io.falkordb_source import DatabaseSource, read_database
from core.io.generate import service_graph
from tests.core.io.test_falkordb_source import load_into
from tests.dashboard.conftest import started, unescaped

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def stored(falkordb_server):
    graph = service_graph(10, 12, 5)
    load_into(falkordb_server, "dashboard", graph)
    return graph


def database_app(server, **fields) -> AppTest:
    app = started(source="database")
    app.sidebar.text_input(key="database_host").set_value(server.host)
    app.sidebar.number_input(key="database_port").set_value(server.port)
    for key, value in fields.items():
        widget = app.sidebar.text_area(key=key) if key == "database_query" else app.sidebar.text_input(key=key)
        widget.set_value(value)
    app.run()
    return app


def caption_counts(app: AppTest) -> str:
    return unescaped(app.caption[0].value)


def test_reading_a_graph_shows_its_counts_and_keeps_it_across_reruns(falkordb_server, stored):
    app = database_app(falkordb_server, database_graph="dashboard", database_seeds="db-identity")
    before = caption_counts(app)
    assert "database:" not in before  # nothing is read until asked
    app.sidebar.button(key="database_read").click().run()
    assert not app.exception and not app.error
    expected = read_database(DatabaseSource(falkordb_server.host, falkordb_server.port, "dashboard",
                                            seeds=("db-identity",)))
    shown = caption_counts(app)
    assert f"falkordb://{falkordb_server.host}:{falkordb_server.port}/dashboard around db-identity" in shown
    assert f"{len(expected.nodes)} nodes" in shown and f"{len(expected.edges)} edges" in shown
    app.run()  # a rerun keeps the graph without reading again
    assert caption_counts(app) == shown


def test_a_failed_read_shows_core_s_message_and_keeps_the_previous_graph(falkordb_server, stored):
    app = database_app(falkordb_server, database_graph="nosuch")
    before = caption_counts(app)
    app.sidebar.button(key="database_read").click().run()
    assert not app.exception and app.error
    assert "there is no graph named 'nosuch'" in unescaped(app.error[0].value)
    assert caption_counts(app) == before


def test_the_password_is_a_session_field_never_in_the_url(falkordb_server, stored):
    app = database_app(falkordb_server, database_graph="dashboard", database_password="secret")
    app.sidebar.button(key="database_read").click().run()
    assert "secret" not in str(dict(app.query_params)) and "secret" not in caption_counts(app)
    assert app.sidebar.text_input(key="database_password").proto.type == 1  # PASSWORD


def test_a_database_notice_is_shown_beside_the_source_and_kept_across_reruns(falkordb_server):
    """D16: the labels of a node with its own 'labels' property go to falkordb_labels, and the page says so."""
    falkordb_server.graph("clash_page").query("CREATE (:A:B {id:'m', labels:'clash'})")
    app = database_app(falkordb_server, database_graph="clash_page")
    app.sidebar.button(key="database_read").click().run()
    # one node and no edge: no question has an answer, which the page says; the source itself raises nothing
    assert not app.exception and all("no answer on this graph" in item.value for item in app.error)
    notices = [caption.value for caption in app.sidebar.caption if "falkordb" in unescaped(caption.value)]
    assert len(notices) == 1 and "their labels are in 'falkordb_labels'" in unescaped(notices[0])
    app.run()
    assert len([caption for caption in app.sidebar.caption if "falkordb_labels" in unescaped(caption.value)]) == 1
