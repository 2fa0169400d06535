"""Every cache has an owner (issue 45 item 4): no computation cache lives at module level in core/ or dashboard/state/.

A value derived from an object is a memo on that object (`core.graph.derived`: a graph, an accounting, a format)
or is held by the Workbench under its byte bound; a module-level cache outlives every owner and is bounded by
nothing the app controls. This walks every module with `ast` and finds, at module level or in a class body:
- a function decorated with `functools.lru_cache` / `functools.cache` (or cachetools' `cached`), or one wrapped so;
- a container only state can be: a cache or collection type (OrderedDict, LRUCache, defaultdict, weak
  dictionaries, deque, Counter, ...) or a dict, list or set built empty;
- a dict, list or set its module changes (item assignment or deletion, a mutating method, `global` rebinding).
A literal table its module never changes is a constant and passes (ideally a tuple, frozenset or MappingProxyType).
What is found must be in ALLOWED, with a one-line reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("core", "dashboard/state")

CACHE_DECORATORS = {"lru_cache", "cache", "cached"}
STATE_TYPES = {"OrderedDict", "defaultdict", "Counter", "deque", "ChainMap", "WeakKeyDictionary", "WeakValueDictionary",
               "WeakSet", "LRUCache", "LFUCache", "TTLCache", "TLRUCache", "FIFOCache", "RRCache", "Cache",
               "SizedCache", "rendering_cache"}
CONTAINER_CALLS = {"dict", "list", "set", "bytearray"}
CONTAINER_LITERALS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add", "discard",
            "sort", "reverse", "move_to_end", "appendleft", "extendleft", "difference_update",
            "intersection_update", "symmetric_difference_update"}

ALLOWED = {
    "core/analysis/cost.py::_bundled": "the bundled price table: a resource loaded once, not a computation on user data",
    "core/io/samples.py::samples": "the bundled sample catalogue: a resource loaded once, not a computation on user data",
    "core/tokens/chat_wrapper.py::_special_splitter": "a regex of a tokenizer's own special tokens, not of user data",
    "core/tokens/chat_wrapper.py::_mistral_tokenizer": "Mistral's Tekken tokenizer: a resource loaded once",
    "core/tokens/chat_wrapper.py::_compiled_template": "a bundled chat template compiled once: a resource, not user data",
    "core/tokens/tokenizers/gguf_file.py::_metadata": "a GGUF file's tokenizer metadata: a resource loaded once per file",
    "core/tokens/tokenizers/gguf_file.py::_tokenizer": "the tokenizer a GGUF file defines: a resource loaded once per file",
    "core/tokens/tokenizers/huggingface_engine.py::byte_level_alphabet": "GPT-2's byte alphabet: a constant built once",
    "core/execution/engine.py::_WORKER_SHARED": "a worker process's task and shared state, set by its pool's initializer",
    "core/analysis/sweep.py::_WORKER_PLAN": "a worker process's sweep plan, set by its pool's initializer",
    "core/execution/workers.py::_COLLECTOR_USERS": "how many callers asked for fewer collections: process settings",
    "core/execution/workers.py::_COLLECTOR_SAVED": "the collector thresholds to restore: process settings",
    "core/evaluate/store.py::_COLUMNS": "the store's columns, read once from its own schema text: a constant table",
    "core/io/whole_file.py::_WRITTEN": "the files this process wrote, for the CLI's Ctrl-C line: a log, not a cache",
}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _called(node: ast.AST) -> str | None:
    return _name(node.func) if isinstance(node, ast.Call) else None


def _mutated(tree: ast.Module) -> set[str]:
    """Names the module changes in place, or rebinds from a function."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name):
                found.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            if isinstance(node.func.value, ast.Name):
                found.add(node.func.value.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, ast.Global):
            found.update(node.names)
    return found


def module_caches(source: str) -> list[tuple[str, str]]:
    """(name, what it is) of every module-level cache or state container in the source."""
    tree = ast.parse(source)
    mutated = _mutated(tree)
    found = []
    bodies = [tree.body] + [node.body for node in tree.body if isinstance(node, ast.ClassDef)]
    for body in bodies:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                caching = sorted(CACHE_DECORATORS & {_name(decorator.func if isinstance(decorator, ast.Call)
                                                           else decorator) for decorator in node.decorator_list})
                if caching:
                    found.append((node.name, "@" + ", @".join(caching)))
                continue
            if isinstance(node, ast.Assign):
                names, value = [_name(target) for target in node.targets], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                names, value = [_name(node.target)], node.value
            else:
                continue
            for name in filter(None, names):
                what = _state(value, name in mutated)
                if what:
                    found.append((name, what))
    return found


def _state(value: ast.expr, mutated: bool) -> str | None:
    """What makes a module-level value a cache or state (None: a constant, or not a container)."""
    wrapped = [_called(node.func) for node in ast.walk(value) if isinstance(node, ast.Call)]
    if CACHE_DECORATORS & set(filter(None, wrapped + [_called(value)])):
        return "a function wrapped in a cache"
    called = _called(value)
    if called in STATE_TYPES:
        return f"a {called}"
    if not (isinstance(value, CONTAINER_LITERALS) or called in CONTAINER_CALLS):
        return None
    if isinstance(value, ast.Dict):
        empty = not value.keys
    elif isinstance(value, (ast.List, ast.Set)):
        empty = not value.elts
    else:
        empty = isinstance(value, ast.Call) and not value.args and not value.keywords
    if empty:
        return "a container built empty, to be filled"
    return "a container its module changes" if mutated else None


def found_in_project() -> dict[str, str]:
    found = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for name, what in module_caches(path.read_text(encoding="utf-8")):
                found[f"{path.relative_to(ROOT).as_posix()}::{name}"] = what
    return found


def test_no_module_holds_a_cache_outside_the_allowed_list():
    found = found_in_project()
    unowned = {key: what for key, what in found.items() if key not in ALLOWED}
    assert not unowned, ("module-level caches or state without an owner (make each a memo on the object it derives "
                         f"from, or the Workbench's; or allow it with a reason): {unowned}")
    assert not ALLOWED.keys() - found.keys(), f"allowed but gone (drop them): {sorted(ALLOWED.keys() - found.keys())}"


def test_the_walk_finds_each_kind_of_cache_and_passes_constants():
    source = '''
from collections import OrderedDict
from functools import lru_cache, cache
import functools
from cachetools import LRUCache

TABLE = {"a": 1}              # a constant table: passes
NAMES = ["x", "y"]            # passes
FILLED = {"a": 1}             # changed below: state
SEEN = []                     # built empty
LATER = dict()                # built empty
KEPT = OrderedDict()
RECENT: LRUCache = LRUCache(maxsize=4)
WRAPPED = functools.lru_cache(maxsize=2)(len)

@lru_cache(maxsize=8)
def parsed(key): return key

@functools.cache
def counted(text): return len(text)

class Holder:
    memo = {}
    @cache
    def method(self): return 1

def use(key):
    FILLED[key] = 2
'''
    assert module_caches(source) == [
        ("FILLED", "a container its module changes"), ("SEEN", "a container built empty, to be filled"),
        ("LATER", "a container built empty, to be filled"), ("KEPT", "a OrderedDict"), ("RECENT", "a LRUCache"),
        ("WRAPPED", "a function wrapped in a cache"), ("parsed", "@lru_cache"), ("counted", "@cache"),
        ("memo", "a container built empty, to be filled"), ("method", "@cache")]
