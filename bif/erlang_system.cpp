// bif/erlang_system.cpp — the system as Erlang sees it: erlang:system_info/1, memory/0,1,
// system_flag/2, nodes, the os module's BIFs (environment, pid, clocks), checksums.
//
// system_info answers what OTP 25 answers for the items programs and OTP's libraries ask
// about; beamlet identifies itself as OTP 25 (erts 13.1.5) because the .beam files it runs and
// the libraries it loads are OTP 25's.
#include <gnu/libc-version.h>
#include <langinfo.h>
#include <locale.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <thread>

#include "bif/bifs.hpp"
#include "dist/distribution.hpp"
#include "bif/process_bifs.hpp"
#include "bif/term_format.hpp"
#include "matchspec/match_spec.hpp"
#include "vm/port_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/node.hpp"
#include "vm/binary.hpp"
#include "vm/scheduler.hpp"
#include "vm/stack_trace.hpp"
#include "vm/system_logger.hpp"

extern char** environ;

namespace beamlet::bif {

using namespace vm;

namespace {

// system_flag(outstanding_system_requests_limit, N), as OTP's default.
std::atomic<SWord> outstanding_system_requests_limit{4};

Term string_term(Process* p, std::string_view s) { return bytes_to_list(p, s); }

Term pair(Process* p, Term a, Term b) { return make_tuple_on(p, {a, b}); }

Term list_of(Process* p, std::initializer_list<Term> items) {
    Term l = NIL;
    for (auto it = items.end(); it != items.begin();) {
        --it;
        l = make_cons_on(p->alloc(2), *it, l);
    }
    return l;
}

int scheduler_count(Process* p) { return p->vm.schedulers ? p->vm.schedulers->count() : 1; }

// The bytes of an iodata argument, or false (badarg).
bool bytes_of(Term t, std::string* out) {
    if (is_binary(t) || is_list(t) || is_nil(t)) return iolist_to_bytes(t, out);
    return false;
}

}  // namespace

namespace {
// system_info(allocator): {glibc, [Major, Minor], Features, Settings}. Everything is malloc's
// (sys_alloc); OTP's alloc_util allocators are there, disabled, as on an erl started with
// +Mea min.
Term allocator_info(Process* p) {
    auto list = [p](const std::vector<Term>& items) {
        Term l = NIL;
        for (auto it = items.rbegin(); it != items.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
        return l;
    };
    int major = 0, minor = 0;
    std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor);
    Term version = list({make_small(major), make_small(minor)});
    Term sys_alloc = atom("sys_alloc");
    Term settings = list({pair(p, atom("e"), atoms::true_), pair(p, atom("m"), atom("libc")),
                          pair(p, atom("tt"), make_small(131072)), pair(p, atom("tp"), make_small(0))});
    std::vector<Term> per_allocator{pair(p, sys_alloc, settings)};
    for (const char* name : {"temp_alloc", "sl_alloc", "std_alloc", "ll_alloc", "eheap_alloc", "ets_alloc", "fix_alloc",
                             "literal_alloc", "binary_alloc", "driver_alloc", "test_alloc"})
        per_allocator.push_back(pair(p, atom(name), list({pair(p, atom("e"), atoms::false_)})));
    return make_tuple_on(p, {atom("glibc"), version, list({sys_alloc}), list(per_allocator)});
}
}  // namespace

namespace {
// system_info(ethread_info): the native atomics and locks beamlet's threads use (std::atomic on
// x86-64 and AArch64 is lock-free at 32 and 64 bits), in erl's shape.
Term ethread_info(Process* p) {
    auto entry = [p](const char* what, const char* impl) {
        return make_tuple_on(p, {string_term(p, what), string_term(p, impl)});
    };
    return list_of(p, {entry("32-bit native atomics", "std::atomic"), entry("64-bit native atomics", "std::atomic"),
                       entry("Native spinlocks", "std::atomic")});
}

// system_info(heap_sizes): the heap sizes a process heap takes, in words.
Term heap_sizes_term(Process* p) {
    Term list = NIL;
    const std::vector<Word>& sizes = heap_sizes();
    for (auto it = sizes.rbegin(); it != sizes.rend(); ++it) list = make_cons_on(p->alloc(2), make_integer(p, SWord(*it)), list);
    return list;
}

// system_info(info | procs | loaded | dist): the text of the matching sections of a crash
// dump (=memory, =proc:<Pid>, =loaded_modules, =node), as binaries.
std::string dump_text(Process* p, const std::string& kind) {
    std::string out;
    if (kind == "info") {
        out = "=memory\n";
        Term items = bif_memory0(p, nullptr);
        for (Term l = items; is_list(l); l = cdr(l))
            out += atom_text(tuple_element(car(l), 0)) + ": " + write_term(tuple_element(car(l), 1)) + "\n";
    } else if (kind == "procs") {
        for (Term pid : p->vm.process_ids()) {
            std::shared_ptr<Process> target = p->vm.lookup_process(pid);
            if (!target) continue;
            out += "=proc:" + identifier_text(pid) + "\n";
            // (Only what the process lock guards: its owner counts reductions without it.)
            std::lock_guard guard(target->lock);
            if (target->registered_name) out += "Name: " + atom_text(target->registered_name) + "\n";
        }
    } else if (kind == "loaded") {
        std::vector<Module*> modules = p->vm.loaded_modules();
        Word total = 0;
        for (const Module* m : modules) total += m->code_size_words * sizeof(Word);
        out = "=loaded_modules\nCurrent code: " + std::to_string(total) + "\nOld code: 0\n";
        for (const Module* m : modules)
            out += atom_text(m->name) + " " + std::to_string(m->code_size_words * sizeof(Word)) + "\n";
    } else {  // dist
        out = "=node:'" + atom_text(this_node().name) + "'\n=no_distribution\n";
    }
    return out;
}
}  // namespace

Term bif_system_info(Process* p, Term* a) {
    Term item = a[0];
    const std::string name = is_atom(item) ? atom_text(item) : std::string();
    if (name == "otp_release") return string_term(p, "25");
    if (name == "version") return string_term(p, "13.1.5");
    // The break menu is never turned off (erl's +Bi): Ctrl-G's q halts (user_drv asks).
    if (name == "break_ignored") return atoms::false_;
    if (name == "system_version") {
        int n = scheduler_count(p);
        return string_term(p, "Erlang/OTP 25 [erts-13.1.5] [beamlet] [64-bit] [smp:" + std::to_string(n) + ":" +
                                  std::to_string(n) + "] [async-threads:1]\n");
    }
    if (name == "system_architecture") return string_term(p, "x86_64-pc-linux-gnu");
    if (name == "machine") return string_term(p, "BEAM");
    if (name == "wordsize") return make_small(8);
    if (name == "schedulers" || name == "schedulers_online" || name == "dirty_cpu_schedulers" ||
        name == "dirty_cpu_schedulers_online")
        return make_small(scheduler_count(p));
    if (name == "dirty_io_schedulers") return make_small(10);
    if (name == "logical_processors" || name == "logical_processors_available" || name == "logical_processors_online")
        return make_small(SWord(std::max(1u, std::thread::hardware_concurrency())));
    if (name == "scheduler_id") return make_small(Schedulers::current_index() + 1);
    if (name == "process_limit") return make_small(262144);
    if (name == "process_count") return make_small(SWord(p->vm.process_count()));
    if (name == "atom_limit") return make_small(SWord(AtomTable::MAX_ATOMS));
    if (name == "atom_count") return make_small(SWord(AtomTable::global().count()));
    if (name == "port_limit") return make_small(65536);
    if (name == "port_count") return make_small(SWord(p->vm.port_table->count()));
    if (name == "ets_limit") return make_small(8192);
    if (name == "thread_pool_size") return make_small(1);
    if (name == "context_reductions") return make_small(CONTEXT_REDS);  // a time slice
    if (name == "ets_always_compress") return atoms::false_;           // erl's +ec flag: beamlet has none
    if (name == "emu_flavor") return atom("jit");
    if (name == "emu_type" || name == "build_type") return atom("opt");
    if (name == "smp_support" || name == "threads" || name == "kernel_poll" || name == "time_correction")
        return atoms::true_;
    if (name == "debug_compiled" || name == "lock_checking" || name == "lock_counting") return atoms::false_;
    if (name == "heap_type") return atom("private");
    if (name == "endian") return atom("little");
    if (name == "compat_rel") return make_small(25);
    if (name == "nif_version") return string_term(p, "2.16");
    if (name == "driver_version") return string_term(p, "3.3");
    if (name == "os_type") return pair(p, atom("unix"), atom("linux"));
    if (name == "os_version") {
        int major = 0, minor = 0, release = 0;
        if (FILE* f = std::fopen("/proc/sys/kernel/osrelease", "r")) {
            if (std::fscanf(f, "%d.%d.%d", &major, &minor, &release) < 1) major = 0;
            std::fclose(f);
        }
        return make_tuple_on(p, {make_small(major), make_small(minor), make_small(release)});
    }
    if (name == "hipe_architecture") return atoms::undefined;
    if (name == "fullsweep_after") return pair(p, atom("fullsweep_after"), make_small(65535));
    if (name == "min_heap_size") return pair(p, atom("min_heap_size"), make_small(233));
    if (name == "min_bin_vheap_size") return pair(p, atom("min_bin_vheap_size"), make_small(46422));
    if (name == "max_heap_size") return max_heap_size_term(p, p->vm.max_heap_default());
    if (name == "garbage_collection")
        return list_of(p, {pair(p, atom("max_heap_size"), make_small(SWord(p->vm.max_heap_default().size))),
                           pair(p, atom("min_bin_vheap_size"), make_small(46422)),
                           pair(p, atom("min_heap_size"), make_small(233)),
                           pair(p, atom("fullsweep_after"), make_small(65535))});
    if (name == "time_warp_mode") return atom("no_time_warp");
    if (name == "tolerant_timeofday") return atom("enabled");
    if (name == "trace_control_word") return make_integer(p, matchspec::trace_control_word());
    if (name == "snifs") {
        Term list = NIL;
        for (const Export* e : p->vm.exports.all())
            if (is_otp_bif(e))
                list = make_cons_on(p->alloc(2), make_tuple_on(p, {e->module, e->function, make_small(SWord(e->arity))}), list);
        return list;
    }
    if (name == "multi_scheduling") return p->vm.multi_scheduling_state();
    if (name == "multi_scheduling_blockers" || name == "normal_multi_scheduling_blockers") {
        // (With one scheduler there is nothing to block: OTP lists no one.)
        Term list = NIL;
        if (scheduler_count(p) > 1)
            for (Term pid : p->vm.multi_scheduling_blockers(name == "normal_multi_scheduling_blockers"))
                list = make_cons_on(p->alloc(2), pid, list);
        return list;
    }
    if (name == "scheduler_bind_type") return atom("unbound");
    if (name == "creation") return make_small(0);
    if (name == "start_time") return make_integer(p, p->vm.start_monotonic_ns);  // monotonic_time() at start
    if (name == "message_queue_data") return atom("on_heap");
    if (name == "modified_timing_level") return atoms::undefined;
    if (name == "dist_ctrl") {
        Term list = NIL;
        if (dist::Distribution* d = dist::of(p->vm))
            for (auto& [node, controller] : d->controllers())
                list = make_cons_on(p->alloc(2), make_tuple_on(p, {node, controller}), list);
        return list;
    }
    if (name == "dist_buf_busy_limit") return make_small(1048576);
    if (name == "outstanding_system_requests_limit") return make_small(outstanding_system_requests_limit.load());
    if (name == "system_logger") return system_logger();
    if (name == "cpu_topology") return atoms::undefined;
    if (name == "ethread_info") return ethread_info(p);
    if (name == "heap_sizes") return heap_sizes_term(p);
    if (name == "info" || name == "procs" || name == "loaded" || name == "dist") return make_binary(p, dump_text(p, name));
    if (name == "ets_count") return make_small(SWord(ets_table_count(p->vm)));
    if (is_tuple(item) && tuple_arity(item) == 2 && tuple_element(item, 0) == atom("wordsize") &&
        (tuple_element(item, 1) == atom("internal") || tuple_element(item, 1) == atom("external")))
        return make_small(8);
    if (name == "sequential_tracer") return sequential_tracer_info(p);
    // beamlet allocates with malloc: no alloc_util allocators (erts_debug:alloc_blocks_size/1
    // then answers undefined, as on an erl started with +Mea min).
    if (name == "alloc_util_allocators") return NIL;
    if (name == "allocator") return allocator_info(p);
    // {memory_internal, Ref, Allocators}: each aux work thread answers {Ref, Thread, Info}
    // (erts_internal:no_aux_work_threads/0 - 1 of them, here one). With no alloc_util
    // allocators, fix_alloc is {fix_alloc, false}, as on an erl started with +Mea min.
    if (is_tuple(item) && tuple_arity(item) == 3 && tuple_element(item, 0) == atom("memory_internal")) {
        Term types = tuple_element(item, 2);
        if (!is_any_ref(tuple_element(item, 1)) || !is_proper_list(types)) return p->badarg();
        Term info = NIL;
        for (Term l = types; is_list(l); l = cdr(l))
            if (car(l) == atom("fix_alloc"))
                info = make_cons_on(p->alloc(2), make_tuple_on(p, {atom("fix_alloc"), atoms::false_}), info);
        p->vm.send_message(nullptr, p->id, make_tuple_on(p, {tuple_element(item, 1), make_small(1), info}));
        return atoms::true_;
    }
    if (is_tuple(item) && tuple_arity(item) == 2 && tuple_element(item, 0) == atom("allocator_sizes"))
        return is_list(tuple_element(item, 1)) || is_nil(tuple_element(item, 1)) ? NIL : atoms::false_;
    return p->badarg();
}

// erlang:memory/0,1: the process heaps are measured; the rest is an estimate of the same
// order as OTP's for the same system.
namespace {
struct MemoryFigures {
    std::int64_t processes, atom, binary, code, ets, system;
};

MemoryFigures memory_figures(Process* p) {
    MemoryFigures m{};
    m.processes = std::int64_t(p->vm.process_count()) * 2700;
    m.atom = std::int64_t(AtomTable::global().count()) * 32;
    m.binary = 1 << 20;
    m.code = std::int64_t(p->vm.loaded_modules().size()) * 60000;
    m.ets = 500000;
    m.system = m.atom + m.binary + m.code + m.ets + (8 << 20);
    return m;
}
}  // namespace

Term bif_memory0(Process* p, Term*) {
    MemoryFigures m = memory_figures(p);
    auto item = [&](const char* n, std::int64_t v) { return pair(p, atom(n), make_integer(p, v)); };
    return list_of(p, {item("total", m.processes + m.system), item("processes", m.processes),
                       item("processes_used", m.processes), item("system", m.system), item("atom", m.atom),
                       item("atom_used", m.atom), item("binary", m.binary), item("code", m.code),
                       item("ets", m.ets)});
}

Term bif_memory1(Process* p, Term* a) {
    MemoryFigures m = memory_figures(p);
    auto value = [&](Term t, std::int64_t* out) {
        const std::string n = is_atom(t) ? atom_text(t) : "";
        if (n == "total") *out = m.processes + m.system;
        else if (n == "processes" || n == "processes_used") *out = m.processes;
        else if (n == "system") *out = m.system;
        else if (n == "atom" || n == "atom_used") *out = m.atom;
        else if (n == "binary") *out = m.binary;
        else if (n == "code") *out = m.code;
        else if (n == "ets") *out = m.ets;
        else return false;
        return true;
    };
    std::int64_t v;
    if (is_atom(a[0])) {
        if (!value(a[0], &v)) return p->badarg();
        return make_integer(p, v);
    }
    std::vector<Term> items;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        if (!value(car(l), &v)) return p->badarg();
        items.push_back(pair(p, car(l), make_integer(p, v)));
    }
    if (!is_nil(l)) return p->badarg();
    Term out = NIL;
    for (std::size_t i = items.size(); i-- > 0;) out = make_cons_on(p->alloc(2), items[i], out);
    return out;
}

