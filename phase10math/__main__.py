"""``python -m phase10math``: the command line."""

import sys

from phase10math.cli import main

if __name__ == "__main__":
    sys.exit(main())
