// tools/trace_writers.cpp — text, JSON lines, Chrome Trace Event format, sequence diagram and
// flame graph writers for `beamlet trace`.
#include "tools/trace_writers.hpp"

#include <cinttypes>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "bif/term_format.hpp"
#include "tools/svg_render.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::tools {

using namespace vm;

namespace {

// [t] as `~p` prints it, on one line.
std::string show(Term t) { return bif::print_term(t, 1, 1 << 30); }

std::string mfa_text(Term m, Term f, Term a) {
    return atom_text(m) + ":" + atom_text(f) + "/" + (is_small(a) ? std::to_string(small_value(a)) : show(a));
}

// "m:f/a" of {M, F, Args | Arity}.
std::string mfa_of(Term t) {
    if (!is_tuple(t) || tuple_arity(t) != 3 || !is_atom(tuple_element(t, 0)) || !is_atom(tuple_element(t, 1)))
        return show(t);
    Term a = tuple_element(t, 2);
    if (is_list(a) || is_nil(a)) {
        SWord n = 0;
        for (; is_list(a); a = cdr(a)) ++n;
        a = make_small(n);
    }
    return mfa_text(tuple_element(t, 0), tuple_element(t, 1), a);
}

// "m:f(Arg1, Arg2)" of {M, F, Args}, or "m:f/a" for {M, F, Arity}.
std::string call_text(Term t) {
    if (!is_tuple(t) || tuple_arity(t) != 3 || !is_atom(tuple_element(t, 0)) || !is_atom(tuple_element(t, 1)))
        return show(t);
    Term args = tuple_element(t, 2);
    if (!is_list(args) && !is_nil(args)) return mfa_of(t);
    std::string s = atom_text(tuple_element(t, 0)) + ":" + atom_text(tuple_element(t, 1)) + "(";
    for (Term l = args; is_list(l); l = cdr(l)) {
        if (l != args) s += ", ";
        s += show(car(l));
    }
    return s + ")";
}

std::string json_escape(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);  // UTF-8 passes through; Latin-1 bytes above 127 are escaped below
            }
        }
    }
    return out;
}

