#!/usr/bin/env bash
# tests/cli/erl_cmdline_test.sh BEAMLET — erl's command line and escripts, on beamlet and on the
# installed erl/escript (OTP 25): `beamlet run ERLFLAGS... [PROGRAM [ARGS...]]` against
# `erl -noshell ERLFLAGS...` (-eval, -s, -run, -extra, -pa/-pz, user flags, the failures of
# each: init's "init terminating in do_boot" on stdout and its halt slogan on stderr, status 1;
# halt/1 and init:stop/1 statuses) and `beamlet escript FILE ARGS...` against
# `escript FILE ARGS...` (source, %%! line, -mode(compile), exceptions (127), compile errors,
# beam and archive escripts made by escript:create/2, unicode arguments, standard input, a
# script run through its #! line). Each check: the same standard output and exit status; on
# stderr nothing where erl writes nothing, else erl's text with pids, refs, ports, addresses
# and escript's generated module names normalised away, within 10 s.
set -u
beamlet=$(realpath "$1") # absolute: the checks run in a temp dir, and it goes into #! lines
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0 # erl: no erl_crash.dump, no "Crash dump is being written" lines
export LC_ALL=C.UTF-8           # erl decodes arguments by the locale (+fnu vs +fnl)
failures=0 checks=0
cd "$work" || exit 1

# --- set-up: modules, escripts (made with the real erl) --------------------------------------
# m: -s gives atoms, -run strings; start/0 is -s m's default; f/1 halts, p/1 and g/0 return.
cat >m.erl <<'ERL'
-module(m).
-export([start/0, f/1, p/1, g/0]).
start() -> io:format("start~n"), halt().
f(Args) -> io:format("f ~p~n", [Args]), halt().
p(Args) -> io:format("p ~p~n", [Args]).
g() -> io:format("g~n").
ERL
# zm: only in pz/, found through -pz.
mkdir pa pz
cat >pz/zm.erl <<'ERL'
-module(zm).
-export([start/0]).
start() -> io:format("zm ~p ~p~n", [hd(code:get_path()), lists:last(code:get_path())]), halt().
ERL
# prog: a program with main/1 (beamlet run's ARGS); hello: one with main/0 only.
cat >prog.erl <<'ERL'
-module(prog).
-export([main/1]).
main(Args) -> io:format("prog ~p~n", [Args]).
ERL
cat >hello.erl <<'ERL'
-module(hello).
-export([main/0]).
main() -> io:format("hello~n").
ERL
cat >both.erl <<'ERL'
-module(both).
-export([main/0, main/1]).
main() -> io:format("main/0~n").
main(Args) -> io:format("main/1 ~p~n", [Args]).
ERL
# hb: the module of the compiled escripts.
cat >hb.erl <<'ERL'
-module(hb).
-export([main/1]).
main(Args) -> io:format("hb ~p ~p~n", [Args, code:is_loaded(hb) =/= false]).
ERL
erlc m.erl prog.erl hello.erl both.erl hb.erl && erlc -o pz pz/zm.erl || exit 1

script() { # script FILE BODY — a source escript with erl's default #! line
  printf '#!/usr/bin/env escript\n%s\n' "$2" >"$1"
}
script args.escript 'main(Args) -> io:format("~p~n", [Args]).'
script emu.escript '%%! -smp enable -foo bar
main(_) -> io:format("~p ~p ~p~n", [init:get_argument(foo), escript:script_name(), code:is_loaded(?MODULE)]).'
script sched.escript '%%! +S 1 -env BEAMLET_TEST_VAR set -foo x y
main(_) -> io:format("~p ~p ~p~n", [erlang:system_info(schedulers), os:getenv("BEAMLET_TEST_VAR"), init:get_argument(foo)]).'
script cmode.escript '-mode(compile).
main(Args) ->
    io:format("~p ~p ~p~n", [lists:prefix("cmode_escript__escript__", atom_to_list(?MODULE)),
                             erlang:function_exported(?MODULE, main, 1), code:is_loaded(?MODULE)]),
    io:format("~p~n", [fact(length(Args) + 10)]).
fact(0) -> 1;
fact(N) -> N * fact(N - 1).'
script raise.escript 'main(_) -> io:format("before~n"), erlang:error(boom).'
script throw.escript 'main(_) -> throw({my, <<"bin">>, self()}).'
script syntax.escript 'main(_) -> io:format("hi~n")
foo() -> ok.'
script nomain.escript 'start(_) -> ok.'
script halt.escript 'main(_) -> io:format("halting~n"), halt(5).'
script uni.escript 'main(Args) ->
    io:format("~w~n~ts~n", [Args, lists:join(" ", Args)]),
    io:setopts([{encoding, unicode}]),
    io:format("~ts~n", [lists:join(" ", Args)]).'
