"""A context's text is read like any untrusted file: within the byte limit while reading, text only (no binary)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import LoadError
from core.io.context_text import context_text, read_context
from core.io.limits import LimitError, Limits

SMALL = Limits(max_bytes=1_000)


def test_a_context_within_the_limit_is_its_text(tmp_path):
    path = tmp_path / "context.txt"
    path.write_bytes("N|svc-a|service\nE|svc-a|calls|svc-b — ok\n".encode())
    assert read_context(path, SMALL) == "N|svc-a|service\nE|svc-a|calls|svc-b — ok\n"


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"x" * 5_000)
    with pytest.raises(LimitError, match="the context is too large: 5,000 bytes, the limit is 1,000 bytes") as raised:
        read_context(path, SMALL)
    assert "--max-bytes" in raised.value.fix


def test_a_file_without_an_end_is_refused_rather_than_read():
    with pytest.raises(LoadError, match="a device"):  # /dev/zero says 0 bytes and never ends
        read_context(Path("/dev/zero"), SMALL)


def test_bytes_over_the_limit_are_refused_before_decoding():
    with pytest.raises(LimitError, match="1,001 bytes"):
        context_text(b"\xff" * 1_001, "upload.txt", SMALL)  # not valid UTF-8 either: the size is said first


@pytest.mark.parametrize("data, said", [(b"N|a|service\n\x00\x01\x02\x03", "NUL character, so it is probably binary"),
                                        (b"N|a|service\n\x89PNG\r\n", "not valid UTF-8")])
def test_a_binary_file_is_refused_with_the_line_where_it_stops_being_text(data, said):
    with pytest.raises(LoadError, match=said) as raised:
        context_text(data, "context.bin", SMALL)
    assert "context.bin, line 2" in raised.value.where
