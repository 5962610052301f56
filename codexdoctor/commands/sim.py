"""`codexdoctor sim`: the simulated provider, served on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

import time
from dataclasses import dataclass

import click

from codexdoctor import sim as sim_mod
from codexdoctor.commands.environment import language
from codexdoctor.common import oserror
from codexdoctor.model import Msg, said_error

# What `sim` says, in both languages (issue 29: its output was English in a zh run); each line fits 80 columns, an
# ambiguous character counted as two in Chinese (issue 40).
SAY = {
    "serving": (
        "codexdoctor sim: serving {url}  (Ctrl-C to stop)",
        "codexdoctor sim：正在 {url} 上提供服务（Ctrl-C 停止）",
    ),
    "paste": (
        "\nPaste into $CODEX_HOME/config.toml\n(use a throw-away CODEX_HOME to keep your real config):\n",
        "\n粘贴到 $CODEX_HOME/config.toml 中\n（用一个临时的 CODEX_HOME，以免改动你真正的配置）：\n",
    ),
    "any_key": ("# the simulator checks no key: any value works", "# 模拟器不检查密钥：任何值都可以"),
    # a key given with --api-key may be a real one: never echoed (issue 40 review)
    "given_key": (
        "# set SIM_API_KEY to the key you gave with --api-key (not echoed here)",
        "# 把 SIM_API_KEY 设为你用 --api-key 给出的密钥（这里不回显）",
    ),
    "stopped": ("\ncodexdoctor sim: stopped", "\ncodexdoctor sim：已停止"),
}


def say(key: str, lang: str, **values: object) -> str:
    en, zh = SAY[key]
    return (zh if lang == "zh" else en).format(**values)


@dataclass(frozen=True)
class SimOptions:
    """`codexdoctor sim`: the simulator's knobs (its own options object, SimConfig) and --lang as given."""

    config: sim_mod.SimConfig
    lang: str | None = None  # --lang; None: the locale's


def key_lines(api_key: str | None, lang: str) -> list[str]:
    """How to set SIM_API_KEY, the comment on its own line (beside the export it took 86 cells in Chinese, issue 40):
    `any-value` when the simulator checks no key; a key the user gave is never printed."""
    if api_key:
        return [say("given_key", lang)]
    return [say("any_key", lang), "export SIM_API_KEY=any-value"]


def serve(opts: SimOptions) -> None:
    """Until Ctrl-C; prints the config snippet that points Codex at it. Ctrl-C is how a server is stopped on purpose,
    its normal end: "stopped" and exit 0, not 130 (docs/exit-codes.md). A Ctrl-C before it serves is an interrupt."""
    cfg, lang = opts.config, language(opts.lang)
    try:
        running = sim_mod.RunningSim(cfg).start()
    except OSError as exc:
        said = Msg(
            "cannot listen on {where}: {e}",
            "无法在 {where} 上监听：{e}",
            where=f"127.0.0.1:{cfg.port}",
            e=Msg.pair(oserror.reason(exc), oserror.reason_zh(exc)),
        )
        raise said_error(click.ClickException(str(said)), said) from None
    try:  # Ctrl-C may come while the snippet is still being printed: the same clean stop
        click.echo(say("serving", lang, url=running.base_url))
        click.echo(say("paste", lang))
        click.echo(sim_mod.config_snippet(running.base_url, cfg.models[0]))
        for line in key_lines(cfg.api_key, lang):
            click.echo(line)
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        click.echo(say("stopped", lang), err=True)
    finally:
        running.stop()