// erlang:system_flag/2: the flags OTP's libraries set, with OTP's old values.
Term bif_system_flag(Process* p, Term* a) {
    const std::string name = is_atom(a[0]) ? atom_text(a[0]) : "";
    if (name == "backtrace_depth") {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        return make_small(set_backtrace_depth(int(std::min<SWord>(small_value(a[1]), 1 << 20))));
    }
    if (name == "fullsweep_after") {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        return make_small(65535);
    }
    // How many system requests (code purges, literal area releases) may be outstanding at
    // once: beamlet's run to completion without such a queue; the value is kept as OTP keeps
    // it, in 1..2^27-1.
    if (name == "outstanding_system_requests_limit") {
        if (!is_small(a[1]) || small_value(a[1]) < 1 || small_value(a[1]) >= (SWord(1) << 27)) return p->badarg();
        return make_small(outstanding_system_requests_limit.exchange(small_value(a[1])));
    }
    if (name == "min_heap_size") return make_small(233);
    if (name == "min_bin_vheap_size") return make_small(46422);
    if (name == "max_heap_size") {
        MaxHeapSize limit;
        if (!parse_max_heap_size(a[1], p->vm.max_heap_default(), &limit)) return p->badarg();
        Term old = max_heap_size_term(p, p->vm.max_heap_default());
        p->vm.set_max_heap_default(limit);
        return old;
    }
    if (name == "trace_control_word") {
        // An unsigned 32-bit word, as OTP's term_to_Uint32.
        if (!is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > SWord(UINT32_MAX)) return p->badarg();
        return make_integer(p, matchspec::exchange_trace_control_word(std::uint32_t(small_value(a[1]))));
    }
    if (name == "schedulers_online") {
        if (!is_small(a[1]) || small_value(a[1]) < 1 || small_value(a[1]) > scheduler_count(p)) return p->badarg();
        return make_small(scheduler_count(p));
    }
    if (name == "multi_scheduling") {
        bool block = a[1] == atom("block") || a[1] == atom("block_normal");
        bool normal = a[1] == atom("block_normal") || a[1] == atom("unblock_normal");
        if (!block && !normal && a[1] != atom("unblock")) return p->badarg();
        return p->vm.multi_scheduling_change(p, block, normal);
    }
    if (name == "scheduler_wall_time") return atoms::false_;
    if (name == "system_logger") {
        Term previous = set_system_logger(a[1]);
        return previous ? previous : p->badarg();
    }
    if (name == "time_offset") return atom("final");
    if (name == "sequential_tracer") return set_sequential_tracer(p, a[1]);
    if (name == "reset_seq_trace") return reset_seq_trace(p);
    return p->badarg();
}


