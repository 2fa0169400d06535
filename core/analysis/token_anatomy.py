"""Token anatomy: where the tokens of a context go (structure, ids, types, values, preamble, marker).

Every character of a context gets a category from the renderer's atom spans:

- `node ids`, `types and relations` (node types and relation names), `property values`: the atoms
  of those kinds, as written (escaped);
- `preamble and grammar`: the rendering's preamble, plus the format's grammar block when it is
  counted toward the budget (a separate block of the prompt, so all its tokens go here);
- `truncation marker`: the marker line after the document, with the newline that introduces it;
- `structure`: everything else: punctuation, property keys, whitespace, closings.

Rule for a token that straddles categories: each token is counted exactly once, in the category
that holds most of its UTF-8 bytes; a tie goes to the category of its first byte. So the
categories always sum to the exact token count of the text (tiktoken's `encode_ordinary`), and a
token that lies inside one multi-byte character takes that character's category.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.budget.policies import Cut, grammar_tokens
from core.formats.base import Format, Rendering
from core.tokens.protocol import Tokenizer

STRUCTURE = "structure"
NODE_IDS = "node ids"
TYPES = "types and relations"
VALUES = "property values"
PREAMBLE = "preamble and grammar"
MARKER = "truncation marker"
CATEGORIES = (STRUCTURE, NODE_IDS, TYPES, VALUES, PREAMBLE, MARKER)

ATOM_CATEGORY = {"node_id": NODE_IDS, "node_type": TYPES, "relation": TYPES,
                 "property_key": STRUCTURE, "property_value": VALUES}


@dataclass(frozen=True)
class Span:
    """Characters [start, end) of a text that belong to one category."""

    start: int
    end: int
    category: str


@dataclass(frozen=True)
class Anatomy:
    """Tokens per category of one context; `total` is the exact token count they sum to."""

    format_name: str
    tokenizer: str
    tokens: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.tokens.values())

    def share(self, category: str) -> float:
        """The category's fraction of all tokens (0 for an empty context)."""
        return self.tokens[category] / self.total if self.total else 0.0

    @property
    def syntax_tax(self) -> float:
        """The fraction of tokens that carry no graph value: structure, preamble, grammar and marker."""
        return sum(self.share(category) for category in (STRUCTURE, PREAMBLE, MARKER))


def rendering_spans(rendering: Rendering, records: int | None = None) -> list[Span]:
    """The category spans of `rendering.prefix_text(records)` (all records by default); gaps are structure."""
    spans = [Span(0, len(rendering.preamble), PREAMBLE)] if rendering.preamble else []
    offset = len(rendering.preamble)
    for record in rendering.records[:records]:
        spans.extend(Span(offset + atom.start, offset + atom.end, ATOM_CATEGORY[atom.kind])
                     for atom in record.atoms)
        offset += len(record.text)
    return spans


def text_anatomy(text: str, spans: Sequence[Span], tokenizer: Tokenizer) -> dict[str, int]:
    """Tokens of `text` per category, each token counted once by the module's straddling rule."""
    counts = dict.fromkeys(CATEGORIES, 0)
    text = tokenizer.prepare(text)  # what the tokenizer encodes: a lone surrogate is one U+FFFD; NFC for Qwen
    if not text:
        return counts
    code = {category: number for number, category in enumerate(CATEGORIES)}
    per_character = np.zeros(len(text), dtype=np.int64)  # structure unless a span says otherwise
    for span in spans:
        per_character[max(span.start, 0):min(span.end, len(text))] = code[span.category]
    widths = np.fromiter((len(character.encode("utf-8")) for character in text), dtype=np.int64, count=len(text))
    per_byte = np.repeat(per_character, widths)
    start = 0
    for piece in tokenizer.token_bytes(tokenizer.encode(text)):
        categories = per_byte[start:start + len(piece)]
        start += len(piece)
        tally = np.bincount(categories, minlength=len(CATEGORIES))
        best = tally.max()
        winner = int(categories[0]) if tally[categories[0]] == best else int(np.argmax(tally))
        counts[CATEGORIES[winner]] += 1
    return counts


def rendering_anatomy(rendering: Rendering, format_: Format, tokenizer: Tokenizer, *,
                      count_grammar: bool = True) -> Anatomy:
    """Anatomy of the complete rendering, with the grammar's tokens when it is counted."""
    counts = text_anatomy(rendering.text, rendering_spans(rendering), tokenizer)
    if count_grammar:
        counts[PREAMBLE] += grammar_tokens(format_, tokenizer)
    return Anatomy(format_.name, tokenizer.name, counts)


def cut_anatomy(result: Cut, format_: Format, tokenizer: Tokenizer) -> Anatomy:
    """Anatomy of what a cut sends: its document, its marker line, and the grammar when counted.

    The total equals `result.budgeted_tokens`. A raw cut is a prefix of the complete text, so the
    complete text's spans apply to it (a character split by the cut becomes U+FFFD, as structure
    unless a span covers it).
    """
    counts = dict.fromkeys(CATEGORIES, 0)
    if result.rendering is not None and result.text:
        spans = rendering_spans(result.rendering, result.records_kept if result.policy == "record" else None)
        if result.marker:
            start = len(result.document)
            spans.append(Span(start, start + 1 + len(result.marker), MARKER))
        counts = text_anatomy(result.text, spans, tokenizer)
    if result.count_grammar:
        counts[PREAMBLE] += result.grammar_tokens
    return Anatomy(format_.name, tokenizer.name, counts)


def anatomy_table(anatomies: Sequence[Anatomy]) -> list[dict]:
    """One row per format: tokens per category, the total and the syntax tax (for a table or a chart)."""
    return [{"format": anatomy.format_name, **anatomy.tokens, "total": anatomy.total,
             "syntax tax": anatomy.syntax_tax} for anatomy in anatomies]

