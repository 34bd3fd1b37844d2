"""pytest configuration: the scripts in tests/wrong/ are programs under test, run by the
stress tester as subprocesses; they must not be collected or imported. ``client`` is a real
local Dask cluster of two workers, one per test module that asks for it (the stores'
tests)."""

import pytest

collect_ignore_glob = ["wrong/*"]


@pytest.fixture(scope="module")
def client():
    from perfectplay.store.runner import client_for as _client

    c = _client(None, 2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()
