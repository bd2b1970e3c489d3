// bif/zlib_nifs.cpp — the NIFs of OTP's preloaded zlib module (erts's zlib_nif.c) over the
// system zlib, and the erlang BIFs zlib.erl is written over: iolist_to_iovec/1 and the
// crc32_combine/3 and adler32_combine/3 checksums.
//
// A stream is a magic reference owning a ZStream: the z_stream, the input that enqueue_nif
// queued, and the stash where zlib.erl keeps output across calls. deflate_nif/inflate_nif
// consume at most one input chunk and fill at most one output chunk per call, answering
// {continue, Out} until the queue is drained, so zlib.erl's loop in Erlang runs between chunks
// and a large input never holds a scheduler for long. Only the stream's controlling process
// may use it (not_on_controlling_process otherwise); every call also holds the stream's mutex,
// so zlib never runs on one stream from two schedulers at once.
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/magic.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

enum class StreamState { None, Deflate, Inflate, Closed };

// What inflate_nif does with input that follows the end of a stream (zlib:inflateInit/3's
// EoSBehavior, as zlib.erl encodes it).
enum class EndOfStream { Error = 0, Reset = 1, Cut = 2 };

// The input enqueue_nif took: one segment per iovec element (their bounds limit each codec
// step, as OTP's I/O queue does), the first one consumed up to [m_front_offset].
class InputQueue {
public:
    void push(std::string_view bytes) {
        if (bytes.empty()) return;
        m_segments.emplace_back(bytes);
        m_size_bytes += bytes.size();
    }
    std::size_t segment_count() const { return m_segments.size(); }
    // The unconsumed bytes of segment [i].
    std::string_view segment(std::size_t i) const {
        std::string_view s = m_segments[i];
        return i == 0 ? s.substr(m_front_offset) : s;
    }
    // Drops the first [n] bytes (n <= size_bytes()).
    void consume(std::size_t n) {
        m_size_bytes -= n;
        while (n > 0) {
            std::size_t left = m_segments.front().size() - m_front_offset;
            if (n < left) {
                m_front_offset += n;
                return;
            }
            n -= left;
            m_segments.pop_front();
            m_front_offset = 0;
        }
    }
    void clear() {
        m_segments.clear();
        m_front_offset = 0;
        m_size_bytes = 0;
    }
    std::size_t size_bytes() const { return m_size_bytes; }

private:
    std::deque<std::string> m_segments;
    std::size_t m_front_offset = 0;
    std::size_t m_size_bytes = 0;
};

// One zlib stream (OTP's zlib_data_t). Every field is guarded by [mutex].
struct ZStream {
    std::mutex mutex;
    Term controller = 0;  // the pid allowed to use the stream
    z_stream z{};
    StreamState state = StreamState::None;
    EndOfStream end_of_stream = EndOfStream::Cut;
    bool eos_seen = false;  // inflate reached the end of a stream
    bool is_raw = false;    // negative window bits: no zlib or gzip wrapper
    // CRC-32 of the plain text for the deprecated zlib:crc32/1: of the input of a raw deflate
    // stream, of the output of a raw inflate stream (other streams leave them 0).
    uLong input_crc = 0;
    uLong output_crc = 0;
    bool want_input_crc = false;
    bool want_output_crc = false;
    int inflate_chunk_size = 4000;  // zlib:setBufSize/2, read by the deprecated inflateChunk
    InputQueue input;
    // The stash: one term zlib.erl keeps across calls, copied into [stash_heap].
    bool has_stash = false;
    Term stash = NIL;
    HeapFragment* stash_heap = nullptr;

    void clear_stash() {
        free_fragment(stash_heap);
        stash_heap = nullptr;
        stash = NIL;
        has_stash = false;
    }
    // zlib_reset_input: the queued input and the stash go.
    void reset_input() {
        input.clear();
        clear_stash();
    }
    // Ends the zlib stream and frees what the stream holds (close_nif, and the collector).
    void close() {
        if (state == StreamState::Deflate) deflateEnd(&z);
        else if (state == StreamState::Inflate) inflateEnd(&z);
        reset_input();
        state = StreamState::Closed;
    }
};

