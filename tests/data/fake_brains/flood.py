"""A brain that answers START with an endless stream of MESSAGE lines."""
import sys

sys.stdin.readline()
while True:
    sys.stdout.write("MESSAGE flooding the manager\n")
