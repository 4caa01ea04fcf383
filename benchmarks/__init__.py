"""Scripts that print figures (`python -m benchmarks.<name>`); not run as tests."""
