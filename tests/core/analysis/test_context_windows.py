"""What fits in a request: the model's window less the chat wrapper, the frame and the room kept for the answer."""

from __future__ import annotations

import json

from core.analysis.advisor import budget_warning
from core.analysis.context_windows import (
    DEFAULT_ANSWER_ROOM,
    WINDOW_ENTRIES,
    ContextWindow,
    RequestRoom,
    context_window,
    frame_text,
    request_room,
)
from core.analysis.cost import _bundled
from core.prompt.answers import schema_for
from core.tokens import MODELS, TOKENIZERS
from tests.llama_server import smollm2_path

QUESTION = "Which team owns svc-auth?"


def test_every_window_is_read_from_its_named_entry_in_the_dated_table():
    table = _bundled()[0]
    for model, (entry, why) in WINDOW_ENTRIES.items():
        window = context_window(model)
        assert window.window == table[entry]["max_input_tokens"] and entry in window.source and why in window.source
        assert window.reserved_output == min(DEFAULT_ANSWER_ROOM, table[entry]["max_output_tokens"])
    assert context_window("gpt-4o").window == 128_000  # OpenAI's published window for GPT-4o
    assert context_window("qwen3.6") is None  # no dated source states Qwen 3.6's window: none is invented


def test_a_gguf_file_states_its_own_window():
    window = context_window(f"gguf:{smollm2_path()}")
    assert (window.window, window.reserved_output) == (8192, 2048) and "context_length" in window.source


def test_what_fits_leaves_room_for_wrapper_frame_and_answer():
    schema = schema_for("impact", None)
    for model in MODELS.names():
        room = request_room(model, TOKENIZERS.get(MODELS.get(model).tokenizer), schema, QUESTION)
        if room is None:
            continue
        assert room.frame == TOKENIZERS.get(MODELS.get(model).tokenizer).count(frame_text(schema, QUESTION))
        assert room.fits == room.window.window - room.wrapper - room.frame - room.window.reserved_output
        assert (room.wrapper > 0) == (model not in ("claude", "gemini", "deepseek")), model
    gguf = f"gguf:{smollm2_path()}"
    room = request_room(gguf, TOKENIZERS.get(gguf), schema, QUESTION)
    assert room.fits == 8192 - room.wrapper - room.frame - 2048 and room.wrapper > 20  # SmolLM2's own system prompt


def test_the_advisor_warns_when_a_budget_leaves_no_room_for_the_answer():
    room = RequestRoom(ContextWindow("tiny", 1000, 100, 100, "a test window"), wrapper=20, frame=80)
    assert room.fits == 800 and budget_warning(800, room) is None
    warning = budget_warning(801, room)
    assert "801" in warning and "800" in warning and "tiny" in warning
    assert json.dumps(room.describe())  # a plain sentence, for reports
