// nif/nif.hpp — native implemented functions: loading NIF libraries into modules
// (erlang:load_nif/2), calling them from Erlang code and from the VM (tracer modules), and
// the environments their terms live in. The C API itself is include/erl_nif.h, implemented in
// nif/enif.cpp (DESIGN.md §1: nif → vm).
#pragma once

#include <string>

#include "include/erl_nif.h"
#include "vm/term.hpp"

namespace beamlet::vm {
struct CodeInfo;
struct Module;
struct Process;
struct Vm;
}  // namespace beamlet::vm

namespace beamlet::nif {
struct NifLibrary;
}  // namespace beamlet::nif

// The environment a NIF gets: where the terms it makes are allocated (a process's heap, or
// the heap of a detached process the environment owns), on whose behalf it runs (enif_self:
// the caller, or a tracer module's tracee) and which library it belongs to (enif_priv_data).
struct enif_environment_t {
    beamlet::vm::Process* heap = nullptr;
    beamlet::vm::Term self = 0;              // enif_self: the calling process (0: none)
    beamlet::nif::NifLibrary* library = nullptr;
    beamlet::vm::Term exception = 0;         // set by enif_raise_exception / enif_make_badarg
    bool owns_heap = false;                  // enif_alloc_env: [heap] is this environment's own
};

namespace beamlet::nif {

// The environment a NIF gets (ErlNifEnv, defined below).
using Env = ::enif_environment_t;

// A NIF function of a loaded library.
struct NifFunction {
    const ErlNifFunc* func = nullptr;
    NifLibrary* library = nullptr;
};

// Installs the NIF layer's hooks into the VM (the i_call_nif dispatch); once, at boot.
void install(vm::Vm& vm);
// The VM enif_alloc_env's environments allocate in (install sets it).
void set_vm(vm::Vm* vm);

// erlang:load_nif(Path, LoadInfo) called by [p] from the code of module [module] (Path as a
// string, LoadInfo anywhere): ok, or
// {error, {Reason, Text}} as OTP words it.
vm::Term load_nif(vm::Process* p, vm::Term module, const std::string& path, vm::Term load_info);

// The NIF [name]/[arity] of [module]'s current code, if its library defines one.
NifFunction find(vm::Vm& vm, vm::Term module, vm::Term name, unsigned arity);

// Calls [f] with [argv] on behalf of the process [self] (a pid, or 0), its terms allocated on
// the process [heap] (the caller's own heap, or a tracer context). The result, or
// THE_NON_VALUE with [*exception] set when the NIF raised.
vm::Term call(const NifFunction& f, vm::Process* heap, vm::Term self, const vm::Term* argv, int argc,
              vm::Term* exception);

// [module]'s code is gone (deleted and purged): its library is unloaded.
void module_purged(vm::Vm& vm, vm::Term module);

// Forgets every library (the VM is going away; libraries stay mapped, as on OTP at exit).
void release_all();

// The priv_data of [library] (enif_priv_data).
void* library_priv_data(const NifLibrary* library);

// A counter that changes whenever some module's NIFs change (loaded or unloaded): tracer
// modules re-resolve their callbacks when it moves.
unsigned long generation();

}  // namespace beamlet::nif

