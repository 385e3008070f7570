# make install [PREFIX=/usr/local] [DESTDIR=]: torusctl; libtorus, static
# and shared (soname libtorus.so.$(TN_SO_MAJOR)); its headers as
# PREFIX/include/torus/*.h (a program writes #include <torus/torus.h>);
# the pkg-config file torus.pc; the simulator models built ($(SIM_MODELS),
# PREFIX/lib/torus/sim, where an installed torusctl looks); the man page,
# bash completion, the udev rule (PREFIX/lib/udev/rules.d: `make
# install-udev` puts it in /etc and reloads udev) and the example.

PREFIX         ?= /usr/local
TN_LIB_VERSION := 0.1.0
TN_SO_MAJOR    := 0
HOST_SHLIB     := $(HOST_DIR)/libtorus.so.$(TN_LIB_VERSION)
# The public headers (include/torus/); the private ones of the stages
# (host/<stage>/*.h) stay in the tree.
HOST_PUBLIC_HDR  := $(sort $(wildcard include/torus/*.h))

.PHONY: install
$(HOST_SHLIB): $(HOST_LIB_OBJ)
	$(CC) -shared -Wl,-soname,libtorus.so.$(TN_SO_MAJOR) -o $@ $^ $(HOST_LIBS)

install: $(TORUSCTL) $(HOST_LIB) $(HOST_SHLIB) $(foreach m,$(SIM_MODELS),$(SIM_DIR)/libtnsim_$(m).so)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/lib/torus/sim $(DESTDIR)$(PREFIX)/include/torus \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/lib/udev/rules.d $(DESTDIR)$(PREFIX)/share/doc/torus/examples
	install -m 0755 $(TORUSCTL) $(DESTDIR)$(PREFIX)/bin/torusctl
	install -m 0644 $(HOST_LIB) $(DESTDIR)$(PREFIX)/lib/libtorus.a
	install -m 0755 $(HOST_SHLIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libtorus.so.$(TN_LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/libtorus.so.$(TN_SO_MAJOR)
	ln -sf libtorus.so.$(TN_SO_MAJOR) $(DESTDIR)$(PREFIX)/lib/libtorus.so
	install -m 0644 $(HOST_PUBLIC_HDR) $(DESTDIR)$(PREFIX)/include/torus/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	    'Name: torus' \
	    'Description: collectives on a 3-D torus of FPGA routers: schedules, verifier, reference model, device protocol' \
	    'Version: $(TN_LIB_VERSION)' 'Requires: jansson' \
	    'Requires.private: $(filter-out jansson,$(HOST_PKGS))' \
	    'Libs: -L$${libdir} -ltorus' 'Libs.private: -ldl' 'Cflags: -I$${includedir}' \
	    >$(DESTDIR)$(PREFIX)/lib/pkgconfig/torus.pc
	install -m 0755 $(foreach m,$(SIM_MODELS),$(SIM_DIR)/libtnsim_$(m).so) $(DESTDIR)$(PREFIX)/lib/torus/sim/
	install -m 0644 docs/torusctl.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 scripts/torusctl.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/torusctl
	install -m 0644 scripts/60-torus.rules $(DESTDIR)$(PREFIX)/lib/udev/rules.d/
	install -m 0644 examples/gossip_sim.c $(DESTDIR)$(PREFIX)/share/doc/torus/examples/

# The install tree in a temporary PREFIX: files, soname, pkg-config, the
# example built against it (shared and static) and run on the simulator,
# the installed torusctl finding its models, man page, completion.
$(E2E_DIR)/install.t: tests/e2e/install.sh $(TORUSCTL) $(HOST_LIB) $(HOST_SHLIB) \
                      examples/gossip_sim.c docs/torusctl.1 scripts/torusctl.bash \
                      $(foreach m,$(SIM_MODELS),$(SIM_DIR)/libtnsim_$(m).so)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/install.sh %s\n' '$(MAKE)' >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/install.t
