"""The console script and `python -m codexdoctor`: Ctrl-C is handled from here on, before click is imported."""

from codexdoctor.common import interrupt

# At import, as the first thing codexdoctor does: the console script imports this module before it calls main(),
# and a Ctrl-C in between would be a traceback from the import machinery.
interrupt.install(interrupt.exit_now)
interrupt.decide_lang()
from codexdoctor.common import launch  # noqa: E402 - after the handler: the deadlines count from here on

launch.mark()


def main() -> int:
    """cli.main's error boundary takes over from here (2 usage, 3 internal, 130 interrupted)."""
    from codexdoctor.cli import main as cli_main

    return interrupt.finish(cli_main())
