"""Node names and the vocabulary of the RDF formats: escape-free, readable, and each gives its name back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats.rdf_names import is_plain, node_id_of, node_local, slug, vocabulary
from core.graph.model import Edge, Graph, Node
from tests.strategies import texts


@given(node_id=st.one_of(texts, st.text(max_size=40)))
def test_every_id_has_one_escape_free_local_name_that_gives_it_back(node_id):
    local = node_local(node_id)
    assert "%" not in local and "\\" not in local
    assert (":" in local) != is_plain(node_id)
    assert node_id_of(local, "test") == node_id


def test_a_name_keeps_its_letters_readable_and_its_spaces_as_underscores():
    assert node_local("United States of America") == "United_States_of_America:"
    assert node_local("Washington, D.C.").startswith("Washington_DC:")
    assert node_local("svc-api") == "svc-api" and node_local("8") == "8" and node_local("日本") == "日本"


def test_a_long_id_of_distinct_rare_characters_is_named_and_read_back_in_reasonable_time():
    node_id = "".join(chr(0xF0000 + index) for index in range(5_000))  # private use: every one coded
    assert node_id_of(node_local(node_id), "test") == node_id


@pytest.mark.parametrize("local", ["a%20b", "a:b:c", "ab:", "a:z", "a:9999999999", "-a", "a.b"])
def test_a_local_name_this_module_never_writes_is_a_format_error(local):
    with pytest.raises(FormatError) as caught:
        node_id_of(local, "line 3")
    assert caught.value.where == "line 3"


def test_the_vocabulary_declares_only_names_that_are_no_local_names_and_keeps_them_apart():
    graph = Graph.build([Node("a", "big city", (("zip code", 1), ("zip_code", 2)))],
                        [Edge("a", "largest city", "a"), Edge("a", "largest_city", "a"), Edge("a", "largest-city!", "a")])
    names = vocabulary(graph)
    assert names.declared == (("t", "big_city", "big city"), ("r", "largest-city", "largest-city!"),
                              ("r", "largest_city_2", "largest city"), ("p", "zip_code_2", "zip code"))
    assert names.local("r", "largest_city") == "largest_city" and names.local("r", "largest city") == "largest_city_2"
    assert slug("50% Club (test)") == "50_Club_test" and slug(",") == "_"
