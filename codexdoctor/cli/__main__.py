"""python -m codexdoctor.cli: the command line without the console script's early Ctrl-C handler (entry.py)."""

import sys

from codexdoctor.cli import main

sys.exit(main())
