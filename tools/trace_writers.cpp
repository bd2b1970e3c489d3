// tools/trace_writers.cpp — text, JSON lines, Chrome Trace Event format, sequence diagram and
// flame graph writers for `beamlet trace`.
#include "tools/trace_writers.hpp"

#include <charconv>
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
#include "vm/binary.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::tools {

using namespace vm;

namespace {

// How the writers print terms: as `~P` with the --depth limit, on one line.
class Printer {
public:
    explicit Printer(int depth) : m_depth(depth) {}

    std::string show(Term t) const {
        std::string out;
        show_to(out, t);
        return out;
    }
    std::string mfa(Term t) const {
        std::string out;
        mfa_to(out, t);
        return out;
    }
    std::string call(Term t) const {
        std::string out;
        call_to(out, t);
        return out;
    }

    // Appending to [out] (the writers' hot path: no string made per term).
    void show_to(std::string& out, Term t) const {
        if (is_small(t)) {  // the commonest argument, quickly
            char buf[24];
            out.append(buf, std::to_chars(buf, buf + sizeof buf, small_value(t)).ptr);
        } else {
            out += bif::print_term(t, 1, 1 << 30, m_depth);
        }
    }
    // "m:f/a" of {M, F, Args | Arity}.
    void mfa_to(std::string& out, Term t) const {
        if (!is_tuple(t) || tuple_arity(t) != 3 || !is_atom(tuple_element(t, 0)) || !is_atom(tuple_element(t, 1)))
            return show_to(out, t);
        Term a = tuple_element(t, 2);
        if (is_list(a) || is_nil(a)) {
            SWord n = 0;
            for (; is_list(a); a = cdr(a)) ++n;
            a = make_small(n);
        }
        out += atom_text(tuple_element(t, 0));
        out += ':';
        out += atom_text(tuple_element(t, 1));
        out += '/';
        show_to(out, a);
    }
    // "m:f(Arg1, Arg2)" of {M, F, Args}, or "m:f/a" for {M, F, Arity}.
    void call_to(std::string& out, Term t) const {
        if (!is_tuple(t) || tuple_arity(t) != 3 || !is_atom(tuple_element(t, 0)) || !is_atom(tuple_element(t, 1)))
            return show_to(out, t);
        Term args = tuple_element(t, 2);
        if (!is_list(args) && !is_nil(args)) return mfa_to(out, t);
        out += atom_text(tuple_element(t, 0));
        out += ':';
        out += atom_text(tuple_element(t, 1));
        out += '(';
        for (Term l = args; is_list(l); l = cdr(l)) {
            if (l != args) out += ", ";
            show_to(out, car(l));
        }
        out += ')';
    }

    // What a call's match spec added to its event ({message, ...}): a caller {M, F, A} as
    // "m:f/a", a process dump (stack) as the functions of its stack dump, innermost first; a
    // tuple of those (caller and stack) element by element; anything else as ~P.
    std::string call_message(Term t) const {
        if (is_binary(t)) return "stack " + stack_of_dump(binary_text(t));
        if (t == atoms::undefined) return "caller undefined";
        if (is_tuple(t) && tuple_arity(t) == 3 && is_atom(tuple_element(t, 0)) && is_atom(tuple_element(t, 1)) &&
            is_small(tuple_element(t, 2)))
            return "caller " + mfa(t);
        if (is_tuple(t) && tuple_arity(t) == 2) return call_message(tuple_element(t, 0)) + "; " + call_message(tuple_element(t, 1));
        return "message " + show(t);
    }

private:
    static std::string binary_text(Term bin) {
        std::string text;
        iolist_bytes(bin, &text);
        return text;
    }
    // "m:f/a <- m:f/a <- ..." of the "Return addr 0x... (m:f/a + N)" lines of a process dump.
    static std::string stack_of_dump(const std::string& dump) {
        std::string out;
        std::size_t at = 0;
        while ((at = dump.find("Return addr ", at)) != std::string::npos) {
            std::size_t open = dump.find('(', at), close = dump.find(" + ", open);
            if (open == std::string::npos || close == std::string::npos) break;
            out += (out.empty() ? "" : " <- ") + dump.substr(open + 1, close - open - 1);
            at = close;
        }
        return out.empty() ? "[]" : out;
    }

