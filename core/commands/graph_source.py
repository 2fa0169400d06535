"""Where a CLI command gets its graph: a file, a sample name, a FalkorDB graph, or a generated graph (core.io.GENERATORS)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from core.errors import LoadError, ParameterError
from core.graph.model import Graph
from core.io.falkordb_source import (
    DEFAULT_HOPS,
    MAX_HOPS,
    PASSWORD_VARIABLE,
    is_database_url,
    parse_database_url,
    read_database,
)
from core.io.generate import GENERATORS, generator_parameters, service_graph
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.loading import format_names, load_graph_file
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.samples import Sample, default_sample, get_sample, sample_names


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def positive(text: str) -> int:
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is not allowed here; give 1 or more")
    return value


def port(text: str) -> int:
    value = non_negative(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port; give 0 to 65535")
    return value


def check_writable(path: Path, option: str) -> None:
    """Refuse an output path that cannot be written before any work is done (not after a long sweep)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise ParameterError(f"{path} is a folder", option, "give the path of a file to write")
    if not folder.is_dir():
        raise ParameterError(f"the folder {folder} does not exist", option,
                             f"create it first (mkdir -p {folder}) or write somewhere else")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            raise ParameterError(f"{path} cannot be written: the disk holding {folder} is mounted read-only", option,
                                 "write to a folder on a writable disk")
        raise ParameterError(f"{path} cannot be written (permission denied)", option, "write somewhere else")


def add_graph_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("graph source")
    group.add_argument("--graph", metavar="FILE_SAMPLE_OR_URL",
                       help="a graph file (GraphML, GEXF, GML, Pajek, node-link JSON, CSV, any lossless format), a "
                            f"sample name ({', '.join(sample_names())}) or a FalkorDB graph "
                            "(falkordb://HOST:PORT/GRAPH); without it the service graph is generated")
    group.add_argument("--services", type=non_negative, default=40, help="services in the generated graph (default 40)")
    group.add_argument("--noise-edges", type=non_negative, default=80,
                       help="random depends_on edges between services (default 80)")
    group.add_argument("--seed", type=int, default=7, help="random seed of the noise edges (default 7)")
    group.add_argument("--generator", choices=GENERATORS.names(), default="services",
                       help="the graph generated without --graph (default services: --services, --noise-edges, --seed)")
    group.add_argument("--generator-option", action="append", default=[], metavar="NAME=VALUE",
                       help="a parameter of the generator, repeatable, e.g. --generator transport --generator-option "
                            "lines=3 (names and defaults: the dashboard's Generator source, or core.io.generate)")
    add_loader_options(parser)


def add_loader_options(parser: argparse.ArgumentParser) -> None:
    """How a graph file is read, and the limits it must keep (shared by every command that reads files)."""
    group = parser.add_argument_group("reading a graph file")
    group.add_argument("--format", choices=format_names(), help="the file's format (default: detected)")
    group.add_argument("--nodes", type=Path, metavar="FILE", help="the nodes table (id,type,...) of a CSV edge list")
    group.add_argument("--node-type-attribute", help="attribute holding the node type (default: labelV, type or label)")
    group.add_argument("--relation-attribute", help="attribute holding the relation (default: labelE, relation or label)")
    group.add_argument("--default-node-type", default=DEFAULT_OPTIONS.default_node_type,
                       help=f"type of a node without one (default {DEFAULT_OPTIONS.default_node_type})")
    group.add_argument("--default-relation", default=DEFAULT_OPTIONS.default_relation,
                       help=f"relation of an edge without one (default {DEFAULT_OPTIONS.default_relation})")
    group.add_argument("--duplicates", choices=("reject", "merge"), default="reject",
                       help="node records with one id that disagree: refuse, or merge (first type wins)")
    group.add_argument("--missing-endpoints", choices=("reject", "create"), default="reject",
                       help="edges to undeclared nodes: refuse, or create the nodes")
    for end, default in (("source", "source"), ("target", "target"), ("relation", "relation")):
        group.add_argument(f"--{end}-column", default=default, metavar="NAME",
                           help=f"CSV edge list: the column holding each edge's {end} (default {default})")
    for end in ("source", "target"):
        group.add_argument(f"--{end}-type-column", metavar="NAME",
                           help=f"CSV edge list without a nodes table: the column holding the {end} node's type")
    database = parser.add_argument_group("reading a FalkorDB graph (--graph falkordb://HOST:PORT/GRAPH; the password, "
                                         f"if any, in the environment variable {PASSWORD_VARIABLE})")
    database.add_argument("--cypher", metavar="QUERY",
                          help="a read-only Cypher query whose nodes, relationships and paths make the graph (default: "
                               "the --cypher-hops neighbourhood of the seeds, or the whole graph without seeds)")
    database.add_argument("--cypher-hops", type=non_negative, default=DEFAULT_HOPS,
                          help=f"hops around the seeds the default query reads (default {DEFAULT_HOPS}, at most {MAX_HOPS})")
    database.add_argument("--cypher-seeds", metavar="ID,ID",
                          help="seed ids for the default query (default: --seeds where the command has it)")
    limits = parser.add_argument_group("import limits (raise them only for files you trust)")
    for name, help_text in (("bytes", "file size in bytes"), ("nodes", "nodes"), ("edges", "edges"),
                            ("string-length", "characters in one id, type, relation or value"),
                            ("depth", "nesting levels of JSON, XML or GML")):
        default = getattr(DEFAULT_LIMITS, f"max_{name.replace('-', '_')}")
        limits.add_argument(f"--max-{name}", type=positive, default=default, help=f"{help_text} (default {default:,})")


