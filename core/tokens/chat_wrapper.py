"""The chat wrapper a provider bills: the tokens a model's chat template adds around the messages.

A request is more than the context: the chat template wraps every message in role headers and
special tokens (`<|im_start|>user\\n...<|im_end|>`), and may add a system block of its own. The
lab counts the whole request as the model reads it and splits it into three exact parts:

    total = wrapper + frame + context

`context` is the graph text's own count (what budgets cut), `frame` the rest of the messages' text
(instructions, question; counted on their own), and `wrapper` whatever the template adds beyond
the messages' own counts (headers, special tokens, default system prompts, the generation prompt,
and the one or two tokens that merge differently at a message's edge).

Templates counted, each from its publisher:
- a GGUF file's own `tokenizer.chat_template`, rendered with Jinja2 (sandboxed: the file is
  untrusted) as llama.cpp renders it, then tokenized with its control tokens parsed, plus the BOS
  token llama.cpp adds when the file asks for it; the tests check it equals llama.cpp's
  `prompt_tokens` for the bundled model;
- Mistral: mistral-common's own request encoding (`encode_chat_completion`, Tekken v3);
- gpt-oss: the harmony format (system block without a date, instructions as the developer
  message), checked against openai-harmony's renderer;
- Qwen: ChatML (Qwen 2.5 adds its default system prompt when none is given);
- Llama 3: Meta's header format (`<|begin_of_text|>`, headers, `<|eot_id|>`, content trimmed);
- OpenAI's chat models: the rule in OpenAI's cookbook ("How to count tokens with tiktoken"):
  3 tokens per message, plus its role, plus 3 priming the reply.

As llama.cpp and Hugging Face do, text that spells a control token inside a message is read as that
token when the whole request is counted. Claude, Gemini and DeepSeek publish no template here: no
wrapper is counted for them (`chat_template_for` says so).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from core.errors import GraphContextError
from core.tokens.protocol import Tokenizer

Message = tuple[str, str]  # (role, content)


# A request as the tokens its template adds outside any text, and the texts each encoded ordinarily (a piece
# between two special tokens, a message's content): count_request == that number + each text's own count.
Pieces = tuple[int, tuple[str, ...]]


@dataclass(frozen=True)
class ChatTemplate:
    """How one model family wraps a request, and how to count the wrapped request exactly."""

    name: str
    title: str
    source: str  # where the template is published
    count_request: Callable[[Tokenizer, Sequence[Message]], int] = field(repr=False, compare=False)
    # The same request in pieces (core.prompt.whole_request counts many contexts in one frame from them); None
    # for messages the template's pieces are not known for.
    pieces: Callable[[Tokenizer, Sequence[Message]], Pieces | None] | None = field(default=None, repr=False,
                                                                                  compare=False)


@dataclass(frozen=True)
class RequestTokens:
    """The tokens of one whole request, split: wrapper + frame + context == total."""

    template: str
    wrapper: int
    frame: int
    context: int
    total: int

    def as_row(self) -> dict:
        return {"chat template": self.template, "wrapper": self.wrapper, "frame": self.frame,
                "context": self.context, "total": self.total}


def messages_for(prompt: str, system: str = "") -> tuple[Message, ...]:
    """The request's messages: an optional system message, then the prompt as the user message."""
    return ((("system", system),) if system else ()) + (("user", prompt),)


def request_tokens(template: ChatTemplate, tokenizer: Tokenizer, prompt: str, context: str,
                   system: str = "") -> RequestTokens:
    """The whole request's tokens when `prompt` (holding `context`) is sent, after `system` if given."""
    messages = messages_for(prompt, system)
    total = template.count_request(tokenizer, messages)
    own = sum(tokenizer.count(content) for _, content in messages)
    context_tokens = tokenizer.count(context)
    return RequestTokens(template.name, total - own, own - context_tokens, context_tokens, total)


def count_with_special_tokens(tokenizer: Tokenizer, text: str, special_tokens: Sequence[str]) -> int:
    """Tokens of `text` with each special-token text read as one token, the text between encoded ordinarily."""
    specials, texts = special_pieces(text, special_tokens)
    return specials + sum(map(tokenizer.count, texts))


def special_pieces(text: str, special_tokens: Sequence[str]) -> Pieces:
    """How many special-token texts `text` holds, and the non-empty texts between them, in order."""
    if not special_tokens:
        return 0, (text,) if text else ()
    parts = _special_splitter(tuple(special_tokens)).split(text)
    return len(parts) // 2, tuple(part for part in parts[0::2] if part)


@lru_cache(maxsize=16)
def _special_splitter(special_tokens: tuple[str, ...]) -> re.Pattern:
    # Longest first, as llama.cpp matches them; one capturing group, so split() keeps the tokens at odd places.
    alternatives = "|".join(map(re.escape, sorted(set(special_tokens), key=len, reverse=True)))
    return re.compile(f"({alternatives})")


