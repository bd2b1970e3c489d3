// io/drivers/dynamic_driver.hpp — drivers loaded with erl_ddll (OTP's erl_bif_ddll.c and the
// driver half of io.c): the table of loaded driver libraries of one VM, and the port driver
// that runs a library's ErlDrvEntry behind a port. The C functions such a driver calls
// (include/erl_driver.h) are in dynamic_driver.cpp.
//
// A library is loaded once per VM and counted per process: erl_ddll:try_load/3 from a
// process adds one to its count, try_unload/2 takes one away, and the process's death takes
// all of its count away. A library nobody counts is unloaded (its finish() called, dlclose'd)
// once its last port has closed; kill_ports closes them at once (exit reason
// driver_unloaded). Ports hold their library alive meanwhile.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vm/port_driver.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {
struct Vm;
struct MagicHandle;
}

namespace beamlet::io {

struct DriverLibrary;

class DriverTable {
public:
    // What a load or an unload came to (erl_ddll's {ok, Status} and {error, Atom} answers).
    enum class Status {
        Loaded, AlreadyLoaded, Unloaded, PendingProcess, PendingDriver,
        NotLoaded, LinkedIn, Inconsistent, NotLoadedByThisProcess, OpenError,
    };
    struct Outcome {
        Status status;
        int open_error = 0;  // OpenError: erl_ddll's code ({open_error, Code})
    };
    // erl_ddll:info/2 of a loaded driver.
    struct Info {
        std::vector<std::pair<vm::Term, int>> processes;  // pid, count
        bool kill_ports = false;
        std::size_t port_count = 0;
        std::vector<std::pair<vm::Term, int>> awaiting_unload;
    };

    explicit DriverTable(vm::Vm& vm);
    ~DriverTable();
    DriverTable(const DriverTable&) = delete;
    DriverTable& operator=(const DriverTable&) = delete;

    // erl_ddll:try_load(Dir, Name, Opts) by [pid]: opens Dir/Name.so unless loaded.
    Outcome load(vm::Term pid, const std::string& dir, const std::string& name, bool kill_ports);
    // erl_ddll:try_unload(Name, Opts) by [pid]. With [monitor] (a reference's three id words),
    // a pending unload sends {'DOWN', Ref, driver, Name, unloaded} to [pid] when it is done.
    // Once nobody counts a driver whose ports are still open, its unload is pending for
    // everyone: anyone's try_unload answers pending_driver (and may kill the ports).
    Outcome unload(vm::Term pid, const std::string& name, bool kill_ports, const vm::Word* monitor);
    // erl_ddll:monitor(driver, {Name, When}): [pid] hears {'DOWN', Ref, driver, Name,
    // unloaded} at once if the driver is not loaded; else {'UP', Ref, driver, Name, loaded} at
    // once (When = loaded) or that 'DOWN' when it is unloaded.
    void monitor(vm::Term pid, const std::string& name, bool up, const vm::Word ref[3]);
    void demonitor(const vm::Word ref[3]);
    // The dynamic drivers loaded, in load order.
    std::vector<std::string> loaded();
    // erl_ddll:info/2 of a dynamically loaded driver; nullopt if none of that name.
    std::optional<Info> info(const std::string& name);
    // The text of an {open_error, Code}: OTP's for its fixed codes, the dynamic linker's for
    // the last failure otherwise.
    std::string error_text(int code);
    // Whether [name] is one of beamlet's linked-in drivers (erl_ddll cannot load or unload it).
    static bool linked_in(const std::string& name);
    static std::vector<std::string> linked_in_names();

    // A port driver for the loaded driver the command line [command] names (its first word),
    // or null if none is loaded by that name. [binary]: open_port's binary option.
    std::unique_ptr<vm::PortDriver> open(const std::string& command, bool binary, bool eof);
    // Why the start() of a dynamic driver's port failed: 0 (it did not), EINVAL for
    // ERL_DRV_ERROR_GENERAL, -1 for ERL_DRV_ERROR_BADARG, else the errno value.
    static int start_error(const vm::PortDriver& driver);

    // A port of [lib] started as [port], or closed (0: before it started): the library goes
    // once nobody counts it and no port runs it.
    void port_started(const std::shared_ptr<DriverLibrary>& lib, vm::Term port);
    void port_closed(const std::shared_ptr<DriverLibrary>& lib, vm::Term port);

    // The VM whose table was made last (one per OS process in practice): a driver's own thread
    // finds its port through it (erl_drv_send_term from outside a callback).
    static vm::Vm* loading_vm();

private:
    struct Watch {
        vm::Term pid;
        vm::Word ref[3];
        std::string name;
        bool up;
    };
    // Drops the counts of processes that have exited, then unloads what nobody counts and no
    // port uses; a kill_ports library that nobody counts has its ports killed (they exit with
    // driver_unloaded, and the last one to close unloads it). Called with m_lock held; the
    // 'DOWN' messages are sent and the ports killed by deliver, after it is released.
    void sweep(std::vector<Watch>* fired);
    void unload_now(const std::shared_ptr<DriverLibrary>& lib, std::vector<Watch>* fired);
    void deliver(const std::vector<Watch>& fired);
    // A process that loaded a driver is watched (a resource monitor): at its exit its counts
    // go at once, as erts drops them (user_exited, on the exiting process's thread).
    void watch_user(vm::Term pid);
    void user_exited(vm::Term pid);
    static void on_user_exit(vm::MagicHandle* handle, vm::Term pid);

    vm::Vm& m_vm;
    std::mutex m_lock;
    vm::MagicHandle* m_user_watch = nullptr;  // the resource monitor's handle (ours holds one reference)
    std::vector<vm::Term> m_watched_users;
    std::vector<vm::Term> m_doomed_ports;     // to be killed once m_lock is released
    std::vector<std::shared_ptr<DriverLibrary>> m_libraries;  // in load order
    std::vector<Watch> m_watches;
    std::string m_last_dl_error;
};

}  // namespace beamlet::io
