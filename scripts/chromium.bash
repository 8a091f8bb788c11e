# A headless Chromium for the end-to-end ITs that load console pages in a real browser (./sling-vt chromium, test).
# Sourced by ./sling-vt, which defines die and info.
#
# The ITs start the binary themselves (HeadlessChromium in it-tests) and talk to it over the DevTools protocol, so all
# this script has to do is find one, or install Debian's package, and print its path.

# Prints the path of a Chromium binary: SLING_VT_CHROMIUM, else chromium or chromium-browser on the PATH, else Debian's
# chromium package installed with apt-get (as root only).
chromium_binary() {
    if [[ -n "${SLING_VT_CHROMIUM:-}" ]]; then
        # An explicit choice that does not work is an error, not a reason to look elsewhere.
        [[ -f "$SLING_VT_CHROMIUM" && -x "$SLING_VT_CHROMIUM" ]] \
            || die "SLING_VT_CHROMIUM=$SLING_VT_CHROMIUM is not an executable file; point it to a Chromium or Chrome binary, or unset it"
        echo "$SLING_VT_CHROMIUM"
        return 0
    fi
    local name
    for name in chromium chromium-browser; do
        if command -v "$name" >/dev/null 2>&1; then
            command -v "$name"
            return 0
        fi
    done
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        info "Chromium not found; installing Debian's chromium package (apt-get, about 150 MB to download with its libraries)"
        # dpkg needs the sbin folders on PATH (ldconfig, start-stop-daemon), which a CI PATH may lack. The package
        # lists are fetched only when apt-get does not know the package: a fresh container has no lists, a maintained
        # host has them and needs no network round trip to the mirrors for them.
        local sbin_path="/usr/local/sbin:/usr/sbin:/sbin:$PATH" log
        log="$(mktemp)"
        # tee shows apt-get's progress and keeps it for the check below; sling-vt sets pipefail, so the pipeline
        # fails when apt-get does.
        if ! PATH="$sbin_path" DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium 2>&1 | tee "$log" >&2; then
            if ! grep -q -E 'Unable to locate package|has no installation candidate' "$log"; then
                rm -f "$log"
                die "apt-get install chromium failed (see above); install Chromium and retry, or set SLING_VT_CHROMIUM to its binary"
            fi
            info "apt-get knows no chromium package yet; updating the package lists (apt-get update) and retrying"
            rm -f "$log"
            PATH="$sbin_path" apt-get update -q >&2 \
                || die "apt-get update failed (see above); install Chromium and retry, or set SLING_VT_CHROMIUM to its binary"
            PATH="$sbin_path" DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2 \
                || die "apt-get install chromium failed (see above); install Chromium and retry, or set SLING_VT_CHROMIUM to its binary"
        fi
        rm -f "$log"
        command -v chromium >/dev/null 2>&1 \
            || die "Debian's chromium package is installed but no chromium is on the PATH; set SLING_VT_CHROMIUM to its binary"
        command -v chromium
        return 0
    fi
    die "Chromium is not installed (needed by the end-to-end ITs that load pages in a browser); install it (Debian: apt-get install chromium, Ubuntu: snap install chromium, Fedora: dnf install chromium, macOS: brew install --cask chromium) or set SLING_VT_CHROMIUM to a Chromium or Chrome binary"
}
