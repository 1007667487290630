# `make soak`: the long versions of the reliability tests (tests/test_reliability.py):
# 256 MiB of checked records over both backends, with and without an RX flood; 1 MiB RX
# floods; 20 million fuzzed system calls with random seeds; more exhaustion rounds and
# exit races. DUPLEX_SOAK=1 is what the tests read to scale up. Included by the top-level
# Makefile after `test`, so PYTHON and PYTEST_ARGS are defined.
soak: deps all
	DUPLEX_SOAK=1 $(PYTHON) -m pytest -q tests/test_reliability.py $(PYTEST_ARGS)

.PHONY: soak
