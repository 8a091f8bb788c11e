# Toxiproxy, the TCP proxy that puts network latency (or a cut) between Sling and PostgreSQL for the benchmark's
# --latency points. Sourced by ./sling-vt, which defines die, info and STATE_DIR.

TOXIPROXY_MODULE="github.com/Shopify/toxiproxy/v2/cmd/server"
TOXIPROXY_VERSION="v2.12.0"

# Prints the toxiproxy server binary: SLING_VT_TOXIPROXY, else the one built earlier into .sling-vt/tools, else built
# now from its Go module with the Go toolchain (go on the PATH or in /usr/local/go/bin).
toxiproxy_binary() {
    explicit_binary SLING_VT_TOXIPROXY "toxiproxy-server" && return 0
    local tools="$STATE_DIR/tools" binary="$STATE_DIR/tools/toxiproxy-server-$TOXIPROXY_VERSION" go
    mkdir -p "$tools"
    # One build at a time: test starts one in the background while Maven builds, and a test may ask meanwhile.
    exec 8> "$tools/toxiproxy.lock"
    flock 8
    if [[ -x "$binary" ]]; then
        flock -u 8
        echo "$binary"
        return 0
    fi
    go="$(command -v go 2>/dev/null || true)"
    [[ -z "$go" && -x /usr/local/go/bin/go ]] && go=/usr/local/go/bin/go
    [[ -n "$go" ]] || die "toxiproxy is needed (network latency between Sling and PostgreSQL) and Go is not installed to build it; install Go (https://go.dev/dl/) or set SLING_VT_TOXIPROXY to a toxiproxy-server binary"
    info "building toxiproxy $TOXIPROXY_VERSION from its Go module (about a minute, once) into $tools"
    # Its own GOPATH and module cache under .sling-vt, writable so that a clean checkout can delete it.
    GOBIN="$tools/gobin" GOPATH="$STATE_DIR/gopath" GOFLAGS=-modcacherw "$go" install "$TOXIPROXY_MODULE@$TOXIPROXY_VERSION" >&2 \
        || die "building toxiproxy failed (see above); set SLING_VT_TOXIPROXY to a toxiproxy-server binary instead"
    mv "$tools/gobin/server" "$binary"
    rmdir "$tools/gobin" 2>/dev/null || true
    flock -u 8
    echo "$binary"
}
