"""The action buttons' places: a consequence never appears under a finger meant for the previous stage."""

from __future__ import annotations

from app.ui.slots import place


def texts(slots: list[tuple[str, None, bool] | None]) -> list[str | None]:
    return [None if slot is None else slot[0] for slot in slots]


def test_take_and_drop_never_sit_where_the_double_button_was() -> None:
    rolling = [("Sim >", None, False), ("Küp çevir", None, False), ("Pes et", None, True), ("Hakem", None, False)]
    first = place(rolling, [])
    assert texts(first) == ["Sim >", "Küp çevir", "Pes et", "Hakem"]
    answering = [("Sim >", None, False), ("Kabul", None, True), ("Red", None, True), ("Hakem", None, False)]
    second = place(answering, texts(first))
    assert texts(second) == ["Sim >", None, None, None, "Kabul", "Red", "Hakem"]
    for index, slot in enumerate(second):
        if slot is not None and slot[2]:
            assert index >= len(first) or first[index] is None  # a consequence only where no button was


def test_the_same_buttons_keep_their_places() -> None:
    answering = [("Sim >", None, False), ("Kabul", None, True), ("Red", None, True), ("Hakem", None, False)]
    before = ["Sim >", None, None, None, "Kabul", "Red", "Hakem"]
    assert texts(place(answering, before)) == before


def test_buttons_without_consequence_take_the_first_free_slots() -> None:
    assert texts(place([("Sim >", None, False), ("Hakem", None, False)], ["A", "B", "C"])) == ["Sim >", "Hakem"]
