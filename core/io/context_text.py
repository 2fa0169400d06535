"""A context's text at the import boundary: at most the byte limit read, strict UTF-8, no NUL (binary) characters.

A context another pipeline built is untrusted like any uploaded file: the size is checked before it is read (a
file) or decoded (bytes), and a binary file is refused with the line where its first NUL byte is.

    text = read_context(Path("context.txt"), limits)    # a file (regular files only: core.io.reading)
    text = context_text(upload_bytes, "context.txt")     # bytes already in memory (an upload)
"""

from __future__ import annotations

from pathlib import Path

from core.io.limits import DEFAULT_LIMITS, LimitError, Limits
from core.io.reading import read_file
from core.io.text import decode_utf8

FIX = "audit a smaller context, or raise the limit (--max-bytes) for a file you trust"


def context_text(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The text of a context's bytes, refused before decoding when they exceed the byte limit."""
    if len(data) > limits.max_bytes:
        raise LimitError(f"the context is too large: {len(data):,} bytes, the limit is {limits.max_bytes:,} bytes",
                         name, FIX)
    return decode_utf8(data, name)


def read_context(path: Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """Thin file wrapper: never more than the limit plus one byte is read."""
    try:
        data = read_file(Path(path), limits)
    except LimitError as error:  # read_file speaks of a graph file
        raise LimitError(error.what.replace("the file is", "the context is"), error.where, FIX) from None
    return context_text(data, Path(path).name, limits)
