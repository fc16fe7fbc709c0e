# Two entry points (see README): `make run` and `make test`. Both install everything first;
# every step is skipped when its result is already there, so a rerun takes seconds.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WHEEL_CACHE ?= $(HOME)/.cache/workbench/wheels
LLAMA_VERSION := 0.3.36
# Portable build of llama.cpp: no -march=native (the wheel is cached and may move between
# machines), and no examples, tests or server binaries (they double the compile time).
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF \
	-DLLAMA_BUILD_SERVER=OFF -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)
ARGS ?=
# The suite runs a file per worker process, one worker per core (at most 4: each loads the models).
TEST_WORKERS ?= auto

.PHONY: install run test lint models llama wheel-smoke clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

llama: $(BIN)/python
	@mkdir -p $(WHEEL_CACHE)
	@if ! ls $(WHEEL_CACHE)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1; then \
		echo "building llama-cpp-python $(LLAMA_VERSION) from source (7-11 minutes on 2 cores, once)"; \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) \
			$(BIN)/pip wheel --quiet --no-deps llama-cpp-python==$(LLAMA_VERSION) -w $(WHEEL_CACHE); \
	fi

$(STAMP): pyproject.toml | $(BIN)/python
	$(MAKE) llama
	$(BIN)/pip install --quiet --find-links $(WHEEL_CACHE) -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

models: $(STAMP)
	$(BIN)/workbench setup --cache $(WHEEL_CACHE)

install: $(STAMP) models

run: install
	$(BIN)/workbench $(ARGS)

lint: install
	$(BIN)/ruff check workbench tests
	$(BIN)/ruff format --check workbench tests
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest -q -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile --durations=15 $(ARGS)
	$(MAKE) wheel-smoke

# The built wheel in a venv of its own (.smoke-venv): setup --verify, doctor, index + search + ask.
wheel-smoke: install
	PYTHON=$(BIN)/python WHEEL_CACHE=$(WHEEL_CACHE) .ci/wheel-smoke

clean-venv:
	rm -rf $(VENV) .smoke-venv