def _rendered_counter(render: Callable[[Sequence[Message]], str], special_tokens: Sequence[str],
                      leading_tokens: int = 0) -> Callable[[Tokenizer, Sequence[Message]], int]:
    def count(tokenizer: Tokenizer, messages: Sequence[Message]) -> int:
        return leading_tokens + count_with_special_tokens(tokenizer, render(messages), special_tokens)
    return count


def _rendered_pieces(render: Callable[[Sequence[Message]], str], special_tokens: Sequence[str],
                     leading_tokens: int = 0) -> Callable[[Tokenizer, Sequence[Message]], Pieces]:
    def pieces(tokenizer: Tokenizer, messages: Sequence[Message]) -> Pieces:
        specials, texts = special_pieces(render(messages), special_tokens)
        return leading_tokens + specials, texts
    return pieces


def _rendered(name: str, title: str, source: str, render: Callable[[Sequence[Message]], str],
              special_tokens: Sequence[str], leading_tokens: int = 0) -> ChatTemplate:
    """A template that renders the messages to text and reads its special-token texts as tokens."""
    return ChatTemplate(name, title, source, _rendered_counter(render, special_tokens, leading_tokens),
                        _rendered_pieces(render, special_tokens, leading_tokens))


# --- Qwen's ChatML --------------------------------------------------------------------------------------

QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


def chatml(messages: Sequence[Message], default_system: str = "") -> str:
    if default_system and (not messages or messages[0][0] != "system"):
        messages = [("system", default_system), *messages]
    return "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in messages) + \
        "<|im_start|>assistant\n"


CHATML_SPECIALS = ("<|im_start|>", "<|im_end|>", "<|endoftext|>")
QWEN25_CHAT = _rendered(
    "qwen-chatml", "Qwen 2.5 / 3 ChatML (Qwen 2.5's default system prompt when none is given)",
    "Qwen2.5-*-Instruct tokenizer_config.json chat_template",
    lambda messages: chatml(messages, QWEN25_DEFAULT_SYSTEM), CHATML_SPECIALS)
QWEN36_CHAT = _rendered(
    "qwen3.6-chatml", "Qwen 3.5 / 3.6 ChatML (no default system prompt; thinking blocks not counted)",
    "Qwen3.6 tokenizer_config.json chat_template", chatml, CHATML_SPECIALS)


# --- Llama 3 ------------------------------------------------------------------------------------------

def llama3_chat(messages: Sequence[Message]) -> str:
    body = "".join(f"<|start_header_id|>{role}<|end_header_id|>\n\n{content.strip()}<|eot_id|>"
                   for role, content in messages)
    return f"<|begin_of_text|>{body}<|start_header_id|>assistant<|end_header_id|>\n\n"


