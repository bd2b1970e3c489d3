%% Maps in match specs (OTP's match_spec_SUITE:maps): map heads, map bodies, and the error
%% for a variable as a map key.
-module(ms_map_patterns).
-export([main/0]).
main() ->
    T = fun(O, MS) -> io:format("~p~n", [catch erlang:match_spec_test(O, MS, table)]) end,
    T(#{}, [{'_',[],['$_']}]),
    T(#{}, [{#{},[],['$_']}]),
    T(#{}, [{not_a_map,[],['$_']}]),
    T(#{foo => bar}, [{#{foo => '$1'},[],['$1']}]),
    T(#{foo => bar}, [{#{foo => qux},[],[qux]}]),
    T(#{}, [{#{foo => '_'},[],[foo]}]),
    T(#{}, [{#{'$1' => '_'},[],[foo]}]),
    T({a, [#{'$2' => 1}]}, [{{a, ['$1']},[],['$1']}]),
    T({#{foo => bar}}, [{{#{foo => '$1'}},[],['$1']}]),
    T({}, [{{},[],[#{foo => {'+',1,2}}]}]),
    T(#{b => "camembert", c => "cab"}, [{#{b => '$1', c => "cab"},[],['$1']}]),
    T(#{a => 1, b => 2}, [{#{a => '$1'},[],[#{x => '$1', y => {'+','$1',1}}]}]),
    T(#{a => 1}, [{'$1',[{is_map_key, a, '$1'}],[{map_get, a, '$1'}]}]),
    T(#{a => 1}, [{'$1',[],[{map_size, '$1'}]}]),
    ok.
