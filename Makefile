# Front door of the project. The two quick-start commands are
#   make run    install missing dependencies, build, simulate the default example
#               and draw its pictures (out/)
#   make test   build and run every test through ctest
# make examples runs every example and draws the gallery (docs/gallery/).
# make bench builds Release (build-release/) and runs the benchmarks
# (bench/run.sh; BENCH_QUICK=1 for sizes up to 1e4), table in bench/results.md.
# make fuzz builds the libFuzzer harness with clang (build-fuzz/) and fuzzes
# for FUZZ_SECONDS (60) with FUZZ_JOBS workers (1); see tests/fuzz/README.md.
BUILD ?= build
EXAMPLE ?= examples/hardstop_hysteresis.mo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1

.PHONY: all deps build run examples test install asan bench fuzz clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@FLANGE=$(BUILD)/flange ./scripts/example.sh $(EXAMPLE) out

# every example of examples/, pictures into the README's gallery
examples: build
	@for f in examples/*.mo examples/msl/*.mo examples/msl/*/*.mo; do \
	  [ -f "$$f" ] || continue; \
	  FLANGE=$(BUILD)/flange ./scripts/example.sh $$f out/examples docs/gallery || exit 1; done

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# PREFIX at install time wins over the one the build was configured with
# (the pkg-config files are relocatable: their paths follow where they lie).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench:
	@./scripts/install-deps.sh --bench
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build-release -j $(JOBS)
	BUILD=build-release ./bench/run.sh

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFLANGE_SANITIZE=ON >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) ./tests/fuzz/run.sh

clean:
	rm -rf $(BUILD) build-asan build-release build-fuzz out
