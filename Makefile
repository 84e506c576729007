# memplan: `make demo` and `make test` do all set-up on a fresh Debian machine.
BUILD     ?= build
ASAN      ?= build-asan
JOBS      ?= $(shell nproc)
CMAKE_GEN ?= -G "Unix Makefiles"
DEMO_OUT  ?= demo-out

.PHONY: all deps build build-asan test test-asan demo bench python fuzz check-tsan clean

all: build

deps:
	./scripts/install-deps.sh

# Extra CMake flags for both builds, e.g. CMAKE_FLAGS=-DMEMPLAN_UNITY=OFF to
# compile every .cc on its own (unity builds are on by default: less CPU).
CMAKE_FLAGS ?=
# The fuzz targets' replay tests run in the ASan build only (fuzz/CMakeLists.txt).
RELEASE_FLAGS = -DCMAKE_BUILD_TYPE=Release -DMEMPLAN_WERROR=ON -DMEMPLAN_FUZZ_REPLAY=OFF $(CMAKE_FLAGS)

# The release build, without the benchmarks: only `make bench` builds those
# (same build folder, so they share every object file).
build: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) $(RELEASE_FLAGS) -DMEMPLAN_BUILD_BENCH=OFF >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DMEMPLAN_SANITIZE=ON \
	  -DMEMPLAN_BUILD_BENCH=OFF -DMEMPLAN_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(ASAN) -j $(JOBS)

# All tests, in a release build and again under ASan/UBSan. Under ASan we skip
# the packing-quality tests on large inputs (about 70 s of CPU there): they run
# in the release build, and the same packers run under ASan on the smaller
# inputs of every other packing test.
ASAN_SKIP ?= ^WindowBoundTest\.MinimizingSearchReportsTheWindowsProof|^PackTest\.AutoOnDenseInputs|^PackTest\.AutoIsNoWorseThanAny|^PlanCliTest\.MiniMallocChallenging|^MiniMalloc/ChallengingTest\.|^ExactCapacityCliTest\.MinimizeFitsTheCapacityFirst|^ExactCapacityCliTest\.AutoOnD|^ExactCapacityCliTest\.MinimizeLowersThePeakAfterAProof
test: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -E '$(ASAN_SKIP)'

# The Python package alone (the release build makes it too): then
# PYTHONPATH=$(BUILD)/python python3 -c 'import memplan'
python: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) $(RELEASE_FLAGS) -DMEMPLAN_BUILD_BENCH=OFF >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target memplan_python_core
	@echo "built $(BUILD)/python/memplan: PYTHONPATH=$(BUILD)/python /usr/bin/python3 -c 'import memplan'"

demo: build
	@mkdir -p $(DEMO_OUT)
	$(BUILD)/cli/memplan plan examples/mobilenet_v2.onnx --json $(DEMO_OUT)/mobilenet_v2.plan.json \
	  --svg $(DEMO_OUT)/mobilenet_v2.svg --html $(DEMO_OUT)/mobilenet_v2.html
	@echo "wrote $(DEMO_OUT)/mobilenet_v2.plan.json, .svg and .html"

bench: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) $(RELEASE_FLAGS) -DMEMPLAN_BUILD_BENCH=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	./bench/run.sh $(BUILD)

# libFuzzer: every fuzz target (fuzz/) built with clang, ASan and UBSan in its
# own folder, each run for FUZZ_SECONDS on fuzz/corpus/<target> plus the
# corpus it grows in $(FUZZ)/corpus/<target>; crashes land in
# $(FUZZ)/crashes/. FUZZ_TARGETS picks some, e.g. FUZZ_TARGETS="csv program".
FUZZ         ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= text_ir csv onnx tflite hlo plan_json target_json program
fuzz:
	MEMPLAN_WITH_FUZZ=1 ./scripts/install-deps.sh
	cmake -S . -B $(FUZZ) $(CMAKE_GEN) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DMEMPLAN_FUZZ=ON \
	  -DMEMPLAN_BUILD_BENCH=OFF -DMEMPLAN_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target memplan_fuzzers
	./scripts/run-fuzzers.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ThreadSanitizer over the code that runs threads (the packing portfolio, local
# search and exact solver, memory space assignment's variants, the progress
# ticker): those layers' test binaries (ctest labels = layer names,
# tests/CMakeLists.txt), in their own folder; finding no tests is an error.
TSAN ?= build-tsan
TSAN_TARGETS ?= memplan_packing_tests memplan_msa_tests memplan_driver_tests
TSAN_LABELS ?= ^(packing|msa|driver)$$
check-tsan: deps
	cmake -S . -B $(TSAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DMEMPLAN_TSAN=ON \
	  -DMEMPLAN_BUILD_BENCH=OFF -DMEMPLAN_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(TSAN) -j $(JOBS) --target $(TSAN_TARGETS)
	cd $(TSAN) && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure --no-tests=error -j $(JOBS) \
	  -L '$(TSAN_LABELS)' -E '$(ASAN_SKIP)'

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ) $(TSAN) $(DEMO_OUT)
