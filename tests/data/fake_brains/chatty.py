"""The minimal brain, but it greets the manager with a line that is no protocol line (Piskvork takes it for a move)."""
import runpy
import sys
from pathlib import Path

sys.stdout.write("hello from a chatty brain\n")
sys.stdout.flush()
runpy.run_path(str(Path(__file__).with_name("minimal.py")), run_name="__main__")
