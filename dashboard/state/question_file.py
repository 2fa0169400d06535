"""The question file a reader uploaded, kept for the session so every page that works on a set can use it.

A file uploader's value lives only while its page draws it: the Question set page's upload is gone once the
reader opens the Advisor. The bytes and the name are kept here under a plain session key instead, with the graph
they were uploaded for (a question file names that graph's nodes), and read back only for the same graph.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableMapping
from dataclasses import dataclass

KEY = "uploaded_question_file"


@dataclass(frozen=True)
class UploadedQuestions:
    name: str
    data: bytes
    graph_key: str  # the content key of the graph the file was uploaded for

    @property
    def digest(self) -> str:
        """What identifies the file's content (a cache key part)."""
        return hashlib.sha256(self.data).hexdigest()


def remember(state: MutableMapping, name: str, data: bytes, graph_key: str) -> UploadedQuestions:
    """Keep this upload for the session (replacing any earlier one) and return it."""
    uploaded = UploadedQuestions(name, bytes(data), graph_key)
    state[KEY] = uploaded
    return uploaded


def remembered(state: MutableMapping, graph_key: str) -> UploadedQuestions | None:
    """The question file uploaded in this session for this graph, or None."""
    uploaded = state.get(KEY)
    return uploaded if isinstance(uploaded, UploadedQuestions) and uploaded.graph_key == graph_key else None