    int m_depth;  // -1: no limit
};

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

// [ns] divided by [unit] with [decimals] decimals ("12.345"): integer arithmetic, as printf's
// floating point is slow by the million.
std::string fixed_point(std::int64_t ns, std::int64_t unit, int decimals) {
    if (ns < 0) ns = 0;
    char buf[32];
    char* end = std::to_chars(buf, buf + sizeof buf, ns / unit).ptr;
    *end++ = '.';
    std::int64_t frac = ns % unit;
    for (std::int64_t scale = unit / 10; decimals-- > 0; scale /= 10) {
        *end++ = char('0' + frac / scale);
        frac %= scale;
    }
    return std::string(buf, end);
}
// Microseconds with three decimals: the Trace Event format's time stamps.
std::string microseconds(std::int64_t ns) { return fixed_point(ns, 1000, 3); }
// Seconds with six decimals: text and JSON lines.
std::string seconds(std::int64_t ns) { return fixed_point(ns, 1000000000, 6); }

// [s] (Latin-1, as ~p prints) as a JSON string, appended to [out] in one pass.
void append_quoted(std::string& out, std::string_view s) {
    out += '"';
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
            } else if (c < 0x80) {
                out += char(c);
            } else {
                out += char(0xC0 | (c >> 6));
                out += char(0x80 | (c & 0x3F));
            }
        }
    }
    out += '"';
}

std::string quoted(const std::string& s) {
    std::string out;
    append_quoted(out, s);
    return out;
}

// seq_trace's {Kind, {LastCnt, Serial}, From, To, Message} (the fourth element of its event).
struct SeqInfo {
    Term kind = 0, serial = 0, from = 0, to = 0, message = 0;

    static bool parse(Term info, SeqInfo* out) {
        if (!is_tuple(info) || tuple_arity(info) != 5) return false;
        Term serial = tuple_element(info, 1);
        if (!is_tuple(serial) || tuple_arity(serial) != 2) return false;
        *out = {tuple_element(info, 0), tuple_element(serial, 1), tuple_element(info, 2), tuple_element(info, 3),
                tuple_element(info, 4)};
        return true;
    }
};

// The atoms the writers compare tags with.
struct Tags {
    Term call = atom("call"), return_from = atom("return_from"), exception_from = atom("exception_from"),
         return_to = atom("return_to"), send = atom("send"), send_dead = atom("send_to_non_existing_process"),
         receive = atom("receive"), spawn = atom("spawn"), spawned = atom("spawned"), exit = atom("exit"),
         reg = atom("register"), in = atom("in"), out = atom("out"), in_exiting = atom("in_exiting"),
         out_exiting = atom("out_exiting"), out_exited = atom("out_exited"), seq_trace = atom("seq_trace"),
         gc_minor_start = atom("gc_minor_start"), gc_minor_end = atom("gc_minor_end"),
         gc_major_start = atom("gc_major_start"), gc_major_end = atom("gc_major_end"), print = atom("print");
    bool is_gc_start(Term t) const { return t == gc_minor_start || t == gc_major_start; }
    bool is_gc_end(Term t) const { return t == gc_minor_end || t == gc_major_end; }
    bool is_return(Term t) const { return t == return_from || t == exception_from; }
};

const Tags& tags() {
    static const Tags t;
    return t;
}

}  // namespace

