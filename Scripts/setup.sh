#!/usr/bin/env bash
# Installs the Debian packages AccountHandoff needs, only when one is missing.
set -euo pipefail
# zlib1g-dev deflates the PNG QR images; libmagickcore-6.q16-6-extra holds the SVG reader zbarimg
# needs for the SVG scan tests.
# libsqlite3-dev and libcurl4-openssl-dev back the import's reference store and IMAP validator;
# dovecot-imapd and openssl run the throwaway IMAP server the import tests validate against.
# libpam0g-dev backs the PAM authenticator; libpam-wrapper (cwrap's pam_wrapper and pam_matrix)
# lets its tests run PAM against throwaway service files instead of /etc/pam.d.
# libsecret-1-dev backs the keyring credential store; gnome-keyring, dbus-daemon and dbus-bin
# (dbus-send) run the throwaway Secret Service its tests and the CLI tests use.
# magic-wormhole-transit-relay (twistd3 transitrelay) is the relay the relay tests, the demo
# (--relay) and the bench use; iproute2 (ip netns) builds the three-host network test.
packages=(libsodium-dev libqrencode-dev zlib1g-dev pkg-config zbar-tools libmagickcore-6.q16-6-extra python3-cryptography
          libsqlite3-dev libcurl4-openssl-dev dovecot-imapd openssl libpam0g-dev libpam-wrapper
          libsecret-1-dev gnome-keyring dbus-daemon dbus-bin magic-wormhole-transit-relay iproute2)
# DNS-SD discovery: libavahi-client-dev backs the Avahi adapter; avahi-daemon runs in each host
# of the namespace tests (on a D-Bus system bus of its own); avahi-utils (avahi-browse) and
# bind9-dnsutils (dig) are the independent clients those tests cross-check with.
packages+=(libavahi-client-dev avahi-daemon avahi-utils bind9-dnsutils)
# libnss3-dev backs the Thunderbird profile support (the key database's SDR encryption of
# logins.json); libnss3-tools (certutil) makes the tests' key databases and lets a throwaway
# profile trust the throwaway CA; thunderbird is the real client the Thunderbird tests run
# headless (Debian 12's 153 ESR, the newest version the profile support knows).
packages+=(libnss3-dev libnss3-tools thunderbird)
# Receiving from a photo: libzbar-dev (zbar's QR scanner and video processor), libpng-dev and
# libjpeg-dev (libjpeg-turbo) decode the photo; imagemagick (convert) photographs codes in
# software for the photo experiment.
packages+=(libzbar-dev libpng-dev libjpeg-dev imagemagick)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
