// bif/prim_file_nifs.cpp — the NIFs of OTP's preloaded prim_file module (OTP's
// erts/emulator/nifs/common/prim_file_nif.c over nifs/unix/unix_prim_file.c) and its four
// file-name BIFs (erl_unicode.c's prim_file:internal_name2native/1, ...). OTP's prim_file.beam
// runs unmodified over them: file:open(F, [raw]), file_io_server, OTP's file_server.
//
// An open file is a magic reference to an EFile. As in OTP, the file monitors the process that
// opened it (its owner, Process::resource_monitors) and closes when that process exits; every
// operation moves the file from idle to busy and back, so that a close (by the owner's exit,
// which may happen while another process is in the middle of an operation) never pulls the
// descriptor from under a read or write: the busy operation closes it when it finishes. OTP
// runs these NIFs on dirty I/O schedulers; beamlet runs them on the calling process's
// scheduler thread, synchronously, long reads and writes included.
//
// Paths arrive as prim_file:internal_name2native/1 made them: a binary ending in NUL. Errors
// are {error, Posix} with OTP's errno names.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/magic.hpp"
#include "vm/posix_errors.hpp"

namespace beamlet::bif {

using namespace vm;

// The POSIX error atom OTP uses for [err].
Term posix_atom(int err) { return atom(posix_error_name(err)); }

namespace {

// ---- arguments and results ----

Term posix_error(Process* p, int err) { return make_tuple_on(p, {atoms::error, posix_atom(err)}); }

bool int64_arg(Term t, std::int64_t* out) {
    std::optional<std::int64_t> v = is_integer(t) ? integer_to_int64(t) : std::nullopt;
    if (!v) return false;
    *out = *v;
    return true;
}

bool int_arg(Term t, int* out) {
    if (!is_small(t) || small_value(t) < INT_MIN || small_value(t) > INT_MAX) return false;
    *out = int(small_value(t));
    return true;
}

// A path from internal_name2native/1 (OTP's efile_marshal_path): a binary holding a NUL, with
// only NULs after the first one. Returns 0, or EINVAL.
int path_arg(Term t, std::string* out) {
    if (!is_binary(t)) return EINVAL;
    BitView v = bit_view(t);
    const char* bytes = reinterpret_cast<const char*>(v.aligned_bytes());
    std::string_view s(bytes, v.size_bytes());
    std::size_t nul = v.is_aligned() ? s.find('\0') : std::string_view::npos;
    if (nul == std::string_view::npos || s.find_first_not_of('\0', nul) != std::string_view::npos) return EINVAL;
    out->assign(bytes, nul);
    return 0;
}

// The binaries of iovec [t] (a proper list of binaries) as iovecs; unaligned ones are copied
// into [copies]. False if [t] is not an iovec.
bool iovec_arg(Term t, std::vector<iovec>* out, std::deque<std::string>* copies) {
    for (; is_list(t); t = cdr(t)) {
        Term b = car(t);
        if (!is_binary(b)) return false;
        BitView v = bit_view(b);
        if (v.size_bytes() == 0) continue;
        if (v.is_aligned()) {
            out->push_back(iovec{const_cast<std::uint8_t*>(v.aligned_bytes()), v.size_bytes()});
            continue;
        }
        std::string& copy = copies->emplace_back(v.size_bytes(), '\0');
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(copy.data()), 0, v.bit_size);
        out->push_back(iovec{copy.data(), copy.size()});
    }
    return is_nil(t);
}

// ---- system calls: whole reads and writes, retried on EINTR (unix_prim_file.c) ----

// Reads into [data] until it is full or the file ends (from [at] when set): the bytes read,
// or -1 with errno.
ssize_t read_fully(int fd, std::uint8_t* data, std::size_t size, std::optional<off_t> at) {
    std::size_t done = 0;
    while (done < size) {
        ssize_t n = at ? ::pread(fd, data + done, size - done, *at + off_t(done)) : ::read(fd, data + done, size - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) break;
        done += std::size_t(n);
    }
    return ssize_t(done);
}

// Writes all of [iov] (at [at] when set); false with errno on failure.
bool write_fully(int fd, std::vector<iovec> iov, std::optional<off_t> at) {
    std::size_t first = 0;
    while (first < iov.size()) {
        int count = int(std::min<std::size_t>(iov.size() - first, IOV_MAX));
        ssize_t n = at ? ::pwritev(fd, &iov[first], count, *at) : ::writev(fd, &iov[first], count);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) break;
        if (at) *at += n;
        for (std::size_t left = std::size_t(n); left > 0;) {
            iovec& head = iov[first];
            std::size_t take = std::min(left, head.iov_len);
            head.iov_base = static_cast<std::uint8_t*>(head.iov_base) + take;
            head.iov_len -= take;
            left -= take;
            if (head.iov_len == 0) ++first;
        }
    }
    return true;
}

