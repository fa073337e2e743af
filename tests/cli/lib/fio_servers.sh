# fio_servers.sh — sourced by the CLI tests that start `fio --server` on
# loopback addresses (not a test: tests/run.sh runs tests/cli/*.sh only).
#
# The ports lie below the kernel's ephemeral range. The tests took
# 20000 + pid % 20000 before, so about a third of runs listened on ports
# the kernel also hands to outgoing connections (32768-60999 by default):
# a connection's own port, or one in TIME_WAIT from the probes of an
# earlier test, can be taken when a server binds; two of nine `make test`
# runs saw a server that never ran its host's job.

# A base for a few ports: from the pid, below the ephemeral range.
fio_port_base() {
  lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
  case $lo in '' | *[!0-9]*) lo=32768 ;; esac
  [ "$lo" -ge 12000 ] || lo=32768
  echo $((10000 + $$ % (lo - 10010)))
}

# Whether ADDR:PORT (IPv4) has a listening TCP socket, from /proc/net/tcp:
# asking by connecting would make the server fork for a connection.
fio_listening() {
  hex=$(echo "$1" | awk -F. '{ printf "%02X%02X%02X%02X", $4, $3, $2, $1 }'):$(printf '%04X' "$2")
  grep -q ": $hex 00000000:0000 0A " /proc/net/tcp 2>/dev/null
}

# fio_server_start ADDR PORT LOG: `fio --server` on ADDR,PORT as the leader
# of its own process group (its pid in FIO_PID, for a kill of the group),
# back once it listens; 1 with its log on stderr when it does not within 5 s
# (or the port has a listener already).
fio_server_start() {
  FIO_PID=
  if fio_listening "$1" "$2"; then # another's: it would be taken for this one
    echo "port $1,$2 is taken by another listener" >&2
    return 1
  fi
  setsid fio --server=ip:"$1","$2" > "$3" 2>&1 &
  FIO_PID=$!
  i=0
  while [ $i -lt 100 ]; do
    fio_listening "$1" "$2" && return 0
    kill -0 "$FIO_PID" 2>/dev/null || break
    sleep 0.05
    i=$((i + 1))
  done
  echo "fio server on $1,$2 is not listening: $(cat "$3" 2>/dev/null)" >&2
  return 1
}

# The servers' logs, for a failing test's message.
fio_server_logs() {
  for f in "$@"; do
    [ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
  done
  return 0
}

# Kills every process whose working directory is DIR but this shell: fio's
# job processes leave their server's process group (setsid in thread_main),
# so a job fio stalled (fio before 3.42, review_fio_retry.sh) outlived the
# test's kill of the group.
fio_kill_in() {
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" != $$ ] && [ "$(readlink "$p/cwd" 2>/dev/null)" = "$1" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  return 0
}
