import sys

from phase10math.cli import main

sys.exit(main())
