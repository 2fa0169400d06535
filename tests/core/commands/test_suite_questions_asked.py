"""`graph-context-lab suite` on a user's own file: a question with no answer is left out and counted in the
headline; a file of free-text questions runs, each read by the one reader of questions, as the how-to page says."""

from __future__ import annotations

import json

from core.cli import main

SMALL = ["--formats", "csv", "--orderings", "hop_tiers", "--layouts", "interleaved", "--policies", "record",
         "--budgets", "256,1024", "--workers", "1", "--no-progress"]


def written(path, *records) -> str:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return str(path)


def test_a_question_with_no_answer_is_left_out_and_counted_in_the_headline(tmp_path, capsys):
    questions = written(tmp_path / "mixed.jsonl",
                        {"question": "What are the prerequisites for Jetson Orin?", "query": "t2_prerequisites",
                         "parameters": {"concept": "1"}, "ground_truth": []},
                        {"question": "What are the prerequisites for Tensorrt?", "query": "t2_prerequisites",
                         "parameters": {"concept": "12"}})
    output = tmp_path / "results.json"
    assert main(["suite", "--graph", "nvidia-jetson", "--questions", questions, *SMALL, "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    first = printed.splitlines()[0]
    assert first.startswith("headline: the best lossless choice at each budget over the question set (1 of 2 "
                            "questions; 1 has no answer on this graph, left out; ")
    assert ("  left out: line-1: t2_prerequisites(concept=1) has no answer on this graph: its answer, [], is what a "
            "context holding nothing gives too") in printed
    assert "seeds from text: 1 questions seeded, 0 name no node" in printed
    document = json.loads(output.read_text())
    assert [row["question_id"] for row in document["left_out"]] == ["line-1"]
    assert {row["question_id"] for row in document["rows"]} == {"line-2"}
    assert {row["questions"] for row in document["aggregate"]} == {1}


def test_a_file_of_free_text_questions_runs(tmp_path, capsys):
    questions = written(tmp_path / "free.jsonl", {"id": "t2", "question": "What are the prerequisites for Tensorrt?"},
                        {"id": "t3", "question": "What is the prerequisite chain from Jetson Orin to Tensorrt?"},
                        {"id": "t4", "question": "List all SDK concepts"})
    output = tmp_path / "results.json"
    assert main(["suite", "--graph", "nvidia-jetson", "--questions", questions, *SMALL, "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    assert "over the question set (3 questions; " in printed.splitlines()[0]
    assert "read from their text alone: 3 questions" in printed
    assert '  t2: read as t2_prerequisites(concept=12 "Tensorrt"), by its wording' in printed
    templates = {row["question_id"]: row["template"] for row in json.loads(output.read_text())["questions"]}
    assert templates == {"t2": "t2_prerequisites", "t3": "t3_prerequisite_path", "t4": "t4_taxonomy_members"}


def test_a_free_text_question_the_reader_cannot_read_exits_2_naming_its_line(tmp_path, capsys):
    questions = written(tmp_path / "free.jsonl", {"question": "What is Tensorrt?"},
                        {"question": "Frobnicate the widgets"})
    assert main(["suite", "--graph", "nvidia-jetson", "--questions", questions, *SMALL]) == 2
    assert "line 2: no 'query', and the reader of questions could not read its text" in capsys.readouterr().err
