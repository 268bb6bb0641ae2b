# Build and install clarissa without root. On Linux the binary carries the Swift runtime and
# Foundation inside it (--static-swift-stdlib), so it runs on a machine without Swift; it needs
# only the C libraries at run time (Debian: libyaml-0-2 libxml2 libcurl4 libsqlite3-0 libturbojpeg0
# libpng16-16 libwebp7; docs/install.md).
#
#   make install                       # ~/.local/bin/clarissa
#   make install PREFIX=/opt/clarissa  # any folder you can write; no sudo needed for your own
#   make uninstall                     # the same PREFIX as the install
#
# docs/install.md says more; .ci/static-check tests this file.

PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift
# Stripping drops about 20 MB of debug information; `make install STRIP=` keeps it.
STRIP ?= -s

# Apple platforms ship the Swift runtime in the OS and refuse to link it statically.
ifeq ($(shell uname -s),Linux)
STATIC := --static-swift-stdlib
endif
BUILD_FLAGS := -c release $(STATIC) --product clarissa

.PHONY: build install uninstall

build:
	$(SWIFT) build $(BUILD_FLAGS)

install: build
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 755 $(STRIP) "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/clarissa" \
	  "$(DESTDIR)$(BINDIR)/clarissa"
	@echo "installed $(DESTDIR)$(BINDIR)/clarissa"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; \
	  *) echo "note: $(BINDIR) is not on PATH; add it: export PATH=\"$(BINDIR):\$$PATH\"" ;; esac

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/clarissa"
