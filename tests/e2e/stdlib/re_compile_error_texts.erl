%% re:compile/1 errors are worded as erl's PCRE 8 words them (the texts that
%% erl_stdlib_errors shows and programs match on), for the common mistakes.
-module(re_compile_error_texts).
-export([main/0]).

main() ->
    Patterns = ["*a", "(abc", "(?#abc", "abc)", "(?(1a)", "(?C256)", "(?P<n", "(?<n>a)(?<n>b)",
                "(?R", "(?(DEFINE)a|b)", "[z-a]", "(?Z)", "[[:foo:]]", "a{3,2}", "[abc", "\\"],
    [io:format("~p~n", [element(1, element(2, re:compile(P)))]) || P <- Patterns],
    io:format("~p~n", [element(1, element(2, re:compile("\\x{110000}", [unicode])))]),
    io:format("~p~n", [re:run("abc", "(.*))", [report_errors])]).