script stdin.escript 'main(_) -> io:format("got ~p~n", [io:get_line("")]), io:format("~p~n", [io:get_line("")]).'
# beam.escript: a compiled module; hb: an archive whose main module is the script's basename.
erl -noshell -eval '{ok, Bin} = file:read_file("hb.beam"),
    ok = escript:create("beam.escript", [{shebang, default}, {beam, Bin}]),
    ok = escript:create("hb", [{shebang, default}, {archive, [{"hb.beam", Bin}], []}]),
    halt().' || exit 1
# Run through #!: erl's copies keep "#!/usr/bin/env escript", beamlet's get beamlet's path.
mkdir erl_sb beamlet_sb
for f in args.escript hb; do
  cp "$f" "erl_sb/$f"
  { echo "#!/usr/bin/env -S $beamlet escript"; tail -n +2 "$f"; } >"beamlet_sb/$f"
done
chmod +x erl_sb/* beamlet_sb/*
printf 'hello\n' >in.txt

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# normalise <FILE — stderr without what differs between runs: pids, refs, ports, addresses,
# escript's generated module names (cmode_escript__escript__1795__807263__902843__3).
normalise() {
  sed -E -e 's/<[0-9]+\.[0-9]+\.[0-9]+>/<PID>/g' -e 's/#Ref<[0-9.]+>/#Ref<>/g' \
    -e 's/#Port<[0-9.]+>/#Port<>/g' -e 's/0x[0-9a-fA-F]+/0xADDR/g' \
    -e 's/__escript__[0-9_]+/__escript__N/g'
}

# same NAME -- ERL_COMMAND... -- BEAMLET_COMMAND... — both run with standard input from $stdin
# (default /dev/null): the same stdout and status; stderr as said at the top. Stderr is
# compared whole: with ERL_CRASH_DUMP_SECONDS=0, erl's halt slogan is one line (it ends in
# "\r\n" as erl writes it; so does the "init terminating" line on stdout).
same() {
  local name=$1 erl_cmd=() beamlet_cmd=()
  shift 2 # NAME --
  while [ "$1" != -- ]; do
    erl_cmd+=("$1")
    shift
  done
  shift
  beamlet_cmd=("$@")
  checks=$((checks + 1))
  timeout 10 "${erl_cmd[@]}" <"${stdin:-/dev/null}" >erl.out 2>erl.err
  local erl_status=$?
  timeout 10 "${beamlet_cmd[@]}" <"${stdin:-/dev/null}" >beamlet.out 2>beamlet.err
  local status=$?
  # 124: timeout's; 128+N: killed by signal N (127 is escript's status for a failed script).
  if [ $erl_status -eq 124 ] || [ $erl_status -gt 128 ]; then
    fail "$name: erl timed out or was killed (status $erl_status): the check is wrong"
  elif [ $status -eq 124 ] || [ $status -gt 128 ]; then
    fail "$name: beamlet timed out or was killed (status $status): $(cat beamlet.err)"
  elif [ $status -ne $erl_status ]; then
    fail "$name: exit status $status, erl's $erl_status: $(cat beamlet.err)"
  elif ! diff -u erl.out beamlet.out; then
    fail "$name: standard output differs from erl's"
  elif [ ! -s erl.err ] && [ -s beamlet.err ]; then
    fail "$name: beamlet wrote to stderr, erl did not: $(cat beamlet.err)"
  elif [ -s erl.err ] && ! diff -u <(normalise <erl.err) <(normalise <beamlet.err); then
    fail "$name: stderr differs from erl's (pids, refs, addresses normalised)"
  fi
}

# run_same NAME ERLFLAGS... — erl -noshell ERLFLAGS against beamlet run ERLFLAGS.
run_same() {
  local name=$1
  shift
  same "$name" -- erl -noshell "$@" -- "$beamlet" run "$@"
}

# escript_same NAME FILE ARGS... — escript against beamlet escript.
escript_same() {
  local name=$1
  shift
  same "$name" -- escript "$@" -- "$beamlet" escript "$@"
}

# --- erl's flags --------------------------------------------------------------------------
run_same "-eval" -eval 'io:format("~p~n", [6*7]), halt().'
run_same "-s M F atoms" -pa . -s m f a b                      # f [a,b]
run_same "-run M F strings" -pa . -run m f a b                # f ["a","b"]
run_same "-s M (start/0)" -pa . -s m
# -s, -run and -eval run in command-line order, one after the other.
run_same "-s/-eval/-run in order" -pa . -s m p x -eval 'io:format("e1~n")' -s m g -run m p y -eval 'halt().'
# after a halt() in one -eval, the later ones do not run.
run_same "halt stops the list" -eval 'io:format("a~n").' -eval 'io:format("b~n"), halt().' -eval 'io:format("c~n")'
run_same "-extra plain args" -eval 'io:format("~p~n", [init:get_plain_arguments()]), halt().' -extra x -foo y
run_same "user flag -foo 1 2" -noinput -foo 1 2 -eval 'io:format("~p ~p~n", [init:get_argument(foo), init:get_argument(nofoo)]), halt().'
run_same "init:get_arguments" -foo 1 2 -bar -foo 3 \
  -eval 'io:format("~p~n", [[A || {K, _} = A <- init:get_arguments(), lists:member(K, [foo, bar])]]), halt().'
run_same "-pa/-pz code path" -pa pa -pz pz -s zm          # zm "pa" "pz"; zm.beam is only in pz/
# emulator flags: +S N sets the schedulers; the others are skipped with their values.
run_same "+S 1, +P, +B" +S 1 +P 500000 +B -eval 'io:format("~p~n", [erlang:system_info(schedulers)]), halt().'
run_same "+S1:1" +S1:1 -eval 'io:format("~p~n", [erlang:system_info(schedulers_online)]), halt().'

# --- failures: init prints {"init terminating in do_boot",Reason} on stdout, halts with a
# slogan on stderr, status 1 ----------------------------------------------------------------
run_same "-eval parse error" -eval 'foo('
run_same "-eval raises" -eval 'erlang:error(boom)'
run_same "-s missing module" -s nosuchmod                    # undef nosuchmod:start()
run_same "-run missing function" -pa . -run m nosuchfun      # undef m:nosuchfun()
run_same "-eval halt(3)" -eval 'halt(3)'
run_same "-eval init:stop(4)" -eval 'init:stop(4)'

# --- beamlet run PROGRAM ARGS: main/1 gets ARGS as strings, else main/0; then halt --------
same "run FILE.erl args" -- erl -noshell -pa . -eval 'prog:main(["a","b"]), halt().' -- "$beamlet" run prog.erl a b
same "run MOD args" -- erl -noshell -pa . -eval 'prog:main(["a","b"]), halt().' -- "$beamlet" run -pa . prog a b
same "run FILE.beam args" -- erl -noshell -pa . -eval 'prog:main([]), halt().' -- "$beamlet" run prog.beam
same "run main/0" -- erl -noshell -pa . -eval 'hello:main(), halt().' -- "$beamlet" run hello.erl
# main/0 and main/1 both: main/1 with arguments, main/0 without.
same "run both, args" -- erl -noshell -pa . -eval 'both:main(["z"]), halt().' -- "$beamlet" run both.erl z
same "run both, none" -- erl -noshell -pa . -eval 'both:main(), halt().' -- "$beamlet" run both.erl
# flags before the program are erl's; everything after it (-y too) is the program's.
same "run flags then program" \
  -- erl -noshell -foo bar -eval 'io:format("~p~n", [init:get_argument(foo)])' -pa . -eval 'prog:main(["x","-y"]), halt().' \
  -- "$beamlet" run -foo bar -eval 'io:format("~p~n", [init:get_argument(foo)])' prog.erl x -y

# --- escripts -----------------------------------------------------------------------------
escript_same "escript args" args.escript a b
escript_same "escript %%! line" emu.escript                   # {ok,[["bar"]]} "emu.escript" false
escript_same "escript %%! +S, -env" sched.escript              # 1 "set" {ok,[["x","y"]]}
escript_same "escript -mode(compile)" cmode.escript a b
escript_same "escript raises (127)" raise.escript             # escript: exception error: boom ...
escript_same "escript throws a pid" throw.escript
escript_same "escript syntax error" syntax.escript            # FILE:3:1: syntax error before: foo
escript_same "escript without main/1" nomain.escript          # FILE:0: function main/1 undefined
escript_same "escript halt(5)" halt.escript
escript_same "escript missing file" nosuch.escript             # escript: Failed to open file: ..., 1
escript_same "escript unicode args" uni.escript 'héllo' '日本'
same "escript unicode args, C locale" -- env LC_ALL=C escript uni.escript 'héllo' '日本' \
  -- env LC_ALL=C "$beamlet" escript uni.escript 'héllo' '日本'
stdin=in.txt escript_same "escript reads stdin" stdin.escript
escript_same "escript:create beam" beam.escript a b
escript_same "escript:create archive" hb a b
same "#! source escript" -- erl_sb/args.escript x y -- beamlet_sb/args.escript x y
same "#! archive escript" -- erl_sb/hb x y -- beamlet_sb/hb x y

echo "$checks checks, $failures failures"
[ $failures -eq 0 ]
