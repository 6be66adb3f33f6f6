"""The bodies of `gogadget`'s subcommands (cli.py parses the command line and calls them)."""
