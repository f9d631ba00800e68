"""Train a Deep Monte Carlo (DMC, as DouZero) agent against the random bot, on one core.

One Q-network values every action of the environment (54 card kinds and ``DONE``, card by
card, with the action masks of :mod:`shengji.env.masks`) from the seat's observation
(:class:`shengji.env.observation.KernelObserver`, features in [0, 1]). The learning team
(two seats, the same network) plays single hands against two random seats on the kernel
(``KHand.random_action``, the random bot's choices), epsilon-greedy; every step of a hand
is then regressed (mean squared error) on the levels its team gained or lost in that hand
plus ``--points-weight`` times its points margin (the Monte Carlo return, as DMC does; the
margin tells a 75-point hand from a 45-point one, which the level table often does not).
The agent's team alternates between the two teams. ``--eps-declare`` explores more while
declaring: left alone, a few bad hands as banker early on teach the agent never to
declare, so the random seats hold the bank in nearly every hand (it was tried at 0.3: in
6 minutes the agent declared, but had not learned to play as banker).

Every ``--eval-every`` seconds the greedy policy plays ``--eval-hands`` mirrored hands
against random (not counted in the training time) and the model is saved as a ``.npz``
(numpy weights) that ``shengji simulate`` plays as ``dmc:PATH``. Needs PyTorch (the
``train`` extra: ``pip install 'shengji[train]'``)::

    python examples/train_dmc.py --minutes 30 --out var/dmc/model.npz

The log (one JSON object a line: training seconds, hands, loss, evaluation level rate) is
written beside the model (``.log.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from shengji.bots.dmc import Weights, best, q_values
from shengji.env.masks import BURY, DECLARE, KDecision
from shengji.env.observation import LAYOUT, OBS_SIZE, KernelObserver, scales
from shengji.kernel._core import PH_OVER, PH_REDEAL
from shengji.kernel.match import THROW_RATE, KMatch, random_streams
from shengji.moves import DONE, N_ACTIONS
from shengji.options import RuleOptions
from shengji.presets import load_preset

_SELECTION = dict(LAYOUT)["hand"]


def make_net(hidden: list[int]) -> nn.Sequential:
    """An MLP from the observation to one value per action."""
    layers: list[nn.Module] = []
    size = OBS_SIZE
    for h in hidden:
        layers += [nn.Linear(size, h), nn.ReLU()]
        size = h
    layers.append(nn.Linear(size, N_ACTIONS))
    return nn.Sequential(*layers)


def weights_of(net: nn.Sequential) -> Weights:
    """The network's layers as numpy arrays ``(w, b)`` (``x @ w + b``)."""
    return [
        (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
        for m in net
        if isinstance(m, nn.Linear)
    ]


def save(weights: Weights, path: Path) -> None:
    """Save the weights as the ``.npz`` that :class:`shengji.bots.dmc.DmcBot` loads."""
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(weights):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)


def play_hand(
    options: RuleOptions,
    seed: int,
    team: int,
    weights: Weights,
    epsilon: float,
    rng: random.Random,
    steps: list[tuple[npt.NDArray[np.float32], int, int]] | None,
    epsilon_declare: float = 0.0,
) -> tuple[float, float]:
    """One hand (the first of a match dealt from ``seed``): the agent's network at the
    seats of ``team``, random players at the others. The levels ``team`` gained (negative:
    lost) and its points margin: the collectors' points (kitty included) above the level
    table's middle (40 a deck), in units of that middle, negated when ``team`` is the
    banker's; the agent's (observation, action, seat) of each step go to ``steps``."""
    m = KMatch(options, seed)
    observer = KernelObserver(m)
    streams = random_streams(seed)
    sel_scale = scales(options)[_SELECTION : _SELECTION + 54]
    while True:
        h = m.hand
        h.advance()
        if h.phase == PH_REDEAL:
            m.redeal()
            continue
        if h.phase == PH_OVER:
            break
        seat = h.to_act
        if seat % 2 != team:
            h.random_action(streams[seat], THROW_RATE)
            continue
        d = KDecision(h, m.core)
        eps = max(epsilon, epsilon_declare) if d.kind == DECLARE else epsilon
        base = observer.vector(seat)
        while True:
            obs = base
            if d.cards:
                obs = base.copy()
                counts = np.bincount(d.cards, minlength=54).astype(np.float32)
                obs[_SELECTION : _SELECTION + 54] = counts * sel_scale
            mask = d.mask.astype(np.bool_)
            if rng.random() < eps:
                a = rng.choice(np.flatnonzero(mask).tolist())
            else:
                a = best(q_values(weights, obs), mask)
            if steps is not None:
                steps.append((obs, a, seat))
            if a == DONE:
                break
            d.add(a)
        cards = d.cards
        if d.kind == DECLARE:
            if cards:
                h.declare(cards[0], len(cards))
            else:
                h.pass_turn()
        elif d.kind == BURY:
            h.bury(cards)
        else:
            h.play_cards(cards)
    result = m.finish_hand()
    o = result.outcome
    bteam = o.banker_seat % 2
    up = bteam if o.side == "banker" else 1 - bteam
    middle = 40 * options.decks
    margin = (result.points - middle) / middle
    return float(o.moved if up == team else -o.moved), margin if bteam != team else -margin


