"""The wire (plaisante.student_side.wire): one codec and one set of limits on both sides of the
trust boundary.

Values round-trip through JSON text both ways, in the judge's conversation (the kernel's
``Registry``, the grader's ``Codec``) and the routed one (``Plain``); each limit is refused by
the sender before it sends and by the receiver before it builds or hashes anything, with a
message naming the limit."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plaisante.grading.judge import Codec, KernelLost, Session, raise_error
from plaisante.kernel.oracle import Registry
from plaisante.student_side.cards import RANKS, SUITS, KitCard
from plaisante.student_side.wire import (
    MAX_DEPTH,
    MAX_HASHED,
    MAX_ITEMS,
    MAX_NAME,
    MAX_TEXT,
    PLAIN,
    Budget,
    Malformed,
    TooLarge,
    error_data,
    read_error,
)


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True is not 1, a tuple not a list)."""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if type(a) is float and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


cards = st.builds(KitCard, st.sampled_from(RANKS), st.sampled_from(SUITS))
keys = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), cards)
plain = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), cards),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20)
judged = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), cards),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(keys, inner, max_size=4),
                            st.frozensets(keys, max_size=4), st.sets(keys, max_size=4)),
    max_leaves=20)


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def grader() -> Codec:
    def transport(text: str) -> str:
        raise AssertionError(f"no request was expected: {text}")
    return Session(transport).codec


@settings(max_examples=150, deadline=None)
@given(plain)
def test_plain_values_round_trip(value: Any) -> None:
    assert same(PLAIN.decode(through_json(PLAIN.encode(value))), value)


@settings(max_examples=150, deadline=None)
@given(judged)
def test_the_kernels_answers_reach_the_grader_as_they_were(value: Any) -> None:
    assert same(grader().decode(through_json(Registry().encode(value))), value)


@settings(max_examples=150, deadline=None)
@given(judged)
def test_the_graders_values_reach_the_kernel_as_they_were(value: Any) -> None:
    assert same(Registry().decode(through_json(grader().encode(value))), value)


def test_identity_survives_the_round_trip_and_a_random_generator_its_state() -> None:
    kernel, codec = Registry(), grader()
    card = KitCard("K", "hearts")
    arrived = codec.decode(through_json(kernel.encode([card, card])))
    assert arrived[0] is arrived[1]
    assert kernel.decode(through_json(codec.encode(arrived[0]))) is card  # back as its own
    rng = random.Random(7)
    there = kernel.decode(through_json(codec.encode(rng)))
    assert type(there) is random.Random and there.random() == rng.random()


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def refused_everywhere(value: Any, data: Any, words: str) -> None:
    """``value`` (whose wire form is ``data``) is refused by every sender and every reader,
    each time with ``words`` in the message."""
    for encode in (Registry().encode, grader().encode, PLAIN.encode):
        with pytest.raises(TooLarge, match=words):
            encode(value)
    for decode in (Registry().decode, PLAIN.decode):
        with pytest.raises(TooLarge, match=words):
            decode(data)
    with pytest.raises(KernelLost, match=words):  # the grader: the kernel broke the protocol
        grader().decode(data)


def test_nesting_past_max_depth_is_refused_on_both_sides() -> None:
    deepest = nested(MAX_DEPTH)
    for sender, reader in ((Registry(), grader()), (grader(), Registry()), (PLAIN, PLAIN)):
        assert reader.decode(through_json(sender.encode(deepest))) == deepest
    refused_everywhere(nested(MAX_DEPTH + 1), nested(MAX_DEPTH + 1),
                       f"nested more than {MAX_DEPTH} levels deep")