// ---- open files ----

enum FileState : int { Idle, Busy, ClosePending, Closed };

struct EFile {
    std::atomic<int> state{Idle};
    int fd = -1;  // -1 once closed; closed only by whoever moved [state] to Closed
    Term owner = 0;
};

EFile* efile(MagicHandle* h) { return static_cast<EFile*>(h->data); }

void destroy_file(MagicHandle* h) {
    EFile* f = efile(h);
    if (f->fd >= 0) ::close(f->fd);
    delete f;
}

EFile* file_of(Term t) {
    if (!is_magic_ref(t)) return nullptr;
    MagicHandle* h = magic_handle(t);
    return h->destructor == destroy_file ? efile(h) : nullptr;
}

// Closes [f]'s descriptor; the caller moved its state to Closed. close(2) is not retried on
// EINTR: Linux has closed the descriptor either way.
int close_descriptor(EFile* f) {
    int fd = f->fd;
    f->fd = -1;
    return ::close(fd) == 0 ? 0 : errno;
}

// The owner of the file behind [h] exited (its down callback, on the owner's thread). OTP has
// its erts_prim_file process close the file, so as not to block a scheduler; beamlet closes it
// here. A file busy in another process's operation is closed by that operation when it ends.
void owner_down(MagicHandle* h, Term) {
    EFile* f = efile(h);
    for (;;) {
        int state = Idle;
        if (f->state.compare_exchange_strong(state, Closed, std::memory_order_acq_rel)) {
            close_descriptor(f);
            return;
        }
        if (state == ClosePending || state == Closed) return;
        if (f->state.compare_exchange_strong(state, ClosePending, std::memory_order_acq_rel)) return;
    }
}

// {ok, Ref} for descriptor [fd], now a file owned (and monitored) by [p].
Term new_file_ref(Process* p, int fd) {
    auto* f = new EFile();
    f->fd = fd;
    f->owner = p->id;
    auto* h = new MagicHandle();
    h->destructor = destroy_file;
    h->down = owner_down;
    h->data = f;
    add_resource_monitor(p, h);  // the owner's monitor holds a reference
    Word id[3];
    new_ref_id(p, id);
    return make_tuple_on(p, {atoms::ok, make_magic_ref(p, id, h)});
}

// Runs [op] on the file [ref] (OTP's file_handle_wrapper): badarg if [ref] is not a file,
// {error, einval} if it is closed or busy in another process.
template <class Op>
Term with_file(Process* p, Term ref, Op op) {
    EFile* f = file_of(ref);
    if (!f) return p->badarg();
    int state = Idle;
    if (!f->state.compare_exchange_strong(state, Busy, std::memory_order_acquire)) return posix_error(p, EINVAL);
    Term result = op(f);
    state = Busy;
    if (!f->state.compare_exchange_strong(state, Idle, std::memory_order_release)) {
        // ClosePending: the owner exited during the operation.
        f->state.store(Closed, std::memory_order_release);
        close_descriptor(f);
    }
    return result;
}

// open(2) flags for prim_file's modes (OTP's efile_translate_modelist and get_flags).
struct OpenModes {
    bool read = false, write = false, append = false, exclusive = false, sync = false;
    bool skip_type_check = false, directory = false;
};

OpenModes open_modes(Term list) {
    BEAMLET_CACHED_ATOM(am_read, "read");
    BEAMLET_CACHED_ATOM(am_write, "write");
    BEAMLET_CACHED_ATOM(am_append, "append");
    BEAMLET_CACHED_ATOM(am_exclusive, "exclusive");
    BEAMLET_CACHED_ATOM(am_sync, "sync");
    BEAMLET_CACHED_ATOM(am_skip_type_check, "skip_type_check");
    BEAMLET_CACHED_ATOM(am_directory, "directory");
    OpenModes m;
    for (; is_list(list); list = cdr(list)) {
        Term mode = car(list);
        if (mode == am_read) m.read = true;
        else if (mode == am_write) m.write = true;
        else if (mode == am_append) m.append = true;
        else if (mode == am_exclusive) m.exclusive = true;
        else if (mode == am_sync) m.sync = true;
        else if (mode == am_skip_type_check) m.skip_type_check = true;
        else if (mode == am_directory) m.directory = true;
        // raw, binary, delayed_write, ...: handled by the Erlang side.
    }
    if (m.append || m.exclusive) m.write = true;
    else if (!m.read && !m.write) m.read = true;
    return m;
}

