"""Tokens: the Tokenizer protocol, its engines, and exact counts of every record prefix."""
