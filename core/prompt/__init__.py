"""The prompt: the fixed frame around a context, the answer schema a model fills, and what a request costs."""