int open_flags(const OpenModes& m) {
    int flags = m.read && m.write ? O_RDWR | O_CREAT : m.write ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY;
    if (m.append) flags = (flags & ~O_TRUNC) | O_APPEND;
    if (m.exclusive) flags |= O_EXCL;
    if (m.sync) flags |= O_SYNC;
    if (m.directory) flags |= O_DIRECTORY;
    // Descriptors stay out of the programs ports start (OTP's are inherited).
    return flags | O_CLOEXEC;
}

bool is_directory(int fd) {
    struct stat st {};
    return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

// Opens [path]; the descriptor, or -errno. A directory opens only in directory mode.
int open_path(const std::string& path, const OpenModes& m) {
    int fd;
    do fd = ::open(path.c_str(), open_flags(m), m.directory ? 0777 : 0666);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return -errno;
    if (!m.skip_type_check && !m.directory && is_directory(fd)) {
        ::close(fd);
        return -EISDIR;
    }
    return fd;
}

// ---- file information ----

// Access bits (OTP's efile_access_t).
constexpr unsigned AccessRead = 1, AccessWrite = 2;

// The #file_info{} tuple of [st] (times in POSIX seconds; prim_file converts them).
Term file_info(Process* p, const struct stat& st, unsigned access) {
    // The range every time representation can hold (OTP's EFILE_MIN/MAX_FILETIME).
    constexpr std::int64_t MIN_FILETIME = -2145916800LL, MAX_FILETIME = 253402300799LL;
    auto time = [&](std::time_t t) { return make_integer(p, std::clamp<std::int64_t>(t, MIN_FILETIME, MAX_FILETIME)); };
    auto u32 = [&](std::uint64_t v) { return make_integer(p, std::int64_t(std::uint32_t(v))); };
    Term type = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? atom("device")
                : S_ISDIR(st.st_mode)                      ? atom("directory")
                : S_ISREG(st.st_mode)                      ? atom("regular")
                : S_ISLNK(st.st_mode)                      ? atom("symlink")
                                                           : atom("other");
    Term access_atom = access == (AccessRead | AccessWrite) ? atom("read_write")
                       : access == AccessRead              ? atom("read")
                       : access == AccessWrite             ? atom("write")
                                                           : atom("none");
    Term* hp = p->alloc(15);
    hp[0] = make_arityval(14);
    hp[1] = atom("file_info");
    hp[2] = make_integer_u64(p, std::uint64_t(st.st_size));
    hp[3] = type;
    hp[4] = access_atom;
    hp[5] = time(st.st_atime);
    hp[6] = time(st.st_mtime);
    hp[7] = time(st.st_ctime);
    hp[8] = u32(st.st_mode);
    hp[9] = u32(st.st_nlink);
    hp[10] = u32(st.st_dev);
    hp[11] = u32(st.st_rdev);
    hp[12] = u32(st.st_ino);
    hp[13] = u32(st.st_uid);
    hp[14] = u32(st.st_gid);
    return make_boxed(hp);
}

// An open file's access, from its permission bits for this process's user and group.
unsigned handle_access(const struct stat& st) {
    if (st.st_uid == geteuid())
        return ((st.st_mode & S_IRUSR) ? AccessRead : 0) | ((st.st_mode & S_IWUSR) ? AccessWrite : 0);
    if (st.st_gid == getegid())
        return ((st.st_mode & S_IRGRP) ? AccessRead : 0) | ((st.st_mode & S_IWGRP) ? AccessWrite : 0);
    return ((st.st_mode & S_IROTH) ? AccessRead : 0) | ((st.st_mode & S_IWOTH) ? AccessWrite : 0);
}

// ok, or {error, Posix} for the result [r] of a system call that sets errno.
Term ok_or_errno(Process* p, int r) { return r == 0 ? atoms::ok : posix_error(p, errno); }

// Calls [fn] with the path [t]; {error, einval} for a malformed one.
template <class Fn>
Term with_path(Process* p, Term t, Fn fn) {
    std::string path;
    if (int err = path_arg(t, &path)) return posix_error(p, err);
    return fn(path);
}

}  // namespace

