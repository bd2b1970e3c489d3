-module(io_fread).
-export([main/0]).

%% io:fread/2,3 on standard input (io_fread.input): ~d (signed integers), ~s (a word: white
%% space ends it), ~a (an atom), ~f (a float), ~c and ~3c (characters), ~u and ~16u (unsigned,
%% in a base), ~2d (a field width), white space in the format matching any run of white space,
%% newlines included (one read may span lines); a read goes on with the rest of the line where
%% the last one stopped (a bare line end left over is dropped: the ~3c after "~f ~a ~c" reads
%% the next line). A format that does not match returns {error, {fread, What}} and consumes
%% nothing (get_line shows what is left). Reads at eof. The prompt is written each time.
main() ->
    r("ints> ", "~d ~d"),
    r('', "~s ~s"),
    r('', "~f ~a ~c"),
    r('', "~3c"),
    r('', "~u ~16u"),
    r('', "~s ~s"),
    r('', "~d"),
    left(),
    r('', "~d ~d ~d"),
    r('', "~2d~s"),
    r('', "~s"),
    r('', "~d"),
    left().

r(Prompt, Format) ->
    io:format("~p -> ~p~n", [Format, io:fread(standard_io, Prompt, Format)]).

left() ->
    io:format("  left: ~p~n", [io:get_line('')]).
