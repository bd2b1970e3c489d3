%% bif/lib/beamlet_internal.erl — Erlang halves of beamlet's BIFs that OTP has no module for.
%% (A BIF that waits for a reply, as process_info/2 of another process, continues in OTP's own
%% erts_internal:await_result/1, as on erl.)
-module(beamlet_internal).
-export([trace_cleaner/0, run_on_load/1, on_load_then_apply/3, trace_after_load/4, dirty_task/2,
         internal_state/2]).

%% erts_debug:dirty_cpu/2 and dirty_io/2 (checked by the BIF): OTP's test BIFs that keep a
%% dirty scheduler busy. beamlet has no dirty schedulers: the caller runs here without holding
%% its scheduler, and its signals are handled meanwhile (by erts's dirty signal handler on
%% OTP); process_info/2 reports it running, as on erts.
%%   wait: Ms milliseconds, then ok.
%%   reschedule: a dirty NIF that reschedules itself N times, then ok (here: N yields).
%%   alive_waitexiting: {alive, self()} to Pid (if a pid), then stays until killed.
dirty_task(wait, Ms) ->
    receive after Ms -> ok end;
dirty_task(reschedule, 0) ->
    ok;
dirty_task(reschedule, N) ->
    erlang:yield(),
    dirty_task(reschedule, N - 1);
dirty_task(alive_waitexiting, Pid) ->
    is_pid(Pid) andalso (Pid ! {alive, self()}),
    receive after infinity -> ok end.

%% erts_debug:set_internal_state(multizero_timeout_in_timeout, Ms) (checked by the BIF): a
%% timeout after Ms milliseconds sets zero-time timers from where it is handled, and once
%% they have all come the caller hears multizero_timeout_in_timeout_done (erts tests its
%% timer wheel so).
internal_state(multizero_timeout_in_timeout, Ms) ->
    Caller = self(),
    spawn(fun() ->
                  receive after Ms -> ok end,
                  Refs = [erlang:start_timer(0, self(), zero) || _ <- lists:seq(1, 5)],
                  [receive {timeout, Ref, zero} -> ok end || Ref <- Refs],
                  Caller ! multizero_timeout_in_timeout_done
          end),
    ok.

%% Destroys trace sessions whose last strong handle was garbage collected (the VM sends
%% {destroy, WeakHandle} when that happens), as if by trace:session_destroy/1; answers
%% {sync, From, Ref} with {Ref, ok} once what came before is done.
trace_cleaner() ->
    receive
        {destroy, Weak} ->
            %% Destroyed meanwhile by its owner: the weak handle is no longer found (badarg).
            _ = (catch trace:session_destroy(Weak)),
            trace_cleaner();
        {sync, From, Ref} ->
            %% erts_debug:set_internal_state(wait, _): every destroy asked before is done.
            From ! {Ref, ok},
            trace_cleaner()
    end.

%% Runs Mod's -on_load function if it is still to run: ok when the module is (now) loaded,
%% {error, on_load_failure} when the function did not return ok (the module is then
%% unloaded, as OTP's code server does). A caller that finds it running waits for it.
run_on_load(Mod) ->
    case beamlet:on_load_claim(Mod) of
        claimed ->
            Res = try erlang:call_on_load_function(Mod)
                  catch Class:Reason:Stack -> {Class, Reason, Stack}
                  end,
            Keep = Res =:= ok,
            erlang:finish_after_on_load(Mod, Keep),
            case Keep of
                true ->
                    ok;
                false ->
                    error_logger:warning_msg("The on_load function for module ~s returned:~n~P\n",
                                             [Mod, Res, 10]),
                    {error, on_load_failure}
            end;
        running ->
            receive after 1 -> ok end,
            run_on_load(Mod);
        none ->
            ok
    end.

%% A call to Mod:F(Args) reached a module whose on_load function has not run yet.
on_load_then_apply(Mod, F, Args) ->
    case run_on_load(Mod) of
        ok -> erlang:apply(Mod, F, Args);
        _ -> erlang:raise(error, undef, [{Mod, F, Args, []}])
    end.

%% erlang:trace/3 and trace_pattern/3 (Bif) or a trace module function ({trace, F}) naming a
%% tracer module that is not loaded: as OTP's erlang.erl and trace.erl do, call its enabled/3
%% once (which loads it, running its on_load function, or raises undef), then try again.
trace_after_load(Module, State, Bif, Args) ->
    _ = Module:enabled(trace_status, erlang:self(), State),
    {M, F} = case Bif of
                 {_, _} -> Bif;
                 _ -> {erlang, Bif}
             end,
    erlang:apply(M, F, Args).
