"""`generate(graph, spec)`: a seeded question set from a template spec (core.questions.generation)."""

from __future__ import annotations

from core.errors import ParameterError
from core.graph.model import Graph
from core.questions.generation import QUESTION_GENERATORS, generator_for, parse_spec
from core.questions.model import Question, QuestionSet


def generate(graph: Graph, spec: str) -> QuestionSet:
    """Questions for the spec on this graph; the same spec and graph always give the same set."""
    parsed = parse_spec(spec)
    bound = QUESTION_GENERATORS.get(generator_for(parsed.template))(graph, parsed)
    if not bound:
        raise ParameterError(f"the spec {spec!r} gives no question on this graph", f"--generate {spec}",
                             "check the node type and hop range against the graph")
    questions = tuple(Question(id=f"{parsed.template.name}-{index}", text=bound_query.question_on(graph),
                               query=bound_query, query_type=parsed.template.name, hop_depth=depth,
                               metadata=(("generated_by", parsed.text),))
                      for index, (bound_query, depth) in enumerate(bound, start=1))
    return QuestionSet(parsed.text, f"generated: {parsed.text}", questions)
