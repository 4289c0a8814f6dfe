"""The terminal programs run in a pseudo-terminal (pexpect), as a user at a terminal starts them."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent


def _as_from_a_shell() -> None:
    """In the child before exec: SIGINT at its default. A test run started in the background (`cmd &` in a script)
    inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler, so Ctrl-C would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(arguments: Sequence[str], color: bool = False, env: Optional[Dict[str, str]] = None,
          timeout: float = 30) -> "pexpect.spawn":  # noqa: F821
    """`python -m pbrain ARGUMENTS` in a 50x120 pseudo-terminal (NO_COLOR set unless `color`)."""
    import pexpect

    child_env = dict(os.environ if env is None else env, TERM="xterm", PYTHONUNBUFFERED="1")
    child_env.pop("NO_COLOR", None)
    if not color:
        child_env["NO_COLOR"] = "1"
    return pexpect.spawn(sys.executable, ["-m", "pbrain", *arguments], cwd=str(ROOT), env=child_env,
                         dimensions=(50, 120), encoding="utf-8", timeout=timeout, preexec_fn=_as_from_a_shell)
