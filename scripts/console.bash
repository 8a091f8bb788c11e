# The admin login of ./sling-vt and its requests to the Felix web console (status, mode, the readiness check of run).
# Sourced by ./sling-vt, which defines die; the commands set PORT before a request.
#
# Login: SLING_VT_ADMIN_USER (default admin) and the password from SLING_VT_ADMIN_PASSWORD, or from the first line of
# the file SLING_VT_ADMIN_PASSWORD_FILE; without either the password of a new instance, admin. The password never
# goes on a command line (where ps shows it): curl reads it from its configuration on stdin. It is never printed.

ADMIN_USER=""
ADMIN_PASSWORD=""
# Where the password came from, for messages: "default", "SLING_VT_ADMIN_PASSWORD" or "the file PATH".
ADMIN_PASSWORD_FROM=""

# Reads the login from the environment (once); dies with the reason when the password file cannot be read.
admin_login() {
    [[ -n "$ADMIN_PASSWORD_FROM" ]] && return 0
    ADMIN_USER="${SLING_VT_ADMIN_USER:-admin}"
    local file="${SLING_VT_ADMIN_PASSWORD_FILE:-}"
    if [[ -n "$file" ]]; then
        [[ -z "${SLING_VT_ADMIN_PASSWORD:-}" ]] \
            || die "both SLING_VT_ADMIN_PASSWORD and SLING_VT_ADMIN_PASSWORD_FILE are set; set one of them"
        [[ -e "$file" ]] || die "SLING_VT_ADMIN_PASSWORD_FILE=$file: no such file"
        [[ -f "$file" && -r "$file" ]] \
            || die "SLING_VT_ADMIN_PASSWORD_FILE=$file: cannot read it (not a regular file, or no read permission for $(id -un))"
        local password=""
        IFS= read -r password < "$file" || true
        password="${password%$'\r'}"
        [[ -n "$password" ]] || die "SLING_VT_ADMIN_PASSWORD_FILE=$file: its first line is empty (it should hold the password)"
        ADMIN_PASSWORD="$password"
        ADMIN_PASSWORD_FROM="the file $file"
    elif [[ -n "${SLING_VT_ADMIN_PASSWORD:-}" ]]; then
        ADMIN_PASSWORD="$SLING_VT_ADMIN_PASSWORD"
        ADMIN_PASSWORD_FROM="SLING_VT_ADMIN_PASSWORD"
    else
        ADMIN_PASSWORD="admin"
        ADMIN_PASSWORD_FROM="default"
    fi
}

# The login as run prints it: "admin / admin" for the default password, else the user and where the password is from.
admin_login_desc() {
    admin_login
    if [[ "$ADMIN_PASSWORD_FROM" == default ]]; then
        echo "$ADMIN_USER / admin"
    else
        echo "$ADMIN_USER, password from $ADMIN_PASSWORD_FROM"
    fi
}

# curl with the admin login, given through curl's configuration on stdin (-K -), not its arguments.
curl_admin() {
    admin_login
    local login="$ADMIN_USER:$ADMIN_PASSWORD"
    login="${login//\\/\\\\}"
    login="${login//\"/\\\"}"
    curl -K - "$@" <<< "user = \"$login\""
}

# What to say when the console refused the login; $1 = the HTTP status.
login_refused() {
    admin_login
    local sent="password from $ADMIN_PASSWORD_FROM"
    [[ "$ADMIN_PASSWORD_FROM" == default ]] && sent="the default password admin"
    echo "login refused (HTTP $1): set SLING_VT_ADMIN_PASSWORD or SLING_VT_ADMIN_PASSWORD_FILE (and SLING_VT_ADMIN_USER if the user is not admin); sent user $ADMIN_USER with $sent"
}

# GET /system/console/$1 on 127.0.0.1:$PORT with the admin login. The answer goes into CONSOLE_BODY and CONSOLE_CODE
# (call it directly, not in $(...)). Returns 0 for 200, 3 when the login was refused (401, 403), 2 when nothing
# answered, 1 for any other status.
# shellcheck disable=SC2034 # CONSOLE_BODY is read by ./sling-vt
console_get() {
    local out
    CONSOLE_BODY=""
    CONSOLE_CODE=000
    out="$(curl_admin -s -m 10 -w '\n%{http_code}' "http://127.0.0.1:$PORT/system/console/$1")" || return 2
    CONSOLE_CODE="${out##*$'\n'}"
    CONSOLE_BODY="${out%$'\n'*}"
    case "$CONSOLE_CODE" in
        200) return 0 ;;
        401|403) return 3 ;;
        *) return 1 ;;
    esac
}
