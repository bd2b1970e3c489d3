// bif/file_bifs.cpp — beamlet:file_request/1: the file operations behind beamlet's file server
// (bif/lib/beamlet_file_server.erl), which answers OTP's file module in place of OTP's
// file_server and prim_file: {get_cwd}, {read_file, F}, {write_file, F, Bin}, {make_dir, D},
// {del_dir, D}, {delete, F}, {rename, From, To}, {list_dir, D}, {read_file_info, F}. Results
// and POSIX error atoms are OTP's.
//
// beamlet:file_open/2 and beamlet:file_op/2: open files for beamlet's prim_file
// (bif/lib/prim_file.erl), under OTP's file_io_server and raw files. A descriptor belongs to
// the process that opened it (Process::open_files): only it may use it, and it closes when
// that process exits.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <dirent.h>
#include <fcntl.h>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"

namespace beamlet::bif {

using namespace vm;

// A file name: a flat list of characters (UTF-8 encoded) or a binary.
bool name_arg(Term t, std::string* out) {
    if (is_binary(t)) {
        BitView v = bit_view(t);
        out->resize(v.size_bytes());
        copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(out->data()), 0, v.bit_size);
        return out->find('\0') == std::string::npos;
    }
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0) return false;
        put_utf8(std::uint32_t(small_value(c)), *out);
    }
    return is_nil(t) && out->find('\0') == std::string::npos;
}

// The POSIX error atom OTP uses for [err].
Term posix_atom(int err) {
    switch (err) {
    case ENOENT: return atom("enoent");
    case EEXIST: return atom("eexist");
    case EACCES: return atom("eacces");
    case EPERM: return atom("eperm");
    case ENOTDIR: return atom("enotdir");
    case EISDIR: return atom("eisdir");
    case ENOTEMPTY: return atom("eexist");  // OTP reports a non-empty directory so
    case ENOSPC: return atom("enospc");
    case EROFS: return atom("erofs");
    case EXDEV: return atom("exdev");
    case EBUSY: return atom("ebusy");
    case EINVAL: return atom("einval");
    case ENAMETOOLONG: return atom("enametoolong");
    case ELOOP: return atom("eloop");
    case EBADF: return atom("ebadf");
    case EAGAIN: return atom("eagain");
    case EMFILE: return atom("emfile");
    case ENFILE: return atom("enfile");
    case EFBIG: return atom("efbig");
    case ESPIPE: return atom("espipe");
    case EPIPE: return atom("epipe");
    case ENXIO: return atom("enxio");
    case ENODEV: return atom("enodev");
    case ETXTBSY: return atom("etxtbsy");
    case EOVERFLOW: return atom("eoverflow");
    case EDQUOT: return atom("edquot");
    default: return atom("eio");
    }
}

namespace {

Term error_of(Process* p, int err) { return make_tuple_on(p, {atoms::error, posix_atom(err)}); }

// A file name as a list of code points (file names come back as lists).
Term chars_of(Process* p, const std::string& s) { return utf8_to_list(p, s); }

// {{Y, M, D}, {H, Mi, S}} in local time.
Term local_datetime(Process* p, std::time_t t) {
    std::tm tm{};
    localtime_r(&t, &tm);
    Term date = make_tuple_on(p, {make_small(tm.tm_year + 1900), make_small(tm.tm_mon + 1), make_small(tm.tm_mday)});
    Term time = make_tuple_on(p, {make_small(tm.tm_hour), make_small(tm.tm_min), make_small(tm.tm_sec)});
    return make_tuple_on(p, {date, time});
}

// The owner's permission bit [user_bit] (OTP reports access as the owner's).
bool access_ok(const struct stat& st, mode_t user_bit) { return (st.st_mode & user_bit) != 0; }

Term file_info(Process* p, const struct stat& st) {
    Term type = S_ISREG(st.st_mode)   ? atom("regular")
                : S_ISDIR(st.st_mode) ? atom("directory")
                : S_ISLNK(st.st_mode) ? atom("symlink")
                : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? atom("device")
                                                              : atom("other");
    bool r = access_ok(st, S_IRUSR), w = access_ok(st, S_IWUSR);
    Term access = r && w ? atom("read_write") : r ? atom("read") : w ? atom("write") : atom("none");
    Term* hp = p->alloc(15);
    hp[0] = make_arityval(14);
    hp[1] = atom("file_info");
    hp[2] = make_integer(p, std::int64_t(st.st_size));
    hp[3] = type;
    hp[4] = access;
    hp[5] = local_datetime(p, st.st_atime);
    hp[6] = local_datetime(p, st.st_mtime);
    hp[7] = local_datetime(p, st.st_ctime);
    hp[8] = make_integer(p, std::int64_t(st.st_mode));
    hp[9] = make_integer(p, std::int64_t(st.st_nlink));
    hp[10] = make_integer(p, std::int64_t(major(st.st_dev)));
    hp[11] = make_integer(p, std::int64_t(minor(st.st_dev)));
    hp[12] = make_integer(p, std::int64_t(st.st_ino));
    hp[13] = make_integer(p, std::int64_t(st.st_uid));
    hp[14] = make_integer(p, std::int64_t(st.st_gid));
    return make_boxed(hp);
}

}  // namespace

