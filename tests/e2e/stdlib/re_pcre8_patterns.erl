%% Patterns that OTP 25's PCRE 8 reads differently from PCRE2, read as erl reads them: a
%% hyphen after a class escape or POSIX class, \8 and \9 without that many groups, unknown
%% letter escapes, \z \C... in a class, \K in a lookaround, deep nesting; and the error
%% offsets of patterns that fail after such a place.
-module(re_pcre8_patterns).
-export([main/0]).

main() ->
    Runs = [{<<"12-34z">>, <<"[\\d-z]+">>}, {"a-b.c", "[\\w-.]+"}, {"x-y", "[\\s-x]"},
            {"a-1", "[[:alpha:]-1]+"}, {"12-]", "[\\d-]+"}, {"ab-", "[\\p{L}-]+"},
            {"[\\d-z]", "\\Q[\\d-z]\\E"}, {"]-a", "[]\\d-a]+"}, {"A8B9C", "^A\\8B\\9C$"},
            {"abcdefghh", "(a)(b)(c)(d)(e)(f)(g)(h)\\8"}, {"8", "[\\8]"}, {"abidef", "ab\\idef"}, {"aFIJq", "a\\F\\I\\J\\q"},
            {"z", "[\\z\\C]"}, {"RX", "^[\\R][\\X]"}, {"ab", "(?=a\\Kb)ab"}, {"ab", "a\\Kb"}],
    [io:format("~p ~p: ~p~n", [S, P, catch re:run(S, P, [])]) || {S, P} <- Runs],
    Compiles = ["(a", "\\", "\\x{110000}", "[\\d-z](?<", "[\\d-z][\\d-z](?<", "\\8(?<", "[\\z](?<", "a\\Kb(?<"],
    [io:format("~p: ~p~n", [P, re:compile(P)]) || P <- Compiles],
    [io:format("~p: ~p~n", [N, element(1, re:compile(nested(N)))]) || N <- [250, 251, 798]],
    [io:format("~p: ~p~n", [N, re:compile(nested(N))]) || N <- [799, 819]].

nested(N) -> [lists:duplicate(N, $(), lists:duplicate(N, $))].
