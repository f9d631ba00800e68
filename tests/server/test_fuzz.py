"""Malformed, oversized, out-of-turn and forged messages get errors; nothing changes."""

from __future__ import annotations

import json
from contextlib import ExitStack

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .client import Client, play_to_end, sync

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
command_like = st.fixed_dictionaries(
    {
        "v": st.sampled_from([1, 2, "1", None]),
        "id": st.one_of(st.text(max_size=80), st.integers()),
        "type": st.sampled_from(
            ["join", "sit", "ready", "set_bot", "kick", "randomize", "start", "act", "check", "x"]
        ),
    },
    optional={
        "rev": st.one_of(st.integers(-5, 10**6), st.text(max_size=5)),
        "seat": st.one_of(st.integers(-3, 9), st.text(max_size=3)),
        "action": st.one_of(
            json_values,
            st.fixed_dictionaries(
                {
                    "type": st.sampled_from(["play", "declare", "bury", "pass", "steal"]),
                    "cards": st.one_of(st.text(max_size=30), st.just("S10 S10 BJ"), json_values),
                }
            ),
        ),
        "token": st.text(max_size=40),
        "bot": st.one_of(st.none(), st.text(max_size=10)),
        "name": st.one_of(st.text(max_size=50), st.integers()),
        "text": st.text(min_size=501, max_size=600),
    },
)


def _table(http: TestClient, stack: ExitStack) -> tuple[str, list[Client]]:
    made = http.post("/api/rooms", json={"preset": "tuolaji"}).json()
    rid = made["id"]
    clients = [Client(stack.enter_context(http.websocket_connect(f"/ws/{rid}"))) for _ in range(4)]
    for i, c in enumerate(clients):
        key = made["host_key"] if i == 0 else None
        c.request({"type": "join", "name": f"p{i}", "host_key": key})
        c.request({"type": "ready"})
    clients[0].request({"type": "start"})
    play_to_end(clients, until="play")
    for c in clients:
        sync(c)
    return rid, clients


def _snapshot(clients: list[Client]) -> list[tuple[int, str]]:
    out = []
    for c in clients:
        sync(c)
        out.append((c.latest["rev"], json.dumps(c.view, sort_keys=True)))
    return out


def test_fuzzed_messages_change_nothing(http: TestClient) -> None:
    with ExitStack() as stack:
        _, clients = _table(http, stack)
        before = _snapshot(clients)
        to_act = clients[0].view["to_act"]
        outsider = clients[(to_act + 1) % 4]

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(payload=st.one_of(command_like, json_values, st.text(max_size=200)))
        def fuzz(payload: object) -> None:
            raw = payload if isinstance(payload, str) else json.dumps(payload)
            outsider.ws.send_text(raw)
            while True:
                msg = outsider.recv()
                if msg["type"] == "error":
                    break
                assert msg["type"] == "state"  # a refusal is followed by a fresh state

        fuzz()
        assert _snapshot(clients) == before


def test_oversized_out_of_turn_stale_duplicate_and_forged(http: TestClient) -> None:
    with ExitStack() as stack:
        _, clients = _table(http, stack)
        before = _snapshot(clients)
        view = clients[0].view
        actor = next(c for c in clients if c.seat == view["to_act"])
        other = next(c for c in clients[1:] if c.seat != view["to_act"])  # not the host
        big = json.dumps({"v": 1, "id": "big", "type": "chat", "text": "x" * 20_000})
        other.ws.send_text(big)
        assert other.recv()["code"] == "MESSAGE_TOO_LARGE"
        card = other.view["hand"].split()[0]
        reply = other.request({"type": "act", "action": {"type": "play", "cards": card}})
        assert reply["code"] == "NOT_YOUR_TURN"
        reply = actor.request({"type": "act", "action": {"type": "play", "cards": card}}, rev=0)
        assert reply["code"] == "STALE_REVISION"
        reply = actor.request({"type": "act", "action": {"type": "play", "cards": "S2 H3"}})
        assert reply["code"] in ("CARDS_NOT_IN_HAND", "MIXED_SUITS")
        reply = actor.request({"type": "act", "action": {"type": "play", "cards": "ZZ"}})
        assert reply["code"] == "BAD_CARD"
        for cmd in (
            {"type": "kick", "seat": 0},
            {"type": "set_bot", "seat": 0},
            {"type": "start"},
            {"type": "randomize"},
        ):
            assert other.request(cmd)["code"] in ("NOT_HOST", "NOT_IN_LOBBY")
        assert other.request({"type": "sit", "seat": 1})["code"] in ("NOT_IN_LOBBY", "SEAT_TAKEN")
        assert other.request({"type": "join", "name": "again"})["code"] == "ALREADY_JOINED"
        other.ws.send_text(json.dumps({"v": 1, "id": "dup", "type": "ready"}))
        other.drain_until(lambda m: m.get("id") == "dup")
        other.ws.send_text(json.dumps({"v": 1, "id": "dup", "type": "ready"}))
        assert other.drain_until(lambda m: m.get("id") == "dup")["code"] == "DUPLICATE_REQUEST"
        other.ws.send_bytes(b"\xff\xfe")
        assert other.drain_until(lambda m: m["type"] == "error")["code"] == "BAD_MESSAGE"
        assert _snapshot(clients) == before
