"""Names in the RDF formats (turtle, ntriples, jsonld): node IRIs from ids, and the vocabulary of types, relations and keys.

Every IRI is escape-free: no `%XX`, no backslash. The readable text of a node is its `rdfs:label` literal;
its IRI only has to be stable (a function of its id alone, so every record and every cut names the node
the same way) and to give the id back by itself (an edge whose endpoint's record was cut still names it).

A node id made of name characters (ASCII letters, digits, `_`, `-` not first, and the non-ASCII
letters Turtle's PN_CHARS_BASE allows) is its own local name: `n:svc-auth`, `n:8`, `n:日本`. Any other id
is written as its name characters, a space shown as `_`, then `:` and a code saying which other
characters go where (RFC 3492's Bootstring, Punycode's algorithm, over that set of basic characters):
`Washington, D.C.` -> `n:Washington_DC:` + code, `largest city` -> `n:largest_city:`. Only such
names hold a `:`, which Turtle allows anywhere in a local name; decoding checks that the name is the
one this module writes for the id it decodes to.

Types, relations and property keys are few and shared by many records, so each keeps a readable local
name: its own name when that is made of name characters, else a slug of it (`largest city` ->
`r:largest_city`, numbered `_2`, `_3` where two would meet), declared once in the document's header
with its exact name as an `rdfs:label` literal (`r:largest_city rdfs:label "largest city" .`). The
declarations depend on the graph alone, so every prefix of a rendering has the same header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.errors import FormatError
from core.graph.derived import derived
from core.graph.model import Graph

# IRIs are names in the text, never fetched.
BASE = "http://example.org/"
NAMESPACES = {"n": BASE + "node/", "t": BASE + "type/", "r": BASE + "relation/", "p": BASE + "property/"}
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
RDFS_LABEL = RDFS + "label"
VOCABULARY_PREFIXES = ("t", "r", "p")  # types, relations, property keys

# Turtle's PN_CHARS_BASE beyond ASCII: these may stand anywhere in a local name.
_NAME_RANGES = ((0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x2FF), (0x370, 0x37D), (0x37F, 0x1FFF), (0x200C, 0x200D),
                (0x2070, 0x218F), (0x2C00, 0x2FEF), (0x3001, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFFD),
                (0x10000, 0xEFFFF))
# ASCII letters, digits and `_`, then also `-`: most names, checked at once. Safe: one class to the end.
_PLAIN_ASCII = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*\Z")
_DELIMITER = ":"
_DIGITS = "abcdefghijklmnopqrstuvwxyz0123456789"
# Bootstring's parameters (RFC 3492 section 5), with every code point above 0 allowed to be inserted.
_BASE, _TMIN, _TMAX, _SKEW, _DAMP, _INITIAL_BIAS = 36, 1, 26, 38, 700, 72
_MAX_CODE = 0x10FFFF


def name_char(char: str) -> bool:
    """A character a local name may hold anywhere but first (`-`) or anywhere (the rest)."""
    if char.isascii():
        return char.isalnum() or char in "_-"
    code = ord(char)
    return any(low <= code <= high for low, high in _NAME_RANGES)


def is_plain(name: str) -> bool:
    """Whether a name is its own local name: name characters only, not starting with `-` (or empty)."""
    if not name or _PLAIN_ASCII.match(name):
        return True
    return name[0] != "-" and all(map(name_char, name))


# ---------------------------------------------------------------------------------------------- node ids

def _threshold(k: int, bias: int) -> int:
    return _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias


def _adapt(delta: int, points: int, first: bool) -> int:
    delta = delta // _DAMP if first else delta // 2
    delta += delta // points
    k = 0
    while delta > ((_BASE - _TMIN) * _TMAX) // 2:
        delta //= _BASE - _TMIN
        k += _BASE
    return k + (_BASE - _TMIN + 1) * delta // (delta + _SKEW)


def _swapped(text: str) -> str:
    """Space and `_` trade places: a space is then written as a readable `_`, and a real `_` is coded."""
    return text.translate(_SWAP)


_SWAP = str.maketrans({" ": "_", "_": " "})


def _basic_flags(text: str) -> list[bool]:
    """Which characters are copied as they are: name characters, a `-` only after one (a name cannot start with it)."""
    flags, started = [], False
    for char in text:
        basic = name_char(char) and (started or char != "-")
        started = started or basic
        flags.append(basic)
    return flags


class _Counts:
    """A Fenwick tree over positions: how many marked positions lie before one, in log time (ids may be long)."""

    def __init__(self, size: int, marked: bool = False) -> None:
        # every position marked: each node holds the size of the range it covers, its lowest set bit
        self.tree = [index & -index for index in range(size + 1)] if marked else [0] * (size + 1)

    def mark(self, position: int, amount: int = 1) -> None:
        position += 1
        while position < len(self.tree):
            self.tree[position] += amount
            position += position & -position

    def before(self, position: int) -> int:
        total = 0
        while position > 0:
            total += self.tree[position]
            position -= position & -position
        return total

    def find(self, rank: int) -> int:
        """The position of the marked position with `rank` marked ones before it."""
        position, step = 0, 1 << (len(self.tree) - 1).bit_length()
        while step:
            if position + step < len(self.tree) and self.tree[position + step] <= rank:
                position += step
                rank -= self.tree[position]
            step >>= 1
        return position


def _digits(q: int, bias: int, out: list[str]) -> None:
    """One generalized variable-length integer (RFC 3492 section 3.3)."""
    k = _BASE
    while True:
        t = _threshold(k, bias)
        if q < t:
            break
        out.append(_DIGITS[t + (q - t) % (_BASE - t)])
        q, k = (q - t) // (_BASE - t), k + _BASE
    out.append(_DIGITS[q])


def _code(codes: list[int], basic: list[bool]) -> str:
    """Bootstring's deltas for the characters not copied (RFC 3492 section 6.3 with any set of basic characters).

    Each delta is what the decoder adds to (code point x (length + 1) + index) to reach the next insertion;
    the insertions are taken in (code point, position) order, and the index of each (how many characters
    already there stand before it) is counted in a Fenwick tree, so that a long id costs n log n, not n^2.
    """
    present = _Counts(len(codes))
    for position, flag in enumerate(basic):
        if flag:
            present.mark(position)
    length = sum(basic)
    out: list[str] = []
    n, index, bias, first = 0, 0, _INITIAL_BIAS, True
    for code, position in sorted((code, position) for position, (code, flag) in enumerate(zip(codes, basic))
                                 if not flag):
        at = present.before(position)
        delta = (code - n) * (length + 1) + at - index
        _digits(delta, bias, out)
        bias, first = _adapt(delta, length + 1, first), False
        present.mark(position)
        n, index, length = code, at + 1, length + 1
    return "".join(out)


def node_local(node_id: str) -> str:
    """`svc-api` stays; `a b` -> `a_b:`; `Washington, D.C.` -> `Washington_DC:` + its code."""
    if is_plain(node_id):
        return node_id
    swapped = _swapped(node_id)
    basic = _basic_flags(swapped)
    kept = "".join(char for char, flag in zip(swapped, basic) if flag)
    return kept + _DELIMITER + _code([ord(char) for char in swapped], basic)


def _uncode(kept: str, digits: str, where: str) -> str:
    """The characters the code inserts into `kept` (RFC 3492 section 6.2), placed in n log n time."""
    local = kept + _DELIMITER + digits
    limit = (_MAX_CODE + 1) * (len(kept) + len(digits) + 1)  # any larger index is beyond Unicode
    insertions: list[tuple[int, int]] = []
    length, n, i, bias, position = len(kept), 0, 0, _INITIAL_BIAS, 0
    while position < len(digits):
        old, weight, k = i, 1, _BASE
        while True:
            if position == len(digits):
                raise _bad_name(local, where, "its code ends in the middle of a number")
            digit = _DIGITS.find(digits[position])
            position += 1
            if digit < 0:
                raise _bad_name(local, where, "its code holds a character other than a-z, 0-9")
            i += digit * weight
            if i > limit:
                raise _bad_name(local, where, "its code goes beyond Unicode")
            t = _threshold(k, bias)
            if digit < t:
                break
            weight, k = weight * (_BASE - t), k + _BASE
        bias = _adapt(i - old, length + 1, old == 0)
        n += i // (length + 1)
        i %= length + 1
        if n > _MAX_CODE:
            raise _bad_name(local, where, "its code goes beyond Unicode")
        insertions.append((n, i))
        i, length = i + 1, length + 1
    # The last insertion stands at its index in the final text; each earlier one at its index among the
    # places the later ones left free; the copied characters fill the rest in order.
    free = _Counts(length, marked=True)
    output: list[str | None] = [None] * length
    for code, index in reversed(insertions):
        slot = free.find(index)
        output[slot] = chr(code)
        free.mark(slot, -1)
    copied = iter(kept)
    return "".join(char if char is not None else next(copied) for char in output)


def _bad_name(local: str, where: str, why: str) -> FormatError:
    return FormatError(f"n:{local[:60]} is not a node name this format writes: {why}", where,
                       "write n:<id> for an id of letters, digits, _ and -, else the name this format writes for it")


def node_id_of(local: str, where: str) -> str:
    """The id a node's local name stands for; a FormatError for a name `node_local` never writes."""
    if _DELIMITER not in local:
        if not is_plain(local):
            raise _bad_name(local, where, "it holds characters a name cannot")
        return local
    kept, _, digits = local.rpartition(_DELIMITER)
    if _DELIMITER in kept or not all(map(name_char, kept)):
        raise _bad_name(local, where, "it holds characters a name cannot")
    node_id = _swapped(_uncode(kept, digits, where))
    if node_local(node_id) != local:
        raise _bad_name(local, where, "it is not the name written for the id it decodes to")
    return node_id