LLAMA3_CHAT = _rendered(
    "llama3-chat", "Llama 3 Instruct headers", "Meta-Llama-3-8B-Instruct tokenizer_config.json chat_template",
    llama3_chat, ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"))


# --- gpt-oss harmony -----------------------------------------------------------------------------------

HARMONY_SYSTEM = ("You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\n\n"
                  "Reasoning: medium\n\n# Valid channels: analysis, commentary, final. "
                  "Channel must be included for every message.")


def harmony_chat(messages: Sequence[Message]) -> str:
    """Harmony's system block (no date), a system message as the developer's instructions, the rest as is."""
    parts = [f"<|start|>system<|message|>{HARMONY_SYSTEM}<|end|>"]
    for role, content in messages:
        if role == "system":
            parts.append(f"<|start|>developer<|message|># Instructions\n\n{content}<|end|>")
        else:
            parts.append(f"<|start|>{role}<|message|>{content}<|end|>")
    return "".join(parts) + "<|start|>assistant"


HARMONY_CHAT = _rendered(
    "harmony", "gpt-oss harmony (default system block, instructions as developer message)",
    "openai/harmony: the harmony response format (SystemContent.new(), DeveloperContent)",
    harmony_chat, ("<|start|>", "<|message|>", "<|end|>", "<|channel|>"))


# --- OpenAI's chat API -----------------------------------------------------------------------------------

def _openai_cookbook_count(tokenizer: Tokenizer, messages: Sequence[Message]) -> int:
    return sum(3 + tokenizer.count(role) + tokenizer.count(content) for role, content in messages) + 3


def _openai_pieces(tokenizer: Tokenizer, messages: Sequence[Message]) -> Pieces:
    return 3 * len(messages) + 3, tuple(text for message in messages for text in message if text)


OPENAI_CHAT = ChatTemplate(
    "openai-chat", "OpenAI chat messages (3 per message + role, 3 priming the reply)",
    "OpenAI cookbook: How to count tokens with tiktoken (num_tokens_from_messages)", _openai_cookbook_count,
    _openai_pieces)


# --- Mistral --------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _mistral_tokenizer():
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
    return MistralTokenizer.v3(is_tekken=True)


def _mistral_count(tokenizer: Tokenizer, messages: Sequence[Message]) -> int:
    from mistral_common.protocol.instruct.messages import SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    kinds = {"system": SystemMessage, "user": UserMessage}
    request = ChatCompletionRequest(messages=[kinds[role](content=content) for role, content in messages])
    return len(_mistral_tokenizer().encode_chat_completion(request).tokens)


def _mistral_pieces(tokenizer: Tokenizer, messages: Sequence[Message]) -> Pieces | None:
    """One user message, after an optional system message: BOS, [INST], the content (the system prompt, a blank line
    and the user's text) encoded ordinarily, [/INST] (the tests check it against mistral-common's encoding)."""
    if [role for role, _ in messages] not in (["user"], ["system", "user"]):
        return None
    content = "\n\n".join(content for _, content in messages)
    return 3, (content,) if content else ()


MISTRAL_CHAT = ChatTemplate(
    "mistral-v3", "Mistral instruct v3 (Tekken): [INST] ... [/INST], system prompt before the last user message",
    "mistral-common 1.13.1: MistralTokenizer.v3(is_tekken=True).encode_chat_completion", _mistral_count,
    _mistral_pieces)


# --- A GGUF file's own template ---------------------------------------------------------------------------

CONTROL, USER_DEFINED = 3, 4  # llama_token_type values whose text llama.cpp reads as the token


def render_jinja_template(source: str, messages: Sequence[Message], bos_token: str, eos_token: str) -> str:
    """A chat template rendered as llama.cpp renders it (generation prompt on), in Jinja2's sandbox."""
    from jinja2 import TemplateError

    try:
        return _compiled_template(source).render(
            messages=[{"role": role, "content": content} for role, content in messages],
            add_generation_prompt=True, bos_token=bos_token, eos_token=eos_token)
    except TemplateError as error:
        raise GraphContextError(f"the GGUF chat template cannot be rendered: {error}", "tokenizer.chat_template",
                                "use a model whose template Jinja2 renders") from None


def _raise_exception(message: str) -> None:
    raise GraphContextError(f"the chat template refused the request: {message}", "tokenizer.chat_template",
                            "send the messages the template accepts")


@lru_cache(maxsize=8)
def _compiled_template(source: str):
    """The template compiled once: a sweep renders it for every cut, and compiling took milliseconds each time."""
    from jinja2 import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    environment = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    environment.globals.update(raise_exception=_raise_exception,
                               strftime_now=lambda pattern: datetime.now().strftime(pattern))
    try:
        return environment.from_string(source)
    except TemplateError as error:
        raise GraphContextError(f"the GGUF chat template cannot be rendered: {error}", "tokenizer.chat_template",
                                "use a model whose template Jinja2 renders") from None


def gguf_chat_template(path: str) -> ChatTemplate:
    """The chat template inside the GGUF file at `path`, counted with the file's own tokenizer."""
    from core.tokens.tokenizers.gguf_file import gguf_metadata
    metadata = gguf_metadata(path)
    if not metadata.chat_template:
        raise GraphContextError(f"{path} carries no tokenizer.chat_template", path,
                                "use a GGUF file converted with its chat template")
    specials = tuple(text for text, kind in zip(metadata.tokens, metadata.token_types)
                     if kind in (CONTROL, USER_DEFINED))
    bos, eos = metadata.token_text(metadata.bos_token_id), metadata.token_text(metadata.eos_token_id)

    def render(messages: Sequence[Message]) -> str:
        return render_jinja_template(metadata.chat_template, messages, bos, eos)

    return _rendered(f"gguf:{path}", f"{metadata.name}: the file's own chat template",
                     f"{path}: tokenizer.chat_template", render, specials, int(metadata.add_bos_token))


def gguf_request_tokens(path: str, messages: Sequence[Message]) -> int:
    """The prompt tokens llama.cpp counts for `messages` sent to the GGUF model at `path` (what it bills)."""
    from core.tokens.tokenizers.gguf_file import gguf_tokenizer
    return gguf_chat_template(path).count_request(gguf_tokenizer(path), messages)


# --- Which template a model family's requests use ----------------------------------------------------------

CHAT_TEMPLATES = {"gpt-4o": OPENAI_CHAT, "gpt-4": OPENAI_CHAT, "gpt-oss": HARMONY_CHAT, "llama-3": LLAMA3_CHAT,
                  "qwen": QWEN25_CHAT, "qwen3.6": QWEN36_CHAT, "mistral": MISTRAL_CHAT}


def chat_template_for(model: str) -> ChatTemplate | None:
    """The published chat template of a model family (or `gguf:PATH`), or None when none is published."""
    if model.startswith("gguf:"):
        return gguf_chat_template(model[len("gguf:"):])
    return CHAT_TEMPLATES.get(model)
