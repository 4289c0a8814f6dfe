"""A brain that dies at the first command."""
import sys

sys.stdin.readline()
sys.exit(3)
