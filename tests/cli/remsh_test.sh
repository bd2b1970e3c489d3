#!/usr/bin/env bash
# tests/cli/remsh_test.sh BEAMLET [ENGINE] — Erlang remote shells (-remsh) between beamlet and
# real erl (OTP 25) nodes, in a real terminal: a private tmux server (one 100x40 pane,
# TERM=xterm-256color, LANG=C.UTF-8, HOME an empty directory), as tests/cli/shell_test.sh. The
# test starts an erl node (`erl -noshell`) and a beamlet node (`BEAMLET run --engine ENGINE`
# with no program), both -sname'd with a random cookie, and epmd if it is not running (never
# stopped: other nodes may use it).
#  1. `BEAMLET shell -remsh ENODE`: the prompt names the erl node; node(), self() (a pid local
#     to the erl node, <0.N.0>, as erl's own -remsh shows it), system_version (erl's: [source],
#     not [beamlet]), Tab completion (the candidates of lists:se, then a unique one), Ctrl-G q
#     ends the local beamlet (status as erl's own -remsh), the erl node is still up (pong).
#  2. `erl -remsh BNODE`: the same against the beamlet node (system_version says [beamlet];
#     edlin_expand runs there over rpc); Ctrl-G q ends erl, the beamlet node is still up; then
#     rpc:call(BNODE, init, stop, []) ends the beamlet node within 10 s with status 0.
#  3. A wrong cookie, `erl -remsh ENODE` then `BEAMLET shell -remsh ENODE`: erl (OTP 25) shows
#     its banner and "*** ERROR: Shell process terminated! (^G to start new job) ***" and waits
#     for Ctrl-G; the erl node logs "** Connection attempt from node ... rejected. Invalid
#     challenge reply. **". beamlet must show the same key line (at most 15 s later than erl
#     did), the same screen (banner and node names aside), no crash, exit as erl on Ctrl-G q,
#     and the erl node must log the same rejection for it.
# Each wait is bounded (10 s; 15 s for the wrong cookie). Exit 0 when every check passes, 1
# otherwise, 77 without tmux, erl or epmd.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 BEAMLET [jit|interp]" >&2
  exit 2
