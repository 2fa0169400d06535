"""`graph-context-lab audit`: a hand-made context file audited from the command line; bad input exits 2 with a reason."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import get_sample, load_sample
from core.tokens import TOKENIZERS

GRAPH = load_sample("online-boutique")
ENCODING = TOKENIZERS.get("o200k_base").encoding


def lines_by_key() -> dict[str, str]:
    rendering = FORMATS.get("jsonl").render(GRAPH, graph_units(GRAPH))
    return {record.unit_keys[0]: record.text.strip("\n") for record in rendering.records}


@pytest.fixture
def context(tmp_path):
    """frontend written twice, cartservice's record dropped (its edge to redis-cart dangles), ghost not in the graph."""
    lines = lines_by_key()
    chosen = [lines["n:frontend"], lines["n:frontend"], lines["n:redis-cart"], '{"k":"n","id":"ghost","t":"service"}',
              lines["e:cartservice|depends_on|redis-cart"]]
    path = tmp_path / "context.jsonl"
    path.write_text("\n".join(chosen), encoding="utf-8")
    return path


def audit(*arguments: str) -> list[str]:
    return ["audit", "--graph", "online-boutique", *arguments]


def test_the_audit_prints_what_the_context_holds(context, capsys):
    assert main(audit("--context", str(context), "--format", "jsonl")) == 0
    out = capsys.readouterr().out.splitlines()
    tokens = len(ENCODING.encode_ordinary(context.read_text(encoding="utf-8")))
    assert out[0].startswith(f"context.jsonl: jsonl, {tokens:,} tokens (o200k_base), ")
    assert out[1] == "holds 3 of the graph's 31 units (10%): 2 of 13 nodes, 1 of 18 edges"
    assert out[2] == "not in the graph: 1 node record: ghost; 0 edge records"
    assert out[3] == "dangling: 1 edge whose endpoint has no node record: e:cartservice|depends_on|redis-cart"
    assert out[4].startswith("duplicates: 1 unit written more often than the graph has it, 1 extra record: "
                             "n:frontend (2 times")


def test_json_lists_everything_and_a_question_adds_its_evidence(context, capsys):
    question = get_sample("online-boutique").default_query().question_on(GRAPH)
    assert main(audit("--context", str(context), "--format", "jsonl", "--question", question, "--json",
                      "--tokenizer", "cl100k_base")) == 0
    document = json.loads(capsys.readouterr().out)
    text = context.read_text(encoding="utf-8")
    assert document["tokens"] == len(TOKENIZERS.get("cl100k_base").encoding.encode_ordinary(text))
    assert document["nodes_covered"] == ["n:frontend", "n:redis-cart"]
    assert document["nodes_not_in_graph"] == ["ghost"]
    assert document["duplicates"]["repeated"] == [{"key": "n:frontend", "written": 2, "graph_has": 1}]
    checked = document["question"]
    assert checked["reading"].startswith("read as impact(failed=cartservice")
    assert (checked["evidence_kept"], checked["evidence_total"], checked["answered"]) == (1, 6, False)


def test_a_graph_file_is_read_in_the_format_its_own_option_names(context, tmp_path, capsys):
    graph_file = tmp_path / "graph.txt"
    graph_file.write_text(FORMATS.get("typed_edges").render(GRAPH, graph_units(GRAPH)).text, encoding="utf-8")
    assert main(["audit", "--graph", str(graph_file), "--graph-format", "typed_edges", "--context", str(context),
                 "--format", "jsonl"]) == 0
    assert "holds 3 of the graph's 31 units" in capsys.readouterr().out


@pytest.mark.parametrize("change, said", [
    (["--format", "csv"], "the context is not valid csv: "),
    (["--format", "jsonl", "--max-bytes", "100"], "the context is too large: "),
    (["--format", "jsonl", "--question", "what is love"], "the question could not be read as a query"),
    (["--format", "jsonl", "--question", "If cartservice fails, which services are affected?"],
     "has no answer on this graph"),
    (["--format", "jsonl", "--question", " "], "--question is empty"),
])
def test_bad_input_exits_2_with_one_line_saying_what_where_and_how_to_fix(context, capsys, change, said):
    assert main(audit("--context", str(context), *change)) == 2
    error = capsys.readouterr().err
    assert error.startswith("graph-context-lab: error: ") and said in error and "Fix: " in error
    assert error.count("\n") == 1


def test_a_context_in_the_wrong_format_names_its_line(tmp_path, capsys):
    path = tmp_path / "context.jsonl"
    path.write_text('{"k":"n","id":"frontend","t":"service"}\n{"k":"n","id":frontend}\n', encoding="utf-8")
    assert main(audit("--context", str(path), "--format", "jsonl")) == 2
    assert "(at context.jsonl, line 2" in capsys.readouterr().err


def test_a_binary_context_is_refused(tmp_path, capsys):
    path = tmp_path / "context.bin"
    path.write_bytes(b"\x00\x01\x02" * 100)
    assert main(audit("--context", str(path), "--format", "jsonl")) == 2
    assert "probably binary" in capsys.readouterr().err


def test_the_context_and_its_format_are_required(context, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(audit("--context", str(context)))
    assert exit_.value.code == 2 and "--format" in capsys.readouterr().err
