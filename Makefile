# Plaisante Kit. `make demo` plays, `make test` tests; both set up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8888
# NO_BROWSER=1 for a server: JupyterLab listens without opening a browser
LAB_FLAGS := --ServerApp.port=$(PORT) $(if $(NO_BROWSER),--no-browser,) \
             $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: install demo test test-slow lint release screenshots clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" \
	    notebooks/demo.ipynb $(LAB_FLAGS)

test: $(STAMP)
	$(BIN)/ruff check plaisante tests bench tools assignments/samples
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

test-slow: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check plaisante tests bench tools assignments/samples

release: $(STAMP)
	$(BIN)/plaisante release

clean:
	rm -rf $(VENV) build assignments/submitted assignments/autograded assignments/feedback \
	       assignments/reports assignments/replaced assignments/gradebook.db

# PNGs of the round and the gate at 1280×720 into build/screenshots/ (headless Chromium)
screenshots: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python tools/screenshots.py

.PHONY: bench-browser
# Run All → round rendered (s) and card click → DOM updated (ms, median of 20), in Chromium
bench-browser: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python bench/browser.py
