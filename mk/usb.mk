# usb and serial transports (host/transport/transport_usb.c,
# transport_serial.c, usb.h): their tests against an emulated FT2232H on umockdev and a
# pseudo-terminal, the usb-path throughput benchmark, and the udev rule.
# docs/usb.md describes all of it.
#
# For the library build: compile host/transport/transport_usb.c with $(USB_CFLAGS) and
# link libtorus users with $(USB_LIBS).

USB_PKGS        := libftdi1 libusb-1.0
USB_CFLAGS       = $(shell pkg-config --cflags $(USB_PKGS))
USB_LIBS         = $(shell pkg-config --libs $(USB_PKGS))
UMOCKDEV_CFLAGS  = $(shell pkg-config --cflags umockdev-1.0)
UMOCKDEV_LIBS    = $(shell pkg-config --libs umockdev-1.0)
UDEV_RULES_DIR  ?= /etc/udev/rules.d

USB_BUILD := $(BUILD)/usb
USB_CC     = $(CCACHE) $(CC)

# Objects: plain under obj/, sanitized under san/ (make test runs both).
USB_EMU_SRCS    := host/transport/transport_usb.c tests/usb/ft2232h_emu.c host/core/error.c
USB_SERIAL_SRCS := host/transport/transport_serial.c
USB_OBJ = $(patsubst %.c,$(USB_BUILD)/obj/%.o,$(1))
USB_SAN = $(patsubst %.c,$(USB_BUILD)/san/%.o,$(1))

$(USB_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(USB_CC) $(TN_CFLAGS) -MMD -MP $(HOST_INC) $(USB_CFLAGS) $(UMOCKDEV_CFLAGS) -c $< -o $@

$(USB_BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	$(USB_CC) $(TN_CFLAGS) $(SAN_FLAGS) -MMD -MP $(HOST_INC) $(USB_CFLAGS) $(UMOCKDEV_CFLAGS) -c $< -o $@

USB_EMU_TEST_SRCS := $(USB_EMU_SRCS) $(USB_SERIAL_SRCS) tests/usb/test_usb_emu.c

$(USB_BUILD)/test_usb_emu: $(call USB_OBJ,$(USB_EMU_TEST_SRCS))
	$(CC) -o $@ $^ $(USB_LIBS) $(UMOCKDEV_LIBS) -lutil -lpthread

$(USB_BUILD)/test_usb_emu-san: $(call USB_SAN,$(USB_EMU_TEST_SRCS))
	$(CC) $(SAN_FLAGS) -o $@ $^ $(USB_LIBS) $(UMOCKDEV_LIBS) -lutil -lpthread

$(USB_BUILD)/test_serial_pty: $(call USB_OBJ,$(USB_SERIAL_SRCS) host/core/error.c tests/usb/test_serial_pty.c)
	$(CC) -o $@ $^ -lutil -lpthread

$(USB_BUILD)/test_serial_pty-san: $(call USB_SAN,$(USB_SERIAL_SRCS) host/core/error.c tests/usb/test_serial_pty.c)
	$(CC) $(SAN_FLAGS) -o $@ $^ -lutil -lpthread

# The framed protocol over the usb transport (links the protocol client).
USB_PROTO_SRCS := $(USB_EMU_SRCS) host/proto/proto.c tests/usb/test_usb_proto.c

$(USB_BUILD)/test_usb_proto: $(call USB_OBJ,$(USB_PROTO_SRCS))
	$(CC) -o $@ $^ $(USB_LIBS) $(UMOCKDEV_LIBS) -lpthread

$(USB_BUILD)/test_usb_proto-san: $(call USB_SAN,$(USB_PROTO_SRCS))
	$(CC) $(SAN_FLAGS) -o $@ $^ $(USB_LIBS) $(UMOCKDEV_LIBS) -lpthread

$(USB_BUILD)/bench_usb: $(call USB_OBJ,$(USB_EMU_SRCS) tests/usb/bench_usb.c)
	$(CC) -o $@ $^ $(USB_LIBS) $(UMOCKDEV_LIBS) -lpthread

# Runs a command against emulated boards (docs/usb.md).
$(USB_BUILD)/ft_emu_run: $(call USB_OBJ,tests/usb/ft2232h_emu.c host/transport/transport_sim.c tests/usb/ft_emu_run.c)
	$(CC) -o $@ $^ $(UMOCKDEV_LIBS) -ldl -lpthread

USB_TESTS  := $(USB_BUILD)/test_usb_emu $(USB_BUILD)/test_usb_emu-san \
              $(USB_BUILD)/test_serial_pty $(USB_BUILD)/test_serial_pty-san \
              $(USB_BUILD)/test_usb_proto $(USB_BUILD)/test_usb_proto-san \
              tests/usb/test_udev_rule.sh
TESTS_HOST += $(USB_TESTS)
TESTS_ALONE += $(filter-out %.sh,$(USB_TESTS))
BENCHES    += $(USB_BUILD)/bench_usb

.PHONY: usb test-usb install-udev
usb: $(USB_BUILD)/ft_emu_run $(USB_BUILD)/bench_usb

test-usb: $(USB_TESTS)
	@$(RUN_TESTS)

# Lets non-root users open the boards (uaccess for the logged-in user,
# group plugdev otherwise). Run as root: sudo make install-udev
install-udev: scripts/60-torus.rules
	install -D -m 0644 $< $(DESTDIR)$(UDEV_RULES_DIR)/60-torus.rules
	@if [ -n "$(DESTDIR)" ]; then :; \
	elif command -v udevadm >/dev/null; then \
	    udevadm control --reload-rules && \
	    udevadm trigger --action=add --subsystem-match=usb --attr-match=idVendor=0403; \
	    udevadm trigger --action=add --subsystem-match=tty; \
	    echo "installed $(UDEV_RULES_DIR)/60-torus.rules; replug the board"; \
	else \
	    echo "installed $(UDEV_RULES_DIR)/60-torus.rules; udevadm not found: restart udev, then replug the board"; \
	fi

-include $(wildcard $(USB_BUILD)/obj/host/*/*.d $(USB_BUILD)/obj/tests/usb/*.d \
                    $(USB_BUILD)/san/host/*/*.d $(USB_BUILD)/san/tests/usb/*.d)
