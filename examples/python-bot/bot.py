#!/usr/bin/env python3
"""A small external Catan bot that plays over the server's public protocol.

It joins a seat like a person (HTTP), opens the game's WebSocket, and on
every `snapshot` or `update` that leaves it something to do, picks one of the
legal actions the server listed and sends it with the version it saw. A
refusal for a stale version is simply retried at the next update, as
docs/PROTOCOL.md asks of every client.

Standard library only (the WebSocket client below is the protocol's bare
minimum: text frames, ping/pong, close). See docs/BOTS.md.

    python3 bot.py --server http://127.0.0.1:8080 --lobby LOBBY_ID
    python3 bot.py --server http://127.0.0.1:8080 --create --bots 2 --vp-target 5
"""

import argparse
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request

# The bot's whole strategy: the first legal action of the most wanted kind.
PREFERENCE = [
    "build_city",
    "build_settlement",
    "roll_dice",
    "play_knight",
    "buy_development_card",
    "build_road",
    "move_robber",
    "discard",
    "decline_trade",
    "end_turn",
]


def choose(legal, view, me):
    """One of `legal`: builds first, then the turn's routine; never trades."""
    by_kind = {}
    for action in legal:
        by_kind.setdefault(action["type"], []).append(action)
    roads = len(view["players"][me]["roads"]) if view else 0
    for kind in PREFERENCE:
        if kind == "build_road" and view and view["phase"] != "opening" and roads >= 8:
            continue  # enough roads: save cards for buildings
        if kind in by_kind:
            return by_kind[kind][0]
    return legal[0]


def http(server, method, path, body=None, token=None):
    """A JSON request; returns the decoded answer (raises on an HTTP error)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read() or b"null")


class WebSocket:
    """A minimal RFC 6455 client: enough for this protocol's text messages."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((u.hostname, u.port or 80), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def _read(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise ConnectionError("socket closed")
            out += chunk
        return out

    def _frame(self, opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def send(self, message):
        self._frame(0x1, json.dumps(message).encode())

    def recv(self):
        """The next text message, decoded; None once the server closed."""
        data = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            if opcode == 0x9:  # ping: answer it, or the server closes us
                self._frame(0xA, payload)
            elif opcode == 0x8:
                return None
            elif opcode in (0x0, 0x1):
                data += payload
                if b0 & 0x80:
                    return json.loads(data)


def play(server, lobby, token, quiet=False):
    """Plays the seat of `token` until the game ends; returns the game_over message."""
    ws_url = server.replace("http", "ws", 1) + f"/api/lobbies/{lobby}/ws"
    ws = WebSocket(ws_url)
    ws.send({"type": "hello", "protocol": 1, "token": token})
    me, version, legal, view = None, 0, [], None
    last_legal = []
    waiting = None  # the request id of the action in flight
    sent = 0
    recent = []  # send times in the last second: the server allows 10 a second
    while True:
        msg = ws.recv()
        if msg is None:
            raise ConnectionError("the server closed the game's socket")
        kind = msg["type"]
        if kind == "welcome":
            me = msg["you"]["seat"]
        elif kind in ("snapshot", "update"):
            version, legal, view = msg["version"], msg["legal"], msg["view"]
        elif kind in ("accepted", "rejected") and msg.get("id") == waiting:
            waiting = None
            if kind == "rejected" and msg["code"] == "rate_limited":
                time.sleep(1.0)
                legal = last_legal  # try again: the game waits for us
            elif kind == "rejected" and msg["code"] != "stale_version":
                raise RuntimeError(f"the server refused an action: {msg}")
        elif kind == "game_over":
            if not quiet:
                print(f"game over after {sent} actions; winner: seat {msg['winner']} (we are seat {me})")
            return msg
        if waiting is None and legal:
            now = time.monotonic()
            recent = [t for t in recent if now - t < 1.0]
            if len(recent) >= 8:
                time.sleep(1.0 - (now - recent[0]))
            recent.append(time.monotonic())
            last_legal = legal
            sent += 1
            waiting = f"a{sent}"
            ws.send({"type": "action", "id": waiting, "version": version,
                     "action": choose(legal, view, me)})
            legal = []  # act again only on news from the server


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", default="http://127.0.0.1:8080")
    p.add_argument("--lobby", help="join this lobby (its host starts the game)")
    p.add_argument("--create", action="store_true", help="create a lobby, fill it with bots, start")
    p.add_argument("--bots", type=int, default=2, help="with --create: server bots beside this one")
    p.add_argument("--kind", default="normal", help="with --create: their kind")
    p.add_argument("--vp-target", type=int, default=10)
    p.add_argument("--name", default="Python bot")
    args = p.parse_args()
    if args.create:
        created = http(args.server, "POST", "/api/lobbies", {
            "name": "Python bot's game", "public": False, "bot_delay_ms": 0,
            "options": {"players": args.bots + 1, "vp_target": args.vp_target}})
        lobby, host = created["lobby"]["id"], created["host_token"]
    elif args.lobby:
        lobby, host = args.lobby, None
    else:
        p.error("give --lobby ID or --create")
    seat = http(args.server, "POST", f"/api/lobbies/{lobby}/join", {"name": args.name})
    if args.create:
        for _ in range(args.bots):
            http(args.server, "POST", f"/api/lobbies/{lobby}/bots", {"kind": args.kind}, host)
        http(args.server, "POST", f"/api/lobbies/{lobby}/start", None, host)
    play(args.server, lobby, seat["token"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
