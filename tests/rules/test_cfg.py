"""CFG: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent
from tests.rules.healthy import CONFIG


def config_file(path=CONFIG, kind="user", **extra):
    return {"kind": kind, "path": path, "exists": True, "encoding": "utf-8", "crlf": False, **extra}


def toml_error(line=3, column=12, message="invalid string", backslash=False):
    return {"message": message, "line": line, "column": column, "backslash_in_string": backslash}


PROJECT = "~/work/.codex/config.toml"


def _misplaced(key, value, top_level_set):
    """A top-level key written after [model_providers.gw] (line 4), on line 9 (cfg.keys' `misplaced`)."""
    return {
        "key": key,
        "table": "[model_providers.gw]",
        "suggestion": None,
        "where": f"{CONFIG}:9",
        "table_id": "gw",
        "table_where": f"{CONFIG}:4",
        "file": CONFIG,
        "value": value,
        "top_level_set": top_level_set,
    }


CASES = [
    fires("CFG001", {"user_missing": True}, "~/.codex/config.toml does not exist", "export MYGATEWAY_API_KEY="),
    silent("CFG001", {"user_missing": True, "provider_configured_elsewhere": True}, why="provider-set-elsewhere"),
    fires(
        "CFG002",
        {"files": [config_file(toml_error=toml_error())]},
        "~/.codex/config.toml:3:12: invalid string",
        "at line 3, column 12",
    ),
    fires("CFG002", {"files": [config_file(toml_error=toml_error(line=None, column=None))]}, "~/.codex/config.toml: "),
    fires(
        "CFG002",
        {"files": [config_file(toml_error=toml_error(message="Illegal character '\\n'", line=1, column=15))]},
        "~/.codex/config.toml:1:15: a string on line 1 is not closed: its closing quote is missing",
        why="unterminated-string",
    ),
    fires(
        "CFG002",
        {"files": [config_file(toml_error=toml_error(message="Cannot overwrite a value", line=4, column=4))]},
        "a key or [table] on line 4 appears a second time",
        why="duplicate-key",
    ),
    silent("CFG002", {"files": [config_file(read_error="permission denied")]}),
    fires(
        "CFG003", {"files": [config_file(read_error="permission denied")]}, "~/.codex/config.toml: permission denied"
    ),
    silent("CFG003", {"files": [config_file(), config_file(PROJECT, "project")]}),
    fires(
        "CFG004",
        {"defined": False, "provider": "taotokn", "did_you_mean": "taotoken", "available": ["openai", "taotoken"]},
        'model_provider = "taotokn"',
        "Did you mean `taotoken`?",
        'set model_provider = "taotoken"',
    ),
    fires(
        "CFG004",
        {"defined": False, "provider": "mine", "available": ["ollama", "openai"]},
        "add a [model_providers.mine] table to ~/.codex/config.toml",
        "one of: ollama, openai",
        why="no-close-name",
    ),
    silent("CFG004", {"provider": "mine", "available": ["ollama", "openai"]}),
    fires(
        "CFG005",
        {"redefined_builtins": [{"id": "openai", "where": f"{CONFIG}:3"}]},
        "[model_providers.openai] (~/.codex/config.toml:3)",
        "[model_providers.openai-custom]",
    ),
    fires(
        "CFG005",
        {"redefined_builtins": [{"id": "openai", "where": f"{CONFIG}:3"}, {"id": "ollama", "where": f"{CONFIG}:9"}]},
        "[model_providers.ollama]",
        count=2,
    ),
    silent("CFG005", {"redefined_builtins": []}),
    fires(
        "CFG029",
        {"bedrock_refused": [{"where": f"{CONFIG}:3", "keys": "`name`, `env_key`"}]},
        "[model_providers.amazon-bedrock] (~/.codex/config.toml:3) sets `name`, `env_key`",
        "Remove `name`, `env_key` from the table in ~/.codex/config.toml:3.",
    ),
    silent("CFG029", {"bedrock_refused": []}),
    fires(
        "CFG006",
        {"missing_base_url": True, "base_url_alias": "baseURL"},
        "[model_providers.gw] (~/.codex/config.toml:4) has no base_url",
        "Rename `baseURL` to base_url",
    ),
    fires("CFG006", {"missing_base_url": True}, 'Add base_url = "https://<your provider>/…"', why="no-alias"),
    silent("CFG006", {"missing_base_url": False, "base_url_alias": "baseURL"}),
    fires("CFG007", {"missing_model": True}, "to `gw`", "at the top of ~/.codex/config.toml"),
    silent("CFG007", {"missing_model": False}),
    fires("CFG028", {"empty_model": True, "model_where": f"{CONFIG}:1"}, 'model = "" (~/.codex/config.toml:1)'),
    silent("CFG028", {"empty_model": False, "model_where": f"{CONFIG}:1"}),
    fires(
        "MODEL006",
        {"model_placeholder": "YOUR_MODEL_ID", "model": "YOUR_MODEL_ID", "model_where": f"{CONFIG}:1"},
        'model = "YOUR_MODEL_ID" in ~/.codex/config.toml:1 is a guide\'s placeholder',
        "Put a model ID your provider serves in ~/.codex/config.toml:1",
    ),
    silent("MODEL006", {"missing_model": False}),
    fires(
        "CFG008",
        {
            "unknown": [
                {"key": "baseURL", "table": "[model_providers.gw]", "suggestion": "base_url", "where": f"{CONFIG}:5"}
            ]
        },
        "`baseURL` in [model_providers.gw] (~/.codex/config.toml:5)",
        "Did you mean `base_url`?",
        "rename `baseURL` to the key Codex reads (`base_url`)",
    ),
    fires(
        "CFG008",
        {"unknown": [{"key": "colour", "table": "(top level)", "suggestion": None, "where": f"{CONFIG}:2"}]},
        "`colour` in (top level)",
        why="no-suggestion",
    ),
    fires(
        "CFG008",
        {
            "unknown": [
                {
                    "key": "model",
                    "table": "[model_providers.gw]",
                    "suggestion": "model (top level or in a profile, not in the provider table)",
                    "where": f"{CONFIG}:5",
                }
            ]
        },
        "Did you mean `model (top level or in a profile, not in the provider table)`?",
        why="model-in-the-provider-table",
    ),
    silent("CFG008", {"unknown": []}),
    fires(
        "CFG030",
        {"misplaced": [_misplaced("model_provider", "gw", top_level_set=False)]},
        '`model_provider = "gw"` (~/.codex/config.toml:9) comes after the [model_providers.gw] header '
        "(~/.codex/config.toml:4)",
        "Codex uses the built-in `openai` provider",
        'Move the line `model_provider = "gw"` from ~/.codex/config.toml:9 to the top level of ~/.codex/config.toml: '
        "above the first [table] header",
    ),
    silent("CFG030", {"misplaced": [_misplaced("model_provider", "gw", top_level_set=True)]}, why="set-at-the-top"),
    silent("CFG030", {"misplaced": [_misplaced("model_context_window", 16000, top_level_set=False)]}),
    fires(
        "CFG031",
        {"misplaced": [_misplaced("model_context_window", 16000, top_level_set=False)]},
        "`model_context_window = 16000` (~/.codex/config.toml:9) comes after the [model_providers.gw] header",
        "The setting has no effect.",
        "Move `model_context_window` from ~/.codex/config.toml:9 to the top level of ~/.codex/config.toml",
    ),
    fires(
        "CFG031",
        {"misplaced": [_misplaced("model_provider", "gw", top_level_set=True)]},
        "Codex takes model_provider from elsewhere",
        why="model-provider-also-at-the-top",
    ),
    silent("CFG031", {"misplaced": [_misplaced("model_provider", "gw", top_level_set=False)]}),
    fires(
        "CFG009",
        {"project_provider_keys": [{"key": "model_provider", "where": f"{PROJECT}:1"}]},
        "`model_provider` (~/work/.codex/config.toml:1)",
        "into ~/.codex/config.toml",
    ),
    silent("CFG009", {"project_provider_keys": []}),
    fires(
        "CFG010",
        {"selected": "work", "ignored_keys": [{"key": "model_providers", "where": "~/.codex/work.config.toml:4"}]},
        "inside profile `work`",
        "out of [profiles.work]",
    ),
    silent("CFG010", {"selected": "work", "ignored_keys": []}),
    fires("CFG011", {"wire_api": "chat"}, 'sets wire_api = "chat" (~/.codex/config.toml:8)', "Codex 0.171.0"),
    fires("CFG011", {"wire_api": "chat", "chat_rejected": True, "codex_version": None}, "version unknown"),
    silent("CFG011", {"wire_api": "chat", "chat_rejected": False}, why="an-older-codex-accepts-it"),
    fires(
        "CFG012", {"wire_api": "chat", "chat_rejected": False, "codex_version": "0.96.0"}, "Codex 0.96.0 still accepts"
    ),
    silent("CFG012", {"wire_api": "chat", "chat_rejected": True}),
    fires("CFG013", {"problem": "missing", "codex_home": "~/codex-home"}, "CODEX_HOME is ~/codex-home", "mkdir -p"),
    fires(
        "CFG013",
        {"problem": "missing", "codex_home": "~/codex", "literal_tilde": True, "expanded": "/home/me/codex"},
        "kept literally",
        "export CODEX_HOME=/home/me/codex",
        why="literal-tilde",
    ),
    silent("CFG013", {"problem": "not_dir"}),
    fires(
        "CFG014", {"problem": "not_dir", "codex_home": "~/codex-home"}, "CODEX_HOME is ~/codex-home, which is a file"
    ),
    silent("CFG014", {"problem": "missing"}),
    fires(
        "CFG015",
        {"missing": True, "selected": "work", "origin": "--profile", "available": ["home", "ci"]},
        "Profile `work` is selected (--profile)",
        "Defined profiles: home, ci.",
    ),
    fires(
        "CFG015", {"missing": True, "selected": "work", "origin": "--profile"}, "Defined profiles: none.", why="none"
    ),
    silent("CFG015", {"missing": False, "selected": "work", "origin": "--profile"}),
    fires(
        "CFG016",
        {
            "wrong_types": [
                {
                    "key": "model_context_window",
                    "kind": "i64",
                    "expected": "an integer",
                    "got": 'string "128k"',  # serde's words, as checks/cfgtypes.py writes them
                    "where": f"{CONFIG}:3",
                    "codex_says": "invalid type: string, expected i64",
                }
            ]
        },
        '`model_context_window` (~/.codex/config.toml:3) is string "128k"',
        "Codex expects a whole number",
        "model_context_window = 128000 (no quotes)",
    ),
    silent("CFG016", {"wrong_types": []}),
    fires("CFG017", {"wire_api_invalid": "response"}, 'wire_api = "response" (~/.codex/config.toml:8)'),
    silent("CFG017", {"wire_api_invalid": ""}),
    fires("CFG018", {"files": [config_file(encoding="utf-8-sig")]}, "~/.codex/config.toml starts with a UTF-8"),
    silent("CFG018", {"files": [config_file(encoding="utf-8-sig", toml_error=toml_error())]}, why="unparsed"),
    fires(
        "CFG019",
        {"windows_configs": ["/mnt/c/Users/me/.codex/config.toml"]},
        "Windows also has /mnt/c/Users/me/.codex/config.toml",
    ),
    silent("CFG019", {"windows_configs": []}),
    fires("CFG020", {"files": [config_file(crlf=True)]}, "~/.codex/config.toml has CRLF"),
    silent("CFG020", {"files": [config_file(crlf=True, toml_error=toml_error())]}, why="unparsed"),
    fires(
        "CFG021",
        {"files": [config_file(toml_error=toml_error(line=4, message="invalid escape", backslash=True))]},
        "~/.codex/config.toml:4 has a backslash",
        "on line 4 of ~/.codex/config.toml",
    ),
    silent("CFG021", {"files": [config_file(toml_error=toml_error(line=4))]}),
    fires(
        "CFG022",
        {"legacy_selectors": [{"value": "big", "where": f"{CONFIG}:2"}]},
        '`profile = "big"` (~/.codex/config.toml:2)',
        "~/.codex/big.config.toml",
        "codex --profile big",
    ),
    silent("CFG022", {"legacy_selectors": []}),
    fires(
        "CFG023",
        {"conflict": True, "selected": "big", "profile_file": "~/.codex/big.config.toml"},
        "--profile big is given while ~/.codex/config.toml still has [profiles.big]",
        "top level of ~/.codex/big.config.toml",
    ),
    silent("CFG023", {"conflict": False, "selected": "big"}),
    fires(
        "CFG024",
        {"file_missing": True, "selected": "big", "profile_file": "~/.codex/big.config.toml", "available": ["ci"]},
        "--profile big reads ~/.codex/big.config.toml, which does not exist",
        "Profile files found: ci.",
    ),
    silent("CFG024", {"file_missing": True, "conflict": True, "selected": "big"}, why="the-conflict-says-it"),
    fires(
        "CFG025",
        {"legacy_tables": [{"name": "work", "where": f"{CONFIG}:12"}]},
        "[profiles.work] (~/.codex/config.toml:12)",
        "~/.codex/work.config.toml",
    ),
    silent(
        "CFG025",
        {"legacy_tables": [{"name": "work", "where": f"{CONFIG}:12"}], "conflict": True},
        why="the-conflict-says-it",
    ),
    fires(
        "CFG026", {"missing_name": True}, "[model_providers.gw] (~/.codex/config.toml:4) has no `name`", 'name = "gw"'
    ),
    silent("CFG026", {"missing_name": False}),
    fires(
        "CFG027",
        {"untrusted": [config_file(PROJECT, "project", ignored="untrusted", keys=["model", "model_provider"])]},
        "~/work/.codex/config.toml sets model, model_provider",
        "(here: not trusted)",
        '[projects."~/work"]',
        unfilled=("user_config",),  # KNOWN_GAPS
    ),
    fires(
        "CFG027",
        {"untrusted": [config_file(PROJECT, "project", ignored="marked", keys=[])]},
        "sets nothing",
        "(here: marked untrusted)",
        why="marked-untrusted",
        unfilled=("user_config",),  # KNOWN_GAPS
    ),
    silent("CFG027", {"untrusted": []}),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_cfg(case):
    check(case)
