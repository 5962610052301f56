"""One module per command: thin orchestration of checks, rules and the report."""
