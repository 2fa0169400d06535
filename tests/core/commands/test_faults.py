"""The fault suite: the real commands in subprocesses, killed, interrupted, out of disk, denied and raced.

Each case ends with the previous output byte-identical or the new one complete, no traceback on stderr and the
documented exit status: 130 and one line saying what was kept for Ctrl-C (SIGINT), 2 and one line naming the
cause for a write that cannot be made, -9 for SIGKILL (nothing runs after it: the rename is what protects).
"""

from __future__ import annotations

import contextlib
import csv
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "core.cli"]
OLD = b"the results of an earlier run, which must survive\n" * 400  # 20,400 bytes
SMALL_GRAPH = ["--services", "20", "--noise-edges", "10"]
SWEEP = ["sweep", *SMALL_GRAPH, "--budgets", "100,200,400,800"]
SUITE = ["suite", *SMALL_GRAPH, "--generate", "impact:type=database", "--formats", "jsonl,csv,typed_edges",
         "--budgets", "200,400"]
STARTED_TIMEOUT = 120  # seconds for a child to show progress on a loaded 2-core machine
pytestmark = pytest.mark.timeout(600)


class Child:
    """A command started in a subprocess, its stdout and stderr in files (readable while it runs)."""

    def __init__(self, arguments: list[str], folder: Path, prefix: list[str] | None = None, **options) -> None:
        self.folder = folder
        self.stdout, self.stderr = folder / "stdout.txt", folder / "stderr.txt"
        with self.stdout.open("wb") as out, self.stderr.open("wb") as err:
            self.process = subprocess.Popen([*(prefix or []), *CLI, *arguments], cwd=folder, stdout=out, stderr=err,
                                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True,
                                            **options)

    def stop(self, how: signal.Signals) -> None:
        """The signal to the child's whole process group, worker processes included, as a terminal's Ctrl-C sends it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, how)

    def wait_for_progress(self) -> bool:
        """Until the child's progress bar shows its total (real work has started); False if it ended first."""
        deadline = time.monotonic() + STARTED_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            if "%|" in self.stderr.read_text(encoding="utf-8", errors="replace"):
                return True
            time.sleep(0.05)
        return self.process.poll() is None

    def wait_for_write(self) -> bool:
        """Until a temporary file of a write appears beside the output (the write has started), or the child ends."""
        deadline = time.monotonic() + STARTED_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            if any(path.name.endswith(".partial") for path in self.folder.iterdir()):
                return True
            time.sleep(0.001)
        return False

    def finish(self) -> tuple[int, str]:
        code = self.process.wait(timeout=STARTED_TIMEOUT)
        return code, self.stderr.read_text(encoding="utf-8", errors="replace")


def complete_csv(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines()))
    return text.endswith("\n") and len(rows) > 1 and all(len(row) == len(rows[0]) for row in rows)


def old_or_complete(path: Path, complete) -> str:
    """Which of the two allowed states the output is in (anything else fails)."""
    if path.read_bytes() == OLD:
        return "old"
    assert complete(path), f"{path} is neither the old file nor a complete new one"
    return "new"


def check_stopped(code: int, stderr: str, how: signal.Signals) -> None:
    assert "Traceback" not in stderr, stderr[-3000:]
    if how == signal.SIGKILL:
        assert code in (-signal.SIGKILL, 0), stderr[-2000:]
    else:
        assert code in (130, 0), stderr[-2000:]
        if code == 130:
            lines = [line for line in stderr.splitlines() if "interrupted" in line]
            assert len(lines) == 1 and lines[0].startswith("graph-context-lab: interrupted: "), stderr[-2000:]


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
@pytest.mark.parametrize("command, output", [(SWEEP, "r.csv"), (SUITE, "s.csv")], ids=["sweep", "suite"])
def test_a_stop_during_the_work_keeps_the_previous_output(tmp_path, command, output, how):
    target = tmp_path / output
    target.write_bytes(OLD)
    child = Child([*command, "--output", output], tmp_path)
    assert child.wait_for_progress(), child.finish()
    child.stop(how)
    code, stderr = child.finish()
    check_stopped(code, stderr, how)
    assert code != 0, "the command ended before the signal: give it more to do"
    assert old_or_complete(target, complete_csv) == "old"
    if code == 130:
        assert f"nothing was written; {output} is as it was before" in stderr


@pytest.fixture(scope="module")
def large_graph_file(tmp_path_factory) -> Path:
    """A graph whose conversion takes a moment (2,000 services): a stop can come while it is written."""
    from core.formats import FORMATS
    from core.graph.units import graph_units
    from core.io.generate import service_graph

    graph = service_graph(2000, 4000, 7)
    path = tmp_path_factory.mktemp("graph") / "large.jsonl"
    path.write_text(FORMATS.get("jsonl").render(graph, graph_units(graph)).text, encoding="utf-8")
    return path


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_stop_while_convert_writes_keeps_the_previous_file(tmp_path, large_graph_file, how):
    target = tmp_path / "out.graphml"
    target.write_bytes(OLD)
    child = Child(["convert", str(large_graph_file), target.name, "--to", "graphml"], tmp_path)
    child.wait_for_write()  # as soon as the temporary file exists (or the child ended)
    if child.process.poll() is None:
        child.stop(how)
    code, stderr = child.finish()
    check_stopped(code, stderr, how)
    state = old_or_complete(target, lambda path: path.read_text(encoding="utf-8").rstrip().endswith("</graphml>"))
    assert state == ("new" if code == 0 else "old")


DISK_LIMIT = 8192  # bytes any one file may grow to: the old output (20,400 bytes) is there, the new one cannot be


