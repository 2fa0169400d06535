"""The CKG query file loads into core's templates and reproduces its ground truth; ties are reported as ties."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.errors import LoadError
from core.io.samples import get_sample
from core.questions import check_ground_truth, load_questions, parse_ckg_questions

SAMPLE = get_sample("nvidia-jetson")
GRAPH = SAMPLE.load()
QUESTIONS = load_questions(SAMPLE.queries_path)
RECORDS = [json.loads(line) for line in SAMPLE.queries_path.read_text().splitlines()]


def test_every_record_becomes_a_question_with_its_type_and_hop_depth():
    assert len(QUESTIONS) == len(RECORDS) == 164
    assert Counter(q.query_type for q in QUESTIONS) == Counter(record["type"] for record in RECORDS)
    assert [q.hop_depth for q in QUESTIONS] == [record["hop_depth"] for record in RECORDS]
    assert [q.text for q in QUESTIONS] == [record["query"] for record in RECORDS]


def test_the_ground_truth_is_reproduced_and_the_one_tie_is_reported_as_a_tie():
    checks = [check_ground_truth(question, GRAPH) for question in QUESTIONS]
    assert Counter(check.status for check in checks) == {"match": 163, "tie": 1}
    [tie] = [check for check in checks if check.status == "tie"]
    assert tie.question_id == "nvidia-jetson_T3_1_20"
    assert "Cuda Toolkit" in tie.detail and "Nvidia Isaac" in tie.detail  # both chains are shown


def test_a_recorded_answer_that_really_differs_is_shown_not_hidden():
    record = dict(RECORDS[0], ground_truth=["Jetson Ai Lab", "SDK"])  # the file says TOOL
    [question] = parse_ckg_questions(json.dumps(record))
    check = check_ground_truth(question, GRAPH)
    assert check.status == "differs" and '"TOOL"' in check.detail and '"SDK"' in check.detail


def test_a_chain_of_the_same_length_that_walks_no_real_edges_is_not_a_tie():
    record = next(r for r in RECORDS if r["id"] == "nvidia-jetson_T3_1_20")
    fake = dict(record, ground_truth=["Isaac Ros", "Sbsa", "Jetpack Sdk", "Jetson Orin"])
    [question] = parse_ckg_questions(json.dumps(fake))
    assert check_ground_truth(question, GRAPH).status == "differs"


def test_records_the_file_repeats_verbatim_are_kept_and_marked():
    repeated = [q for q in QUESTIONS if dict(q.metadata).get("repeat_of")]
    assert [q.id for q in repeated] == ["nvidia-jetson_T3_1_44#2", "nvidia-jetson_T3_9_16#2",
                                        "nvidia-jetson_T3_1_13#2", "nvidia-jetson_T3_9_16#3"]
    assert dict(repeated[0].metadata)["repeat_of"] == "line 104"


@pytest.mark.parametrize("change, message", [
    ({"type": "T9_magic"}, "unknown CKG query type 'T9_magic'"),
    ({"concept_id": None}, "T1_entity needs 'concept_id'"),
    ({"ground_truth": "Jetson"}, "'ground_truth' must be a list"),
    ({"hop_depth": "deep"}, "'hop_depth' must be a whole number"),
    ({"query": ""}, "'query' is missing"),
])
def test_a_bad_record_refuses_the_whole_file_with_its_line(change, message):
    lines = [json.dumps(record) for record in RECORDS[:3]]
    lines[1] = json.dumps({**RECORDS[1], **change})
    with pytest.raises(LoadError) as raised:
        parse_ckg_questions("\n".join(lines))
    assert f"line 2: {message}" in str(raised.value) and "none of the file was used" in str(raised.value)


def test_an_id_reused_by_a_different_record_is_refused():
    lines = [json.dumps(RECORDS[0]), json.dumps({**RECORDS[1], "id": RECORDS[0]["id"]})]
    with pytest.raises(LoadError, match="line 2: id 'nvidia-jetson_T1_41' was already used on line 1"):
        parse_ckg_questions("\n".join(lines))


@pytest.mark.parametrize(("change", "message"), [
    ({"type": "T1_entity", "concept_id": 999999}, "node(s) '999999' are not in the graph"),
    ({"type": "T2_dependency", "concept_id": 999999}, "node(s) '999999' are not in the graph"),
    ({"type": "T3_path", "concept_id": 1, "path_ids": [1, 999999]}, "node(s) '999999' are not in the graph"),
    ({"type": "T4_aggregate", "taxonomy_id": "NOPE"}, "node type 'NOPE' (taxonomy) is not in the graph"),
    ({"type": "T1_entity", "concept_id": 1, "hop_depth": -2}, "'hop_depth' must be a whole number from 0"),
    ({"type": "T1_entity", "concept_id": 1, "hop_depth": 10**30}, "'hop_depth' must be a whole number from 0"),
])
def test_records_naming_what_the_graph_lacks_are_refused_against_the_graph(change, message):
    """D17: an unknown concept had gold [] and scored 100% at 512 tokens; D13, D18: hop depths out of range."""
    record = {"id": "c1", "query": "What is it?", "ground_truth": [], **change}
    with pytest.raises(LoadError, match="line 1: " + message.replace("(", "\\(").replace(")", "\\)")):
        parse_ckg_questions(json.dumps(record), graph=GRAPH)


def test_the_released_queries_all_name_what_their_graph_holds():
    assert len(load_questions(SAMPLE.queries_path, GRAPH)) == len(QUESTIONS)