# ---------------------------------------------------------------------------------------------- vocabulary

def slug(name: str) -> str:
    """A readable local name for a name that is not one: each run of other characters becomes one `_`."""
    text = "".join(char if name_char(char) else " " for char in name)
    text = "_".join(text.split()).lstrip("-")
    return text or "_"


@dataclass(frozen=True)
class Vocabulary:
    """The local names of a graph's types (t:), relations (r:) and property keys (p:) that are not their own name."""

    declared: tuple[tuple[str, str, str], ...]  # (prefix, local name, name), in the order the header writes them
    locals: dict[str, dict[str, str]]  # prefix -> name -> local name, for the declared names only

    def local(self, prefix: str, name: str) -> str:
        return self.locals[prefix].get(name, name)


def _locals(names: Iterable[str]) -> dict[str, str]:
    names = set(names)
    taken = {name for name in names if is_plain(name)}
    chosen: dict[str, str] = {}
    for name in sorted(names - taken):
        base = candidate = slug(name)
        number = 2
        while candidate in taken:
            candidate, number = f"{base}_{number}", number + 1
        taken.add(candidate)
        chosen[name] = candidate
    return chosen


def vocabulary(graph: Graph) -> Vocabulary:
    """The graph's vocabulary (built once per graph and kept on it)."""
    return derived(graph, "rdf vocabulary", lambda: _vocabulary(graph))


