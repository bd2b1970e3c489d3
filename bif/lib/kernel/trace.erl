%% bif/lib/trace.erl — the trace module, as OTP 27 has it (and OTP 28's system/3), which the
%% installed OTP 25 lacks. Its functions are beamlet's native BIFs (bif/trace_module_bifs.cpp:
%% a native export wins over these bodies); the module gives them what a loaded module has:
%% module_info/0,1, code:is_loaded/1, a place in the export list. A failed call's frame is the
%% BIF's, {trace, F, Args, [{error_info, ...}]}, explained by beamlet_kernel_errors.
-module(trace).

-export([function/4, send/3, recv/3, process/4, port/4, info/3, system/3, delivered/2,
         session_create/3, session_destroy/1, session_info/1]).

-export_type([session/0, session_weak_ref/0]).

-opaque session() :: {reference(), session_weak_ref()}.
-opaque session_weak_ref() :: {atom(), non_neg_integer()}.

-spec process(session(), pid() | all | existing | new, boolean(), [atom()]) -> non_neg_integer().
process(_Session, _Procs, _How, _FlagList) -> erlang:nif_error(undef).

-spec port(session(), port() | all | existing | new, boolean(), [atom()]) -> non_neg_integer().
port(_Session, _Ports, _How, _FlagList) -> erlang:nif_error(undef).

-spec function(session(), {module(), atom(), arity() | '_'} | on_load, term(), [atom()]) ->
          non_neg_integer().
function(_Session, _MFA, _MatchSpec, _FlagList) -> erlang:nif_error(undef).

-spec send(session(), term(), []) -> non_neg_integer().
send(_Session, _MatchSpec, _FlagList) -> erlang:nif_error(undef).

-spec recv(session(), term(), []) -> non_neg_integer().
recv(_Session, _MatchSpec, _FlagList) -> erlang:nif_error(undef).

-spec info(session(), term(), atom()) -> term().
info(_Session, _PidPortFuncEvent, _Item) -> erlang:nif_error(undef).

-spec system(session(), atom(), term()) -> ok.
system(_Session, _Event, _Value) -> erlang:nif_error(undef).

-spec delivered(session(), pid() | all) -> reference().
delivered(_Session, _Tracee) -> erlang:nif_error(undef).

-spec session_create(atom(), pid() | port() | {module(), term()}, list()) -> session().
session_create(_Name, _Tracer, _Opts) -> erlang:nif_error(undef).

-spec session_destroy(session() | session_weak_ref()) -> boolean().
session_destroy(_Session) -> erlang:nif_error(undef).

-spec session_info(term()) -> undefined | [session_weak_ref()].
session_info(_PidPortFuncEvent) -> erlang:nif_error(undef).
