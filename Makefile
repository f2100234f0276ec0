# Plaisante Kit. `make demo` plays, `make test` tests. Both first set up what they need, from a
# fresh clone: the system packages (tools/system-packages.sh: as root it installs them with
# apt-get, as another user it stops at once naming the one command to run), then .venv, and for
# `make test` as root the ordinary user the tests grade as (tools/grader-user.sh).
# SETUP_ONLY=1 sets everything up and prints the final command instead of running it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8888
IS_ROOT := $(filter 0,$(shell id -u))
# NO_BROWSER=1 for a server: JupyterLab listens without opening a browser; the address it
# prints opens the demo notebook (default_url), not an empty Launcher
# plaisante.lab_news: no "Jupyter news" pop-up over the demo's checklist
LAB_FLAGS := --ServerApp.port=$(PORT) $(if $(NO_BROWSER),--no-browser,) \
             $(if $(IS_ROOT),--allow-root,) \
             --ServerApp.jpserver_extensions=plaisante.lab_news=True
RUN := $(if $(SETUP_ONLY),@echo "SETUP_ONLY: set up; would run:" ,)
# As root the tests grade as this user, with this interpreter (tests/grader_user.py)
GRADER_USER   := plaisante-grader
GRADER_PYTHON := /var/lib/plaisante-grader/venv/bin/python
GRADER_ENV := $(if $(IS_ROOT),PLAISANTE_GRADER_USER=$(GRADER_USER) \
                               PLAISANTE_GRADER_PYTHON=$(GRADER_PYTHON),)

.PHONY: install demo test test-slow lint release screenshots clean grader-user

# The Debian packages `make demo` / `make test` need: checked, and installed as root, once per
# .venv (the stamp goes with `make clean`). As another user a missing package stops make here,
# before anything runs, with one line: the command to run.
missing = $(strip $(shell PYTHON="$(PYTHON)" bash tools/system-packages.sh missing $(1)))
$(VENV)/.system-%: tools/system-packages.sh
	$(if $(IS_ROOT),,$(if $(call missing,$*),$(error make $*: first run `sudo apt-get install -y $(call missing,$*)` (then `make $*` again))))
	@PYTHON="$(PYTHON)" bash tools/system-packages.sh install $*
	@mkdir -p $(@D) && touch $@

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The kit's JupyterLab extension (Validate's true message, plaisante/labextension), copied where
# JupyterLab finds prebuilt extensions (an editable install copies no data files; `pip install .`
# installs it there itself, pyproject.toml). A copy, not a link: Voila's static handler refuses
# (403) a file whose real path is outside the venv, and every demo page then logged tracebacks.
LABEXT := $(VENV)/share/jupyter/labextensions/@plaisante/validate-message
$(LABEXT): $(STAMP) plaisante/labextension/package.json plaisante/labextension/static/remoteEntry.js
	rm -rf $@ && mkdir -p $(@D) && cp -R plaisante/labextension $@

install: $(STAMP) $(LABEXT)

# JupyterHub's proxy (npm), pinned, for the hub test and `plaisante watch` on a hub
PROXY := $(VENV)/hub-proxy/node_modules/.bin/configurable-http-proxy
$(PROXY): $(VENV)/.system-test
	npm install --silent --no-audit --no-fund --prefix $(VENV)/hub-proxy configurable-http-proxy@5.3.0
	test -x $@

# axe-core (npm), pinned, for the browser tests' accessibility checks (tests/browser/a11y.py)
AXE := $(VENV)/axe/node_modules/axe-core/axe.min.js
$(AXE): $(VENV)/.system-test
	npm install --silent --no-audit --no-fund --prefix $(VENV)/axe axe-core@4.14.1
	test -f $@

# What the students' JupyterLite site serves instead of a CDN (plaisante lite): npm's Pyodide and
# the pure-Python wheels its kernel loads, fetched once into .venv/share/plaisante-lite.
LITE_ASSETS := $(VENV)/share/plaisante-lite/.fetched
$(LITE_ASSETS): $(STAMP)
	$(BIN)/python -m plaisante.lite.assets
	touch $@
.PHONY: lite-assets
lite-assets: $(LITE_ASSETS)

demo: $(VENV)/.system-demo $(STAMP) $(LABEXT)
	$(RUN)PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" \
	    notebooks/demo.ipynb --LabApp.default_url=/lab/tree/notebooks/demo.ipynb $(LAB_FLAGS)

# The suite in two pytest-xdist workers: most tests wait on servers, kernels and subprocesses,
# so one process keeps about half a core busy. Tests that share a costly session fixture (the
# graded course, Chromium and the lab) stay in one worker (tests/conftest.py, xdist_group).
# Groups go out in collection order, so the browser group, the longest, starts first (xdist
# would otherwise send the groups with the most tests first). XDIST= runs it in one process.
XDIST ?= -n 2 --dist loadgroup --no-loadscope-reorder
test: $(VENV)/.system-test $(STAMP) $(LABEXT) $(PROXY) $(AXE) $(LITE_ASSETS) $(if $(IS_ROOT),grader-user)
	$(RUN)$(BIN)/ruff check plaisante tests bench tools assignments/samples
	$(RUN)$(BIN)/mypy
	$(RUN)$(GRADER_ENV) PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m "not slow" $(XDIST) --durations=15 $(PYTEST_ARGS)

# As root: the system user plaisante-grader and its venv (/var/lib/plaisante-grader/venv, rebuilt
# only when requirements.txt's pins change). As another user: nothing (the tests grade as you).
grader-user:
	@bash tools/grader-user.sh

# The slow variants: the file-system exchange's hub test and flood among them (as root), so
# they need what `make test` sets up for its hub test
test-slow: $(VENV)/.system-test $(STAMP) $(LABEXT) $(PROXY) $(AXE) $(if $(IS_ROOT),grader-user)
	$(GRADER_ENV) PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest -m slow $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check plaisante tests bench tools assignments/samples
	$(BIN)/mypy

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
