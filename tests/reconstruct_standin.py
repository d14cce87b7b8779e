"""A loopback OpenAI-compatible stand-in model for the reconstruction pipeline, answering from a script.

``scripted_model(responses_path)`` serves ``POST .../v1/chat/completions`` on 127.0.0.1 at a free
port. Each request is read the way the pipeline sends it (CONTRACT "Pipeline stages"): one user
message whose first text part starts with ``STAGE: <stage>`` (and ``ROUND: <r>`` for diagnose and
revise) and whose first image is the source chart. The chart is found by the SHA-256 of that
image's decoded bytes in ``responses.json`` (a text-only request: by the scripted chart code its
text quotes) (``tests/fixtures/reconstruct/make_fixture.py``), and
the reply is that stage's scripted JSON object, ``json.dumps``-ed as the assistant content:
``diagnose`` round ``r`` gets ``diagnose[min(r, len) - 1]``, ``revise`` round ``r`` gets
``revise[r - 1]``, every other stage its one object.

An unknown chart, stage or round is an HTTP 400 with an OpenAI-style error body (the client does
not retry it); ``fail_first=N`` answers the first N requests with HTTP 503 (and a 1 ms
``retry-after-ms``), so tests see the client's retries without waiting for its backoff. Usage is
made up but stable: prompt tokens ``len(text) // 4 + 85`` per image, completion tokens
``len(reply) // 4``.

``mode="gpt5"`` behaves like a GPT-5.x endpoint: chat requests carrying ``max_tokens`` or a
``temperature`` other than 1 get OpenAI's HTTP 400 for them (the same ``message``, ``param`` and
``code``), ``max_completion_tokens`` is taken, and ``POST .../v1/responses`` is served too (its
``input_text`` / ``input_image`` parts read like the chat ones; a temperature is refused there as
well). ``refused`` counts the refusals by parameter. ``mode="refuse"`` answers every request with
HTTP 400 and :data:`REFUSE_MESSAGE`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import copy
import hashlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RESPONSES = Path(__file__).resolve().parent / "fixtures" / "reconstruct" / "responses.json"
SINGLE = ("reconstruct", "verdict", "assumptions", "generate_data", "adapt_question", "generate_answer")
ROUNDS = ("diagnose", "revise")
IMAGE_TOKENS = 85
MODES = ("chat", "gpt5", "refuse")
REFUSE_MESSAGE = "The model `standin-gone` does not exist or you do not have access to it."


class ScriptMiss(ValueError):
    """A request the script has no reply for (answered with HTTP 400)."""


def _parts(body: dict[str, Any]) -> tuple[str, list[str]]:
    """The first user message's text and its image URLs, in order."""
    for message in body.get("messages") or []:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content, []
        texts = [p.get("text", "") for p in content or [] if p.get("type") == "text"]
        urls = [(p.get("image_url") or {}).get("url", "") for p in content or [] if p.get("type") == "image_url"]
        return (texts[0] if texts else ""), urls
    raise ScriptMiss("no user message")


def _image_sha(url: str) -> str:
    """SHA-256 hex of a ``data:image/...;base64,`` URL's decoded bytes."""
    head, _, payload = url.partition(",")
    if not head.startswith("data:") or ";base64" not in head:
        raise ScriptMiss(f"image is not a base64 data URL ({url[:40]!r})")
    try:
        return hashlib.sha256(base64.b64decode(payload, validate=True)).hexdigest()
    except (binascii.Error, ValueError):
        raise ScriptMiss("image data URL is not valid base64") from None


