%% bif/lib/beamlet_internal.erl — Erlang halves of BIFs that wait for a reply (process_info/2
%% on another process sends it a request signal and continues here).
-module(beamlet_internal).
-export([await_reply/1]).

await_reply(Ref) ->
    receive
        {Ref, Reply} -> Reply
    end.
