"""The request handler, put together from the routes (catalog, generation) and the faults they share."""

from __future__ import annotations

from codexdoctor.sim.catalog import CatalogRoutes
from codexdoctor.sim.generate import GenerationRoutes


class Handler(GenerationRoutes, CatalogRoutes):
    """One request: GET/HEAD from CatalogRoutes, POST from GenerationRoutes."""
