"""Question sets: a benchmark of questions (a CKG query file, the project's own JSONL/CSV, or generated).

`load_questions(path)` reads any of the files; `generate(graph, spec)` builds a seeded set from a
template; `question_seeds(...)` gives each question's seeds from its text and from its annotations;
`answered_split(graph, set)` leaves out (and counts) the questions whose answer on the graph is empty.
"""

from __future__ import annotations

from core.questions.answered import AnsweredSplit, LeftOut, answered_split, counted_questions
from core.questions.ckg import load_ckg_questions, parse_ckg_questions
from core.questions.generate import generate
from core.questions.ground_truth import GroundTruthCheck, check_ground_truth
from core.questions.model import Question, QuestionSet
from core.questions.own_schema import (
                                       load_questions,
                                       parse_question_file,
                                       parse_questions_csv,
                                       parse_questions_jsonl,
                                       questions_csv,
                                       questions_jsonl,
)
from core.questions.seeding import SEEDINGS, QuestionSeeds, question_seeds

__all__ = [
                                       "SEEDINGS",
                                       "AnsweredSplit",
                                       "GroundTruthCheck",
                                       "LeftOut",
                                       "Question",
                                       "QuestionSeeds",
                                       "QuestionSet",
                                       "answered_split",
                                       "check_ground_truth",
                                       "counted_questions",
                                       "generate",
                                       "load_ckg_questions",
                                       "load_questions",
                                       "parse_ckg_questions",
                                       "parse_question_file",
                                       "parse_questions_csv",
                                       "parse_questions_jsonl",
                                       "question_seeds",
                                       "questions_csv",
                                       "questions_jsonl",
]
