"""pytest configuration: the scripts in tests/wrong/ are programs under test, run by the
stress tester as subprocesses; they must not be collected or imported."""

collect_ignore_glob = ["wrong/*"]