// The magic handle's destructor: the last reference to the stream is gone, so no NIF can be
// running on it.
void destroy_stream(MagicHandle* h) {
    auto* stream = static_cast<ZStream*>(h->data);
    stream->close();
    delete stream;
}

ZStream* stream_of(Term ref) {
    if (!is_magic_ref(ref)) return nullptr;
    MagicHandle* h = magic_handle(ref);
    return h->destructor == destroy_stream ? static_cast<ZStream*>(h->data) : nullptr;
}

// [t] as a C int (enif_get_int).
std::optional<int> int_arg(Term t) {
    if (!is_small(t) || small_value(t) < INT32_MIN || small_value(t) > INT32_MAX) return std::nullopt;
    return int(small_value(t));
}

// A zlib return code as zlib_nif.c answers it: ok and stream_end, an errno, raised errors for
// stream and data errors, an atom for the others.
Term status_term(Process* p, int code) {
    switch (code) {
    case Z_OK: return atoms::ok;
    case Z_STREAM_END: return atom("stream_end");
    case Z_ERRNO: return make_small(errno);
    case Z_STREAM_ERROR: return p->error(atom("stream_error"));
    case Z_DATA_ERROR: return p->error(atom("data_error"));
    case Z_MEM_ERROR: return atom("mem_error");
    case Z_BUF_ERROR: return atom("buf_error");
    case Z_VERSION_ERROR: return atom("version_error");
    default: return atom("unknown_error");
    }
}

Term raise_atom(Process* p, const char* reason) { return p->error(atom(reason)); }

// An Adler-32 checksum as OTP 25's zlib NIFs answer it: a C int, so that values from 2^31 up
// come out negative (later OTP releases answer them unsigned).
Term adler_term(uLong checksum) { return make_small(std::int32_t(std::uint32_t(checksum))); }

// Runs [body] on the stream [ref] under its mutex once the caller is known to control it, as
// each of OTP's zlib NIFs begins (badarg for anything but a stream).
template <class Body>
Term with_stream(Process* p, Term ref, Body body) {
    ZStream* stream = stream_of(ref);
    if (!stream) return p->badarg();
    std::lock_guard lock(stream->mutex);
    if (stream->controller != p->id) return raise_atom(p, "not_on_controlling_process");
    return body(*stream);
}

// with_stream for a stream that must be in [state] (not_initialized otherwise).
template <class Body>
Term with_stream_in(Process* p, Term ref, StreamState state, Body body) {
    return with_stream(p, ref, [&](ZStream& s) -> Term {
        if (s.state != state) return raise_atom(p, "not_initialized");
        return body(s);
    });
}

using Codec = int (*)(z_streamp, int);

// What one codec step did.
struct CodecProgress {
    int result = Z_OK;
    std::size_t produced_bytes = 0;
    std::size_t consumed_bytes = 0;
    std::size_t remaining_bytes = 0;  // still queued afterwards
};

// Feeds queued input to [codec] without flushing, segment by segment, until [input_limit] bytes
// are consumed, [out] is full or zlib stops; once all input is consumed and [out] has room,
// asks zlib to flush with [flush] (even for Z_NO_FLUSH: an earlier call may have left output
// behind). Mirrors zlib_flush_queue() in zlib_nif.c.
CodecProgress feed_queue(ZStream& s, Codec codec, std::size_t input_limit, Bytef* out, std::size_t out_size,
                         int flush) {
    CodecProgress progress;
    s.z.next_out = out;
    s.z.avail_out = uInt(out_size);
    int timeslice_percent = 0;
    for (std::size_t i = 0; progress.result == Z_OK && i < s.input.segment_count() &&
                            progress.consumed_bytes < input_limit;
         ++i) {
        std::string_view segment = s.input.segment(i);
        std::size_t block_bytes = std::min(segment.size(), input_limit);
        s.z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(segment.data()));
        s.z.avail_in = uInt(block_bytes);
        progress.result = codec(&s.z, Z_NO_FLUSH);
        std::size_t block_consumed = block_bytes - s.z.avail_in;
        progress.consumed_bytes += block_consumed;
        if (s.want_input_crc)
            s.input_crc = crc32(s.input_crc, reinterpret_cast<const Bytef*>(segment.data()), uInt(block_consumed));
        // OTP charges each segment to the caller's timeslice and stops once it is used up;
        // beamlet allows one timeslice per call.
        timeslice_percent += int(std::max<std::size_t>(1, 100 * block_consumed / input_limit));
        if (timeslice_percent >= 100) break;
    }
    s.input.consume(progress.consumed_bytes);
    progress.remaining_bytes = s.input.size_bytes();
    // The queue no longer holds what next_in points into: the next call feeds it afresh.
    s.z.next_in = Z_NULL;
    s.z.avail_in = 0;
    if (progress.result == Z_OK && progress.remaining_bytes == 0 && s.z.avail_out > 0)
        progress.result = codec(&s.z, flush);
    progress.produced_bytes = out_size - s.z.avail_out;
    return progress;
}

