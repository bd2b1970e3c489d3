// tracing/native_tracers.cpp — beamlet's built-in native tracer modules.
//
// beamlet_file_tracer: {beamlet_file_tracer, Path} appends every event to the file Path as a
// compact binary record, with no Erlang term or message made per event:
//
//   u32 length of what follows (little endian)
//   u64 monotonic nanoseconds
//   u64 tracee (the pid's or port's number; 0 for seq_trace, whose tracee is its label)
//   u8  tag length, then the tag's name
//   the trace term, then the Opts' extra (or []), each in the external term format
//
// tools/trace_file.py reads the files back. Each file is opened on first use and written
// through a buffer; writes of different threads are serialised per file.
#include "tracing/native_tracers.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "vm/atom_table.hpp"
#include "vm/external_term.hpp"
#include "vm/map.hpp"

namespace beamlet::tracing {

using namespace vm;

namespace {

// A path given as a flat string, binary or atom.
bool path_of(Term t, std::string* out) {
    out->clear();
    if (is_atom(t)) {
        *out = atom_text(t);
        return true;
    }
    for (; is_list(t); t = cdr(t)) {
        if (!is_small(car(t))) return false;
        out->push_back(char(small_value(car(t))));
    }
    return is_nil(t) && !out->empty();
}

class FileTracer final : public NativeTracer {
public:
    TracerVerdict enabled(Term state, Term, Term) const override {
        return file_for(state) ? TracerVerdict::Trace : TracerVerdict::Remove;
    }

    void trace(Term state, Term tag, Term tracee, Term term, const TracerOpts& opts) const override {
        Sink* sink = file_for(state);
        if (!sink) return;
        std::string record(4, '\0');
        auto put64 = [&](std::uint64_t v) {
            for (int i = 0; i < 8; ++i) record.push_back(char((v >> (8 * i)) & 0xFF));
        };
        put64(std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now().time_since_epoch()).count()));
        put64(is_pid(tracee) ? pid_number(tracee) : is_port(tracee) ? port_number(tracee) : 0);
        const std::string& name = atom_text(tag);
        record.push_back(char(std::min<std::size_t>(name.size(), 255)));
        record.append(name, 0, std::min<std::size_t>(name.size(), 255));
        EncodeOptions plain;
        encode_external(term, plain, &record);
        encode_external(opts.extra ? opts.extra : NIL, plain, &record);
        std::uint32_t n = std::uint32_t(record.size() - 4);
        for (int i = 0; i < 4; ++i) record[std::size_t(i)] = char((n >> (8 * i)) & 0xFF);
        std::lock_guard lock(sink->mutex);
        std::fwrite(record.data(), 1, record.size(), sink->file);
    }

    void flush() const {
        std::lock_guard lock(m_mutex);
        for (auto& [path, sink] : m_sinks) {
            std::lock_guard sink_lock(sink->mutex);
            if (sink->file) std::fflush(sink->file);
        }
    }

    ~FileTracer() override {
        for (auto& [path, sink] : m_sinks)
            if (sink->file) std::fclose(sink->file);
    }

private:
    struct Sink {
        std::mutex mutex;
        FILE* file = nullptr;
    };

    Sink* file_for(Term state) const {
        std::string path;
        if (!path_of(state, &path)) return nullptr;
        std::lock_guard lock(m_mutex);
        std::unique_ptr<Sink>& sink = m_sinks[path];
        if (!sink) {
            sink = std::make_unique<Sink>();
            sink->file = std::fopen(path.c_str(), "ab");
            if (sink->file) std::setvbuf(sink->file, nullptr, _IOFBF, 1 << 16);
        }
        return sink->file ? sink.get() : nullptr;
    }

    mutable std::mutex m_mutex;
    mutable std::map<std::string, std::unique_ptr<Sink>> m_sinks;
};

FileTracer& the_file_tracer() {
    static FileTracer file;
    return file;
}

// The native tracers tools/ registered.
struct Registry {
    std::mutex mutex;
    std::map<Term, const NativeTracer*> tracers;
};

Registry& registry() {
    static Registry r;
    return r;
}

}  // namespace

const NativeTracer* find_native_tracer(Term module) {
    static const Term name = atom("beamlet_file_tracer");
    if (module == name) return &the_file_tracer();
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.tracers.find(module);
    return it == r.tracers.end() ? nullptr : it->second;
}

void register_native_tracer(Term module, const NativeTracer* tracer) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (tracer) r.tracers[module] = tracer;
    else r.tracers.erase(module);
}

void flush_native_tracers() { the_file_tracer().flush(); }

const NativeTracer& file_tracer() { return the_file_tracer(); }

Term call_native_enabled(const NativeTracer& tracer, Term* args) {  // enabled(Tag, State, Tracee)
    switch (tracer.enabled(args[1], args[0], args[2])) {
    case TracerVerdict::Trace: return atom("trace");
    case TracerVerdict::Discard: return atom("discard");
    case TracerVerdict::Remove: break;
    }
    return atom("remove");
}

Term call_native_trace(const NativeTracer& tracer, Term* args) {  // trace(Tag, State, Tracee, Term, Opts)
    TracerOpts opts;
    if (is_map(args[4])) {
        if (const Term* extra = map_lookup(args[4], atom("extra"))) opts.extra = *extra;
        if (const Term* result = map_lookup(args[4], atom("match_spec_result"))) opts.match_spec_result = *result;
    }
    tracer.trace(args[1], args[0], args[2], args[3], opts);
    return atoms::ok;
}

}  // namespace beamlet::tracing
