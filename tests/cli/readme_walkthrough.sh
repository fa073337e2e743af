#!/bin/sh
# README.md's "Usage" section is a walk-through that works when followed
# literally: every shell block from "## Usage" up to "### Install" runs, in
# order, in a scratch directory that holds the source tree's samples/,
# templates/ and profiles/ (as the source root would), with build/ssdrev
# being $SSDREV. Lines ending in "# real drive" are skipped; every other
# command must exit 0 (a --gate may exit 4, "not tested", its verdict on
# the walk-through's one-sample --short runs). To keep it fast, reviews get --short, --runtime
# becomes 1s, --number-ios 20000 and --create-size 64M.
set -u
fail() { echo "readme_walkthrough: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=$(cd "${SSDREV_ROOT:-.}" && pwd)
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
mkdir "$D/work" "$D/work/build" || fail "mkdir"
for d in samples templates profiles; do ln -s "$R/$d" "$D/work/$d"; done
ln -s "$S" "$D/work/build/ssdrev"
# The commands, one a line: fenced sh blocks of the Usage section, with
# backslash continuations joined.
awk '
  /^## Usage/ { on = 1; next }
  /^### Install/ || (/^## / && on) { on = 0 }
  on && /^```sh/ { blk = 1; next }
  blk && /^```/ { blk = 0; next }
  blk { print }
' "$R/README.md" | sed -e :a -e '/\\$/N; s/\\\n//; ta' >"$D/blocks"
n=$(grep -c '^build/ssdrev ' "$D/blocks")
[ "$n" -ge 15 ] || fail "only $n commands found in README.md's Usage section"
grep -q '# real drive$' "$D/blocks" || fail "no '# real drive' line: the marker is gone from README.md"
cd "$D/work" || fail "cd"
i=0
while IFS= read -r line; do
  case $line in ''|'#'*) continue ;; esac
  case $line in *'# real drive') echo "  skipped (real drive): $line"; continue ;; esac
  cmd=$(printf '%s\n' "$line" | sed -e 's/ --runtime [0-9][0-9]*s/ --runtime 1s/' -e 's/ --number-ios [0-9][0-9]*/ --number-ios 20000/' \
                                 -e 's/ --create-size [0-9][0-9]*[GT]/ --create-size 64M/')
  case $cmd in
    *' review '*) case $cmd in *--plan*|*--short*) ;; *) cmd=$(printf '%s\n' "$cmd" | sed 's/\(build\/ssdrev review [^#]*[^ #]\)/\1 --short/') ;; esac ;;
  esac
  i=$((i + 1))
  sh -c "$cmd" >"$D/out.$i" 2>"$D/err.$i" </dev/null
  rc=$?
  # a --gate's exit is its verdict (README: 3 failed, 4 not tested): the
  # walk-through's --short runs hold one sample a group, so "not tested"
  # is the right answer here, and verdict.json must say so
  case $cmd in *' --gate '*)
    if [ $rc = 4 ]; then
      grep -q '"verdict": *"untested"' out/ci/verdict.json || fail "gate exit 4 without an untested verdict: $(cat out/ci/verdict.json)"
      rc=0
    fi ;;
  esac
  [ $rc = 0 ] || fail "command $i failed (exit $rc): $cmd
$(tail -5 "$D/err.$i")"
done <"$D/blocks"
[ "$i" -ge 15 ] || fail "ran only $i commands"
# what the walk-through promises it made
for f in runs/pm981/analysis.json out/review/review.pdf out/partial/review.md fill.svg pm981.csv tail.csv; do
  [ -s "$f" ] || fail "the walk-through did not make $f"
done
[ -e runs/pm981/sim-state.bin ] && fail "a finished review kept its sim state"
grep -q "Not measured" out/partial/review.md || fail "the partial report has no 'Not measured' note"
exit 0
