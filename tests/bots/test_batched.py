"""The batched search (``bpimc``, ``bsearch``): legal, reproducible, fair, and the same
options as PIMC where the batch does not reach."""

from __future__ import annotations

import random
from typing import Any

import pytest
import toygame

from folkcards.bots import make_bot, play_deal
from folkcards.bots.base import BotError
from folkcards.bots.batched import BatchPIMCBot
from folkcards.bots.positions import card_play_position, phase_position
from folkcards.games import GAMES

pytest.importorskip("numpy")

GAME_NAMES = ("sasku", "sheepshead", "satat", "huutopussi", "scopone")


def _card_play_position(game: str, seed: int) -> Any:
    """A position in card play with a choice, reached by the heuristic."""
    return card_play_position(GAMES[game], random.Random(seed), nth=5)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_batched_search_plays_legal_reproducible_cards(game: str) -> None:
    state = _card_play_position(game, 3)
    obs = state.observation(state.to_act)
    bot = make_bot("bsearch:worlds=12")
    first = bot.evaluate(obs, random.Random(5))
    again = make_bot("bsearch:worlds=12").evaluate(obs, random.Random(5))
    assert first.choice in obs.legal
    assert first.choice == again.choice and first.values == again.values
    assert set(first.values) == {a.text for a in obs.legal}
    assert all(0.0 <= v <= 1.0 for v in first.values.values())
    detail = first.detail[first.choice.text]
    assert detail["deals"] == 12
    heuristic = make_bot("heuristic").choose(obs, random.Random(5))
    assert first.detail[heuristic.text].get("heuristic") == 1.0  # keep's anchor


@pytest.mark.parametrize("policy", ["fast", "simple", "random"])
def test_every_policy_and_inference_from_play(policy: str) -> None:
    state = _card_play_position("sasku", 4)
    obs = state.observation(state.to_act)
    bot = make_bot(f"bpimc:worlds=8:k=2:policy={policy}:infer=0.5:pool=2:noise=10")
    ev = bot.evaluate(obs, random.Random(1))
    assert ev.choice in obs.legal and ev.scale == "win"


@pytest.mark.parametrize("game", ["satat", "scopone"])
def test_a_mix_of_policies_plays_every_deal_out_with_each(game: str) -> None:
    """``policy=fast+heuristic`` values each card by the mean of the two policies' playouts
    of the same sampled deals (both policies are deterministic, so exactly their mean)."""
    state = _card_play_position(game, 6)
    obs = state.observation(state.to_act)
    values = {}
    for policy in ("fast", "heuristic", "fast+heuristic"):
        ev = make_bot(f"bpimc:worlds=16:policy={policy}").evaluate(obs, random.Random(2))
        assert ev.choice in obs.legal
        values[policy] = ev.values
        playouts = ev.detail[ev.choice.text]["playouts"]
        assert playouts == 16 * len(policy.split("+"))
    for a in obs.legal:
        mean = (values["fast"][a.text] + values["heuristic"][a.text]) / 2
        assert values["fast+heuristic"][a.text] == pytest.approx(mean)
    with pytest.raises(BotError, match="fastest"):
        make_bot("bpimc:policy=fast+fastest")


@pytest.mark.parametrize("spec,bids", [("bpimc:read=0.5", True), ("bpimc:read=0.5:bids=0", False),
                                       ("bsearch", True), ("bsearch:bids=0", False)])  # fmt: skip
def test_bids_0_reads_the_card_play_alone(spec: str, bids: bool, kernel_reads: Any) -> None:
    """``read`` weighs the decisions before card play too (Sasku's bids, SAS-8) unless
    ``bids=0``; Sasku's tuning reads, so ``bsearch`` passes the option along."""
    asked = kernel_reads("sasku")
    state = _card_play_position("sasku", 3)
    obs = state.observation(state.to_act)
    assert make_bot(f"{spec}:worlds=8").evaluate(obs, random.Random(1)).choice in obs.legal
    assert [b for _, b in asked] == [bids]
    with pytest.raises(BotError, match="bids is 1"):
        make_bot("bpimc:read=0.5:bids=2")


def test_whole_deals_with_the_batched_search() -> None:
    for game in ("satat", "huutopussi"):
        g = GAMES[game]
        state = g.random_deal(random.Random(8))
        n = state.num_seats
        bots = [make_bot("bsearch:worlds=6") if s % 2 else make_bot("heuristic") for s in range(n)]
        play_deal(state, bots, [random.Random(s) for s in range(n)])
        assert state.is_over


