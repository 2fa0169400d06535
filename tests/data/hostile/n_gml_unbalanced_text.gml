graph [
  node [ id 1 label "abc ]
  node [ id 2 ] ( ]