def test_values_past_max_items_in_one_message_are_refused_on_both_sides() -> None:
    full = [0] * (MAX_ITEMS - 1)  # and the list itself
    for codec in (Registry(), PLAIN):
        assert codec.decode(through_json(codec.encode(full))) == full
    refused_everywhere(full + [0], full + [0], f"more than {MAX_ITEMS} values")
    budget = Budget()  # one message: two halves spend from the same budget
    PLAIN.encode([0] * (MAX_ITEMS // 2), budget)
    with pytest.raises(TooLarge, match="values"):
        PLAIN.encode([0] * (MAX_ITEMS // 2), budget)


def test_set_members_and_dict_keys_past_max_hashed_are_refused_before_hashing() -> None:
    members = set(range(MAX_HASHED + 1))
    refused = f"over {MAX_HASHED} set members or dict keys"
    for encode in (Registry().encode, grader().encode):
        with pytest.raises(TooLarge, match=refused):
            encode(members)
    keys = {n: n for n in range(MAX_HASHED + 1)}
    refused_everywhere(keys, {"d": [[n, n] for n in range(MAX_HASHED + 1)]}, refused)
    with pytest.raises(TooLarge, match=refused):
        Registry().decode({"s": list(range(MAX_HASHED + 1))})
    colliding = [(2 ** 61 - 1) * k for k in range(1, 60_001)]  # all hash alike
    with pytest.raises(KernelLost, match=refused):
        grader().decode({"fs": colliding})
    assert grader().decode({"s": list(range(MAX_HASHED))}) == set(range(MAX_HASHED))


def test_only_the_decks_cards_cross() -> None:
    for data in ({"k": ["1", "hearts"]}, {"k": ["K", "stars"]}, {"k": ["K"]}, {"k": "K♥"}):
        with pytest.raises(Malformed, match="card"):
            PLAIN.decode(data)
        with pytest.raises(KernelLost, match="card"):
            grader().decode({**data, "n": 1})
        with pytest.raises(Malformed, match="card"):
            Registry().decode({**data, "n": -1})

    class Lookalike:
        rank, suit = "Q", "spades"
    assert PLAIN.decode(PLAIN.encode(Lookalike())) == KitCard("Q", "spades")
    with pytest.raises(TypeError, match="not a object"):
        PLAIN.encode(object())
    with pytest.raises(TypeError, match="cannot send a Lookalike"):
        grader().encode(Lookalike())


def test_malformed_data_is_refused_by_the_reader() -> None:
    for data in ({"x": 1}, {"t": 1}, {"d": [[1]]}, {"d": [1, 2]}, {"r": 99}, {"o": -1, "c": "f"},
                 {"o": 1, "c": "f", "extra": 0}, {"s": [[1]]}, {"t": [1], "n": 1}):
        with pytest.raises(KernelLost):
            grader().decode(data)
    for data in ({"x": 1}, {"r": 5}, {"l": [], "n": 3}, {"rng": [3, "x", None], "n": -1}, 1.5):
        with pytest.raises(Malformed):
            (PLAIN if data == 1.5 else Registry()).decode(data)


def test_errors_cross_in_one_shape_cut_to_the_limits() -> None:
    class Loud(ValueError):
        def __str__(self) -> str:
            return "x" * (MAX_TEXT + 10)

    class Mute(KeyError):
        def __str__(self) -> str:
            raise RuntimeError("no")

    loud = error_data(type("L" * (MAX_NAME + 5), (Loud,), {})())
    assert loud["types"] == ["ValueError", "Exception", "BaseException", "object"]
    assert len(loud["cls"]) == MAX_NAME and len(loud["msg"]) == MAX_TEXT
    assert error_data(Mute())["msg"] == "<the error's message could not be read>"
    assert read_error(through_json(error_data(Mute())))[1] == "Mute"
    with pytest.raises(ValueError, match="^Loud: x+$"):
        raise_error(through_json(error_data(Loud())))
    for bad in ({"types": "ValueError", "cls": "x", "msg": ""}, {"cls": "x", "msg": 1}, []):
        with pytest.raises(Malformed):
            read_error(bad)
        with pytest.raises(KernelLost, match="malformed error"):
            raise_error(bad)


def test_a_handles_hash_len_and_bool_are_only_ever_an_int_or_a_bool() -> None:
    """Python itself asks a handle for these three (``hash``, ``len``, ``if``): what the kernel
    answers must be exactly what an honest kernel's ``hash()``, ``len()`` and ``bool()`` give;
    anything else is the kernel breaking the protocol, not a value."""
    answers: list[Any] = []

    def transport(text: str) -> str:
        return json.dumps({"q": json.loads(text)["q"], "ok": answers.pop(0)})

    handle = Session(transport).codec.decode({"o": 1, "c": "Hand"})
    answers[:] = [7, 3, False]
    assert (hash(handle), len(handle), bool(handle)) == (7, 3, False)
    for ask, lie in ((hash, "7"), (hash, 7.0), (len, True), (len, [3]), (bool, 1), (bool, None)):
        answers[:] = [lie]
        with pytest.raises(KernelLost, match=f"answered {ask.__name__} with a value of type "
                                             f"{type(lie).__name__} \\(only type"):
            ask(handle)


def test_a_sync_the_kernel_can_send_at_the_limits_the_grader_can_read() -> None:
    """A shared list the kernel filled to the limits (depth and values, the list itself
    counted) comes back whole; one value more and the kernel refuses to send it."""
    codec, kernel = grader(), Registry()
    mine: list[Any] = []
    there = kernel.decode(through_json(codec.encode(mine)))
    there += [nested(MAX_DEPTH - 1)] + [0] * (MAX_ITEMS - 1 - MAX_DEPTH)
    kernel.message()
    codec.apply_sync(through_json(kernel.sync()))
    assert mine == there and mine is not there
    there.append(0)
    kernel.message()
    with pytest.raises(TooLarge, match=f"more than {MAX_ITEMS} values"):
        kernel.sync()


def test_an_error_whose_metaclass_lies_about_its_name_is_described_by_its_own_name():
    """A student's error class whose metaclass makes ``__name__`` an int (or ``__mro__`` raise)
    once stopped the judge's side in the kernel: the step's checks scored 0 for correct work."""
    from plaisante.student_side.wire import class_name, described, error_data

    class Lying(type):
        @property
        def __name__(cls):  # noqa: PLW3201
            return 42

        @property
        def __mro__(cls):  # noqa: PLW3201
            raise RuntimeError("no mro")

    class Odd(ValueError, metaclass=Lying):
        pass

    assert class_name(Odd) == "Odd"
    assert error_data(Odd("bad hand")) == {
        "types": ["ValueError", "Exception", "BaseException", "object"], "cls": "Odd",
        "msg": "bad hand"}
    assert described(Odd("bad hand")) == "Odd: bad hand"
