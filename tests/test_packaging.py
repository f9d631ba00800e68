"""Packaging: the rules core installs with no runtime dependency and plays a hand in a
clean virtual environment with no third-party package; commands that need an extra say
which one; one version string."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import shengji
from shengji.errors import ShengjiError
from shengji.tools.commands import need_extra

ROOT = Path(__file__).parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# Run in the clean environment: the rules API, a hand between bots, its record verified,
# and the list of imported modules that come from site-packages but not from shengji.
PLAY = """
import json, sys
import shengji
from shengji import TrumpContext, classify_lead, load_preset, parse_cards
from shengji.bots.registry import make_player
from shengji.game.players import run_match
from shengji.game.record import verify
from shengji.game.views import observe

ctx = TrumpContext(load_preset("shuangsheng"), level=6, trump="S")
players = [make_player("random", seat, 3) for seat in range(4)]
final, rec = run_match(load_preset("shuangsheng"), 3, players, stop_after_hand=True)
again = verify(rec.record(final))
third = sorted(
    name for name, mod in sys.modules.items()
    if "site-packages" in (getattr(mod, "__file__", None) or "")
    and not name.startswith("shengji")
    and not name.startswith("_distutils_hack")  # the venv's own setuptools .pth hook
)
print(json.dumps({
    "version": shengji.__version__,
    "kind": classify_lead(ctx, parse_cards("C5 C5 C7 C7")).kind,
    "phase": final.phase,
    "same": again.results == final.results,
    "hand": len(observe(final, 0)["score_sheet"]),
    "third_party": third,
}))
"""


def _clean_env() -> dict[str, str]:
    """The environment without pip settings (no extra indexes, find-links, constraints)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (cmd, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


@pytest.fixture(scope="module")
def pure_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the package, pure Python, built from a copy of the tree (no build output
    left in the working tree)."""
    tmp = tmp_path_factory.mktemp("wheel")
    proj = tmp / "proj"
    proj.mkdir()
    for name in ("pyproject.toml", "README.md", "setup.py"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, proj / name)
    junk = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "*.sha256")
    shutil.copytree(ROOT / "src", proj / "src", ignore=junk)
    build_env = dict(os.environ, SHENGJI_PURE="1")
    wheels = tmp / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    _run([*build, "-w", str(wheels), str(proj)], proj, build_env)
    (wheel,) = wheels.glob("shengji-*.whl")
    return wheel


@pytest.mark.slow  # 6-20 s: a venv, a wheel build and an install
def test_core_installs_and_plays_with_no_third_party_package(
    tmp_path: Path, pure_wheel: Path
) -> None:
    wheel = pure_wheel
    # a clean venv; no index: any runtime dependency would fail to install
    venv = tmp_path / "venv"
    env = _clean_env()
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    py = str(venv / "bin" / "python")
    _run([py, "-m", "pip", "install", "-q", "--no-index", str(wheel)], tmp_path, env)
    listed = json.loads(_run([py, "-m", "pip", "list", "--format=json"], tmp_path, env))
    names = {p["name"].lower() for p in listed} - {"pip", "setuptools"}
    assert names == {"shengji"}

    out = json.loads(_run([py, "-c", PLAY], tmp_path, env))
    assert out == {
        "version": PYPROJECT["project"]["version"],
        "kind": "tractor",
        "phase": "hand_over",
        "same": True,
        "hand": 1,
        "third_party": [],
    }

    # commands that need an extra name it; a library import of the RL extra too
    serve = subprocess.run(
        [str(venv / "bin" / "shengji"), "serve"], cwd=tmp_path, env=env, capture_output=True
    )
    assert serve.returncode == 2
    assert "MISSING_EXTRA" in serve.stderr.decode()
    assert "pip install 'shengji[server]'" in serve.stderr.decode()
    rl = subprocess.run(
        [py, "-c", "import shengji.env"], cwd=tmp_path, env=env, capture_output=True
    )
    assert rl.returncode == 1
    assert "pip install 'shengji[rl]'" in rl.stderr.decode()


def test_one_version_string() -> None:
    assert shengji.__version__ == PYPROJECT["project"]["version"]


def test_no_runtime_dependencies_and_extras() -> None:
    project = PYPROJECT["project"]
    assert project["dependencies"] == []
    extras = project["optional-dependencies"]
    assert sorted(extras) == ["dev", "plot", "ray", "rl", "server", "train", "tui"]
    assert "shengji[server,tui,plot,rl,ray]" in extras["dev"]
    # PyTorch (examples/train_dmc.py) is gigabytes: neither in `dev` nor in the lock
    assert not any("torch" in r or "train" in r for r in extras["dev"])


def test_lock_pins_every_requirement() -> None:
    lines = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    pins = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    names = {k.lower().replace("_", "-") for k in pins}
    for extra, reqs in PYPROJECT["project"]["optional-dependencies"].items():
        if extra == "train":  # PyTorch: installed by hand for the training example only
            continue
        for req in reqs:
            name = req.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip()
            if name != "shengji":
                assert name.lower().replace("_", "-") in names, name
    # never imported anywhere: no longer required (matplotlib still brings pyparsing)
    required = " ".join(
        r for rs in PYPROJECT["project"]["optional-dependencies"].values() for r in rs
    )
    assert "pyparsing" not in required and "anyio" not in required


def test_missing_extra_names_it() -> None:
    with pytest.raises(ShengjiError) as err:
        need_extra("server", "no_such_module_here")
    assert err.value.code == "MISSING_EXTRA"
    assert err.value.params == {"extra": "server", "missing": "no_such_module_here"}
    assert str(err.value).splitlines() == [
        "MISSING_EXTRA: this command needs the 'server' extra (no_such_module_here not "
        "installed): pip install 'shengji[server]'",
        "这个命令需要附加组件 'server' (缺少 no_such_module_here): pip install 'shengji[server]'",
    ]
    need_extra("server", "json")  # a module that is there: nothing happens


@pytest.mark.parametrize(
    ("package", "module", "extra"),
    [
        ("shengji.server", "fastapi", "server"),
        ("shengji.tui", "websockets", "tui"),
        ("shengji.tui.app", "textual", "tui"),
    ],
)
def test_a_part_without_its_extra_names_the_extra(package: str, module: str, extra: str) -> None:
    code = (
        "import importlib.util as u, sys\n"
        f"sys.modules[{module!r}] = None  # an import of it fails\n"
        "real = u.find_spec\n"
        f"u.find_spec = lambda n, *a: None if n == {module!r} else real(n, *a)\n"
        "try:\n"
        f"    import {package}\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e, '|', e.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    en, zh = out.stdout.splitlines()  # in both languages, as the command line says it
    assert en.startswith(f"{package} needs the '{extra}' extra ({module} missing)")
    assert en.endswith(f"pip install 'shengji[{extra}]'")
    install = f"pip install 'shengji[{extra}]'"
    assert zh == f"{package} 需要附加组件 '{extra}' (缺少 {module}): {install} | {module}"


#: What each extra enables, run where the package and that extra alone are installed:
#: commands (``shengji`` or ``python`` of that environment) with their standard input, and
#: modules of other extras that must not have come with it.
EXTRA_RUNS: dict[str, tuple[list[tuple[str, str]], tuple[str, ...]]] = {
    "plot": (
        [("shengji simulate --players random,random --hands 4 --plot p.png", "")],
        ("ray", "textual", "fastapi"),
    ),
    "ray": (
        [("shengji simulate --backend ray --players heuristic,random --hands 4 --quiet", "")],
        ("rich", "matplotlib", "textual", "fastapi"),
    ),
    "rl": ([("python -c 'import shengji.env'", "")], ("rich", "matplotlib", "ray")),
    "tui": (
        [
            ("python -c 'import shengji.tui.app'", ""),
            ("shengji play --plain --lang en --preset classic-1deck", "quit\n"),
        ],
        ("matplotlib", "ray", "fastapi", "uvicorn"),
    ),
    "server": (
        [("shengji loadtest --rooms 2 --duration 2 --think 0.2", "")],
        ("rich", "matplotlib", "ray", "textual"),
    ),
}


def test_each_extra_has_its_commands_to_run_alone() -> None:
    # `train` is PyTorch (gigabytes, not installed by the tests): tests/test_dmc.py runs its
    # example where it is installed
    extras = set(PYPROJECT["project"]["optional-dependencies"]) - {"dev", "train"}
    assert sorted(EXTRA_RUNS) == sorted(extras)


@pytest.mark.slow  # 30-90 s each: a venv, the extra installed, its commands run
@pytest.mark.parametrize("extra", sorted(EXTRA_RUNS))
def test_each_extra_alone_runs_the_commands_it_enables(
    extra: str, tmp_path: Path, pure_wheel: Path
) -> None:
    """The package with one extra in a fresh virtual environment, installed from where
    pip is set up to install from (an index, or the machine's wheel cache); skipped when
    pip cannot get the extra's packages there (offline, no cache)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    py = str(venv / "bin" / "python")
    target = f"{pure_wheel}[{extra}]"
    pip = [py, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    trial = subprocess.run(
        [*pip, "--dry-run", target], capture_output=True, text=True, env=env, timeout=600
    )
    if trial.returncode != 0:
        why = (trial.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"pip cannot get the {extra!r} extra's packages here: {why}")
    _run([*pip, target], tmp_path, env)
    commands, absent = EXTRA_RUNS[extra]
    probe = f"import importlib.util as u; print(*[m for m in {absent!r} if u.find_spec(m)])"
    assert _run([py, "-c", probe], tmp_path, env).split() == []  # the extra alone
    for command, stdin in commands:
        argv = shlex.split(command)
        cmd = [str(venv / "bin" / argv[0]), *argv[1:]]
        done = subprocess.run(
            cmd, cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
