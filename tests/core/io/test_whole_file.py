"""Files written whole or not at all: the old file survives a failure, the cause is named, nothing is left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from core.errors import GraphContextError
from core.io.whole_file import WriteError, files_written, whole_file, write_whole


def leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".partial"))


def test_text_and_bytes_are_written_and_replace_the_old_file(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    write_whole(target, "a,b\r\n1,é\n")
    assert target.read_bytes() == "a,b\r\n1,é\n".encode()  # as given: no newline translation
    write_whole(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01" and leftovers(tmp_path) == []
    assert files_written()[-1] == target


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_usual_mode(tmp_path):
    kept = tmp_path / "kept.json"
    kept.write_text("{}")
    kept.chmod(0o640)
    write_whole(kept, "[]")
    assert kept.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.json"
    write_whole(fresh, "[]")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_failure_while_writing_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "rows.parquet"
    target.write_bytes(b"the old rows")
    with pytest.raises(RuntimeError), whole_file(target) as temporary:
        temporary.write_bytes(b"half")
        raise RuntimeError("the writer failed")
    assert target.read_bytes() == b"the old rows" and leftovers(tmp_path) == []


def test_an_interrupt_while_writing_leaves_the_old_file(tmp_path):
    target = tmp_path / "s.csv"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), whole_file(target) as temporary:
        temporary.write_text("new, but not all of it")
        raise KeyboardInterrupt
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_writer_that_wants_a_path_writes_through_the_temporary(tmp_path):
    import pandas as pd

    target = tmp_path / "rows.parquet"
    with whole_file(target) as temporary:
        pd.DataFrame({"a": [1, 2]}).to_parquet(temporary, index=False)
    assert pd.read_parquet(target)["a"].tolist() == [1, 2] and leftovers(tmp_path) == []


def test_a_folder_and_a_missing_folder_are_named(tmp_path):
    with pytest.raises(WriteError, match="is a folder, not a file") as error:
        write_whole(tmp_path, "x")
    assert isinstance(error.value, GraphContextError) and error.value.fix
    with pytest.raises(WriteError, match="does not exist"):
        write_whole(tmp_path / "missing" / "out.json", "x")


def test_a_symbolic_link_is_written_through_and_a_device_in_place(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_whole(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    write_whole("/dev/null", "nothing")  # not renamed over: /dev/null stays a device
    assert not os.path.isfile("/dev/null")


def test_a_full_disk_leaves_the_old_file_byte_identical_and_says_so(tmp_path):
    """RLIMIT_FSIZE in a child: Python ignores SIGXFSZ, so a write past the limit fails with EFBIG, a full disk."""
    target = tmp_path / "r.csv"
    old = b"x" * 20_000
    target.write_bytes(old)
    program = textwrap.dedent(f"""
        import resource, sys
        from core.io.whole_file import WriteError, write_whole
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        try:
            write_whole({str(target)!r}, "y" * 30_000)
        except WriteError as error:
            print(error)
            sys.exit(3)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "larger than this disk or the process's file-size limit" in done.stdout
    assert "the file that was there is unchanged" in done.stdout and "Fix: free space" in done.stdout
    assert target.read_bytes() == old and leftovers(tmp_path) == []


@pytest.mark.parametrize("code, words", [(28, "the disk is full"), (27, "file-size limit"),
                                         (30, "mounted read-only"), (13, "permission denied")])
def test_each_cause_is_named(tmp_path, code, words):
    from core.io.whole_file import write_error

    message = str(write_error(OSError(code, os.strerror(code)), tmp_path / "out.csv"))
    assert words in message and "Fix:" in message
