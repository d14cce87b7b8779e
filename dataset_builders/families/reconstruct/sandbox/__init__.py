"""The sandbox for model-written code (``chartprobe reconstruct``, Chartographer A.2-A.5).

Every ``make_figure`` / ``generate_data`` / ``adapt_question`` / ``generate_answer`` the model
writes is AST-checked (:mod:`.check`) and then run by :func:`run_calls` in a child process with no
network, no view of the host's files except one scratch folder (:mod:`.bwrap`; :mod:`.unshare` is a
weaker fallback that says so), and CPU, wall-time, memory, output-size and process limits. The
child runs :mod:`.runner`, which imports nothing of chartprobe.
"""

from . import bwrap, unshare  # noqa: F401  (registers the mechanisms, strongest first)
from .base import MECHANISMS, STATUSES, Call, CallResult, JobResult, Limits
from .check import ALLOWED_IMPORTS, CodeRejected, check_code
from .jobs import mechanisms, probe, run_calls

__all__ = ["ALLOWED_IMPORTS", "MECHANISMS", "STATUSES", "Call", "CallResult", "CodeRejected", "JobResult",
           "Limits", "check_code", "mechanisms", "probe", "run_calls"]