// deflate_nif/inflate_nif's body (zlib_codec() in zlib_nif.c): {continue, Out} while input is
// left or the output chunk filled up, {finished, Out} otherwise, {need_dictionary, Adler, Out}
// when inflate needs one; Out is [] or [Binary].
Term run_codec(Process* p, ZStream& s, Codec codec, int input_chunk_bytes, int output_chunk_bytes, int flush) {
    BEAMLET_CACHED_ATOM(continue_atom, "continue");
    BEAMLET_CACHED_ATOM(finished_atom, "finished");
    BEAMLET_CACHED_ATOM(need_dictionary_atom, "need_dictionary");
    if (output_chunk_bytes < 0) return status_term(p, Z_MEM_ERROR);  // OTP's allocation fails
    auto out = std::make_unique_for_overwrite<Bytef[]>(std::size_t(output_chunk_bytes) + 1);
    // A negative input chunk size is a huge one, as the size_t it becomes in OTP.
    CodecProgress progress = feed_queue(s, codec, std::size_t(SWord(input_chunk_bytes)), out.get(),
                                        std::size_t(output_chunk_bytes), flush);
    if (progress.result < 0 && progress.result != Z_BUF_ERROR) return status_term(p, progress.result);
    if (progress.result == Z_STREAM_END) s.eos_seen = true;
    if (s.want_output_crc) s.output_crc = crc32(s.output_crc, out.get(), uInt(progress.produced_bytes));
    // No progress at all: not something well-formed input does.
    if (progress.consumed_bytes == 0 && progress.produced_bytes == 0 && progress.remaining_bytes != 0)
        return status_term(p, Z_DATA_ERROR);
    Term output = NIL;
    if (progress.produced_bytes > 0) {
        Term binary = make_binary(p, out.get(), progress.produced_bytes);
        output = make_cons_on(p->alloc(2), binary, NIL);
    }
    if (progress.remaining_bytes == 0 && progress.produced_bytes < std::size_t(output_chunk_bytes))
        return make_tuple_on(p, {finished_atom, output});
    if (progress.result != Z_NEED_DICT) return make_tuple_on(p, {continue_atom, output});
    return make_tuple_on(p, {need_dictionary_atom, adler_term(s.z.adler), output});
}

// [t] copied onto [p]'s heap.
Term copy_to_heap(Process* p, Term t) {
    Word words = term_size_words(t);
    if (!words) return t;
    Term* hp = p->alloc(words);
    return copy_term(t, &hp, &p->off_heap_first);
}

// ---- erlang:iolist_to_iovec/1 ----

// Builds iolist_to_iovec's list of binaries as OTP's erl_io_queue.c does, so that the queue
// sees the same segments: bytes and binaries under 256 bytes are gathered into accumulators
// (grown up to 8 KiB), larger binaries pass through, and a large binary that follows a small
// accumulator first tops it up to 256 bytes.
class IovecBuilder {
public:
    explicit IovecBuilder(Process* p) : m_process(p) {}