// ---- file names (erl_unicode.c's BIFs; file names are UTF-8 here) ----

// prim_file:internal_name2native(Name): a flat or deep character list, or a binary, as the
// NUL-terminated binary the NIFs take. badarg for anything else, or a name holding NUL.
Term bif_prim_file_internal_name2native(Process* p, Term* a) {
    std::string out;
    if (is_bitstring(a[0])) {
        if (!is_binary(a[0])) return p->badarg();
        BitView v = bit_view(a[0]);
        out.resize(v.size_bytes());
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(out.data()), 0, v.bit_size);
        if (out.find('\0') != std::string::npos) return p->badarg();
    } else if (is_list(a[0]) || is_nil(a[0])) {
        std::vector<Term> pending{a[0]};
        while (!pending.empty()) {
            Term t = pending.back();
            pending.pop_back();
            for (; is_list(t); t = cdr(t)) {
                Term c = car(t);
                if (is_list(c) || is_nil(c)) {
                    pending.push_back(cdr(t));
                    pending.push_back(c);
                    t = NIL;
                    break;
                }
                if (!is_small(c) || small_value(c) <= 0 || small_value(c) > 0x10FFFF ||
                    (small_value(c) >= 0xD800 && small_value(c) <= 0xDFFF))
                    return p->badarg();
                put_utf8(std::uint32_t(small_value(c)), out);
            }
            if (!is_nil(t)) return p->badarg();
        }
    } else {
        return p->badarg();
    }
    out.push_back('\0');
    return make_binary(p, out);
}

// prim_file:internal_native2name(Binary): the characters of a UTF-8 name, or {error, warning}
// for bytes that are not UTF-8 (OTP's default +fnu handling).
Term bif_prim_file_internal_native2name(Process* p, Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    std::string bytes(v.size_bytes(), '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(bytes.data()), 0, v.bit_size);
    if (!utf8_valid(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()))
        return make_tuple_on(p, {atoms::error, atom("warning")});
    return utf8_to_list(p, bytes);
}

// prim_file:internal_normalize_utf8(Binary): its characters in Unicode normalization form C;
// OTP's unicode module normalizes (badarg for bytes that are not UTF-8).
Term bif_prim_file_internal_normalize_utf8(Process* p, Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    std::string bytes(v.size_bytes(), '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(bytes.data()), 0, v.bit_size);
    if (!utf8_valid(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())) return p->badarg();
    return tail_call_erlang(p, p->vm.exports.get(atoms::unicode, atom("characters_to_nfc_list"), 1));
}

// prim_file:is_translatable(Binary): whether it is UTF-8.
Term bif_prim_file_is_translatable(Process* p, Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    std::string bytes(v.size_bytes(), '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(bytes.data()), 0, v.bit_size);
    return make_bool(utf8_valid(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

// ---- opening and closing ----

// prim_file:open_nif(Path, Modes): {ok, Ref}, owned by the caller.
Term bif_prim_file_open_nif(Process* p, Term* a) {
    if (!is_list(a[1]) && !is_nil(a[1])) return p->badarg();
    OpenModes modes = open_modes(a[1]);
    return with_path(p, a[0], [&](const std::string& path) {
        int fd = open_path(path, modes);
        return fd < 0 ? posix_error(p, -fd) : new_file_ref(p, fd);
    });
}

// prim_file:file_desc_to_ref_nif(Fd): {ok, Ref} for a descriptor already open.
Term bif_prim_file_file_desc_to_ref_nif(Process* p, Term* a) {
    int fd;
    if (!int_arg(a[0], &fd)) return p->badarg();
    if (fcntl(fd, F_GETFL) == -1 && errno == EBADF) return posix_error(p, EBADF);
    return new_file_ref(p, fd);
}

// prim_file:close_nif(Ref): ok, or {error, einval} if it is closed (or busy).
Term bif_prim_file_close_nif(Process* p, Term* a) {
    EFile* f = file_of(a[0]);
    if (!f) return p->badarg();
    int state = Idle;
    if (!f->state.compare_exchange_strong(state, Closed, std::memory_order_acq_rel)) return posix_error(p, EINVAL);
    remove_resource_monitor(p, f->owner, magic_handle(a[0]));
    int err = close_descriptor(f);
    return err ? posix_error(p, err) : atoms::ok;
}

// prim_file:delayed_close_nif(Ref): OTP's erts_prim_file process closes the files of exited
// owners with it; beamlet closes them as the owner exits, so there is nothing left to do.
Term bif_prim_file_delayed_close_nif(Process* p, Term* a) {
    if (!file_of(a[0])) return p->badarg();
    return atoms::ok;
}

// ---- operations on open files ----

// prim_file:read_nif(Ref, Size): {ok, Binary} of up to Size bytes, or eof.
Term bif_prim_file_read_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::int64_t size;
        if (!is_number(a[1])) return p->badarg();
        if (!int64_arg(a[1], &size) || size < 0) return posix_error(p, EINVAL);
        BinaryBuf* buf;
        try {
            buf = BinaryBuf::create(std::size_t(size));
        } catch (const std::bad_alloc&) {
            return posix_error(p, ENOMEM);
        }
        ssize_t got = read_fully(f->fd, buf->bytes, std::size_t(size), std::nullopt);
        if (got <= 0) {
            int err = errno;
            buf->release();
            BEAMLET_CACHED_ATOM(am_eof, "eof");
            return got == 0 ? am_eof : posix_error(p, err);
        }
        return make_tuple_on(p, {atoms::ok, binary_from_buffer(p, buf, std::size_t(got))});
    });
}

// prim_file:write_nif(Ref, IOVec): ok once all of it is written.
Term bif_prim_file_write_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::vector<iovec> iov;
        std::deque<std::string> copies;
        if (!iovec_arg(a[1], &iov, &copies)) return p->badarg();
        return write_fully(f->fd, std::move(iov), std::nullopt) ? atoms::ok : posix_error(p, errno);
    });
}

