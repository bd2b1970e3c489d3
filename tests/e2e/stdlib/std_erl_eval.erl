-module(std_erl_eval).
-export([main/0]).

%% The compiler front end in stdlib: erl_scan:string (tokens with locations, reserved words,
%% errors), erl_parse:parse_exprs/parse_term/parse_form, erl_eval:exprs with bindings
%% (arithmetic, pattern matching, funs, list comprehensions, maps, records-free code,
%% try/catch, errors), erl_pp:expr/form, and erl_parse:abstract/normalise.
main() ->
    t(scan, fun() -> erl_scan:string("foo(X, 1.5) -> [X | \"s\"].") end),
    t(scan_loc, fun() -> erl_scan:string("a\n  b", {1, 1}) end),
    t(scan_reserved, fun() -> [element(1, T) || T <- element(2, erl_scan:string("case if of end fun when andalso orelse"))] end),
    t(scan_error, fun() -> erl_scan:string("x = \"unterminated") end),
    t(scan_chars, fun() -> erl_scan:string("$a $\\n 16#FF 2#101 1.0e3 'q a' <<>> =:= =/= ->") end),
    t(parse_term, fun() -> {ok, Ts, _} = erl_scan:string("{a, [1, 2.5, \"str\"], #{k => <<\"v\">>}}."), erl_parse:parse_term(Ts) end),
    t(parse_term_bad, fun() -> {ok, Ts, _} = erl_scan:string("{a, X}."), erl_parse:parse_term(Ts) end),
    t(parse_exprs_bad, fun() -> {ok, Ts, _} = erl_scan:string("1 + ."), erl_parse:parse_exprs(Ts) end),
    Exprs = [
      "1 + 2 * 3.",
      "X = 10, Y = X * X, {X, Y}.",
      "[A * 2 || A <- [1, 2, 3], A > 1].",
      "<< <<B>> || <<B>> <= <<1, 2, 3>>, B =/= 2 >>.",
      "F = fun(N) -> N + 1 end, lists:map(F, [1, 2]).",
      "Fact = fun Fa(0) -> 1; Fa(N) -> N * Fa(N - 1) end, Fact(20).",
      "M = #{a => 1}, M#{b => 2, a := 10}.",
      "#{a := V} = #{a => 42, b => 0}, V.",
      "case {1, 2} of {A, A} -> same; {_, B} when B > 1 -> B end.",
      "if 1 > 2 -> no; true -> yes end.",
      "try throw(oops) catch throw:T -> {caught, T} end.",
      "try 1 / 0 catch error:E -> E end.",
      "catch exit(bye).",
      "begin A = 1, B = A + 1, B * 3 end.",
      "[H | T] = \"hello\", {H, T}.",
      "{ok, Ts, _} = erl_scan:string(\"1+1.\"), Ts.",
      "lists:foldl(fun(X, Acc) -> X + Acc end, 0, lists:seq(1, 100)).",
      "<<X:4, Y:4>> = <<16#AB>>, {X, Y}.",
      "1 bsl 100.",
      "atom_to_list(hello) ++ \" world\".",
      "In + 1.",
      "A = 1, A = 2.",
      "undefined_function_here(1).",
      "lists:nosuchfun().",
      "X = 5, fun() -> X * 2 end().",
      "element(2, {a, b, c}).",
      "(fun(A, B) -> A - B end)(10, 3)."
    ],
    lists:foreach(fun(S) ->
        R = try
                {ok, Ts, _} = erl_scan:string(S),
                {ok, Es} = erl_parse:parse_exprs(Ts),
                {value, V, _} = erl_eval:exprs(Es, erl_eval:add_binding('In', 41, erl_eval:new_bindings())),
                {value, V}
            catch C:E -> {C, short(E)}
            end,
        io:format("~s => ~p~n", [S, R])
    end, Exprs),
    t(bindings, fun() ->
        {ok, Ts, _} = erl_scan:string("A = 1, B = {A, 2}, C = [B]."),
        {ok, Es} = erl_parse:parse_exprs(Ts),
        {value, _, Bs} = erl_eval:exprs(Es, erl_eval:new_bindings()),
        lists:sort(erl_eval:bindings(Bs)) end),
    t(pp_expr, fun() ->
        {ok, Ts, _} = erl_scan:string("case X of {a, B} when B > 0 -> [B | lists:seq(1, B)]; _ -> #{k => X} end."),
        {ok, [E]} = erl_parse:parse_exprs(Ts),
        lists:flatten(erl_pp:expr(E)) end),
    t(pp_form, fun() ->
        {ok, Ts, _} = erl_scan:string("f(X) when is_integer(X) -> X + 1; f(_) -> error."),
        {ok, F} = erl_parse:parse_form(Ts),
        lists:flatten(erl_pp:form(F)) end),
    t(abstract, fun() -> erl_parse:abstract({a, [1, 2], "s", 1.5, <<"b">>}) end),
    t(normalise, fun() -> erl_parse:normalise(erl_parse:abstract(#{x => [y, {z}]})) end),
    t(scan_text, fun() ->
        {ok, Ts, _} = erl_scan:string("foo(Bar)", 1, [text]),
        [erl_scan:text(T) || T <- Ts] end),
    ok.

%% Error reasons from erl_eval may carry internal details; keep only their first element.
short(E) when is_tuple(E) -> element(1, E);
short(E) -> E.

t(Label, F) ->
    R = try {ok, F()} catch C:E -> {error, C, short(E)} end,
    io:format("~s: ~p~n", [Label, R]).
