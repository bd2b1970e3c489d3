%% bif/lib/counters.erl — the counters module over atomics arrays ({atomics, Ref}) or the
%% erts_internal:counters_* BIFs ({write_concurrency, Ref}), as OTP represents them.
-module(counters).
-export([new/2, get/2, add/3, sub/3, put/3, info/1]).

new(Size, Opts) when is_list(Opts) ->
    try
        case Opts of
            [] -> {atomics, atomics:new(Size, [{signed, true}])};
            [atomics] -> {atomics, atomics:new(Size, [{signed, true}])};
            [write_concurrency] -> {write_concurrency, erts_internal:counters_new(Size)};
            _ -> erlang:error(badarg)
        end
    catch error:Reason -> erlang:error(Reason, [Size, Opts])
    end;
new(Size, Opts) -> erlang:error(badarg, [Size, Opts]).

get({atomics, R}, Ix) -> atomics:get(R, Ix);
get({write_concurrency, R}, Ix) -> erts_internal:counters_get(R, Ix);
get(Ref, Ix) -> erlang:error(badarg, [Ref, Ix]).

add({atomics, R}, Ix, Incr) -> atomics:add(R, Ix, Incr);
add({write_concurrency, R}, Ix, Incr) -> erts_internal:counters_add(R, Ix, Incr);
add(Ref, Ix, Incr) -> erlang:error(badarg, [Ref, Ix, Incr]).

sub(Ref, Ix, Decr) when is_integer(Decr) -> add(Ref, Ix, -Decr);
sub(Ref, Ix, Decr) -> erlang:error(badarg, [Ref, Ix, Decr]).

put({atomics, R}, Ix, Value) -> atomics:put(R, Ix, Value);
put({write_concurrency, R}, Ix, Value) -> erts_internal:counters_put(R, Ix, Value);
put(Ref, Ix, Value) -> erlang:error(badarg, [Ref, Ix, Value]).

info({atomics, R}) -> atomics:info(R);
info({write_concurrency, R}) -> erts_internal:counters_info(R);
info(Ref) -> erlang:error(badarg, [Ref]).
