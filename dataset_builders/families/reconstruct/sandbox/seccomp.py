"""A seccomp filter for bubblewrap's ``--seccomp FD``: the calls a chart never needs and an escape
does (new namespaces, mounts, tracing, kernel keys, BPF, perf), refused with ``EPERM``.

The filter is a classic BPF program written here with ``struct`` (the kernel's ``sock_filter``
layout, ``linux/filter.h`` and ``linux/seccomp.h``): no compiler or C library binding is needed, the
program is a few dozen instructions that the tests run for real, and bwrap loads it with
``PR_SET_NO_NEW_PRIVS`` right before it starts the runner. Only x86-64 and AArch64 have a syscall
table here; on another machine :func:`program` returns ``None`` and the job runs without one (the
job records that). A call from another ABI (i386 via ``int 0x80``, x32) kills the process.
"""

from __future__ import annotations

import os
import platform
import struct

__all__ = ["DENIED", "filter_fd", "program"]

DENIED = ("unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "ptrace", "process_vm_readv",
          "process_vm_writev", "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
          "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
          "kexec_load", "init_module", "finit_module", "delete_module")
"""Refused with EPERM; ``clone`` with a namespace flag is refused too, ``clone3`` answers ENOSYS
(its flags sit in memory a filter cannot read; the C library then falls back to ``clone``)."""

_TABLES = {
    # machine: (AUDIT_ARCH_*, {name: number}), from the kernel's syscall tables
    "x86_64": (0xC000003E, {
        "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
        "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
        "request_key": 249, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "open_tree": 428,
        "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
        "kexec_load": 246, "init_module": 175, "finit_module": 313, "delete_module": 176,
        "clone": 56, "clone3": 435}),
    "aarch64": (0xC00000B7, {
        "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51,
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "keyctl": 219, "add_key": 217,
        "request_key": 218, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "open_tree": 428,
        "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
        "kexec_load": 104, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "clone": 220, "clone3": 435}),
}

# linux/filter.h and linux/seccomp.h
_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO, _KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_EPERM, _ENOSYS = 1, 38
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (arg0's low half on little-endian)
_X32 = 0x40000000
_NAMESPACES = 0x7E020080  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET|NEWTIME


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as bwrap reads it, or ``None`` without a table."""
    machine = machine or platform.machine()
    table = _TABLES.get(machine)
    if table is None:
        return None
    arch, nr = table
    denied = [nr[name] for name in DENIED]
    # layout: checks, then ALLOW, the clone block (ld arg0, jset, ALLOW), DENY, NOSYS
    head = 5 if machine == "x86_64" else 4
    n_checks = len(denied) + 2  # + clone3 + clone
    allow = head + n_checks
    clone, deny = allow + 1, allow + 4
    nosys = deny + 1
    ops = [_op(_LD_W_ABS, _ARCH), _op(_JEQ_K, arch, 1, 0), _op(_RET_K, _KILL_PROCESS), _op(_LD_W_ABS, _NR)]
    if head == 5:  # x32 syscalls carry this bit
        ops.append(_op(_JGE_K, _X32, deny - 5, 0))
    for i, number in enumerate(denied):
        here = head + i
        ops.append(_op(_JEQ_K, number, deny - here - 1, 0))
    here = head + len(denied)
    ops.append(_op(_JEQ_K, nr["clone3"], nosys - here - 1, 0))
    ops.append(_op(_JEQ_K, nr["clone"], clone - here - 2, 0))
    ops += [_op(_RET_K, _ALLOW),
            _op(_LD_W_ABS, _ARG0), _op(_JSET_K, _NAMESPACES, 1, 0), _op(_RET_K, _ALLOW),
            _op(_RET_K, _ERRNO | _EPERM), _op(_RET_K, _ERRNO | _ENOSYS)]
    assert len(ops) == nosys + 1
    return b"".join(ops)


def filter_fd() -> int | None:
    """A file descriptor holding :func:`program` from its start (for ``bwrap --seccomp``), or
    ``None`` on a machine without a table. The caller closes it once the child started."""
    data = program()
    if data is None:
        return None
    fd = os.memfd_create("chartprobe-seccomp", 0)  # not CLOEXEC: the child (bwrap) reads it
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
