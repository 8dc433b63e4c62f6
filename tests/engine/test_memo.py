"""The global memo type (``folkcards.engine.memo``): values, bounds, statistics, registry."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from folkcards.engine.memo import Memo, MemoStats, all_memos, clear_all, counting, summary


def squares(
    name: str = "test.squares", limit: int | None = None
) -> tuple[Memo[int, int], list[int]]:
    """A memo of squares and the list of keys it computed."""
    computed: list[int] = []

    def compute(k: int) -> int:
        computed.append(k)
        return k * k

    return Memo(name, compute, limit=limit), computed


def hot_lookup(memo: Memo[int, int], key: int) -> int:
    """A hot path's own lookup: the table indexed directly, the memo asked on a miss."""
    try:
        return memo.table[key]
    except KeyError:
        return memo.miss(key)


def test_a_value_is_computed_once_and_remembered() -> None:
    memo, computed = squares()
    assert memo(3) == 9 and memo(3) == 9 and hot_lookup(memo, 3) == 9
    assert hot_lookup(memo, 4) == 16 and memo(4) == 16
    assert computed == [3, 4] and len(memo) == 2 and memo.table == {3: 9, 4: 16}
    assert memo.misses == 2 and memo.hits is None  # hits are not counted unless asked


def test_none_is_a_value_like_any_other() -> None:
    calls: list[str] = []
    memo: Memo[str, None] = Memo("test.none", lambda k: calls.append(k))
    assert memo("a") is None and memo("a") is None and calls == ["a"]


def test_a_full_memo_is_emptied_before_it_grows() -> None:
    memo, computed = squares(limit=3)
    for k in range(5):
        memo(k)
    assert len(memo) == 2 and memo.clears == 1 and memo.misses == 5
    assert set(memo.table) == {3, 4}
    assert memo(0) == 0 and computed == [0, 1, 2, 3, 4, 0]  # recomputed, never lost
    with pytest.raises(ValueError, match="at least 1"):
        Memo("test.bad", limit=0)


def test_clear_forgets_values_and_keeps_statistics() -> None:
    memo, computed = squares()
    table = memo.table
    memo(1)
    memo(2)
    memo.clear()
    assert memo.table is table and not table  # emptied in place: aliases stay valid
    assert memo.misses == 2 and memo.clears == 1
    memo(1)
    assert computed == [1, 2, 1] and memo.misses == 3


def test_an_index_is_filled_by_store() -> None:
    index: Memo[str, int] = Memo("test.index", limit=2)
    assert index.store("a", 1) == 1 and index("a") == 1
    with pytest.raises(KeyError):
        index("b")
    with pytest.raises(KeyError):
        index.miss("b")
    index.store("b", 2)
    index.store("c", 3)  # full: emptied first
    assert index.table == {"c": 3} and index.clears == 1 and index.misses == 3


def test_counted_hits_include_the_hot_paths_own_lookups() -> None:
    memo, _ = squares()
    memo.count_hits()
    assert memo.hits == 0
    for k in (1, 2, 1, 1):
        hot_lookup(memo, k)
    memo(2)
    assert memo.table.get(1) == 1 and memo.table.get(9) is None
    assert memo.hits == 4 and memo.misses == 2  # 1 twice, 2 once by memo(), 1 by get
    memo.count_hits(False)
    assert type(memo.table) is dict and memo.table == {1: 1, 2: 4}
    hot_lookup(memo, 1)
    assert memo.hits == 4  # not counted now, and the count so far is kept
    memo.count_hits()
    memo(2)
    assert memo.hits == 5
    stats = memo.stats()
    assert stats == MemoStats("test.squares", 2, 2, 5, 0, None)
    assert stats.hit_rate == 5 / 7


def test_an_alias_follows_the_table() -> None:
    """A module-level name bound by ``alias`` is the table, also while hits are counted."""
    namespace: dict[str, Any] = {}
    memo, _ = squares()
    table = memo.alias(namespace, "_SQUARES")
    assert table is memo.table is namespace["_SQUARES"]
    memo.count_hits()
    assert namespace["_SQUARES"] is memo.table and type(memo.table) is not dict
    memo(3)
    assert namespace["_SQUARES"][3] == 9 and memo.hits == 1
    memo.count_hits(False)
    assert namespace["_SQUARES"] is memo.table and type(memo.table) is dict


