"""The CLI's progress bar: tqdm fed with (done, total, label) counts."""

from __future__ import annotations

import io

from core.commands.progress import CountBar


def test_the_bar_shows_the_count_the_total_and_the_label():
    stream = io.StringIO()
    bar = CountBar("sweep", "cut", stream=stream)
    bar(3, 10, "jsonl/hop_tiers")
    bar(10, 10, "done")
    bar.close()
    shown = stream.getvalue()
    assert "sweep" in shown and "10/10" in shown and "done" in shown
