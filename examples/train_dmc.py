"""Train a Deep Monte Carlo (DMC, as DouZero) agent against the random bot, on one core.

One Q-network values every action of the environment (54 card kinds and ``DONE``, card by
card, with the action masks of :mod:`shengji.env.masks`) from the seat's observation
(:class:`shengji.bots.observation.KernelObserver`, features in [0, 1]). The learning team
(two seats, the same network) plays single hands against two random seats on the kernel
(``KHand.random_action``, the random bot's choices), epsilon-greedy; every step of a hand
with a choice is then regressed (mean squared error) on the levels its team gained or lost
in that hand plus ``--points-weight`` times its points margin (the Monte Carlo return, as
DMC does; the margin tells a 75-point hand from a 45-point one, which the level table
often does not). Forced steps (one action allowed, nearly half of the card steps: the last
card of a pair, a single legal follow) are played without asking the network and are not
learned from: they carry nothing to choose, and leaving them out saves their forward
passes and keeps the buffer for the steps that matter. The learning rate falls linearly
from ``--lr`` to ``--lr-end``, and the model that is evaluated and saved is an
exponential moving average of the weights (``--ema``, Polyak averaging): the raw weights
of a noisy Monte Carlo regression swing by several points of level rate from one
evaluation to the next. The agent's team alternates between the two teams.

``--eps-declare`` explores more while declaring. The agent learns never to declare and
wins its levels as collectors: the random seats (which show a level card at once half the
time) hold the bank in nearly every hand, and forced to declare, the agent loses more
levels as banker than it gains. A hand has several declaring decisions, and when the team
declares (or passes) at random, its earlier declaring steps of that hand are not learned
from (Watkins' cut): regressed on a hand played as banker after a random declaration,
passing looked as bad as declaring, and after ~15,000 hands the greedy agent drifted into
declaring in up to half of the hands, at a level rate of 45-60%.

Every ``--eval-every`` seconds the greedy policy plays ``--eval-hands`` mirrored hands
against random (on fixed deals, not counted in the training time) and the model is saved
as a ``.npz`` (numpy weights) that ``shengji simulate`` plays as ``dmc:PATH``; with
``--best`` the model at ``--out`` is the one of the best evaluation so far (and the latest
is ``MODEL.last.npz``). Needs PyTorch (the ``train`` extra: ``pip install
'shengji[train]'``)::

    python examples/train_dmc.py --minutes 30 --best --out var/dmc/model.npz

The log (one JSON object a line: training seconds, hands, loss, evaluation level rate and
the share of the evaluation hands the agent's team was the banker's) is written beside the
model (``.log.jsonl``).
"""

# ruff: noqa: E402 (the thread limits below must be set before numpy is imported)
from __future__ import annotations

import os

# One core: numpy's BLAS would otherwise start a thread per core for the network's
# matrix-vector products, and its threads spin while they wait (CPU time, not speed).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

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

from shengji.bots.dmc import Weights, q_values
from shengji.env.masks import BURY, DECLARE, KDecision
from shengji.bots.observation import LAYOUT, OBS_SIZE, KernelObserver, scales
from shengji.game.moves import DONE, N_ACTIONS
from shengji.kernel._core import PH_OVER, PH_REDEAL
from shengji.engine.match import THROW_RATE, KMatch, random_streams
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset

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
) -> tuple[float, float, bool]:
    """One hand (the first of a match dealt from ``seed``): the agent's network at the
    seats of ``team``, random players at the others. The levels ``team`` gained (negative:
    lost) and its points margin: the collectors' points (kitty included) above the level
    table's middle (40 a deck), in units of that middle, negated when ``team`` is the
    banker's; and whether ``team`` was the banker's. The agent's (observation, action,
    seat) of each step with a choice go to ``steps`` (forced steps, one action allowed,
    are played without asking the network), except the team's earlier declaring steps
    when it then declares at random (exploring): their return is no longer that of the
    policy's own choice after them (passing, then declaring by chance, would teach that
    passing is as bad as a bad hand as banker)."""
    m = KMatch(options, seed)
    declaring: list[int] = []  # indices in steps of the team's declaring steps so far
    dropped: set[int] = set()
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
        base: npt.NDArray[np.float32] | None = None
        while True:
            allowed = np.flatnonzero(d.mask)
            if len(allowed) == 1:  # forced: nothing to choose, nothing to learn
                a = int(allowed[0])
            else:
                if base is None:
                    base = observer.vector(seat)
                obs = base
                if d.cards:
                    obs = base.copy()
                    counts = np.bincount(d.cards, minlength=54).astype(np.float32)
                    obs[_SELECTION : _SELECTION + 54] = counts * sel_scale
                explored = rng.random() < eps
                if explored:
                    a = int(allowed[rng.randrange(len(allowed))])
                else:
                    q = q_values(weights, obs)
                    a = int(allowed[np.argmax(q[allowed])])
                if steps is not None:
                    if d.kind == DECLARE:
                        if explored:
                            dropped.update(declaring)
                        declaring.append(len(steps))
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
    if steps is not None and dropped:
        steps[:] = [s for i, s in enumerate(steps) if i not in dropped]
    result = m.finish_hand()
    o = result.outcome
    bteam = o.banker_seat % 2
    up = bteam if o.side == "banker" else 1 - bteam
    middle = 40 * options.decks
    margin = (result.points - middle) / middle
    levels = float(o.moved if up == team else -o.moved)
    return levels, margin if bteam != team else -margin, bteam == team