// ~p output is Latin-1 bytes: as UTF-8 for JSON and SVG.
std::string latin1_to_utf8(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (c < 0x80) {
            out += char(c);
        } else {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::string quoted(const std::string& s) { return "\"" + json_escape(latin1_to_utf8(s)) + "\""; }

// Display names of processes: the registered name, "main", or the initial call; learnt from
// the events (spawn, register) or, the first time a pid is met, from the process itself.
class Names {
public:
    explicit Names(Vm& vm) : m_vm(vm) {}

    const std::string& of(Term who) {
        auto it = m_names.find(who);
        if (it != m_names.end()) return it->second;
        std::string name;
        if (is_pid(who)) {
            if (std::shared_ptr<Process> p = m_vm.lookup_process(who)) {
                if (p->is_main) {
                    name = "main";
                } else {
                    Term reg;
                    {
                        std::lock_guard guard(p->lock);
                        reg = p->registered_name;
                    }
                    if (reg) name = atom_text(reg);
                    else if (p->initial_call[0] && p->initial_call[1] != atoms::apply)  // a fun says nothing
                        name = mfa_text(p->initial_call[0], p->initial_call[1], p->initial_call[2]);
                }
            }
        } else if (is_port(who)) {
            name = "port";
        }
        return m_names.emplace(who, name).first->second;
    }
    // The initial call of a process met in a spawn event, {M, F, Args}.
    void spawned(Term pid, Term mfa) {
        if (!m_names.count(pid)) m_names[pid] = mfa_of(mfa);
    }
    void registered(Term pid, Term name) { m_names[pid] = atom_text(name); }
    // "<0.90.0> main".
    std::string label(Term who) {
        const std::string& n = of(who);
        return n.empty() ? show(who) : show(who) + " " + n;
    }

private:
    Vm& m_vm;
    std::unordered_map<Term, std::string> m_names;
};

// The atoms the writers compare tags with.
struct Tags {
    Term call = atom("call"), return_from = atom("return_from"), exception_from = atom("exception_from"),
         return_to = atom("return_to"), send = atom("send"), send_dead = atom("send_to_non_existing_process"),
         receive = atom("receive"), spawn = atom("spawn"), spawned = atom("spawned"), exit = atom("exit"),
         reg = atom("register"), in = atom("in"), out = atom("out"), in_exiting = atom("in_exiting"),
         out_exiting = atom("out_exiting"), out_exited = atom("out_exited"), seq_trace = atom("seq_trace"),
         gc_minor_start = atom("gc_minor_start"), gc_minor_end = atom("gc_minor_end"),
         gc_major_start = atom("gc_major_start"), gc_major_end = atom("gc_major_end");
    bool is_gc_start(Term t) const { return t == gc_minor_start || t == gc_major_start; }
    bool is_gc_end(Term t) const { return t == gc_minor_end || t == gc_major_end; }
    bool is_return(Term t) const { return t == return_from || t == exception_from; }
};

const Tags& tags() {
    static const Tags t;
    return t;
}

// An output: the VM's standard output (so trace lines and the program's own lines stay in
// order) or a file.
class Output {
public:
    Output(Vm& vm, const std::string& path, std::string* error) : m_vm(vm), m_path(path) {
        if (path.empty() || path == "-") return;
        m_file = std::fopen(path.c_str(), "w");
        if (!m_file) *error = "cannot write " + path;
        else std::setvbuf(m_file, nullptr, _IOFBF, 1 << 20);
    }
    ~Output() {
        if (m_file) std::fclose(m_file);
    }
    bool ok() const { return m_path.empty() || m_path == "-" || m_file; }
    void write(const std::string& s) {
        if (m_file) std::fwrite(s.data(), 1, s.size(), m_file);
        else m_vm.write_stdout(s);
    }
    void flush() {
        if (m_file) std::fflush(m_file);
        else m_vm.flush_stdout();
    }
    const std::string& path() const { return m_path; }
    bool to_stdout() const { return !m_file; }

private:
    Vm& m_vm;
    std::string m_path;
    FILE* m_file = nullptr;
};

// What the streaming writers share: the output, names, a buffer, call depths.
class StreamWriter : public TraceWriter {
public:
    StreamWriter(Vm& vm, const std::string& path, std::string* error) : m_out(vm, path, error), m_names(vm) {}
    bool ok() const { return m_out.ok(); }
    void raw(const std::string& text) override {
        std::lock_guard guard(m_mutex);
        m_buffer += text;
    }
    void flush() override {
        std::lock_guard guard(m_mutex);
        m_out.write(m_buffer);
        m_buffer.clear();
        m_out.flush();
    }
    std::string finish() override {
        flush();
        return m_out.to_stdout() ? "" : "written to " + m_out.path();
    }

protected:
    void add(const std::string& s) {
        std::lock_guard guard(m_mutex);
        m_buffer += s;
        if (m_buffer.size() > (1u << 20)) {
            m_out.write(m_buffer);
            m_buffer.clear();
        }
    }
    Output m_out;
    Names m_names;
    std::mutex m_mutex;
    std::string m_buffer;
};

// ---- text -----------------------------------------------------------------------------------------

class TextWriter final : public StreamWriter {
public:
    using StreamWriter::StreamWriter;

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        if (r.tag == t.spawned) m_names.spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) m_names.spawned(r.term, r.extra);
        if (r.tag == t.reg) m_names.registered(r.tracee, r.term);
        std::size_t& depth = m_depth[r.tracee];
        std::string what;
        std::size_t indent = depth;
        if (r.tag == t.call) {
            what = "call " + call_text(r.term);
            if (m_calls_return) ++depth;  // each call is paired with its return
        } else if (r.tag == t.return_from) {
            if (depth) --depth;
            indent = depth;
            what = "returned from " + mfa_of(r.term) + " -> " + show(r.extra);
        } else if (r.tag == t.exception_from) {
            if (depth) --depth;
            indent = depth;
            std::string reason = is_tuple(r.extra) && tuple_arity(r.extra) == 2
                                     ? show(tuple_element(r.extra, 0)) + ":" + show(tuple_element(r.extra, 1))
                                     : show(r.extra);
            what = "exception from " + mfa_of(r.term) + " -> " + reason;
        } else if (r.tag == t.return_to) {
            what = "returned to " + mfa_of(r.term);
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            what = std::string(r.tag == t.send ? "send " : "send (to a dead process) ") + show(r.term) + " to " +
                   m_names.label(r.extra);
        } else if (r.tag == t.receive) {
            what = "receive " + show(r.term);
        } else if (r.tag == t.spawn) {
            what = "spawn " + show(r.term) + " as " + call_text(r.extra);
        } else if (r.tag == t.spawned) {
            what = "spawned by " + m_names.label(r.term) + " as " + call_text(r.extra);
        } else if (r.tag == t.seq_trace) {
            what = "seq_trace " + show(r.term);
        } else {
            what = atom_text(r.tag) + " " + show(r.term) + (r.extra ? " " + show(r.extra) : "");
        }
        if (indent > 40) indent = 40;
        char head[96];
        std::snprintf(head, sizeof head, "%11.6f ", double(r.ns) / 1e9);
        std::string who = r.tag == t.seq_trace ? "seq_trace " + show(r.tracee) : m_names.label(r.tracee);
        std::string line = head;
        line += who;
        if (who.size() < 28) line.append(28 - who.size(), ' ');
        line += ' ';
        line.append(2 * indent, ' ');
        line += what;
        line += '\n';
        add(line);
    }

    void calls_return(bool on) override { m_calls_return = on; }

private:
    std::unordered_map<Term, std::size_t> m_depth;
    bool m_calls_return = false;  // calls indent by depth only when each has its return
};

