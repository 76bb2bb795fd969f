# planner: `make run` installs everything and runs the app; `make test` installs
# everything and passes the tests. Both work from a fresh clone.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run test setup venv venv-nn lint format check-deploy bench messages clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@python=$$(scripts/find_python.sh) || exit 1; \
	if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	  echo "== creating $(VENV) with $$python"; rm -rf $(VENV); "$$python" -m venv $(VENV) || exit 1; \
	fi
	@echo "== installing Python packages (pinned): a few minutes on a fresh machine; pip names each package, and a line every 15 s while it installs"
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	scripts/pip_install_progress.sh $(PY) -r requirements-dev.txt
	@touch $@

venv: $(VENV)/.installed

# Optional extra for the `nn` profile: PyTorch. PyPI's Linux wheel is a CUDA build of
# several GB, so it is not part of `venv`; CI installs it to run the nn profile's test.
$(VENV)/.installed-nn: requirements-nn.txt $(VENV)/.installed
	@echo "== installing the nn extra (PyTorch; several GB on Linux)"
	scripts/pip_install_progress.sh $(PY) -r requirements-nn.txt
	@touch $@

venv-nn: $(VENV)/.installed-nn

# Set-up steps of `make run`: safe to repeat, duplicates nothing.
setup: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py bootstrap

# Quiet: warnings, errors and restarts only; VERBOSE=1 adds the access log and each task.
run: setup
	@scripts/ensure_stress_ng.sh
	$(PY) manage.py runstack --port $(PORT)$(if $(filter-out 0,$(VERBOSE)), --verbose)

# The whole suite in lanes (scripts/test_lanes.sh: unit and browser tests spread over the
# cores, the fault suite alone, schemathesis), each lane's time printed.
# `make test PYTEST_ARGS="tests/test_x.py -x"` runs just those; LANES="unit" some lanes.
test: venv
	@scripts/ensure_browser.sh
	@scripts/ensure_stress_ng.sh
	@scripts/ensure_gettext.sh
	@PY=$(PY) PYTEST_ARGS="$(PYTEST_ARGS)" scripts/test_lanes.sh

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

format: venv
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

check-deploy: venv
	DJANGO_SETTINGS_MODULE=config.settings_production SECRET_KEY=$$(openssl rand -hex 40) \
	  ALLOWED_HOSTS=planner.example.com EMAIL_HOST=smtp.example.com \
	  $(PY) manage.py check --deploy --fail-level WARNING

messages: venv
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv

bench: venv
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache
