graph [ label "abc

" node [ id 1 label "two
lines" ] ]