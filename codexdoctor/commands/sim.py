"""`codexdoctor sim`: the simulated provider, served on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

import time

import click

from codexdoctor import sim as sim_mod


def serve(cfg: sim_mod.SimConfig) -> None:
    """Until Ctrl-C; prints the config snippet that points Codex at it."""
    try:
        running = sim_mod.RunningSim(cfg).start()
    except OSError as exc:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{cfg.port}: {exc.strerror or exc}") from None
    try:  # Ctrl-C may come while the snippet is still being printed: the same clean stop
        click.echo(f"codexdoctor sim: serving {running.base_url}  (Ctrl-C to stop)")
        click.echo("\nPaste into $CODEX_HOME/config.toml (use a throw-away CODEX_HOME to keep your real config):\n")
        click.echo(sim_mod.config_snippet(running.base_url, cfg.models[0]))
        click.echo(f"export SIM_API_KEY={cfg.api_key or 'any-value'}   # the simulator's own key, not a real one")
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        click.echo("\ncodexdoctor sim: stopped", err=True)
    finally:
        running.stop()
