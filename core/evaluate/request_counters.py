"""How an evaluation counts each request's prompt tokens: with the reading model's own tokenizer and chat template.

A provider bills, and llama.cpp reports, the tokens of the whole request: the chat template around the
messages, tokenized by the model's own tokenizer. The lab stores its own count beside the reported one, so
the two must agree wherever the lab can know the model. In order, the first that applies:

1. `--encoding gguf:PATH`: the GGUF file's own chat template and tokenizer (llama.cpp's count);
2. `--model-family NAME`: a registered family's tokenizer and published chat template;
3. the endpoint's model name is the bundled model's (`serve-model`'s `smollm2-135m-instruct`): its file;
4. the endpoint's model name is a registered family's name (`gpt-4o`, `gpt-4`, `llama-3`, ...);
5. a reference reader of `serve-reader` (oracle, first-k): it counts the message text, and so does the lab;
6. otherwise the message text is counted with the run's tokenizer, and the run says that this is not
   the model's count (so its stored prompt tokens are not compared with the server's as equals).

A family without a published template (Claude, Gemini, DeepSeek) falls to 6, saying why.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import GraphContextError
from core.evaluate.model_server import BUNDLED_MODEL, bundled_model_file, request_counter
from core.evaluate.readers import READERS
from core.evaluate.run import RequestCounter
from core.tokens import MODELS, TOKENIZERS
from core.tokens.chat_wrapper import chat_template_for
from core.tokens.tokenizers.gguf_file import gguf_path, is_gguf_name


def family_counter(family: str) -> RequestCounter | None:
    """Counts a request as `family`'s models read it: its tokenizer under its chat template (None: no template)."""
    template = chat_template_for(family)
    if template is None:
        return None
    tokenizer = TOKENIZERS.get(MODELS.get(family).tokenizer)

    def count(messages: Sequence[dict]) -> int:
        return template.count_request(tokenizer, tuple((message["role"], message["content"]) for message in messages))

    return RequestCounter(f"{family} ({tokenizer.name} under its chat template {template.name})", count)


CLI_ASK = "give --model-family NAME, or --encoding gguf:PATH for a local GGUF model"


def endpoint_counter(model: str, encoding: str, family: str | None = None, *,
                     ask: str = CLI_ASK) -> tuple[RequestCounter | None, str]:
    """The counter for an endpoint serving `model` (see the module's order), and a line saying which it is (`ask`:
    how the user names the model's family where the lab does not know the model, in the words of their surface)."""
    if is_gguf_name(encoding):
        from_file = request_counter(gguf_path(encoding))
        return from_file, f"prompt tokens counted as the model reads them: {from_file.name}"
    named = family or (model if model in MODELS else None)
    if family is None and model == BUNDLED_MODEL:
        try:
            bundled = request_counter(bundled_model_file())
        except GraphContextError:  # the bundled file is not installed: the name is then some other server's
            pass
        else:
            return bundled, f"prompt tokens counted as the model reads them: {bundled.name}, the bundled model's file"
    if named is not None:
        counter = family_counter(named)
        if counter is not None:
            return counter, f"prompt tokens counted as the model reads them: {counter.name}"
        why = f"{named} publishes no chat template here"
    elif model in READERS:
        return None, f"prompt tokens counted on the message text with {encoding}, as the reference readers count them"
    else:
        why = f"the lab does not know model {model!r} ({ask})"
    return None, (f"prompt tokens counted on the message text with {encoding}, not as the model reads them: {why}; "
                  "the server's reported count is the billed one")