fi
beamlet=$1
[[ $beamlet == */* ]] && beamlet=$(cd "$(dirname "$beamlet")" && pwd)/$(basename "$beamlet")
engine=${2:-jit}
case $engine in
  jit | interp) ;;
  *)
    echo "usage: $0 BEAMLET [jit|interp]" >&2
    exit 2
    ;;
esac
for tool in tmux erl epmd; do
  if ! command -v $tool >/dev/null; then
    echo "SKIP: no $tool"
    exit 77
  fi
done

work=$(mktemp -d)
sock=beamlet_remsh_$$
sess=remsh_test
pane=
vm_pid=
vm_comm=
label=
failures=0 checks=0
enode_pid='' bnode_pid=''
probe_n=0

host=$(hostname -s)
cookie=remsh_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
enode=remsh_e$$ bnode=remsh_b$$
enode_full=$enode@$host bnode_full=$bnode@$host

# shellcheck source=tests/cli/tmux_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/tmux_lib.sh"
context() { echo "$label"; }
WAIT_S=10
proc_state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }

# stop_node PID — a node this test started: SIGTERM (erl and beamlet shut down on it), SIGKILL
# 2 s later.
stop_node() {
  local pid=$1 _
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 40); do
    [ "$(proc_state "$pid")" = Z ] || [ -z "$(proc_state "$pid")" ] && break
    sleep 0.05
  done
  [ -n "$(proc_state "$pid")" ] && [ "$(proc_state "$pid")" != Z ] && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

cleanup() {
  stop_vm
  tm kill-server 2>/dev/null
  [ -n "${socket_path:-}" ] && rm -f "$socket_path" # kill-server leaves it behind
  stop_node "$enode_pid"
  stop_node "$bnode_pid"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The terminal's environment: nothing of the user's reaches any VM.
mkdir -p "$work/home"
export HOME=$work/home LANG=C.UTF-8 TERM=xterm-256color
unset LC_ALL LC_CTYPE LC_MESSAGES ERL_FLAGS ERL_AFLAGS ERL_ZFLAGS ERL_LIBS TMUX
export ERL_CRASH_DUMP_SECONDS=0
ulimit -c 0

check() { checks=$((checks + 1)); }

# re TEXT — TEXT as an extended regex matching itself.
re() { sed 's/[][\.*^$(){}+?|/]/\\&/g' <<<"$1"; }

# start_vm COMMAND... — COMMAND in a new window (exec'd: the pane's process is the VM); sets
# $pane and $vm_pid.
start_vm() {
  pane=$(tm new-window -d -P -F '#{pane_id}' -t "$sess:" -c "$work" "exec $(printf '%q ' "$@")")
  vm_pid=$(tm display -p -t "$pane" '#{pane_pid}')
  vm_comm=
}


# joined — the screen with wrapped lines joined, trailing blanks and blank lines dropped.
joined() { tm capture-pane -p -J -t "$pane" | sed -E 's/[[:space:]]+$//' | strip_blank_tail; }

# probe EXPR — EXPR evaluated on a fresh erl node with the test's cookie (10 s at most); its
# standard output.
probe() {
  probe_n=$((probe_n + 1))
  timeout 10 erl -sname "remsh_p${probe_n}_$$" -setcookie "$cookie" -noshell \
    -eval "$1, halt()." 2>&1
}

# ping NODE — "pong" or "pang" (or whatever went wrong).
ping() { probe "io:format(\"~p~n\", [net_adm:ping('$1')])"; }

# wait_registered NAME — until epmd lists NAME (10 s at most).
wait_registered() {
  for _ in $(seq 200); do
    epmd -names 2>/dev/null | grep -q "^name $1 at port" && return 0
    sleep 0.05
  done
  return 1
}

# expect_line WHAT REGEX — a line of the (joined) screen matches REGEX.
expect_line() {
  local scr
  scr=$(joined)
  grep -qE -- "$2" <<<"$scr" || fail "$label: $1: no line /$2/; the screen:
$scr"
}

# remote_session NODE_FULL SYSTEM — the steps of checks 1 and 2 in the shell of the current
# pane, a -remsh shell on NODE_FULL whose system_version must contain [SYSTEM] (source or
# beamlet); ends with Ctrl-G q and sets $exit_status. 8 checks, each failing at most once; a
# prompt that does not come ends the session.
remote_session() {
  local node=$1 system=$2 p scr sv
  p="^\\($(re "$node")\\)"
  checks=$((checks + 8))
  # 1. the prompt names the remote node
  wait_for "${p}1> \$" || return 1
  # 2. node()
  type_line 'node().'
  wait_for "${p}2> \$" || return 1
  expect_line "node()" "^$(re "$node")\$"
  # 3. self(): a pid of the remote node's, printed there
  type_line 'self().'
  wait_for "${p}3> \$" || return 1
  expect_line "self(), a pid local to $node" '^<0\.[0-9]+\.0>$'
  # 4. the remote system's version
  type_line 'erlang:system_info(system_version).'
  wait_for "${p}4> \$" || return 1
  scr=$(joined)
  sv=$(grep -E '^"Erlang/OTP ' <<<"$scr")
  case $system in
    source) [[ $sv == *'[source]'* && $sv != *'[beamlet]'* ]] ;;
    beamlet) [[ $sv == *'[beamlet]'* && $sv != *'[source]'* ]] ;;
  esac || fail "$label: system_version is not $node's ([$system]): ${sv:-no \"Erlang/OTP line}; the screen:
$scr"
  # 5. Tab: the candidates; 6. Tab: a unique completion, then the call
  type_text 'lists:se'
  keys Tab
  if wait_for '^search/2 +seq/2 +seq/3 *$' && wait_count 2 "${p}4> lists:se *\$"; then
    type_text 'q'
    keys Tab
    if wait_for "${p}4> lists:seq\\( *\$"; then
      type_line '1,3).'
      wait_for "${p}5> \$" && expect_line "lists:seq(1,3) after completion" '^\[1,2,3\]$'
    fi
  else
    fail "$label: (no unique completion tried)"
  fi
  # 7. Ctrl-G; 8. q ends the local VM
  keys C-g
  wait_for '^ --> $' || return 1
  type_line 'q'
  wait_exit
}

tm new-session -d -s "$sess" -x 100 -y 40 -c "$work" 'exec sleep 1000000' || exit 1
tm set -g remain-on-exit on \; set -g remain-on-exit-format '' \; \
  set -g default-terminal xterm-256color \; set -g history-limit 100 >/dev/null || exit 1
socket_path=$(tm display -p '#{socket_path}')

start=$SECONDS
epmd -daemon # a no-op when epmd runs already; never stopped here

# The two nodes: erl's script and erlexec exec beam.smp, so $! is the node's pid.
erl -sname "$enode" -setcookie "$cookie" -noshell </dev/null >"$work/enode.log" 2>&1 &
enode_pid=$!
"$beamlet" run --engine "$engine" -sname "$bnode" -setcookie "$cookie" </dev/null \
  >"$work/bnode.log" 2>&1 &
bnode_pid=$!
enode_up=1 bnode_up=1
check
wait_registered "$enode" || {
  enode_up=0
  fail "the erl node $enode never registered with epmd: $(cat "$work/enode.log")"
}
check
wait_registered "$bnode" || {
  bnode_up=0
  fail "the beamlet node $bnode never registered with epmd: $(cat "$work/bnode.log")"
}

# --- 1. beamlet shell -remsh ENODE ----------------------------------------------------------
erl_cg_status='' beamlet_cg_status=''
if [ $enode_up = 1 ]; then
  label="1. beamlet shell -remsh $enode_full"
  start_vm "$beamlet" shell --engine "$engine" -sname "remsh_s1_$$" -setcookie "$cookie" -remsh "$enode"
  remote_session "$enode_full" source && beamlet_cg_status=$exit_status
  stop_vm
  check
  got=$(ping "$enode_full")
  [ "$got" = pong ] || fail "$label: the erl node after Ctrl-G q: ping gives $got, want pong"
fi

# --- 2. erl -remsh BNODE --------------------------------------------------------------------
if [ $bnode_up = 1 ]; then
  label="2. erl -remsh $bnode_full"
  start_vm erl -sname "remsh_s2_$$" -setcookie "$cookie" -remsh "$bnode"
  remote_session "$bnode_full" beamlet && erl_cg_status=$exit_status
  stop_vm
  check
  got=$(ping "$bnode_full")
  [ "$got" = pong ] || fail "$label: the beamlet node after Ctrl-G q: ping gives $got, want pong"
  check
  got=$(probe "io:format(\"~p~n\", [rpc:call('$bnode_full', init, stop, [])])")
  [ "$got" = ok ] || fail "$label: rpc:call($bnode_full, init, stop, []) gives $got, want ok"
  check
  deadline=$(($(now_us) + 10000000))
  while st=$(proc_state "$bnode_pid") && [ -n "$st" ] && [ "$st" != Z ] && [ "$(now_us)" -lt $deadline ]; do
    sleep 0.05
  done
  st=$(proc_state "$bnode_pid")
  if [ -n "$st" ] && [ "$st" != Z ]; then
    fail "$label: the beamlet node still runs 10 s after init:stop(); its output: $(cat "$work/bnode.log")"
  else
    wait "$bnode_pid"
    status=$?
    bnode_pid=
    [ $status -eq 0 ] || fail "$label: the beamlet node exited with status $status after init:stop(), want 0; its output:
$(cat "$work/bnode.log")"
  fi
fi

# The exit status of Ctrl-G q in a -remsh shell: beamlet's (check 1) as erl's (check 2) (a
# session that failed before it has its failure counted already).
check
if [ -n "$erl_cg_status" ] && [ -n "$beamlet_cg_status" ]; then
  [ "$beamlet_cg_status" = "$erl_cg_status" ] ||
    fail "Ctrl-G q in a -remsh shell: beamlet's $beamlet_cg_status, erl's $erl_cg_status"
fi

# --- 3. A wrong cookie ----------------------------------------------------------------------
# normalise LOCAL — the joined screen, the banner (first line, each system names itself) and the
# local node's name replaced.
normalise() {
  joined | sed -E -e '1s/^Erlang\/OTP .*/<BANNER>/' -e "s/$1@$host/<LOCAL>/g; s/$1/<LOCAL>/g"
}
key_re='\*\*|[Ee]rror|ERROR|[Cc]ould not|rejected|noconnection'
# wrong_cookie VM LOCAL COMMAND... — COMMAND (a -remsh shell named LOCAL with a wrong cookie)
# until a line matches $key_re (15 s for erl, erl's time + 15 s for beamlet), then 1 s more; its
# screen, normalised, in $screen_file; then Ctrl-G q. Sets key_line, key_ms, exit_status.
wrong_cookie() {
  local vm=$1 local=$2 bound t0
  shift 2
  label="3. wrong cookie, $vm"
  screen_file=$work/wrong_$vm.txt
  key_line='' key_ms='' exit_status=''
  bound=$([ "$vm" = erl ] && echo 15 || echo $((${erl_key_ms:-15000} / 1000 + 16)))
  t0=$(now_us)
  start_vm "$@"
  if poll 1 "$key_re" "$bound" quiet; then
    key_ms=$((($(now_us) - t0) / 1000))
    sleep 1 # anything printed after the key line
    normalise "$local" >"$screen_file"
    key_line=$(grep -m1 -E -- "$key_re" "$screen_file")
  else
    normalise "$local" >"$screen_file"
  fi
  if [ "$(tm display -p -t "$pane" '#{pane_dead}')" = 1 ]; then
    wait_exit
  else
    keys C-g
    if wait_for '^ --> $' 5; then
      type_line 'q'
      wait_exit
    fi
  fi
  stop_vm
}

erl_key_ms=
if [ $enode_up = 1 ]; then
  wrong_cookie erl "remsh_w1_$$" erl -sname "remsh_w1_$$" -setcookie "wrong_$cookie" -remsh "$enode"
  erl_key_line=$key_line erl_key_ms=$key_ms erl_screen=$screen_file erl_exit=$exit_status
  if [ -n "$erl_key_line" ]; then
    echo "erl with a wrong cookie: \"$erl_key_line\" after ${erl_key_ms} ms; Ctrl-G q: $erl_exit"
  else
    echo "erl with a wrong cookie: no error line within 15 s (it hangs); Ctrl-G q: $erl_exit; the screen:"
    cat "$erl_screen"
  fi

  wrong_cookie beamlet "remsh_w2_$$" "$beamlet" shell --engine "$engine" -sname "remsh_w2_$$" \
    -setcookie "wrong_$cookie" -remsh "$enode"
  label="3. wrong cookie"
  check # no crash
  if grep -qiE 'internal error|segmentation fault|core dumped|terminate called|assertion|Aborted' "$screen_file"; then
    fail "$label: beamlet crashed; its screen:
$(cat "$screen_file")"
  elif [[ $exit_status == signal* ]]; then
    fail "$label: beamlet ended by $exit_status; its screen:
$(cat "$screen_file")"
  fi
  check # the same key line, not much later
  if [ -n "$erl_key_line" ]; then
    if [ -z "$key_line" ]; then
      fail "$label: beamlet shows no error line within $((erl_key_ms / 1000 + 16)) s; erl showed \"$erl_key_line\" after ${erl_key_ms} ms; beamlet's screen:
$(cat "$screen_file")"
    elif [ "$key_line" != "$erl_key_line" ]; then
      fail "$label: beamlet's error line is \"$key_line\", erl's \"$erl_key_line\""
    else
      echo "beamlet with a wrong cookie: the same line after ${key_ms} ms"
    fi
  fi
  check # the same screen
  diff -u --label "erl (wrong cookie)" --label "beamlet (wrong cookie)" "$erl_screen" "$screen_file" >"$work/diff" ||
    fail "$label: beamlet's screen differs from erl's:
$(cat "$work/diff")"
  check # the same way out
  [ "$exit_status" = "$erl_exit" ] || fail "$label: Ctrl-G q: beamlet's $exit_status, erl's $erl_exit"
  # The erl node's side: the same rejection of both.
  check
  reason() { sed -nE "s/.*Connection attempt from node $1@$host rejected\. (.*) \*\*$/\1/p" "$work/enode.log" | head -1; }
  erl_reason=$(reason "remsh_w1_$$") beamlet_reason=$(reason "remsh_w2_$$")
  if [ -z "$erl_reason" ]; then
    echo "note: the erl node logged no rejection of erl's attempt: $(cat "$work/enode.log")"
  elif [ "$beamlet_reason" != "$erl_reason" ]; then
    fail "$label: the erl node rejected erl's attempt with \"$erl_reason\", beamlet's with \"${beamlet_reason:-nothing logged}\"; its log:
$(cat "$work/enode.log")"
  else
    echo "the erl node rejected both: $erl_reason"
  fi
  check
  got=$(ping "$enode_full")
  [ "$got" = pong ] || fail "$label: the erl node afterwards: ping gives $got, want pong"
fi

echo "remsh_test ($engine): $checks checks, $failures failures, $((SECONDS - start)) s"
[ $failures -eq 0 ]
