%% bif/lib/atomics.erl — the atomics module: arrays of 64-bit atomic integers. put/3, get/2,
%% add/3, add_get/3, exchange/3, compare_exchange/4 and info/1 are BIFs (bif/atomics_bifs.cpp).
-module(atomics).
-export([new/2, sub/3, sub_get/3]).

new(Arity, Opts) ->
    case signed(Opts, true) of
        badopt -> erlang:error(badarg, [Arity, Opts]);
        Signed ->
            try erts_internal:atomics_new(Arity, case Signed of true -> 1; false -> 0 end)
            catch error:Reason -> erlang:error(Reason, [Arity, Opts])
            end
    end.

signed([{signed, B} | T], _) when is_boolean(B) -> signed(T, B);
signed([], B) -> B;
signed(_, _) -> badopt.

sub(Ref, Ix, Decr) when is_integer(Decr) ->
    try atomics:add(Ref, Ix, -Decr) catch error:Reason -> erlang:error(Reason, [Ref, Ix, Decr]) end;
sub(Ref, Ix, Decr) -> erlang:error(badarg, [Ref, Ix, Decr]).

sub_get(Ref, Ix, Decr) when is_integer(Decr) ->
    try atomics:add_get(Ref, Ix, -Decr) catch error:Reason -> erlang:error(Reason, [Ref, Ix, Decr]) end;
sub_get(Ref, Ix, Decr) -> erlang:error(badarg, [Ref, Ix, Decr]).
