"""One family of errors for the whole core: each says what went wrong, where, and how to fix it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

LONGEST_PART = 2_000  # characters of each part (what, where, fix) of a message; beyond, it is cut with a count


def shortened(text: str, most: int = 80) -> str:
    """`text` as it is, or its first `most` characters, an ellipsis and how long it is in all."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters in all)"


def listed(items: Sequence[str] | Iterable[str], most: int = 10, *, separator: str = ", ", each: int = 80) -> str:
    """The first `most` items (each shortened to `each` characters) joined, then "… and N more"."""
    items = list(items)
    shown = separator.join(shortened(str(item), each) for item in items[:most])
    return shown + (f"… and {len(items) - most:,} more" if len(items) > most else "")


class GraphContextError(Exception):
    """Base of every error the core raises on purpose.

    The message always has three parts: *what* is wrong, *where* it was found
    (a file, line, offset, id or parameter) and *how* to fix it.
    """

    def __init__(self, what: str, where: str = "", fix: str = "") -> None:
        # A message quotes the user's text (a header, ids, a value): each part is bounded, so a file of
        # 500,000 columns gives one readable line, not 5 MB.
        what, where, fix = (shortened(part, LONGEST_PART) if isinstance(part, str) else part for part in (what, where, fix))
        self.what = what
        self.where = where
        self.fix = fix
        parts = [what]
        if where:
            parts.append(f"(at {where})")
        message = " ".join(parts)
        if fix:
            message += f". Fix: {fix}"
        super().__init__(message)


class GraphError(GraphContextError):
    """A graph is inconsistent: duplicate node ids that disagree, edges to missing nodes, bad values."""


class FormatError(GraphContextError):
    """A text could not be decoded in the format it claims to be in."""

    def __init__(self, what: str, where: str = "", fix: str = "", *, line: int | None = None,
                 offset: int | None = None) -> None:
        self.line = line
        self.offset = offset
        if not where:
            if line is not None:
                where = f"line {line}"
            elif offset is not None:
                where = f"offset {offset}"
        super().__init__(what, where, fix)


class LoadError(GraphContextError):
    """A graph file could not be imported (unsafe, malformed, too large or inconsistent).

    `primary`: when several readers were tried, the chosen or detected reader's own refusal alone (the message
    also lists the others' reasons, which help on the command line and only confuse an upload form)."""

    primary: LoadError | None = None


class LoadNotice(UserWarning):
    """A graph file was imported, but a reader skipped part of it on purpose (yEd graphics, node ports).

    Raised through `warnings.warn`, so a caller that does not look still gets the graph; the CLI prints
    each as one line on stderr and the dashboard shows it beside the upload.
    """


class UnknownNameError(GraphContextError, KeyError):
    """A registry was asked for a name it does not know."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return Exception.__str__(self)


class ParameterError(GraphContextError, ValueError):
    """A caller passed a parameter outside its allowed range."""


class EngineError(GraphContextError):
    """The machinery running a suite's tasks failed (a Ray node or raylet died), not a task's own code."""


class DecodeMismatchError(GraphContextError):
    """A cut's metrics read from its kept units differ from those of its decoded text (verify mode)."""
