"""Bytes to text at the import boundary: strict UTF-8 (a BOM is accepted), no NUL characters."""

from __future__ import annotations

from core.errors import LoadError

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def line_of(text: str | bytes, offset: int) -> int:
    """1-based line number of a character (or byte) offset."""
    newline = b"\n" if isinstance(text, bytes) else "\n"
    return text.count(newline, 0, offset) + 1  # type: ignore[arg-type]


def decode_utf8(data: bytes, source: str, *, allow_nul: bool = False) -> str:
    """The file's text; invalid UTF-8 (and, unless allowed, NUL characters) refused with the line where they are."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise LoadError(f"expected the file's bytes, got {type(data).__name__}", source,
                        "pass the raw bytes of the file")
    data = bytes(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        hint = " (it starts with a UTF-16 byte order mark)" if data.startswith(_UTF16_BOMS) else ""
        raise LoadError(f"the file is not valid UTF-8{hint}: byte 0x{data[error.start]:02x} cannot be decoded",
                        f"{source}, line {line_of(data, error.start)}, byte offset {error.start}",
                        "save the file as UTF-8") from None
    nul = -1 if allow_nul else text.find("\0")
    if nul >= 0:
        raise LoadError("the file holds a NUL character, so it is probably binary, not text",
                        f"{source}, line {line_of(text, nul)}",
                        "remove the NUL bytes, or export the graph again as a text format")
    return text
