%% seq_trace's API on OTP's seq_trace module: tokens made by set_token/2 (label, flags, serial),
%% get_token/0,1, set_token([]), the system tracer, print/2 with an atom label, and badarg.
-module(seq_api).
-export([main/0]).
main() ->
    R = [seq_trace:get_token(), seq_trace:get_token(label),
         seq_trace:set_token(label, 17), seq_trace:get_token(),
         seq_trace:set_token(send, true), seq_trace:set_token(send, false), seq_trace:set_token(send, true),
         seq_trace:set_token(print, true), seq_trace:get_token(send), seq_trace:get_token(label), seq_trace:get_token(serial),
         seq_trace:set_token(serial, {3, 5}), seq_trace:get_token(),
         seq_trace:set_token(timestamp, true), seq_trace:get_token(),
         catch seq_trace:set_token(bogus, true), catch seq_trace:set_token(send, maybe), catch seq_trace:set_token(serial, x),
         catch seq_trace:get_token(bogus),
         seq_trace:set_token(label, {a, "b"}), seq_trace:get_token(label),
         seq_trace:set_token([]), seq_trace:get_token(), seq_trace:get_token(label),
         seq_trace:get_system_tracer(), seq_trace:set_system_tracer(self()), seq_trace:get_system_tracer(), seq_trace:set_system_tracer(false),
         catch seq_trace:set_system_tracer(bad), seq_trace:print(hello), catch seq_trace:print(atomlabel, x),
         seq_trace:set_token(label, 1), seq_trace:set_token(label, 2), seq_trace:get_token(),
         catch erlang:seq_trace(sequential_trace_token, {1,2,3,4,5}), seq_trace:set_token([])],
    Me = self(),
    io:format("~p~n", [[case X of {'EXIT', {E, _}} -> {exit, E}; {F, L, S, Me, C} -> {F, L, S, self, C}; Me -> self; _ -> X end || X <- R]]).
