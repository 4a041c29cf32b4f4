#!/usr/bin/env python3
"""A fake OpenAI-compatible chat-completions provider for `cargo xtask fuzz-api`.

Standard library only. `POST /v1/chat/completions` answers at once with a short assistant message:
one JSON object (with `usage`) or, when the request says `"stream": true`, server-sent events
(`data: {chunk}` pieces, a final chunk carrying `usage` and `data: [DONE]`). Anything else is 404.

Usage: fake_provider.py PORT_FILE
Binds 127.0.0.1 on a port the kernel picks and writes that port to PORT_FILE once it listens.
"""

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL_SUFFIX = "-served"
PIECES = ["A clean, ", "balanced ", "beer."]
USAGE = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}


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
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        try:
            request = json.loads(raw or b"{}")
        except ValueError:
            self._send_json(400, {"error": {"message": "bad json", "type": "invalid_request_error"}})
            return
        model = str(request.get("model", "fake")) + MODEL_SUFFIX
        if request.get("stream") is not True:
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
