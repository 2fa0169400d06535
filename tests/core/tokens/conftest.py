from tests.llama_server import smollm2_server  # noqa: F401 - llama.cpp with the bundled model, once per session