// The dynamic-trace tag BIFs (DTrace/SystemTap tags): beamlet has no dynamic tracing, so
// there is never a tag, as on an OTP built without it.
Term bif_dt_spread_tag(Process*, Term*) { return NIL; }
Term bif_dt_restore_tag(Process*, Term*) { return atoms::true_; }
Term bif_dt_get_tag(Process*, Term*) { return atoms::undefined; }
Term bif_dt_put_tag(Process*, Term*) { return atoms::undefined; }
Term bif_dt_tag_data_identity(Process*, Term* a) { return a[0]; }

// file:native_name_encoding/0: as erts's default (+fna) decides it, from the locale the VM
// started in: utf8 when its character set is UTF-8, else latin1 (erl under LANG=C takes file
// names and command-line arguments as bytes).
Term bif_file_native_name_encoding(Process*, Term*) {
    static const bool utf8 = [] {
        locale_t locale = ::newlocale(LC_CTYPE_MASK, "", locale_t(0));
        if (!locale) return false;
        bool is_utf8 = std::strcmp(::nl_langinfo_l(CODESET, locale), "UTF-8") == 0;
        ::freelocale(locale);
        return is_utf8;
    }();
    return utf8 ? atom("utf8") : atom("latin1");
}

// io:printable_range/0: the +pc setting, latin1 by default as on OTP.
Term bif_io_printable_range(Process*, Term*) { return atom("latin1"); }

