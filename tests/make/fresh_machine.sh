#!/bin/sh
# A fresh Debian machine, simulated: the packages' programs (gcc, pkg-config, the MIPS
# toolchain, cen64, chromium, Xvfb) are missing from PATH until a shimmed apt-get "installs"
# them, after a delay; a shimmed dpkg-query says they are missing until then. Checks that make
# installs before anything uses a package, re-reads its tool checks after installing, prints no
# noise from checks made before the install, waits for another apt's lock, and installs nothing
# for make -n or once the packages are there.
# usage: tests/make/fresh_machine.sh   (from the project's root; prints `skipped:` without git)
set -u
root=$(pwd)
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; sed 's/^/    /' "$tmp/out" | tail -25; }

# The project's files as a fresh clone has them (with uncommitted edits), no build tree.
src=$tmp/src
mkdir -p "$src"
git ls-files -z -co --exclude-standard | (cd "$root" && xargs -0 tar cf - --no-recursion) | tar xf - -C "$src" || {
    echo "skipped: fresh_machine (cannot copy the project's files: git ls-files failed)"; exit 0; }

# The programs of the packages, hidden until installed; everything else as it is (made once,
# copied for each new machine).
mkdir -p "$tmp/all-bin" "$tmp/all-store"
for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
    for f in "$d"/*; do
        n=${f##*/}
        [ -x "$f" ] && [ ! -e "$tmp/all-bin/$n" ] && [ ! -e "$tmp/all-store/$n" ] || continue
        case $n in
        gcc | gcc-[0-9]* | cc | c99 | cpp | x86_64-linux-gnu-* | pkg-config | *-pkg-config | pkgconf | mips-linux-gnu-* | \
            cen64 | chromium* | Xvfb | xvfb-run | xauth | clang*) ln -s "$f" "$tmp/all-store/$n" ;;
        *) ln -s "$f" "$tmp/all-bin/$n" ;;
        esac
    done
done
setup() { # a new machine: shims and an empty install log
    rm -rf "$tmp/bin" "$tmp/store" "$tmp/installed" "$tmp/apt.log" "$tmp/locked"
    cp -P -R "$tmp/all-bin" "$tmp/bin" && cp -P -R "$tmp/all-store" "$tmp/store"
    rm -f "$tmp/bin/dpkg-query" "$tmp/bin/apt-get" "$tmp/bin/id"
    cat > "$tmp/bin/dpkg-query" <<SH
#!/bin/sh
[ -f "$tmp/installed" ] && printf 'install ok installed' || { echo "dpkg-query: no packages found matching \$3" >&2; exit 1; }
SH
    cat > "$tmp/bin/apt-get" <<SH
#!/bin/sh
echo "\$(date +%s.%N) apt-get \$*" >> "$tmp/apt.log"
if [ -f "$tmp/locked" ]; then
    n=\$(cat "$tmp/locked"); [ "\$n" -gt 0 ] && { echo \$((n - 1)) > "$tmp/locked";
        echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2; exit 100; }
fi
case "\$*" in *install*)
    sleep 2
    for f in "$tmp/store"/*; do ln -sf "\$(readlink "\$f")" "$tmp/bin/\${f##*/}"; done
    touch "$tmp/installed";;
esac
SH
    printf '#!/bin/sh\n[ "$1" = -u ] && echo 0 || exec /usr/bin/id "$@"\n' > "$tmp/bin/id"
    chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get" "$tmp/bin/id"
}
run_make() { # BUILD_DIR ARGS...: make in the copy on the simulated machine
    b=$1; shift
    env PATH="$tmp/bin" make --no-print-directory -C "$src" BUILD="$b" SHARED="$tmp/no-shared" AUTO_GENERATE=no "$@" \
        > "$tmp/out" 2>&1
}

setup
if run_make "$tmp/b1" -j2 deps && grep -q ' install ' "$tmp/apt.log" 2>/dev/null; then
    ok "make deps installs the build's packages"
else
    bad "make deps installs the build's packages"
fi
if grep -q 'No such file or directory' "$tmp/out"; then
    bad "no noise from tool checks made before the packages are there"
else
    ok "no noise from tool checks made before the packages are there"
fi
run_make "$tmp/b1" deps
if [ "$(grep -c ' install ' "$tmp/apt.log")" = 1 ]; then ok "a second make installs nothing"; else bad "a second make installs nothing"; fi

setup
run_make "$tmp/b2" -n test
if [ ! -f "$tmp/apt.log" ]; then ok "make -n installs nothing"; else bad "make -n installs nothing"; fi

# A test object that includes <criterion/criterion.h>, at -j2: the first make test on a fresh
# machine compiled these before libcriterion-dev was installed.
setup
if run_make "$tmp/b3" -j2 "$tmp/b3/n64/obj-san/tests/n64/test_dma.o" && [ -f "$tmp/b3/n64/obj-san/tests/n64/test_dma.o" ]; then
    ok "a test object is compiled after the tests' packages are installed"
else
    bad "a test object is compiled after the tests' packages are installed"
fi

# The MIPS cross compiler, installed by this very make: its check must see it.
setup
if run_make "$tmp/b4" -j2 scene-freestanding && grep -q 'builds for big-endian MIPS' "$tmp/out"; then
    ok "tool checks are read after installing (scene-freestanding runs, not skipped)"
else
    bad "tool checks are read after installing (scene-freestanding runs, not skipped)"
fi

# Another apt holds the lists' lock for the first two tries.
setup
echo 2 > "$tmp/locked"
if env PATH="$tmp/bin" sh "$src/.ci/deps.sh" gcc > "$tmp/out" 2>&1 && [ -f "$tmp/installed" ]; then
    ok "deps.sh waits for another apt's lock"
else
    bad "deps.sh waits for another apt's lock"
fi

echo "fresh machine: $passed passed, $failed failed"
[ "$failed" = 0 ]
