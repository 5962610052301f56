"""`codexdoctor watch`: a local recorder that Codex talks through, and the diagnosis of what it recorded.

recorder.py streams each answer back byte for byte while meter.py reads a copy; record.py holds what one request
showed; store.py keeps the recordings; override.py points Codex at the recorder for one run; child.py runs Codex;
diagnosis.py turns a recording into the `ctx.watch` check result the rule catalog reads.
"""