def _vocabulary(graph: Graph) -> Vocabulary:
    keys = {key for node in graph.nodes for key, _ in node.properties}
    keys.update(key for edge in graph.edges for key, _ in edge.properties)
    locals_ = {"t": _locals(node.type for node in graph.nodes), "r": _locals(edge.relation for edge in graph.edges),
               "p": _locals(keys)}
    declared = tuple((prefix, local, name) for prefix in VOCABULARY_PREFIXES
                     for name, local in sorted(locals_[prefix].items(), key=lambda item: item[1]))
    return Vocabulary(declared, locals_)


def name_of(local: str, prefix: str, declared: dict[str, str], where: str) -> str:
    """The type, relation or key a local name under `prefix` stands for: its declared name, else itself."""
    found = declared.get(local)
    if found is not None:
        return found
    if not is_plain(local):
        raise FormatError(f"{prefix}:{local[:60]} is not a name this format writes", where,
                          f"write {prefix}:<letters, digits, _ and -> or declare it: "
                          f'{prefix}:<local> rdfs:label "<name>" .')
    return local


def declaration(declared: dict[str, dict[str, str]], prefix: str, local: str, name: str, where: str) -> None:
    """Record one header declaration `prefix:local rdfs:label "name"` (a FormatError if it contradicts another)."""
    known = declared[prefix]
    if known.get(local, name) != name:
        raise FormatError(f"{prefix}:{local[:60]} is declared with two names", where, "declare each name once")
    if not is_plain(local):
        raise FormatError(f"{prefix}:{local[:60]} is not a local name this format writes", where,
                          "declare a local name of letters, digits, _ and -")
    known[local] = name