// ---- JSON lines -----------------------------------------------------------------------------------

class JsonWriter final : public StreamWriter {
public:
    using StreamWriter::StreamWriter;

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        if (r.tag == t.spawned) m_names.spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) m_names.spawned(r.term, r.extra);
        if (r.tag == t.reg) m_names.registered(r.tracee, r.term);
        char ts[40];
        std::snprintf(ts, sizeof ts, "%.6f", double(r.ns) / 1e9);
        std::string line = std::string("{\"t\":") + ts + ",\"" + (r.tag == t.seq_trace ? "label" : "pid") +
                           "\":" + quoted(show(r.tracee));
        if (r.tag != t.seq_trace) line += ",\"name\":" + quoted(m_names.of(r.tracee));
        line += ",\"event\":" + quoted(atom_text(r.tag));
        if (r.tag == t.call) {
            line += ",\"mfa\":" + quoted(mfa_of(r.term));
            Term args = is_tuple(r.term) && tuple_arity(r.term) == 3 ? tuple_element(r.term, 2) : NIL;
            if (is_list(args) || is_nil(args)) {
                line += ",\"args\":[";
                for (Term l = args; is_list(l); l = cdr(l)) line += (l != args ? "," : "") + quoted(show(car(l)));
                line += "]";
            }
        } else if (r.tag == t.return_from || r.tag == t.return_to) {
            line += ",\"mfa\":" + quoted(mfa_of(r.term));
            if (r.extra) line += ",\"value\":" + quoted(show(r.extra));
        } else if (r.tag == t.exception_from) {
            line += ",\"mfa\":" + quoted(mfa_of(r.term));
            if (is_tuple(r.extra) && tuple_arity(r.extra) == 2)
                line += ",\"class\":" + quoted(show(tuple_element(r.extra, 0))) +
                        ",\"reason\":" + quoted(show(tuple_element(r.extra, 1)));
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            line += ",\"msg\":" + quoted(show(r.term)) + ",\"to\":" + quoted(show(r.extra));
        } else if (r.tag == t.receive) {
            line += ",\"msg\":" + quoted(show(r.term));
        } else {
            line += ",\"term\":" + quoted(show(r.term));
            if (r.extra) line += ",\"extra\":" + quoted(show(r.extra));
        }
        line += "}\n";
        add(line);
    }
};

// ---- Chrome Trace Event format --------------------------------------------------------------------

// Sends waiting for their receive (flow arrows), per receiver and message text.
class FlowMatcher {
public:
    // A send of [msg] to [to]: its flow id.
    std::uint64_t sent(Term to, const std::string& msg) {
        std::uint64_t id = ++m_next;
        m_pending[{to, msg}].push_back(id);
        return id;
    }
    // A receive of [msg] by [who]: the flow id of the oldest matching send, or 0.
    std::uint64_t received(Term who, const std::string& msg) {
        auto it = m_pending.find({who, msg});
        if (it == m_pending.end() || it->second.empty()) return 0;
        std::uint64_t id = it->second.front();
        it->second.pop_front();
        if (it->second.empty()) m_pending.erase(it);
        return id;
    }

private:
    std::map<std::pair<Term, std::string>, std::deque<std::uint64_t>> m_pending;
    std::uint64_t m_next = 0;
};

