# photofiler — the two commands of the quick start are `make run` and `make test`.
# Both install the Debian packages they need first (idempotent: apt-get runs
# only when one is missing).

PREFIX ?= /usr/local
DESTDIR ?=
# Where systemd looks for user units: $(PREFIX)/lib/systemd/user for a system-wide
# install; ~/.local/share/systemd/user for PREFIX=~/.local.
SYSTEMD_USER_DIR ?= $(if $(filter $(HOME)/.local,$(PREFIX)),$(HOME)/.local/share/systemd/user,$(PREFIX)/lib/systemd/user)
SWIFT ?= swift
DEB_PACKAGES = pkg-config libinotifytools0-dev libsqlite3-dev libgexiv2-dev libvips-dev \
	libmagic-dev libssl-dev libsystemd-dev libavformat-dev libavcodec-dev libswscale-dev libglib2.0-dev inotify-tools
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian 12's libheif 1.15 cannot open current iPhone HEICs ("bad seek"); 1.19 from
# Debian's own bookworm-backports suite can, under the same libvips 8.14.
BACKPORTS_SOURCES = /etc/apt/sources.list.d/photofiler-bookworm-backports.sources
BACKPORTS_PACKAGES = libheif1 libheif-dev libheif-plugin-libde265 libheif-plugin-dav1d

.PHONY: deps build release run demo test bench contact-sheet install uninstall format clean

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages: $$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@# bookworm-backports: one deb822 entry on the mirror that debian.sources already uses.
	@if ! grep -qs '^Suites: *bookworm-backports' /etc/apt/sources.list.d/*.sources; then \
		mirror=$$(awk '/^URIs:/ && $$2 ~ /debian\/?$$/ {print $$2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null); \
		echo "Enabling bookworm-backports ($${mirror:-http://deb.debian.org/debian}) in $(BACKPORTS_SOURCES)"; \
		printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$${mirror:-http://deb.debian.org/debian}" | $(SUDO) tee $(BACKPORTS_SOURCES) >/dev/null; \
		$(SUDO) apt-get update -qq; \
	fi
	@old=$$(for p in $(BACKPORTS_PACKAGES); do \
		v=$$(dpkg-query -W -f='$${Version}' $$p 2>/dev/null); \
		dpkg --compare-versions "$${v:-0}" ge 1.19 || echo $$p; done); \
	if [ -n "$$old" ]; then \
		echo "Installing from bookworm-backports: $$old"; \
		install="$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 -t bookworm-backports $(BACKPORTS_PACKAGES)"; \
		$$install || { $(SUDO) apt-get update -qq && $$install; }; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product photofiler

run: release
	examples/run.sh

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip SystemFaultTests
	# Mounts and sysctls: on their own, after the rest (they need root; skipped otherwise).
	$(SWIFT) test --skip-build --filter SystemFaultTests

# The benchmark: photofiler against the floor and the inotifywait recipe, one table
# (bench-results/latest.md, .json, latency.svg). BENCH_ARGS="--files 2000" for a short run.
bench: deps
	$(SWIFT) build -c release --product photofiler
	$(SWIFT) build -c release --product photofiler-bench
	.build/release/photofiler-bench $(BENCH_ARGS)

# The README's contact sheet: the corpus filed into a scratch library, its own 256 px
# thumbnails (made by `save`, written by `thumb`) joined by libvips' `vips arrayjoin`.
CORPUS ?= $(firstword $(wildcard ../shared/corpus ../../shared/corpus ../../../shared/corpus))
CONTACT_SHEET = docs/contact-sheet.jpg
contact-sheet: release
	@test -n "$(CORPUS)" || { echo "No corpus: give CORPUS=DIR (the shared corpus folder)"; exit 1; }
	@scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; \
	files=$$(find $(CORPUS) -maxdepth 1 -type f ! -name MANIFEST.tsv ! -name README.md | sort); \
	XDG_CACHE_HOME=$$scratch/cache .build/release/photofiler save --library $$scratch/library $$files > $$scratch/ids; \
	tiles=""; for id in $$(cat $$scratch/ids); do \
		.build/release/photofiler thumb $$id --library $$scratch/library -o $$scratch/$$id.png && tiles="$${tiles:+$$tiles }$$scratch/$$id.png"; \
	done; \
	mkdir -p $(dir $(CONTACT_SHEET)); \
	vips arrayjoin "$$tiles" "$(CONTACT_SHEET)[Q=85,strip]" --across 6 --shim 8 --halign centre --valign centre --background 255 && \
	echo "Wrote $(CONTACT_SHEET): $$(echo $$tiles | wc -w) thumbnails ($$(echo $$files | xargs -n1 basename | tr '\n' ' '))"

install: release
	install -D -m 0755 .build/release/photofiler $(DESTDIR)$(PREFIX)/bin/photofiler
	install -d $(DESTDIR)$(SYSTEMD_USER_DIR)
	sed 's#@BINDIR@#$(PREFIX)/bin#' examples/photofiler.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/photofiler.service
	install -D -m 0644 examples/photofiler.conf $(DESTDIR)$(PREFIX)/share/doc/photofiler/photofiler.conf.example

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/photofiler $(DESTDIR)$(SYSTEMD_USER_DIR)/photofiler.service
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/photofiler

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
