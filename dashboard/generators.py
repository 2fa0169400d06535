"""The graph generators the sidebar offers, with parameters and defaults read from their signatures."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from core.generate import learning_graph, scale_free_graph, service_graph, transport_graph
from core.graph import Graph

# core.generate has no registry of generators; these are its public ones.
GENERATORS: dict[str, Callable[..., Graph]] = {
    "services": service_graph,
    "learning": learning_graph,
    "transport": transport_graph,
    "scale_free": scale_free_graph,
}


def generator_parameters(function: Callable[..., Graph]) -> dict[str, int | float]:
    """Each numeric keyword parameter and its default, in signature order."""
    return {name: parameter.default for name, parameter in inspect.signature(function).parameters.items()
            if isinstance(parameter.default, (int, float)) and not isinstance(parameter.default, bool)}
