"""The DMC bot (``dmc:PATH``) plays a saved Q-network from its own view in ``simulate``;
``examples/train_dmc.py`` trains one (skipped without PyTorch, the ``train`` extra)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numpy")

from shengji.bots.dmc import DmcBot, load_weights, q_values
from shengji.bots.registry import make_player
from shengji.env import OBS_SIZE
from shengji.errors import ShengjiError
from shengji.game.moves import N_ACTIONS
from shengji.rules.presets import load_preset
from shengji.tools.simulate import Settings, run_job
from shengji.tools.tally import summarise

ROOT = Path(__file__).resolve().parent.parent


def _random_model(path: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    sizes = [OBS_SIZE, 32, N_ACTIONS]
    arrays: dict[str, Any] = {}
    for i in range(len(sizes) - 1):
        arrays[f"w{i}"] = rng.normal(0, 0.1, (sizes[i], sizes[i + 1])).astype(np.float32)
        arrays[f"b{i}"] = np.zeros(sizes[i + 1], dtype=np.float32)
    np.savez(path, **arrays)
    return path


def test_a_saved_model_plays_whole_hands_in_simulate(tmp_path: Path) -> None:
    model = _random_model(tmp_path / "m.npz")
    assert isinstance(make_player(f"dmc:{model}", 1, 0), DmcBot)
    weights = load_weights(model)
    assert q_values(weights, np.zeros(OBS_SIZE, dtype=np.float32)).shape == (N_ACTIONS,)
    settings = Settings(
        options=load_preset("shuangsheng"),
        players=(f"dmc:{model}", "random"),
        hands=8,
        mirror=True,
    )
    summary = summarise(settings, [run_job(settings, job) for job in settings.jobs()])
    assert summary.hands == 8 and not summary.forfeits


def test_a_missing_model_is_a_bad_spec(tmp_path: Path) -> None:
    with pytest.raises(ShengjiError, match="BAD_BOT_SPEC"):
        make_player("dmc", 0, 0)
    with pytest.raises(ShengjiError, match="BAD_BOT_SPEC"):
        make_player(f"dmc:{tmp_path / 'none.npz'}", 0, 0)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs the train extra")
def test_the_training_example_saves_a_model_that_plays(tmp_path: Path) -> None:
    out = tmp_path / "model.npz"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = ["--minutes", "0.05", "--eval-every", "1", "--eval-hands", "4", "--out", str(out)]
    args += ["--hidden", "32", "--batch", "64", "--best"]
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_dmc.py"), *args],
        check=True,
        env=env,
        capture_output=True,
        timeout=120,
    )
    rows = [json.loads(line) for line in out.with_suffix(".log.jsonl").read_text().splitlines()]
    assert rows[0]["hands"] == 0 and rows[-1]["hands"] > 0
    assert all(0 <= r["eval_level_rate"] <= 1 for r in rows)
    assert len(load_weights(out)) == 2
    assert len(load_weights(out.with_suffix(".last.npz"))) == 2  # --best keeps the latest too


def test_a_four_seat_model_refuses_a_zhaopengyou_table(tmp_path: Path) -> None:
    """The model reads the four-seat observation: at a 找朋友 table it says so instead of
    feeding the network a vector of another size."""
    import random

    from shengji.bots.random_bot import random_action
    from shengji.game.flow import apply, new_match
    from shengji.game.views import seat_view

    bot = DmcBot(0, str(_random_model(tmp_path / "m.npz")))
    st = new_match(load_preset("zhaopengyou", {"players": 6}), 1)
    rng = random.Random(1)
    while st.phase != "play":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    with pytest.raises(ShengjiError, match="BAD_BOT_SPEC.*cannot play a 找朋友 table of 6"):
        bot.act(seat_view(st, st.to_act))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="counts threads in /proc")
def test_the_dmc_bot_keeps_blas_to_one_thread() -> None:
    """Loading ``dmc:`` in a fresh process (as a simulate worker does) limits numpy's BLAS
    to one thread before numpy starts: no thread besides the main one (without it,
    OpenBLAS starts one per core), and the variables a user set are left alone."""
    code = (
        "import os\n"
        "from shengji.bots.dmc import DmcBot\n"
        "import numpy as np\n"
        "np.ones((64, 64)) @ np.ones((64, 64))  # BLAS at work\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'],"
        " len(os.listdir('/proc/self/task')))\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
    }
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1", "1", "1"]
    env["OMP_NUM_THREADS"] = "3"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.stdout.split()[:2] == ["1", "3"]


def test_without_numpy_the_dmc_bot_names_the_extra(tmp_path: Path) -> None:
    """``dmc:`` where numpy is not installed: ``MISSING_EXTRA`` saying what to install, no
    traceback (as a bot spec of ``simulate``, and from ``make_player``)."""
    code = (
        "import sys\n"
        "sys.modules['numpy'] = None  # not installed\n"
        "from shengji.bots.registry import make_player\n"
        "from shengji.tools.cli import main\n"
        "from shengji.errors import ShengjiError\n"
        "try:\n"
        "    make_player('dmc:model.npz', 0, 0)\n"
        "except ShengjiError as e:\n"
        "    print('code', e.code)\n"
        "sys.exit(main(['simulate', '--players', 'dmc:model.npz,random', '--hands', '2']))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2
    assert run.stdout.strip() == "code MISSING_EXTRA"
    assert "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [
        "error: MISSING_EXTRA: the dmc bot needs the 'rl' extra (numpy missing): "
        "pip install 'shengji[rl]'",
        "the dmc bot 需要附加组件 'rl' (缺少 numpy): pip install 'shengji[rl]'",
    ]