std::optional<std::string> process_name(Vm& vm, Term pid) {
    std::shared_ptr<Process> p = vm.lookup_process(pid);
    if (!p) return std::nullopt;
    if (p->is_main) return "main";
    Term reg;
    {
        std::lock_guard guard(p->lock);
        reg = p->registered_name;
    }
    if (reg) return atom_text(reg);
    if (p->initial_call[0] && p->initial_call[1] != atoms::apply && is_small(p->initial_call[2]))  // a fun says nothing
        return atom_text(p->initial_call[0]) + ":" + atom_text(p->initial_call[1]) + "/" +
               std::to_string(small_value(p->initial_call[2]));
    return "";
}

namespace {

// Display names of processes: the registered name, "main", or the initial call; learnt from
// the events (spawn, register, the names found when the event was captured).
class Names {
public:
    explicit Names(Printer print) : m_print(print) {}

    // The name known for [who] so far (empty: none). Names come with the events, found on the
    // tracing threads in program order, so the same run names the same way every time.
    const std::string& of(Term who) {
        static const std::string none, port = "port";
        if (is_port(who)) return port;
        auto it = m_names.find(who);
        return it == m_names.end() ? none : it->second;
    }
    // erlang:apply(Fun, Args), which says nothing of the process.
    static bool is_fun_apply(Term mfa) {
        return is_tuple(mfa) && tuple_arity(mfa) == 3 && tuple_element(mfa, 0) == atoms::erlang &&
               tuple_element(mfa, 1) == atoms::apply;
    }
    // What [r] tells of names: spawns, registrations, and the capturing thread's findings.
    void learn(const TraceRecord& r) {
        const Tags& t = tags();
        for (const auto& [pid, name] : r.names)
            if (std::string& known = m_names[pid]; known.empty()) known = name;
        if (r.tag == t.spawned) spawned(r.tracee, r.extra);
        if (r.tag == t.spawn) spawned(r.term, r.extra);
        if (r.tag == t.reg) m_names[r.tracee] = atom_text(r.term);
    }
    // The initial call of a process met in a spawn event, {M, F, Args}.
    void spawned(Term pid, Term mfa) {
        std::string& name = m_names[pid];
        if (name.empty() && !is_fun_apply(mfa)) name = m_print.mfa(mfa);
    }
    // "<0.90.0> main".
    std::string label(Term who) {
        std::string out;
        label_to(out, who);
        return out;
    }
    void label_to(std::string& out, Term who) {
        m_print.show_to(out, who);
        if (const std::string& n = of(who); !n.empty()) {
            out += ' ';
            out += n;
        }
    }

private:
    Printer m_print;
    // By pid (local ones, and other nodes' stable copies: tools/cli_trace.cpp), port or name.
    std::unordered_map<Term, std::string> m_names;
};


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
    StreamWriter(Vm& vm, Printer print, const std::string& path, std::string* error)
        : m_print(print), m_out(vm, path, error), m_names(print) {}
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
    Printer m_print;
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
        m_names.learn(r);
        std::size_t& depth = m_depth[r.tracee];
        bool call = r.tag == t.call, returned = t.is_return(r.tag);
        if (returned && depth) --depth;
        std::size_t indent = std::min<std::size_t>(depth, 40);
        if (call && m_calls_return) ++depth;  // each call is paired with its return
        // "   0.012345 <0.90.0> name          " then the indentation, then what happened.
        std::string& line = m_line;
        line.clear();
        std::string time = seconds(r.ns);
        if (time.size() < 11) line.append(11 - time.size(), ' ');
        line += time;
        line += ' ';
        std::size_t who_at = line.size();
        m_names.label_to(line, r.tag == t.seq_trace ? seq_trace_actor(r.term) : r.tracee);
        std::size_t who = line.size() - who_at;
        if (who < 28) line.append(28 - who, ' ');
        line += ' ';
        line.append(2 * indent, ' ');
        if (call) {
            line += "call ";
            m_print.call_to(line, r.term);
            if (r.extra) line += " (" + m_print.call_message(r.extra) + ")";
        } else if (r.tag == t.return_from) {
            line += "returned from ";
            m_print.mfa_to(line, r.term);
            line += " -> ";
            m_print.show_to(line, r.extra);
        } else if (r.tag == t.exception_from) {
            line += "exception from ";
            m_print.mfa_to(line, r.term);
            line += " -> ";
            if (is_tuple(r.extra) && tuple_arity(r.extra) == 2) {
                m_print.show_to(line, tuple_element(r.extra, 0));
                line += ':';
                m_print.show_to(line, tuple_element(r.extra, 1));
            } else {
                m_print.show_to(line, r.extra);
            }
        } else if (r.tag == t.return_to) {
            line += "returned to ";
            m_print.mfa_to(line, r.term);
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            line += r.tag == t.send ? "send " : "send (to a dead process) ";
            m_print.show_to(line, r.term);
            line += " to ";
            m_names.label_to(line, r.extra);
        } else if (r.tag == t.receive) {
            line += "receive ";
            m_print.show_to(line, r.term);
        } else if (r.tag == t.spawn) {
            line += "spawn ";
            m_print.show_to(line, r.term);
            line += " as ";
            m_print.call_to(line, r.extra);
        } else if (r.tag == t.spawned) {
            line += "spawned by ";
            m_names.label_to(line, r.term);
            line += " as ";
            m_print.call_to(line, r.extra);
        } else if (r.tag == t.seq_trace) {
            line += seq_trace_text(r.term);
        } else {
            line += atom_text(r.tag);
            line += ' ';
            m_print.show_to(line, r.term);
            if (r.extra) {
                line += ' ';
                m_print.show_to(line, r.extra);
            }
        }
        line += '\n';
        add(line);
    }

    void calls_return(bool on) override { m_calls_return = on; }