// ---- os ----

Term bif_os_getenv1(Process* p, Term* a) {
    std::string name;
    if (!list_to_bytes(a[0], &name) && !(is_binary(a[0]) && iolist_to_bytes(a[0], &name))) return p->badarg();
    const char* v = std::getenv(name.c_str());
    if (!v) return atoms::false_;
    return string_term(p, v);
}

Term bif_os_env(Process* p, Term*) {
    Term out = NIL;
    std::vector<std::string> entries;
    for (char** e = environ; e && *e; ++e) entries.emplace_back(*e);
    for (std::size_t i = entries.size(); i-- > 0;) {
        std::size_t eq = entries[i].find('=');
        if (eq == std::string::npos) continue;
        Term kv = pair(p, string_term(p, entries[i].substr(0, eq)), string_term(p, entries[i].substr(eq + 1)));
        out = make_cons_on(p->alloc(2), kv, out);
    }
    return out;
}

Term bif_os_putenv(Process* p, Term* a) {
    std::string name, value;
    if (!list_to_bytes(a[0], &name) || !list_to_bytes(a[1], &value) || name.empty() ||
        name.find('=') != std::string::npos)
        return p->badarg();
    static std::mutex env_mutex;
    std::lock_guard lock(env_mutex);
    if (::setenv(name.c_str(), value.c_str(), 1) != 0) return p->badarg();
    return atoms::true_;
}