def _stage(text: str) -> tuple[str, int | None]:
    """(stage, round) from the ``STAGE:`` first line and an optional ``ROUND:`` second line."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("STAGE:"):
        raise ScriptMiss("the text does not start with a 'STAGE: <stage>' line")
    stage = lines[0].removeprefix("STAGE:").strip()
    if len(lines) > 1 and lines[1].startswith("ROUND:"):
        value = lines[1].removeprefix("ROUND:").strip()
        if not value.isdigit() or int(value) < 1:
            raise ScriptMiss(f"bad ROUND line {lines[1]!r}")
        return stage, int(value)
    return stage, None


def _drafts(entry: dict[str, Any]) -> list[tuple[str, str]]:
    """Every (chart code, chart data as the pipeline quotes it) the script gives a chart."""
    return [(d["chart_code"], json.dumps(d.get("chart_data"), ensure_ascii=False, indent=1, sort_keys=True))
            for d in (entry.get("reconstruct"), *(entry.get("revise") or []))
            if isinstance(d, dict) and isinstance(d.get("chart_code"), str)]


def _by_code(script: dict[str, Any], text: str, stage: str) -> dict[str, Any]:
    """The chart whose scripted code and data the text quotes (a text-only stage: the model reads them)."""
    found = {id(e): e for e in script.values() if any(c in text and d in text for c, d in _drafts(e))}
    if len(found) != 1:
        raise ScriptMiss(f"stage {stage}: no image, and the text quotes the code and data of {len(found)} "
                         "scripted charts")
    return next(iter(found.values()))


def scripted_reply(script: dict[str, Any], body: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """(chart_id, stage, reply object) the script holds for one request body; ScriptMiss if none.

    The chart is the first image's (by SHA-256); a request without an image (the ``paper``
    protocol's code stages) is answered for the one chart whose scripted code its text quotes."""
    text, urls = _parts(body)
    stage, round_ = _stage(text)
    if urls:
        sha = _image_sha(urls[0])
        entry = script.get(sha)
        if entry is None:
            raise ScriptMiss(f"stage {stage}: no scripted chart for image sha256 {sha[:16]}...")
    else:
        entry = _by_code(script, text, stage)
    chart = entry.get("chart_id", "?")
    if stage in SINGLE and isinstance(entry.get(stage), dict):
        return chart, stage, entry[stage]
    if stage in ROUNDS:
        if round_ is None:
            raise ScriptMiss(f"stage {stage}: the text has no 'ROUND: <r>' second line")
        replies = entry.get(stage) or []
        index = min(round_, len(replies)) - 1 if stage == "diagnose" else round_ - 1
        if 0 <= index < len(replies):
            return chart, stage, replies[index]
        raise ScriptMiss(f"stage {stage}: chart {chart} has no scripted reply for round {round_}")
    raise ScriptMiss(f"stage {stage!r}: chart {chart} has no scripted reply for it")


def _slim(body: dict[str, Any]) -> dict[str, Any]:
    """The body with every image URL replaced by ``sha256:<hex>`` (recorded requests stay small)."""
    out = copy.deepcopy(body)
    for message in out.get("input") if isinstance(out.get("input"), list) else []:
        for part in message.get("content") if isinstance(message, dict) and isinstance(message.get("content"),
                                                                                        list) else []:
            if isinstance(part, dict) and part.get("type") == "input_image" and isinstance(part.get("image_url"), str):
                try:
                    part["image_url"] = "sha256:" + _image_sha(part["image_url"])
                except ScriptMiss:
                    part["image_url"] = "sha256:" + hashlib.sha256(part["image_url"].encode()).hexdigest()
    for message in out.get("messages") or []:
        for part in message.get("content") if isinstance(message.get("content"), list) else []:
            image = part.get("image_url") if isinstance(part, dict) else None
            if isinstance(image, dict) and isinstance(image.get("url"), str):
                try:
                    image["url"] = "sha256:" + _image_sha(image["url"])
                except ScriptMiss:
                    image["url"] = "sha256:" + hashlib.sha256(image["url"].encode()).hexdigest()
    return out


def as_chat(body: dict[str, Any]) -> dict[str, Any]:
    """A Responses API body as the chat body :func:`scripted_reply` reads (text and image parts, in order)."""
    content: list[dict[str, Any]] = []
    for item in body.get("input") if isinstance(body.get("input"), list) else []:
        if not isinstance(item, dict) or item.get("role") != "user":
            continue
        for part in item.get("content") if isinstance(item.get("content"), list) else []:
            if part.get("type") == "input_text":
                content.append({"type": "text", "text": part.get("text", "")})
            elif part.get("type") == "input_image":
                content.append({"type": "image_url", "image_url": {"url": part.get("image_url", "")}})
    return {"model": body.get("model", ""), "messages": [{"role": "user", "content": content}]}


def gpt5_refusal(body: dict[str, Any], responses: bool) -> tuple[str, str, str] | None:
    """(param, message, code) of the HTTP 400 a GPT-5.x endpoint gives this body, or None (as OpenAI words them)."""
    for name in ("max_tokens", "max_completion_tokens") if responses else ("max_tokens",):
        if name in body:
            return (name, f"Unsupported parameter: '{name}' is not supported with this model."
                    + ("" if responses else " Use 'max_completion_tokens' instead."), "unsupported_parameter")
    if "temperature" in body and body["temperature"] != 1:
        if responses:
            return "temperature", "Unsupported parameter: 'temperature' is not supported with this model.", \
                "unsupported_parameter"
        return ("temperature", (f"Unsupported value: 'temperature' does not support {body['temperature']} with this "
                "model. Only the default (1) value is supported."), "unsupported_value")
    return None


class ScriptedServer(ThreadingHTTPServer):
    """The running stand-in. ``calls``: requests answered with a reply (200); ``requests``: their
    bodies (images as ``sha256:<hex>``), in arrival order; ``calls_by_stage``: a Counter of their
    stages; ``failed``: requests answered 503 by ``fail_first``; ``errors``: the 400 messages;
    ``refused``: a Counter of the parameters ``mode="gpt5"`` refused; ``routes``: a Counter of the
    paths answered 200."""

    daemon_threads = True

    def __init__(self, script: dict[str, Any], fail_first: int = 0, mode: str = "chat") -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script, self.fail_first, self.mode = script, fail_first, mode
        self.refused: Counter[str] = Counter()
        self.routes: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.seen = self.calls = self.failed = 0
        self.requests: list[dict[str, Any]] = []
        self.calls_by_stage: Counter[str] = Counter()
        self.errors: list[str] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


