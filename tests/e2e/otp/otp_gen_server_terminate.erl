-module(otp_gen_server_terminate).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

%% When terminate/2 runs: a server trapping exits whose parent (the process that called
%% start_link) exits with shutdown gets terminate(shutdown); one that does not trap exits just
%% dies; an 'EXIT' from a linked process that is not the parent is a handle_info message;
%% {stop, Reason, S} from handle_cast and handle_info with normal, shutdown and {shutdown, T}
%% reasons (no report is logged for these); gen_server:stop/3 of a registered name, then
%% stop/1 of the name that is gone (exit noproc).
main() ->
    Self = self(),
    %% The parent exits: a trapping server runs terminate.
    [run_parent(Trap) || Trap <- [true, false]],

    %% A linked process that is not the parent exits: handle_info.
    {ok, S} = gen_server:start(?MODULE, {Self, true}, []),
    ok = gen_server:call(S, spawn_linked_child),
    receive {S, child_exit, R} -> io:format("handle_info: {'EXIT', Child, ~p}~n", [R]) end,
    io:format("still alive: ~p~n", [is_process_alive(S)]),

    %% {stop, Reason, State} from handle_cast / handle_info.
    [stop_via(S2How, Reason) || S2How <- [cast, info], Reason <- [normal, shutdown, {shutdown, why}]],

    %% stop/3 of a registered server.
    {ok, _} = gen_server:start({local, gst_named}, ?MODULE, {Self, false}, []),
    io:format("stop by name: ~p~n", [gen_server:stop(gst_named, shutdown, 1000)]),
    io:format("stop by name again: ~p~n", [catch gen_server:stop(gst_named)]),
    gen_server:stop(S),
    ok.

run_parent(Trap) ->
    Self = self(),
    Parent = spawn(fun() ->
                           {ok, P} = gen_server:start_link(?MODULE, {Self, Trap}, []),
                           Self ! {server, P},
                           receive go -> exit(shutdown) end
                   end),
    P = receive {server, Pid} -> Pid end,
    M = monitor(process, P),
    Parent ! go,
    receive {'DOWN', M, process, P, Why} -> ok end,
    Log = receive {P, terminated, R} -> {terminate, R} after 0 -> no_terminate end,
    io:format("trap_exit ~p, parent exits with shutdown: ~p, down ~p~n", [Trap, Log, Why]).

stop_via(How, Reason) ->
    {ok, P} = gen_server:start(?MODULE, {self(), false}, []),
    M = monitor(process, P),
    case How of
        cast -> gen_server:cast(P, {stop, Reason});
        info -> P ! {stop, Reason}
    end,
    receive {'DOWN', M, process, P, Why} -> ok end,
    receive {P, terminated, R} -> ok end,
    io:format("stop from handle_~p: terminate(~p), down ~p~n", [How, R, Why]).

init({Parent, Trap}) ->
    process_flag(trap_exit, Trap),
    {ok, Parent}.

handle_call(spawn_linked_child, _From, Parent) ->
    spawn_link(fun() -> exit(child_done) end),
    {reply, ok, Parent}.

handle_cast({stop, Reason}, Parent) ->
    {stop, Reason, Parent}.

handle_info({'EXIT', _Child, R}, Parent) ->
    Parent ! {self(), child_exit, R},
    {noreply, Parent};
handle_info({stop, Reason}, Parent) ->
    {stop, Reason, Parent}.

terminate(Reason, Parent) ->
    Parent ! {self(), terminated, Reason}.
