"""Golden table: o200k_base token counts of every format on the reference service graph.

Any change to a rendering shows up here as a diff. After an intended change, regenerate with
`.venv/bin/python -m tests.core.formats.test_golden_tokens` and review the diff of the JSON file.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.tokens import TOKENIZERS

GOLDEN = Path(__file__).with_name("golden_tokens.json")


def measured_tokens() -> dict[str, dict[str, int]]:
    graph = service_graph()
    tokenizer = TOKENIZERS.get("o200k_base")
    table = {}
    for name in FORMATS.names():
        format_ = FORMATS.get(name)
        text = format_.render(graph, graph_units(graph)).text
        table[name] = {"tokens": tokenizer.count(text), "grammar_tokens": tokenizer.count(format_.grammar),
                       "characters": len(text)}
    return table


def test_token_counts_of_every_format_match_the_golden_table():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert measured_tokens() == golden


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(measured_tokens(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
