%% bif/lib/code.erl — beamlet's code module: OTP's code API over the VM's loading BIFs, with
%% no code server. Loading, deleting and purging take the code modification permission inside
%% the BIFs (erlang:load_module/2 and friends), so concurrent calls are serialised there; the
%% code path lives in the VM (beamlet:code_path/0), where autoloading reads it too.
-module(code).
-export([objfile_extension/0, get_path/0, set_path/1, add_path/1, add_pathz/1, add_patha/1,
         add_paths/1, add_pathsz/1, add_pathsa/1, del_path/1, replace_path/2,
         load_file/1, ensure_loaded/1, ensure_modules_loaded/1, load_abs/1, load_abs/2,
         load_binary/3, delete/1, purge/1, soft_purge/1, is_loaded/1, all_loaded/0,
         all_available/0, which/1, where_is_file/1, where_is_file/2, get_object_code/1,
         root_dir/0, lib_dir/0, lib_dir/1, lib_dir/2, compiler_dir/0, priv_dir/1,
         stick_dir/1, unstick_dir/1, stick_mod/1, unstick_mod/1, is_sticky/1,
         module_status/0, module_status/1, modified_modules/0, get_mode/0, clash/0,
         rehash/0, is_module_native/1, atomic_load/1, prepare_loading/1, finish_loading/1,
         start_link/0, stop/0, get_doc/1]).

objfile_extension() -> ".beam".

%% ---- the code path ----

get_path() -> beamlet:code_path().

set_path(Dirs) when is_list(Dirs) ->
    case lists:all(fun is_dir/1, Dirs) of
        true -> beamlet:set_code_path([to_list(D) || D <- Dirs]);
        false -> {error, bad_directory}
    end;
set_path(_) -> {error, bad_path}.

add_path(Dir) -> add_pathz(Dir).

add_pathz(Dir) ->
    add_dirs([Dir], fun(New, Path) -> Path ++ New end).

add_patha(Dir) ->
    add_dirs([Dir], fun(New, Path) -> New ++ Path end).

add_paths(Dirs) -> add_pathsz(Dirs).

add_pathsz(Dirs) when is_list(Dirs) ->
    _ = add_dirs(Dirs, fun(New, Path) -> Path ++ New end),
    ok.

add_pathsa(Dirs) when is_list(Dirs) ->
    _ = add_dirs(lists:reverse(Dirs), fun(New, Path) -> New ++ Path end),
    ok.

add_dirs(Dirs, Join) ->
    Good = [to_list(D) || D <- Dirs, is_dir(D)],
    case Good of
        [] when Dirs =/= [] -> {error, bad_directory};
        _ ->
            Path = [P || P <- get_path(), not lists:member(P, Good)],
            beamlet:set_code_path(Join(Good, Path))
    end.

del_path(Name) when is_atom(Name) ->
    Dirs = [D || D <- get_path(), not lists:prefix(atom_to_list(Name), filename:basename(filename:dirname(D)))],
    set_del(Dirs);
del_path(Dir0) ->
    Dir = to_list(Dir0),
    set_del([D || D <- get_path(), D =/= Dir]).

set_del(Dirs) ->
    Old = get_path(),
    beamlet:set_code_path(Dirs),
    length(Dirs) =/= length(Old).

replace_path(Name, Dir0) ->
    Dir = to_list(Dir0),
    case is_dir(Dir) of
        false -> {error, bad_directory};
        true ->
            App = to_list(Name),
            Path = [case app_of(D) of
                        App -> Dir;
                        _ -> D
                    end || D <- get_path()],
            beamlet:set_code_path(Path)
    end.

app_of(Dir) ->
    Base = filename:basename(filename:dirname(Dir)),
    hd(string:split(Base, "-")).

is_dir(D) ->
    case catch to_list(D) of
        L when is_list(L) -> beamlet:is_dir(L);
        _ -> false
    end.

to_list(A) when is_atom(A) -> atom_to_list(A);
to_list(B) when is_binary(B) -> binary_to_list(B);
to_list(L) when is_list(L) -> L.

%% ---- loading ----

ensure_loaded(Mod) when is_atom(Mod) ->
    case erlang:module_loaded(Mod) of
        true -> {module, Mod};
        false -> load_file(Mod)
    end;
ensure_loaded(Mod) -> erlang:error(badarg, [Mod]).

ensure_modules_loaded(Mods) when is_list(Mods) ->
    Errors = [{M, R} || M <- Mods, {error, R} <- [ensure_loaded(M)]],
    case Errors of
        [] -> ok;
        _ -> {error, Errors}
    end.

load_file(Mod) when is_atom(Mod) ->
    case where_is_file(atom_to_list(Mod) ++ ".beam") of
        non_existing -> {error, nofile};
        File -> load_from(Mod, File)
    end;
load_file(Mod) -> erlang:error(badarg, [Mod]).

load_abs(File) ->
    Name = to_list(File),
    Mod = list_to_atom(filename:basename(Name, ".beam")),
    load_abs(Name, Mod).

load_abs(File, Mod) ->
    Name = case filename:extension(to_list(File)) of
               ".beam" -> to_list(File);
               _ -> to_list(File) ++ ".beam"
           end,
    load_from(Mod, Name).

load_from(Mod, File) ->
    case beamlet:read_file(File) of
        {ok, Bin} -> load_binary(Mod, File, Bin);
        {error, _} -> {error, nofile}
    end.

