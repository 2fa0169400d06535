graph [
  directed 1
  node [ id 1 ]
  edge [ source 1 target 9 ]
]