    // Appends a run of bytes (small integers of the list).
    void append_bytes(std::string_view bytes) {
        expand(bytes.size());
        m_acc.append(bytes);
    }
    // Appends binary [t]; false if it is a bitstring that is not a binary.
    bool append_binary(Term t) {
        BitView bits = bit_view(t);
        if (!bits.is_binary()) return false;
        std::size_t size_bytes = bits.size_bytes();
        if (size_bytes == 0) return true;
        bool acc_is_small = m_acc.size() < SMALL_BYTES;
        bool binary_is_small = size_bytes < SMALL_BYTES;
        if (!binary_is_small && (m_acc.empty() || !acc_is_small)) {
            if (!m_acc.empty()) promote();
            m_result.push_back(t);
        } else if (binary_is_small || m_acc.size() + size_bytes < 2 * SMALL_BYTES) {
            expand(size_bytes);
            append_bits(bits, 0, size_bytes);
        } else {
            std::size_t spill = SMALL_BYTES - m_acc.size();
            expand(spill);
            append_bits(bits, 0, spill);
            promote();
            m_result.push_back(make_sub_binary(m_process, t, spill * 8, (size_bytes - spill) * 8));
        }
        return true;
    }
    // The list of binaries.
    Term finish() {
        if (!m_acc.empty()) promote();
        Term list = NIL;
        Term* hp = m_process->alloc(2 * m_result.size());
        for (std::size_t i = m_result.size(); i-- > 0; hp += 2) list = make_cons_on(hp, m_result[i], list);
        return list;
    }

private:
    static constexpr std::size_t SMALL_BYTES = 256;                  // IOL2V_SMALL_BIN_LIMIT
    static constexpr std::size_t ACC_LIMIT_BYTES = SMALL_BYTES * 32;  // ACC_REALLOCATION_LIMIT

    // Makes room for [extra] bytes as OTP sizes its accumulator: a full one of 8 KiB or more is
    // emitted rather than grown.
    void expand(std::size_t extra) {
        std::size_t required = m_acc.size() + extra;
        if (m_acc_capacity == 0) {
            m_acc_capacity = std::max(required, SMALL_BYTES);
        } else if (required > m_acc_capacity) {
            if (m_acc_capacity >= ACC_LIMIT_BYTES) {
                promote();
                expand(extra);
                return;
            }
            m_acc_capacity = std::max(required, m_acc_capacity * 2);
        }
    }
    void append_bits(const BitView& bits, std::size_t offset_bytes, std::size_t size_bytes) {
        std::size_t at = m_acc.size();
        m_acc.resize(at + size_bytes);
        copy_bits(bits.bytes, bits.bit_offset + offset_bytes * 8, reinterpret_cast<std::uint8_t*>(m_acc.data() + at),
                  0, size_bytes * 8);
    }
    void promote() {
        m_result.push_back(make_binary(m_process, m_acc));
        m_acc.clear();
        m_acc_capacity = 0;
    }

    Process* m_process;
    std::vector<Term> m_result;
    std::string m_acc;
    std::size_t m_acc_capacity = 0;  // 0: no accumulator
};

// Walks iolist [list] depth first into [builder]; false if it is not an iolist.
bool build_iovec(Term list, IovecBuilder& builder) {
    std::vector<Term> rest;  // tails still to walk
    Term t = list;
    for (;;) {
        while (is_list(t)) {
            Term head = car(t);
            if (is_bitstring(head)) {
                if (!builder.append_binary(head)) return false;
                t = cdr(t);
            } else if (is_small(head)) {
                std::string bytes;
                for (; is_list(t) && is_small(car(t)); t = cdr(t)) {
                    SWord byte = small_value(car(t));
                    if (byte < 0 || byte > 255) return false;
                    bytes.push_back(char(byte));
                }
                builder.append_bytes(bytes);
            } else if (is_list(head) || is_nil(head)) {
                if (!is_nil(cdr(t))) rest.push_back(cdr(t));
                t = head;
            } else {
                return false;
            }
        }
        if (is_bitstring(t)) {
            if (!builder.append_binary(t)) return false;
        } else if (!is_nil(t)) {
            return false;
        }
        if (rest.empty()) return true;
        t = rest.back();
        rest.pop_back();
    }
}

// A checksum argument of the combine BIFs: an integer in 0..2^32-1.
std::optional<uLong> uint32_arg(Term t) {
    if (!is_small(t) || small_value(t) < 0 || small_value(t) > SWord(0xFFFFFFFF)) return std::nullopt;
    return uLong(small_value(t));
}

}  // namespace

// ---- zlib: the stream ----

Term bif_zlib_open_nif(Process* p, Term*) {
    auto* stream = new ZStream();
    stream->controller = p->id;
    stream->z.data_type = Z_BINARY;
    return new_magic_ref(p, stream, destroy_stream);
}