Term bif_os_unsetenv(Process* p, Term* a) {
    std::string name;
    if (!list_to_bytes(a[0], &name)) return p->badarg();
    ::unsetenv(name.c_str());
    return atoms::true_;
}

// error_logger:warning_map/0: what warning_msg events are mapped to (erl's +W flag:
// warning by default).
Term bif_error_logger_warning_map(Process*, Term*) { return atom("warning"); }

Term bif_os_getpid(Process* p, Term*) { return string_term(p, std::to_string(::getpid())); }

Term bif_os_timestamp(Process* p, Term*) {
    struct timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    std::int64_t us = std::int64_t(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
    return make_tuple_on(p, {make_small(us / 1000000000000), make_small((us / 1000000) % 1000000),
                             make_small(us % 1000000)});
}

Term bif_os_perf_counter0(Process* p, Term*) {
    struct timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return make_integer(p, std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec);
}

Term bif_os_set_signal(Process* p, Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1])) return p->badarg();
    return atoms::ok;
}

// ---- checksums ----

Term bif_crc32_1(Process* p, Term* a) {
    std::string bytes;
    if (!bytes_of(a[0], &bytes)) return p->badarg();
    return make_integer(p, std::int64_t(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), uInt(bytes.size()))));
}

Term bif_crc32_2(Process* p, Term* a) {
    std::string bytes;
    auto start = integer_to_int64(a[0]);
    if (!start || *start < 0 || *start > 0xFFFFFFFFLL || !bytes_of(a[1], &bytes)) return p->badarg();
    return make_integer(p, std::int64_t(crc32(uLong(*start), reinterpret_cast<const Bytef*>(bytes.data()),
                                              uInt(bytes.size()))));
}

Term bif_adler32_1(Process* p, Term* a) {
    std::string bytes;
    if (!bytes_of(a[0], &bytes)) return p->badarg();
    return make_integer(p, std::int64_t(adler32(1, reinterpret_cast<const Bytef*>(bytes.data()), uInt(bytes.size()))));
}

Term bif_adler32_2(Process* p, Term* a) {
    std::string bytes;
    auto start = integer_to_int64(a[0]);
    if (!start || *start < 0 || *start > 0xFFFFFFFFLL || !bytes_of(a[1], &bytes)) return p->badarg();
    return make_integer(p, std::int64_t(adler32(uLong(*start), reinterpret_cast<const Bytef*>(bytes.data()),
                                                uInt(bytes.size()))));
}

}  // namespace beamlet::bif
