"""Allows `python -m codexdoctor`."""

from codexdoctor.cli import main

raise SystemExit(main())
