#!/usr/bin/env bash
# tests/cli/workloads_test.sh BEAMLET ENGINE — real tools, unmodified, with beamlet as their
# `erl` (a symlink first on PATH): Debian's rebar3 (new app, compile, eunit, ct, escriptize
# and the escript), OTP's ct_run on a suite directory, Debian's Elixir 1.14 (a script with
# GenServer, Task, Agent, Stream, structs, protocols, a module compiled at run time and
# Logger; elixir -e), Mix (mix new, mix test), a TLS echo between erl and beamlet both ways
# on 127.0.0.1, and iex in a terminal (tmux). Each step runs on erl, then on beamlet, in
# the same directory set-up: the same exit status and the same output once times, seeds
# and timestamps are masked; Common Test's logs name the same files and record the same
# results. Skipped (77) when rebar3, elixir or Common Test is not installed.
set -u
beamlet=$(realpath "$1")
engine=${2:-jit}
for tool in rebar3 elixir mix ct_run; do
  command -v $tool >/dev/null || { echo "workloads_test: $tool not installed (tools/setup.sh installs it)"; exit 77; }
done
ls -d /usr/lib/erlang/lib/common_test-* >/dev/null 2>&1 ||
  { echo "workloads_test: Common Test not installed"; exit 77; }

work=$(mktemp -d)
[ -n "${KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0 LC_ALL=C.UTF-8 NO_COLOR=1 TERM=dumb
unset ERL_FLAGS ERL_AFLAGS ERL_ZFLAGS ERLC_EMULATOR ESCRIPT_EMULATOR ELIXIR_ERL_OPTIONS MIX_ENV
[ "$engine" = interp ] && export BEAMLET_ENGINE=interp
# The JIT as users get it, lazy (hot modules compiled in the background), not the tests'
# BEAMLET_JIT_HOT=0 that compiles every module rebar3 and Elixir load before it runs.
unset BEAMLET_JIT_HOT
# Each side works in a directory of the same name (Common Test names its runs after it).
mkdir -p "$work/bin" "$work/a/w" "$work/b/w"
ln -s "$beamlet" "$work/bin/erl"
failures=0 checks=0
limit=${WORKLOAD_TIMEOUT:-180}

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Times, seeds, dates and pids differ from run to run.
mask() {
  sed -E -e 's/\x1b\[[0-9;]*m//g' \
    -e 's/[0-9]+\.[0-9]+ seconds/N seconds/g; s/[0-9]+\.[0-9]+s (a)?sync/Ns \1sync/g' \
    -e 's/[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}/HH:MM:SS.mmm/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}\.[0-9]{2}\.[0-9]{2}/DATE/g' \
    -e 's/<[0-9]+\.[0-9]+\.[0-9]+>/<PID>/g' -e 's/ct@[A-Za-z0-9_.-]+/ct@HOST/g' \
    -e "s|$work/[ab]/w|WORK|g"
}

# step NAME COMMAND...: runs COMMAND in a/w (with erl) and in b/w (with beamlet as erl),
# each with its own HOME, and compares.
step() {
  local name=$1
  shift
  checks=$((checks + 1))
  (cd "$work/a/w" && HOME="$work/a" timeout $limit "$@" >"$work/erl.out" 2>&1)
  local erl_status=$?
  (cd "$work/b/w" && HOME="$work/b" PATH="$work/bin:$PATH" timeout $limit "$@" >"$work/beamlet.out" 2>&1)
  local status=$?
  if [ $status -ge 124 ] && [ $status -ne 127 ]; then
    fail "$name: beamlet timed out or was killed (status $status): $(tail -5 "$work/beamlet.out")"
  elif [ $status -ne $erl_status ]; then
    fail "$name: exit status $status, erl's $erl_status: $(tail -15 "$work/beamlet.out")"
  elif ! diff -u <(mask <"$work/erl.out") <(mask <"$work/beamlet.out"); then
    fail "$name: output differs from erl's"
  else
    echo "ok: $name"
  fi
}

# in_both COMMAND: a set-up step, run alike in both directories.
in_both() {
  for d in a b; do (cd "$work/$d/w" && "$@") || fail "set-up: $*"; done
}

# put FILE: standard input written to FILE in both directories.
put() {
  cat >"$work/put.tmp"
  in_both cp "$work/put.tmp" "$1"
}

# ---- rebar3 -----------------------------------------------------------------------------
step "rebar3 new app" rebar3 new app myapp
write_project() {
  in_both mkdir -p myapp/test
  put myapp/test/myapp_tests.erl <<'ERL'
-module(myapp_tests).
-include_lib("eunit/include/eunit.hrl").
add_test() -> ?assertEqual(4, 2 + 2).
gen_test_() -> [?_assert(lists:member(a, [a, b])), ?_assertMatch({ok, _}, {ok, 1})].
setup_test_() -> {setup, fun() -> ets:new(t, [public, named_table]) end, fun ets:delete/1,
                  fun(T) -> [?_assertEqual(true, ets:insert(T, {k, v})), ?_assertEqual([{k, v}], ets:lookup(T, k))] end}.
ERL
  put myapp/test/myapp_SUITE.erl <<'ERL'
-module(myapp_SUITE).
-include_lib("common_test/include/ct.hrl").
-export([all/0, groups/0, init_per_suite/1, end_per_suite/1, init_per_group/2, end_per_group/2,
         started/1, config/1, skipped/1, failing/1]).
all() -> [config, {group, app}].
groups() -> [{app, [], [started, skipped, failing]}].
init_per_suite(C) -> [{answer, 42} | C].
end_per_suite(_) -> ok.
init_per_group(app, C) -> {ok, Started} = application:ensure_all_started(myapp), [{started, Started} | C].
end_per_group(app, _) -> application:stop(myapp).
config(C) -> 42 = ?config(answer, C).
started(C) -> [myapp] = ?config(started, C), true = is_pid(whereis(myapp_sup)).
skipped(_) -> {skip, "not on this run"}.
failing(_) -> 3 = length([a, b]).
ERL
  put myapp/src/myapp_cli.erl <<'ERL'
-module(myapp_cli).
-export([main/1]).
main(Args) ->
    io:format("args: ~p~n", [Args]),
    io:format("sum: ~p~n", [lists:sum([list_to_integer(A) || A <- Args])]),
    io:format("app: ~p ~p~n", [application:load(myapp), application:get_key(myapp, vsn)]).
ERL
  printf '{escript_main_app, myapp}.\n{escript_name, myapp_cli}.\n{escript_emu_args, "%%%%! -escript main myapp_cli\\n"}.\n' >"$work/put.tmp"
  in_both sh -c "cat '$work/put.tmp' >>myapp/rebar.config"
}
write_project >/dev/null
step "rebar3 compile" sh -c 'cd myapp && rebar3 compile'
step "rebar3 eunit" sh -c 'cd myapp && rebar3 eunit'
step "rebar3 ct" sh -c 'cd myapp && rebar3 ct'
# Common Test's logs: the same files, the same case results.
ct_logs() {
  (cd "$1/w/myapp/_build/test/logs" && find . -type f | mask | sort)
  grep -hE '^=(case|result)' "$1"/w/myapp/_build/test/logs/ct_run.*/lib.myapp.logs/run.*/suite.log | mask | cut -c1-60
}
checks=$((checks + 1))
if ! diff -u <(ct_logs "$work/a") <(ct_logs "$work/b"); then fail "rebar3 ct: logs differ from erl's"; else echo "ok: rebar3 ct logs"; fi
step "rebar3 escriptize" sh -c 'cd myapp && rebar3 escriptize'
step "the escript" sh -c 'myapp/_build/default/bin/myapp_cli 1 2 39'

# ---- ct_run -dir -------------------------------------------------------------------------
in_both mkdir -p ctdir
put ctdir/plain_SUITE.erl <<'ERL'
-module(plain_SUITE).
-include_lib("common_test/include/ct.hrl").
-export([all/0, groups/0, init_per_suite/1, end_per_suite/1, init_per_group/2, end_per_group/2,
         config/1, grouped/1, skipped/1, failing/1]).
all() -> [config, {group, g}].
groups() -> [{g, [], [grouped, skipped, failing]}].
init_per_suite(C) -> [{answer, 42} | C].
end_per_suite(_) -> ok.
init_per_group(g, C) -> [{in_group, true} | C].
end_per_group(g, _) -> ok.
config(C) -> 42 = ?config(answer, C).
grouped(C) -> true = ?config(in_group, C).
skipped(_) -> {skip, "not on this run"}.
failing(_) -> 3 = length([a, b]).
ERL
step "ct_run -dir" sh -c 'cd ctdir && ct_run -dir . -logdir . -noshell'

# ---- Elixir ------------------------------------------------------------------------------
put workload.exs <<'EXS'
defmodule Counter do
  use GenServer
  def start_link(n), do: GenServer.start_link(__MODULE__, n, name: __MODULE__)
  def bump(by \\ 1), do: GenServer.call(__MODULE__, {:bump, by})
  @impl true
  def init(n), do: {:ok, n}
  @impl true
  def handle_call({:bump, by}, _from, n), do: {:reply, n + by, n + by}
end

defmodule Shape do
  defstruct [:kind, size: 1]
end

defprotocol Area do
  def area(shape)
end

defimpl Area, for: Shape do
  def area(%Shape{kind: :square, size: s}), do: s * s
  def area(%Shape{kind: :circle, size: r}), do: Float.round(3.14159 * r * r, 3)
end

defimpl Area, for: Integer do
  def area(n), do: n
end

defmodule Main do
  require Logger

  def run do
    {:ok, _} = Counter.start_link(10)
    IO.puts("counter: #{Counter.bump()} #{Counter.bump(5)}")
    tasks = for i <- 1..5, do: Task.async(fn -> i * i end)
    IO.inspect(Task.await_many(tasks), label: "tasks")
    {:ok, agent} = Agent.start_link(fn -> %{} end)
    Agent.update(agent, &Map.update(&1, :a, 1, fn v -> v + 41 end))
    IO.inspect(Agent.get(agent, & &1), label: "agent")
    stream = Stream.iterate(1, &(&1 * 2)) |> Stream.map(&(&1 + 1)) |> Stream.take_while(&(&1 < 1000))
    IO.inspect(Enum.to_list(stream), label: "stream")
    IO.inspect(Enum.map([%Shape{kind: :square, size: 3}, %Shape{kind: :circle, size: 2}, 7], &Area.area/1), label: "areas")
    IO.inspect(%Shape{kind: :square}, label: "struct")
    Code.eval_string("defmodule Dyn do\n  def hello(name), do: \"hello, \" <> name\nend")
    IO.puts(apply(Dyn, :hello, ["runtime"]))
    Logger.info("a log line")
    Logger.flush()
    try do
      raise ArgumentError, "bad thing"
    rescue
      e in ArgumentError -> IO.puts("rescued: #{Exception.message(e)}")
    end
    IO.inspect(Enum.reduce(1..100_000, 0, &+/2), label: "sum")
    IO.inspect(Regex.scan(~r/\d+/, "a1b22c333"), label: "regex")
    IO.inspect(:crypto.hash(:sha256, "abc") |> Base.encode16(case: :lower), label: "sha256")
  end
end

Main.run()
EXS
step "elixir script" elixir workload.exs
step "elixir -e" elixir -e 'IO.inspect(Enum.frequencies(String.graphemes("mississippi")))'
step "elixir raises" elixir -e 'raise "oops"'
step "mix new" mix new proj
put proj/test/more_test.exs <<'EXS'
defmodule MoreTest do
  use ExUnit.Case, async: true
  test "a map" do
    assert %{a: 1} |> Map.put(:b, 2) |> map_size() == 2
  end
  test "a process" do
    pid = spawn(fn -> receive do {:ping, from} -> send(from, :pong) end end)
    send(pid, {:ping, self()})
    assert_receive :pong
  end
  test "a failure" do
    assert Enum.sum([1, 2]) == 4
  end
end
EXS
step "mix test" sh -c 'cd proj && mix test --seed 0'

# ---- TLS between erl and beamlet ------------------------------------------------------------
cat >"$work/tls_peer.erl" <<'ERL'
-module(tls_peer).
-export([server/0, client/0]).
%% server: listens on 127.0.0.1 with a certificate made at run time, writes its port to
%% tls.port, echoes what one client sends until it closes. client: connects, sends, prints.
server() ->
    {ok, _} = application:ensure_all_started(ssl),
    EC = [{key, {namedCurve, secp256r1}}],
    #{server_config := SC} = public_key:pkix_test_data(#{server_chain => #{root => EC, peer => EC},
                                                       client_chain => #{root => EC, peer => EC}}),
    {ok, L} = ssl:listen(0, [{ip, {127, 0, 0, 1}}, {active, false}, binary | SC]),
    {ok, {_, Port}} = ssl:sockname(L),
    ok = file:write_file("tls.port.tmp", integer_to_list(Port)),
    ok = file:rename("tls.port.tmp", "tls.port"),
    {ok, S0} = ssl:transport_accept(L, 20000),
    {ok, S} = ssl:handshake(S0, 20000),
    echo(S),
    halt().
echo(S) ->
    case ssl:recv(S, 0, 20000) of
        {ok, D} -> ok = ssl:send(S, [<<"echo:">>, D]), echo(S);
        {error, _} -> ok
    end.
client() ->
    {ok, _} = application:ensure_all_started(ssl),
    {ok, P} = file:read_file("tls.port"),
    {ok, C} = ssl:connect({127, 0, 0, 1}, binary_to_integer(P), [{verify, verify_none}, {active, false}, binary], 20000),
    {ok, [{protocol, V}]} = ssl:connection_information(C, [protocol]),
    ok = ssl:send(C, <<"across the nodes">>),
    {ok, R} = ssl:recv(C, 0, 20000),
    io:format("~p ~p~n", [V, R]),
    ssl:close(C),
    halt().
ERL
erlc -o "$work" "$work/tls_peer.erl" || fail "set-up: tls_peer.erl"
# tls SERVER_PATH CLIENT_PATH: the server run with erl from SERVER_PATH, the client from CLIENT_PATH.
tls() {
  rm -f "$work/tls.port"
  (cd "$work" && PATH="$1" timeout 60 erl -noshell -pa "$work" -s tls_peer server >"$work/tls_server.out" 2>&1 &)
  for _ in $(seq 200); do [ -f "$work/tls.port" ] && break; sleep 0.1; done
  (cd "$work" && PATH="$2" timeout 60 erl -noshell -pa "$work" -s tls_peer client 2>&1)
  for _ in $(seq 100); do pgrep -f "tls_peer server" >/dev/null || break; sleep 0.1; done
}
for server in erl beamlet; do
  checks=$((checks + 1))
  if [ $server = erl ]; then
    name="erl server, beamlet client" server_path=$PATH client_path="$work/bin:$PATH"
  else
    name="beamlet server, erl client" server_path="$work/bin:$PATH" client_path=$PATH
  fi
  got=$(tls "$server_path" "$client_path")
  if [ "$got" != "'tlsv1.3' <<\"echo:across the nodes\">>" ]; then
    fail "TLS, $name: $got; server: $(tail -3 "$work/tls_server.out")"
  else
    echo "ok: TLS, $name"
  fi
done

# ---- iex in a terminal (tmux) -------------------------------------------------------------
# What the session shows from the first prompt on (the banner names the emulator).
iex_session() {
  local server="beamlet-iex-$$-$1" side=$1
  shift
  tmux -L "$server" new-session -d -x 100 -y 50 -c "$work/$side/w" "env HOME=$work/$side $* iex"
  for _ in $(seq 100); do tmux -L "$server" capture-pane -p | grep -q 'iex(1)>' && break; sleep 0.2; done
  local n=2
  for line in 'Enum.map([1, 2, 3], fn x -> x * 10 end)' 'defmodule Sq, do: (def sq(x), do: x * x)' \
              'Sq.sq(12)' 'h Enum.sum' 'String.upcase("done")'; do
    tmux -L "$server" send-keys -l "$line"
    tmux -L "$server" send-keys Enter
    for _ in $(seq 100); do tmux -L "$server" capture-pane -p -S -200 | grep -q "iex($n)>" && break; sleep 0.2; done
    n=$((n + 1))
  done
  tmux -L "$server" capture-pane -p -S -200 | sed -n '/iex(1)>/,$p' | sed -e 's/[[:space:]]*$//' | mask
  tmux -L "$server" kill-server 2>/dev/null
}
if command -v tmux >/dev/null && command -v iex >/dev/null; then
  checks=$((checks + 1))
  iex_session a >"$work/erl.out"
  iex_session b PATH="$work/bin:$PATH" >"$work/beamlet.out"
  if ! grep -q '"DONE"' "$work/erl.out"; then
    fail "iex: erl's session did not finish: $(tail -5 "$work/erl.out")"
  elif ! diff -u "$work/erl.out" "$work/beamlet.out"; then
    fail "iex: the session differs from erl's"
  else
    echo "ok: iex in a terminal"
  fi
fi

echo "workloads_test ($engine): $checks checks, $failures failures"
[ $failures -eq 0 ]
