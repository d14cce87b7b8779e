"""The child side of a sandboxed job (standard library only; it never imports chartprobe).

Run as ``python -I -B runner.py SCRATCH``: reads ``SCRATCH/job.json``, drops to an unprivileged
user when started as root, then runs each call in a fresh namespace and writes the results to the
file descriptor the host opened for them (``result_fd`` in the job; the file is the host's, outside
the scratch folder, so model code cannot plant a symlink where the host reads). The results are
encoded by this module's own serialiser, built only from functions taken before any model code
runs (``os.write``, the C string encoder, ``float.__repr__``): patching ``json.dump`` or any other
module attribute cannot change what the runner writes. A call that raises is recorded with its exception and the job goes on;
running out of memory or past the output limit ends the job with its own exit code, which the host
maps to a status. A process the code forked never returns into the loop: only the runner itself
writes results.
"""

import binascii
import builtins
import errno
import json
import os
import signal
import sys
import traceback

EXIT_MEMORY = 86
EXIT_OUTPUT = 87
EXIT_CPU = 88

# Taken now, before model code exists: a module attribute it patches later is not what we call.
_write = os.write
_encode_str = getattr(json.encoder, "c_encode_basestring_ascii", None) or json.encoder.py_encode_basestring_ascii
_float_repr = float.__repr__
_int_repr = int.__repr__
_join = str.join
_isinstance = isinstance
_type = type
_len = len
_open, _read, _close, _fstat, _b64 = os.open, os.read, os.close, os.fstat, binascii.b2a_base64
_MAX_DEPTH = 64
MAX_FILES = 2000
"""The most files (folders included) a job may leave in its scratch folder after a call; past it the
job ends with EXIT_FILES (bwrap's tmpfs has no inode-count option, so the runner counts)."""
EXIT_FILES = 89


def _plain(value):
    """JSON for what numeric code returns: numpy/pandas scalars and arrays, tuples, sets."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(f"{type(value).__name__} is not JSON-serialisable")


def _tree(value, depth=0):
    """The value as plain JSON types (exact ``dict``/``list``/``str``/``int``/``float``/``bool``/
    ``None``), numpy and pandas values converted, anything else a TypeError."""
    if depth > _MAX_DEPTH:
        raise ValueError("the returned value is nested too deeply")
    t = _type(value)
    if value is None or t is bool or t is int or t is float or t is str:
        return value
    if t is dict or _isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if _type(k) is not str:
                k = _str_key(k)
            out[k] = _tree(v, depth + 1)
        return out
    if t in (list, tuple) or _isinstance(value, (list, tuple)):
        return [_tree(v, depth + 1) for v in value]
    if _isinstance(value, bool):
        return bool(value)
    if _isinstance(value, int):
        return int(value)
    if _isinstance(value, float):
        return float(value)
    if _isinstance(value, str):
        return str.__str__(value)
    return _tree(_plain(value), depth + 1)


def _str_key(key):
    # json.dumps' rule: numbers, booleans and None become their JSON text as keys
    if key is None or _type(key) in (bool, int, float):
        return _encode(key)
    if _isinstance(key, str):
        return str.__str__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {_type(key).__name__}")


def _encode(value):
    """JSON text of a plain tree (what :func:`_tree` returns), with the functions taken at import."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    t = _type(value)
    if t is int:
        return _int_repr(value)
    if t is float:
        if value != value:  # noqa: PLR0124 - NaN is the one float unequal to itself
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return _float_repr(value)
    if t is str:
        return _encode_str(value)
    if t is list:
        return "[" + _join(",", [_encode(v) for v in value]) + "]"
    if t is dict:
        return "{" + _join(",", [_encode_str(k) + ":" + _encode(v) for k, v in value.items()]) + "}"
    raise TypeError(f"{t.__name__} is not JSON-serialisable")


def _png(path):
    """The picture the call saved, base64 (``None`` when none): a regular file, never a symlink."""
    try:
        fd = _open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = _fstat(fd)
        if (st.st_mode & 0o170000) != 0o100000:
            return None
        chunks = []
        while True:
            chunk = _read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return _b64(b"".join(chunks), newline=False).decode("ascii")
    finally:
        _close(fd)


