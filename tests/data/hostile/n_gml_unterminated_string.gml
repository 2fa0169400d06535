graph [
  node [ id 1 label "never closed ]
]
