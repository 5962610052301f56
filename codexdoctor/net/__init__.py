"""Talking to providers: the bounded transport and the error taxonomy."""
