"""The chart of what a prompt cache keeps after an edit: cached-prefix share per format, one box per ordering."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dashboard.views.charts import ordering_label, share_axis


def prefix_stability_chart(samples: pd.DataFrame, tokenizer: str, edits: int) -> go.Figure:
    """`PrefixStability.samples()` (one row per rendering and edit) as boxes: per format, one box per ordering over
    the edits, its mean dashed (a box shows the spread the mean alone hides: one edit near the top keeps ~0%)."""
    frame = samples.assign(ordering=[ordering_label(name) for name in samples["ordering"]])
    figure = px.box(frame, x="format", y="cached share", color="ordering", custom_data=["kind", "edit"],
                    title=f"Share of each rendering's tokens a prompt cache keeps after one edit ({tokenizer}, "
                          f"{edits:,} edits)")
    figure.update_traces(boxmean=True, hovertemplate="%{x} · %{fullData.name}: %{y:.0%} cached after edit "
                                                     "%{customdata[1]} (%{customdata[0]})<extra></extra>")
    share_axis(figure, "cached prefix (share of the tokens)")
    figure.update_layout(xaxis_title=None, legend_title="ordering", boxmode="group")
    return figure
