// jit/patch_plugin.hpp — PatchPlugin: the JITLink pass that turns the entry NOPs of patchable
// functions into disabled breakpoint sites, and the registry of those sites per module
// (as BeamAsm emits a patchable breakpoint at each function entry: OTP's
// erts/emulator/beam/jit/x86/instr_trace.cpp).
//
// The rewrite runs in PostFixupPasses: addresses are final, the content still sits in the
// writable working memory, and no code of the graph has run yet. A site becomes visible to
// site()/sites() only once its module is emitted, and disappears when the module's
// ResourceTracker is removed.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>

#include "jit/engine.hpp"

namespace beamlet::jit {

class PatchPlugin final : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
    // The site whose executable entry is [entry], or null.
    const PatchSite* site(std::uint64_t entry) const;
    // Every live site, in link order.
    std::vector<const PatchSite*> sites() const;

    void modifyPassConfig(llvm::orc::MaterializationResponsibility& MR, llvm::jitlink::LinkGraph& G,
                          llvm::jitlink::PassConfiguration& Config) override;
    llvm::Error notifyEmitted(llvm::orc::MaterializationResponsibility& MR) override;
    llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility& MR) override;
    llvm::Error notifyRemovingResources(llvm::orc::JITDylib& JD, llvm::orc::ResourceKey K) override;
    void notifyTransferringResources(llvm::orc::JITDylib& JD, llvm::orc::ResourceKey DstKey,
                                     llvm::orc::ResourceKey SrcKey) override;

private:
    // A linked site and the module (resource key) that owns its code.
    struct Record {
        PatchSite site;
        llvm::orc::ResourceKey key;
    };

    // Rewrites the entries of [G]'s patchable functions; the sites wait in m_pending until
    // [MR] is emitted.
    llvm::Error rewrite_sites(llvm::orc::MaterializationResponsibility& MR, llvm::jitlink::LinkGraph& G);

    mutable std::mutex m_mutex;
    std::unordered_map<const llvm::orc::MaterializationResponsibility*, std::vector<PatchSite>> m_pending;
    // A list, so the PatchSite pointers handed out stay valid until their module is removed.
    std::list<Record> m_sites;
    std::unordered_map<std::uint64_t, const PatchSite*> m_by_entry;
};

}  // namespace beamlet::jit
