# The README's two commands are `make run` and `make test`; each creates or refreshes
# the virtual environment itself (it is rebuilt whenever pyproject.toml or setup.py changes).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv run test test-alone lint typecheck bench bench-clicks screenshots clean package dist

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

## Set up and launch the app on the demo campaign (created on first start).
run: venv
	$(VENV)/bin/companion

## Set up and run the whole test suite headless, then the strict type check.
test: venv
	scripts/test.sh $(PY)

## Run each acceptance test alone, one process per test (a few minutes; not part of test).
test-alone: venv
	scripts/alone.sh $(PY) tests/acceptance

lint: venv
	$(PY) -m ruff check companion tests bench

typecheck: venv
	$(PY) -m mypy --strict companion/rules companion/content companion/store
	$(PY) -m mypy companion

## Benchmarks print ratios measured side by side; run by hand, never in the tests.
bench: venv
	QT_QPA_PLATFORM=offscreen $(PY) bench/startup.py
	$(PY) bench/content.py
	$(PY) bench/campaign.py
	QT_QPA_PLATFORM=offscreen $(PY) bench/sync.py
	QT_QPA_PLATFORM=offscreen $(PY) bench/clicks.py

## Issue 37: a click through the main window against the operation alone.
bench-clicks: venv
	QT_QPA_PLATFORM=offscreen $(PY) bench/clicks.py --rounds 4 --evenings 3

## Regenerate docs/screenshots/ (offscreen), and the real-window one when xvfb-run exists.
screenshots: venv
	for script in scripts/screenshots.py scripts/*_screenshots.py; do \
	    QT_QPA_PLATFORM=offscreen timeout 300 $(PY) $$script || exit 1; done
	if command -v xvfb-run >/dev/null; then scripts/xvfb_screenshot.sh; fi

## Build the wheel and the sdist into dist/ (the players' install: README, "Install it").
dist: venv
	$(PY) -m build --outdir dist .

## Build the one-folder Linux binary (PyInstaller, installed into the venv on demand) and
## smoke-test it (packaging/README.md; not part of CI: it takes a few minutes).
package: venv
	packaging/build.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .pytest_cache
