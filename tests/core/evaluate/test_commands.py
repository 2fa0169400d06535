"""The evaluation's command line: `serve-reader` on a free loopback port and `evaluate` against it."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def start_reader(*arguments: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "core.cli", "serve-reader", "--port", "0", *arguments],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("reader server on http://127.0.0.1:"), line + process.stderr.read()
    return process, line.split()[3]


@pytest.fixture
def reader_process():
    process, url = start_reader()
    yield url
    process.terminate()
    process.wait(timeout=10)


def test_serve_reader_listens_on_loopback_and_lists_its_models(reader_process):
    assert reader_process.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(reader_process + "/models", timeout=5) as response:
        models = [model["id"] for model in json.load(response)["data"]]
    assert models == ["oracle", "first-k"]
