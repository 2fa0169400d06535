"""The one number style of every page, table, chart, export and CLI line: how a count, a share or a rate reads.

Rules (one each, so that "4023" never sits beside "4,023", nor "0.8784" beside "88%"):
- counts and tokens are whole numbers with thousands separators (a mean of tokens too: "875", not "875.222");
- shares (evidence survival, accuracy, recall, a syntax tax) are percentages with no decimals, and one decimal
  only where the whole percent would hide the difference from 0% or 100% ("0.4%", "99.6%");
- rates per token get a unit in which they read as ordinary numbers ("0.63 per 1,000 tokens"), never
  scientific notation;
- any other figure has two decimals, thousands separated.
The same rules as d3 formats for charts (`TOKENS_D3`, `SHARE_D3`) and as pandas formatters for tables
(`column_formatters`). It sits at the top of `core`, beside errors.py, because every stage writes figures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from numbers import Real

MISSING = "—"
TOKENS_D3 = ",d"  # plotly/d3: 1,000
SHARE_D3 = ".0%"  # plotly/d3: 45%
DECIMAL_D3 = ",.2f"

SHARE_WORDS = frozenset({"survival", "accuracy", "recall", "share", "tax", "match", "gap", "position", "precision",
                         "f1", "low", "high", "hit", "rate", "complete"})
MONEY_WORDS = frozenset({"dollars", "cost", "price", "usd"})
COUNT_WORDS = frozenset({"tokens", "budget", "records", "bytes", "characters", "nodes", "edges", "units", "count",
                         "questions", "rank", "budgets", "hops", "dangling", "cached", "length", "spread", "90", "100"})
RATE_WORDS = frozenset({"rds"})
PER_THOUSAND_WORDS = frozenset({"efficiency"})


def missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def whole(value: float | None) -> str:
    """A count or a token figure: 4,023; a mean rounds to the nearest whole number (875.222 -> 875)."""
    if value is None or missing(value):
        return MISSING
    return f"{round(float(value)):,}"


def share(value: float | None) -> str:
    """A share in [0, 1] as a percentage: whole percent, one decimal where rounding would read 0% or 100%."""
    if value is None or missing(value):
        return MISSING
    percent = 100 * float(value)
    rounded = round(percent)
    if (rounded == 0 and percent != 0) or (rounded == 100 and percent != 100):
        if round(percent, 1) in (0, 100):  # still hidden at one decimal: say which side it is on
            return "<0.1%" if percent < 50 else ">99.9%"
        return f"{percent:.1f}%"
    return f"{rounded:,}%"


def decimal(value: float | None, places: int = 2) -> str:
    """Any other figure: `places` decimals, thousands separated (never scientific notation)."""
    if value is None or missing(value):
        return MISSING
    return f"{float(value):,.{places}f}"


def per_thousand(value: float | None) -> str:
    """A figure already per 1,000 tokens (the Pareto page's efficiency): two decimals."""
    return decimal(value, 2)


def per_token_rate(value: float | None) -> str:
    """A rate per token (the CKG benchmark's RDS, accuracy / tokens, ~6e-4) in a unit where it reads plainly."""
    if value is None or missing(value):
        return MISSING
    return f"{1000 * float(value):,.2f} per 1,000 tokens"


def signed_whole(value: float) -> str:
    """A difference of counts with its sign: +12, −3, 0."""
    number = round(float(value))
    return f"+{number:,}" if number > 0 else (f"−{-number:,}" if number < 0 else "0")


def signed_share(value: float | None) -> str:
    """A signed share (an estimator's error, −0.43) as `share` writes it, with its sign: +12%, −43%, 0%."""
    if value is None or missing(value):
        return MISSING
    written = share(abs(float(value)))
    if written == "0%":
        return written
    return ("+" if value > 0 else "−") + written


def money(value: float | None, currency: str = "USD") -> str:
    """A price: enough decimals that a fraction of a cent shows (0.000123 USD), no scientific notation."""
    if value is None or missing(value):
        return MISSING
    amount = float(value)
    places = 2 if abs(amount) >= 0.01 or amount == 0 else min(8, 2 - math.floor(math.log10(abs(amount))))
    return f"{amount:,.{places}f} {currency}"


def kind_of(column: str) -> str:
    """Which rule a table column follows, from the words of its name: share, count, rate, per_thousand, money or
    decimal ("evidence_survival" is a share, "budgeted_tokens" a count, "rds" a rate)."""
    words = set(re.split(r"[^a-z0-9]+", column.lower()))
    if words & RATE_WORDS:
        return "rate"
    if words & PER_THOUSAND_WORDS:
        return "per_thousand"
    if words & MONEY_WORDS:
        return "money"
    if words & {"tokens", "budget", "records", "bytes"}:
        return "count"
    if words & SHARE_WORDS:
        return "share"
    if words & COUNT_WORDS:
        return "count"
    return "decimal"


FORMATTERS: dict[str, Callable[[float | None], str]] = {
    "share": share, "count": whole, "rate": per_token_rate, "per_thousand": per_thousand, "decimal": decimal,
    "money": lambda value: money(value, "").strip()}


def format_value(column: str, value: object) -> str:
    """One cell as the style writes it: integers are counts whatever the column (a bool stays as it is)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return MISSING if missing(value) else str(value)
    kind = kind_of(column)
    if kind == "decimal" and float(value).is_integer() and not isinstance(value, float):
        return whole(float(value))
    return FORMATTERS[kind](float(value))


def column_formatters(columns: Iterable[str], numeric: Iterable[str],
                      integral: Iterable[str] = ()) -> dict[str, Callable[[object], str]]:
    """Per numeric column, the formatter the style gives it (for pandas' `Styler.format`): integer columns are
    counts; float columns follow `kind_of` their name."""
    numeric, integral = set(numeric), set(integral)
    formatters: dict[str, Callable[[object], str]] = {}
    for column in columns:
        if column not in numeric:
            continue
        rule = whole if column in integral and kind_of(str(column)) not in ("share", "rate") else \
            FORMATTERS[kind_of(str(column))]
        formatters[column] = _cell(rule)
    return formatters


def _cell(rule: Callable[[float | None], str]) -> Callable[[object], str]:
    """A table cell's formatter: missing values as a dash, any other number by `rule`."""
    def formatted(value: object) -> str:
        return MISSING if value is None or missing(value) else rule(float(value))  # type: ignore[arg-type]
    return formatted


# Text that breaks the style: 4+ digits without separators, 3+ decimals (but a small amount's leading zeros and
# three significant digits, as `money` writes 0.000164), a percentage with 2+ decimals, scientific notation. Digits inside
# identifiers (svc-0016, o200k, a hash) and ISO dates are not figures; the scan skips words holding letters.
UNFORMATTED = re.compile(r"(?<![\w.,:/#-])(\d{4,}(?:\.\d+)?|(?!0\.0+[1-9]\d{0,2}(?![\d.]))\d+\.\d{3,}|\d+\.\d{2,}%"
                         r"|\d+(?:\.\d+)?e[-+]?\d+)(?![\w,:/-])")


def unformatted_numbers(text: str) -> list[str]:
    """The figures in `text` the style would write otherwise (for tests and checks): "4023", "0.8784", "6.3e-04"."""
    return UNFORMATTED.findall(text)
