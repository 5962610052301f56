"""Helpers every stage may use: safe file opening, redaction, words, shells, token counting."""
