"""GET and HEAD: the landing page, /models (with the window when published) and llama.cpp's /props."""

from __future__ import annotations

from typing import Any

from codexdoctor.sim.errors import LANDING
from codexdoctor.sim.faults import Faults


class CatalogRoutes(Faults):
    """The read-only routes."""

    def do_HEAD(self) -> None:
        rec = self._record()
        rec.status = 200 if self.cfg.landing_page else 404
        self.send_response(rec.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        rec = self._record()
        if self._common(rec):
            return
        path = self.path.split("?", 1)[0]
        if path in ("/", "") and self.cfg.landing_page:
            return self._send_html(rec, 200, LANDING, "landing")
        if path == "/props" and self.cfg.publish_window:
            return self._send_json(rec, 200, self._props(), "props")
        route = self._route()
        if route == "/models" and self.cfg.models_route:
            if not self.cfg.models_unauthenticated and not self._authorized(rec):
                return
            return self._send_json(rec, 200, self._models(), "models")
        if route == "/props" and self.cfg.publish_window:
            return self._send_json(rec, 200, self._props(), "props")
        if self.cfg.landing_page:
            return self._send_html(rec, 404, LANDING.replace("Sign up", "Page not found. Sign up"), "not_found")
        self._send_json(
            rec, 404, {"error": {"message": f"Not Found: {path}", "type": "not_found", "code": None}}, "not_found"
        )

    def _models(self) -> dict[str, Any]:
        data = []
        for mid in self.cfg.models:
            # Real servers say who they are here: vLLM owned_by "vllm", llama.cpp "llamacpp", Ollama "library".
            owner = {"vllm": "vllm", "llamacpp": "llamacpp", "ollama": "library"}.get(
                self.cfg.error_style, "codexdoctor-sim"
            )
            entry: dict[str, Any] = {"id": mid, "object": "model", "created": 1700000000, "owned_by": owner}
            if self.cfg.publish_window and self.cfg.context_window:
                entry["max_model_len"] = self.cfg.context_window
            data.append(entry)
        return {"object": "list", "data": data}

    def _props(self) -> dict[str, Any]:
        return {
            "default_generation_settings": {"n_ctx": self.cfg.context_window},
            "n_ctx": self.cfg.context_window,
            "total_slots": 1,
        }
