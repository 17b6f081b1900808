# `make install` builds a stripped release binary with the Swift runtime linked in and installs it under PREFIX
# (default /usr/local): see Scripts/install.sh.
PREFIX ?= /usr/local

.PHONY: install uninstall
install:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" Scripts/install.sh

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/vitrine"
