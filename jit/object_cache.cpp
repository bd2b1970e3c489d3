// jit/object_cache.cpp — DiskObjectCache.
#include "jit/object_cache.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include "vm/config.hpp"

namespace beamlet::jit {

namespace fs = std::filesystem;

namespace {

// The identity of a file: its size and modification time.
std::string file_identity(const char* path) {
    struct stat st {};
    if (!path || stat(path, &st) != 0) return "unknown";
    return std::to_string(st.st_size) + "." + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

// This build's identity: the executable's (the runtime the code calls into) and the shared
// object's that holds this compiler (libbeamlet_jit.so, rebuilt alone when only jit/ changes):
// any rebuild changes the code the compiler emits, so it invalidates the cache.
std::string binary_identity() {
    Dl_info info {};
    const char* compiler = dladdr(reinterpret_cast<void*>(&file_identity), &info) ? info.dli_fname : nullptr;
    return file_identity("/proc/self/exe") + "|" + file_identity(compiler);
}

std::string default_directory() {
    const vm::Config& config = vm::config();
    if (config.jit_cache) return *config.jit_cache;
    if (!config.cache_home.empty()) return config.cache_home + "/beamlet/jit";
    return {};
}

}  // namespace

std::unique_ptr<DiskObjectCache> DiskObjectCache::open_default(const std::string& flavour) {
    std::string dir = default_directory();
    if (dir.empty() || dir == "off") return nullptr;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return nullptr;
    std::size_t salt = std::hash<std::string>{}(binary_identity() + "|" + flavour);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016zx", salt);
    return std::unique_ptr<DiskObjectCache>(new DiskObjectCache(dir, hex));
}

std::string DiskObjectCache::path_for(const llvm::Module* module) const {
    return m_dir + "/" + module->getModuleIdentifier() + "-" + m_salt + ".o";
}

void DiskObjectCache::notifyObjectCompiled(const llvm::Module* module, llvm::MemoryBufferRef object) {
    // Written under a unique name and renamed into place: concurrent runs never see half a file.
    std::string path = path_for(module);
    std::string temp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(temp, std::ios::binary);
        out.write(object.getBufferStart(), std::streamsize(object.getBufferSize()));
        if (!out) {
            std::remove(temp.c_str());
            return;
        }
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) fs::remove(temp, ec);
}

std::unique_ptr<llvm::MemoryBuffer> DiskObjectCache::getObject(const llvm::Module* module) {
    auto buffer = llvm::MemoryBuffer::getFile(path_for(module), /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer) return nullptr;
    return std::move(*buffer);
}

}  // namespace beamlet::jit