def test_a_follower_is_given_the_table_now_and_at_every_swap() -> None:
    """``follow`` hands the callback the table at once and again whenever counting swaps
    it, so a lookup structure that holds the table sees every lookup counted."""
    memo, _ = squares()
    held: list[dict[Any, Any]] = []
    memo.follow(held.append)
    assert held == [memo.table] and held[-1] is memo.table
    memo.count_hits()
    assert held[-1] is memo.table and type(held[-1]) is not dict
    memo(4)
    held[-1][4]  # a lookup through the held table counts as a hit
    assert memo.hits == 1
    memo.count_hits(False)
    assert held[-1] is memo.table and type(held[-1]) is dict and len(held) == 3


def test_the_registry_lists_live_memos_and_sums_them_by_name() -> None:
    rows = [squares("test.reg.rows")[0] for _ in range(3)]
    other, _ = squares("test.reg.other", limit=10)
    for i, memo in enumerate(rows):
        for k in range(i + 1):
            memo(k)
    other(5)
    assert [m.name for m in all_memos("test.reg.")] == ["test.reg.other"] + ["test.reg.rows"] * 3
    with counting("test.reg."):
        rows[0](0)
        other(5)
    got = summary("test.reg.")
    assert list(got) == ["test.reg.other", "test.reg.rows"]
    assert got["test.reg.rows"] == MemoStats("test.reg.rows", 6, 6, 1, 0, None, count=3)
    assert got["test.reg.other"] == MemoStats("test.reg.other", 1, 1, 1, 0, 10)
    assert all(type(m.table) is dict for m in all_memos("test.reg."))  # counting is over
    assert clear_all("test.reg.") == 4 and all(not m.table for m in rows)
    del rows, other, memo
    gc.collect()
    assert all_memos("test.reg.") == []  # a memo nobody holds leaves the registry


def test_counting_leaves_a_memo_that_was_counting_counting() -> None:
    memo, _ = squares("test.counting")
    memo.count_hits()
    with counting("test.counting"):
        memo(1)
        memo(1)
    assert type(memo.table) is not dict and memo.hits == 1
    memo.count_hits(False)


def test_stats_add_up() -> None:
    a = MemoStats("m", 2, 3, None, 1, 10)
    b = MemoStats("m", 1, 1, 4, 0, None)
    assert a + b == MemoStats("m", 3, 4, 4, 1, None, count=2)
    assert a.hit_rate is None and MemoStats("m", 0, 0, 0, 0, None).hit_rate is None


def test_every_games_memos_count_the_play_phases_own_lookups() -> None:
    """The games' global tables are Memos, and the hot paths index them through aliases
    that follow the table: counting hits while random deals are played counts hits in every
    game's play memo, and emptying them all changes nothing a deal does."""
    import random

    from folkcards.engine.memo import all_memos, clear_all
    from folkcards.games import GAMES

    names = {m.name for m in all_memos()}
    for name in ("sasku.plays", "satat.plays", "sheepshead.plays", "scopone.table_info"):
        assert name in names, name
    assert {"sasku.rules", "satat.rules", "sheepshead.rules", "huutopussi.rules"} <= names

    def play(seed: int) -> list[list[str]]:
        out = []
        for game in ("sasku", "satat", "sheepshead"):
            rng = random.Random(seed)
            state = GAMES[game].random_deal(rng)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            out.append(state.record()["actions"])
        return out

    memos = [
        m for m in all_memos() if m.name.endswith(".plays") and not m.name.startswith("scopone")
    ]
    for m in memos:
        m.count_hits()
    try:
        first = play(7)
        again = play(7)  # the same card sets again: hits
        assert first == again
        for m in memos:
            assert m.hits, f"{m.name}: no hit counted through the hot path's alias"
    finally:
        for m in memos:
            m.count_hits(False)
    clear_all("sasku.")
    clear_all("satat.")
    clear_all("sheepshead.")
    assert play(7) == first
