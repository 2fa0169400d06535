from dashboard.result_store import ResultStore


def test_a_stored_result_comes_back_and_a_missing_one_is_none():
    store = ResultStore(2)
    store.put(("sweep", 1), "frame")
    assert store.get(("sweep", 1)) == "frame"
    assert store.get(("sweep", 2)) is None


def test_the_least_recently_used_result_leaves_first():
    store = ResultStore(2)
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # a is now the more recent of the two
    store.put("c", 3)
    assert store.get("b") is None
    assert (store.get("a"), store.get("c")) == (1, 3)
