"""jsonl's decoder names the line of the document a broken object is on, not JSON's own line 1 of that line."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats import FORMATS


def test_a_broken_line_is_named_by_its_number_in_the_document():
    text = '{"k":"n","id":"a","t":"x"}\n\n{"k":"n","id":'
    with pytest.raises(FormatError) as raised:
        FORMATS.get("jsonl").decode(text)
    assert "(at line 3 column 15)" in str(raised.value) and "line 1" not in str(raised.value)
    assert raised.value.line == 3
