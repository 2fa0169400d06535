"""The name of an XML document's root element, found by skipping its prologue with a loop, never a regex.

The prologue (an XML declaration, comments, processing instructions, a DOCTYPE, white space) is
skipped piece by piece with `bytes.find`, so the cost is linear in what is skipped, whatever the
file holds: a head of a thousand comments, an unterminated comment, or a repeated prefix. A regular
expression with a quantifier over `<!--.*?-->` backtracked exponentially on such heads (a 213 KB
GraphML with a 47-line comment block hung format detection for minutes, and a dashboard upload froze
the server). A DOCTYPE is skipped to its first `>` (an internal subset is refused later by the XML
check, which forbids DTDs).
"""

from __future__ import annotations

import re

_WHITE_SPACE = b" \t\r\n"
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
# Ends of the prologue's pieces: comment, processing instruction (the declaration is one), DOCTYPE.
_PIECES = ((b"<!--", b"-->"), (b"<?", b"?>"), (b"<!DOCTYPE", b">"), (b"<!doctype", b">"))
# A root tag's name right after "<": one name (optionally prefixed), anchored with `match`.
# Safe: no nested or adjacent overlapping quantifiers; `[\w.-]++` is possessive, so it never gives back.
_NAME = re.compile(rb"(?:[\w.-]++:)?+([\w.-]++)")


def root_name(data: bytes, *, most: int = 1 << 20) -> str | None:
    """The local name of the root element (`gexf`, `graphml`, ...), or None when the text does not start
    with XML, or its prologue is unterminated or runs past `most` bytes."""
    position = _skip_white_space(data, len(_BYTE_ORDER_MARK) if data.startswith(_BYTE_ORDER_MARK) else 0)
    while position < min(len(data), most):
        if not data.startswith(b"<", position):
            return None
        for start, end in _PIECES:
            if data.startswith(start, position):
                closing = data.find(end, position + len(start))
                if closing < 0:
                    return None  # unterminated: not a document this reader could place
                position = _skip_white_space(data, closing + len(end))
                break
        else:
            found = _NAME.match(data, position + 1)
            return found.group(1).decode("ascii", errors="replace") if found else None
    return None


def _skip_white_space(data: bytes, position: int) -> int:
    while position < len(data) and data[position] in _WHITE_SPACE:
        position += 1
    return position
