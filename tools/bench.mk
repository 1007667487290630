# `make bench`: the console benchmark under QEMU with -icount for every backend (and on
# the line model when drivers/uart/line_model.c exists), and the Linux peer pair (the
# same glibc bench on Duplex and on Debian's Linux 6.12, one hart; `make peer`), raw logs kept in
# results/<timestamp>/, then tools/benchreport writes report.md and the plots there;
# results/latest points at the newest and results/report.md is a copy of its report.
# Included by the top-level Makefile. See docs/benchmark.md.
#
#   make bench                      the full suite (about 8-15 minutes on 2 cores)
#   make bench BENCH_ARGS=--quick   small counts, a minute or two
#   BENCH_ARGS="--jobs 1 --line no --backends async --sections S10,S20 ..."  see
#   tools/run-bench --help
BENCH_ARGS ?=
BENCH_OUT  ?=

bench: deps all peer-build
	$(PYTHON) tools/run-bench --image $(BUILD)/Image --smp $(SMP) --peer build/linux-peer \
		$(if $(BENCH_OUT),--out $(BENCH_OUT)) $(BENCH_ARGS)

# The numbers docs/async-vs-polling.md cites: the same full run, with report.md, runs.json
# and the plots (not the raw logs) copied into docs/numbers/ to be committed.
DOCS_NUMBERS := docs/numbers
docs-numbers: deps all peer-build
	rm -rf $(BUILD)/docs-numbers
	$(PYTHON) tools/run-bench --image $(BUILD)/Image --smp $(SMP) --peer build/linux-peer \
		--out $(BUILD)/docs-numbers $(BENCH_ARGS)
	rm -rf $(DOCS_NUMBERS) && mkdir -p $(DOCS_NUMBERS)
	cp $(BUILD)/docs-numbers/report.md $(BUILD)/docs-numbers/runs.json \
		$(BUILD)/docs-numbers/*.png $(DOCS_NUMBERS)/

# `make sweep`: tools/sweep, bench on the line model over baud x FIFO x harts x write size
# for every backend, with maps and crossovers (results/sweep-<timestamp>/report.md; about
# 25 minutes on 2 cores). `make sweep SWEEP=quick`: the short version tests/test_sweep.py
# runs (under a minute).
SWEEP     ?=
SWEEP_OUT ?=
sweep: deps all
	$(PYTHON) tools/sweep --image $(BUILD)/Image $(if $(filter quick,$(SWEEP)),--quick) \
		$(if $(SWEEP_OUT),--out $(SWEEP_OUT))

.PHONY: bench docs-numbers sweep

# `make peer`: the Linux peer (tools/linux-peer.sh): Debian trixie's riscv64 Linux 6.12
# kernel and an initramfs whose /init runs the glibc build of bench that Duplex packs as
# /bin/glibc/bench, into build/linux-peer/; then the same sections on both kernels, one
# hart, plain QEMU, -icount, into results/<timestamp>/report.md (the "Linux beside
# Duplex" tables). `make bench` and `make docs-numbers` include the same pair of runs.
PEER_DIR  := build/linux-peer
PEER_INIT := $(PEER_DIR)/init
PEER_ARGS ?=
$(PEER_INIT): tools/peer/init.c
	@mkdir -p $(dir $@)
	$(GLIBC_CC) -O2 -Wall -Wextra -Werror -static -Wl,--build-id=none $< -o $@

peer-build: deps all $(PEER_INIT)
	bash tools/linux-peer.sh $(GLIBC_BENCH) $(PEER_INIT)

peer: peer-build
	$(PYTHON) tools/run-bench --image $(BUILD)/Image --peer $(PEER_DIR) --peer-only \
		$(if $(BENCH_OUT),--out $(BENCH_OUT)) $(PEER_ARGS)

.PHONY: peer peer-build