class ChromeWriter final : public StreamWriter {
public:
    ChromeWriter(Vm& vm, const std::string& path, std::string* error) : StreamWriter(vm, path, error) {
        // The array's closing bracket is optional in the format: the file is valid even if
        // the run is cut short.
        add("[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"beamlet\"}}");
    }

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        if (r.tag == t.spawned) m_names.spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) m_names.spawned(r.term, r.extra);
        if (r.tag == t.reg) m_names.registered(r.tracee, r.term);
        m_last_ns = r.ns;
        if (r.tag == t.seq_trace) return seq_trace(r);
        Word tid = thread_of(r.tracee);
        char ts[40];
        std::snprintf(ts, sizeof ts, "%.3f", double(r.ns) / 1e3);
        std::string common = std::string(",\"pid\":1,\"tid\":") + std::to_string(tid) + ",\"ts\":" + ts;
        if (r.tag == t.call) {
            m_open[tid].push_back(mfa_of(r.term));
            add(",\n{\"name\":" + quoted(mfa_of(r.term)) + ",\"cat\":\"call\",\"ph\":\"B\"" + common +
                ",\"args\":{\"call\":" + quoted(call_text(r.term)) + "}}");
        } else if (t.is_return(r.tag)) {
            std::vector<std::string>& open = m_open[tid];
            if (open.empty()) return;  // a return whose call came before the trace
            open.pop_back();
            std::string key = r.tag == t.return_from ? "value" : "exception";
            add(",\n{\"ph\":\"E\"" + common + ",\"args\":{\"" + key + "\":" + quoted(show(r.extra)) + "}}");
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            std::string msg = show(r.term);
            add(",\n{\"name\":\"send\",\"cat\":\"message\",\"ph\":\"i\",\"s\":\"t\"" + common + ",\"args\":{\"msg\":" +
                quoted(msg) + ",\"to\":" + quoted(m_names.label(r.extra)) + "}}");
            if (is_pid(r.extra)) {
                std::uint64_t id = m_flows.sent(r.extra, msg);
                add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":" + std::to_string(id) + common +
                    "}");
            }
        } else if (r.tag == t.receive) {
            std::string msg = show(r.term);
            add(",\n{\"name\":\"receive\",\"cat\":\"message\",\"ph\":\"i\",\"s\":\"t\"" + common +
                ",\"args\":{\"msg\":" + quoted(msg) + "}}");
            if (std::uint64_t id = m_flows.received(r.tracee, msg))
                add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" + std::to_string(id) +
                    common + "}");
        } else if (r.tag == t.in || r.tag == t.in_exiting) {
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            m_running[r.tracee] = true;
            add(",\n{\"name\":\"running\",\"cat\":\"scheduling\",\"ph\":\"B\"" + sched + ",\"args\":{\"in\":" +
                quoted(show(r.term)) + ",\"scheduler\":" + std::to_string(r.scheduler) + "}}");
        } else if (r.tag == t.out || r.tag == t.out_exiting || r.tag == t.out_exited) {
            if (!m_running[r.tracee]) return;
            m_running[r.tracee] = false;
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            add(",\n{\"ph\":\"E\"" + sched + ",\"args\":{\"out\":" + quoted(show(r.term)) + "}}");
        } else if (t.is_gc_start(r.tag) || t.is_gc_end(r.tag)) {
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            if (t.is_gc_start(r.tag)) {
                m_in_gc[r.tracee] = true;
                add(",\n{\"name\":" + quoted(atom_text(r.tag) == "gc_major_start" ? "major gc" : "minor gc") +
                    ",\"cat\":\"gc\",\"ph\":\"B\"" + sched + "}");
            } else if (m_in_gc[r.tracee]) {
                m_in_gc[r.tracee] = false;
                add(",\n{\"ph\":\"E\"" + sched + ",\"args\":{\"info\":" + quoted(show(r.term)) + "}}");
            }
        } else {
            add(",\n{\"name\":" + quoted(atom_text(r.tag)) + ",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\"" + common +
                ",\"args\":{\"term\":" + quoted(show(r.term)) + (r.extra ? ",\"extra\":" + quoted(show(r.extra)) : "") +
                "}}");
        }
    }

    std::string finish() override {
        // Slices still open (a call that never returned, a process still running) end at
        // the last event, so that the viewer draws them.
        char ts[40];
        std::snprintf(ts, sizeof ts, "%.3f", double(m_last_ns) / 1e3);
        for (auto& [tid, open] : m_open)
            for (std::size_t i = 0; i < open.size(); ++i)
                add(",\n{\"ph\":\"E\",\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"ts\":" + ts + "}");
        for (auto& [who, running] : m_running)
            if (running) add(",\n{\"ph\":\"E\",\"pid\":1,\"tid\":" + std::to_string(sched_thread_of(who)) + ",\"ts\":" + ts + "}");
        add("\n]\n");
        return StreamWriter::finish();
    }

