"""The registry: the order, ids and titles of the live checks, their Chinese titles, skipped and crash rows."""

from codexdoctor import i18n
from codexdoctor.checks import live_check_ids
from codexdoctor.checks.live import registry, window
from codexdoctor.model import Status
from tests.live.answers import context, gathered, plan_of


def test_the_ids_and_titles_come_from_the_registered_modules_in_report_order():
    assert registry.LIVE_IDS == (
        "net.reach",
        "api.catalog",
        "api.canary",
        "api.turn_two",
        "api.variants",
        "api.wire",
        "ctx.window",
    )
    assert live_check_ids()[: len(registry.LIVE_IDS)] == registry.LIVE_IDS
    for check in registry.LIVE_CHECKS:
        assert registry.TITLES[check.ID] == check.TITLE
        assert i18n.check_title(check.ID, check.TITLE, "zh") == check.TITLE_ZH != check.TITLE


def test_one_result_per_check_and_a_crash_stays_in_its_row(home, monkeypatch):
    ctx = context(home)

    def boom(*args):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(window, "interpret", boom)
    results = registry.interpret(ctx, plan_of(ctx), gathered())
    assert [r.id for r in results] == list(registry.LIVE_IDS)
    assert [r.id for r in results if r.status is Status.CRASH] == ["ctx.window"]
    assert results[-1].summary.startswith("internal error: RuntimeError: kaboom")


def test_skipped_and_crashed_rows_cover_every_check():
    skipped = registry.skipped(["env.key"])
    assert [(r.id, r.status, r.facts["blocked_by"]) for r in skipped] == [
        (i, Status.SKIP, ["env.key"]) for i in registry.LIVE_IDS
    ]
    crashed = registry.all_crashed(OSError("x"), str)
    assert [r.title for r in crashed] == [registry.TITLES[i] for i in registry.LIVE_IDS]


def test_every_live_check_module_is_registered_and_has_its_test_module():
    """A module with an ID that the registry does not list would never run; one without tests/live/test_<name>.py
    has no test (the contract CONTRIBUTING.md gives: one module, one registry entry, one test)."""
    import importlib
    import pkgutil
    from pathlib import Path

    from codexdoctor.checks import live

    modules = [importlib.import_module(f"{live.__name__}.{m.name}") for m in pkgutil.iter_modules(live.__path__)]
    checks = [m for m in modules if hasattr(m, "ID")]
    assert {m.__name__ for m in checks} == {m.__name__ for m in registry.LIVE_CHECKS}
    here = Path(__file__).parent
    assert [m.__name__ for m in checks if not (here / f"test_{m.__name__.rsplit('.', 1)[1]}.py").is_file()] == []
