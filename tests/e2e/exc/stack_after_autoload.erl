%% Stack traces after a call that loaded its module through error_handler: no frame of the
%% error handler stays behind, in an exception's stacktrace or in current_stacktrace (a
%% continuation left over from the handler's calls used to show up as a frame).
-module(stack_after_autoload).
-export([main/0, here/0]).

main() ->
    show("before", here()),
    {'EXIT', {from_autoloaded, Stk}} = (catch autoloaded:fail()),
    show("exception", Stk),
    show("after", here()),
    show("in the loaded module", autoloaded:stacktrace()),
    ok.

here() ->
    {current_stacktrace, Frames} = process_info(self(), current_stacktrace),
    Frames.

%% Frames of this program's modules (and the error handler's, which must not appear).
show(Label, Frames) ->
    Ours = [{M, F, A, proplists:get_value(line, Loc)}
            || {M, F, A, Loc} <- Frames, lists:member(M, [?MODULE, autoloaded, error_handler])],
    io:format("~s: ~w~n", [Label, Ours]).
