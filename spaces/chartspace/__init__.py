"""The chartprobe Space: read releases lazily and show them, one view module per dataset.

``spaces/app.py`` puts this folder on ``sys.path`` and composes the views; nothing here
imports gradio or ``datasets`` at module level, so the helpers stay cheap to import and
testable without a browser. Not importable as ``spaces`` (Hugging Face's ``spaces``
package owns that name on a Space).
"""
