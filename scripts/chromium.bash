# A headless Chromium for the end-to-end ITs that load console pages in a real browser (./sling-vt chromium, test).
# Sourced by ./sling-vt, which defines die and info.
#
# The ITs start the binary themselves (HeadlessChromium in it-tests) and talk to it over the DevTools protocol, so all
# this script has to do is find one, or install Debian's package, and print its path.

# Prints the path of a Chromium binary: SLING_VT_CHROMIUM, else chromium or chromium-browser on the PATH, else Debian's
# chromium package installed with apt-get (as root only).
chromium_binary() {
    explicit_binary SLING_VT_CHROMIUM "a Chromium or Chrome binary" && return 0
    local name
    for name in chromium chromium-browser; do
        if command -v "$name" >/dev/null 2>&1; then
            command -v "$name"
            return 0
        fi
    done
    if debian_install chromium "about 150 MB to download with its libraries"; then
        command -v chromium >/dev/null 2>&1 \
            || die "Debian's chromium package is installed but no chromium is on the PATH; set SLING_VT_CHROMIUM to its binary"
        command -v chromium
        return 0
    fi
    die "Chromium is not installed (needed by the end-to-end ITs that load pages in a browser); install it (Debian: apt-get install chromium, Ubuntu: snap install chromium, Fedora: dnf install chromium, macOS: brew install --cask chromium) or set SLING_VT_CHROMIUM to a Chromium or Chrome binary"
}
