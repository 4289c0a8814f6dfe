"""`python -m pbrain`: the same entry point as the `pbrain-pentad` executable."""
from pbrain.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
