graph [
  node [ id 1 labelV "a" labelV "b" ]
]