@pytest.mark.usefixtures("toy_registered")
def test_phases_outside_play_go_to_the_heuristic_and_games_without_a_kernel_to_pimc() -> None:
    g = GAMES["sasku"]
    state = g.random_deal(random.Random(2))
    obs = state.observation(state.to_act)  # the cut
    ev = make_bot("bsearch").evaluate(obs, random.Random(0))
    assert ev.scale == "heuristic"
    toy = toygame.GAME.random_deal(random.Random(1))
    obs = toy.observation(toy.to_act)
    ev = BatchPIMCBot(worlds=4, only=None).evaluate(obs, random.Random(0))
    assert ev.choice in obs.legal and ev.scale == "win"


def test_the_endgame_options_are_spec_options() -> None:
    """leaf, root and hidden are given in a spec as any option; bsearch without them takes
    the game's batch_tuning (Sasku's leaf=3), with them its own."""
    bot = make_bot("bpimc:worlds=8:leaf=2:root=1:hidden=1")
    assert isinstance(bot, BatchPIMCBot)
    assert (bot.leaf, bot.root, bot.hidden) == (2, 1, 1) and bot.endgame("sasku") == (2, 1)
    tuned = make_bot("bsearch")
    assert isinstance(tuned, BatchPIMCBot) and tuned.endgame("sasku") == (3, 0)
    own = make_bot("bsearch:leaf=0")
    assert isinstance(own, BatchPIMCBot) and own.endgame("sasku") == (0, 0)
    with pytest.raises(BotError):
        make_bot("bpimc:leaf=x")


def test_bad_batched_specs() -> None:
    for spec in ("bpimc:worlds=0", "bpimc:policy=best", "bpimc:pool=2", "bpimc:noise=101",
                 "bpimc:read=0", "bpimc:read=1.5", "bpimc:solved=0"):  # fmt: skip
        with pytest.raises(BotError):
            make_bot(spec)


def _late_position(game: str, seed: int, cards: int) -> Any:
    """A position in card play with a choice whose seat holds at most ``cards`` cards."""
    rng = random.Random(seed)
    h = make_bot("heuristic")
    g = GAMES[game]
    while True:
        state = g.random_deal(rng)
        while not state.is_over:
            obs = state.observation(state.to_act)
            if obs.phase == "play" and len(obs.legal) > 1 and obs.hand.bit_count() <= cards:
                return state
            state.apply(h.choose(obs, rng))


@pytest.mark.parametrize("game", ["sasku", "sheepshead"])
def test_with_root_the_values_are_the_worlds_exact_values(game: str) -> None:
    """``root`` solves the rest of each sampled deal after each card exactly: a card's value
    is the mean over the deals of its double-dummy value (``folkcards.bots.endgame``)."""
    from folkcards.batch import kernel_for
    from folkcards.bots.endgame import Solver, allies_of
    from folkcards.bots.search import sample

    for seed in range(3):
        state = _late_position(game, seed, 3)
        if game == "sheepshead" and state.mode == "leaster":
            continue
        obs = state.observation(state.to_act)
        bot = BatchPIMCBot(worlds=5, root=3, only=None)
        ev = bot.evaluate(obs, random.Random(seed))
        rng = random.Random(seed)
        worlds = [sample(GAMES[game], obs, rng)]
        kernel: Any = kernel_for(game)
        while len(worlds) < 5:  # as the bot draws them: after the first, the hands alone
            if kernel.draws_hands:  # (Sasku: Game.determinize_hands, the rest public)
                world: Any = worlds[0].clone()
                world.hands = GAMES[game].determinize_hands(obs, rng)
                worlds.append(world)
            else:
                worlds.append(sample(GAMES[game], obs, rng))
        for action in obs.legal:
            want = 0.0
            for world in worlds:
                after = world.clone()
                after.apply(action)
                want += Solver(obs.seat, allies_of(world, obs.seat)).value(after) / 5
            assert ev.values[action.text] == pytest.approx(want), (seed, action.text)


def test_solved_caps_the_deals_of_a_decision_solved_from_the_root() -> None:
    """``solved=N``: a decision that ``root`` values exactly (each deal solved to its end,
    far dearer than a playout) samples at most N deals; earlier decisions all ``worlds``."""
    late = _late_position("satat", 2, 4)
    early = _card_play_position("satat", 2)
    early_obs = early.observation(early.to_act)
    assert late.observation(late.to_act).hand.bit_count() <= 4 < early_obs.hand.bit_count()
    for state, deals in ((late, 3), (early, 10)):
        obs = state.observation(state.to_act)
        bot = make_bot("bpimc:worlds=10:root=4:solved=3")
        ev = bot.evaluate(obs, random.Random(1))
        assert ev.detail[ev.choice.text]["deals"] == deals
    obs = late.observation(late.to_act)
    uncapped = make_bot("bpimc:worlds=10:root=4").evaluate(obs, random.Random(1))
    assert uncapped.detail[uncapped.choice.text]["deals"] == 10  # no cap without solved


