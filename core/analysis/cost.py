"""Dollars per question for each format at a budget, from a dated offline price table, with prompt caching.

Prices come from the price list `tokencost` bundles (`model_prices.json`, LiteLLM's list as packaged in
the pinned release), read as a file: nothing is fetched, and tokencost's own token counting (which
needs the network for some models) is not used. The table is dated by the newest dated model id it
holds; the package version and that date go with every figure (`PriceSource`).

The input of one question is what the model is sent: the prompt frame (`core.prompt.frame`, the
question included), the format's grammar and the context (the cut's text: preamble, records,
closing and any marker line), each counted exactly on its own, as the budget engine counts them.
With prompt caching the stable prefix — the frame's fixed instructions, the grammar and the
format's preamble (header or dictionary), laid out before the question — is billed at the model's
cached-read price, the rest at the input price. Providers cache only prefixes of at least
`MINIMUM_CACHED_PREFIX` tokens (OpenAI and Anthropic: 1,024), so a shorter prefix is billed in full.
A warm cache is assumed (cache writes are not counted). Output tokens are a given figure (0: input
cost only).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.budget.policies import Cut
from core.errors import ParameterError
from core.formats.base import Format
from core.prompt.answers import AnswerSchema
from core.prompt.frame import PromptParts, fill
from core.prompt.pricing import PriceTable
from core.tokens.protocol import Tokenizer

MINIMUM_CACHED_PREFIX = 1024
DEFAULT_MODEL = "gpt-4o-mini"
_DATED = re.compile(r"(20[2-3]\d)-?([01]\d)-?([0-3]\d)")


@dataclass(frozen=True)
class PriceSource:
    package: str
    version: str
    file: str
    newest_dated_model: str  # the table is at least this recent

    def describe(self) -> str:
        return (f"prices from {self.package} {self.version} ({self.file}, LiteLLM's list as bundled; newest dated "
                f"model in it: {self.newest_dated_model})")


@lru_cache(maxsize=1)
def _bundled() -> tuple[dict, PriceSource]:
    spec = importlib.util.find_spec("tokencost")  # located, not imported: its import pulls network clients
    if spec is None or not spec.submodule_search_locations:
        raise ParameterError("the tokencost package is not installed", "price table",
                             "install the project's requirements (requirements.lock)")
    path = Path(next(iter(spec.submodule_search_locations))) / "model_prices.json"
    data = {name: entry for name, entry in json.loads(path.read_text(encoding="utf-8")).items()
            if isinstance(entry, dict) and name != "sample_spec"}
    dates = sorted("-".join(match.groups()) for name in data for match in _DATED.finditer(name)
                   if 1 <= int(match.group(2)) <= 12 and 1 <= int(match.group(3)) <= 31)
    source = PriceSource("tokencost", importlib.metadata.version("tokencost"), "model_prices.json",
                         dates[-1] if dates else "undated")
    return data, source


def price_source() -> PriceSource:
    return _bundled()[1]


def priced_models() -> list[str]:
    """Chat models with an input and an output price, by name."""
    data, _ = _bundled()
    return sorted(name for name, entry in data.items() if entry.get("mode") == "chat"
                  and isinstance(entry.get("input_cost_per_token"), (int, float))
                  and isinstance(entry.get("output_cost_per_token"), (int, float)))


def model_prices(model: str) -> PriceTable:
    """The model's prices per million tokens, with its cached-read price when the table has one."""
    data, source = _bundled()
    entry = data.get(model)
    if entry is None or model not in priced_models():
        close = [name for name in priced_models() if model.lower() in name.lower()][:8]
        raise ParameterError(f"no price for model {model!r} in the bundled table", "model",
                             f"use one of: {', '.join(close)}" if close else "name a chat model, e.g. gpt-4o-mini")
    cached = entry.get("cache_read_input_token_cost")
    return PriceTable(entry["input_cost_per_token"] * 1_000_000, entry["output_cost_per_token"] * 1_000_000,
                      note=f"{model}: {source.describe()}",
                      cached_input_per_million=cached * 1_000_000 if isinstance(cached, (int, float)) else None)


@dataclass(frozen=True)
class QuestionCost:
    """One question's input in tokens, split into what a prompt cache can hold and the rest, and its dollars."""

    format: str
    frame_tokens: int  # the frame's text with the question, grammar and data slots empty
    question_tokens: int
    grammar_tokens: int
    preamble_tokens: int  # the format's header or dictionary, inside the context
    context_tokens: int  # the cut's text, preamble included
    output_tokens: int
    cacheable_tokens: int  # frame + grammar + preamble: the stable prefix
    cached: bool  # the stable prefix is long enough to be cached and the model has a cache price
    dollars: float  # without caching
    dollars_cached: float  # with a warm prompt cache

    @property
    def input_tokens(self) -> int:
        return self.frame_tokens + self.question_tokens + self.grammar_tokens + self.context_tokens


def question_cost(cut: Cut, format_: Format, tokenizer: Tokenizer, schema: AnswerSchema, question: str,
                  prices: PriceTable, output_tokens: int = 0) -> QuestionCost:
    """Dollars for asking `question` about this cut, with and without prompt caching."""
    if isinstance(output_tokens, bool) or not isinstance(output_tokens, int) or output_tokens < 0:
        raise ParameterError(f"output tokens {output_tokens!r}", "cost", "give 0 or more output tokens")
    frame = tokenizer.count(fill(PromptParts(schema.example_json(), "", format_.name, "", "")))
    question_tokens = tokenizer.count(question)
    grammar = tokenizer.count(format_.grammar)
    preamble = tokenizer.count(cut.rendering.preamble) if cut.rendering is not None and not cut.empty else 0
    context = cut.tokens
    cacheable = frame + grammar + preamble
    total = frame + question_tokens + grammar + context
    per_input = prices.input_per_million / 1_000_000
    output_dollars = output_tokens * prices.output_per_million / 1_000_000
    dollars = total * per_input + output_dollars
    cached_price = prices.cached_input_per_million
    cached = cached_price is not None and cacheable >= MINIMUM_CACHED_PREFIX
    dollars_cached = dollars if cached_price is None or not cached else (
        cacheable * cached_price / 1_000_000 + (total - cacheable) * per_input + output_dollars)
    return QuestionCost(format_.name, frame, question_tokens, grammar, preamble, context, output_tokens, cacheable,
                        cached, dollars, dollars_cached)
