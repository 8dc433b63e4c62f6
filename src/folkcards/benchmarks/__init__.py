"""Throughput benchmarks run by ``folkcards bench`` (never by the test suite)."""
