// jit/object_cache.hpp — compiled objects kept on disk between runs (DESIGN.md §5): the code
// of a module depends only on its .beam and on this beamlet binary (the IR refers to every
// run-specific address through symbols defined at link time), so the key is the module's MD5
// (its LLVM module identifier) plus the binary's identity, the target and the options.
#pragma once

#include <memory>
#include <string>

#include <llvm/ExecutionEngine/ObjectCache.h>

namespace beamlet::jit {

class DiskObjectCache : public llvm::ObjectCache {
public:
    // The cache in $BEAMLET_JIT_CACHE, else $XDG_CACHE_HOME/beamlet/jit, else
    // ~/.cache/beamlet/jit; null when BEAMLET_JIT_CACHE=off or no directory can be made.
    // [flavour] names what else the code depends on (triple, CPU, options).
    static std::unique_ptr<DiskObjectCache> open_default(const std::string& flavour);

    void notifyObjectCompiled(const llvm::Module* module, llvm::MemoryBufferRef object) override;
    std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module* module) override;

    const std::string& directory() const { return m_dir; }

private:
    DiskObjectCache(std::string dir, std::string salt) : m_dir(std::move(dir)), m_salt(std::move(salt)) {}
    std::string path_for(const llvm::Module* module) const;

    std::string m_dir;
    std::string m_salt;  // the binary's identity and the flavour, hashed
};

}  // namespace beamlet::jit
