graph [
  node [ id 1 type "person" ]
  node [ id 2 type "person" ]
  edge [ source 1 target 2 label "knows" ]
]