private:
    // A thread per process (its pid's number), named on first sight.
    Word thread_of(Term who) {
        Word tid = is_pid(who) ? pid_number(who) : is_port(who) ? 1000000000 + port_number(who) : 999999999;
        if (m_named.insert(tid).second)
            add(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(tid) +
                ",\"args\":{\"name\":" + quoted(m_names.label(who)) + "}}");
        return tid;
    }
    // Scheduling and collections on a second thread of the process (they do not nest with
    // its calls).
    Word sched_thread_of(Term who) {
        Word tid = 2000000000 + thread_of(who);
        if (m_named.insert(tid).second)
            add(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(tid) +
                ",\"args\":{\"name\":" + quoted(m_names.label(who) + " (scheduling)") + "}}");
        return tid;
    }
    void seq_trace(const TraceRecord& r) {
        char ts[40];
        std::snprintf(ts, sizeof ts, "%.3f", double(r.ns) / 1e3);
        add(",\n{\"name\":\"seq_trace\",\"cat\":\"seq_trace\",\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":0,\"ts\":" +
            std::string(ts) + ",\"args\":{\"label\":" + quoted(show(r.tracee)) + ",\"info\":" + quoted(show(r.term)) + "}}");
    }

    std::map<Word, std::vector<std::string>> m_open;  // calls without their returns yet
    std::unordered_map<Term, bool> m_running, m_in_gc;
    std::set<Word> m_named;
    FlowMatcher m_flows;
    std::int64_t m_last_ns = 0;
};

// ---- pictures ---------------------------------------------------------------------------------

class PictureWriter : public TraceWriter {
public:
    PictureWriter(Vm& vm, const std::string& path, std::string* error) : m_vm(vm), m_path(path), m_names(vm) {
        // Checked now, written at the end.
        if (FILE* f = std::fopen(path.c_str(), "w")) std::fclose(f);
        else *error = "cannot write " + path;
    }
    void raw(const std::string& text) override { m_vm.write_stdout(text); }
    void flush() override {}

protected:
    bool write_file(const std::string& path, const std::string& text) {
        FILE* f = std::fopen(path.c_str(), "w");
        if (!f) return false;
        std::fwrite(text.data(), 1, text.size(), f);
        return std::fclose(f) == 0;
    }
    Vm& m_vm;
    std::string m_path;
    Names m_names;
};