Term bif_zlib_close_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.state == StreamState::Closed) return raise_atom(p, "not_initialized");
        s.close();
        return atoms::ok;
    });
}

Term bif_zlib_set_controller_nif(Process* p, Term* a) {
    if (!stream_of(a[0]) || !is_pid(a[1])) return p->badarg();
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        s.controller = a[1];
        return atoms::ok;
    });
}

// ---- zlib: deflate ----

// deflateInit_nif(Z, Level, Method, WindowBits, MemLevel, Strategy)
Term bif_zlib_deflateInit_nif(Process* p, Term* a) {
    int args[5];
    for (int i = 0; i < 5; ++i) {
        std::optional<int> v = int_arg(a[i + 1]);
        if (!v) return p->badarg();
        args[i] = *v;
    }
    if (!stream_of(a[0])) return p->badarg();
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.state != StreamState::None) return raise_atom(p, "already_initialized");
        int window_bits = args[2];
        int result = deflateInit2(&s.z, args[0], args[1], window_bits, args[3], args[4]);
        if (result == Z_OK) {
            s.state = StreamState::Deflate;
            s.eos_seen = false;
            s.is_raw = window_bits < 0;
            s.want_output_crc = false;
            s.want_input_crc = s.is_raw;
            s.output_crc = s.input_crc = crc32(0, Z_NULL, 0);
        }
        return status_term(p, result);
    });
}

Term bif_zlib_deflateSetDictionary_nif(Process* p, Term* a) {
    std::string dictionary;
    if (!stream_of(a[0]) || !iolist_to_bytes(a[1], &dictionary)) return p->badarg();
    return with_stream_in(p, a[0], StreamState::Deflate, [&](ZStream& s) -> Term {
        const auto* bytes = reinterpret_cast<const Bytef*>(dictionary.data());
        int result = deflateSetDictionary(&s.z, bytes, uInt(dictionary.size()));
        if (result != Z_OK) return status_term(p, result);
        // A raw stream does not keep the dictionary's Adler-32; OTP computes it for the caller.
        uLong checksum = s.is_raw ? adler32(0, bytes, uInt(dictionary.size())) : s.z.adler;
        return adler_term(checksum);
    });
}

Term bif_zlib_deflateReset_nif(Process* p, Term* a) {
    return with_stream_in(p, a[0], StreamState::Deflate, [&](ZStream& s) -> Term {
        int result = deflateReset(&s.z);
        s.input_crc = crc32(0, Z_NULL, 0);
        s.eos_seen = false;
        s.reset_input();
        return status_term(p, result);
    });
}

// deflateParams_nif(Z, Level, Strategy): zlib.erl has flushed the stream first, so zlib stops
// on a byte boundary with nothing pending; a one-byte buffer catches the case where that does
// not hold (and keeps zlib 1.2.11 from answering Z_BUF_ERROR to an empty one).
Term bif_zlib_deflateParams_nif(Process* p, Term* a) {
    std::optional<int> level = int_arg(a[1]), strategy = int_arg(a[2]);
    if (!stream_of(a[0]) || !level || !strategy) return p->badarg();
    return with_stream_in(p, a[0], StreamState::Deflate, [&](ZStream& s) -> Term {
        Bytef spare;
        s.z.next_out = &spare;
        s.z.avail_out = 1;
        int result = deflateParams(&s.z, *level, *strategy);
        bool wrote_output = s.z.avail_out == 0;
        s.z.next_out = Z_NULL;
        s.z.avail_out = 0;
        return status_term(p, wrote_output ? Z_STREAM_ERROR : result);
    });
}

// deflate_nif(Z, InputChunkSize, OutputChunkSize, Flush)
Term bif_zlib_deflate_nif(Process* p, Term* a) {
    std::optional<int> input_chunk = int_arg(a[1]), output_chunk = int_arg(a[2]), flush = int_arg(a[3]);
    if (!stream_of(a[0]) || !input_chunk || !output_chunk || !flush) return p->badarg();
    return with_stream_in(p, a[0], StreamState::Deflate, [&](ZStream& s) -> Term {
        return run_codec(p, s, &deflate, *input_chunk, *output_chunk, *flush);
    });
}

