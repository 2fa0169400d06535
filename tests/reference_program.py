"""Loads the reference benchmark program from the seed document, to serve as the test oracle.

The seed document `shared/seeds/graph-serialization-benchmark.txt` (beside the checkout) contains
the single-file reference program; we execute that text as a module rather than copying it.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "graph-serialization-benchmark.txt"
_START = "#!/usr/bin/env python3"
_END = 'if __name__ == "__main__":'


def load_reference() -> types.ModuleType:
    if not SEED.exists():
        pytest.skip(f"the seed document is not beside the checkout ({SEED})")
    text = SEED.read_text(encoding="utf-8")
    source = text[text.index(_START):text.index(_END)]
    module = types.ModuleType("reference_benchmark")
    sys.modules[module.__name__] = module  # dataclasses look their module up while decorating
    exec(compile(source, str(SEED), "exec"), module.__dict__)  # trusted: the project's own spec
    return module