def load_options(arguments: argparse.Namespace) -> LoadOptions:
    return LoadOptions(node_type_attribute=arguments.node_type_attribute,
                       relation_attribute=arguments.relation_attribute,
                       default_node_type=arguments.default_node_type, default_relation=arguments.default_relation,
                       duplicates=arguments.duplicates, missing_endpoints=arguments.missing_endpoints,
                       source_column=arguments.source_column, target_column=arguments.target_column,
                       relation_column=arguments.relation_column, source_type_column=arguments.source_type_column,
                       target_type_column=arguments.target_type_column)


def load_limits(arguments: argparse.Namespace) -> Limits:
    return Limits(max_bytes=arguments.max_bytes, max_nodes=arguments.max_nodes, max_edges=arguments.max_edges,
                  max_string_length=arguments.max_string_length, max_depth=arguments.max_depth)


def load_file_or_sample(reference: str, arguments: argparse.Namespace) -> Graph:
    """An existing file by its path, a FalkorDB graph by its URL, else a sample by its name (a sample keeps its
    own loader options)."""
    if not reference.strip():
        raise LoadError("the graph argument is empty", "graph argument",
                        f"give a file path, a falkordb:// address or a sample: {', '.join(sample_names())}")
    if is_database_url(reference):
        return load_database(reference, arguments)
    path = Path(reference)
    if not path.exists() and reference in sample_names():
        return get_sample(reference).load(load_limits(arguments))
    if not path.exists():
        raise LoadError(f"there is no file or sample graph named {reference!r}", "graph argument",
                        f"give a file path or one of the samples: {', '.join(sample_names())}")
    return load_graph_file(path, format=arguments.format, options=load_options(arguments),
                           limits=load_limits(arguments), nodes_path=arguments.nodes)


def load_database(url: str, arguments: argparse.Namespace) -> Graph:
    seeds_text = arguments.cypher_seeds if arguments.cypher_seeds is not None else getattr(arguments, "seeds", None)
    seeds = tuple(part.strip() for part in (seeds_text or "").split(",") if part.strip())
    source = parse_database_url(url, query=arguments.cypher, seeds=seeds, hops=arguments.cypher_hops)
    return read_database(source, password=os.environ.get(PASSWORD_VARIABLE), options=load_options(arguments),
                         limits=load_limits(arguments))


def graph_from_arguments(arguments: argparse.Namespace) -> Graph:
    if arguments.graph is not None:  # an empty --graph "" is refused, not read as "no graph given"
        return load_file_or_sample(arguments.graph, arguments)
    if arguments.generator == "services" and not arguments.generator_option:
        return service_graph(arguments.services, arguments.noise_edges, arguments.seed)
    return GENERATORS.get(arguments.generator)(**generator_options(arguments.generator, arguments.generator_option))


def generator_options(name: str, options: list[str]) -> dict[str, int | float]:
    """`NAME=VALUE` options as the generator's keyword arguments, each of its parameter's type (int or float)."""
    known = generator_parameters(GENERATORS.get(name))
    values: dict[str, int | float] = {}
    for option in options:
        key, equals, text = option.partition("=")
        key = key.strip().replace("-", "_")
        if not equals or key not in known:
            raise ParameterError(f"{option!r} is not a parameter of the {name} generator", "--generator-option",
                                 f"use NAME=VALUE with NAME one of: {', '.join(known)}")
        kind = type(known[key])
        try:
            values[key] = kind(text)
        except ValueError:
            raise ParameterError(f"{key}={text!r} is not a {'whole number' if kind is int else 'number'}",
                                 "--generator-option", f"give {key} as a number like {known[key]}") from None
    return values


def named_sample(arguments: argparse.Namespace) -> Sample | None:
    """The sample whose catalogue entry gives the default seeds and question: the one --graph names (when no
    file of that name exists), or the default sample for the generated service graph."""
    if arguments.graph is None:  # the default sample is the service graph's; other generators have no catalogue entry
        return default_sample() if getattr(arguments, "generator", "services") == "services" else None
    if arguments.graph in sample_names() and not Path(arguments.graph).exists():
        return get_sample(arguments.graph)
    return None


def graph_parameters(arguments: argparse.Namespace) -> dict:
    """The graph-source part of a report's parameters."""
    if arguments.graph and is_database_url(arguments.graph):
        return {"graph": arguments.graph, "cypher": arguments.cypher, "cypher_hops": arguments.cypher_hops,
                "cypher_seeds": arguments.cypher_seeds}
    if arguments.graph:
        return {"graph": arguments.graph, "format": arguments.format}
    if arguments.generator != "services" or arguments.generator_option:
        return {"generator": arguments.generator,
                "generator_options": generator_options(arguments.generator, arguments.generator_option)}
    return {"services": arguments.services, "noise_edges": arguments.noise_edges, "seed": arguments.seed}
