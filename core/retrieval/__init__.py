"""Retrieval: the seeds, their hop levels, the relevance a retriever computes and the order units are written in."""