def test_bsearch_takes_the_endgame_solver_from_the_kit() -> None:
    bot = make_bot("bsearch")
    assert isinstance(bot, BatchPIMCBot)
    assert bot.endgame("sasku") == (3, 0) and bot.endgame("scopone") == (0, 0)
    assert BatchPIMCBot().endgame("sasku") == (0, 0)  # bpimc: only what it is given
    with pytest.raises(ValueError, match="count tricks"):
        BatchPIMCBot(leaf=-1)


# --- decisions before card play: the bridge -------------------------------------------


def _sheepshead_pick(eldest: str) -> Any:
    """A Sheepshead deal (dealer 0) at the eldest hand's pick, seat 1 holding ``eldest``."""
    from folkcards.cards import DECK_32, mask_text, parse_card

    mine = [parse_card(t) for t in eldest.split()]
    rest = [parse_card(t) for t in mask_text(DECK_32) if parse_card(t) not in mine]
    others = [rest[i * 6 : i * 6 + 6] for i in range(4)]
    hands = [others[0], mine, *others[1:]]
    g = GAMES["sheepshead"]
    state = g.new_deal(g.normalize_variant({}), 0, hands=hands, extra={"blind": rest[24:]})
    assert state.phase == "pick" and state.to_act == 1
    return state


@pytest.mark.parametrize(
    ("hand", "better", "margin"),
    [("QC QS QH QD JC JS", "pick", 0.0), ("7C 8C 7S 8S 7H 8H", "pass", 0.1)],
)
def test_the_bridge_values_a_pick_by_the_card_play_it_leads_to(
    hand: str, better: str, margin: float
) -> None:
    """SHP-4: before card play the batch has nothing to play, so a searched pick is applied
    to each sampled deal, the heuristic makes every decision up to the card play (bury,
    call) and the kernel plays the cards. Six top trumps win picking (and defending: the
    margin is small); six low fail cards picked lose, passed they mostly defend with a
    partner's help — the values are the deciding seat's, not another's."""
    state = _sheepshead_pick(hand)
    obs = state.observation(1)
    ev = make_bot("bsearch:only=:worlds=24").evaluate(obs, random.Random(3))
    assert ev.scale == "win" and set(ev.values) == {"pick", "pass"}
    other = "pass" if better == "pick" else "pick"
    assert ev.values[better] > ev.values[other] + margin, ev.values
    assert ev.values["pick"] > (0.9 if better == "pick" else 0.0)
    assert ev.choice.text == better
    assert ev.detail[better]["deals"] == 24
    # stakes=1: the same decision valued by the seat's expected score margin (SHP-8: a
    # lost pick costs the picker double), in units of the game card's margin scale
    by_score = make_bot("bsearch:only=:worlds=24:stakes=1").evaluate(obs, random.Random(3))
    assert by_score.scale == "margin"
    assert by_score.values[better] > by_score.values[other]
    assert (by_score.values["pick"] > 0) == (better == "pick")


@pytest.mark.parametrize(
    ("game", "phases"),
    [
        ("sasku", {"auction", "exchange", "declare", "override"}),
        ("sheepshead", {"pick", "bury", "call"}),
        ("satat", {"trump"}),
        ("huutopussi", {"give", "return", "contract", "bidding"}),
    ],
)
def test_bridged_decisions_are_legal_reproducible_and_anchored(game: str, phases: set[str]) -> None:
    """Every decision before card play that a game has is searched through the bridge:
    at most ``wide`` actions (the heuristic's choice among them, marked as keep's anchor),
    values in [0, 1] on the same deals, and the same evaluation again from the same seed."""
    rng = random.Random(11)
    h = make_bot("heuristic")
    seen: set[str] = set()
    tries = 0
    while not phases <= seen and tries < 12:
        tries += 1
        state = GAMES[game].random_deal(rng)
        while not state.is_over and state.phase != "play":
            obs = state.observation(state.to_act)
            if obs.phase in phases and obs.phase not in seen and len(obs.legal) > 1:
                seen.add(obs.phase)
                spec = "bsearch:only=:worlds=6:wide=3"
                ev = make_bot(spec).evaluate(obs, random.Random(4))
                again = make_bot(spec).evaluate(obs, random.Random(4))
                assert ev.choice in obs.legal and ev.values == again.values
                assert 1 < len(ev.values) <= 3 and ev.values.keys() <= {a.text for a in obs.legal}
                assert all(0.0 <= v <= 1.0 for v in ev.values.values())
                base = make_bot("heuristic").choose(obs, random.Random(4))
                assert ev.detail[base.text].get("heuristic") == 1.0
            state.apply(h.choose(obs, rng))
    assert seen == phases