def _error(message: str, kind: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedServer

    def log_message(self, *args: Any) -> None:
        """Print nothing per request (a pipeline run sends hundreds)."""

    def _send(self, status: int, obj: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        srv = self.server
        with srv.lock:
            srv.seen += 1
            unavailable = srv.seen <= srv.fail_first
            srv.failed += unavailable
        if unavailable:
            self._send(503, _error("stand-in: scripted outage (fail_first)", "server_error"),
                       {"retry-after-ms": "1"})
            return
        route = self.path.rstrip("/")
        responses = srv.mode == "gpt5" and route.endswith("/responses")
        if not (route.endswith("/chat/completions") or responses):
            self._send(404, _error(f"stand-in: no route {self.path}", "invalid_request_error"))
            return
        if srv.mode == "refuse":
            with srv.lock:
                srv.errors.append(REFUSE_MESSAGE)
            self._send(400, _error(REFUSE_MESSAGE, "invalid_request_error", "model_not_found"))
            return
        try:
            body = json.loads(raw or b"{}")
            refusal = gpt5_refusal(body, responses) if srv.mode == "gpt5" else None
            if refusal is None:
                chat = as_chat(body) if responses else body
                chart, stage, reply = scripted_reply(srv.script, chat)
                text, urls = _parts(chat)
        except (ScriptMiss, json.JSONDecodeError, AttributeError, TypeError) as exc:
            with srv.lock:
                srv.errors.append(str(exc))
            self._send(400, _error(f"stand-in: {exc}", "invalid_request_error", "no_script"))
            return
        if refusal is not None:
            param, message, code = refusal
            with srv.lock:
                srv.refused[param] += 1
                srv.errors.append(message)
            self._send(400, {"error": {"message": message, "type": "invalid_request_error", "param": param,
                                       "code": code}})
            return
        content = json.dumps(reply)
        prompt, completion = len(text) // 4 + IMAGE_TOKENS * len(urls), len(content) // 4
        with srv.lock:
            srv.calls += 1
            srv.calls_by_stage[stage] += 1
            srv.requests.append(_slim(body))
            srv.routes["responses" if responses else "chat/completions"] += 1
        if responses:
            self._send(200, {"id": f"resp_standin-{chart}-{stage}", "object": "response", "created_at": 0,
                             "model": body.get("model", ""), "status": "completed",
                             "output": [{"type": "message", "id": f"msg_standin-{chart}-{stage}", "role": "assistant",
                                         "status": "completed",
                                         "content": [{"type": "output_text", "text": content, "annotations": []}]}],
                             "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                             "usage": {"input_tokens": prompt, "output_tokens": completion,
                                       "total_tokens": prompt + completion,
                                       "input_tokens_details": {"cached_tokens": 0},
                                       "output_tokens_details": {"reasoning_tokens": 0}}})
            return
        self._send(200, {"id": f"standin-{chart}-{stage}", "object": "chat.completion", "created": 0,
                         "model": body.get("model", ""),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                                   "total_tokens": prompt + completion}})


@contextlib.contextmanager
def scripted_model(responses_path: str | Path = RESPONSES, *, fail_first: int = 0,
                   mode: str = "chat") -> Iterator[ScriptedServer]:
    """A running stand-in answering from ``responses_path`` (``mode``: see the module); always shut down on exit."""
    script = json.loads(Path(responses_path).read_text())
    server = ScriptedServer(script, fail_first, mode)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def fixture_entries(responses_path: str | Path = RESPONSES) -> dict[str, dict[str, Any]]:
    """The fixture's scripted charts by chart id."""
    return {e["chart_id"]: e for e in json.loads(Path(responses_path).read_text()).values()}


def expected_outcome(entry: dict[str, Any], protocol: str = "paper") -> tuple[str, str | None]:
    """(status, deciding stage or None) a fixture chart must end with under ``protocol``.

    Both protocols refuse a chart that does not converge, that the verdict rejects or whose
    ``generate_data`` drops a key, and queue a needs-review chart. ``wrong_answer`` (the base
    answer differs from the source's) is refused only by the ``chartprobe`` answer gate; a chart
    whose ``generate_data`` changes a list's length only by the ``paper`` protocol's fixed lengths."""
    kind = entry["kind"]
    fixed = {"no_converge": ("rejected", "refine"), "verdict_reject": ("rejected", "verdict"),
             "bad_schema": ("rejected", "generate_data"), "needs_review": ("needs_review", "review")}
    if kind in fixed:
        return fixed[kind]
    if kind == "wrong_answer" and protocol == "chartprobe":
        return "rejected", "generate_answer"
    if entry.get("lengths_vary") and protocol == "paper":
        return "rejected", "generate_data"
    return "accepted", "generate_answer"
