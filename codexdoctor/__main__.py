"""Allows `python -m codexdoctor` (through entry.py, which handles Ctrl-C before click is imported)."""

from codexdoctor.entry import main

raise SystemExit(main())