// prim_file:pread_nif(Ref, Offset, Size): {ok, Binary}, or eof; the position is unchanged.
Term bif_prim_file_pread_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::int64_t offset, size;
        if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
        if (!int64_arg(a[1], &offset) || !int64_arg(a[2], &size) || offset < 0 || size < 0)
            return posix_error(p, EINVAL);
        BinaryBuf* buf;
        try {
            buf = BinaryBuf::create(std::size_t(size));
        } catch (const std::bad_alloc&) {
            return posix_error(p, ENOMEM);
        }
        ssize_t got = read_fully(f->fd, buf->bytes, std::size_t(size), off_t(offset));
        if (got <= 0) {
            int err = errno;
            buf->release();
            BEAMLET_CACHED_ATOM(am_eof, "eof");
            return got == 0 ? am_eof : posix_error(p, err);
        }
        return make_tuple_on(p, {atoms::ok, binary_from_buffer(p, buf, std::size_t(got))});
    });
}

// prim_file:pwrite_nif(Ref, Offset, IOVec): ok; the position is unchanged.
Term bif_prim_file_pwrite_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::vector<iovec> iov;
        std::deque<std::string> copies;
        std::int64_t offset;
        if (!is_number(a[1]) || !iovec_arg(a[2], &iov, &copies)) return p->badarg();
        if (!int64_arg(a[1], &offset) || offset < 0) return posix_error(p, EINVAL);
        return write_fully(f->fd, std::move(iov), off_t(offset)) ? atoms::ok : posix_error(p, errno);
    });
}

// prim_file:seek_nif(Ref, bof | cur | eof, Offset): {ok, NewPosition}.
Term bif_prim_file_seek_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        BEAMLET_CACHED_ATOM(am_bof, "bof");
        BEAMLET_CACHED_ATOM(am_cur, "cur");
        BEAMLET_CACHED_ATOM(am_eof, "eof");
        std::int64_t offset;
        if (!int64_arg(a[2], &offset)) return p->badarg();
        int whence = a[1] == am_bof ? SEEK_SET : a[1] == am_cur ? SEEK_CUR : a[1] == am_eof ? SEEK_END : -1;
        if (whence < 0) return p->badarg();
        off_t at = ::lseek(f->fd, off_t(offset), whence);
        if (at < 0) return posix_error(p, errno ? errno : EINVAL);
        return make_tuple_on(p, {atoms::ok, make_integer_u64(p, std::uint64_t(at))});
    });
}

// prim_file:sync_nif(Ref, DataOnly): fsync(2), or fdatasync(2) when DataOnly is not 0.
Term bif_prim_file_sync_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        int data_only;
        if (!int_arg(a[1], &data_only)) return p->badarg();
        return ok_or_errno(p, data_only ? ::fdatasync(f->fd) : ::fsync(f->fd));
    });
}

