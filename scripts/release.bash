# ./sling-vt release: the files a user takes, in target/release. Sourced by ./sling-vt (uses its mvn, use_jdk, die,
# info and ROOT).

# The product bundles: what the slingvt feature installs. jdbc-round-trips is optional for the observability bundle
# (an optional import): with it, database round trips per request are counted.
RELEASE_BUNDLES=(config-guard http-virtual-threadpool commons-threads-virtual observability jdbc-round-trips)

# The version of the build, from the root pom (the first <version> after the parent's coordinates).
project_version() {
    sed -n 's:^    <version>\(.*\)</version>:\1:p' "$ROOT/pom.xml" | head -n1
}

cmd_release() {
    [[ $# -eq 0 ]] || die "release: it takes no options (see ./sling-vt help)"
    use_jdk
    local version out="$ROOT/target/release" feature_target="$ROOT/feature-model/target"
    version="$(project_version)"
    [[ -n "$version" ]] || die "release: no version in $ROOT/pom.xml"
    [[ "$version" != *-SNAPSHOT ]] || die "release: $version is a SNAPSHOT; set a release version in every pom first"
    info "building release $version with $(java_desc): bundles with sources and API javadoc, features, feature archive"
    mvn clean verify -DskipTests -Prelease -pl feature-model -am
    rm -rf "$out"
    mkdir -p "$out/bundles" "$out/features" "$out/conf" "$out/repository/io/github"
    local b f
    for b in "${RELEASE_BUNDLES[@]}"; do
        for f in "$b-$version.jar" "$b-$version-sources.jar" "$b-$version-javadoc.jar"; do
            [[ -f "$ROOT/$b/target/$f" ]] || die "release: $b/target/$f was not built"
            cp "$ROOT/$b/target/$f" "$out/bundles/"
        done
    done
    cp "$feature_target/slingfeature-tmp/feature-slingvt.json" "$out/features/slingvt-$version.slingosgifeature"
    cp "$feature_target/slingfeature-tmp/feature-sling-vt-starter.json" \
        "$out/features/sling-vt-starter-$version.slingosgifeature"
    cp "$feature_target/sling-vt-feature-$version-sling-vt-starter.far" "$out/sling-vt-starter-$version.far"
    cp "$feature_target/conf/logback.xml" "$out/conf/"
    # Sling VT's own artifacts in Maven layout, for a launcher or a build that resolves the features' coordinates.
    cp -R "$feature_target/artifacts/io/github/slingvt" "$out/repository/io/github/"
    cp "$ROOT/LICENSE" "$ROOT/NOTICE" "$out/"
    sed -e "s/@VERSION@/$version/g" -e "s/@LAUNCHER_VERSION@/$LAUNCHER_VERSION/g" \
        "$ROOT/feature-model/src/release/README.md" > "$out/README.md"
    (cd "$out" && find . -type f ! -name SHA512SUMS -printf '%P\n' | LC_ALL=C sort | xargs sha512sum > SHA512SUMS)
    info "release $version in $out ($(find "$out" -type f | wc -l) files; verify with: cd $out && sha512sum -c SHA512SUMS)"
    echo "$out"
}
