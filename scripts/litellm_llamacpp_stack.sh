#!/usr/bin/env bash
# A real LiteLLM proxy in front of a real llama.cpp server with a small window, then `codexdoctor check` and the
# real Codex CLI against it with the same CODEX_HOME. Everything runs on 127.0.0.1; run it inside
# ../shared/tools/in-netns (Codex and LiteLLM also try outside hosts). Recipe and results: docs/litellm-llamacpp.md
#   STACK_VENV=/tmp/gw LLAMA_SERVER=/path/to/llama-server N_CTX=8192 ../shared/tools/in-netns scripts/litellm_llamacpp_stack.sh
set -u
VENV=${STACK_VENV:?set STACK_VENV to the venv with litellm[proxy] and gguf}
LLAMA_SERVER=${LLAMA_SERVER:?set LLAMA_SERVER to a built llama-server binary}
WORK=$(mktemp -d)
KEY=sk-litellm-master-0123456789
"$VENV/bin/python" "$(dirname "$0")/make_tiny_gguf.py" "$WORK/tiny.gguf"
cat > "$WORK/litellm.yaml" <<YAML
model_list:
  - model_name: tiny-coder
    litellm_params:
      model: openai/tiny
      use_chat_completions_api: true   # bridge /responses to llama.cpp's /chat/completions
      api_base: http://127.0.0.1:8081/v1
      api_key: none
general_settings:
  master_key: $KEY
YAML
"$LLAMA_SERVER" -m "$WORK/tiny.gguf" -a tiny -c "${N_CTX:-8192}" --host 127.0.0.1 --port 8081 -np 1 > "$WORK/llama.log" 2>&1 &
LITELLM_LOCAL_MODEL_COST_MAP=True "$VENV/bin/litellm" ${LITELLM_ARGS:-} --config "$WORK/litellm.yaml" --host 127.0.0.1 --port 4000 > "$WORK/litellm.log" 2>&1 &
trap 'kill $(jobs -p) 2>/dev/null' EXIT
for _ in $(seq 1 90); do
  curl -sf -o /dev/null -H "Authorization: Bearer $KEY" http://127.0.0.1:4000/v1/models && break
  sleep 1
done
mkdir -p "$WORK/home"
cat > "$WORK/home/config.toml" <<TOML
model = "tiny-coder"
model_provider = "litellm"
[model_providers.litellm]
name = "LiteLLM"
base_url = "http://127.0.0.1:4000/v1"
env_key = "LITELLM_KEY"
TOML
export LITELLM_KEY=$KEY CODEX_HOME="$WORK/home"
echo "=== codexdoctor check (window ${N_CTX:-8192})"
HOME="$WORK" codexdoctor check --codex-version 0.171.0 ${CHECK_ARGS:-}
echo "=== codexdoctor report (request ids as LiteLLM answered them)"
HOME="$WORK" codexdoctor report --codex-version 0.171.0 -o "$WORK/ticket.md" && grep -a "request id\|req\|litellm" "$WORK/ticket.md" | head -8
grep -ao "litellm_call_id[^,]*" "$WORK/litellm.log" | head -4
echo "=== real codex exec"
CODEX=$(cd "$(dirname "$0")/../../shared/tools" && pwd)/real-codex
(cd "$WORK/home" && timeout 120 "$CODEX" exec --skip-git-repo-check "say hi" > "$WORK/codex.out" 2>&1)
status=$?
grep -avE "bubblewrap|PATH aliases" "$WORK/codex.out" | tail -4 | cut -c1-300
echo "codex exit: $status"