// prim_file:truncate_nif(Ref): cuts the file at the current position.
Term bif_prim_file_truncate_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        off_t at = ::lseek(f->fd, 0, SEEK_CUR);
        if (at < 0) return posix_error(p, errno);
        return ok_or_errno(p, ::ftruncate(f->fd, at));
    });
}

// prim_file:allocate_nif(Ref, Offset, Length): reserves the space (fallocate(2), falling back
// to posix_fallocate(3) as OTP does).
Term bif_prim_file_allocate_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::int64_t offset, length;
        if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
        if (!int64_arg(a[1], &offset) || !int64_arg(a[2], &length) || offset < 0 || length < 0)
            return posix_error(p, EINVAL);
        int r;
        do r = ::fallocate(f->fd, 0, off_t(offset), off_t(length));
        while (r < 0 && errno == EINTR);
        if (r < 0) {
            do r = ::posix_fallocate(f->fd, off_t(offset), off_t(length));
            while (r == EINTR);
            if (r != 0) return posix_error(p, r);
        }
        return atoms::ok;
    });
}

// prim_file:advise_nif(Ref, Offset, Length, Advice): ok (advice is only a hint; OTP ignores
// what posix_fadvise(2) answers too).
Term bif_prim_file_advise_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::int64_t offset, length;
        if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
        if (!int64_arg(a[1], &offset) || !int64_arg(a[2], &length) || offset < 0 || length < 0)
            return posix_error(p, EINVAL);
        static const std::pair<Term, int> advices[] = {
            {atom("normal"), POSIX_FADV_NORMAL},        {atom("random"), POSIX_FADV_RANDOM},
            {atom("sequential"), POSIX_FADV_SEQUENTIAL}, {atom("will_need"), POSIX_FADV_WILLNEED},
            {atom("dont_need"), POSIX_FADV_DONTNEED},    {atom("no_reuse"), POSIX_FADV_NOREUSE}};
        for (const auto& [name, advice] : advices) {
            if (a[3] != name) continue;
            (void)::posix_fadvise(f->fd, off_t(offset), off_t(length), advice);
            return atoms::ok;
        }
        return posix_error(p, EINVAL);
    });
}

// prim_file:get_handle_nif(Ref): the descriptor, as the bytes of a native int.
Term bif_prim_file_get_handle_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        int fd = f->fd;
        return make_binary(p, reinterpret_cast<const std::uint8_t*>(&fd), sizeof fd);
    });
}

// prim_file:ipread_s32bu_p32bu_nif(Ref, Offset, MaxSize): reads the 8-byte pointer
// <<Size:32, Position:32>> at Offset, then Size bytes at Position: {ok, {Size, Position, Data}}
// ({..., eof} when nothing is there); eof when the pointer is short or Size exceeds MaxSize.
Term bif_prim_file_ipread_s32bu_p32bu_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        std::int64_t offset, max_size;
        if (!is_number(a[1]) || !is_number(a[2])) return p->badarg();
        if (!int64_arg(a[1], &offset) || !int64_arg(a[2], &max_size) || offset < 0 || max_size >= (std::int64_t(1) << 31))
            return posix_error(p, EINVAL);
        BEAMLET_CACHED_ATOM(am_eof, "eof");
        std::uint8_t pointer[8];
        ssize_t got = read_fully(f->fd, pointer, sizeof pointer, off_t(offset));
        if (got < 0) return posix_error(p, errno);
        if (got < ssize_t(sizeof pointer)) return am_eof;
        auto be32 = [](const std::uint8_t* b) {
            return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
        };
        std::uint32_t size = be32(pointer), position = be32(pointer + 4);
        if (std::int64_t(size) > max_size) return am_eof;
        BinaryBuf* buf = BinaryBuf::create(size);
        got = read_fully(f->fd, buf->bytes, size, off_t(position));
        if (got < 0) {
            int err = errno;
            buf->release();
            return posix_error(p, err);
        }
        Term data = am_eof;
        if (got == 0) buf->release();
        else data = binary_from_buffer(p, buf, std::size_t(got));
        Term info = make_tuple_on(p, {make_integer_u64(p, size), make_integer_u64(p, position), data});
        return make_tuple_on(p, {atoms::ok, info});
    });
}

// prim_file:read_handle_info_nif(Ref): the #file_info{} of the open file.
Term bif_prim_file_read_handle_info_nif(Process* p, Term* a) {
    return with_file(p, a[0], [&](EFile* f) -> Term {
        struct stat st {};
        if (::fstat(f->fd, &st) != 0) return posix_error(p, errno);
        return file_info(p, st, handle_access(st));
    });
}

