"""The report: assembly and exit code, the renderers, the config and catalog views, certain fixes."""
