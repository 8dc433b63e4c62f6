"""The seat's task (``Observation.task``, :mod:`folkcards.engine.task`).

At every point of seeded random matches of every game, variant and seat: the task is
present exactly when the observation's seat is to act (never for a spectator or a deal
that is over); its code is in :data:`MESSAGES` with exactly its params as placeholders;
the params are JSON-ready and typed by the conventions; the English rendering is its
``text``; its rules are defined by its game's rules file; it is in the observation's dict
form; and it never differs between two worlds the seat cannot tell apart (the task of a
world determinized from the seat's observation is the same). Every code has a template in
both catalogs, for the terminal (``terminal.task.<code>``) and the web (``tasks.<code>``),
with the same placeholders.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from folkcards.cards import CARD_NAMES
from folkcards.engine import TASK_MESSAGES, Task
from folkcards.engine.api import SPECTATOR, DealState, Game, Observation
from folkcards.engine.explain import RULE_ID
from folkcards.engine.match import Match
from folkcards.engine.selfcheck import plan_variants, variant_for
from folkcards.engine.task import MESSAGES, placeholders, render_task, task
from folkcards.games import GAMES
from folkcards.guide import LANGS, messages

RULE_FILES = {
    "SAS": "sasku",
    "SCO": "scopone",
    "SHP": "sheepshead",
    "SAT": "satat",
    "HUU": "huutopussi",
}
SEATS = {"giver", "to", "asker", "bidder", "declarer", "leader"}
NUMBERS = {"bid", "total", "k", "n", "count"}
SEEN: Counter[str] = Counter()


@cache
def rules_text(prefix: str, rules_dir: str) -> str:
    return (Path(rules_dir) / f"{RULE_FILES[prefix]}.md").read_text(encoding="utf-8")


def rule_defined(rule: str, rules_dir: Path) -> bool:
    text = rules_text(rule.split("-")[0], str(rules_dir))
    return re.search(rf"(?:\| |## |\*\*|^){re.escape(rule)}(?![\d.]*\d)", text, re.M) is not None


def positions(game: Game, matches: int, deals: int) -> Iterator[DealState]:
    """Every position of ``matches`` seeded random matches (at most ``deals`` deals each,
    so that carried state — Satat's card passing — is reached), cycling the variants."""
    targets, _ = plan_variants(game)
    for i in range(matches):
        rng = random.Random(f"task:{game.name}:{i}")
        match = Match(game, variant_for(game, targets[i % len(targets)], rng), rng=rng)
        for _ in range(deals):
            if match.is_over:
                break
            state = match.new_deal()
            while True:
                yield state
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))
            match.finish_deal()


def check_task(tk: Task, obs: Observation, rules_dir: Path) -> None:
    """Everything a task promises, for the observation it was read from."""
    assert tk.code in MESSAGES, tk
    assert placeholders(MESSAGES[tk.code]) == set(tk.params), tk
    assert tk.render() == tk.text == render_task(tk.code, tk.params), tk
    assert json.loads(json.dumps(tk.to_dict())) == tk.to_dict() == obs.to_dict()["task"]
    assert tk == task(tk.code, tk.rules, **tk.params)
    for rule in tk.rules:
        assert RULE_ID.fullmatch(rule), tk
        assert RULE_FILES[rule.split("-")[0]] == obs.game, f"{rule} cited by {obs.game}"
        assert rule_defined(rule, rules_dir), f"{rule} is not defined in the rules ({tk})"
    for name, value in tk.params.items():
        if name in SEATS:
            assert type(value) is int and 0 <= value < obs.num_seats and value != obs.seat, tk
        elif name == "card":
            assert value in CARD_NAMES, tk
        elif name == "cards":
            assert isinstance(value, list) and value and all(c in CARD_NAMES for c in value)
        elif name in ("bids", "contracts"):
            assert value == sorted(value) and value and all(type(v) is int for v in value)
        elif name == "suit":
            assert value is None or value in ("C", "S", "H", "D"), tk
        elif name == "side":
            assert value in ("left", "right"), tk
        elif name == "phase":
            assert value == obs.phase, tk
        else:
            assert name in NUMBERS and type(value) is int and value >= 1, tk
    if "k" in tk.params and "total" in tk.params:
        assert tk.params["k"] <= tk.params["total"], tk


@pytest.mark.parametrize("name", list(GAMES))
def test_the_task_is_the_seats_decision_and_only_what_it_knows(name: str, rules_path: Path) -> None:
    game = GAMES[name]
    crng = random.Random(f"task-worlds:{name}")
    steps = 0
    for state in positions(game, matches=6, deals=3):
        for seat in range(state.num_seats):
            obs = state.observation(seat)
            tk = obs.task
            acting = not state.is_over and seat == state.to_act
            assert (tk is not None) == acting, (name, state.phase, seat)
            if tk is None:
                assert obs.to_dict()["task"] is None
                continue
            SEEN[tk.code] += 1
            check_task(tk, obs, rules_path)
            # a world the seat cannot tell from this one asks it the same
            if steps % 3 == 0:
                world = game.determinize(obs, crng)
                assert world.observation(seat).task == tk, (name, state.phase)
            steps += 1
            again = pickle.loads(pickle.dumps(obs))
            assert again == obs and again.task == tk
        assert state.public_observation().task is None
        assert state.public_observation().seat == SPECTATOR
    assert steps > 100