private:
    // seq_trace events on the line of the process that acted: the sender, the receiver, the
    // printer.
    static Term seq_trace_actor(Term info) {
        SeqInfo i;
        if (!SeqInfo::parse(info, &i)) return atom("seq_trace");
        return i.kind == tags().receive ? i.to : i.from;
    }
    std::string seq_trace_text(Term info) {
        SeqInfo i;
        if (!SeqInfo::parse(info, &i)) return "seq_trace " + m_print.show(info);
        std::string s = "seq_trace " + atom_text(i.kind) + " #" + m_print.show(i.serial) + " " + m_print.show(i.message);
        if (i.kind == tags().send) s += " to " + m_names.label(i.to);
        else if (i.kind == tags().receive) s += " from " + m_names.label(i.from);
        return s;
    }

    std::unordered_map<Term, std::size_t> m_depth;
    bool m_calls_return = false;  // calls indent by depth only when each has its return
    std::string m_line;           // the line being made (its memory reused)
};

// ---- JSON lines -----------------------------------------------------------------------------------

class JsonWriter final : public StreamWriter {
public:
    using StreamWriter::StreamWriter;

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        m_names.learn(r);
        std::string& line = m_line;
        line = "{\"t\":";
        line += seconds(r.ns);
        field(r.tag == t.seq_trace ? "label" : "pid", [&](std::string& s) { m_print.show_to(s, r.tracee); });
        if (r.tag != t.seq_trace) field("name", [&](std::string& s) { s += m_names.of(r.tracee); });
        field("event", [&](std::string& s) { s += atom_text(r.tag); });
        if (r.tag == t.call) {
            field("mfa", [&](std::string& s) { m_print.mfa_to(s, r.term); });
            Term args = is_tuple(r.term) && tuple_arity(r.term) == 3 ? tuple_element(r.term, 2) : NIL;
            if (is_list(args) || is_nil(args)) {
                line += ",\"args\":[";
                for (Term l = args; is_list(l); l = cdr(l)) {
                    if (l != args) line += ',';
                    m_text.clear();
                    m_print.show_to(m_text, car(l));
                    append_quoted(line, m_text);
                }
                line += ']';
            }
            if (r.extra) field("message", [&](std::string& s) { s += m_print.call_message(r.extra); });
        } else if (r.tag == t.return_from || r.tag == t.return_to) {
            field("mfa", [&](std::string& s) { m_print.mfa_to(s, r.term); });
            if (r.extra) field("value", [&](std::string& s) { m_print.show_to(s, r.extra); });
        } else if (r.tag == t.exception_from) {
            field("mfa", [&](std::string& s) { m_print.mfa_to(s, r.term); });
            if (is_tuple(r.extra) && tuple_arity(r.extra) == 2) {
                field("class", [&](std::string& s) { m_print.show_to(s, tuple_element(r.extra, 0)); });
                field("reason", [&](std::string& s) { m_print.show_to(s, tuple_element(r.extra, 1)); });
            }
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            field("msg", [&](std::string& s) { m_print.show_to(s, r.term); });
            field("to", [&](std::string& s) { m_print.show_to(s, r.extra); });
        } else if (r.tag == t.receive) {
            field("msg", [&](std::string& s) { m_print.show_to(s, r.term); });
        } else {
            field("term", [&](std::string& s) { m_print.show_to(s, r.term); });
            if (r.extra) field("extra", [&](std::string& s) { m_print.show_to(s, r.extra); });
        }
        line += "}\n";
        add(line);
    }

