#!/bin/sh
# `make install` and `make uninstall` (the Makefile passes every path as one
# quoted argument, so spaces, ';', '$' and quotes in them are plain
# characters):
#   scripts/install.sh install   DESTDIR PREFIX DATADIR MANDIR BINARY [DATA_FILE...]
#   scripts/install.sh uninstall DESTDIR PREFIX DATADIR MANDIR
# install copies the binary to PREFIX/bin, each DATA_FILE (a path relative
# to the source tree) under DATADIR, the man page under MANDIR/man1, all
# below DESTDIR, and writes DESTDIR/DATADIR/install-manifest.txt (a temp
# file renamed into place): one line per file it installed ("f PATH") and
# per directory it created ("d PATH"), PATH as installed (without DESTDIR).
# A reinstall keeps the lines of the manifest before it. Each file and
# directory is recorded as it is made (a file before its copy begins), and
# an install that fails or is interrupted still writes the manifest of what
# it made, so uninstall removes that too; where even that cannot be written,
# it removes what it made itself.
# uninstall removes only what the manifest names: each file checked to be a
# regular file or a symbolic link under PREFIX, DATADIR or MANDIR (no '..',
# no directory on the way that leads elsewhere), then the directories
# install created, each only if empty (a file you put there stays, and so
# does its directory). Without a manifest it removes nothing.
set -u
MANIFEST=install-manifest.txt
NL='
'
die() { printf "install.sh: %s\n" "$*" >&2; exit 1; }

[ $# -ge 5 ] || die "usage: install.sh install|uninstall DESTDIR PREFIX DATADIR MANDIR [BINARY DATA_FILE...]"
mode=$1 DESTDIR=$2 PREFIX=$3 DATADIR=$4 MANDIR=$5
shift 5

# A path of the manifest is one line: a name with a newline cannot be one,
# and a relative or dotted root would make "under the prefix" meaningless.
for v in "PREFIX=$PREFIX" "DATADIR=$DATADIR" "MANDIR=$MANDIR" "DESTDIR=$DESTDIR"; do
  case $v in
  *"$NL"*) die "${v%%=*} holds a newline: refused" ;;
  esac