// deflateEnd_nif(Z): data_error when input was left unconsumed (or zlib says the stream ended
// early); the stream is reset either way.
Term bif_zlib_deflateEnd_nif(Process* p, Term* a) {
    return with_stream_in(p, a[0], StreamState::Deflate, [&](ZStream& s) -> Term {
        int result = deflateEnd(&s.z);
        if (result == Z_OK && s.input.size_bytes() > 0) result = Z_DATA_ERROR;
        s.reset_input();
        s.state = StreamState::None;
        return status_term(p, result);
    });
}

// ---- zlib: inflate ----

// inflateInit_nif(Z, WindowBits, EoSBehavior)
Term bif_zlib_inflateInit_nif(Process* p, Term* a) {
    std::optional<int> window_bits = int_arg(a[1]), end_of_stream = int_arg(a[2]);
    if (!stream_of(a[0]) || !window_bits || !end_of_stream) return p->badarg();
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.state != StreamState::None) return raise_atom(p, "already_initialized");
        int result = inflateInit2(&s.z, *window_bits);
        if (result == Z_OK) {
            s.state = StreamState::Inflate;
            s.end_of_stream = EndOfStream(*end_of_stream);
            s.eos_seen = false;
            s.is_raw = *window_bits < 0;
            s.want_output_crc = s.is_raw;
            s.want_input_crc = false;
            s.output_crc = s.input_crc = crc32(0, Z_NULL, 0);
        }
        return status_term(p, result);
    });
}

Term bif_zlib_inflateSetDictionary_nif(Process* p, Term* a) {
    std::string dictionary;
    if (!stream_of(a[0]) || !iolist_to_bytes(a[1], &dictionary)) return p->badarg();
    return with_stream_in(p, a[0], StreamState::Inflate, [&](ZStream& s) -> Term {
        const auto* bytes = reinterpret_cast<const Bytef*>(dictionary.data());
        return status_term(p, inflateSetDictionary(&s.z, bytes, uInt(dictionary.size())));
    });
}

Term bif_zlib_inflateGetDictionary_nif(Process* p, Term* a) {
    return with_stream_in(p, a[0], StreamState::Inflate, [&](ZStream& s) -> Term {
        std::vector<Bytef> dictionary(32768);  // zlib's largest window
        uInt size_bytes = 0;
        int result = inflateGetDictionary(&s.z, dictionary.data(), &size_bytes);
        if (result < 0) return status_term(p, result);
        return make_binary(p, dictionary.data(), size_bytes);
    });
}

Term bif_zlib_inflateReset_nif(Process* p, Term* a) {
    return with_stream_in(p, a[0], StreamState::Inflate, [&](ZStream& s) -> Term {
        int result = inflateReset(&s.z);
        s.output_crc = crc32(0, Z_NULL, 0);
        s.eos_seen = false;
        s.reset_input();
        return status_term(p, result);
    });
}

// inflateEnd_nif(Z): data_error unless the stream ended and all input was consumed.
Term bif_zlib_inflateEnd_nif(Process* p, Term* a) {
    return with_stream_in(p, a[0], StreamState::Inflate, [&](ZStream& s) -> Term {
        int result = inflateEnd(&s.z);
        if (result == Z_OK && (!s.eos_seen || s.input.size_bytes() > 0)) result = Z_DATA_ERROR;
        s.reset_input();
        s.state = StreamState::None;
        return status_term(p, result);
    });
}

// inflate_nif(Z, InputChunkSize, OutputChunkSize, Flush): input after the end of a stream is
// an error, the start of another stream, or dropped, as inflateInit/3 chose.
Term bif_zlib_inflate_nif(Process* p, Term* a) {
    std::optional<int> input_chunk = int_arg(a[1]), output_chunk = int_arg(a[2]), flush = int_arg(a[3]);
    if (!stream_of(a[0]) || !input_chunk || !output_chunk || !flush) return p->badarg();
    return with_stream_in(p, a[0], StreamState::Inflate, [&](ZStream& s) -> Term {
        if (s.eos_seen && s.input.size_bytes() > 0) {
            switch (s.end_of_stream) {
            case EndOfStream::Error: return status_term(p, Z_DATA_ERROR);
            case EndOfStream::Reset: {
                int result = inflateReset(&s.z);
                if (result != Z_OK) return status_term(p, result);
                s.eos_seen = false;
                break;
            }
            case EndOfStream::Cut: s.reset_input(); break;
            }
        }
        return run_codec(p, s, &inflate, *input_chunk, *output_chunk, *flush);
    });
}

