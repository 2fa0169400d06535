"""CLI subcommands: one module each, every one exposing `add_parser(subparsers)`."""
