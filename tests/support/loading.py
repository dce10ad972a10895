"""The load of issue 42's gate, shared by tests/test_serve_load.py (small) and
bench/serve_load.py (100 tables x 30 deals): every table enters deal k at once, then deal
k+1, with acceptance on (each deal entered by NS, accepted by EW), a tenth of the sends
made twice at the same moment, a quarter sent again after their answer, and a send refused
at the transport sent again with the same key. Bounded by count and by a deadline; the
server's CPU time is read at each step, so that the cost of deal 1 and of deal k can be
compared."""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .serving import Server, create_event, deal_texts, score_export


@dataclass
class Load:
    """What the tables saw and what the server spent."""

    tables: int
    deals: int
    event: int = 0
    latencies: list[float] = field(default_factory=list)
    """Seconds of each request answered."""
    cpu: dict[int, float] = field(default_factory=dict)
    """The server's CPU seconds while the tables entered and accepted deal k."""
    acknowledged: dict[tuple[int, int], str] = field(default_factory=dict)
    """Each deal acknowledged, by table and number."""
    created: int = 0
    requests: int = 0
    retried: int = 0
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def cpu_per_entry(self, deal: int) -> float:
        """Server CPU seconds for one entry of deal ``deal`` (its acceptance included)."""
        return self.cpu[deal] / self.tables

    def percentile(self, share: float) -> float:
        """The latency under which ``share`` of the requests were answered, in seconds."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def summary(self) -> str:
        """The figures, in one paragraph."""
        first, last = self.cpu_per_entry(1), self.cpu_per_entry(self.deals)
        return (f"{self.tables} tables x {self.deals} deals ({len(self.acknowledged)} deals, "
                f"{self.requests} requests, {self.retried} sent again after no answer) in "
                f"{self.seconds:.1f} s; latency p50 {1000 * self.percentile(0.5):.0f} ms, "
                f"p99 {1000 * self.percentile(0.99):.0f} ms; server CPU per entry (with "
                f"its acceptance) at deal 1 {1000 * first:.1f} ms, at deal {self.deals} "
                f"{1000 * last:.1f} ms ({last / first:.2f}x), median over the deals "
                f"{1000 * statistics.median(self.cpu.values()) / self.tables:.1f} ms")


def server_cpu(server: Server) -> float:
    """The server process's CPU time so far, in seconds."""
    assert server.process is not None
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_clients = threading.local()


def _client(base: str) -> httpx.Client:
    """This thread's HTTP client (a phone's connection)."""
    if not hasattr(_clients, "client"):
        _clients.client = httpx.Client(base_url=base, timeout=60)
    client: httpx.Client = _clients.client
    return client


def phone(table: int) -> str:
    """The address of a table's phone on the club's network (the tests' requests come from
    this machine, which the server trusts as a reverse proxy: ``X-Forwarded-For`` says
    which phone sent them, as it would behind one)."""
    return f"10.{table // 62500}.{table // 250 % 250}.{table % 250 + 1}"


def _send(base: str, path: str, token: str, body: dict[str, Any], load: Load,
          deadline: float) -> tuple[int, dict[str, Any]]:
    """Posts until the server answers (a refused connection, a reset, a timeout or a 503:
    sent again, as a phone would, with the same key)."""
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no answer to {path} in time")
        start = time.monotonic()
        try:
            table = int(path.split("/tables/")[1].split("/")[0])
            answer = _client(base).post(path, json=body, headers={
                "authorization": f"Bearer {token}", "x-forwarded-for": phone(table)})
        except httpx.TransportError:
            with load.lock:
                load.retried += 1
            time.sleep(0.2)
            continue
        with load.lock:
            load.requests += 1
            load.latencies.append(time.monotonic() - start)
        if answer.status_code in (502, 503, 504):
            time.sleep(0.2)
            continue
        return answer.status_code, answer.json()


def _twice(base: str, path: str, token: str, body: dict[str, Any], load: Load,
           deadline: float, rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """One send, or (a tenth of the time) two at the same moment."""
    if rng.random() >= 0.1:
        return [_send(base, path, token, body, load, deadline)]
    with ThreadPoolExecutor(2) as pool:
        sent = [pool.submit(_send, base, path, token, body, load, deadline) for _ in range(2)]
        return [f.result() for f in sent]


def _deal(base: str, event: int, table: int, token: str, number: int, text: str,
          load: Load, deadline: float) -> None:
    """One table enters deal ``number`` (NS) and accepts it (EW)."""
    rng = random.Random(table * 1000 + number)
    path = f"/api/events/{event}/rounds/1/tables/{table}/deals"
    body = {"text": text, "key": f"t{table}d{number}", "by": "NS"}
    answers = _twice(base, path, token, body, load, deadline, rng)
    statuses = sorted(s for s, _ in answers)
    assert statuses in ([201], [200, 201]), (table, number, answers)
    assert len({str(b["deal"]) for _, b in answers}) == 1
    created = answers[-1][1]
    assert created["deal"] == number and created["status"] == "pending", created
    if rng.random() < 0.25:
        again = _send(base, path, token, body, load, deadline)
        assert again[0] == 200 and again[1]["deal"] == number
    accepted = _twice(base, f"{path}/{number}/accept", token, {"by": "EW"}, load, deadline,
                      rng)
    assert all(s == 200 and b["status"] == "accepted" for s, b in accepted), accepted
    with load.lock:
        load.acknowledged[table, number] = text
        load.created += statuses.count(201)


def run_load(server: Server, tables: int, deals: int, seconds: float = 3600) -> Load:
    """The evening: every table enters deal 1 and its acceptance, then deal 2, ...
    (``seconds`` at most, else :class:`TimeoutError`)."""
    event, tokens = create_event(server, 1, tables, deals, name="Load Gate", acceptance=True)
    texts = {t: deal_texts(7000 + t, deals) for t in range(1, tables + 1)}
    load = Load(tables, deals, event)
    deadline = time.monotonic() + seconds
    start = time.monotonic()
    with ThreadPoolExecutor(tables) as pool:
        for k in range(1, deals + 1):
            before = server_cpu(server)
            futures = [pool.submit(_deal, server.url, event, t, tokens[1, t], k,
                                   texts[t][k - 1], load, deadline)
                       for t in range(1, tables + 1)]
            for future in futures:
                future.result()
            load.cpu[k] = server_cpu(server) - before
    load.seconds = time.monotonic() - start
    return load


def check_load(server: Server, load: Load, folder: Path) -> None:
    """Nothing lost, nothing stored twice, every deal accepted at its number, and the
    standings equal to ``score`` on the export."""
    event = load.event
    assert load.created == load.tables * load.deals == len(load.acknowledged)
    with server.client() as client:
        for table in range(1, load.tables + 1):
            state = client.get(f"/api/events/{event}/rounds/1/tables/{table}").json()
            assert len(state["deals"]) == load.deals
            for number, text in enumerate(state["deals"], 1):
                assert text == load.acknowledged[table, number]
            assert {s["status"] for s in state["statuses"]} == {"accepted"}
        standings = client.get(f"/api/events/{event}/standings").text
    _, scored = score_export(server, event, folder)
    assert standings == scored
