# The verbs of the project.  Every target builds the venv it needs first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
SITE := $(VENV)/site
PORT ?= /dev/ttyACM0

.PHONY: test sim bench mpy romfs deploy image typecheck clean venv gogadget umqtt corpus replay-corpus pcb

venv: $(STAMP) $(SITE)

# setuptools says "Editable installation ... Please be careful with folders
# ..." for a package_dir layout (firmware/gogadget): information only, kept
# from a newcomer's first `make sim`.
$(STAMP): pyproject.toml firmware/gogadget/__init__.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation:UserWarning' $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# pyrightconfig.json finds the MicroPython stubs here, whatever the Python version.
$(SITE): $(STAMP)
	ln -sfn "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" $(SITE)

test: $(STAMP) $(SITE) umqtt
	$(BIN)/pytest -q $(PYTEST_ARGS)

# umqtt.simple from micropython-lib (sha256 checked) into build/lib: the
# firmware's MQTT client, for the board's /lib and the unix-port tests.
umqtt: $(STAMP)
	$(PY) -m host_sim.tools.mqttlib

sim: $(STAMP)
	$(PY) -m host_sim $(SIM_ARGS)

# The host command line: make gogadget ARGS="play --sim --engine '/usr/games/gnugo --mode gtp'"
# (the same as .venv/bin/gogadget ARGS once the venv exists).
gogadget: $(STAMP)
	$(BIN)/gogadget $(ARGS)

# make bench BENCH=rp2 GOGADGET_UF2=path/to/RPI_PICO-....uf2: the emulated Pico's
# figures on the MicroPython firmware you give it (a UF2 file or a folder of
# them), else on the newest in ~/.cache/gogadget/firmware/ (README, "The
# emulated Pico"); without one that section says so and is left out.
bench: $(STAMP)
	$(PY) -m host_sim.bench $(BENCH)

# Randomized physical play against the firmware: make stress GAMES=5000 JOBS=2
# On the sensors as physics (host_sim/sim/physics.py): make stress PHYSICS=nominal (or worst)
GAMES ?= 1000
JOBS ?= 2
PHYSICS ?=
.PHONY: stress
stress: $(STAMP)
	$(PY) -m host_sim.person.stress --games $(GAMES) --jobs $(JOBS) $(if $(PHYSICS),--physics $(PHYSICS)) $(STRESS_ARGS)

# Real games (professional, amateur and programs) not in this repository (host_sim/tools/corpus.py:
# pinned registry packages, sha256 checked) into build/corpus.
corpus: $(STAMP)
	$(PY) -m host_sim.tools.corpus

# Every game of the corpus (and host_sim/games) replayed by the simulated person
# on both sensor kinds as physics: make replay-corpus PHYSICS=worst JOBS=2
CORPUS ?= build/corpus host_sim/games
replay-corpus: corpus
	$(PY) -m host_sim.person.corpus $(foreach d,$(CORPUS),--corpus $(d)) --jobs $(JOBS) $(if $(PHYSICS),--physics $(PHYSICS)) $(CORPUS_ARGS)

mpy: $(STAMP) umqtt
	$(PY) -m host_sim.tools.mpy build

romfs: $(STAMP)
	$(PY) -m host_sim.tools.mpy romfs

# The one file a maker drags onto the board: the official MicroPython UF2
# for it (micropython.org/download, or mpflash) with make mpy's files on its
# filesystem: make image FIRMWARE=RPI_PICO-....uf2 [BOARD=pico|pico-w] [PROBLEMS=folder]
# writes build/gogadget-BOARD-VERSION.uf2 (host_sim/tools/uf2.py).
# The firmware is checked before make mpy's build runs.
image: $(STAMP) umqtt
	@test -n "$(FIRMWARE)" || { echo "make image FIRMWARE=path/to/the/official.uf2 [BOARD=pico|pico-w]" >&2; exit 2; }
	$(PY) -m host_sim.tools.uf2 image --firmware "$(FIRMWARE)" $(if $(BOARD),--board $(BOARD)) $(if $(PROBLEMS),--problems "$(PROBLEMS)")

deploy: mpy
	$(PY) -m host_sim.tools.mpy deploy --port $(PORT)

# The PCB tiles (hardware/pcb/): generated from pins.py and geometry.py,
# committed; tests/test_pcb_tiles.py checks the committed files equal a
# fresh generation.
pcb: $(STAMP)
	$(PY) -m host_sim.tools.pcb
	$(MAKE) pcb-controller pcb-fab

typecheck: $(STAMP) $(SITE)
	$(BIN)/pyright -p pyrightconfig.json

clean:
	rm -rf build $(VENV) .pytest_cache

# The fab files of every board under hardware/pcb (host_sim/tools/fab): KiCad's
# DRC against the fab class, then Gerbers, drill files, the upload zip, BOM
# and CPL into build/pcb/NAME/, and the renders of both sides into
# hardware/pcb/renders (shown in hardware/README.md).  pcbnew is Debian's
# (apt-get install --no-install-recommends kicad librsvg2-bin), so these run
# under /usr/bin/python3; the renders in the venv (gerbonara).
SYSTEM_PYTHON ?= /usr/bin/python3
# The controller board (host_sim/tools/fab/controller.py: pcbnew and a grid router).
.PHONY: pcb-controller
pcb-controller:
	$(SYSTEM_PYTHON) -m host_sim.tools.fab.controller hardware/pcb/controller.kicad_pcb
PCB_BOARDS = $(sort $(wildcard hardware/pcb/*.kicad_pcb hardware/pcb/*/*.kicad_pcb))
.PHONY: pcb-fab
pcb-fab: $(STAMP)
	@test -n "$(PCB_BOARDS)" || { echo "no boards under hardware/pcb: make pcb writes them"; exit 1; }
	mkdir -p build
	$(SYSTEM_PYTHON) -m host_sim.tools.fab.drc $(PCB_BOARDS) > build/pcb-drc.json || { cat build/pcb-drc.json; exit 1; }
	$(SYSTEM_PYTHON) -m host_sim.tools.fab.outputs --out build/pcb $(PCB_BOARDS)
	$(PY) -m host_sim.tools.fab.readback --renders hardware/pcb/renders $(addprefix build/pcb/,$(basename $(notdir $(PCB_BOARDS))))
