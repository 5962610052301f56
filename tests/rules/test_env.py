"""ENV: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import ABSENT, check, fires, silent

ZSHRC = {"file": "~/.zshrc", "line": 12, "exported": True, "fish": False}
OPENAI = {"provider": "openai", "builtin": True}
LOGIN = {"exists": True, "mode": "apikey", "has_api_key": True, "has_tokens": False, "api_key_fp": "51 chars"}

CASES = [
    # The key variable
    fires(
        "ENV001",
        {"state": "missing"},
        'env_key = "GW_API_KEY" (~/.codex/config.toml:7) but $GW_API_KEY is not set',
        "export GW_API_KEY=",
    ),
    silent("ENV001", {"state": "missing", "near_miss": ["GW_KEY"]}, why="ENV003-says-it"),
    silent("ENV001", {"state": "missing", "rc_hits": [ZSHRC]}, why="ENV004-says-it"),
    fires("ENV002", {"state": "blank"}, "$GW_API_KEY is set but empty", "export GW_API_KEY="),
    silent("ENV002", {"state": "blank", "from_dotenv": True}, why="ENV017-says-it"),
    fires(
        "ENV003",
        {"state": "missing", "near_miss": ["GW_KEY", "GW_APIKEY"]},
        "which is missing, but $GW_KEY, $GW_APIKEY is set",
        'change env_key in ~/.codex/config.toml:7 to "GW_KEY"',
        'export GW_API_KEY="$GW_KEY"',
    ),
    silent("ENV003", {"state": "missing", "near_miss": ["GW_KEY"], "dotenv_bom": True}, why="ENV019-says-it"),
    silent("ENV003", {"state": "set", "near_miss": ["GW_KEY"]}),
    fires(
        "ENV004",
        {"state": "missing", "rc_hits": [ZSHRC, {**ZSHRC, "file": "~/.zprofile", "line": 3}]},
        "~/.zshrc:12, ~/.zprofile:3 sets GW_API_KEY",
        "source ~/.zshrc",
    ),
    silent("ENV004", {"state": "missing", "rc_hits": [{**ZSHRC, "exported": False}]}, why="ENV024-says-it"),
    fires(
        "ENV024",
        {"state": "missing", "rc_hits": [{**ZSHRC, "exported": False}]},
        "~/.zshrc:12 sets GW_API_KEY without `export`",
        "Put `export ` at the start of line 12 of ~/.zshrc and keep the value as it is",
        "\nsed -i '12s/^[[:space:]]*/&export /' ~/.zshrc",
    ),
    fires(
        "ENV024",
        {
            "state": "missing",
            "rc_hits": [{"file": "~/.config/fish/config.fish", "line": 2, "exported": False, "fish": True}],
        },
        "add `-gx` after `set` and keep the value as it is (`set -gx GW_API_KEY …`)",
        why="fish",
    ),
    silent("ENV024", {"state": "missing", "rc_hits": [ZSHRC]}),
    fires(
        "ENV009",
        {"state": "not_a_name", "env_key": "sk-abc"},
        "its value sk-abc looks like the API key itself",
        'set env_key = "MYGATEWAY_API_KEY"',
    ),
    silent("ENV009", {"state": "missing"}),
    fires(
        "ENV010",
        {"state": "no_env_key", "local": False, "env_key": None},
        "[model_providers.gw] has no env_key",
        "in ~/.codex/config.toml",
    ),
    silent("ENV010", {"state": "no_env_key", "local": True, "env_key": None}, why="a-local-server-needs-no-key"),
    silent("ENV010", {"state": "no_env_key", "local": False, "bearer_token": True, "env_key": None}),
    # The key's characters
    fires(
        "ENV005",
        {"problems": ["newline", "inner whitespace"]},
        "$GW_API_KEY (28 chars, sha256:fbbb0b78) contains newline and inner whitespace",
        "GW_API_KEY",
    ),
    fires(
        "ENV005",
        {"problems": ["newline", "leading or trailing whitespace", "bearer prefix"]},
        "(and without ENV007's `Bearer ` prefix, which this command removes first",
        "sed 's/^[[:space:]]*[Bb]earer[[:space:]]//' | tr -d '[:space:]'",
        why="with-a-bearer-prefix",
    ),
    silent("ENV005", {"problems": ["quotes"]}),
    fires(
        "ENV026",
        {"key_placeholder": "YOUR_API_KEY"},
        "$GW_API_KEY holds a placeholder (YOUR_API_KEY-style text), not a key",
        "Copy your real key from the provider's console",
        "GW_API_KEY",
    ),
    silent("ENV026", {"key_placeholder": None}),
    fires("ENV006", {"problems": ["quotes"]}, "$GW_API_KEY (28 chars, sha256:fbbb0b78) starts and ends with quotes"),
    silent("ENV006", {"problems": ["bearer prefix"]}),
    fires("ENV007", {"problems": ["bearer prefix"]}, "$GW_API_KEY starts with `Bearer `", "GW_API_KEY"),
    fires(
        "ENV007",
        {"problems": ["bearer prefix", "newline"]},
        "Remove the prefix and ENV005's white space together",
        "sed 's/^[[:space:]]*[Bb]earer[[:space:]]//' | tr -d '[:space:]'",
        why="with-white-space",
    ),
    silent("ENV007", {"problems": ["non-ascii"]}),
    fires("ENV008", {"problems": ["non-ascii"]}, "$GW_API_KEY contains non-ASCII characters", "export GW_API_KEY="),
    silent("ENV008", {"problems": ["newline"]}),
    # Codex's .env file
    fires(
        "ENV017",
        {"state": "blank", "from_dotenv": True},
        "~/.codex/.env sets GW_API_KEY to an empty value",
        "(GW_API_KEY=<your key>)",
    ),
    silent("ENV017", {"state": "blank", "from_dotenv": True, "dotenv_unset_refs": ["$A"]}, why="ENV021-says-it"),
    fires(
        "ENV018",
        {"shell_differs": True, "shell_fp": "40 chars, sha256:0a1b2c3d"},
        "Codex takes GW_API_KEY from ~/.codex/.env (28 chars, sha256:fbbb0b78), not from your shell (40 chars",
    ),
    silent("ENV018", {"shell_differs": True, "state": "blank"}),
    fires(
        "ENV019",
        {"state": "missing", "dotenv_bom": True},
        "~/.codex/.env begins with a byte-order mark",
        "GW_API_KEY is on its first line",
    ),
    silent("ENV019", {"state": "set", "dotenv_bom": True}),
    fires(
        "ENV020",
        {"state": "missing", "dotenv_unloaded": {"line": 3, "reason": "unterminated"}},
        "~/.codex/.env:3 is meant to set GW_API_KEY",
        "a quote opened there is never closed",
        "Close the quote opened on line 3",
    ),
    fires(
        "ENV020",
        {"state": "missing", "dotenv_unloaded": {"line": 2, "reason": "syntax"}},
        "an unquoted value ends at a space",
        "Every line of ~/.codex/.env must be NAME=value",
        why="syntax",
    ),
    silent("ENV020", {"state": "missing", "dotenv_unloaded": {"line": 3, "reason": "syntax"}, "dotenv_bom": True}),
    fires(
        "ENV021",
        {"dotenv_unset_refs": ["$Xy"], "dotenv_line": 4},
        "~/.codex/.env:4 sets GW_API_KEY to a value with $Xy in it",
        "sends the key without it (28 chars, sha256:fbbb0b78)",
        "GW_API_KEY='…'",
    ),
    fires(
        "ENV021",
        {"state": "blank", "dotenv_unset_refs": ["$K"], "dotenv_line": 1, "key_fingerprint": ABSENT},
        "(an empty value)",
        why="blank",
    ),
    silent("ENV021", {"state": "missing", "dotenv_unset_refs": ["$K"]}),
    fires(
        "ENV023",
        {"dotenv_capped": [{"name": f"A{n}", "line": n} for n in range(13, 18)]},
        "A13 (line 13), A14 (line 14), A15 (line 15) and 2 more",
        "line 13 of ~/.codex/.env",
    ),
    fires("ENV023", {"dotenv_stopped_at": 40}, "values past 40 lines", "line 40", why="stopped"),
    silent("ENV023", {"dotenv_capped": [], "dotenv_stopped_at": None}),
    # Stored logins and the OpenAI variables
    fires(
        "ENV011",
        {**OPENAI, "openai_api_key_env": True},
        "none was found in ~/.codex/auth.json",
        "printenv OPENAI_API_KEY | codex login --with-api-key",
    ),
    silent("ENV011", {**OPENAI, "openai_api_key_env": True, "logged_in": True}),
    silent("ENV011", {**OPENAI, "openai_api_key_env": True, "gateway_key": "[model_providers.gw]"}, why="ENV025"),
    fires("ENV012", OPENAI, "~/.codex/auth.json has none", "codex login"),
    silent("ENV012", {**OPENAI, "codex_api_key_env": True}, why="ENV022-says-it"),
    silent("ENV012", {"provider": "gw"}),
    fires(
        "ENV025",
        {**OPENAI, "gateway_key": "[model_providers.gw] (~/.codex/config.toml:4)", "openai_key_fp": "sha256:1a2b3c4d"},
        "$OPENAI_API_KEY (sha256:1a2b3c4d) is the key of [model_providers.gw]",
        "add a [model_providers.<name>] table",
    ),
    fires(
        "ENV025",
        {**OPENAI, "gateway_key": "[model_providers.gw]", "openai_key_fp": "x", "gateway_provider": "gw"},
        'set model_provider = "gw" at the top of config.toml',
        why="gateway-table-named",
    ),
    silent("ENV025", {**OPENAI, "gateway_key": "[model_providers.gw]", "logged_in": True}),
    fires(
        "ENV013",
        {"auth": LOGIN, "custom_without_env_key": True},
        "~/.codex/auth.json holds an OpenAI login",
        "[model_providers.gw]",
    ),
    silent("ENV013", {"auth": {**LOGIN, "error": "not JSON"}, "custom_without_env_key": True}, why="ENV014-says-it"),
    fires(
        "ENV014",
        {"auth": {"exists": True, "error": "Expecting value: line 1"}},
        "~/.codex/auth.json exists but is not valid JSON",
    ),
    silent("ENV014", {"auth": LOGIN}),
    fires(
        "ENV015",
        {"requires_openai_auth": True},
        "[model_providers.gw] sets requires_openai_auth = true",
        "~/.codex/auth.json is absent",
    ),
    silent("ENV015", {"requires_openai_auth": True, "auth": LOGIN}),
    fires(
        "ENV016",
        {**OPENAI, "env_differs_from_stored": True, "auth": LOGIN, "logged_in": True},
        "the key stored in ~/.codex/auth.json, not $OPENAI_API_KEY",
        "codex login --with-api-key",
    ),
    silent("ENV016", {**OPENAI, "env_differs_from_stored": True, "gateway_key": "[model_providers.gw]"}),
    silent("ENV016", {"env_differs_from_stored": False, **OPENAI, "logged_in": True}),
    fires(
        "ENV022",
        {**OPENAI, "codex_api_key_env": True},
        "There is no stored login in ~/.codex/auth.json, but $CODEX_API_KEY is set",
        "printenv CODEX_API_KEY | codex login --with-api-key",
    ),
    silent("ENV022", {**OPENAI, "codex_api_key_env": True, "logged_in": True}),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_env(case):
    check(case)
