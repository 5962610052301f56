"""Shared fixtures: every test sees a clean, fake machine, never the developer's."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import pytest

# Bytecode is cached even where the environment says PYTHONDONTWRITEBYTECODE: without it every xdist worker compiled
# every test module (assertion rewriting) and every codexdoctor module from source, and so did every
# `python -m codexdoctor` a test starts (the Ctrl-C sweep alone starts 128): about a tenth of the suite's CPU
# (issue 37). Python checks each cached file against its source; the caches live in __pycache__, ignored by git.
# Set before the first codexdoctor import below, so those modules are cached too.
sys.dont_write_bytecode = False

from hypothesis import settings  # noqa: E402

from codexdoctor.commands.check import run_check  # noqa: E402
from codexdoctor.commands.options import CheckOptions  # noqa: E402

# No time limit on a generated example: Hypothesis's default (200 ms) is a wall-clock assertion, and on a loaded
# machine an example that takes 0.07 ms once took 318 ms (issue 37: no wall-clock assertion but a bound against the
# deadline under test). The tests that said `deadline=None` themselves still do.
settings.register_profile("codexdoctor", deadline=None)
settings.load_profile("codexdoctor")

STRIP_PREFIXES = (
    "CODEX",
    "OPENAI",
    "TAOTOKEN",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "SSL_CERT",
    "REQUESTS_CA",
    "CURL_CA",
    "GITHUB_",
    "LC_",
    "LANG",
    "NO_COLOR",
)


# Tests that talk to a server on loopback over real sockets are the simulator tier, and the sweeps that take seconds
# of CPU by design are marked `slow`: `-m "not simulator and not slow"` runs the rest in under a minute. A test that takes one of these fixtures is marked at collection; one that starts the simulator
# another way (`codexdoctor demo`, `sim.start`) says so itself, and `simulator_tier` fails it when it does not.
LOOPBACK_FIXTURES = frozenset({"sim_server", "raw_server", "echoing_provider", "echo_server", "demo_reports"})


@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run without xdist (`-p no:xdist`) has no such hook
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: three workers a core (at least four). Most tests wait (on a socket, a deadline, a child process) far
    longer than they compute: on a 2-core machine, 2 workers took 175 s and 6 about 100 (issue 37). xdist's own
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(max(4, 3 * cores), 16)


def pytest_configure(config):
    """The package compiled once before any test (in the controller first, so xdist's workers find it done): a
    `python -m codexdoctor` a test starts reads the cache instead of compiling what no test imported yet."""
    import compileall

    import codexdoctor

    compileall.compile_dir(os.path.dirname(codexdoctor.__file__), quiet=2)


def pytest_make_parametrize_id(config, val, argname):
    """A parameter of more than a thousand characters named by its start and length: as its own text, one test's
    name was 10 MB (a config file of 10,000 long lines), escaped at collection and sent to xdist's controller by every
    worker (issue 37)."""
    if isinstance(val, (str, bytes)) and len(val) > 1000:
        head = repr(val[:40])[2 if isinstance(val, bytes) else 1 : -1]
        return f"{head}…({len(val):,} {'bytes' if isinstance(val, bytes) else 'chars'})"
    return None


def pytest_collection_modifyitems(items):
    for item in items:
        if LOOPBACK_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.simulator)


_RUNNING = {"test": "", "simulator": False}  # the test being set up or run, for simulator_tier


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _RUNNING.update(test=item.nodeid, simulator=item.get_closest_marker("simulator") is not None)


@pytest.fixture(scope="session", autouse=True)
def simulator_tier():
    """A test that starts the simulator without the `simulator` mark fails, naming the mark it needs (in a fixture of
    any scope: a module's fixture is set up for its first test)."""
    from codexdoctor.sim import server

    real = server.SimServer.__init__

    def checked(self, *args, **kwargs):
        if not _RUNNING["simulator"]:
            pytest.fail(f"{_RUNNING['test']} starts the simulator: mark it @pytest.mark.simulator", pytrace=False)
        real(self, *args, **kwargs)

    server.SimServer.__init__ = checked
    yield
    server.SimServer.__init__ = real


@pytest.fixture(scope="session", autouse=True)
def sim_counts_each_prompt_once():
    """The simulator counts each request's prompt with the real tokenizer: 5 ms of CPU for Codex's first request,
    which the suite sends thousands of times (two fifths of a simulator-backed check's CPU: issue 37). The count is a
    pure function of the text, so it is remembered: the same numbers, counted once."""
    from codexdoctor.sim import prompt

    real = prompt.Tokens.__dict__["count"]
    prompt.Tokens.count = staticmethod(functools.lru_cache(maxsize=512)(prompt.Tokens.count))
    yield
    prompt.Tokens.count = real


@pytest.fixture(autouse=True)
def clean_machine(tmp_path, monkeypatch):
    """HOME is a temp dir, no key or proxy variables, cwd outside any repo, no `codex --version` probe."""
    for name in list(os.environ):
        if name.upper().startswith(STRIP_PREFIXES) or name.upper().endswith(("_API_KEY", "_KEY", "_TOKEN")):
            monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    (work / ".git").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SHELL", "/bin/bash")
    # COLUMNS and LINES: pytest-xdist's workers have COLUMNS=80, a plain run none; the report's width is the same
    # in both (a pipe's, 100) unless a test sets it.
    for name in ("PROMPT", "WSL_DISTRO_NAME", "PSModulePath", "COLUMNS", "LINES", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CODEXDOCTOR_NO_CODEX_PROBE", "1")
    # The width the tests and snapshots were written for: a pipe got 100 columns until issue 40 (now COLUMNS, else
    # the user's terminal, else 80), and a developer's own terminal (/dev/tty) must not change what a test sees.
    # Tests about widths set their own.
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.chdir(work)
    return home


@pytest.fixture
def home(clean_machine) -> Path:
    return clean_machine


def write_config(home: Path, text: str) -> Path:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


TAOTOKEN = """model = "gpt-5"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
base_url = "https://taotoken.net/api"
env_key = "TAOTOKEN_API_KEY"
wire_api = "responses"
"""


def offline_report(home: Path, env: dict[str, str] | None = None, **kw):
    opts = CheckOptions(
        env={"HOME": str(home), **(env or {})},
        home=home,
        cwd=Path.cwd(),
        offline=True,
        system_config=None,
        codex_version=kw.pop("codex_version", (0, 171, 0)),
        **kw,
    )
    report, _ = run_check(opts)
    return report


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


@pytest.fixture
def run(capsys):
    """Run the real entry point; returns (exit code, stdout, stderr)."""
    from codexdoctor.cli import main

    def _run(*args: str):
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return _run


@pytest.fixture(scope="session")
def demo_reports(tmp_path_factory):
    """{(scenario, lang): report} of every demo scenario in English and Chinese, as `codexdoctor demo` makes them.

    Computed once per run: the scenarios run side by side (flaky-channel waits out its retries' backoff, about 3 s,
    and the rest take a tenth of a second), and under pytest-xdist the first worker to ask computes them under a
    lock while the others read its pickle (xdist's recipe: the run's shared temp folder is new for every run)."""
    try:
        import fcntl
    except ImportError:  # Windows: each worker computes its own
        fcntl = None  # type: ignore[assignment]
    if not os.environ.get("PYTEST_XDIST_WORKER") or fcntl is None:
        return _run_demo_scenarios()
    import pickle

    shared = tmp_path_factory.getbasetemp().parent
    done = shared / "demo-reports.pickle"
    with open(shared / "demo-reports.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            done.write_bytes(pickle.dumps(_run_demo_scenarios()))
        written = done.read_bytes()
    return pickle.loads(written)  # noqa: S301 - written by this run's first worker, in the run's own temp folder


def _run_demo_scenarios():
    from concurrent.futures import ThreadPoolExecutor

    from codexdoctor.commands import demo

    keys = [(s, lang) for s in demo.SCENARIOS for lang in ("en", "zh")]
    with ThreadPoolExecutor(len(keys)) as pool:
        futures = {(s.name, lang): pool.submit(demo.run_scenario, s, lang=lang) for s, lang in keys}
        return {key: future.result().report for key, future in futures.items()}


@pytest.fixture
def sim_server():
    """Start the project's simulator on a free loopback port in a thread; yields a factory."""
    from codexdoctor import sim

    running = []

    def _start(**kwargs):
        server = sim.start(**kwargs)
        running.append(server)
        return server

    yield _start
    for server in running:
        server.stop()
