# tests/cli/tmux_lib.sh — what the terminal tests (shell_test.sh, remsh_test.sh) share: a
# private tmux server, a VM in one of its panes, typing into it and waiting for its screen.
# Sourced; the test defines $sock (the server's socket name), $pane and $vm_pid (set by its
# start_vm), $failures, context() (the words a failure starts with) and optionally WAIT_S (the
# default wait, 5 s).
# shellcheck shell=bash

tm() { tmux -L "$sock" -f /dev/null "$@"; }

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

now_us() { echo "${EPOCHREALTIME//[!0-9]/}"; }

# strip_blank_tail — drops trailing blank lines.
strip_blank_tail() { sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

screen() { tm capture-pane -p -N -t "$pane"; }

# poll COUNT PATTERN TIMEOUT_S [quiet] — waits (every 50 ms) until COUNT lines of the screen
# match the extended regex PATTERN; a dead VM or TIMEOUT_S seconds fail with the screen dumped
# (quiet: only return 1).
poll() {
  local count=$1 pattern=$2 timeout=$3 quiet=${4:-} deadline out scr dead
  deadline=$(($(now_us) + timeout * 1000000))
  while :; do
    out=$(tm capture-pane -p -N -t "$pane" \; display -p -t "$pane" '#{pane_dead}')
    scr=${out%$'\n'*} dead=${out##*$'\n'}
    [ "$(grep -cE -- "$pattern" <<<"$scr")" -ge "$count" ] && return 0
    if [ "$dead" = 1 ] || [ "$(now_us)" -ge $deadline ]; then
      [ -n "$quiet" ] && return 1
      [ "$dead" = 1 ] && dead="the VM exited" || dead="${timeout} s passed"
      fail "$(context): $dead before /$pattern/ was on the screen ($count times); the screen:
$(strip_blank_tail <<<"$scr")"
      return 1
    fi
    sleep 0.05
  done
}

# wait_for PATTERN [TIMEOUT] — until a line of the screen matches PATTERN.
wait_for() { poll 1 "$1" "${2:-${WAIT_S:-5}}"; }

# wait_count N PATTERN [TIMEOUT] — until N lines match PATTERN.
wait_count() { poll "$1" "$2" "${3:-${WAIT_S:-5}}"; }

# wait_exit — until the VM has exited (10 s at most); sets $exit_status to "status N" or
# "signal N". tmux sees the exit at once (#{pane_dead}) but often reaps it only when another of
# its children exits (run-shell true).
wait_exit() {
  local timeout=10 deadline d
  deadline=$(($(now_us) + timeout * 1000000))
  while :; do
    d=$(tm display -p -t "$pane" '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}')
    case $d in
      1:?*:*)
        d=${d#1:}
        exit_status="status ${d%%:*}"
        return 0
        ;;
      1::?*)
        exit_status="signal ${d##*:}"
        return 0
        ;;
      1::) tm run-shell true ;;
    esac
    if [ "$(now_us)" -ge $deadline ]; then
      exit_status="still running"
      fail "$(context): still running ${timeout} s later; the screen:
$(screen | strip_blank_tail)"
      return 1
    fi
    sleep 0.05
  done
}

# keys KEY... — named keys (Enter, C-a, Left, Up, Tab, C-g, C-c, C-d, ...), in order.
keys() { tm send-keys -t "$pane" "$@"; }

# type_text TEXT — TEXT as typed, byte for byte (a final ";" escaped: tmux would split there).
type_text() {
  local text=$1
  [[ $text == *';' ]] && text="${text%;}\\;"
  tm send-keys -t "$pane" -l -- "$text"
}

type_line() {
  type_text "$1"
  keys Enter
}

# stop_vm — closes the window (SIGHUP); a VM that outlives it by 2 s is killed by its pid.
stop_vm() {
  [ -n "$pane" ] || return 0
  vm_comm=$(cat "/proc/$vm_pid/comm" 2>/dev/null)
  tm kill-pane -t "$pane" 2>/dev/null
  pane=
  local _
  for _ in $(seq 40); do
    alive || return 0
    sleep 0.05
  done
  alive && kill -KILL "$vm_pid" 2>/dev/null
}

# alive — the VM of the last pane still runs (not a zombie, not a new process with its pid).
alive() {
  local state
  state=$(sed 's/.*) //' "/proc/$vm_pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$(cat "/proc/$vm_pid/comm" 2>/dev/null)" = "$vm_comm" ]
}
