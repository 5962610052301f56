"""MODEL: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent

NOT_FOUND = {"kind": "model_not_found", "status": 404, "message": "The model `gw-coder-2025-01-01` does not exist"}

CASES = [
    fires(
        "MODEL001",
        {**NOT_FOUND, "model": "gw-coder-2025-01-01", "catalog_closest": ["gw-coder"]},
        'model = "gw-coder-2025-01-01" (~/.codex/config.toml:1): The model `gw-coder-2025-01-01` does not exist.',
        "Closest IDs in the catalog: gw-coder.",
        'The catalog lists "gw-coder" without the suffix "-2025-01-01"',
    ),
    fires(
        "MODEL001",
        {**NOT_FOUND, "message": "no available channel for model gw-coder under group default"},
        "The gateway has no channel for model",
        why="one-api-no-channel",
    ),
    fires(
        "MODEL001",
        {
            "kind": "path_not_found",
            "model_not_found_at": {
                "url": "https://gw.example/api/responses",
                "status": 404,
                "message": "unknown model",
            },
        },
        "https://gw.example/api/responses answered 404: unknown model",
        why="found-at-the-working-variant",
    ),
    fires(
        "MODEL001",
        {**NOT_FOUND, "pasted_model": "gpt-5"},
        'The error names `gpt-5`, but your config says model = "gw-coder"',
        why="pasted-another-model",
    ),
    silent("MODEL001", {"kind": "deployment_not_found"}),
    fires(
        "MODEL002",
        {"match": "case", "closest": ["GW-Coder"], "canary_kind": "model_not_found"},
        'model = "gw-coder" is in the catalog as "GW-Coder" (case mismatch)',
        'set model = "GW-Coder"',
    ),
    fires(
        "MODEL002",
        {"match": "dated", "closest": ["gw-coder-2025-01-01"], "canary_kind": "model_not_found"},
        "(date or version suffix mismatch)",
        why="dated",
    ),
    silent("MODEL002", {"match": "case", "closest": ["GW-Coder"], "canary_kind": "ok"}, why="the-canary-worked"),
    fires(
        "MODEL003",
        {"kind": "deployment_not_found", "status": 404, "model": "gpt-4o"},
        'Azure answered DeploymentNotFound for model = "gpt-4o"',
        "in ~/.codex/config.toml:1",
    ),
    silent("MODEL003", {"kind": "model_not_found"}),
    fires(
        "MODEL004",
        {"match": "missing", "model": "coder", "count": 2, "canary_kind": "ok"},
        'model = "coder" is not in the catalog (2 models), yet the canary succeeded',
    ),
    silent("MODEL004", {"match": "missing", "canary_kind": "model_not_found"}),
    fires(
        "MODEL005",
        {"match": "missing", "model": "gw-codr", "closest": ["gw-coder"], "canary_ran": False, "canary_kind": None},
        'model = "gw-codr" is not among the 2 models the provider lists. Closest: gw-coder.',
        "into ~/.codex/config.toml:1",
    ),
    silent("MODEL005", {"match": "missing", "canary_ran": True}, why="the-canary-tested-it"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_model(case):
    check(case)
