"""Reading a graph file's bytes under the size limit: regular files only, never more than the limit plus one byte."""

from __future__ import annotations

import stat
from pathlib import Path

from core.errors import LoadError
from core.io.limits import LimitError, Limits


def read_file(path: Path, limits: Limits) -> bytes:
    """At most max_bytes + 1 bytes of a regular file: a device or FIFO has no size to check first
    (`/dev/zero` reports 0 bytes and never ends; opening a FIFO waits for a writer), so they are refused."""
    try:
        status = path.stat()
        mode = status.st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
            raise LoadError(f"the path is {kind}, not a graph file", str(path),
                            "give the path of a regular file (save a stream to a file first)")
        limits.check_bytes(status.st_size, path.name)  # the exact size, before reading anything
        with path.open("rb") as file:
            data = file.read(limits.max_bytes + 1)
    except OSError as error:
        raise LoadError(f"the file cannot be read: {error.strerror or error}", str(path),
                        "check the path and the file's permissions") from None
    if len(data) > limits.max_bytes:  # only max_bytes + 1 were read: the true size is unknown and larger
        raise LimitError(f"the file is too large: more than {limits.max_bytes:,} bytes, the limit", path.name,
                         "load a smaller graph, or raise the limit (--max-bytes)")
    return data
