"""``chartprobe serve MODEL``: ``transformers serve`` with the two fixes lm-eval's API models need.

The stock server (transformers 5.24 and 5.25) cannot answer lm-eval's ``local-chat-completions`` for a
VLM: lm-eval sends ``stop`` with every request, the server passes the model's *processor* to
``generate(tokenizer=...)``, and ``StopStringCriteria`` calls ``get_vocab()`` on it (HTTP 500,
``'Gemma3Processor' object has no attribute 'get_vocab'``); an empty ``stop: []`` fails as well
(``max()`` of nothing). This command wraps both callables in its own process, never in site-packages
(the processor's tokenizer is handed to the stop criteria; an empty ``stop`` is dropped), then runs the
server pinned to one model, answering under any ``model`` name. It is what the tests serve LLaVA,
Qwen2.5-VL and Gemma 3 with (``tests/serve_tiny.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from chartprobe.errors import UsageError

__all__ = ["add_parser", "cmd_serve", "patch_transformers_serve"]


def patch_transformers_serve() -> None:
    """Wrap ``StopStringCriteria.__init__`` and the handlers' generation-argument builders (see the module)."""
    from transformers.cli.serving.chat_completion import ChatCompletionHandler
    from transformers.cli.serving.completion import CompletionHandler
    from transformers.generation import stopping_criteria

    original_init = stopping_criteria.StopStringCriteria.__init__
    if getattr(original_init, "_chartprobe", False):  # already wrapped in this process
        return

    def init_with_unwrapped_tokenizer(self, tokenizer, stop_strings):
        # A processor has no vocab of its own; its wrapped tokenizer has.
        original_init(self, getattr(tokenizer, "tokenizer", tokenizer), stop_strings)

    init_with_unwrapped_tokenizer._chartprobe = True
    stopping_criteria.StopStringCriteria.__init__ = init_with_unwrapped_tokenizer

    for handler in (ChatCompletionHandler, CompletionHandler):
        # 5.24 names it _build_generation_config, 5.25 _build_generation_kwargs; both take (self, body, ...)
        name = next(n for n in ("_build_generation_config", "_build_generation_kwargs") if hasattr(handler, n))
        original_build = getattr(handler, name)

        def build_without_empty_stop(self, body, *args, _original=original_build, **kwargs):
            if "stop" in body and not body["stop"]:
                body = {key: value for key, value in body.items() if key != "stop"}
            return _original(self, body, *args, **kwargs)

        setattr(handler, name, build_without_empty_stop)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve ``args.model`` until interrupted (blocks)."""
    folder = Path(args.model).expanduser()
    if args.model.startswith(("/", ".", "~")) and not (folder / "config.json").is_file():
        raise UsageError(f"serve: {args.model}: no model folder there (no config.json)")
    try:
        from transformers.cli.serve import Serve
    except ImportError as exc:
        raise UsageError(f"serve: needs the eval extra (pip install 'chartprobe[eval]'): {exc}") from exc
    patch_transformers_serve()
    Serve(force_model=args.model, host=args.host, port=args.port, device=args.device, dtype=args.dtype,
          log_level=args.log_level)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``serve`` to the ``chartprobe`` subparsers."""
    s = sub.add_parser("serve", help="serve a VLM over an OpenAI-compatible API for lm-eval's API models "
                                     "(transformers serve, fixed for the requests lm-eval sends)")
    s.add_argument("model", help="a model folder or Hub id; the server preloads it and answers any model name")
    s.add_argument("--host", default="127.0.0.1", help="listen address (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=8000, help="listen port (default 8000)")
    s.add_argument("--device", default="auto", help="'auto' (default), 'cpu', 'cuda:0', ...")
    s.add_argument("--dtype", default="auto",
                   help="model dtype: 'auto' (default, from the weights), 'float32', ...")
    s.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                   help="server log level (default warning)")
    s.set_defaults(func=cmd_serve)