Term bif_beamlet_file_request(Process* p, Term* a) {
    Term req = a[0];
    if (!is_tuple(req) || tuple_arity(req) == 0 || !is_atom(tuple_element(req, 0))) return p->badarg();
    const std::string& op = atom_text(tuple_element(req, 0));
    Word n = tuple_arity(req);
    std::string f1, f2;
    if (op == "get_cwd" && n == 1) {
        char buf[4096];
        if (!getcwd(buf, sizeof buf)) return error_of(p, errno);
        return make_tuple_on(p, {atoms::ok, chars_of(p, buf)});
    }
    if (n >= 2 && !name_arg(tuple_element(req, 1), &f1)) return make_tuple_on(p, {atoms::error, atom("einval")});
    if (op == "read_file" && n == 2) {
        std::ifstream in(f1, std::ios::binary);
        struct stat st{};
        if (stat(f1.c_str(), &st) != 0) return error_of(p, errno);
        if (S_ISDIR(st.st_mode)) return error_of(p, EISDIR);
        if (!in) return error_of(p, errno ? errno : EACCES);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return make_tuple_on(p, {atoms::ok, make_binary(p, bytes)});
    }
    if (op == "write_file" && n == 3) {
        std::string bytes;
        if (!iolist_to_bytes(tuple_element(req, 2), &bytes)) return p->badarg();
        std::ofstream out(f1, std::ios::binary | std::ios::trunc);
        if (!out) {
            struct stat st{};
            if (stat(f1.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return error_of(p, EISDIR);
            return error_of(p, errno ? errno : EACCES);
        }
        out.write(bytes.data(), std::streamsize(bytes.size()));
        return out ? atoms::ok : error_of(p, errno ? errno : EIO);
    }
    if (op == "make_dir" && n == 2) return mkdir(f1.c_str(), 0777) == 0 ? atoms::ok : error_of(p, errno);
    if (op == "del_dir" && n == 2) return rmdir(f1.c_str()) == 0 ? atoms::ok : error_of(p, errno);
    if (op == "delete" && n == 2) return unlink(f1.c_str()) == 0 ? atoms::ok : error_of(p, errno);
    if (op == "rename" && n == 3) {
        if (!name_arg(tuple_element(req, 2), &f2)) return make_tuple_on(p, {atoms::error, atom("einval")});
        return std::rename(f1.c_str(), f2.c_str()) == 0 ? atoms::ok : error_of(p, errno);
    }
    if (op == "list_dir" && n == 2) {
        DIR* d = opendir(f1.c_str());
        if (!d) return error_of(p, errno);
        Term l = NIL;
        while (struct dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name == "." || name == "..") continue;
            l = make_cons_on(p->alloc(2), chars_of(p, name), l);
        }
        closedir(d);
        return make_tuple_on(p, {atoms::ok, l});
    }
    if ((op == "read_file_info" || op == "read_link_info") && n >= 2) {
        struct stat st{};
        int r = op == "read_file_info" ? stat(f1.c_str(), &st) : lstat(f1.c_str(), &st);
        if (r != 0) return error_of(p, errno);
        return make_tuple_on(p, {atoms::ok, file_info(p, st)});
    }
    return make_tuple_on(p, {atoms::error, atom("enotsup")});
}

// beamlet:file_open(Name, Modes): Modes among read, write, append, exclusive, sync; as
// OTP, write alone truncates and creates, append implies write, neither means read.
Term bif_beamlet_file_open(Process* p, Term* a) {
    std::string name;
    if (!name_arg(a[0], &name)) return make_tuple_on(p, {atoms::error, atom("einval")});
    bool read = false, write = false, append = false, exclusive = false, sync = false;
    for (Term l = a[1]; is_list(l); l = cdr(l)) {
        Term m = car(l);
        if (m == atom("read")) read = true;
        else if (m == atom("write")) write = true;
        else if (m == atom("append")) append = true;
        else if (m == atom("exclusive")) exclusive = true;
        else if (m == atom("sync")) sync = true;
    }
    if (append || exclusive) write = true;
    if (!write) read = true;
    int flags = read && write ? O_RDWR : write ? O_WRONLY : O_RDONLY;
    if (write) flags |= O_CREAT;
    if (write && !read && !append && !exclusive) flags |= O_TRUNC;
    if (append) flags |= O_APPEND;
    if (exclusive) flags |= O_EXCL;
    if (sync) flags |= O_SYNC;
    int fd = ::open(name.c_str(), flags | O_CLOEXEC, 0666);
    if (fd < 0) return error_of(p, errno);
    struct stat st{};
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        return error_of(p, EISDIR);
    }
    p->open_files.push_back(fd);
    return make_tuple_on(p, {atoms::ok, make_small(fd)});
}

