graph [
  directed 1
  multigraph 1
  node [ id 1 ]
  node [ id 2 ]
  edge [ source 1 target 2 ]
  edge [ source 1 target 2 ]
  edge [ source 2 target 2 ]
]