// ---- operations on names ----

// prim_file:read_file_nif(Path): {ok, Binary} of the whole file.
Term bif_prim_file_read_file_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        int fd = open_path(path, OpenModes{.read = true});
        if (fd < 0) return posix_error(p, -fd);
        struct stat st {};
        std::size_t size = ::fstat(fd, &st) == 0 ? std::size_t(st.st_size) : 0;
        // A size of 0 (proc files, pipes): read until the end, growing the buffer.
        std::size_t capacity = size ? size : 16 << 10;
        BinaryBuf* buf = nullptr;
        std::size_t used = 0;
        int err = 0;
        try {
            buf = BinaryBuf::create(capacity);
            for (;;) {
                ssize_t n = read_fully(fd, buf->bytes + used, capacity - used, std::nullopt);
                if (n < 0) {
                    err = errno;
                    break;
                }
                used += std::size_t(n);
                if (used < capacity || used == size) break;
                BinaryBuf* bigger = BinaryBuf::create(capacity * 2);
                std::memcpy(bigger->bytes, buf->bytes, used);
                buf->release();
                buf = bigger;
                capacity *= 2;
            }
        } catch (const std::bad_alloc&) {
            err = ENOMEM;
        }
        ::close(fd);
        if (err) {
            if (buf) buf->release();
            return posix_error(p, err);
        }
        return make_tuple_on(p, {atoms::ok, binary_from_buffer(p, buf, used)});
    });
}

// prim_file:read_info_nif(Path, FollowLinks): the #file_info{} tuple (stat(2) or lstat(2));
// access is what access(2) grants this process.
Term bif_prim_file_read_info_nif(Process* p, Term* a) {
    int follow;
    if (!int_arg(a[1], &follow)) return p->badarg();
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        struct stat st {};
        if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) return posix_error(p, errno);
        unsigned access = (::access(path.c_str(), R_OK) == 0 ? AccessRead : 0) |
                          (::access(path.c_str(), W_OK) == 0 ? AccessWrite : 0);
        return file_info(p, st, access);
    });
}

// prim_file:set_permissions_nif(Path, Mode): chmod(2) with the mode's permission, set-user
// and set-group bits (without the last two when they are refused).
Term bif_prim_file_set_permissions_nif(Process* p, Term* a) {
    if (!is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > SWord(UINT32_MAX)) return p->badarg();
    mode_t mode = mode_t(small_value(a[1])) & (S_ISUID | S_ISGID | S_IRWXU | S_IRWXG | S_IRWXO);
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        if (::chmod(path.c_str(), mode) == 0) return atoms::ok;
        return ok_or_errno(p, ::chmod(path.c_str(), mode & ~(S_ISUID | S_ISGID)));
    });
}

// prim_file:set_owner_nif(Path, Uid, Gid): chown(2); -1 leaves one unchanged.
Term bif_prim_file_set_owner_nif(Process* p, Term* a) {
    int uid, gid;
    if (!int_arg(a[1], &uid) || !int_arg(a[2], &gid)) return p->badarg();
    return with_path(p, a[0], [&](const std::string& path) {
        return ok_or_errno(p, ::chown(path.c_str(), uid_t(uid), gid_t(gid)));
    });
}

// prim_file:set_time_nif(Path, ATime, MTime, CTime): utime(2), in POSIX seconds (a Unix file
// keeps no settable creation time).
Term bif_prim_file_set_time_nif(Process* p, Term* a) {
    std::int64_t atime, mtime, ctime;
    if (!int64_arg(a[1], &atime) || !int64_arg(a[2], &mtime) || !int64_arg(a[3], &ctime)) return p->badarg();
    return with_path(p, a[0], [&](const std::string& path) {
        struct utimbuf times {};
        times.actime = std::time_t(atime);
        times.modtime = std::time_t(mtime);
        return ok_or_errno(p, ::utime(path.c_str(), &times));
    });
}

// prim_file:read_link_nif(Path): {ok, Binary}, the link's target.
Term bif_prim_file_read_link_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        std::string target(256, '\0');
        for (;;) {
            ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
            if (n <= 0) return posix_error(p, errno);
            if (std::size_t(n) < target.size()) {
                target.resize(std::size_t(n));
                return make_tuple_on(p, {atoms::ok, make_binary(p, target)});
            }
            target.resize(target.size() * 2);
        }
    });
}