load_binary(Mod, File, Bin) when is_atom(Mod), is_binary(Bin) ->
    case beamlet:load_binary(Mod, to_list(File), Bin) of
        {module, Mod} ->
            case beamlet_internal:run_on_load(Mod) of
                ok -> {module, Mod};
                Error -> Error
            end;
        {error, not_purged} = E ->
            logger:error("Loading of ~ts failed: not_purged~n", [to_list(File)]),
            E;
        {error, _} = E -> E
    end;
load_binary(Mod, File, Bin) -> erlang:error(badarg, [Mod, File, Bin]).

%% atomic_load/1 and the prepare/finish pair load one module at a time here.
atomic_load(Mods) ->
    case prepare_loading(Mods) of
        {ok, Prepared} -> finish_loading(Prepared);
        Error -> Error
    end.

prepare_loading(Mods) ->
    Found = [{M, where_is_file(atom_to_list(M) ++ ".beam")} || M <- Mods],
    case [{M, nofile} || {M, non_existing} <- Found] of
        [] -> {ok, {'$prepared', Found}};
        Errors -> {error, Errors}
    end.

finish_loading({'$prepared', Found}) ->
    Errors = [{M, R} || {M, F} <- Found, {error, R} <- [load_from(M, F)]],
    case Errors of
        [] -> ok;
        _ -> {error, Errors}
    end.

delete(Mod) when is_atom(Mod) ->
    case catch erlang:delete_module(Mod) of
        true -> true;
        _ -> false
    end;
delete(Mod) -> erlang:error(badarg, [Mod]).

%% Kills the processes that still run old code of Mod, then removes it; true if any was
%% killed.
purge(Mod) when is_atom(Mod) ->
    case erlang:check_old_code(Mod) of
        false -> false;
        true ->
            Users = [P || P <- processes(), P =/= self(), erlang:check_process_code(P, Mod)],
            [exit(P, kill) || P <- Users],
            [wait_dead(P) || P <- Users],
            _ = catch erlang:purge_module(Mod),
            Users =/= []
    end;
purge(Mod) -> erlang:error(badarg, [Mod]).

soft_purge(Mod) when is_atom(Mod) ->
    case erlang:check_old_code(Mod) of
        false -> true;
        true ->
            case [P || P <- processes(), erlang:check_process_code(P, Mod)] of
                [] ->
                    _ = catch erlang:purge_module(Mod),
                    true;
                _ -> false
            end
    end;
soft_purge(Mod) -> erlang:error(badarg, [Mod]).

wait_dead(P) ->
    Ref = erlang:monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

%% ---- what is loaded, and where ----

is_loaded(Mod) when is_atom(Mod) ->
    case erlang:module_loaded(Mod) of
        true -> {file, loaded_file(Mod)};
        false -> false
    end;
is_loaded(Mod) -> erlang:error(badarg, [Mod]).

all_loaded() ->
    [{M, loaded_file(M)} || M <- erlang:loaded()] ++
        [{M, preloaded} || M <- erlang:pre_loaded(), not erlang:module_loaded(M)].

loaded_file(Mod) ->
    case beamlet:module_file(Mod) of
        false -> preloaded;
        "" -> [];
        File -> File
    end.

which(Mod) when is_atom(Mod) ->
    case erlang:module_loaded(Mod) of
        true -> loaded_file(Mod);
        false ->
            case lists:member(Mod, erlang:pre_loaded()) of
                true -> preloaded;
                false -> where_is_file(atom_to_list(Mod) ++ ".beam")
            end
    end;
which(Mod) -> erlang:error(badarg, [Mod]).

where_is_file(File) -> where_is_file(get_path(), File).

where_is_file([Dir | Dirs], File) ->
    Path = filename:join(Dir, File),
    case beamlet:read_file(Path) of
        {ok, _} -> Path;
        _ -> where_is_file(Dirs, File)
    end;
where_is_file([], _File) -> non_existing.

all_available() ->
    Loaded = [{atom_to_list(M), F, true} || {M, F} <- all_loaded()],
    Loaded.

get_object_code(Mod) when is_atom(Mod) ->
    case where_is_file(atom_to_list(Mod) ++ ".beam") of
        non_existing -> error;
        File ->
            case beamlet:read_file(File) of
                {ok, Bin} -> {Mod, Bin, File};
                _ -> error
            end
    end.

%% ---- the installation ----

root_dir() ->
    filename:dirname(lib_dir()).

lib_dir() ->
    case [filename:dirname(filename:dirname(D)) || D <- get_path(), app_of(D) =:= "stdlib"] of
        [Lib | _] -> Lib;
        [] -> "/usr/lib/erlang/lib"
    end.

lib_dir(App) when is_atom(App) ->
    Name = atom_to_list(App),
    case [filename:dirname(D) || D <- get_path(), app_of(D) =:= Name] of
        [Dir | _] -> Dir;
        [] -> {error, bad_name}
    end;
lib_dir(App) -> erlang:error(badarg, [App]).

lib_dir(App, SubDir) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, atom_to_list(SubDir))
    end.

compiler_dir() -> lib_dir(compiler).

priv_dir(App) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, "priv")
    end.

stick_dir(_) -> ok.
unstick_dir(_) -> ok.
stick_mod(_) -> true.
unstick_mod(_) -> true.
is_sticky(_) -> false.
module_status() -> [{M, module_status(M)} || M <- erlang:loaded()].
module_status(Mod) ->
    case erlang:module_loaded(Mod) of
        true -> loaded;
        false -> not_loaded
    end.
modified_modules() -> [].
get_mode() -> interactive.
clash() -> ok.
rehash() -> ok.
is_module_native(_) -> false.
start_link() -> {ok, self()}.
stop() -> ok.
get_doc(_) -> {error, missing}.
