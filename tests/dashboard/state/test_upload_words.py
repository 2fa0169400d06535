"""Load errors in the upload form's words: its controls instead of CLI flags, one reader's reason."""

from __future__ import annotations

import pytest

from core.errors import LoadError
from core.io.loading import load_graph
from dashboard.state.upload_words import dashboard_words


def refusal(data: bytes, name: str, **options) -> LoadError:
    with pytest.raises(LoadError) as refused:
        load_graph(data, name=name, **options)
    return refused.value


def test_a_from_to_csv_is_refused_naming_the_column_mapping_and_no_flag():
    text = dashboard_words(refusal(b"from,to\na,b\n", "edges.csv"))
    assert "File options → Source column" in text and "File options → Format" in text
    assert "--" not in text and "learning-graph:" not in text and "pretty_json" not in text


def test_a_nodes_table_alone_names_the_nodes_table_control():
    text = dashboard_words(refusal(b"id,type\na,service\n", "nodes.csv"))
    assert "File options → Nodes table" in text and "--nodes" not in text


def test_an_unrecognised_file_says_so_without_listing_every_reader():
    text = dashboard_words(refusal(b"\x00\x01 not a graph at all \x02", "blob.bin"))
    assert "--" not in text and "pretty_json" not in text
