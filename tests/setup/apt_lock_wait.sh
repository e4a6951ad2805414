#!/bin/sh
# scripts/setup-debian waits for another apt's lock instead of failing at once. Stand-ins for
# dpkg-query (one package missing), apt-get (the first two updates find the lock taken) and
# sleep (no real waiting) go first on PATH; the script must retry and then install.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/dpkg-query" <<'STUB'
#!/bin/sh
case "$*" in *libgtest-dev*) echo "unknown ok not-installed" ;; *) echo "install ok installed" ;; esac
STUB
cat > "$dir/apt-get" <<STUB
#!/bin/sh
echo "\$*" >> "$dir/calls"
case "\$*" in
  *update*)
    n=\$(grep -c update "$dir/calls")
    if [ "\$n" -le 2 ]; then
      echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
      exit 100
    fi ;;
esac
exit 0
STUB
printf '#!/bin/sh\nexit 0\n' > "$dir/sleep"
printf '#!/bin/sh\nexit 0\n' > "$dir/sudo"
chmod +x "$dir"/*
PATH="$dir:$PATH" bash "$repo/scripts/setup-debian" > "$dir/out" 2>&1 || { cat "$dir/out"; echo "FAIL: setup-debian gave up on a held lock"; exit 1; }
grep -q "waiting" "$dir/out" || { cat "$dir/out"; echo "FAIL: no word about waiting"; exit 1; }
[ "$(grep -c update "$dir/calls")" -eq 3 ] || { cat "$dir/calls"; echo "FAIL: expected 3 updates"; exit 1; }
grep -q "install.*libgtest-dev" "$dir/calls" || { cat "$dir/calls"; echo "FAIL: nothing installed"; exit 1; }
echo "ok: setup-debian waited for the apt lock"