def limited_file_size() -> None:  # the child's "full disk": Python ignores SIGXFSZ, so writes fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (DISK_LIMIT, DISK_LIMIT))


@pytest.mark.parametrize("arguments, output", [
    ([*SWEEP[:-1], "200", "--formats", "csv", "--no-progress"], "r.csv"),
    ([*SUITE[:-1], "200", "--no-progress"], "s.csv"),
    ([*SUITE[:-1], "200", "--no-progress"], "s.json"),
    ([*SUITE[:-1], "200", "--no-progress"], "s.parquet"),
    (["convert", "nvidia-jetson", "--to", "graphml"], "g.graphml"),
], ids=["sweep-csv", "suite-csv", "suite-json", "suite-parquet", "convert"])
def test_a_full_disk_leaves_the_old_output_byte_identical(tmp_path, arguments, output):
    target = tmp_path / output
    target.write_bytes(OLD)
    placed = [*arguments[:2], output, *arguments[2:]] if arguments[0] == "convert" else [*arguments, "--output", output]
    code, stderr = Child(placed, tmp_path, preexec_fn=limited_file_size).finish()
    assert code == 2 and "Traceback" not in stderr, stderr[-3000:]
    assert f"{output} was not written: the file is larger than this disk or the process's file-size limit" in stderr
    assert "the file that was there is unchanged" in stderr
    assert target.read_bytes() == OLD
    assert not [path.name for path in tmp_path.iterdir() if path.name.endswith(".partial")]


def test_an_output_that_is_a_folder_is_refused_before_the_work(tmp_path):
    (tmp_path / "r.csv").mkdir()
    code, stderr = Child([*SWEEP, "--output", "r.csv"], tmp_path).finish()
    assert code == 2 and "r.csv is a folder" in stderr and "Traceback" not in stderr, stderr


def can_mount_read_only(folder: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", 'mount -o bind,ro "$0" "$0" && ! touch "$0/probe"', str(folder)],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


def test_a_read_only_folder_is_named_and_the_old_output_kept(tmp_path):
    """Root writes through any permission bits, so the folder is a read-only bind mount in a private mount namespace."""
    folder = tmp_path / "results"
    folder.mkdir()
    if not can_mount_read_only(folder):
        pytest.skip("no private mount namespace here (unshare -m and a read-only bind mount need CAP_SYS_ADMIN)")
    target = folder / "r.graphml"
    target.write_bytes(OLD)
    read_only = ["unshare", "-m", "sh", "-c", 'mount -o bind,ro "$0" "$0" && exec "$@"', str(folder)]
    code, stderr = Child(["convert", "nvidia-jetson", str(target), "--to", "graphml"], tmp_path,
                         prefix=read_only).finish()
    assert code == 2 and "Traceback" not in stderr, stderr
    assert "is mounted read-only" in stderr and "Fix: write to a folder on a writable disk" in stderr
    assert target.read_bytes() == OLD


@pytest.fixture(scope="module")
def reader_url():
    process = subprocess.Popen([*CLI, "serve-reader", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("reader server on http://127.0.0.1:"), line + process.stderr.read()
    yield line.split()[3]
    process.terminate()
    process.wait(timeout=30)


def evaluate_arguments(url: str, store: str, trials: int) -> list[str]:
    return ["evaluate", "--services", "8", "--noise-edges", "6", "--seeds", "db-identity",
            "--formats", "jsonl,csv,typed_edges", "--budgets", "60,120,240,2000", "--trials", str(trials),
            "--concurrency", "2", "--base-url", url, "--store", store]


def store_figures(path: Path) -> tuple[str, int, int]:
    with sqlite3.connect(path) as connection:
        return (connection.execute("PRAGMA integrity_check").fetchone()[0],
                connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0],
                connection.execute("SELECT COUNT(*) FROM answers WHERE failure_reason = ''").fetchone()[0])


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_stopped_evaluation_leaves_a_sound_store_that_resumes(tmp_path, reader_url, how):
    child = Child(evaluate_arguments(reader_url, "runs.sqlite", 40), tmp_path)
    assert child.wait_for_progress(), child.finish()
    time.sleep(1)  # some answers stored, most still to come (480 requests)
    child.stop(how)
    code, stderr = child.finish()
    check_stopped(code, stderr, how)
    assert code != 0, "the evaluation ended before the signal: give it more to do"
    if code == 130:
        assert "the run store keeps every answer received" in stderr
    integrity, _, answered = store_figures(tmp_path / "runs.sqlite")
    assert integrity == "ok"
    resumed = Child(evaluate_arguments(reader_url, "runs.sqlite", 40), tmp_path)
    code, stderr = resumed.finish()
    assert code == 0 and "Traceback" not in stderr, stderr[-3000:]
    integrity, runs, answered_after = store_figures(tmp_path / "runs.sqlite")
    assert integrity == "ok" and runs == 2 and answered_after >= answered


def test_two_evaluations_write_one_store_at_once(tmp_path, reader_url):
    store = tmp_path / "shared.sqlite"
    children = []
    for name in ("one", "two"):  # each in its own folder, for its own stdout and stderr files
        (tmp_path / name).mkdir()
        children.append(Child(evaluate_arguments(reader_url, str(store), 10), tmp_path / name))
    for child in children:
        code, stderr = child.finish()
        assert code == 0 and "Traceback" not in stderr and "locked" not in stderr, stderr[-3000:]
    integrity, runs, answered = store_figures(store)
    assert integrity == "ok" and runs == 2 and answered > 0
