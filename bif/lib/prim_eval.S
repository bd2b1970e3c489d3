%% bif/lib/prim_eval.S — prim_eval:'receive'(MatchFun, Timeout), the selective receive
%% erl_eval uses to evaluate receive expressions: MatchFun is called on each message in turn,
%% and the first result other than nomatch is returned with that message removed; after
%% Timeout (milliseconds or infinity) with no match, the result is the atom timeout.
%% Erlang cannot say "call a fun inside a receive", so, as in OTP, this is BEAM assembly.
{module, prim_eval}.
{exports, [{'receive',2},{module_info,0},{module_info,1}]}.
{attributes, []}.
{labels, 10}.

{function, 'receive', 2, 2}.
  {label,1}.
    {func_info,{atom,prim_eval},{atom,'receive'},2}.
  {label,2}.
    {allocate,2,2}.
    {move,{x,1},{y,0}}.
    {move,{x,0},{y,1}}.
  {label,3}.
    {loop_rec,{f,5},{x,0}}.
    {move,{y,1},{x,1}}.
    %% The match fun only reads the message (it is still in the queue).
    {'%', {remove_fragility, {x,0}}}.
    {call_fun,1}.
    {test,is_ne_exact,{f,4},[{x,0},{atom,nomatch}]}.
    remove_message.
    {deallocate,2}.
    return.
  {label,4}.
    {loop_rec_end,{f,3}}.
  {label,5}.
    {wait_timeout,{f,3},{y,0}}.
    timeout.
    {move,{atom,timeout},{x,0}}.
    {deallocate,2}.
    return.

{function, module_info, 0, 7}.
  {label,6}.
    {func_info,{atom,prim_eval},{atom,module_info},0}.
  {label,7}.
    {move,{atom,prim_eval},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,get_module_info,1}}.

{function, module_info, 1, 9}.
  {label,8}.
    {func_info,{atom,prim_eval},{atom,module_info},1}.
  {label,9}.
    {move,{x,0},{x,1}}.
    {move,{atom,prim_eval},{x,0}}.
    {call_ext_only,2,{extfunc,erlang,get_module_info,2}}.
