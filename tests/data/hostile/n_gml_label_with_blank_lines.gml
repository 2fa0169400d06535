graph [ label "abc

"]