"""The whole request's tokens for many contexts in one frame, from each context's own exact count.

Token anatomy's "The whole request" (`core.analysis.request_anatomy`) renders the model's chat template
around the filled answer frame and counts it: exact, and one encode of the whole request. A sweep asks it of
every cut, where an encode each would cost more than the sweep. The graph data is the frame's last slot, so
a request is

    tokens outside any text + the other texts' counts + count(X + data + Y)

where the template's pieces (`ChatTemplate.pieces`: the texts between special tokens, or a message's
content) are fixed but for the one holding the data: X before it (a role line and the frame, ending in
"GRAPH_DATA:\\n"), Y after it (mostly nothing: a special token ends the message). The fixed part is counted
once per frame. count(X + data + Y) is the data's own count corrected at its two edges, exactly: where
the tokenizer must start a new pre-token (`Tokenizer.forced_boundaries`: e.g. a line feed before `{`),
no token crosses, so

    count(X + data + Y) = count(X + data[:b]) - count(data[:b]) + count(data) - count(data[e:]) + count(data[e:] + Y)

with b the first such boundary at or after the data's start (0 when X and the data are forced apart) and
e the last one at or before its end. Only those short edges are encoded, each distinct head once.

Every count is checked to be of the request the template really renders: the data's pieces are rendered
with the real text and compared with X + data + Y, so a template that strips the content (Llama 3) or a
context that spells a special token is counted whole instead (`counted_whole`), never assumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.prompt.answers import AnswerSchema
from core.prompt.frame import PromptParts, fill
from core.tokens.chat_wrapper import ChatTemplate, Message, messages_for
from core.tokens.protocol import Tokenizer

SLOT = "\u2063graph-context-lab-data\u2063"  # stands for the data while the template's pieces are found
EDGE_SEARCH = (256, 4096, 65536)  # characters searched for a forced boundary at each edge, widening
HEADS_KEPT = 256  # distinct data heads whose edge correction is remembered


def frame_head(schema: AnswerSchema, question: str, format_name: str, grammar: str) -> str:
    """The prompt up to its data slot (`core.prompt.frame.build_prompt` with no data)."""
    return fill(PromptParts(schema.example_json(), question, format_name, grammar, ""))


@dataclass(eq=False)
class WholeRequest:
    """The request of `template` whose prompt is `head` + data, counted for any data from the data's own count."""

    template: ChatTemplate
    tokenizer: Tokenizer
    head: str
    system: str = ""
    counted_whole: int = 0  # requests counted by an encode of the whole request (the check failed or no edge found)
    # (tokens outside any text, their count with the other texts', index of the data's piece, X, Y, the pieces)
    _layout: tuple | None = field(default=None, repr=False)
    _heads: dict = field(default_factory=dict, repr=False)  # data[:b] -> count(X + data[:b]) - count(data[:b])
    _pairs: dict = field(default_factory=dict, repr=False)  # (left, right) character -> forced apart

    def __post_init__(self) -> None:
        pieces = self.template.pieces(self.tokenizer, self._messages(SLOT)) if self.template.pieces else None
        holding = [index for index, text in enumerate(pieces[1]) if SLOT in text] if pieces else []
        if pieces is None or len(holding) != 1 or pieces[1][holding[0]].count(SLOT) != 1:
            return  # counted whole every time
        index = holding[0]
        before, after = pieces[1][index].split(SLOT)
        fixed = pieces[0] + sum(self.tokenizer.count(text) for number, text in enumerate(pieces[1]) if number != index)
        self._layout = (pieces[0], fixed, index, before, after, pieces[1])

    def _messages(self, data: str) -> tuple[Message, ...]:
        return messages_for(self.head + data, self.system)

    def whole(self, data: str) -> int:
        """The request's tokens by one encode of the whole request (what Token anatomy counts)."""
        return self.template.count_request(self.tokenizer, self._messages(data))

    def tokens(self, data: str, data_tokens: int) -> int:
        """Exact tokens of the whole request holding `data`, whose own count is `data_tokens`."""
        counted = self._from_edges(data, data_tokens)
        if counted is None:
            self.counted_whole += 1
            return self.whole(data)
        return counted

    def _from_edges(self, data: str, data_tokens: int) -> int | None:
        if self._layout is None:
            return None
        outside, fixed, index, before, after, expected = self._layout
        rendered = self.template.pieces(self.tokenizer, self._messages(data)) if self.template.pieces else None
        if rendered is None or rendered[0] != outside or len(rendered[1]) != len(expected):
            return None
        piece = rendered[1][index]
        if len(piece) != len(before) + len(data) + len(after) or not piece.startswith(before) \
                or not piece.endswith(after) or not piece.startswith(data, len(before)):  # compared in place
            return None  # the template changed the data (stripped it) or the data spells a special token
        if any(text != want for number, (text, want) in enumerate(zip(rendered[1], expected)) if number != index):
            return None
        if not data:
            return fixed + self.tokenizer.count(before + after)
        start = self._start(before, data)
        end = self._end(data, after)
        if start is None or end is None or start[0] > end[0]:
            return None
        return fixed + start[1] + data_tokens + end[1]

    def _start(self, before: str, data: str) -> tuple[int, int] | None:
        """(b, count(X + data[:b]) - count(data[:b])): the first forced boundary of X + data at or after the data."""
        if not before:
            return 0, 0
        if self._forced_between(before[-1], data[0]):
            return 0, self._count_before(before)
        for width in EDGE_SEARCH:
            window = _utf8(data[:width])
            found = self.tokenizer.forced_boundaries(window)
            if len(found):
                cut = len(_text(window[:int(found[0])]))
                head = data[:cut]
                known = self._heads.get(head)
                if known is None:
                    if len(self._heads) >= HEADS_KEPT:
                        self._heads.clear()
                    known = self._heads[head] = self.tokenizer.count(before + head) - self.tokenizer.count(head)
                return cut, known
            if width >= len(data):
                break
        return None

    def _end(self, data: str, after: str) -> tuple[int, int] | None:
        """(e, count(data[e:] + Y) - count(data[e:])): the last forced boundary of data + Y at or before its end."""
        if not after:
            return len(data), 0
        if self._forced_between(data[-1], after[0]):
            return len(data), self.tokenizer.count(after)
        for width in EDGE_SEARCH:
            start = max(len(data) - width, 0)
            window = _utf8(data[start:])
            found = self.tokenizer.forced_boundaries(window)
            if len(found):
                cut = start + len(_text(window[:int(found[-1])]))
                tail = data[cut:]
                return cut, self.tokenizer.count(tail + after) - self.tokenizer.count(tail)
            if start == 0:
                break
        return None

    def _count_before(self, before: str) -> int:
        known = self._heads.get(("", before))
        if known is None:
            known = self._heads[("", before)] = self.tokenizer.count(before)
        return known

    def _forced_between(self, left: str, right: str) -> bool:
        """Whether the tokenizer must start a new pre-token between these two characters, whatever surrounds them."""
        known = self._pairs.get((left, right))
        if known is None:
            left_bytes = _utf8(left)
            found = self.tokenizer.forced_boundaries(left_bytes + _utf8(right))
            known = self._pairs[left, right] = len(left_bytes) in found.tolist()
        return known


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate (a label's) keeps its place; boundaries are ASCII


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")
