"""The Model answers page's run stores: only SQLite files in the server's own folder, by name."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.evaluate.store import DEFAULT_PATH
from dashboard.state.run_stores import store_choices, store_path


def test_the_default_store_comes_first_then_the_folders_other_stores(tmp_path):
    (tmp_path / "b.sqlite").write_bytes(b"")
    (tmp_path / "a.sqlite").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a store")
    assert store_choices(tmp_path) == (DEFAULT_PATH.name, "a.sqlite", "b.sqlite")
    assert store_path(tmp_path, "a.sqlite") == tmp_path / "a.sqlite"


@pytest.mark.parametrize("name", ["../elsewhere.sqlite", "/tmp/x.sqlite", "notes.txt", "sub/a.sqlite"])
def test_a_name_not_offered_is_refused_with_the_choices(tmp_path, name):
    with pytest.raises(ParameterError, match="pick one of"):
        store_path(tmp_path, name)