def test_most_codes_occur_in_random_play() -> None:
    """The random matches above reach all but the rarest codes (run after them)."""
    if not SEEN:
        pytest.skip("runs with the random matches")
    rare = {
        "other",
        "sasku_declare",
        "sasku_override",
        "sasku_auction_none",
        "sasku_give",
        "sasku_return",
        "sat_propose",
        "sat_consent",
        "sat_continue",
        "sat_give",
        "huu_bidding",
        "huu_bidding_over_open",
        "huu_only_pass_redeal",
        "huu_follow_declare",
        "shp_call_none",
    }
    missing = sorted(set(MESSAGES) - set(SEEN) - rare)
    assert missing == [], f"codes no random match produced: {missing}"


def _template_names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_catalog_templates_with_its_params(lang: str) -> None:
    data = messages(lang)
    for where in ("terminal.task", "tasks"):
        table = data
        for part in where.split("."):
            table = table[part]
        for code, english in MESSAGES.items():
            assert code in table, f"messages.{lang}.json: {where}.{code} is missing"
            want = placeholders(english)
            assert _template_names(table[code]) == want, f"{lang} {where}.{code}"
            one = table.get(code + "_one")
            if one is not None:
                assert _template_names(one) == want, f"{lang} {where}.{code}_one"
    assert TASK_MESSAGES is MESSAGES


def test_trick_tasks_count_the_tricks_from_the_seats_history() -> None:
    """``lead`` names the trick to lead; ``follow`` the leader and the card led (Sasku: a
    fixed deal played to the second trick)."""
    game = GAMES["sasku"]
    state = game.random_deal(random.Random(3))
    while state.phase != "play":
        legal = state.legal_actions()
        state.apply(next((a for a in legal if a.text in ("pass", "keep")), legal[0]))
    seen = []
    for _ in range(5):
        obs = state.observation(state.to_act)
        assert obs.task is not None
        seen.append((obs.task.code, obs.task.params.get("n")))
        if obs.task.code == "follow":
            leader = obs.task.params["leader"]
            assert obs.info["trick"][0] == [leader, obs.task.params["card"]]
        state.apply(state.legal_actions()[0])
    assert seen == [("lead", 1), ("follow", 1), ("follow", 1), ("follow", 1), ("lead", 2)]


def test_a_game_without_tasks_says_none() -> None:
    """``Game.task`` says None by default, and an observation of an unknown game has none."""
    state = GAMES["scopone"].random_deal(random.Random(1))
    obs = state.observation(state.to_act)
    assert obs.task is not None and obs.task.code == "scopone_play"
    assert Game.task(GAMES["scopone"], obs) is None
    from dataclasses import replace

    assert replace(obs, game="no-such-game").task is None


def test_satats_rarer_tasks_in_a_scripted_deal(rules_path: Path) -> None:
    """SAT-4.7, SAT-6.1, SAT-6.2, SAT-7: trump, propose, consent, give ×4 (winners to the
    left, losers to the right), announce, lead, lese, follow — and the terminal says them."""
    from folkcards.engine.records import load_deal
    from folkcards.tui import i18n, prompts

    hands = [[r + s for r in "AKQJT98765432"] for s in "CSHD"]
    record = {
        "game": "satat",
        "dealer": 0,
        "hands": hands,
        "actions": [],
        "passing": {"winners": 1, "cards": 1},
        "variant": {"signals": "all"},
    }
    acts = ["trump S", "propose", "refuse", "give AS", "give AH", "give AD", "give AC"]
    acts += ["announce", "play KS", "lese"]
    said = []
    for i in range(len(acts) + 1):
        state = load_deal({**record, "actions": acts[:i]})
        obs = state.observation(state.to_act)
        assert obs.task is not None
        check_task(obs.task, obs, rules_path)
        said.append((obs.task.code, obs.task.params.get("to"), obs.task.params.get("side")))
        if obs.task.code == "sat_give":
            with i18n.using("en"):
                text = prompts.task(obs, ["N0", "N1", "N2", "N3"])
            rule = (
                "winners give to the left"
                if obs.seat % 2
                else "losers give their best to the right"
            )
            assert text == f"Pass 1 card to N{obs.task.params['to']} ({rule}) — 1 of 1."
    assert said == [
        ("sat_trump", None, None),
        ("sat_propose", None, None),
        ("sat_consent", None, None),
        ("sat_give", 2, "left"),  # seat 1, a winner
        ("sat_give", 1, "right"),  # seat 2, a loser
        ("sat_give", 0, "left"),  # seat 3
        ("sat_give", 3, "right"),  # seat 0
        ("sat_announce", None, None),
        ("lead", None, None),
        ("sat_lese", None, None),
        ("follow", None, None),
    ]