private:
    // ,"key":"text", the text made by [fill] (into a buffer whose memory is reused).
    template <typename Fill>
    void field(const char* key, Fill&& fill) {
        m_text.clear();
        fill(m_text);
        m_line += ",\"";
        m_line += key;
        m_line += "\":";
        append_quoted(m_line, m_text);
    }

    std::string m_line, m_text;
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
    ChromeWriter(Vm& vm, Printer print, const std::string& path, std::string* error)
        : StreamWriter(vm, print, path, error) {
        // The array's closing bracket is optional in the format: the file is valid even if
        // the run is cut short.
        add("[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"beamlet\"}}");
    }

    void event(const TraceRecord& r) override {
        const Tags& t = tags();
        m_names.learn(r);
        m_last_ns = r.ns;
        if (r.tag == t.seq_trace) return seq_trace(r);
        Word tid = thread_of(r.tracee);
        std::string ts = microseconds(r.ns);
        std::string common = std::string(",\"pid\":1,\"tid\":") + std::to_string(tid) + ",\"ts\":" + ts;
        if (r.tag == t.call) {
            // B has no args: speedscope names a frame by its name and args, and a function's
            // frames must merge. The call's arguments go on its E (viewers show both).
            m_open[tid].push_back({m_print.mfa(r.term), m_print.call(r.term)});
            add(",\n{\"name\":" + quoted(m_open[tid].back().name) + ",\"cat\":\"call\",\"ph\":\"B\"" + common + "}");
        } else if (t.is_return(r.tag)) {
            std::vector<OpenCall>& open = m_open[tid];
            if (open.empty()) return;  // a return whose call came before the trace
            OpenCall call = std::move(open.back());
            open.pop_back();
            // E repeats its B's name: viewers such as speedscope match the two by name.
            std::string key = r.tag == t.return_from ? "value" : "exception";
            add(",\n{\"name\":" + quoted(call.name) + ",\"ph\":\"E\"" + common + ",\"args\":{\"call\":" +
                quoted(call.text) + ",\"" + key + "\":" + quoted(m_print.show(r.extra)) + "}}");
        } else if (r.tag == t.send || r.tag == t.send_dead) {
            std::string msg = m_print.show(r.term);
            add(",\n{\"name\":\"send\",\"cat\":\"message\",\"ph\":\"i\",\"s\":\"t\"" + common + ",\"args\":{\"msg\":" +
                quoted(msg) + ",\"to\":" + quoted(m_names.label(r.extra)) + "}}");
            if (Term to = r.to_pid ? r.to_pid : r.extra; is_pid(to)) {
                std::uint64_t id = m_flows.sent(to, msg);
                add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":" + std::to_string(id) + common +
                    "}");
            }
        } else if (r.tag == t.receive) {
            std::string msg = m_print.show(r.term);
            add(",\n{\"name\":\"receive\",\"cat\":\"message\",\"ph\":\"i\",\"s\":\"t\"" + common +
                ",\"args\":{\"msg\":" + quoted(msg) + "}}");
            if (std::uint64_t id = m_flows.received(r.tracee, msg))
                add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" + std::to_string(id) +
                    common + "}");
        } else if (r.tag == t.in || r.tag == t.in_exiting) {
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            m_running[r.tracee] = true;
            add(",\n{\"name\":\"running\",\"cat\":\"scheduling\",\"ph\":\"B\"" + sched + ",\"args\":{\"in\":" +
                quoted(m_print.show(r.term)) + ",\"scheduler\":" + std::to_string(r.scheduler) + "}}");
        } else if (r.tag == t.out || r.tag == t.out_exiting || r.tag == t.out_exited) {
            if (!m_running[r.tracee]) return;
            m_running[r.tracee] = false;
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            add(",\n{\"name\":\"running\",\"ph\":\"E\"" + sched + ",\"args\":{\"out\":" + quoted(m_print.show(r.term)) +
                "}}");
        } else if (t.is_gc_start(r.tag) || t.is_gc_end(r.tag)) {
            std::string sched = std::string(",\"pid\":1,\"tid\":") + std::to_string(sched_thread_of(r.tracee)) + ",\"ts\":" + ts;
            if (t.is_gc_start(r.tag)) {
                m_gc_open[r.tracee] = r.tag == t.gc_major_start ? "major gc" : "minor gc";
                add(",\n{\"name\":" + quoted(m_gc_open[r.tracee]) +
                    ",\"cat\":\"gc\",\"ph\":\"B\"" + sched + "}");
            } else if (!m_gc_open[r.tracee].empty()) {
                std::string name = std::move(m_gc_open[r.tracee]);
                m_gc_open[r.tracee].clear();
                add(",\n{\"name\":" + quoted(name) + ",\"ph\":\"E\"" + sched + ",\"args\":{\"info\":" + quoted(m_print.show(r.term)) + "}}");
            }
        } else {
            add(",\n{\"name\":" + quoted(atom_text(r.tag)) + ",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\"" + common +
                ",\"args\":{\"term\":" + quoted(m_print.show(r.term)) + (r.extra ? ",\"extra\":" + quoted(m_print.show(r.extra)) : "") +
                "}}");
        }
    }

    std::string finish() override {
        // Slices still open (a call that never returned, a process still running) end at
        // the last event, so that the viewer draws them.
        std::string ts = microseconds(m_last_ns);
        auto end = [&](const std::string& name, Word tid) {
            add(",\n{\"name\":" + quoted(name) + ",\"ph\":\"E\",\"pid\":1,\"tid\":" + std::to_string(tid) +
                ",\"ts\":" + ts + "}");
        };
        for (auto& [tid, open] : m_open)
            for (auto it = open.rbegin(); it != open.rend(); ++it) end(it->name, tid);
        for (auto& [who, name] : m_gc_open)
            if (!name.empty()) end(name, sched_thread_of(who));
        for (auto& [who, running] : m_running)
            if (running) end("running", sched_thread_of(who));
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
    // seq_trace's sends and receives as sends and receives on their processes' threads, an
    // arrow from each send to its receive (by serial); its prints as instants.
    void seq_trace(const TraceRecord& r) {
        const Tags& t = tags();
        SeqInfo i;
        if (!SeqInfo::parse(r.term, &i)) return;
        Term actor = i.kind == t.receive ? i.to : i.from;
        std::string ts = microseconds(r.ns);
        std::string common = std::string(",\"pid\":1,\"tid\":") + std::to_string(thread_of(actor)) + ",\"ts\":" + ts;
        std::string serial = m_print.show(i.serial);
        add(",\n{\"name\":" + quoted("seq_trace " + atom_text(i.kind)) + ",\"cat\":\"seq_trace\",\"ph\":\"i\",\"s\":\"t\"" +
            common + ",\"args\":{\"label\":" + quoted(m_print.show(r.tracee)) + ",\"serial\":" + quoted(serial) +
            ",\"msg\":" + quoted(m_print.show(i.message)) + "}}");
        if (i.kind == t.send) {
            std::uint64_t id = m_flows.sent(i.to, "seq_trace " + serial);
            add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":" + std::to_string(id) + common + "}");
        } else if (i.kind == t.receive) {
            if (std::uint64_t id = m_flows.received(i.to, "seq_trace " + serial))
                add(",\n{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" +
                    std::to_string(id) + common + "}");
        }
    }

    struct OpenCall {
        std::string name;  // m:f/a
        std::string text;  // m:f(Args)
    };
    std::map<Word, std::vector<OpenCall>> m_open;  // calls without their returns yet
    std::unordered_map<Term, bool> m_running;
    std::unordered_map<Term, std::string> m_gc_open;  // the collection under way, by process
    std::set<Word> m_named;
    FlowMatcher m_flows;
    std::int64_t m_last_ns = 0;
};

