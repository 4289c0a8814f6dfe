"""A brain that reads everything and never answers."""
import sys

for _ in sys.stdin:
    pass
