"""An OpenAI-compatible chat endpoint on 127.0.0.1 that answers from a function: scripted models
for the command line (``--model openai-api/scripted/<name>``), as a served local model is used.

    with ScriptedServer(reply) as server:
        env = server.environment()  # SCRIPTED_BASE_URL, SCRIPTED_API_KEY for Inspect
        subprocess.run(["inspect", "eval-set", ..., "--model", "openai-api/scripted/model-a"],
                       env=os.environ | env)

``reply(model, prompt)`` returns the completion's text, or ``None`` for an outage: the connection
is closed without an answer, as a provider that went away mid-run would. Every request body is
kept, in arrival order, in ``bodies``: what a provider receives on the wire.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

SERVICE = "scripted"
"""Inspect's ``openai-api/<service>/<model>`` service: it reads ``SCRIPTED_BASE_URL``."""

Reply = Callable[[str, str], str | None]


class ScriptedServer:
    """Serves ``POST /v1/chat/completions`` from ``reply`` in a thread, until closed."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        handler = _handler(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def environment(self) -> dict[str, str]:
        """What Inspect's ``openai-api/scripted/…`` provider needs to reach this server."""
        return {f"{SERVICE.upper()}_BASE_URL": self.base_url, f"{SERVICE.upper()}_API_KEY": "-"}

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def _handler(owner: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            owner.requests += 1
            owner.bodies.append(body)
            model = str(body.get("model", ""))
            text = owner.reply(model, _last_user_text(body.get("messages", [])))
            if text is None:
                self.close_connection = True  # no answer at all: the client sees a dropped line
                return
            payload = json.dumps(_completion(model, text)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the runs print their own progress

    return Handler


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "".join(part.get("text", "") for part in content or [] if isinstance(part, dict))
    return ""


def _completion(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }
