# photofiler — the two commands of the quick start are `make run` and `make test`.
# Both install the Debian packages they need first (idempotent: apt-get runs
# only when one is missing).

PREFIX ?= /usr/local
DESTDIR ?=
MANDIR ?= $(PREFIX)/share/man
# Where systemd looks for user units: $(PREFIX)/lib/systemd/user for a system-wide
# install; ~/.local/share/systemd/user for PREFIX=~/.local.
SYSTEMD_USER_DIR ?= $(if $(filter $(HOME)/.local,$(PREFIX)),$(HOME)/.local/share/systemd/user,$(PREFIX)/lib/systemd/user)
SWIFT ?= swift
# Release builds carry the Swift runtime and Foundation inside the binary, so an
# installed photofiler needs only Debian's libraries (and the package can say which).
RELEASE = -c release --static-swift-stdlib
# The version is written once, in the source.
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/System/Version.swift)
# Build and test needs; scdoc makes the man pages, dpkg-dev the package, bash,
# zsh and fish run the completion tests, and the tests make Live Photo videos
# (QuickTime keys) and motion photos with ffmpeg. libvips-tools' `vips` makes the
# reference thumbnails the differential test holds photofiler's to; exiftool writes
# EXIF into Tests/Fixtures/phones (its make.sh); eslint checks the gallery's script.
DEB_PACKAGES = pkg-config libinotifytools0-dev libsqlite3-dev libgexiv2-dev libexiv2-dev libvips-dev \
	libmagic-dev libssl-dev libsystemd-dev libavformat-dev libavcodec-dev libswscale-dev libglib2.0-dev libseccomp-dev \
	inotify-tools scdoc dpkg-dev zsh fish libmicrohttpd-dev chromium chromium-driver python3-selenium ffmpeg \
	libvips-tools libimage-exiftool-perl eslint
# The benchmark's peers: Debian's nginx serves the same thumbnail files as the gallery,
# wrk loads both (the gallery's row of `make bench`); heif-enc with the x265 plugin makes
# the 48-megapixel HEICs of the thumbnail rows, from bookworm-backports like libheif.
BENCH_BACKPORTS_PACKAGES = libheif-examples libheif-plugin-x265
# photosort (PyPI, the save rows' peer) runs in a venv under .build and reads EXIF with exiftool.
BENCH_PACKAGES = nginx wrk libvips-tools curl python3-venv libimage-exiftool-perl
BENCH_VENV = .build/bench-venv
MANPAGES = .build/man/photofiler.1 .build/man/photofiler.conf.5
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian 12's libheif 1.15 cannot open current iPhone HEICs ("bad seek"); 1.19 from
# Debian's own bookworm-backports suite can, under the same libvips 8.14.
BACKPORTS_SOURCES = /etc/apt/sources.list.d/photofiler-bookworm-backports.sources
# heif-enc and its HEVC and AV1 encoders make the HEIF fixtures (Tests/Fixtures/phones/make.sh).
BACKPORTS_PACKAGES = libheif1 libheif-dev libheif-plugin-libde265 libheif-plugin-dav1d \
	libheif-examples libheif-plugin-x265 libheif-plugin-aomenc

.PHONY: deps deb-deps bench-deps build release run demo test sanitize bench contact-sheet man install deb uninstall format lint clean

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

# `make deb`'s checker: lintian reads the package as Debian's archive would.
DEB_DEPS_PACKAGES = lintian
deb-deps: deps
	@missing=$$(for p in $(DEB_DEPS_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages for make deb: $$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

bench-deps: deps
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages for the benchmark: $$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@# heif-enc with the x265 plugin (a 48-megapixel HEIC), from bookworm-backports like libheif.
	@missing=$$(for p in $(BENCH_BACKPORTS_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing from bookworm-backports for the benchmark: $$missing"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -t bookworm-backports $$missing; \
	fi
	@# photosort 2021.1.4 (its newest) calls ExifTool.start(), which PyExifTool 0.5 no longer has.
	@[ -x $(BENCH_VENV)/bin/photosort ] || { python3 -m venv $(BENCH_VENV) && \
		$(BENCH_VENV)/bin/pip install -q photosort==2021.1.4 'pyexiftool<0.5'; }

# photofiler-helper-light and photofiler-helper are the sandboxed processes that
# parse files (photofiler(1) "Untrusted bytes"): the light one with libmagic and exiv2 only,
# the other with every decoder. photofiler finds them beside itself or in
# ../libexec/photofiler/.
release: deps
	$(SWIFT) build $(RELEASE) --product photofiler
	$(SWIFT) build $(RELEASE) --product photofiler-helper-light
	$(SWIFT) build $(RELEASE) --product photofiler-helper

run: release
	examples/run.sh

test: deps lint
	$(SWIFT) build --build-tests
	# CatalogBenchmark is a timing, not a test: PHOTOFILER_BENCHMARK=1 swift test --filter CatalogBenchmark.
	$(SWIFT) test --skip-build --skip SystemFaultTests --skip CatalogBenchmark
	# The gallery in a real browser: headless chromium through chromedriver (screenshots in test-artifacts/browser/).
	/usr/bin/python3 Tests/Browser/gallery_browser_test.py
	# Mounts and sysctls: on their own, after the rest (they need root; skipped otherwise).
	$(SWIFT) test --skip-build --filter SystemFaultTests
	$(MAKE) sanitize

# The helpers' decoding paths under AddressSanitizer (Swift, C, C++) and
# UndefinedBehaviorSanitizer (C and C++: swiftc has no -sanitize=undefined on Linux;
# its vptr check needs a C++ runtime swiftc does not link) over every fixture and
# the fuzz seeds (Tests/sanitize.sh); any report fails. PHOTOFILER_SANITIZERS lets
# the helpers' sandbox admit the sanitizer runtime (Sources/Helper/SyscallFilter.swift).
SANITIZE = --scratch-path .build/sanitize --sanitize=address -Xswiftc -DPHOTOFILER_SANITIZERS \
	-Xcc -fsanitize=undefined -Xcc -fno-sanitize=vptr -Xcxx -fsanitize=undefined -Xcxx -fno-sanitize=vptr
sanitize: deps
	$(SWIFT) build $(SANITIZE)
	Tests/sanitize.sh .build/sanitize/debug

# The benchmark: photofiler against the floor and the inotifywait recipe, one table
# each at 5,000 and 10,000 files (bench-results/burst-5000/latest.md and
# bench-results/latest.md, with .json and latency.svg). BENCH_ARGS="--files 2000" for a short run.
# Then thumbnails against vipsthumbnail; `save` of 2,000 JPEGs with the desktop cache on
# and off against photosort, and a burst's thumbnails (bench-results/save.md; FILES=N for
# another count); and the gallery against nginx and in chromium on a 100,000-asset library (bench-results/gallery.md; GALLERY_ASSETS=N for another size).
GALLERY_ASSETS ?= 100000
bench: bench-deps
	$(SWIFT) build $(RELEASE) --product photofiler
	$(SWIFT) build $(RELEASE) --product photofiler-helper-light
	$(SWIFT) build $(RELEASE) --product photofiler-helper
	$(SWIFT) build $(RELEASE) --product photofiler-bench
	.build/release/photofiler-bench --files 5000 --out bench-results/burst-5000 $(BENCH_ARGS)
	.build/release/photofiler-bench $(BENCH_ARGS)
	Benchmarks/thumbnails.sh .build/release/photofiler bench-results/thumbnails.md
	PHOTOSORT=$(BENCH_VENV)/bin/photosort Benchmarks/save.sh .build/release/photofiler bench-results/save.md
	ASSETS=$(GALLERY_ASSETS) Benchmarks/gallery.sh .build/release/photofiler .build/release/photofiler-bench bench-results/gallery.md

# The README's contact sheet: the corpus filed into a scratch library, its own 256 px
# thumbnails (made by `save`, written by `thumb`) joined by libvips' `vips arrayjoin`.
CORPUS ?= Tests/Fixtures/corpus
CONTACT_SHEET = docs/contact-sheet.jpg
contact-sheet: release
	@scratch=$$(mktemp -d); trap 'rm -rf "$$scratch"' EXIT; \
	files=$$(find $(CORPUS) -maxdepth 1 -type f ! -name MANIFEST.tsv ! -name README.md | sort); \
	XDG_CACHE_HOME=$$scratch/cache .build/release/photofiler save --library $$scratch/library $$files > $$scratch/ids; \
	tiles=""; for id in $$(cat $$scratch/ids); do \
		.build/release/photofiler thumb $$id --library $$scratch/library -o $$scratch/$$id.png && tiles="$${tiles:+$$tiles }$$scratch/$$id.png"; \
	done; \
	mkdir -p $(dir $(CONTACT_SHEET)); \
	vips arrayjoin "$$tiles" "$(CONTACT_SHEET)[Q=85,strip]" --across 6 --shim 8 --halign centre --valign centre --background 255 && \
	echo "Wrote $(CONTACT_SHEET): $$(echo $$tiles | wc -w) thumbnails ($$(echo $$files | xargs -n1 basename | tr '\n' ' '))"

# The manual: photofiler(1) and photofiler.conf(5), from docs/*.scd.
man: deps $(MANPAGES)

.build/man/%: docs/%.scd
	@mkdir -p .build/man
	scdoc < $< > $@

install: release man
	install -D -m 0755 .build/release/photofiler $(DESTDIR)$(PREFIX)/bin/photofiler
	install -D -m 0755 .build/release/photofiler-helper-light $(DESTDIR)$(PREFIX)/libexec/photofiler/photofiler-helper-light
	install -D -m 0755 .build/release/photofiler-helper $(DESTDIR)$(PREFIX)/libexec/photofiler/photofiler-helper
	install -d $(DESTDIR)$(SYSTEMD_USER_DIR)
	sed 's#@BINDIR@#$(PREFIX)/bin#' examples/photofiler.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/photofiler.service
	install -D -m 0644 examples/photofiler.conf $(DESTDIR)$(PREFIX)/share/doc/photofiler/photofiler.conf.example
	install -D -m 0644 .build/man/photofiler.1 $(DESTDIR)$(MANDIR)/man1/photofiler.1
	install -D -m 0644 .build/man/photofiler.conf.5 $(DESTDIR)$(MANDIR)/man5/photofiler.conf.5
	install -D -m 0644 completions/photofiler.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photofiler
	install -D -m 0644 completions/_photofiler $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_photofiler
	install -D -m 0644 completions/photofiler.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/photofiler.fish

# photofiler_X.Y.Z_amd64.deb: `make install` into a staging tree for /usr, man pages
# gzipped as Debian does, Depends: worked out by dpkg-shlibdeps from the binary, the
# DEP-5 copyright and packaging/changelog (its first entry must be DEB_VERSION). No
# conffiles: nothing is installed under /etc (the config file is the user's own,
# ~/.config/photofiler/photofiler.conf; the example goes to /usr/share/doc).
# Then lintian: any error or warning fails the build (the notes it may still print
# are pedantic or informational; packaging/lintian-overrides says why each is kept,
# and why initial-upload-closes-no-bugs, a warning, does not apply).
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
# The package's own revision of VERSION (a non-native package: its changelog is
# changelog.Debian.gz); reset to 1 with each new VERSION.
DEB_REVISION = 1
DEB_VERSION = $(VERSION)-$(DEB_REVISION)
DEB = photofiler_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_ROOT = .build/deb/root
DEB_DOC = $(DEB_ROOT)/usr/share/doc/photofiler
# The package's Maintainer: field; set DEBFULLNAME and DEBEMAIL as for dch(1).
DEBFULLNAME ?= photofiler developers
DEBEMAIL ?= photofiler@users.noreply.github.com
# Size budgets of the installed (stripped) binaries, in bytes, about 5% over their
# size today: make deb fails past one, and a change that needs more says why and
# raises its budget here. The helpers carry FoundationEssentials' Date and no more
# (9.1 and 9.2 MB); photofiler still links all of Foundation with its ICU data
# (61 MB), until its last `import Foundation` goes.
BUDGET_photofiler = 64000000
BUDGET_photofiler-helper = 9700000
BUDGET_photofiler-helper-light = 9600000
DEB_BINARIES = usr/bin/photofiler usr/libexec/photofiler/photofiler-helper \
	usr/libexec/photofiler/photofiler-helper-light
deb: deb-deps release man
	@changelog=$$(sed -n '1s/^photofiler (\([^)]*\)).*/\1/p' packaging/changelog); \
	[ "$$changelog" = "$(DEB_VERSION)" ] || { \
		echo "packaging/changelog's first entry is $$changelog, not $(DEB_VERSION): add an entry for $(DEB_VERSION) at its top."; exit 1; }
	rm -rf .build/deb
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr SYSTEMD_USER_DIR=/usr/lib/systemd/user
	cd $(DEB_ROOT) && strip --strip-unneeded --remove-section=.comment --remove-section=.note $(DEB_BINARIES)
	@over=0; for f in $(DEB_BINARIES); do \
		name=$$(basename $$f); size=$$(stat -c %s $(DEB_ROOT)/$$f); \
		budget=$$(case $$name in photofiler) echo $(BUDGET_photofiler);; \
			photofiler-helper) echo $(BUDGET_photofiler-helper);; \
			photofiler-helper-light) echo $(BUDGET_photofiler-helper-light);; esac); \
		echo "$$name: $$size bytes (budget $$budget)"; \
		if [ "$$size" -gt "$$budget" ]; then \
			echo "$$name is $$size bytes, past its budget of $$budget: shrink it, or raise BUDGET_$$name in the Makefile and say why."; over=1; fi; \
	done; [ $$over = 0 ]
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/photofiler.1 $(DEB_ROOT)/usr/share/man/man5/photofiler.conf.5
	install -m 0644 packaging/copyright $(DEB_DOC)/copyright
	gzip -9n < packaging/changelog > $(DEB_DOC)/changelog.Debian.gz
	install -D -m 0644 packaging/lintian-overrides $(DEB_ROOT)/usr/share/lintian/overrides/photofiler
	mkdir -p $(DEB_ROOT)/DEBIAN
	cd $(DEB_ROOT) && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums
	VERSION=$(DEB_VERSION) ARCH=$(DEB_ARCH) MAINTAINER="$(DEBFULLNAME) <$(DEBEMAIL)>" \
		packaging/control.sh $(DEB_ROOT) > $(DEB_ROOT)/DEBIAN/control
	dpkg-deb --build --root-owner-group -Zxz $(DEB_ROOT) $(DEB)
	@dpkg-deb --info $(DEB) | sed -n '/Package:/,$$p'
	lintian --fail-on error,warning --display-info --pedantic $(DEB)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/photofiler $(DESTDIR)$(SYSTEMD_USER_DIR)/photofiler.service
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/photofiler $(DESTDIR)$(PREFIX)/libexec/photofiler
	rm -f $(DESTDIR)$(MANDIR)/man1/photofiler.1 $(DESTDIR)$(MANDIR)/man5/photofiler.conf.5
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photofiler
	rm -f $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_photofiler
	rm -f $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/photofiler.fish

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks Package.swift

# The committed .swift-format, and the gallery's script and worker with Debian's
# eslint (.eslintrc.json), held by make test: any finding fails it. NODE_PATH lets a
# node that is not Debian's (NodeSource's) find Debian's eslint modules.
lint: deps
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Package.swift
	NODE_PATH=/usr/share/nodejs eslint --no-eslintrc -c .eslintrc.json --max-warnings 0 Sources/Server/Static/*.js

clean:
	rm -rf .build photofiler_*.deb
