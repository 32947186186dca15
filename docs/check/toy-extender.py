#!/usr/bin/env python3
"""The toy extender of docs/configuration.md: its filter rejects gpu-0 and gpu-1.

Usage: toy-extender.py PORT  (listens on 127.0.0.1; serves POST /scheduler/filter with
nodeCacheCapable arguments, i.e. node names)
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

RESERVED = {"gpu-0", "gpu-1"}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        args = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        names = args.get("nodenames") or args.get("NodeNames") or []
        body = json.dumps({
            "nodenames": [n for n in names if n not in RESERVED],
            "failedNodes": {n: "reserved for maintenance" for n in names if n in RESERVED},
            "error": "",
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
