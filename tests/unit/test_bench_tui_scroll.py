"""The pure parts of the listing-scroll benchmark: which key to press, and which frame showed it."""

from __future__ import annotations

from workbench.bench.tui_scroll import keystroke_latencies_ms, next_scroll_key, summarise_ms


def test_scroll_key_goes_down_until_the_last_row_then_back_up() -> None:
    row, going_down, keys = 0, True, []
    for _ in range(7):
        key, going_down = next_scroll_key(row, 4, going_down, "down", "up")
        keys.append(key)
        row += 1 if key == "down" else -1
    assert keys == ["down", "down", "down", "up", "up", "up", "down"]


def test_scroll_key_on_a_one_row_listing_never_leaves_it_stuck_on_one_direction_forever() -> None:
    key, going_down = next_scroll_key(0, 1, True, "pagedown", "pageup")
    assert (key, going_down) == ("pageup", False)
    key, going_down = next_scroll_key(0, 1, going_down, "pagedown", "pageup")
    assert (key, going_down) == ("pagedown", True)


def test_latency_is_the_first_frame_after_the_press_that_shows_another_row() -> None:
    presses = [(10.0, 0), (11.0, 1)]
    frames = [(9.5, 0), (10.01, 0), (10.03, 1), (10.05, 1), (11.02, 2)]
    assert keystroke_latencies_ms(presses, frames) == [30.0, 20.0]


def test_a_press_whose_move_shows_only_after_the_next_press_counts_as_missed() -> None:
    presses = [(10.0, 0), (11.0, 0), (12.0, 1)]
    frames = [(10.5, 0), (11.5, 1)]  # the first press moved nothing; the second moved the cursor
    assert keystroke_latencies_ms(presses, frames) == [None, 500.0, None]


def test_summary_counts_missed_keys_and_takes_percentiles_of_the_rest() -> None:
    summary = summarise_ms([10.0, None, 30.0, 20.0])
    assert summary["n"] == 3
    assert summary["missed"] == 1
    assert summary["p50"] == 20.0
    assert summary["p95"] == 30.0
    assert summarise_ms([None]) == {"n": 0, "missed": 1}
