"""Compare codexdoctor's verdict with what the real Codex CLI does, for the config and request cases of issue 14.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_config_semantics.py [CODEX_BINARY]
Each case gets a throw-away CODEX_HOME, the project's simulator, `codexdoctor check` (as Codex 0.171.0) and then
`codex exec "say hi"` with the same files and variables. Results are recorded in docs/codex-behaviour.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions

CODEX = (
    sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[2] / "shared" / "tools" / "real-codex")
)
KEY = "sk-crosscheck-0123456789abcdef"


@dataclass
class Case:
    name: str
    config: str  # {base} is the simulator's base_url
    env: dict = field(default_factory=dict)  # overrides of the variables; None unsets one
    files: dict = field(default_factory=dict)  # name (relative to CODEX_HOME) -> text, or bytes written as they are
    sim: dict = field(default_factory=dict)
    profile: str | None = None
    codex_home: str | None = None  # a literal value for CODEX_HOME instead of the folder
    encoding: str = "utf-8"  # how config.toml is saved ("utf-8-sig": with a BOM, as Notepad did)
    newline: str = "\n"  # its line ends ("\r\n": as an editor on Windows saves it)
    project: dict = field(default_factory=dict)  # files of a git project Codex runs in (cwd); {proj} is its path


TABLE = 'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\nbase_url = "{base}"\nenv_key = "SIM_API_KEY"\n'
NO_KEY_TABLE = TABLE.replace('env_key = "SIM_API_KEY"\n', "")
CASES = [
    Case("healthy", TABLE),
    Case("legacy profile selector", 'profile = "work"\n' + TABLE + '[profiles.work]\nmodel = "sim-model"\n'),
    Case("--profile with no file", TABLE, profile="nope"),
    Case(
        "--profile with a file",
        TABLE.replace('model = "sim-model"', 'model = "other"'),
        files={"work.config.toml": 'model = "sim-model"\n'},
        profile="work",
    ),
    Case("provider without name", TABLE.replace('name = "sim"\n', "")),
    Case('CODEX_HOME="~/.codex"', TABLE, codex_home="~/.codex"),
    Case(".env blank key", TABLE, files={".env": "SIM_API_KEY=\n"}),
    Case(".env wrong key", TABLE, files={".env": "SIM_API_KEY=sk-stale-key-in-dotenv-000\n"}),
    Case("base_url leading space", TABLE.replace('"{base}"', '"  {base}"')),
    Case("base_url trailing space", TABLE.replace('"{base}"', '"{base} "')),
    Case("provider refuses reasoning", TABLE, sim={"reject_fields": ("reasoning",)}),
    Case("gateway refuses developer", TABLE, sim={"reject_developer": True}),
    Case("unpublished 6K window", TABLE, sim={"context_window": 6000, "error_style": "llamacpp"}),
    Case("published 9K window", TABLE, sim={"context_window": 9000, "publish_window": True}),
    Case("unpublished 20K window", TABLE, sim={"context_window": 20000}),
    # 2026-12-01: what new users paste and type (the key as copied, base_url as guessed, ids as remembered)
    Case("key: trailing newline", TABLE, env={"SIM_API_KEY": KEY + "\n"}),
    Case("key: trailing space", TABLE, env={"SIM_API_KEY": KEY + " "}),
    Case("key: in quotes", TABLE, env={"SIM_API_KEY": '"' + KEY + '"'}),
    Case("key: in curly quotes", TABLE, env={"SIM_API_KEY": "\u201c" + KEY + "\u201d"}),
    Case("key: full-width space", TABLE, env={"SIM_API_KEY": KEY + "\u3000"}),
    Case("key: zero-width space", TABLE, env={"SIM_API_KEY": "\u200b" + KEY}),
    Case("key: Bearer prefix", TABLE, env={"SIM_API_KEY": "Bearer " + KEY}),
    Case("env_key holds the key", TABLE.replace('env_key = "SIM_API_KEY"', f'env_key = "{KEY}"')),
    Case("env_key lower case", TABLE.replace('env_key = "SIM_API_KEY"', 'env_key = "sim_api_key"')),
    Case("base_url trailing slash", TABLE.replace('"{base}"', '"{base}/"')),
    Case("base_url full endpoint", TABLE.replace('"{base}"', '"{base}/responses"')),
    Case("base_url https to http", TABLE.replace('"{base}"', '"{base_https}"')),
    Case("base_url no scheme", TABLE.replace('"{base}"', '"{base_noscheme}"')),
    Case("base_url full-width colon", TABLE.replace('"{base}"', '"{base_fullwidth}"')),
    Case("base_url localhost", TABLE.replace('"{base}"', '"{base_localhost}"')),
    Case("wire_api chat", TABLE + 'wire_api = "chat"\n'),
    Case("provider id case", TABLE.replace('model_provider = "sim"', 'model_provider = "Sim"')),
    Case("model: leading space", TABLE.replace('model = "sim-model"', 'model = " sim-model"')),
    Case("model: capitals", TABLE.replace('model = "sim-model"', 'model = "SIM-MODEL"')),
    Case(
        "key as bearer token in config",
        NO_KEY_TABLE + f'experimental_bearer_token = "{KEY}"\n',
        env={"SIM_API_KEY": None},
    ),
    # Saved by Windows editors (round 3): a BOM, CRLF line ends, UTF-16 ("Unicode" in old Notepad).
    Case("config BOM", TABLE, encoding="utf-8-sig"),
    Case("config CRLF", TABLE, newline="\r\n"),
    Case("config UTF-16", TABLE, encoding="utf-16"),
    Case(
        ".env BOM, key first",
        TABLE,
        env={"SIM_API_KEY": None},
        files={".env": b"\xef\xbb\xbfSIM_API_KEY=" + KEY.encode() + b"\nOTHER=1\n"},
    ),
    Case(
        ".env BOM, key second",
        TABLE,
        env={"SIM_API_KEY": None},
        files={".env": b"\xef\xbb\xbfOTHER=1\nSIM_API_KEY=" + KEY.encode() + b"\n"},
    ),
    Case(
        ".env BOM, comment first",
        TABLE,
        env={"SIM_API_KEY": None},
        files={".env": b"\xef\xbb\xbf# keys\nSIM_API_KEY=" + KEY.encode() + b"\n"},
    ),
    Case(".env CRLF", TABLE, env={"SIM_API_KEY": None}, files={".env": b"SIM_API_KEY=" + KEY.encode() + b"\r\n"}),
    # How Codex's .env reader (dotenvy) takes what people write there (round 3).
    *[
        Case(
            f".env syntax: {name}",
            TABLE,
            env={"SIM_API_KEY": None, **{k: v.replace("{key}", KEY) for k, v in extra.items()}},
            files={".env": text.replace("{key}", KEY)},
        )
        for name, text, extra in (
            ("spaces around =", "SIM_API_KEY = {key}\n", {}),
            ("comment after", "SIM_API_KEY={key} # my key\n", {}),
            ("single quotes", "SIM_API_KEY='{key}'\n", {}),
            ("double quotes", 'SIM_API_KEY="{key}"\n', {}),
            ("export", "export SIM_API_KEY={key}\n", {}),
            ("trailing spaces", "SIM_API_KEY={key}   \n", {}),
            ("$OTHER from .env", "OTHER={key}\nSIM_API_KEY=$OTHER\n", {}),
            ("${OTHER} from shell", "SIM_API_KEY=${OTHER}\n", {"OTHER": "{key}"}),
            ("unterminated quote", 'SIM_API_KEY="{key}\n', {}),
            ("bad line before", "this is not a variable\nSIM_API_KEY={key}\n", {}),
            ("colon", "SIM_API_KEY: {key}\n", {}),
            ("apostrophe in a comment", "# Don't share this file\nSIM_API_KEY={key}\n", {}),
            ("two apostrophes in comments", "# Don't share\n# it's mine\nSIM_API_KEY={key}\n", {}),
            ("unterminated quote before", 'OTHER="abc\nSIM_API_KEY={key}\n', {}),
            ("space inside the value", "SIM_API_KEY={key} extra\n", {}),
            ("dollar inside the value", "SIM_API_KEY=sk-$crosscheck-0123456789abcdef\n", {}),
            ("$OTHER_KEY (a name ends at _)", "OTHER_KEY={key}\nSIM_API_KEY=$OTHER_KEY\n", {}),
            ("${OTHER_KEY}", "OTHER_KEY={key}\nSIM_API_KEY=${OTHER_KEY}\n", {}),
            ("single-quoted $", "SIM_API_KEY='{key}$x'\nX=1\n", {}),
        )
    ],
    # Where the key comes from when it is not (only) the env_key variable (round 3).
    Case(
        "auth: custom provider without env_key, stored API key",
        NO_KEY_TABLE,
        env={"SIM_API_KEY": None},
        files={"auth.json": '{"auth_mode": "apikey", "OPENAI_API_KEY": "' + KEY + '"}'},
    ),
    Case(
        "auth: env_key unset, bearer token set",
        TABLE + f'experimental_bearer_token = "{KEY}"\n',
        env={"SIM_API_KEY": None},
    ),
    Case(
        "auth: built-in, openai_base_url, stored API key",
        'model = "sim-model"\nopenai_base_url = "{base}"\n',
        env={"SIM_API_KEY": None},
        files={"auth.json": '{"auth_mode": "apikey", "OPENAI_API_KEY": "' + KEY + '"}'},
    ),
    Case(
        "auth: built-in, openai_base_url, OPENAI_API_KEY only",
        'model = "sim-model"\nopenai_base_url = "{base}"\n',
        env={"SIM_API_KEY": None, "OPENAI_API_KEY": KEY},
    ),
    Case(
        "auth: built-in, openai_base_url, CODEX_API_KEY",
        'model = "sim-model"\nopenai_base_url = "{base}"\n',
        env={"SIM_API_KEY": None, "CODEX_API_KEY": KEY},
    ),
    Case(
        "auth: built-in, OPENAI_BASE_URL variable, stored API key",
        'model = "sim-model"\n',
        env={"SIM_API_KEY": None, "OPENAI_BASE_URL": "{base}"},
        files={"auth.json": '{"auth_mode": "apikey", "OPENAI_API_KEY": "' + KEY + '"}'},
    ),
    # Typos and empty values (round 3).
    Case(
        "typo: model_provider with a trailing space", TABLE.replace('model_provider = "sim"', 'model_provider = "sim "')
    ),
    Case("typo: env_key with a trailing space", TABLE.replace('env_key = "SIM_API_KEY"', 'env_key = "SIM_API_KEY "')),
    Case("typo: wire_api capitalised", TABLE + 'wire_api = "Responses"\n'),
    Case("empty: env_key", TABLE.replace('env_key = "SIM_API_KEY"', 'env_key = ""')),
    Case("empty: base_url", TABLE.replace('"{base}"', '""')),
    Case("empty: model", TABLE.replace('model = "sim-model"', 'model = ""')),
    Case("unset: model", TABLE.replace('model = "sim-model"\n', "")),
    Case("string: model_context_window", 'model_context_window = "4096"\n' + TABLE),
    Case("float: model_context_window", "model_context_window = 4096.5\n" + TABLE),
    Case("string: model_auto_compact_token_limit", 'model_auto_compact_token_limit = "9000"\n' + TABLE),
    Case("string: hide_agent_reasoning", 'hide_agent_reasoning = "true"\n' + TABLE),
    Case("string: request_max_retries", TABLE + 'request_max_retries = "2"\n'),
    Case("string: stream_idle_timeout_ms", TABLE + 'stream_idle_timeout_ms = "300000"\n'),
    Case("number: openai_base_url", "openai_base_url = 5\n" + TABLE),
    Case(
        "dotted keys at top level",
        'model = "sim-model"\nmodel_provider = "sim"\nmodel_providers.sim.name = "sim"\n'
        'model_providers.sim.base_url = "{base}"\nmodel_providers.sim.env_key = "SIM_API_KEY"\n',
    ),
    Case("query_params", TABLE + 'query_params = { "api-version" = "2025-04-01-preview" }\n'),
    # A project's own .codex/config.toml (round 3): read only when the project is trusted.
    Case(
        "project: untrusted, sets the provider",
        TABLE.replace('"{base}"', '"http://127.0.0.1:9/v1"'),
        project={
            ".codex/config.toml": 'model_provider = "simp"\n[model_providers.simp]\nname = "simp"\n'
            'base_url = "{base}"\nenv_key = "SIM_API_KEY"\n'
        },
    ),
    Case(
        "project: trusted, sets the provider",
        TABLE.replace('"{base}"', '"http://127.0.0.1:9/v1"') + '[projects."{proj}"]\ntrust_level = "trusted"\n',
        project={
            ".codex/config.toml": 'model_provider = "simp"\n[model_providers.simp]\nname = "simp"\n'
            'base_url = "{base}"\nenv_key = "SIM_API_KEY"\n'
        },
    ),
    Case(
        "project: trusted, sets the model",
        TABLE.replace('model = "sim-model"', 'model = "nope"') + '[projects."{proj}"]\ntrust_level = "trusted"\n',
        project={".codex/config.toml": 'model = "sim-model"\n'},
    ),
    Case("headers: a number in http_headers", TABLE + 'http_headers = { "X-Retries" = 3 }\n'),
    Case("headers: env_http_headers with an unset variable", TABLE + 'env_http_headers = { "X-Org" = "SIM_ORG" }\n'),
    # The built-in local providers (round 3), served by the simulator on their default ports, without a key.
    Case(
        "built-in ollama",
        'model_provider = "ollama"\nmodel = "sim-model"\n',
        env={"SIM_API_KEY": None},
        sim={"port": 11434, "api_key": None, "error_style": "ollama"},
    ),
    Case(
        "built-in lmstudio",
        'model_provider = "lmstudio"\nmodel = "sim-model"\n',
        env={"SIM_API_KEY": None},
        sim={"port": 1234, "api_key": None},
    ),
    # A [profiles.x] table, as older Codex read them (round 3).
    Case(
        "profile: --profile with only a [profiles] table", TABLE + '[profiles.work]\nmodel = "nope"\n', profile="work"
    ),
    Case(
        "profile: file and table disagree",
        TABLE + '[profiles.work]\nmodel = "nope"\n',
        profile="work",
        files={"work.config.toml": 'model = "sim-model"\n'},
    ),
    # CODEX_HOME as people set it (round 3).
    Case("CODEX_HOME: a file", TABLE, codex_home="{home}/config.toml"),
    Case("CODEX_HOME: relative", TABLE, codex_home="."),
    # issue 26: $ substitution that doubles a value line after line (A16 is 8 x 2^16 = 512 KiB): Codex builds it whole
    Case(
        ".env substitution doubling",
        TABLE,
        files={
            ".env": "A0=xxxxxxxx\n"
            + "".join(f"A{i}=${{A{i - 1}}}${{A{i - 1}}}\n" for i in range(1, 17))
            + "SIM_API_KEY="
            + KEY
            + "\n"
        },
    ),
    Case("CODEX_HOME: trailing slash", TABLE, codex_home="{home}/"),
    Case(
        "key in http_headers",
        NO_KEY_TABLE + f'http_headers = {{ Authorization = "Bearer {KEY}" }}\n',
        env={"SIM_API_KEY": None},
    ),
]


def last_line(text: str) -> str:
    lines = [x.strip() for x in text.splitlines() if x.strip() and "bubblewrap" not in x and "PATH aliases" not in x]
    for line in reversed(lines):
        if line.startswith(("ERROR", "Error", "error")) or "ran out of room" in line or "stream disconnected" in line:
            return line[:150]
    return (lines[-1] if lines else "")[:150]


def main() -> int:
    print(f"{'case':30} {'codexdoctor':10} {'codes':22} codex: exit, POSTs, last line")
    only = os.environ.get("CROSSCHECK_ONLY")  # a part of the case names to run, e.g. "BOM"
    for case in CASES:
        if only and only not in case.name:
            continue
        with sim.start(**{"api_key": KEY, **case.sim}) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-cross-"))
            base = server.base_url
            proj = home / "proj"
            if case.project:
                (proj / ".git").mkdir(parents=True)
                for name, text in case.project.items():
                    (proj / name).parent.mkdir(parents=True, exist_ok=True)
                    (proj / name).write_text(text.replace("{base}", base))
            (home / "config.toml").write_text(
                case.config.replace("{proj}", str(proj))
                .replace("{base_https}", base.replace("http://", "https://"))
                .replace("{base_noscheme}", base.replace("http://", ""))
                .replace("{base_fullwidth}", base.replace("http:", "http："))
                .replace("{base_localhost}", base.replace("127.0.0.1", "localhost"))
                .replace("{base}", base),
                encoding=case.encoding,
                newline=case.newline,
            )
            for name, text in case.files.items():
                if isinstance(text, bytes):
                    (home / name).write_bytes(text)
                else:
                    (home / name).write_text(text)
            # {home} is the throw-away folder; "." and relative paths are taken from the folder Codex runs in (cwd).
            codex_home = case.codex_home.replace("{home}", str(home)) if case.codex_home is not None else str(home)
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home.parent),
                "CODEX_HOME": codex_home,
                "SIM_API_KEY": KEY,
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
            }
            for name, value in case.env.items():  # None: the variable is not set at all
                if value is None:
                    env.pop(name, None)
                else:
                    env[name] = value.replace("{base}", base)
            cwd = proj if case.project else home
            report, _ = run_check(
                CheckOptions(
                    env=env,
                    home=home.parent,
                    cwd=cwd,
                    profile=case.profile,
                    system_config=None,
                    codex_version=(0, 171, 0),
                    timeout=10,
                )
            )
            server.records.clear()
            args = (
                [CODEX, "exec", "--skip-git-repo-check"]
                + (["--profile", case.profile] if case.profile else [])
                + ["say hi"]
            )
            try:
                proc = subprocess.run(
                    args, env=env, cwd=cwd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
                )
                code, out = proc.returncode, proc.stdout + proc.stderr
            except subprocess.TimeoutExpired as exc:
                code, out = "timeout", (exc.stdout or b"").decode() + (exc.stderr or b"").decode()
            posts = len([r for r in server.records if r.method == "POST"])
            shutil.rmtree(home, ignore_errors=True)
        codes = ",".join(f.code for f in report.findings if f.severity.value != "info") or "-"
        print(f"{case.name:30} {report.verdict.value:10} {codes:22} {code}, {posts}, {last_line(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
