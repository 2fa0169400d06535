"""Which run stores the Model answers page may use: SQLite files in the server's own folder, picked from a list.

A typed path would let anyone who can reach the page make the server create or read a file anywhere it may
write; the page offers only the stores already in the folder the server runs in, and the default name there.
"""

from __future__ import annotations

from pathlib import Path

from core.errors import ParameterError
from core.evaluate.store import DEFAULT_PATH

STORE_SUFFIX = ".sqlite"


def store_choices(folder: Path) -> tuple[str, ...]:
    """The default store's name first (created by the first run), then every other `*.sqlite` file directly in
    `folder`, by name."""
    found = sorted(path.name for path in folder.glob(f"*{STORE_SUFFIX}") if path.is_file())
    return (DEFAULT_PATH.name, *(name for name in found if name != DEFAULT_PATH.name))


def store_path(folder: Path, name: str) -> Path:
    """The store `name` inside `folder`, refusing any name that is not one of `store_choices(folder)` (a path,
    `..`, another suffix)."""
    if name not in store_choices(folder):
        raise ParameterError(f"no run store named {name!r} in the server's folder", str(folder),
                             f"pick one of: {', '.join(store_choices(folder))}")
    return folder / name
