"""Write a file whole or not at all: a temporary file beside it, flushed to disk, then renamed over it.

    write_whole(path, text)                 # str (UTF-8) or bytes
    with whole_file(path) as temporary:     # for a writer that wants a path (pandas, pyarrow)
        frame.to_parquet(temporary)

A kill, a Ctrl-C or a full disk while the data is written leaves the file that was there before exactly as it
was (or no file), never a half file: the rename (`os.replace`) is the one step that changes the target, and
SQLite-like journalling is not needed for a file written in one go. A failure removes the temporary file and
raises a `WriteError` naming the cause (disk full, permission, read-only disk, the path is a folder).

A path that exists and is not a regular file (`/dev/stdout`, a pipe) is written in place: it cannot be renamed
over, and it holds nothing to keep. A symbolic link is written through, as `Path.write_text` does.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from core.errors import GraphContextError


class WriteError(GraphContextError):
    """An output file could not be written; the file that was there before is unchanged."""


_WRITTEN: list[Path] = []  # every file this process wrote whole, in order (the CLI's Ctrl-C line names them)

_DISK_FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
_DENIED = (errno.EACCES, errno.EPERM)


def write_whole(path: str | Path, data: str | bytes) -> Path:
    """Write `data` (text is encoded as UTF-8, newlines as given) to `path` whole or not at all; the path."""
    content = data.encode("utf-8") if isinstance(data, str) else data
    with whole_file(path) as temporary, temporary.open("wb") as handle:
        handle.write(content)
    return Path(path)


@contextmanager
def whole_file(path: str | Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; when the block ends, it is synced and renamed over `path`.

    If the block raises, the temporary file is removed and `path` is untouched; an OSError becomes a WriteError.
    """
    target = _target(Path(path))
    if target.exists() and not target.is_file():  # a device or a pipe: written in place, nothing to keep
        try:
            yield target
        except OSError as error:
            raise write_error(error, target) from None
        return
    temporary = _new_temporary(target)
    try:
        yield temporary
        _sync(temporary)
        _keep_mode(target, temporary)
        os.replace(temporary, target)
    except BaseException as error:
        with suppress(OSError):
            temporary.unlink()
        if isinstance(error, OSError):
            raise write_error(error, target) from None
        raise
    _sync_folder(target.parent)
    _WRITTEN.append(target)


def files_written() -> list[Path]:
    """The files this process has written whole so far, in order."""
    return list(_WRITTEN)


def write_error(error: OSError, path: Path) -> WriteError:
    """The cause of a failed write in one sentence, with what to do; the old file is said to be unchanged."""
    code = error.errno or _errno_from_text(str(error))
    kept = "; the file that was there is unchanged" if path.is_file() else "; nothing was written"
    folder = path.parent if str(path.parent) else Path(".")
    if code in _DISK_FULL:
        cause = ("the disk is full" if code != errno.EFBIG
                 else "the file is larger than this disk or the process's file-size limit allows")
        return WriteError(f"{path} was not written: {cause}{kept}", str(folder),
                          "free space on that disk, or write to a folder on another disk")
    if code == errno.EROFS:
        return WriteError(f"{path} was not written: the disk holding {folder} is mounted read-only{kept}",
                          str(folder), "write to a folder on a writable disk")
    if code in _DENIED:
        return WriteError(f"{path} was not written: permission denied in {folder}{kept}", str(folder),
                          "write to a folder you may write to, or change its permissions")
    if code in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST) and path.is_dir():
        return WriteError(f"{path} is a folder, not a file", str(path), "give the path of a file to write")
    if code in (errno.ENOENT, errno.ENOTDIR) and not folder.is_dir():
        return WriteError(f"{path} was not written: the folder {folder} does not exist", str(folder),
                          f"create it first (mkdir -p {folder}) or write somewhere else")
    reason = error.strerror or str(error)
    return WriteError(f"{path} was not written: {reason}{kept}", str(folder), "check the path and its folder")


def _target(path: Path) -> Path:
    """The file to replace: a symbolic link's target (written through), and never a folder."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.is_dir():
        raise WriteError(f"{path} is a folder, not a file", str(path), "give the path of a file to write")
    return path


def _new_temporary(target: Path) -> Path:
    """An empty new file beside the target (same disk, so the rename is atomic), created with the usual mode."""
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.partial")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # 0o666 less the umask
            return temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise write_error(error, target) from None
    raise WriteError(f"no temporary file could be created beside {target}", str(target.parent),
                     "remove the .partial files left in that folder")


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _keep_mode(target: Path, temporary: Path) -> None:
    """A file replaced keeps its permission bits, as one written in place would."""
    with suppress(FileNotFoundError):
        os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))


def _sync_folder(folder: Path) -> None:
    """The rename itself on disk (best effort: not every file system syncs a folder)."""
    with suppress(OSError):
        descriptor = os.open(folder if str(folder) else ".", os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _errno_from_text(text: str) -> int | None:
    """Arrow's IO errors may carry the cause in their text alone."""
    lowered = text.lower()
    if "no space left" in lowered:
        return errno.ENOSPC
    if "file too large" in lowered:
        return errno.EFBIG
    if "read-only file system" in lowered:
        return errno.EROFS
    if "permission denied" in lowered:
        return errno.EACCES
    return None