// A sequence diagram of the messages: sends matched with their receives (or seq_trace's send
// and 'receive' events, matched by serial).
class SequenceWriter final : public PictureWriter {
public:
    using PictureWriter::PictureWriter;
    static constexpr std::size_t MAX_MESSAGES = 5000;

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        if (r.tag == t.spawned) m_names.spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) m_names.spawned(r.term, r.extra);
        if (r.tag == t.reg) m_names.registered(r.tracee, r.term);
        double us = double(r.ns) / 1e3;
        if ((r.tag == t.send || r.tag == t.send_dead) && m_messages.size() < MAX_MESSAGES) {
            std::string msg = show(r.term);
            m_messages.push_back({us, -1, latin1_to_utf8(m_names.label(r.tracee)), latin1_to_utf8(m_names.label(r.extra)),
                                  latin1_to_utf8(msg)});
            m_waiting[{r.extra, msg}].push_back(m_messages.size() - 1);
        } else if (r.tag == t.receive) {
            auto it = m_waiting.find({r.tracee, show(r.term)});
            if (it != m_waiting.end() && !it->second.empty()) {
                m_messages[it->second.front()].received_us = us;
                it->second.pop_front();
            }
        } else if (r.tag == t.seq_trace && is_tuple(r.term) && tuple_arity(r.term) == 5) {
            // {Kind, {LastCnt, Serial}, From, To, Msg}
            Term kind = tuple_element(r.term, 0), serial = tuple_element(r.term, 1);
            std::string key = show(serial);
            if (kind == t.send && m_messages.size() < MAX_MESSAGES) {
                m_messages.push_back({us, -1, latin1_to_utf8(m_names.label(tuple_element(r.term, 2))),
                                      latin1_to_utf8(m_names.label(tuple_element(r.term, 3))),
                                      latin1_to_utf8(show(tuple_element(r.term, 4)))});
                m_serials[key] = m_messages.size() - 1;
            } else if (kind == t.receive) {
                if (auto it = m_serials.find(key); it != m_serials.end()) m_messages[it->second].received_us = us;
            }
        }
    }

    std::string finish() override {
        std::string title = "beamlet trace: " + std::to_string(m_messages.size()) + " messages";
        if (!write_file(m_path, sequence_diagram_svg(m_messages, {}, title))) return "cannot write " + m_path;
        return "sequence diagram written to " + m_path;
    }

private:
    std::vector<SequenceMessage> m_messages;
    std::map<std::pair<Term, std::string>, std::deque<std::size_t>> m_waiting;
    std::map<std::string, std::size_t> m_serials;
};

// A flame graph of where time went: per process, the stack of traced calls open at each
// moment (calls and their returns), charged the time until the process's next event.
class FlameWriter final : public PictureWriter {
public:
    using PictureWriter::PictureWriter;

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        if (r.tag == t.spawned) m_names.spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) m_names.spawned(r.term, r.extra);
        if (r.tag != t.call && !t.is_return(r.tag)) return;
        Proc& p = m_procs[r.tracee];
        if (!p.stack.empty()) m_folded[key(r.tracee, p)] += std::uint64_t(std::max<std::int64_t>(0, r.ns - p.last_ns) / 1000);
        p.last_ns = r.ns;
        if (r.tag == t.call) p.stack.push_back(mfa_of(r.term));
        else if (!p.stack.empty()) p.stack.pop_back();
    }

    std::string finish() override {
        std::string folded;
        for (auto& [stack, us] : m_folded)
            if (us) folded += stack + " " + std::to_string(us) + "\n";
        std::map<std::string, std::uint64_t> weights;
        for (auto& [stack, us] : m_folded)
            if (us) weights[stack] = us;
        bool ok = write_file(m_path + ".folded", folded) &&
                  write_file(m_path, flame_graph_svg(weights, "beamlet trace: time in traced calls", "us"));
        if (!ok) return "cannot write " + m_path;
        return "flame graph written to " + m_path + " (folded stacks: " + m_path + ".folded)";
    }

private:
    struct Proc {
        std::vector<std::string> stack;
        std::int64_t last_ns = 0;
    };
    std::string key(Term who, const Proc& p) {
        std::string k = latin1_to_utf8(m_names.label(who));
        for (const std::string& f : p.stack) k += ";" + f;
        return k;
    }
    std::unordered_map<Term, Proc> m_procs;
    std::map<std::string, std::uint64_t> m_folded;
};

}  // namespace

std::unique_ptr<TraceWriter> make_trace_writer(Vm& vm, const CliTraceOptions& options, std::string* error) {
    std::unique_ptr<TraceWriter> w;
    switch (options.format) {
    case TraceFormat::Text: w = std::make_unique<TextWriter>(vm, options.output, error); break;
    case TraceFormat::Json: w = std::make_unique<JsonWriter>(vm, options.output, error); break;
    case TraceFormat::Chrome:
        w = std::make_unique<ChromeWriter>(vm, options.output.empty() ? "trace.json" : options.output, error);
        break;
    case TraceFormat::Sequence:
        w = std::make_unique<SequenceWriter>(vm, options.output.empty() ? "sequence.svg" : options.output, error);
        break;
    case TraceFormat::Flame:
        w = std::make_unique<FlameWriter>(vm, options.output.empty() ? "flame.svg" : options.output, error);
        break;
    }
    if (!error->empty()) return nullptr;
    return w;
}

}  // namespace beamlet::tools
