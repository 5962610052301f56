#!/usr/bin/env bash
# Seed-style config (wire_api = "chat", baseURL with /v1 and ?utm_source=...) against the simulator:
# real Codex rejects it, `codexdoctor fix --yes` repairs it, real Codex then gets a streamed answer.
# Then the seed guide's setup (issue 28), below.
# Run inside a loopback-only namespace:  ../shared/tools/in-netns bash scripts/verify_fix_with_real_codex.sh
set -u
PY=${PY:-python3}
CODEX=${CODEX:-$(cd "$(dirname "$0")/../.." && pwd)/shared/tools/real-codex}
export CODEX_CLI_CACHE=${CODEX_CLI_CACHE:-$HOME/.cache/codexdoctor-dev/codex-cli}
work=$(mktemp -d); export CODEX_HOME=$work/codex; mkdir -p "$CODEX_HOME"
$PY -m codexdoctor sim --port 18977 --api-key sk-sim-fix-0123456789 > "$work/sim.log" 2>&1 &
sim=$!; sleep 1.5
cat > "$CODEX_HOME/config.toml" <<'TOML'
# following the gateway's blog post
model = "sim-model"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
baseURL = "http://127.0.0.1:18977/v1?utm_source=taotoken_aicg_blog_end"   # copied from the site
env_key = "TAOTOKEN_API_KEY"
wire_api = "chat"
TOML
export TAOTOKEN_API_KEY=sk-sim-fix-0123456789
echo "== real Codex before the fix"; timeout 60 "$CODEX" exec --skip-git-repo-check "say hi" 2>&1 | tail -4
echo "== codexdoctor fix --yes"; HOME=$work $PY -m codexdoctor fix --yes --codex-version 0.171.0; echo "fix exit: $?"
echo "== config after the fix"; cat "$CODEX_HOME/config.toml"
echo "== real Codex after the fix"; timeout 60 "$CODEX" exec --skip-git-repo-check "say hi" 2>&1 | tail -3; echo "codex exit: ${PIPESTATUS[0]}"
kill $sim

# ---- Issue 28: the seed guide's setup -----------------------------------------------------------------------------
# No /v1 where the gateway needs it, the key in ~/.bashrc without `export`, a dated model ID, wire_api = "chat".
# One `codexdoctor check` must name every problem; one `fix --yes` plus the shell step it prints must give a config
# that real Codex accepts.
work=$(mktemp -d); export CODEX_HOME=$work/codex; mkdir -p "$CODEX_HOME"
unset TAOTOKEN_API_KEY
$PY -m codexdoctor sim --port 18978 --api-key sk-sim-seed-0123456789 --model sim-model > "$work/sim.log" 2>&1 &
sim=$!; sleep 1.5
cat > "$CODEX_HOME/config.toml" <<'TOML'
model = "sim-model-2025-11-13"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
base_url = "http://127.0.0.1:18978"
env_key = "TAOTOKEN_API_KEY"
wire_api = "chat"
TOML
printf '# my gateway key\nTAOTOKEN_API_KEY=sk-sim-seed-0123456789\n' > "$work/.bashrc"
in_new_terminal() { HOME=$work bash --rcfile "$work/.bashrc" -ic "$*" 2>&1; }
echo "== [seed] real Codex before"; in_new_terminal "timeout 60 '$CODEX' exec --skip-git-repo-check 'say hi'" | tail -2
echo "== [seed] one codexdoctor check"; HOME=$work $PY -m codexdoctor check --codex-version 0.171.0 | sed -n '/^Findings:/,$p'
echo "== [seed] codexdoctor fix --yes"; HOME=$work $PY -m codexdoctor fix --yes --codex-version 0.171.0 | tee "$work/fix.out"
echo "fix exit: ${PIPESTATUS[0]}"
echo "== [seed] the shell step fix printed, made as it says"
sed -i 's/^TAOTOKEN_API_KEY=/export TAOTOKEN_API_KEY=/' "$work/.bashrc"; cat "$work/.bashrc"
echo "== [seed] config after the fix"; cat "$CODEX_HOME/config.toml"
echo "== [seed] real Codex in a new terminal"
in_new_terminal "timeout 60 '$CODEX' exec --skip-git-repo-check 'say hi'" | tail -3; echo "codex exit: ${PIPESTATUS[0]}"
kill $sim