// ---- zlib: checksum, buffer size, stash, input ----

// crc32_nif(Z): the running CRC-32 of a raw stream's plain text.
Term bif_zlib_crc32_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.state == StreamState::Deflate) return make_integer_u64(p, s.input_crc);
        if (s.state == StreamState::Inflate) return make_integer_u64(p, s.output_crc);
        return raise_atom(p, "not_initialized");
    });
}

Term bif_zlib_getBufSize_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term { return make_small(s.inflate_chunk_size); });
}

Term bif_zlib_setBufSize_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        std::optional<int> size = int_arg(a[1]);
        if (!size) return p->badarg();
        s.inflate_chunk_size = *size;
        return atoms::ok;
    });
}

// getStash_nif(Z): {ok, Term} or empty.
Term bif_zlib_getStash_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (!s.has_stash) return atom("empty");
        return make_tuple_on(p, {atoms::ok, copy_to_heap(p, s.stash)});
    });
}

Term bif_zlib_clearStash_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (!s.has_stash) return p->error(atoms::error);
        s.clear_stash();
        return atoms::ok;
    });
}

Term bif_zlib_setStash_nif(Process* p, Term* a) {
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.has_stash) return p->error(atoms::error);
        s.stash_heap = copy_to_fragment(a[1], &s.stash);
        s.has_stash = true;
        return atoms::ok;
    });
}

// enqueue_nif(Z, IOVec): queues up to 256 binaries of the list; ok, or {continue, Rest} with
// the rest of the list (enif_inspect_iovec's limit).
Term bif_zlib_enqueue_nif(Process* p, Term* a) {
    constexpr int MAX_ELEMENTS = 256;
    return with_stream(p, a[0], [&](ZStream& s) -> Term {
        if (s.state != StreamState::Deflate && s.state != StreamState::Inflate)
            return raise_atom(p, "not_initialized");
        Term tail = a[1];
        int count = 0;
        for (; is_list(tail) && count < MAX_ELEMENTS; tail = cdr(tail), ++count)
            if (!is_binary(car(tail))) return p->badarg();
        if (!is_list(tail) && !is_nil(tail)) return p->badarg();
        Term t = a[1];
        for (int i = 0; i < count; ++i, t = cdr(t)) {
            BitView bits = bit_view(car(t));
            s.input.push({reinterpret_cast<const char*>(bits.aligned_bytes()), bits.size_bytes()});
        }
        if (!is_nil(tail)) return make_tuple_on(p, {atom("continue"), tail});
        return atoms::ok;
    });
}

// ---- erlang BIFs zlib.erl calls ----

Term bif_iolist_to_iovec(Process* p, Term* a) {
    Term t = a[0];
    if (is_nil(t)) return NIL;
    if (is_bitstring(t)) {
        BitView bits = bit_view(t);
        if (!bits.is_binary()) return p->badarg();
        return bits.size_bytes() ? make_cons_on(p->alloc(2), t, NIL) : NIL;
    }
    if (!is_list(t)) return p->badarg();
    IovecBuilder builder(p);
    if (!build_iovec(t, builder)) return p->badarg();
    return builder.finish();
}

// erlang:crc32_combine(FirstCrc, SecondCrc, SecondSize)
Term bif_crc32_combine(Process* p, Term* a) {
    std::optional<uLong> first = uint32_arg(a[0]), second = uint32_arg(a[1]), second_size = uint32_arg(a[2]);
    if (!first || !second || !second_size) return p->badarg();
    return make_integer_u64(p, crc32_combine(*first, *second, z_off_t(*second_size)));
}

// erlang:adler32_combine(FirstAdler, SecondAdler, SecondSize)
Term bif_adler32_combine(Process* p, Term* a) {
    std::optional<uLong> first = uint32_arg(a[0]), second = uint32_arg(a[1]), second_size = uint32_arg(a[2]);
    if (!first || !second || !second_size) return p->badarg();
    return make_integer_u64(p, adler32_combine(*first, *second, z_off_t(*second_size)));
}

}  // namespace beamlet::bif
