"""Model-answer evaluation: given what survived a budget, can a model answer? (the seed's third accuracy layer).

frame (the prompt), client (any OpenAI-compatible endpoint), store (resumable SQLite run store),
scoring and statistics (pure), pricing, readers and reader_server (oracle and first-k references),
run (an evaluation over contexts). Nothing here is needed by the rest of the tool.
"""
