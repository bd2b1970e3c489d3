-module(io_format_gl).
-export([main/0]).

%% Group leaders and io devices given as pids: io:format/3 and io:put_chars/2 to the pid of
%% our group leader print on stdout like standard_io; a process whose group leader is a
%% small io server of our own (the io protocol: io_request / io_reply, put_chars with
%% characters or with an {M, F, A} to apply, get_line, get_chars, getopts, requests, and
%% {error, request} for the rest) sends all its standard_io there: io:format, io:put_chars,
%% io:nl, io:get_line (a canned answer), io:columns ({error, enotsup}); processes it spawns
%% inherit that group leader; user still reaches stdout; group_leader/2 sets another
%% process's group leader; io to a dead io server is an error (terminated).
main() ->
    GL = group_leader(),
    ok = io:format(GL, "io:format to the group leader pid ~p~n", [is_pid(GL)]),
    ok = io:put_chars(GL, "io:put_chars to the group leader pid\n"),
    io:format(standard_io, "standard_io is the group leader: ~p~n", [true]),

    Capture = spawn(fun() -> capture([]) end),
    Self = self(),
    Child = spawn(fun() ->
                          group_leader(Capture, self()),
                          io:format("hello from the child ~p~n", [42]),
                          io:put_chars(["iodata", <<" with a binary">>, $\n]),
                          io:nl(),
                          Line = io:get_line("a prompt> "),
                          Chars = io:get_chars('', 3),
                          io:format("get_line: ~p, get_chars: ~p~n", [Line, Chars]),
                          io:format("columns: ~p, getopts: ~p~n", [io:columns(), io:getopts()]),
                          io:format("setopts: ~p~n", [io:setopts([binary])]),
                          io:format(user, "the child writes to user: stdout~n", []),
                          Me = self(),
                          spawn(fun() ->
                                        io:format("grandchild inherits the group leader: ~p~n",
                                                  [group_leader() =:= Capture]),
                                        Me ! done
                                end),
                          receive done -> ok end,
                          Self ! {child_done, self()}
                  end),
    receive {child_done, Child} -> ok end,
    io:format("captured by our io server:~n~s", [captured(Capture)]),

    %% group_leader/2 on another process.
    Other = spawn(fun() -> receive {go, From} -> io:format("from other~n"), From ! {other_done, self()} end end),
    true = group_leader(Capture, Other),
    Other ! {go, self()},
    receive {other_done, Other} -> ok end,
    io:format("captured after group_leader/2:~n~s", [captured(Capture)]),

    %% A dead io server.
    M = monitor(process, Capture),
    exit(Capture, kill),
    receive {'DOWN', M, process, Capture, _} -> ok end,
    io:format("io:format to a dead io server: ~p~n",
              [try io:format(Capture, "x", []) catch C:R -> {C, R} end]),
    io:format("io:put_chars to a dead io server: ~p~n",
              [try io:put_chars(Capture, "x") catch C2:R2 -> {C2, R2} end]),
    io:format("io:get_line from a dead io server: ~p~n", [io:get_line(Capture, '')]),
    ok.

captured(Capture) ->
    Capture ! {get, self()},
    receive {captured, Text} -> Text end.

%% A minimal io server that keeps what is written to it.
capture(Acc) ->
    receive
        {io_request, From, ReplyAs, Request} ->
            {Reply, Acc1} = request(Request, Acc),
            From ! {io_reply, ReplyAs, Reply},
            capture(Acc1);
        {get, From} ->
            From ! {captured, lists:flatten(lists:reverse(Acc))},
            capture([])
    end.

request({put_chars, Enc, Chars}, Acc) ->
    {ok, [["  | ", unicode:characters_to_list(Chars, Enc)] | Acc]};
request({put_chars, Enc, M, F, A}, Acc) ->
    request({put_chars, Enc, apply(M, F, A)}, Acc);
request({get_line, _Enc, Prompt}, Acc) ->
    {"a canned line\n", [["  | prompt: ", io_lib:format("~s", [Prompt]), "\n"] | Acc]};
request({get_chars, _Enc, _Prompt, N}, Acc) ->
    {lists:sublist("abcdefgh", N), Acc};
request(getopts, Acc) ->
    {[{binary, false}, {encoding, unicode}], Acc};
request({get_geometry, _}, Acc) ->
    {{error, enotsup}, Acc};
request({requests, Reqs}, Acc) ->
    lists:foldl(fun(R, {_, A}) -> request(R, A) end, {ok, Acc}, Reqs);
request(_Other, Acc) ->
    {{error, request}, Acc}.
