"""The new user of tests/integration/test_new_user.py, with the real Codex CLI after every round of remedies.

Start from the seed guide's mistakes (base_url with /v1 and ?utm_, wire_api = "chat", a model ID with a date
suffix, the key in another variable with a `Bearer ` prefix), run `codexdoctor check`, run real `codex exec`, apply
the first step of every error finding verbatim, and repeat. codexdoctor's verdict must match what Codex does:
Codex fails in every round codexdoctor says it will, and answers in the round codexdoctor says ok.

Usage (only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_new_user.py [CODEX_BINARY]
Results are recorded in docs/codex-behaviour.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from codexdoctor import sim  # noqa: E402
from codexdoctor.commands.check import run_check  # noqa: E402 - after the sys.path line above
from codexdoctor.commands.options import CheckOptions  # noqa: E402
from codexdoctor.model import Severity, Verdict  # noqa: E402
from tests.integration.test_new_user import KEY, apply_command, apply_edit  # noqa: E402

CODEX = sys.argv[1] if len(sys.argv) > 1 else str(ROOT.parents[0] / "shared" / "tools" / "real-codex")


def codex_exec(home: Path, env: dict[str, str]) -> tuple[object, str]:
    run_env = {
        **env,
        "CODEX_HOME": str(home / ".codex"),
        "CODEX_CLI_CACHE": os.environ.get(
            "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
        ),
    }
    try:
        proc = subprocess.run(
            [CODEX, "exec", "--skip-git-repo-check", "say hi"],
            env=run_env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            cwd=home,
        )
        text = proc.stdout + proc.stderr
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        last = next(
            (line for line in reversed(lines) if "rror" in line or "not supported" in line), lines[-1] if lines else ""
        )
        return proc.returncode, last[:150]
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main() -> int:
    with sim.start(api_key=KEY, prefix="/api", models=("sim-coder-plus", "sim-max")) as server:
        home = Path(tempfile.mkdtemp(prefix="cdx-newuser-"))
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text(
            f'model = "sim-coder-plus-20250101"\nmodel_provider = "taotoken"\n\n[model_providers.taotoken]\n'
            f'name = "TaoToken"\nbase_url = "{server.url}/api/v1?utm_source=guide"\nenv_key = "TAOTOKEN_API_KEY"\n'
            f'wire_api = "chat"\n'
        )
        env = {"HOME": str(home), "PATH": os.environ["PATH"], "TAOTOKEN_KEY": f"Bearer {KEY}"}
        print(f"{'round':6} {'codexdoctor':34} real codex")
        agree = True
        for round_no in range(1, 8):
            report, _ = run_check(
                CheckOptions(
                    env=dict(env), home=home, cwd=home, system_config=None, codex_version=(0, 171, 0), timeout=10
                )
            )
            errors = [f for f in report.findings if f.severity is Severity.ERROR]
            code, last = codex_exec(home, env)
            said = f"{report.verdict.value} {','.join(f.code for f in errors)}"
            print(f"{round_no:<6} {said:34} exit {code}: {last}")
            agree &= (code == 0) == (report.verdict is Verdict.OK)
            if report.verdict is Verdict.OK:
                break
            for f in errors:
                if not (apply_edit(home, f.remedy[0]) or apply_command(env, f.remedy[0])):
                    print(f"  cannot apply {f.code} verbatim: {f.remedy[0]}")
                    return 1
        print("codexdoctor and Codex agree in every round" if agree else "DISAGREEMENT")
        return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
