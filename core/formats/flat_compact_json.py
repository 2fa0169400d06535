"""flat_compact_json: `json.dumps(..., separators=(",", ":"))` of the flat records (ISONGraph's JSON Compact).

    {"nodes":[{"id":1,"type":"person","name":"Alice"}],"edges":[{"source":1,"target":2,"relation":"follows"}]}

`flat_json`'s document and records (`core.formats.flat_records`) on one line, as Python's `json.dumps`
writes it with compact separators and `ensure_ascii=True`: the ISONGraph benchmark's JSON Compact cells.
"""

from __future__ import annotations

from core.formats.base import Format
from core.formats.flat_json import GRAMMAR, Layout, decode, renderer

NAME = "flat_compact_json"

FORMAT = Format(
    name=NAME,
    title="Flat compact JSON records (ISONGraph's JSON Compact)",
    lossless=True,
    grammar=GRAMMAR.replace("One JSON object", "One JSON object on one line"),
    render=renderer(NAME, Layout(None)),
    decode=decode,
    example='{"id":1,"type":"person","name":"Alice"} and {"source":1,"target":2,"relation":"follows"}',
    interleaves=False,
)
