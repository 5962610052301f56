"""Rule cases are pure functions of their facts: no temp home, no environment to clean (the suite's autouse
fixture would make a thousand cases take seconds)."""

import pytest


@pytest.fixture(autouse=True)
def clean_machine():
    """The rules read nothing but the facts they are given."""
    return None
