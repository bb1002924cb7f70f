# The kernel we build on: one place for the version pin.
# Included by the Makefile and read by scripts/lib.sh (plain NAME := VALUE lines only).
LINUX_DEB_PACKAGE := linux-source-6.12
LINUX_DEB_VERSION := 6.12.118-1~deb12u1
LINUX_TARBALL := /usr/src/linux-source-6.12.tar.xz
# Debian's own kernel configurations, same version as the source (the
# "cloud" build starts from config.amd64_none_cloud-amd64.xz there).
LINUX_DEB_CONFIG_PACKAGE := linux-config-6.12
LINUX_DEB_CONFIG_DIR := /usr/src/linux-config-6.12
