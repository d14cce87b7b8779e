"""``python -m chartprobe`` is the ``chartprobe`` command."""

import sys

from chartprobe.cli import main

sys.exit(main())