def evaluate(options: RuleOptions, weights: Weights, deals: int, seed: int) -> float:
    """The greedy agent's level rate against random over ``deals`` mirrored deals."""
    gained = total = 0.0
    rng = random.Random(seed)
    for i in range(deals):
        for team in (0, 1):
            r = play_hand(options, seed + i, team, weights, 0.0, rng, None)[0]
            gained += max(r, 0.0)
            total += abs(r)
    return gained / total if total else 0.5


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="shuangsheng")
    ap.add_argument("--minutes", type=float, default=30.0, help="training time (CPU)")
    ap.add_argument("--out", type=Path, default=Path("var/dmc/model.npz"))
    ap.add_argument("--hidden", default="512,256,256")
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--buffer", type=int, default=200_000)
    ap.add_argument("--hands-per-update", type=int, default=4)
    ap.add_argument("--updates", type=int, default=2, help="gradient steps per update")
    ap.add_argument("--eps-start", type=float, default=0.2)
    ap.add_argument("--eps-end", type=float, default=0.02)
    ap.add_argument(
        "--eps-declare",
        type=float,
        default=0.0,
        help="more exploration while declaring (the agent soon learns never to declare)",
    )
    ap.add_argument("--eval-every", type=float, default=120.0, help="seconds of training")
    ap.add_argument("--eval-hands", type=int, default=200, help="hands (mirrored pairs)")
    ap.add_argument(
        "--points-weight",
        type=float,
        default=0.5,
        help="weight of the points margin added to the levels in the return (0: levels only)",
    )
    ap.add_argument("--init", type=Path, help="start from this saved model")
    ap.add_argument(
        "--trained", type=float, default=0.0, help="minutes --init was trained (of --minutes)"
    )
    ap.add_argument("--keep", action="store_true", help="also keep each evaluated model")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    options = load_preset(args.preset)
    net = make_net([int(x) for x in args.hidden.split(",")])
    if args.init:  # go on from a saved model (its training time counts: --trained)
        layers = [m for m in net if isinstance(m, nn.Linear)]
        with np.load(args.init) as z, torch.no_grad():
            for i, layer in enumerate(layers):
                layer.weight.copy_(torch.from_numpy(z[f"w{i}"].T.copy()))
                layer.bias.copy_(torch.from_numpy(z[f"b{i}"]))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    weights = weights_of(net)
    cap = args.buffer
    buf_obs = np.zeros((cap, OBS_SIZE), dtype=np.float16)
    buf_act = np.zeros(cap, dtype=np.int64)
    buf_ret = np.zeros(cap, dtype=np.float32)
    filled = at = 0
    log_path = args.out.with_suffix(".log.jsonl")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("w")
    budget = 60.0 * args.minutes
    trained = 60.0 * args.trained
    next_eval = trained
    hands = 0
    losses: list[float] = []
    recent: list[float] = []
    eval_seed = 10**9
    while True:
        if trained >= next_eval or trained >= budget:
            rate = evaluate(options, weights, args.eval_hands // 2, eval_seed)
            save(weights, args.out)
            if args.keep:  # each evaluated model, to pick one by a later measurement
                save(weights, args.out.with_suffix(f".{round(trained)}s.npz"))
            row = {
                "seconds": round(trained, 1),
                "hands": hands,
                "loss": round(float(np.mean(losses)), 4) if losses else None,
                "train_levels": round(float(np.mean(recent)), 3) if recent else None,
                "eval_level_rate": round(rate, 4),
                "eval_hands": 2 * (args.eval_hands // 2),
            }
            print(json.dumps(row), flush=True)
            log.write(json.dumps(row) + "\n")
            log.flush()
            losses, recent = [], []
            next_eval += args.eval_every
            if trained >= budget:
                break
        t0 = time.process_time()
        eps = args.eps_end + (args.eps_start - args.eps_end) * max(0.0, 1 - trained / (budget / 2))
        for _ in range(args.hands_per_update):
            steps: list[tuple[npt.NDArray[np.float32], int, int]] = []
            team = hands % 2
            seed = rng.randrange(2**31 - 1)
            levels, margin = play_hand(
                options, seed, team, weights, eps, rng, steps, args.eps_declare
            )
            ret = levels + args.points_weight * margin
            hands += 1
            recent.append(levels)
            for obs, a, _seat in steps:
                buf_obs[at], buf_act[at], buf_ret[at] = obs, a, ret
                at = (at + 1) % cap
                filled = min(filled + 1, cap)
        for _ in range(args.updates):
            idx = np.random.randint(0, filled, size=min(args.batch, filled))
            x = torch.from_numpy(buf_obs[idx].astype(np.float32))
            acts = torch.from_numpy(buf_act[idx])
            y = torch.from_numpy(buf_ret[idx])
            q = net(x).gather(1, acts[:, None]).squeeze(1)
            loss = nn.functional.mse_loss(q, y)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            losses.append(loss.item())
        weights = weights_of(net)
        trained += time.process_time() - t0
    log.close()


if __name__ == "__main__":
    main()
