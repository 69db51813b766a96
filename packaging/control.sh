#!/bin/sh
# Writes the DEBIAN/control of the photofiler package staged in ROOT (the first
# argument) to stdout. Depends: is what dpkg-shlibdeps finds for the binaries'
# libraries (the Swift runtime is linked in: see RELEASE in the Makefile); the
# decoders are the sandboxed helper's, not photofiler's.
# VERSION, ARCH and MAINTAINER come from the Makefile. A warning of dpkg-shlibdeps
# (a library linked but never called, a symbol it cannot place) fails the package.
set -eu
root=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps reads debian/control from the folder it runs in.
mkdir -p "$work/debian"
printf 'Source: photofiler\n\nPackage: photofiler\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/photofiler" "$root/usr/libexec/photofiler/photofiler-helper" "$root/usr/libexec/photofiler/photofiler-helper-light" 2>"$work/warnings" | sed -n 's/^shlibs:Depends=//p')
if [ -s "$work/warnings" ]; then
    cat "$work/warnings" >&2
    echo "dpkg-shlibdeps warned (above): drop the library the binary does not use from its link." >&2
    exit 1
fi
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat <<CONTROL
Package: photofiler
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $size
Depends: $depends
Recommends: systemd
Section: graphics
Priority: optional
Description: file new photos and videos from apps' folders into a photo library
 photofiler is a small daemon that watches the folders where apps (chat apps,
 screenshot tools, browsers, a phone synced with Syncthing or Nextcloud) save
 pictures, and files every new photo or video the way a phone's photo library
 does: once into a Roll by capture date, then linked into an album named after
 the app. It never loses a file, never files half a file or one twice, and uses
 no CPU while nothing happens.
 .
 Run it as a systemd user service: systemctl --user enable --now photofiler
 (inboxes in ~/.config/photofiler/photofiler.conf; see photofiler.conf(5)).
CONTROL