// beamlet:file_op(Fd, Request): {read, N} -> {ok, Bin} | eof; {write, IoData}; {pread, Pos, N};
// {pwrite, Pos, IoData}; {position, bof | cur | eof, Offset} -> {ok, NewPos}; close; sync;
// datasync; truncate. Errors are {error, Posix}.
Term bif_beamlet_file_op(Process* p, Term* a) {
    if (!is_small(a[0])) return p->badarg();
    int fd = int(small_value(a[0]));
    auto owned = std::find(p->open_files.begin(), p->open_files.end(), fd);
    if (owned == p->open_files.end()) return p->error(atom("not_on_controlling_process"));
    Term req = a[1];
    if (is_atom(req)) {
        const std::string& op = atom_text(req);
        int r;
        if (op == "close") {
            p->open_files.erase(owned);
            r = ::close(fd);
        } else if (op == "sync") {
            r = fsync(fd);
        } else if (op == "datasync") {
            r = fdatasync(fd);
        } else if (op == "truncate") {
            off_t at = lseek(fd, 0, SEEK_CUR);
            r = at < 0 ? -1 : ftruncate(fd, at);
        } else {
            return p->badarg();
        }
        return r == 0 ? atoms::ok : error_of(p, errno);
    }
    if (!is_tuple(req) || tuple_arity(req) < 2 || !is_atom(tuple_element(req, 0))) return p->badarg();
    const std::string& op = atom_text(tuple_element(req, 0));
    auto read_result = [&](std::string& buf, ssize_t got) {
        if (got < 0) return error_of(p, errno);
        if (got == 0 && !buf.empty()) return atom("eof");
        buf.resize(std::size_t(got));
        return make_tuple_on(p, {atoms::ok, make_binary(p, buf)});
    };
    auto write_all = [&](const std::string& bytes, std::optional<off_t> at) {
        std::size_t done = 0;
        while (done < bytes.size()) {
            ssize_t n = at ? pwrite(fd, bytes.data() + done, bytes.size() - done, *at + off_t(done))
                           : ::write(fd, bytes.data() + done, bytes.size() - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                return error_of(p, errno);
            }
            done += std::size_t(n);
        }
        return atoms::ok;
    };
    auto size_arg = [](Term t, std::int64_t* out) {
        if (!is_small(t) || small_value(t) < 0) return false;
        *out = small_value(t);
        return true;
    };
    std::int64_t n, pos;
    if (op == "read" && tuple_arity(req) == 2 && size_arg(tuple_element(req, 1), &n)) {
        std::string buf(std::size_t(n), '\0');
        ssize_t got;
        do got = ::read(fd, buf.data(), buf.size());
        while (got < 0 && errno == EINTR);
        return read_result(buf, got);
    }
    if (op == "pread" && tuple_arity(req) == 3 && size_arg(tuple_element(req, 1), &pos) &&
        size_arg(tuple_element(req, 2), &n)) {
        std::string buf(std::size_t(n), '\0');
        ssize_t got;
        do got = ::pread(fd, buf.data(), buf.size(), off_t(pos));
        while (got < 0 && errno == EINTR);
        return read_result(buf, got);
    }
    if (op == "write" && tuple_arity(req) == 2) {
        std::string bytes;
        if (!iolist_to_bytes(tuple_element(req, 1), &bytes)) return p->badarg();
        return write_all(bytes, std::nullopt);
    }
    if (op == "pwrite" && tuple_arity(req) == 3 && size_arg(tuple_element(req, 1), &pos)) {
        std::string bytes;
        if (!iolist_to_bytes(tuple_element(req, 2), &bytes)) return p->badarg();
        return write_all(bytes, off_t(pos));
    }
    if (op == "position" && tuple_arity(req) == 3 && is_small(tuple_element(req, 2))) {
        Term whence = tuple_element(req, 1);
        int w = whence == atom("bof") ? SEEK_SET : whence == atom("cur") ? SEEK_CUR : whence == atom("eof") ? SEEK_END : -1;
        if (w < 0) return p->badarg();
        off_t r = lseek(fd, off_t(small_value(tuple_element(req, 2))), w);
        if (r < 0) return error_of(p, errno);
        return make_tuple_on(p, {atoms::ok, make_integer(p, std::int64_t(r))});
    }
    return p->badarg();
}

}  // namespace beamlet::bif
