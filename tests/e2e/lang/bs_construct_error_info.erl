%% A binary construction that fails says which segment, of what type, and what is wrong, as
%% erts's error_info for erl_erts_errors:format_bs_fail/2: {Segment, Type, What, Value}.
%% Every size is checked before anything is built (a later segment's bad size comes before an
%% earlier segment's bad value); a float's size before its value; a float too big for 16 or 32
%% bits is infinity.
-module(bs_construct_error_info).
-export([main/0]).
id(X) -> X.
cases() ->
    [fun() -> <<(id(foo)):8, (id(1)):(id(-1))>> end,
     fun() -> <<(id(foo)):8>> end,
     fun() -> <<(id(1.5)):8>> end,
     fun() -> <<(id(1)):(id(foo))>> end,
     fun() -> <<(id(1)):(id(-(1 bsl 70)))>> end,
     fun() -> <<(id(1)):(id(1 bsl 58))/unit:128>> end,
     fun() -> <<(id(foo))/binary>> end,
     fun() -> <<(id(<<1:3>>))/binary>> end,
     fun() -> <<(id(<<1,2>>)):3/binary>> end,
     fun() -> <<(id(foo)):3/binary>> end,
     fun() -> <<(id(<<1,2>>)):(id(3))/binary>> end,
     fun() -> <<(id(foo)):(id(3))/binary>> end,
     fun() -> <<(id(foo))/float>> end,
     fun() -> <<(id(1.0e300)):32/float>> end,
     fun() -> <<(id(1.0)):(id(8))/float>> end,
     fun() -> <<(id(1.0)):(id(12))/float>> end,
     fun() -> <<(id(-1))/utf8>> end,
     fun() -> <<(id(16#D800))/utf16>> end,
     fun() -> <<(id(foo))/utf32>> end,
     fun() -> <<"abc", (id(foo))/utf32, (id(1)):(id(-1))>> end,
     fun() -> X = id(foo), <<X/binary, 1>> end,
     fun() -> X = id(<<1:3>>), <<X/binary, 1>> end,
     fun() -> X = id(<<1:3>>), <<X/bitstring, (id(foo)):8>> end,
     fun() -> B = id(<<1,2,3>>), <<B:2/binary-unit:7>> end,
     fun() -> <<(id(1)):(id(1 bsl 70))>> end,
     fun() -> <<(id(<<1>>))/binary-unit:3>> end,
     fun() -> <<(id(foo)):(id(-1))>> end,
     fun() -> <<1:8, (id(foo)):(id(12))/float, "abc">> end,
     fun() -> <<(id(1.0e10)):16/float, (id(-1.0e10)):16/float>> end].
main() ->
    lists:foreach(fun(F) ->
        try F() of V -> io:format("ok ~p~n", [V])
        catch C:R:St -> [{_,_,_,I}|_] = St,
           case lists:keyfind(error_info, 1, I) of
               {error_info, #{cause := Cause}} -> io:format("~p ~p ~p~n", [C, R, Cause]);
               Other -> io:format("~p ~p ~p~n", [C, R, Other])
           end
        end end, cases()).