def test_bsearch_searches_the_phases_its_game_tuning_names(monkeypatch: Any) -> None:
    from folkcards.bots import batched

    monkeypatch.setattr(batched, "batch_tuning", lambda game: {"only": "play+pick"})
    bot = make_bot("bsearch")
    assert isinstance(bot, BatchPIMCBot)
    assert bot.phases("sheepshead") == {"play", "pick"}
    own = make_bot("bsearch:only=play")
    assert isinstance(own, BatchPIMCBot) and own.phases("sheepshead") == {"play"}
    for spec in ("bpimc:wide=0", "bpimc:stakes=2"):
        with pytest.raises(BotError):
            make_bot(spec)


def _huutopussi_gift() -> Any:
    """A four-player Huutopussi deal at the declarer's partner's first gift (HUU-5.1)."""
    state = phase_position(GAMES["huutopussi"], random.Random(6), "give")
    assert state is not None
    return state


def test_a_tuned_bsearch_says_which_phases_it_searches() -> None:
    """HUU-5.1: Huutopussi's tuning searches the gift; the server asks ``searches`` to
    know whether a decision will search (and so wait for the kernels)."""
    state = _huutopussi_gift()
    obs = state.observation(state.to_act)
    tuned = make_bot("bsearch")
    assert isinstance(tuned, BatchPIMCBot) and tuned.searches(obs)
    ev = tuned.evaluate(obs, random.Random(1))
    assert ev.scale == "win" and 1 < len(ev.values) <= 6
    own = make_bot("bsearch:only=play")
    assert isinstance(own, BatchPIMCBot) and not own.searches(obs)
    assert own.evaluate(obs, random.Random(1)).scale == "heuristic"


def test_sasku_tuning_searches_the_auction() -> None:
    """SAS-8: Sasku's tuned bsearch values its bids through the bridge (at most ``wide`` of
    them, each a legal bid or pass); the spec's own ``only=play`` leaves them to the
    heuristic, and the cut (SAS-6) is never searched."""
    tuned = make_bot("bsearch")
    assert isinstance(tuned, BatchPIMCBot)
    deal = GAMES["sasku"].random_deal(random.Random(4))
    assert deal.phase == "cut" and deal.to_act is not None
    assert not tuned.searches(deal.observation(deal.to_act))
    state = phase_position(GAMES["sasku"], random.Random(4), "auction")
    assert state is not None and state.to_act is not None
    obs = state.observation(state.to_act)
    assert tuned.searches(obs)
    assert tuned.phases("sasku") == {"play", "auction", "exchange", "declare", "override"}
    ev = tuned.evaluate(obs, random.Random(2))
    assert ev.scale == "win" and 1 < len(ev.values) <= 6 and ev.choice in obs.legal
    assert set(ev.values) <= {str(a) for a in obs.legal}
    own = make_bot("bsearch:only=play")
    assert isinstance(own, BatchPIMCBot) and not own.searches(obs)
    assert own.evaluate(obs, random.Random(2)).scale == "heuristic"


@pytest.mark.parametrize("phase", ["exchange", "auction", "declare", "override"])
def test_a_decision_before_card_play_reads_the_bids_made(phase: str, kernel_reads: Any) -> None:
    """SAS-8.3, SAS-9.1, SAS-9.3: the bridge reads the bids, the trump and the override
    answers already made (the kernel's ``likelihoods``, as card play is read): ``pool``
    times the deals are sampled and the ``worlds`` drawn by those weights are played out.
    An exchange (SAS-7) comes before any bid, so nothing is read there; nor with
    ``bids=0``."""
    from folkcards.batch import kernel_for

    kernel = kernel_for("sasku")
    assert kernel is not None
    asked = kernel_reads("sasku")
    state = None
    for nth in (2, 1):  # an auction decision after another seat's bid or pass
        state = phase_position(GAMES["sasku"], random.Random(9), phase, nth=nth, choices=2)
        if state is not None:
            break
    assert state is not None and state.to_act is not None
    obs = state.observation(state.to_act)
    assert kernel.reads_before_play(state) == (phase != "exchange")
    ev = make_bot("bsearch:worlds=8:read=0.5:pool=3").evaluate(obs, random.Random(1))
    assert ev.choice in obs.legal and ev.scale == "win"
    assert asked == ([] if phase == "exchange" else [(24, True)])
    assert {d["deals"] for d in ev.detail.values()} == {8.0}
    asked.clear()
    make_bot("bsearch:worlds=8:read=0.5:pool=3:bids=0").evaluate(obs, random.Random(1))
    assert asked == []
