"""Every format's anatomy, one format at a time, with progress a page can show."""

from core.analysis.format_anatomies import format_anatomies
from core.io.samples import get_sample
from core.retrieval.seeds import Seeds


def test_progress_names_each_format_before_reading_it_and_ends_at_the_whole():
    sample = get_sample("nvidia-jetson")
    heard = []
    found = format_anatomies(sample.load(), sample.default_query(), Seeds(tuple(sample.seeds)),
                             formats=["csv", "yaml", "toon"], ordering="canonical", layout="nodes_then_edges",
                             tokenizer="o200k_base", progress=lambda done, total, name: heard.append((done, total, name)))
    assert [anatomy.format_name for anatomy in found] == ["csv", "yaml", "toon"]
    assert heard == [(0, 3, "csv"), (1, 3, "yaml"), (2, 3, "toon"), (3, 3, "")]
