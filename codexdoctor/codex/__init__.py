"""What we know about Codex: config resolution, TOML source, .env, auth file, version, first request, rollouts, secrets."""
