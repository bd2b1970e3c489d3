%% erts_debug:get_internal_state({internal_hash, T}): erts's internal hash, equal to erl's for
%% numbers, strings, lists, tuples, binaries and maps of such (atoms, pids and ports hash
%% by each VM's own numbers). OTP's persistent_term suite relies on keys that collide.
-module(erts_debug_internal_hash).
-export([main/0]).

main() ->
    logger:remove_handler(default),
    erts_debug:set_internal_state(available_internal_state, true),
    Terms = [[], [1], [[]], 1, -5, 77674392, 148027, 1 bsl 59, "abc", "abcdefg", {1,2},
             <<"abc">>, <<>>, <<1:3>>, 1.5, 0.0, -0.0, 1 bsl 70, -(1 bsl 70), [1|2], [300, 1],
             #{1 => 2}, {}, {[<<"x">>, 2.5], "hello world"}],
    [io:format("~p~n", [erts_debug:get_internal_state({internal_hash, T})]) || T <- Terms],
    Colliding = [[121434305, 94282311, 816072], [123354692, 85724182, 14241288, 180793]],
    [io:format("~p~n", [length(lists:usort([erts_debug:get_internal_state({internal_hash, K}) || K <- G]))])
     || G <- Colliding],
    ok.