// ---- pictures ---------------------------------------------------------------------------------

class PictureWriter : public TraceWriter {
public:
    PictureWriter(Vm& vm, Printer print, const std::string& path, std::string* error)
        : m_vm(vm), m_print(print), m_path(path), m_names(print) {
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
    Printer m_print;
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
        m_names.learn(r);
        double us = double(r.ns) / 1e3;
        if ((r.tag == t.send || r.tag == t.send_dead) && m_messages.size() < MAX_MESSAGES) {
            std::string msg = m_print.show(r.term);
            Term to = r.to_pid ? r.to_pid : r.extra;  // a name's lane is its process's
            m_messages.push_back(message(us, r.tracee, to, msg));
            if (!m_messages.back().to_text.empty()) return;  // {Name, Node}: its receive is not matched
            m_waiting[{to, msg}].push_back(m_messages.size() - 1);
        } else if (r.tag == t.receive) {
            auto it = m_waiting.find({r.tracee, m_print.show(r.term)});
            if (it != m_waiting.end() && !it->second.empty()) {
                m_messages[it->second.front()].received_us = us;
                it->second.pop_front();
            }
        } else if (SeqInfo i; r.tag == t.seq_trace && SeqInfo::parse(r.term, &i)) {
            // Matched by serial: a send's receive has the same one.
            std::string key = m_print.show(i.serial);
            if (i.kind == t.send && m_messages.size() < MAX_MESSAGES) {
                m_messages.push_back(message(us, i.from, i.to, m_print.show(i.message)));
                m_serials[key] = m_messages.size() - 1;
            } else if (i.kind == t.receive) {
                if (auto it = m_serials.find(key); it != m_serials.end()) {
                    // The receiver's lane, also for a send to {Name, Node}.
                    Message& m = m_messages[it->second];
                    m.received_us = us;
                    if (is_immediate(i.to) || is_external_pid(i.to)) {
                        m.to = i.to;
                        m.to_text.clear();
                    }
                }
            }
        }
    }

