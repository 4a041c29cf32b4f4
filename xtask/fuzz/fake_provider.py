#!/usr/bin/env python3
"""A fake OpenAI-compatible chat-completions provider for `cargo xtask fuzz-api`.

Standard library only. `POST /v1/chat/completions` answers at once with a short assistant message:
one JSON object (with `usage`) or, when the request says `"stream": true`, server-sent events
(`data: {chunk}` pieces, a final chunk carrying `usage` and `data: [DONE]`). Anything else is 404.

That is the default mode, `ok`. `cargo xtask soak` switches it to misbehave with
`POST /_fake/mode` and a body `{"mode": NAME, "seconds": S}` (`seconds` optional):

- `error`: refuses every call, in turn 500, 429 (with `Retry-After`) and 503, with OpenAI's error body;
- `hang`: reads the request, then says nothing for `seconds` (default 75, past wort's 60 s timeout)
  before answering as `ok` would;
- `slow`: waits `seconds` (default 2) before the headers and again before each streamed event (a
  non-streamed answer waits `seconds` per piece);
- `broken`: answers 200 with a body cut short (half a JSON object, or a stream without its end);
- `ok`: back to normal.

Usage: fake_provider.py PORT_FILE
Binds 127.0.0.1 on a port the kernel picks and writes that port to PORT_FILE once it listens.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL_SUFFIX = "-served"
PIECES = ["A clean, ", "balanced ", "beer."]
USAGE = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
MODES = {"ok": 0.0, "error": 0.0, "hang": 75.0, "slow": 2.0, "broken": 0.0}


class Mode:
    """The current mode, shared by the handler threads."""

    lock = threading.Lock()
    name = "ok"
    seconds = 0.0
    calls = 0

    @classmethod
    def set(cls, name, seconds):
        with cls.lock:
            cls.name = name
            cls.seconds = MODES[name] if seconds is None else float(seconds)

    @classmethod
    def take(cls):
        """The mode for one call, and how many calls came before it."""
        with cls.lock:
            cls.calls += 1
            return cls.name, cls.seconds, cls.calls


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: wort logs the calls it makes

    def _send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):  # noqa: N802 - the base class's name
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        if self.path.rstrip("/") == "/_fake/mode":
            self._switch(raw)
            return
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        try:
            request = json.loads(raw or b"{}")
        except ValueError:
            self._send_json(400, {"error": {"message": "bad json", "type": "invalid_request_error"}})
            return
        model = str(request.get("model", "fake")) + MODEL_SUFFIX
        mode, seconds, calls = Mode.take()
        try:
            if mode == "error":
                self._refuse(calls)
                return
            if mode == "hang":
                time.sleep(seconds)
            self._answer(request, model, mode, seconds)
        except (BrokenPipeError, ConnectionResetError):
            pass  # wort gave up first: that was the point

    def _switch(self, raw):
        try:
            body = json.loads(raw or b"{}")
            name = body["mode"]
            if name not in MODES:
                raise ValueError(name)
            Mode.set(name, body.get("seconds"))
        except (ValueError, KeyError, TypeError):
            self._send_json(400, {"error": {"message": "modes: " + ", ".join(MODES)}})
            return
        self._send_json(200, {"mode": Mode.name, "seconds": Mode.seconds})

    def _refuse(self, calls):
        status = [500, 429, 503][calls % 3]
        data = json.dumps(
            {"error": {"message": "the fake provider refuses", "type": "server_error", "code": None}}
        ).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status == 429:
            self.send_header("Retry-After", "1")
        self.end_headers()
        self.wfile.write(data)

    def _answer(self, request, model, mode, seconds):
        slow = seconds if mode == "slow" else 0.0
        if request.get("stream") is not True:
            time.sleep(slow * len(PIECES))
            if mode == "broken":
                data = b'{"id": "chatcmpl-fuzz", "object": "chat.completion", "choi'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data) * 2))
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True
                return
            self._send_json(
                200,
                {
                    "id": "chatcmpl-fuzz",
                    "object": "chat.completion",
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "".join(PIECES)},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": USAGE,
                },
            )
            return

        def chunk(choices, usage=None):
            body = {
                "id": "chatcmpl-fuzz",
                "object": "chat.completion.chunk",
                "model": model,
                "choices": choices,
                "usage": usage,
            }
            return ("data: " + json.dumps(body) + "\n\n").encode()

        events = [chunk([{"index": 0, "delta": {"role": "assistant", "content": ""}}])]
        events += [chunk([{"index": 0, "delta": {"content": p}}]) for p in PIECES]
        events.append(chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}]))
        events.append(chunk([], USAGE))
        events.append(b"data: [DONE]\n\n")
        if mode == "slow":
            time.sleep(slow)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()
            for event in events:
                time.sleep(slow)
                self.wfile.write(event)
                self.wfile.flush()
            self.close_connection = True
            return
        if mode == "broken":
            events = events[:2]  # a piece, then the stream ends: no finish, no usage, no [DONE]
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"".join(events) + b"data: {\"id\": \"chatcmpl-fu")
            self.wfile.flush()
            self.close_connection = True
            return
        data = b"".join(events)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802 - the base class's name
        self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})


def main():
    if len(sys.argv) != 2:
        print("usage: fake_provider.py PORT_FILE", file=sys.stderr)
        return 2
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port_file = sys.argv[1]
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
