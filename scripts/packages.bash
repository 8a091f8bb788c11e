# Installing a Debian package that a command needs (chromium for test, haproxy for cluster). Sourced by ./sling-vt,
# which defines die and info.

# Installs Debian package $1 with apt-get (as root only; returns 1 when that is not possible here). $2: what it is
# for and its size, for the message. The package lists are fetched only when apt-get does not know the package: a
# fresh container has no lists, a maintained host has them and needs no round trip to the mirrors for them.
debian_install() {
    local package="$1" why="$2"
    [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1 || return 1
    info "$package not found; installing Debian's $package package (apt-get; $why)"
    # dpkg needs the sbin folders on PATH (ldconfig, start-stop-daemon), which a CI PATH may lack.
    local sbin_path="/usr/local/sbin:/usr/sbin:/sbin:$PATH" log
    log="$(mktemp)"
    # tee shows apt-get's progress and keeps it for the check below; sling-vt sets pipefail, so the pipeline fails
    # when apt-get does.
    if ! PATH="$sbin_path" DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" 2>&1 | tee "$log" >&2; then
        if ! grep -q -E 'Unable to locate package|has no installation candidate' "$log"; then
            rm -f "$log"
            die "apt-get install $package failed (see above); install $package and retry"
        fi
        info "apt-get knows no $package package yet; updating the package lists (apt-get update) and retrying"
        rm -f "$log"
        PATH="$sbin_path" apt-get update -q >&2 || die "apt-get update failed (see above); install $package and retry"
        PATH="$sbin_path" DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >&2 \
            || die "apt-get install $package failed (see above); install $package and retry"
    fi
    rm -f "$log"
}

# The binary an environment variable names ($1: its name, $2: what it must be), printed; returns 1 when the variable is
# unset. An explicit choice that does not work is an error, not a reason to look elsewhere.
explicit_binary() {
    local name="$1" what="$2" value="${!1:-}"
    [[ -n "$value" ]] || return 1
    [[ -f "$value" && -x "$value" ]] || die "$name=$value is not an executable file; point it to $what, or unset it"
    echo "$value"
}