    std::string finish() override {
        // A lane per process, named as known at the end (a name registered after the first
        // message still names the whole lane).
        std::vector<SequenceMessage> messages;
        messages.reserve(m_messages.size());
        for (const Message& m : m_messages)
            messages.push_back({m.sent_us, m.received_us, latin1_to_utf8(m_names.label(m.from)),
                                latin1_to_utf8(m.to_text.empty() ? m_names.label(m.to) : m.to_text),
                                latin1_to_utf8(m.text)});
        std::string title = "beamlet trace: " + std::to_string(messages.size()) + " messages";
        if (!write_file(m_path, sequence_diagram_svg(messages, {}, title))) return "cannot write " + m_path;
        return "sequence diagram written to " + m_path;
    }

private:
    struct Message {
        double sent_us, received_us;  // -1: not seen received
        Term from, to;                // pids (other nodes' stable copies), names and ports
        std::string text;
        std::string to_text;          // a receiver that is none of those ({Name, Node}), as printed
    };
    // The terms of a record go with it: a receiver kept past it is one that lives on, or text.
    Message message(double us, Term from, Term to, std::string text) {
        Message m{us, -1, from, to, std::move(text), {}};
        if (!is_immediate(to) && !is_external_pid(to)) {
            m.to_text = m_print.show(to);
            m.to = 0;
        }
        return m;
    }
    std::vector<Message> m_messages;
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
        m_names.learn(r);
        if (r.tag != t.call && !t.is_return(r.tag)) return;
        Proc& p = m_procs[r.tracee];
        if (!p.stack.empty()) m_folded[key(r.tracee, p)] += std::uint64_t(std::max<std::int64_t>(0, r.ns - p.last_ns));
        p.last_ns = r.ns;
        if (r.tag == t.call) p.stack.push_back(m_print.mfa(r.term));
        else if (!p.stack.empty()) p.stack.pop_back();
    }

    std::string finish() override {
        // Nanoseconds: a short call still counts (microseconds would round it away).
        std::string folded;
        std::map<std::string, std::uint64_t> weights;
        for (auto& [stack, ns] : m_folded)
            if (ns) {
                folded += stack + " " + std::to_string(ns) + "\n";
                weights[stack] = ns;
            }
        bool ok = write_file(m_path + ".folded", folded) &&
                  write_file(m_path, flame_graph_svg(weights, "beamlet trace: time in traced calls", "ns"));
        if (!ok) return "cannot write " + m_path;
        return "flame graph written to " + m_path + " (folded stacks: " + m_path + ".folded)";
    }

