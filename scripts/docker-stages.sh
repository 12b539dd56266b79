#!/usr/bin/env bash
# Runs the Dockerfile's stages on this machine, for when there is no
# container runtime (docker build needs a daemon): the "build" stage's
# packages, configure, build and staged install, then the checks that make
# the "runtime" stage work: every library the tools link comes from a
# package that stage installs (or from debian:12-slim itself), the staged
# tree holds the tools only, and they run as a non-root user.
#
#   scripts/docker-stages.sh [--reuse-build BUILD_DIR] [WORK_DIR]
#
# With a daemon, also run: docker build -t goalcup-tools .
set -euo pipefail
cd "$(dirname "$0")/.."
reuse=""
if [ "${1:-}" = "--reuse-build" ]; then reuse=$2; shift 2; fi
work=${1:-$(mktemp -d)}
mkdir -p "$work"
say() { printf '== %s\n' "$*"; }
# On stdout too: CI logs often keep only a test's stdout.
fail() { printf 'FAIL: %s\n' "$*" | tee /dev/stderr; exit 1; }

if docker info >/dev/null 2>&1; then
  say "a container runtime is here: docker build -t goalcup-tools . would run the real stages"
else
  say "no container runtime here (docker info fails): running the stages with this script"
fi

# The package list of a stage: the words of its apt-get install line(s).
stage_packages() {
  awk -v stage="$1" '
    /^FROM / { in_stage = ($0 ~ (" AS " stage "$")) }
    in_stage && /apt-get install/ { grab = 1 }
    in_stage && grab { print; if ($0 !~ /\\$/) grab = 0 }' Dockerfile |
    tr ' \\' '\n\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' |
    grep -vxE 'apt-get|update|install|rm|useradd|&&|-y' || true
}

say "stage build: packages"
for p in $(stage_packages build); do
  dpkg -s "$p" >/dev/null 2>&1 || fail "build package $p is not installed (scripts/install-deps.sh)"
done

say "stage build: configure, build, install into the staging tree"
staging=$work/staging
rm -rf "$staging"
if [ -n "$reuse" ]; then
  build=$reuse
else
  build=$work/build
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOALCUP_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr/local >/dev/null
  cmake --build "$build" --target goalcup-verify goalcup-inspect goalcup-cheatcheck
fi
DESTDIR=$staging cmake --install "$build" --prefix /usr/local --strip >/dev/null
"$staging/usr/local/bin/goalcup-verify" --no-progress fixtures/samples/codex-verified.jsonl >/dev/null

say "stage runtime: only the tools, man pages, completions and schemas are copied"
unexpected=$(cd "$staging/usr/local" && find . -type f | grep -vE '^\./(bin/goalcup-(verify|inspect|cheatcheck)|share/man/man1/goalcup-[a-z]+\.1|share/bash-completion/completions/goalcup-[a-z]+|share/zsh/vendor-completions/_goalcup|share/goalcup-tools/.*)$' || true)
[ -z "$unexpected" ] || fail "the staged tree holds more than the tools: $unexpected"

say "stage runtime: every linked library comes from its packages or the base image"
# debian:12-slim holds these (apt itself links them).
base="libc6 libgcc-s1 libstdc++6 zlib1g"
runtime=" $(stage_packages runtime | tr '\n' ' ') $base "
# Which package owns each library the tools link. On a merged-/usr system
# one file has two names (/lib/... and /usr/lib/...) and dpkg knows only the
# one its package shipped; ldconfig may list either. So every spelling of
# every library goes to one dpkg query: each query reads dpkg's whole
# database (a quarter of a second), and one per library took 6 s.
declare -A path_of owner_of needed_by
ldcache=$(ldconfig -p)
for bin in "$staging"/usr/local/bin/*; do
  for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    needed_by[$lib]+=" $(basename "$bin")"
    [ -n "${path_of[$lib]+known}" ] && continue
    path_of[$lib]=$(awk -v l="$lib" '$1 == l && !found { print $NF; found = 1 }' <<<"$ldcache")
    [ -n "${path_of[$lib]}" ] || fail "$bin needs $lib, which is not installed here"
  done
done
spellings=()
for lib in "${!path_of[@]}"; do
  p=${path_of[$lib]} real=$(readlink -f "${path_of[$lib]}")
  spellings+=("$p" "$real" "${p#/usr}" "/usr${p#/usr}" "${real#/usr}" "/usr${real#/usr}")
done
# "package:arch: /path" per file dpkg knows; the other spellings fail quietly.
while IFS= read -r line; do
  owner_of[${line#*: }]=${line%%: *}
done < <(dpkg -S "${spellings[@]}" 2>/dev/null || true)
for lib in "${!path_of[@]}"; do
  p=${path_of[$lib]} real=$(readlink -f "${path_of[$lib]}") owner=""
  for name in "$p" "$real" "${p#/usr}" "/usr${p#/usr}" "${real#/usr}" "/usr${real#/usr}"; do
    [ -n "${owner_of[$name]:-}" ] && { owner=${owner_of[$name]}; break; }
  done
  [ -n "$owner" ] || fail "no package owns $p"
  pkg=${owner%%:*}
  case "$runtime" in
    *" $pkg "*) ;;
    *) fail "${needed_by[$lib]# } needs $lib from $pkg: add it to the runtime stage" ;;
  esac
done

say "stage runtime: the tools run as a non-root user"
grep -qE '^USER goalcup$' Dockerfile || fail "the runtime stage does not switch to a non-root user"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  sample=$work/sample.jsonl
  cp fixtures/samples/codex-verified.jsonl "$sample" && chmod 0644 "$sample" && chmod 0755 "$work" "$staging"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$staging/usr/local/bin/goalcup-verify" --no-progress "$sample" >/dev/null
  setpriv --reuid=65534 --regid=65534 --clear-groups "$staging/usr/local/bin/goalcup-cheatcheck" --no-progress \
    --policy "$staging/usr/local/share/goalcup-tools/example-policy.json" "$sample" >/dev/null
else
  say "(not root: the tools already ran as $(id -un))"
fi
say "all stages hold"
