"""The size-bounded cache: least recently used out first once the values' bytes pass the bound; the newest stays."""

from __future__ import annotations

import threading

from core.memory.sized_cache import SizedCache


def sized() -> SizedCache[str]:
    return SizedCache(10, sizer=len)  # a value weighs its length


def test_values_stay_while_their_bytes_fit():
    cache = sized()
    cache.put("a", "xxxx")
    cache.put("b", "yyyyyy")
    assert (cache.get("a"), cache.get("b"), cache.held_bytes, len(cache)) == ("xxxx", "yyyyyy", 10, 2)


def test_past_the_bound_the_least_recently_used_goes_first():
    cache = sized()
    cache.put("a", "xxxx")
    cache.put("b", "yyyy")
    assert cache.get("a") == "xxxx"  # now b is the least recently used
    cache.put("c", "zzzz")  # 12 bytes: b goes
    assert "b" not in cache and cache.get("a") == "xxxx" and cache.get("c") == "zzzz"
    assert cache.held_bytes == 8


def test_a_value_larger_than_the_bound_is_kept_alone_until_the_next():
    cache = sized()
    cache.put("a", "xx")
    cache.put("big", "b" * 50)
    assert list(cache._entries) == ["big"] and cache.held_bytes == 50  # the page that asked reads it again
    cache.put("c", "zz")
    assert "big" not in cache and cache.held_bytes == 2


def test_putting_a_key_again_replaces_its_weight():
    cache = sized()
    cache.put("a", "xxxxxxxx")
    cache.put("a", "x")
    assert cache.held_bytes == 1 and len(cache) == 1


def test_get_or_build_builds_once_and_counts_the_built_value():
    cache = sized()
    calls = []

    def build() -> str:
        calls.append(1)
        return "built"

    assert cache.get_or_build("k", build) == "built" == cache.get_or_build("k", build)
    assert calls == [1] and cache.held_bytes == 5
    cache.clear()
    assert len(cache) == 0 and cache.held_bytes == 0 and cache.get("k") is None


def test_threads_putting_at_once_keep_the_count_of_bytes_right():
    cache = SizedCache(1_000, sizer=len)

    def work(offset: int) -> None:
        for index in range(300):
            cache.put((offset, index % 50), "v" * (index % 7 + 1))
            cache.get((offset, (index + 3) % 50))

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.held_bytes == sum(len(value) for value, _ in cache._entries.values()) <= 1_000


def test_an_entry_read_within_keep_seconds_is_not_dropped_until_it_ages():
    now = [0.0]
    cache = SizedCache(10, sizer=len, keep_seconds=60, clock=lambda: now[0])
    cache.put("a", "x" * 8)
    now[0] = 30
    cache.put("b", "y" * 8)  # 16 bytes, but a was put 30 s ago: both stay (a page reads both)
    assert "a" in cache and cache.held_bytes == 16
    now[0] = 80
    assert cache.get("b") is not None
    cache.put("c", "z" * 2)  # a is 80 s old: it goes; b was read just now and stays
    assert "a" not in cache and "b" in cache and cache.held_bytes == 10


def test_threads_asking_for_a_value_being_built_wait_for_that_build():
    # An interrupted run and the run that replaced it asked for the same large rendering at once, and both built it.
    cache = sized()
    started, release, builds = threading.Event(), threading.Event(), []

    def build() -> str:
        builds.append(threading.current_thread().name)
        started.set()
        release.wait(5)
        return "built"

    answers: list[str] = []
    first = threading.Thread(target=lambda: answers.append(cache.get_or_build("k", build)), name="first")
    first.start()
    started.wait(5)
    others = [threading.Thread(target=lambda: answers.append(cache.get_or_build("k", build))) for _ in range(3)]
    for thread in others:
        thread.start()
    release.set()
    for thread in (first, *others):
        thread.join(5)
    assert builds == ["first"] and answers == ["built"] * 4


def test_when_the_build_waited_for_fails_the_waiting_thread_builds_the_value_itself():
    cache = sized()
    started, release = threading.Event(), threading.Event()

    def failing() -> str:
        started.set()
        release.wait(5)
        raise ValueError("the first build failed")

    errors: list[Exception] = []

    def first() -> None:
        try:
            cache.get_or_build("k", failing)
        except ValueError as error:
            errors.append(error)

    thread = threading.Thread(target=first)
    thread.start()
    started.wait(5)
    answers: list[str] = []
    waiting = threading.Thread(target=lambda: answers.append(cache.get_or_build("k", lambda: "second")))
    waiting.start()
    release.set()
    thread.join(5)
    waiting.join(5)
    assert [str(error) for error in errors] == ["the first build failed"] and answers == ["second"]
    assert cache.get("k") == "second"


def test_a_claimed_key_is_waited_for_until_its_build_is_given_and_made():
    cache = sized()
    build = cache.claim("k")
    assert build is not None and cache.building("k")
    assert cache.claim("k") is None  # claimed once
    answers: list[str] = []
    waiting = threading.Thread(target=lambda: answers.append(cache.get_or_build("k", lambda: "the asker's")))
    waiting.start()
    waiting.join(0.2)
    assert waiting.is_alive() and answers == []  # waits for the claimed build, not yet given
    threading.Thread(target=build, args=(lambda: "claimed",)).start()
    waiting.join(5)
    assert answers == ["claimed"] and not cache.building("k")
    assert cache.claim("k") is None  # kept


def test_when_a_claimed_build_fails_the_asker_builds_the_value_itself():
    cache = sized()
    build = cache.claim("k")
    assert build is not None

    def failing() -> str:
        raise ValueError("the claimed build failed")

    build(failing)  # quietly: nobody waits on the claimer
    assert not cache.building("k") and cache.get("k") is None
    assert cache.get_or_build("k", lambda: "the asker's") == "the asker's"
