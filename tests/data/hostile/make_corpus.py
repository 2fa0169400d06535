"""Write the hostile import corpus (run from the repository root: python tests/data/hostile/make_corpus.py).

Names follow JSONTestSuite: `y_` must load, `n_` must be refused, `i_` may do either; nothing may
crash. The expected outcome of each file is in tests/core/io/test_hostile_corpus.py.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

GRAPHML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
KEYS = ('  <key id="labelV" for="node" attr.name="labelV" attr.type="string"/>\n'
        '  <key id="labelE" for="edge" attr.name="labelE" attr.type="string"/>\n'
        '  <key id="age" for="node" attr.name="age" attr.type="int"/>\n'
        '  <key id="ok" for="node" attr.name="ok" attr.type="boolean"/>\n')


def graphml(body: str, keys: str = KEYS, edge_default: str = "directed") -> str:
    return f'{GRAPHML_HEAD}{keys}  <graph id="G" edgedefault="{edge_default}">\n{body}  </graph>\n</graphml>\n'


TWO_NODES = ('    <node id="a"><data key="labelV">person</data></node>\n'
             '    <node id="b"><data key="labelV">person</data></node>\n')

LAUGHS = "".join(f'  <!ENTITY lol{level} "{("&lol" + str(level - 1) + ";") * 10}">\n' for level in range(1, 10))

FILES: dict[str, str | bytes] = {
    # GraphML: entities, DTDs and external references are refused before anything expands
    "n_graphml_billion_laughs.graphml":
        '<?xml version="1.0"?>\n<!DOCTYPE graphml [\n  <!ENTITY lol0 "lol">\n' + LAUGHS + ']>\n'
        '<graphml><graph><node id="&lol9;"/></graph></graphml>\n',
    "n_graphml_quadratic_blowup.graphml":
        '<?xml version="1.0"?>\n<!DOCTYPE graphml [<!ENTITY a "' + "x" * 50_000 + '">]>\n'
        '<graphml><graph><node id="n">' + "&a;" * 2_000 + '</node></graph></graphml>\n',
    "n_graphml_external_entity.graphml":
        '<?xml version="1.0"?>\n<!DOCTYPE graphml [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
        '<graphml><graph><node id="&secret;"/></graph></graphml>\n',
    "n_graphml_doctype.graphml":
        '<?xml version="1.0"?>\n<!DOCTYPE graphml SYSTEM "http://graphml.graphdrawing.org/dtds/graphml.dtd">\n'
        + graphml(TWO_NODES)[len('<?xml version="1.0" encoding="UTF-8"?>\n'):],
    "n_graphml_int_holds_text.graphml": graphml('    <node id="a"><data key="age">twenty</data></node>\n'),
    "n_graphml_boolean_holds_maybe.graphml": graphml('    <node id="a"><data key="ok">maybe</data></node>\n'),
    "n_graphml_node_without_id.graphml": graphml('    <node><data key="labelV">person</data></node>\n'),
    "n_graphml_edge_to_undeclared_node.graphml": graphml(TWO_NODES + '    <edge source="a" target="ghost"/>\n'),
    "n_graphml_undeclared_key.graphml": graphml('    <node id="a"><data key="colour">red</data></node>\n'),
    "n_graphml_unsupported_type.graphml":
        graphml('    <node id="a"><data key="x">1</data></node>\n',
                keys='  <key id="x" for="node" attr.name="x" attr.type="complex"/>\n'),
    "n_graphml_not_well_formed.graphml": graphml('    <node id="a"><data key="labelV">person</node>\n'),
    "n_graphml_nested_graph.graphml": graphml('    <node id="a"><graph id="inner"/></node>\n'),
    "n_graphml_deep_nesting.graphml":
        GRAPHML_HEAD + '<graph><node id="a"><data key="x">' + "<b>" * 500 + "</b>" * 500 + "</data></node></graph></graphml>\n",
    "n_graphml_wrong_root.graphml": '<?xml version="1.0"?>\n<svg><graph/></svg>\n',
    "n_graphml_invalid_utf8.graphml": graphml(TWO_NODES).encode().replace(b'id="b"', b'id="\xff\xfe"'),
    "n_graphml_nul_byte.graphml": graphml(TWO_NODES).encode().replace(b'id="b"', b'id="\x00"'),
    "y_graphml_undirected.graphml": graphml(TWO_NODES + '    <edge source="a" target="b"><data key="labelE">knows</data></edge>\n',
                                            edge_default="undirected"),
    "y_graphml_self_loop_and_parallel_edges.graphml":
        graphml(TWO_NODES + '    <edge source="a" target="a"/>\n    <edge source="a" target="b"/>\n'
                            '    <edge source="a" target="b"/>\n'),
    # GML
    "n_gml_nested_600_deep.gml": "graph [\n" + "x [ " * 600 + "]" * 600 + "\n]\n",
    "y_gml_label_with_blank_lines.gml": 'graph [ label "abc\n\n" node [ id 1 label "two\nlines" ] ]',
    "n_gml_repeated_edge_without_multigraph.gml":
        "graph [\n  directed 1\n  node [ id 1 ]\n  node [ id 2 ]\n  edge [ source 1 target 2 ]\n"
        "  edge [ source 1 target 2 ]\n]\n",
    "n_gml_edge_to_undeclared_node.gml": "graph [\n  directed 1\n  node [ id 1 ]\n  edge [ source 1 target 9 ]\n]\n",
    "n_gml_node_without_id.gml": 'graph [\n  node [ label "a" ]\n]\n',
    "n_gml_unterminated_string.gml": 'graph [\n  node [ id 1 label "never closed ]\n]\n',
    "n_gml_nul_byte.gml": "graph [\n  node [ id 1 ]\x00\n]\n",
    "y_gml_undirected.gml": 'graph [\n  node [ id 1 type "person" ]\n  node [ id 2 type "person" ]\n'
                            '  edge [ source 1 target 2 label "knows" ]\n]\n',
    "y_gml_directed_multigraph.gml":
        "graph [\n  directed 1\n  multigraph 1\n  node [ id 1 ]\n  node [ id 2 ]\n"
        "  edge [ source 1 target 2 ]\n  edge [ source 1 target 2 ]\n  edge [ source 2 target 2 ]\n]\n",
    # node-link JSON
    "n_json_nested_1000_deep.json": '{"nodes": [], "edges": [], "graph": ' + "[" * 1000 + "]" * 1000 + "}",
    "n_json_array_instead_of_object.json": '[{"id": "a"}, {"id": "b"}]',
    "n_json_missing_nodes.json": '{"directed": true, "edges": []}',
    "n_json_edge_without_target.json": '{"nodes": [{"id": "a"}], "edges": [{"source": "a"}]}',
    "n_json_node_without_id.json": '{"nodes": [{"type": "person"}], "edges": []}',
    "n_json_null_id.json": '{"nodes": [{"id": null}], "edges": []}',
    "n_json_object_id.json": '{"nodes": [{"id": {"nested": 1}}], "edges": []}',
    "n_json_boolean_id.json": '{"nodes": [{"id": true}], "edges": []}',
    "n_json_float_id.json": '{"nodes": [{"id": 1.5}], "edges": []}',
    "n_json_both_edges_and_links.json": '{"nodes": [{"id": "a"}], "edges": [], "links": []}',
    "n_json_nan_value.json": '{"nodes": [{"id": "a", "weight": NaN}], "edges": []}',
    "n_json_truncated.json": '{"nodes": [{"id": "a"}, {"id": "b"',
    "n_json_edge_to_undeclared_node.json": '{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "ghost"}]}',
    "n_json_invalid_utf8.json": b'{"nodes": [{"id": "\xc3\x28"}], "edges": []}',
    "n_json_utf16.json": '{"nodes": [], "edges": []}'.encode("utf-16"),
    "n_json_oversized_string.json": '{"nodes": [{"id": "' + "x" * 100_001 + '"}], "edges": []}',
    "y_json_networkx_integer_ids_and_links.json":
        '{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 0}, {"id": 1}],'
        ' "links": [{"source": 0, "target": 1, "weight": 2}]}',
    "y_json_schema_and_nested_values.json":
        '{"nodes": [{"id": "s", "type": "station", "tags": ["a", "b"], "extra": null}],'
        ' "edges": [{"source": "s", "relation": "loops", "target": "s"}],'
        ' "schema": {"types": {"station": "a stop"}, "relations": [{"relation": "loops", "forward": "loops to",'
        ' "inverse": "is looped to by"}]}}',
    # CSV edge lists and learning graphs
    "n_csv_field_of_200kb.csv": "source,relation,target\na,r,\"" + "x" * 200_000 + "\"\n",
    "n_csv_ragged_rows.csv": "source,relation,target\na,r,b\nb,r,c,extra\n",
    "n_csv_too_few_fields.csv": "source,relation,target\na,r,b\nb,r\n",
    "n_csv_invalid_utf8.csv": b"source,relation,target\na,r,b\n\xff,r,c\n",
    "n_csv_nul_byte.csv": "source,relation,target\na,r,b\nb,r,\x00c\n",
    "n_csv_empty_source.csv": "source,relation,target\n,r,b\n",
    "n_csv_nodes_table_alone.csv": "id,type\na,service\n",
    "y_csv_bom_quotes_and_line_breaks.csv":
        '\ufeffsource,relation,target,note\n"a, with comma",calls,"b ""quoted"""," two\nlines"\n'
        '"b ""quoted""",calls,"a, with comma",\n',
    "n_learning_graph_unknown_prerequisite.csv": "ConceptID,ConceptLabel,Dependencies,TaxonomyID\n1,One,7,A\n",
    "n_learning_graph_duplicate_concept.csv": "ConceptID,ConceptLabel,Dependencies,TaxonomyID\n1,One,,A\n1,Uno,,A\n",
    "y_learning_graph_cycle_and_forward_reference.csv":
        'ConceptID,ConceptLabel,Dependencies,TaxonomyID\n1,"Say ""hi""",2,A\n2,Two,1|3,B\n3,Three,,B\n',
    "n_over_node_limit.json": '{"nodes": [' + ",".join(f'{{"id":{index}}}' for index in range(50_001)) + "]}",
    # the project's own formats
    "n_jsonl_bad_record_kind.jsonl": '{"k":"n","id":"a","t":"t"}\n{"k":"x"}\n',
    "n_typed_edges_bad_escape.txt": "#graph-v1\nN|a\\q|t\n",
    "y_typed_edges.txt": "#graph-v1\nN|a|t\nE|a|r|b\n",
    "i_empty_file.txt": "",
    "n_binary_garbage.bin": bytes(range(256)) * 4,
    # found by attacking the importers (issue 17): each was a hang, a traceback or a silent loss
    "n_empty_0_bytes.graphml": "",
    "n_empty_0_bytes.json": "",
    "n_only_white_space.txt": " \n\t\n",
    "n_graphml_unknown_encoding.graphml": '<?xml version="1.0" encoding="x"?>\n<graphml/>\n',
    "n_graphml_key_inside_graph.graphml":
        GRAPHML_HEAD + '  <graph edgedefault="directed">\n    <key id="k" for="node"/>\n  </graph>\n</graphml>\n',
    "n_graphml_two_type_keys.graphml": graphml(
        '    <node id="a"><data key="t1">person</data><data key="t2">robot</data></node>\n',
        keys='  <key id="t1" for="node" attr.name="type"/>\n  <key id="t2" for="node" attr.name="type"/>\n'),
    "y_graphml_yed_port_and_graphml_keys.graphml": graphml(
        '    <node id="a"><data key="d0">person</data><data key="d6"><y:ShapeNode xmlns:y="http://www.yworks.com/xml/'
        'graphml"/></data></node>\n',
        keys='  <key id="d0" for="node" attr.name="type"/>\n  <key id="d1" for="port" yfiles.type="portgraphics"/>\n'
             '  <key id="d2" for="graphml" yfiles.type="resources"/>\n  <key id="d6" for="node" yfiles.type="nodegraphics"/>\n'),
    "y_graphml_igraph_shared_key_id.graphml": graphml(
        '    <data key="name">the graph</data>\n    <node id="a"><data key="name">Alice</data></node>\n',
        keys='  <key id="name" for="graph" attr.name="name" attr.type="string"/>\n'
             '  <key id="name" for="node" attr.name="name" attr.type="string"/>\n'),
    "y_graphml_foreign_namespace.graphml": graphml(
        '    <x:node xmlns:x="urn:other" id="not-a-node"/>\n    <node id="a"/>\n'),
    "n_gml_int_and_text_ids.gml": 'graph [\n  node [ id 1 ]\n  node [ id "1" ]\n]\n',
    "n_gml_repeated_type.gml": 'graph [\n  node [ id 1 labelV "a" labelV "b" ]\n]\n',
    "n_gml_duplicated_node_id.gml": 'graph [\n  node [ id 1 ]\n  node [ id 1 ]\n]\n',
    "n_gml_unbalanced_text.gml": 'graph [\n  node [ id 1 label "abc ]\n  node [ id 2 ] ( ]\n',
    "n_learning_graph_label_column.csv": "ConceptID,ConceptLabel,Dependencies,TaxonomyID,label\n1,One,,A,other\n",
    "n_json_number_overflows_to_infinity.json": '{"nodes": [{"id": "a", "size": 1e999}]}',
    "n_json_lone_surrogate_id.json": '{"nodes": [{"id": "\\ud800"}]}',
    "n_csv_unterminated_quote.csv": 'source,relation,target\na,r,"b\nc,r,d\n',
    "n_csv_other_header_cr_only.csv": "~from,~to\rA,B\r",
    "n_yaml_alias_bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{chr(98 + level)}: &{chr(98 + level)} [{', '.join(['*' + chr(97 + level)] * 10)}]\n"
                  for level in range(9)),
    "n_gexf_doctype.gexf": '<?xml version="1.0"?>\n<!DOCTYPE gexf [<!ENTITY a "b">]>\n<gexf/>\n',
    "n_pajek_vertices_past_the_limit.net": "*Vertices 100000000\n1 a\n",
    "y_gexf_undirected.gexf": '<gexf xmlns="http://gexf.net/1.3" version="1.3"><graph defaultedgetype="undirected">'
        '<nodes><node id="a" label="A"/><node id="b" label="B"/></nodes>'
        '<edges><edge id="0" source="a" target="b"/></edges></graph></gexf>\n',
    "y_pajek_arcs.net": '*Vertices 3\n1 "a"\n2 "b"\n3 "c"\n*Arcs\n1 2 1\n2 3 2\n',
}


def main() -> None:
    for name, content in FILES.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
