graph [
  directed 1
  node [ id 1 ]
  node [ id 2 ]
  edge [ source 1 target 2 ]
  edge [ source 1 target 2 ]
]
