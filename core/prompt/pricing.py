"""Cost from an explicit price table, applied after the fact to the token usage the provider reported."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass

from core.errors import ParameterError


@dataclass(frozen=True)
class PriceTable:
    """Prices per million tokens. Stored with every run; a run can be re-priced later with another table."""

    input_per_million: float = 0.0
    output_per_million: float = 0.0
    currency: str = "USD"
    note: str = ""  # where the prices come from and when, e.g. "provider price list, 2026-01"
    cached_input_per_million: float | None = None  # a prompt-cache read; None when the model has no cache price

    def __post_init__(self) -> None:
        names = ["input_per_million", "output_per_million"]
        if self.cached_input_per_million is not None:
            names.append("cached_input_per_million")
        for name in names:
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ParameterError(f"price {name} is {value!r}", "price table",
                                     "give a finite price of 0 or more per million tokens")

    def cost(self, prompt_tokens: int | None, completion_tokens: int | None) -> float | None:
        """input_cost + output_cost; None when the provider did not report usage (never estimated)."""
        if prompt_tokens is None or completion_tokens is None:
            return None
        return (prompt_tokens / 1_000_000 * self.input_per_million
                + completion_tokens / 1_000_000 * self.output_per_million)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PriceTable:
        return cls(**json.loads(text))


def parse_price(text: str) -> PriceTable:
    """`INPUT,OUTPUT` per million tokens, e.g. `0.15,0.60` (the CLI's --price)."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return PriceTable(float(parts[0]), float(parts[1]))
    except ValueError:
        raise ParameterError(f"price {text!r} is not two numbers", "--price",
                             "write input and output prices per million tokens as INPUT,OUTPUT, e.g. 0.15,0.60"
                             ) from None
