%% bif/lib/beamlet_internal.erl — Erlang halves of BIFs that wait for a reply (process_info/2
%% on another process sends it a request signal and continues here).
-module(beamlet_internal).
-export([await_reply/1, trace_cleaner/0]).

await_reply(Ref) ->
    receive
        {Ref, Reply} -> Reply
    end.

%% Destroys trace sessions whose last strong handle was garbage collected (the VM sends
%% {destroy, WeakHandle} when that happens), as if by trace:session_destroy/1.
trace_cleaner() ->
    receive
        {destroy, Weak} ->
            _ = trace:session_destroy(Weak),
            trace_cleaner()
    end.
