"""One family of errors for the whole core: each says what went wrong, where, and how to fix it."""

from __future__ import annotations


class GraphContextError(Exception):
    """Base of every error the core raises on purpose.

    The message always has three parts: *what* is wrong, *where* it was found
    (a file, line, offset, id or parameter) and *how* to fix it.
    """

    def __init__(self, what: str, where: str = "", fix: str = "") -> None:
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