def _count(folder, cap):
    """How many entries ``folder`` holds, counting stops past ``cap`` (never follows a symlink)."""
    n, stack = 0, [folder]
    while stack and n <= cap:
        with os.scandir(stack.pop()) as it:
            for entry in it:
                n += 1
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
    return n


def _close_figures():
    # Keep one call's figures out of the next call's memory and pictures.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


def _call(index, call, scratch):
    namespace = {"__name__": "sandboxed", "__builtins__": builtins}
    kwargs = {}
    if call.get("savepath"):
        kwargs["savepath"] = os.path.join(scratch, f"out_{index}.png")
    try:
        # running model-written code is this process's purpose: it is what the sandbox contains
        exec(compile(call["code"], f"<model code: {call['function']}>", "exec"), namespace)  # noqa: S102
        function = namespace.get(call["function"])
        if not callable(function):
            raise TypeError(f"the code defines no function {call['function']!r}")
        value = function(*call.get("args", []), **kwargs)
        row = {"ok": True, "value": _tree(value)}
        if call.get("savepath"):
            row["png"] = _png(kwargs["savepath"])
        return _encode(row)  # encoded here: a failure is this call's
    except MemoryError:
        raise
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise
        return _encode({"ok": False, "error": _error(exc)})
    except BaseException as exc:  # noqa: BLE001 - model code may raise anything, SystemExit included
        return _encode({"ok": False, "error": _error(exc)})
    finally:
        _close_figures()


def _error(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"line {f.lineno}" for f in reversed(frames) if f.filename.startswith("<model code")), "")
    try:
        text = f"{type(exc).__name__}: {exc}"[:800]
    except BaseException:  # noqa: BLE001 - the exception's own __str__ may raise too
        text = "an exception whose message could not be read"
    return f"{text} ({where})" if where else text


def _warm(modules):
    """Load the contract's modules and draw once, before the switch to the unprivileged user: in
    the unshare fallback the host's interpreter may sit where that user cannot read (/root/.pyenv)."""
    import importlib
    import io

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:  # not installed: code importing it fails in its own call, as it would anyway
            continue
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(["a"], [1])
    fig.savefig(io.BytesIO(), format="png")
    plt.close("all")


def main(scratch, jobdir=None):
    # Report the CPU soft limit ourselves: not every wrapper passes on a signal death (util-linux
    # 2.38's unshare exits 1). A long C call defers this; the hard limit's SIGKILL then ends it.
    signal.signal(signal.SIGXCPU, lambda *_: os._exit(EXIT_CPU))
    jobdir = jobdir or scratch
    with open(os.path.join(jobdir, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    fd = job["result_fd"]
    uid = job.get("drop_to")
    if uid is not None and os.getuid() == 0:
        if job.get("warm"):
            _warm(job["warm"])
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)  # clears every capability: the code runs unprivileged
    if jobdir != scratch:  # bwrap: the scratch folder is an empty tmpfs; the font list comes in read-only
        import shutil

        shutil.copytree(os.path.join(jobdir, ".mpl"), os.path.join(scratch, ".mpl"), dirs_exist_ok=True)
    me = os.getpid()
    results = []
    try:
        for index, call in enumerate(job["calls"]):
            results.append(_call(index, call, scratch))
            if os.getpid() != me:
                os._exit(0)  # a fork of the model code: leave quietly
            if _count(scratch, MAX_FILES) > MAX_FILES:
                os._exit(EXIT_FILES)
    except MemoryError:
        os._exit(EXIT_MEMORY)
    except OSError:  # EFBIG: a file or the output passed the size limit
        os._exit(EXIT_OUTPUT)
    data = ("[" + _join(",", results) + "]").encode("ascii")
    try:
        while data:
            data = data[_write(fd, data):]
    except OSError as exc:
        os._exit(EXIT_OUTPUT if exc.errno == errno.EFBIG else 1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
