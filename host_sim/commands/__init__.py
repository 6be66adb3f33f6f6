"""The bodies of `gogadget`'s subcommands: host_sim/cli.py parses the command line, these act."""