def evaluate(options: RuleOptions, weights: Weights, deals: int, seed: int) -> tuple[float, float]:
    """The greedy agent's level rate against random over ``deals`` mirrored deals, and
    the share of those hands its team was the banker's."""
    gained = total = 0.0
    banker = 0
    rng = random.Random(seed)
    for i in range(deals):
        for team in (0, 1):
            r, _, was_banker = play_hand(options, seed + i, team, weights, 0.0, rng, None)
            gained += max(r, 0.0)
            total += abs(r)
            banker += was_banker
    return (gained / total if total else 0.5), banker / max(1, 2 * deals)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="shuangsheng")
    ap.add_argument("--minutes", type=float, default=30.0, help="training time (CPU)")
    ap.add_argument("--out", type=Path, default=Path("var/dmc/model.npz"))
    ap.add_argument("--hidden", default="512,256,256")
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument(
        "--lr-end", type=float, default=5e-5, help="learning rate at the end (linear decay)"
    )
    ap.add_argument(
        "--ema",
        type=float,
        default=0.999,
        help="decay of the averaged weights (Polyak) that are evaluated and saved (0: none)",
    )
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--buffer", type=int, default=200_000)
    ap.add_argument("--hands-per-update", type=int, default=4)
    ap.add_argument("--updates", type=int, default=2, help="gradient steps per update")
    ap.add_argument("--eps-start", type=float, default=0.1)
    ap.add_argument("--eps-end", type=float, default=0.01)
    ap.add_argument(
        "--eps-declare",
        type=float,
        default=0.1,
        help="more exploration while declaring (the agent soon learns never to declare)",
    )
    ap.add_argument("--eval-every", type=float, default=60.0, help="seconds of training")
    ap.add_argument("--eval-hands", type=int, default=400, help="hands (mirrored pairs)")
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
    ap.add_argument(
        "--best",
        action="store_true",
        help="save as --out the evaluated model of best level rate (the latest: .last.npz)",
    )
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
    lr_end = args.lr_end
    avg = make_net([int(x) for x in args.hidden.split(",")])  # the averaged weights
    avg.load_state_dict(net.state_dict())
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
    best_rate = -1.0
    while True:
        if trained >= next_eval or trained >= budget:
            kept = weights_of(avg) if args.ema else weights
            rate, banker = evaluate(options, kept, args.eval_hands // 2, eval_seed)
            better = rate > best_rate
            if args.best:  # --out: the best evaluated so far; .last.npz: the latest
                save(kept, args.out.with_suffix(".last.npz"))
                if better:
                    save(kept, args.out)
            else:
                save(kept, args.out)
            best_rate = max(best_rate, rate)
            if args.keep:  # each evaluated model, to pick one by a later measurement
                save(kept, args.out.with_suffix(f".{round(trained)}s.npz"))
            row = {
                "seconds": round(trained, 1),
                "hands": hands,
                "loss": round(float(np.mean(losses)), 4) if losses else None,
                "train_levels": round(float(np.mean(recent)), 3) if recent else None,
                "eval_level_rate": round(rate, 4),
                "eval_banker": round(banker, 3),
                "eval_hands": 2 * (args.eval_hands // 2),
                "best": better,
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
        for group in opt.param_groups:
            group["lr"] = args.lr + (lr_end - args.lr) * min(1.0, trained / budget)
        for _ in range(args.hands_per_update):
            steps: list[tuple[npt.NDArray[np.float32], int, int]] = []
            team = hands % 2
            seed = rng.randrange(2**31 - 1)
            levels, margin, _ = play_hand(
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
            if args.ema:
                with torch.no_grad():
                    for pa, pn in zip(avg.parameters(), net.parameters(), strict=True):
                        pa.mul_(args.ema).add_(pn, alpha=1 - args.ema)
        weights = weights_of(net)
        trained += time.process_time() - t0
    log.close()


if __name__ == "__main__":
    main()
