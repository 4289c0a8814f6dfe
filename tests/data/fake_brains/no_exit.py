"""The minimal brain, but END does not end it: it keeps running (managers then have to kill it)."""
import runpy
import sys
import time
from pathlib import Path

runpy.run_path(str(Path(__file__).with_name("minimal.py")), run_name="__main__")
time.sleep(60)
sys.exit(0)
