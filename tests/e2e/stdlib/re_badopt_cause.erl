%% re:run/3 and re:compile/2 with bad options say so (error_info cause badopt), whatever
%% else is wrong with the call: the shell then names argument 3 (or 2) as erl does.
-module(re_badopt_cause).
-export([main/0]).

main() ->
    Calls = [{run, [{a,b}, {x,y}, [a|b]]}, {run, [{a,b}, ".*", bad_options]},
             {run, ["abc", {re_pattern,0,0,0,<<"xyz">>}, 9999]}, {run, ["abc", "a", [bad_option]]},
             {run, ["abc", {x,y}, []]}, {compile, ["a", [bad]]}, {compile, ["a", [caseless|x]]},
             {compile, [{x}, [caseless]]}],
    lists:foreach(
      fun({F, Args}) ->
              try apply(re, F, Args) of
                  V -> io:format("~p~n", [V])
              catch error:R:St ->
                      [{re, F, _, Info} | _] = St,
                      {error_info, Map} = lists:keyfind(error_info, 1, Info),
                      io:format("~p ~p ~p~n", [F, R, maps:get(cause, Map, none)]),
                      io:format("~ts~n", [erl_error:format_exception(error, R, St, #{stack_trim_fun => fun(M, _, _) -> M =/= re end})])
              end
      end, Calls).
