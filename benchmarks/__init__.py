"""Benchmark runner: suites as tasksets, a validation pass, resumable runs recorded in SQLite,
and reports with pass@k and test-time scaling sweeps. Entry point: ``prover-bench``
(``benchmarks.cli``). Importing this package has no side effects."""