private:
    struct Proc {
        std::vector<std::string> stack;
        std::int64_t last_ns = 0;
    };
    // The folded stack: the process, then its calls outermost first, a function calling itself
    // once (direct recursion: a server's loop traced with its returns nests a frame per
    // message) so that the picture shows where time went, not how often a loop went round.
    std::string key(Term who, const Proc& p) {
        std::string k = latin1_to_utf8(m_names.label(who));
        const std::string* last = nullptr;
        for (const std::string& f : p.stack) {
            if (last && *last == f) continue;
            k += ";" + f;
            last = &f;
        }
        return k;
    }
    std::unordered_map<Term, Proc> m_procs;
    std::map<std::string, std::uint64_t> m_folded;
};

}  // namespace

std::unique_ptr<TraceWriter> make_trace_writer(Vm& vm, const CliTraceOptions& options, std::string* error) {
    Printer print(options.depth ? int(options.depth) : -1);
    std::unique_ptr<TraceWriter> w;
    switch (options.format) {
    case TraceFormat::Text: w = std::make_unique<TextWriter>(vm, print, options.output, error); break;
    case TraceFormat::Json: w = std::make_unique<JsonWriter>(vm, print, options.output, error); break;
    case TraceFormat::Chrome:
        w = std::make_unique<ChromeWriter>(vm, print, options.output.empty() ? "trace.json" : options.output, error);
        break;
    case TraceFormat::Sequence:
        w = std::make_unique<SequenceWriter>(vm, print, options.output.empty() ? "sequence.svg" : options.output, error);
        break;
    case TraceFormat::Flame:
        w = std::make_unique<FlameWriter>(vm, print, options.output.empty() ? "flame.svg" : options.output, error);
        break;
    }
    if (!error->empty()) return nullptr;
    return w;
}

}  // namespace beamlet::tools
