%% bif/lib/beamlet_kernel_errors.erl — the error_info module of the trace module's BIFs. OTP 27's
%% erl_kernel_errors explains them; the installed OTP 25's does not know the module, so a failed
%% trace:F(...) names this one, which explains trace's errors as OTP 27 does and hands every
%% other frame to OTP's erl_kernel_errors. The explanation follows the argument that is wrong
%% and the cause erts gives: session (not a live session), badopt (the option list, or a
%% tracee of another node), match_spec, call_count (a match spec with counting options).
-module(beamlet_kernel_errors).
-export([format_error/2]).

-spec format_error(term(), erlang:stacktrace()) -> #{pos_integer() | general => unicode:chardata()}.
format_error(_Reason, [{trace, F, Args, Info} | _]) when is_list(Args) ->
    ErrorInfo = proplists:get_value(error_info, Info, #{}),
    explain(trace_error(F, Args, maps:get(cause, ErrorInfo, none)));
format_error(Reason, StackTrace) ->
    erl_kernel_errors:format_error(Reason, StackTrace).

%% One entry per argument, from the first: [] when the argument is fine.
trace_error(_, _, session) ->
    [bad_session];
trace_error(process, [_, Pid, How, Opts], Cause) ->
    tracee_error(Pid, not_local_pid, <<"invalid process spec">>, How, Opts, Cause);
trace_error(port, [_, Port, How, Opts], Cause) ->
    tracee_error(Port, not_local_port, <<"invalid port spec">>, How, Opts, Cause);
trace_error(function, [_, _, _, Opts], badopt) ->
    [[], [], [], option_list_error(Opts)];
trace_error(function, [_, _, _, Opts], match_spec) ->
    [[], [], bad_match_spec, list_error(Opts)];
trace_error(function, _, call_count) ->
    [[], [], [], <<"a match spec is not allowed in combination with these options">>];
trace_error(function, _, _) ->
    [[], <<"invalid MFA specification">>];
trace_error(Event, [_, _, Opts], badopt) when Event =:= send; Event =:= recv ->
    [[], [], option_list_error(Opts)];
trace_error(Event, [_, _, Opts], match_spec) when Event =:= send; Event =:= recv ->
    [[], bad_match_spec, list_error(Opts)];
trace_error(info, [_, Tracee, _], badopt) ->
    [[], tracee_spec_error(Tracee)];
trace_error(info, _, _) ->
    [[], <<"invalid trace item">>];
trace_error(system, [_, Event, _], _) ->
    case lists:member(Event, [long_gc, long_schedule, large_heap, long_message_queue,
                              busy_port, busy_dist_port]) of
        true -> [[], [], <<"invalid value for this event">>];
        false -> [[], <<"not a system monitor event">>]
    end;
trace_error(session_create, [Name, Tracer, Opts], _) ->
    [if is_atom(Name) -> []; true -> not_atom end,
     tracer_error(Tracer),
     case Opts of
         [] -> [];
         [_ | _] -> bad_option;
         _ -> not_list
     end];
trace_error(session_destroy, _, _) ->
    [bad_session];
trace_error(session_info, _, _) ->
    [<<"not a valid tracee specification">>];
trace_error(_, _, _) ->
    [].

tracee_error(Tracee, Remote, Invalid, How, Opts, Cause) ->
    TraceeError = case is_local(Tracee) of
                      false -> Remote;
                      true -> []
                  end,
    HowError = case is_boolean(How) of
                   true -> [];
                   false -> bad_boolean
               end,
    case {Cause, TraceeError, HowError} of
        {badopt, _, _} -> [[], TraceeError, HowError, option_list_error(Opts)];
        {_, [], []} -> [[], Invalid];
        _ -> [[], TraceeError, HowError]
    end.

%% Whether a pid or port is of this node (anything else counts as local: it is not a
%% remote tracee, whatever else is wrong with it).
is_local(Id) when is_pid(Id); is_port(Id) -> node(Id) =:= node();
is_local(_) -> true.

tracee_spec_error(Tracee) when is_pid(Tracee) ->
    local_or(Tracee, not_local_pid);
tracee_spec_error(Tracee) when is_port(Tracee) ->
    local_or(Tracee, not_local_port);
tracee_spec_error(_) ->
    <<"not a valid tracee specification">>.

local_or(Tracee, Remote) ->
    case is_local(Tracee) of
        true -> <<"not a valid tracee specification">>;
        false -> Remote
    end.

tracer_error(Tracer) when is_pid(Tracer); is_port(Tracer) ->
    case is_local(Tracer) of
        true -> [];
        false -> bad_tracer
    end;
tracer_error({Module, _}) when is_atom(Module) -> [];
tracer_error(_) -> bad_tracer.

list_error(List) when is_list(List) ->
    try length(List) of
        _ -> []
    catch
        error:badarg -> not_proper_list
    end;
list_error(_) ->
    not_list.

option_list_error(Opts) ->
    case list_error(Opts) of
        [] -> bad_option;
        Error -> Error
    end.

%% #{ArgumentNumber => Text}, skipping the arguments that are fine.
explain(Errors) ->
    {_, Map} = lists:foldl(fun([], {N, M}) -> {N + 1, M};
                              (E, {N, M}) -> {N + 1, M#{N => text(E)}}
                           end, {1, #{}}, Errors),
    Map.

text(bad_boolean) -> <<"not a boolean ('true' or 'false')">>;
text(bad_match_spec) -> <<"invalid match specification">>;
text(bad_option) -> <<"invalid option in list">>;
text(bad_session) -> <<"invalid trace session">>;
text(bad_tracer) -> <<"invalid tracer">>;
text(not_atom) -> <<"not an atom">>;
text(not_list) -> <<"not a list">>;
text(not_proper_list) -> <<"not a proper list">>;
text(not_local_pid) -> <<"not a local pid">>;
text(not_local_port) -> <<"not a local port">>;
text(Text) when is_binary(Text) -> Text.