// prim_file:list_dir_nif(Path): {ok, [Binary]}, the names but "." and "..".
Term bif_prim_file_list_dir_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        DIR* dir = ::opendir(path.c_str());
        if (!dir) return posix_error(p, errno);
        Term names = NIL;
        while (struct dirent* e = ::readdir(dir)) {
            std::string_view name = e->d_name;
            if (name == "." || name == "..") continue;
            names = make_cons_on(p->alloc(2), make_binary(p, name), names);
        }
        ::closedir(dir);
        return make_tuple_on(p, {atoms::ok, names});
    });
}

// Calls [fn] with the two paths [from] and [to] (rename, links).
template <class Fn>
Term with_two_paths(Process* p, Term from, Term to, Fn fn) {
    std::string from_path, to_path;
    if (int err = path_arg(from, &from_path)) return posix_error(p, err);
    if (int err = path_arg(to, &to_path)) return posix_error(p, err);
    return fn(from_path, to_path);
}

// prim_file:rename_nif(From, To)
Term bif_prim_file_rename_nif(Process* p, Term* a) {
    return with_two_paths(p, a[0], a[1], [&](const std::string& from, const std::string& to) -> Term {
        if (::rename(from.c_str(), to.c_str()) == 0) return atoms::ok;
        if (errno == ENOTEMPTY) return posix_error(p, EEXIST);
        // Linux reports renaming "/" as EBUSY or EACCES.
        if (from == "/") return posix_error(p, EINVAL);
        return posix_error(p, errno);
    });
}

// prim_file:make_hard_link_nif(Existing, New)
Term bif_prim_file_make_hard_link_nif(Process* p, Term* a) {
    return with_two_paths(p, a[0], a[1], [&](const std::string& existing, const std::string& name) {
        return ok_or_errno(p, ::link(existing.c_str(), name.c_str()));
    });
}

// prim_file:make_soft_link_nif(Existing, New)
Term bif_prim_file_make_soft_link_nif(Process* p, Term* a) {
    return with_two_paths(p, a[0], a[1], [&](const std::string& existing, const std::string& name) {
        return ok_or_errno(p, ::symlink(existing.c_str(), name.c_str()));
    });
}

// prim_file:make_dir_nif(Path)
Term bif_prim_file_make_dir_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) { return ok_or_errno(p, ::mkdir(path.c_str(), 0777)); });
}

// prim_file:del_file_nif(Path): eperm for a directory (Linux says eisdir).
Term bif_prim_file_del_file_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        if (::unlink(path.c_str()) == 0) return atoms::ok;
        return posix_error(p, errno == EISDIR ? EPERM : errno);
    });
}

// prim_file:del_dir_nif(Path): eexist for a directory that is not empty, einval for the
// current directory.
Term bif_prim_file_del_dir_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) -> Term {
        if (::rmdir(path.c_str()) == 0) return atoms::ok;
        int err = errno == ENOTEMPTY ? EEXIST : errno;
        if (err == EEXIST) {
            struct stat dir {}, cwd {};
            if (::stat(path.c_str(), &dir) == 0 && ::stat(".", &cwd) == 0 && dir.st_ino == cwd.st_ino &&
                dir.st_dev == cwd.st_dev)
                err = EINVAL;
        }
        return posix_error(p, err);
    });
}

// prim_file:get_device_cwd_nif(Drive): Windows only.
Term bif_prim_file_get_device_cwd_nif(Process* p, Term* a) {
    int drive;
    if (!int_arg(a[0], &drive)) return p->badarg();
    return posix_error(p, ENOTSUP);
}

// prim_file:set_cwd_nif(Path): chdir(2), for the whole VM.
Term bif_prim_file_set_cwd_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string& path) { return ok_or_errno(p, ::chdir(path.c_str())); });
}

// prim_file:get_cwd_nif(): {ok, Binary}.
Term bif_prim_file_get_cwd_nif(Process* p, Term*) {
    std::string cwd(256, '\0');
    while (!::getcwd(cwd.data(), cwd.size())) {
        if (errno != ERANGE) return posix_error(p, errno);
        cwd.resize(cwd.size() * 2);
    }
    cwd.resize(std::strlen(cwd.c_str()));
    return make_tuple_on(p, {atoms::ok, make_binary(p, cwd)});
}

// prim_file:altname_nif(Path): Windows only.
Term bif_prim_file_altname_nif(Process* p, Term* a) {
    return with_path(p, a[0], [&](const std::string&) { return posix_error(p, ENOTSUP); });
}

}  // namespace beamlet::bif
