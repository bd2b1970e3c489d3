// vm/posix_errors.hpp — the names OTP gives POSIX error numbers (erl_errno_id's): what
// file, socket and port errors report as atoms (enoent, econnrefused, ...).
#pragma once

namespace beamlet::vm {

// The lowercase name of [err] ("eacces"), or "unknown".
const char* posix_error_name(int err);

}  // namespace beamlet::vm
