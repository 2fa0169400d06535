"""The CLI's progress bars: tqdm on stderr, which bounds its redraw rate and fits the terminal's width."""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm


class CountBar:
    """A `progress(done, total, label)` callback that draws one bar; `close()` it when the work ends."""

    def __init__(self, description: str, unit: str, stream: TextIO | None = None) -> None:
        # stderr as it is now, not as it was at import (a test or a caller may have replaced it)
        self._bar = tqdm(total=0, desc=description, unit=unit, file=stream or sys.stderr)

    def __call__(self, done: int, total: int, label: str = "") -> None:
        self._bar.total = total
        if label:
            self._bar.set_postfix_str(label[:60], refresh=False)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()
