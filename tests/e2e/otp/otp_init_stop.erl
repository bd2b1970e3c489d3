-module(otp_init_stop).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, terminate/2]).

%% init:stop/0 ends the program: everything printed before it is on stdout, and nothing is
%% printed after (erl -noshell writes nothing of its own; the exit status is 0). main/0 never
%% returns: it waits while init takes the system down, killing the processes the program
%% started (a gen_server trapping exits gets no terminate/2 call: it prints nothing).
main() ->
    {ok, _} = gen_server:start({local, bystander}, ?MODULE, [], []),
    [io:format("line ~p before init:stop~n", [N]) || N <- lists:seq(1, 5)],
    io:format("a long line: ~s~n", [lists:duplicate(200, $x)]),
    io:put_chars("the last line, without a newline"),
    ok = init:stop(),
    receive never_sent -> ok end.

init([]) ->
    process_flag(trap_exit, true),
    {ok, []}.

handle_call(_, _, S) -> {reply, ok, S}.
handle_cast(_, S) -> {noreply, S}.

terminate(Reason, _) ->
    io:format("terminate(~p): not expected~n", [Reason]).
