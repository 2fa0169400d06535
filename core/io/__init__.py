"""Where graphs come from and go: hardened importers, size limits, exporters (one module per file format), the bundled samples and the seeded generators."""

from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.loading import IMPORTERS, Loaded, format_names, load, load_graph, load_graph_file
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.saving import export_format_names, save_graph, save_graph_files

__all__ = ["DEFAULT_LIMITS", "DEFAULT_OPTIONS", "IMPORTERS", "Limits", "LoadOptions", "Loaded",
           "export_format_names", "format_names", "load", "load_graph", "load_graph_file", "save_graph",
           "save_graph_files"]