done
# "/opt/x/" and "/opt/x//share" (DATADIR from a PREFIX with a trailing
# slash) name /opt/x and /opt/x/share
squeeze() { printf '%s' "$1" | sed 's#//*#/#g; s#\(.\)/$#\1#'; }
PREFIX=$(squeeze "$PREFIX") DATADIR=$(squeeze "$DATADIR") MANDIR=$(squeeze "$MANDIR")
for v in "PREFIX=$PREFIX" "DATADIR=$DATADIR" "MANDIR=$MANDIR"; do
  p=${v#*=}
  case $p in
  /*) ;;
  *) die "${v%%=*} '$p' must be an absolute path" ;;
  esac
  case "$p/" in
  */../* | */./*) die "${v%%=*} '$p' must not hold '.' or '..' components" ;;
  esac
done
[ "$PREFIX" = / ] && die "PREFIX=/ is refused (uninstall would judge every file of the system 'under the prefix')"

# The physical path of a directory (symbolic links resolved); empty when
# it does not exist.
phys() { (cd -P -- "$1" 2>/dev/null && pwd -P); }

# True when PATH (as installed, without DESTDIR) is PREFIX, DATADIR, MANDIR
# or below one of them, with no '.' or '..' component.
under_roots() {
  case "$1/" in
  */../* | */./* | *//*) return 1 ;;
  esac
  for r in "$PREFIX" "$DATADIR" "$MANDIR"; do
    case $1 in
    "$r" | "$r"/*) return 0 ;;
    esac
  done
  return 1
}

# True when PATH is a directory above PREFIX, DATADIR or MANDIR (one that
# install may have created on the way to them), without '.' or '..'.
above_root() {
  case "$1/" in
  */../* | */./* | *//*) return 1 ;;
  esac
  for r in "$PREFIX" "$DATADIR" "$MANDIR"; do
    case $r in
    "$1"/*) return 0 ;;
    esac
  done
  return 1
}

# True when the directory holding DESTDIR/PATH is, physically, below the
# physical DESTDIR/ROOT of a root PATH is under: a symbolic link on the way
# (share/ssdrev -> /etc) does not lead uninstall elsewhere.
dir_stays_under() {
  d=$(phys "$(dirname -- "$DESTDIR$1")")
  [ -n "$d" ] || return 1
  for r in "$PREFIX" "$DATADIR" "$MANDIR"; do
    case $1 in
    "$r"/*) ;;
    *) continue ;;
    esac
    pr=$(phys "$DESTDIR$r")
    [ -n "$pr" ] || continue
    case "$d/" in
    "$pr"/*) return 0 ;;
    esac
  done
  return 1
}

lines=""
record() { lines="$lines$1$NL"; }

# Creates directory PATH (as installed) and the missing ones above it,
# recording each one it created.
mkd() {
  [ -d "$DESTDIR$1" ] && return 0
  case $1 in
  / | "") return 0 ;;
  esac
  mkd "$(dirname -- "$1")" || return 1
  mkdir -- "$DESTDIR$1" || return 1
  record "d $1"
}

put() { # put MODE SRC DEST
  case $3 in
  *"$NL"*) die "refusing to install '$2': its path holds a newline" ;;
  esac
  mkd "$(dirname -- "$3")" || die "cannot create the directory of '$DESTDIR$3'"
  # recorded first: a copy that fails half-way leaves a file uninstall must find
  record "f $3"
  install -m "$1" -- "$2" "$DESTDIR$3" || die "cannot install '$DESTDIR$3'"
}

# Writes the manifest M: the lines of an earlier install, then this one's.
# 0 when written, 1 when not (M a link or not a regular file, no DATADIR).
write_manifest() {
  [ -d "$DESTDIR$DATADIR" ] && [ ! -L "$M" ] || return 1
  if [ -e "$M" ] && [ ! -f "$M" ]; then return 1; fi # mv would move into a directory
  # a name of mktemp's (O_EXCL): never a file or link that stood there
  tmp=$(mktemp "$DESTDIR$DATADIR/.$MANIFEST.XXXXXX") || return 1
  {
    # the lines of an earlier install stay: a reinstall over it created no
    # directory, yet uninstall must still remove the ones the first made
    if [ -f "$M" ]; then grep -E '^[fd] /' "$M"; fi
    printf '%s' "$lines"
  } | LC_ALL=C sort -u >"$tmp" || { rm -f -- "$tmp"; return 1; }
  mv -f -- "$tmp" "$M" || { rm -f -- "$tmp"; return 1; }
}

# Removes what this install recorded: its files (regular files or links),
# then its directories, deepest first, each only if empty.
remove_made() {
  printf '%s' "$lines" | grep '^f ' | while IFS= read -r line; do
    t="$DESTDIR${line#f }"
    if [ -L "$t" ] || [ -f "$t" ]; then rm -f -- "$t"; fi
  done
  printf '%s' "$lines" | grep '^d ' | LC_ALL=C sort -r | while IFS= read -r line; do
    t="$DESTDIR${line#d }"
    if [ -d "$t" ] && [ ! -L "$t" ]; then rmdir -- "$t" 2>/dev/null; fi
  done
}

# An install that ends before its manifest (an error, a signal) leaves
# nothing the manifest does not name.
installed=0
on_exit() {
  rc=$?
  [ "$installed" = 1 ] || [ -z "$lines" ] && exit "$rc"
  if write_manifest; then
    printf "install.sh: the install failed; %s names what it made ('make uninstall' removes it)\n" "$M" >&2
  else
    remove_made
    printf "install.sh: the install failed and no manifest could be written: removed what it made\n" >&2
  fi
  exit "$rc"
}

case $mode in
install)
  [ $# -ge 1 ] || die "install: no binary given"
  BIN=$1
  shift
  if [ -n "$DESTDIR" ]; then mkdir -p -- "$DESTDIR" || die "cannot create DESTDIR '$DESTDIR'"; fi
  M="$DESTDIR$DATADIR/$MANIFEST"
  trap on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  mkd "$DATADIR" || die "cannot create '$DESTDIR$DATADIR'"
  [ -L "$M" ] && die "'$M' is a symbolic link: refused"
  if [ -e "$M" ] && [ ! -f "$M" ]; then die "'$M' is not a regular file: refused"; fi
  put 755 "$BIN" "$PREFIX/bin/ssdrev"
  for f in "$@"; do put 644 "$f" "$DATADIR/$f"; done
  put 644 man/ssdrev.1 "$MANDIR/man1/ssdrev.1"
  write_manifest || die "cannot write '$M'"
  installed=1
  printf "installed %s, data in %s, man page ssdrev(1); manifest %s\n" "$DESTDIR$PREFIX/bin/ssdrev" "$DESTDIR$DATADIR" "$M"
  ;;
uninstall)
  M="$DESTDIR$DATADIR/$MANIFEST"
  if [ ! -f "$M" ] || [ -L "$M" ]; then
    die "no install manifest '$M' (was ssdrev installed with this PREFIX, DATADIR and DESTDIR?): nothing removed"
  fi
  # every line checked before anything is removed
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    case $line in
    "f "* | "d "*) ;;
    *) die "$M:$n: not a manifest line ('f PATH' or 'd PATH'): nothing removed" ;;
    esac
    p=${line#? }
    case $line in
    "d "*) above_root "$p" && continue ;; # install made /opt for /opt/ssdrev
    esac
    under_roots "$p" || die "$M:$n: '$p' is not under PREFIX, DATADIR or MANDIR: nothing removed"
  done <"$M"
  while IFS= read -r line; do
    case $line in
    "f "*) ;;
    *) continue ;;
    esac
    p=${line#f }
    t="$DESTDIR$p"
    if [ ! -e "$t" ] && [ ! -L "$t" ]; then continue; fi
    if ! dir_stays_under "$p"; then
      printf "install.sh: left '%s': its directory leads outside the install directories\n" "$t" >&2
      continue
    fi
    if [ -L "$t" ] || [ -f "$t" ]; then
      rm -f -- "$t" || die "cannot remove '$t'"
    else
      printf "install.sh: left '%s': not a regular file or a symbolic link\n" "$t" >&2
    fi
  done <"$M"
  # deepest first (a directory sorts after its parent); each only if empty
  dirs=$(grep '^d ' "$M" | LC_ALL=C sort -r)
  rm -f -- "$M" || die "cannot remove '$M'"
  printf '%s\n' "$dirs" | while IFS= read -r line; do
    [ -n "$line" ] || continue
    t="$DESTDIR${line#d }"
    if [ -d "$t" ] && [ ! -L "$t" ]; then rmdir -- "$t" 2>/dev/null || true; fi
  done
  printf "uninstalled what %s named\n" "$M"
  ;;
*)
  die "unknown mode '$mode' (install or uninstall)"
  ;;
esac
exit 0
