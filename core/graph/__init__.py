"""The graph model and its views: nodes, edges, schema, units, the picture's part, the kept graph."""
