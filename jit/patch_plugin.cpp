// jit/patch_plugin.cpp — PatchPlugin: rewrites patchable-function-entry NOPs into disabled
// breakpoint sites at link time and keeps the site registry.
#include "jit/patch_plugin.hpp"

#include <algorithm>
#include <cstring>

#include <llvm/ExecutionEngine/JITLink/JITLink.h>

namespace beamlet::jit {

using llvm::jitlink::LinkGraph;
using llvm::jitlink::Symbol;

namespace {

// What LLVM 19 emits for "patchable-function-entry": x86-64 "5" is one 5-byte NOP
// (nopl 8(%rax,%rax)); AArch64 "2" is two NOP words (D503201F, little endian).
constexpr std::uint8_t X86_64_ENTRY_NOPS[] = {0x0F, 0x1F, 0x44, 0x00, 0x08};
constexpr std::uint8_t AARCH64_ENTRY_NOPS[] = {0x1F, 0x20, 0x03, 0xD5, 0x1F, 0x20, 0x03, 0xD5};

bool is_patchable(const Symbol& symbol) {
    return symbol.hasName() && symbol.isCallable() && symbol.getName().starts_with(PATCHABLE_PREFIX);
}

bool is_trampoline(const Symbol& symbol) {
    return symbol.hasName() && symbol.getName() == TRAMPOLINE_NAME;
}

llvm::Error site_error(const LinkGraph& G, const Symbol& symbol, const llvm::Twine& problem) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::Twine("beamlet jit: ") + G.getName() + ": " + symbol.getName() + ": " + problem);
}

// Whether the call in a site at [at] reaches [trampoline]: rel32 from the end of the 5-byte
// instruction on x86-64, BL's ±128 MiB from the second word on AArch64.
bool in_reach(Arch arch, std::uint64_t at, std::uint64_t trampoline) {
    if (arch == Arch::X86_64) {
        const auto displacement = static_cast<std::int64_t>(trampoline - (at + 5));
        return displacement >= INT32_MIN && displacement <= INT32_MAX;
    }
    const auto displacement = static_cast<std::int64_t>(trampoline - (at + 4));
    return displacement % 4 == 0 && displacement >= -(std::int64_t{1} << 27) && displacement < (std::int64_t{1} << 27);
}

}  // namespace

void PatchPlugin::modifyPassConfig(llvm::orc::MaterializationResponsibility& MR, LinkGraph& G,
                                   llvm::jitlink::PassConfiguration& Config) {
    if (std::none_of(G.defined_symbols().begin(), G.defined_symbols().end(),
                     [](const Symbol* symbol) { return is_patchable(*symbol); }))
        return;

    // The trampoline is module-local and only the rewritten sites will call it, so nothing in
    // the graph references it yet: keep it (and every patchable function, so each gets its
    // site) from being dead-stripped.
    Config.PrePrunePasses.push_back([](LinkGraph& G) {
        for (Symbol* symbol : G.defined_symbols())
            if (is_patchable(*symbol) || is_trampoline(*symbol)) symbol->setLive(true);
        return llvm::Error::success();
    });
    Config.PostFixupPasses.push_back([this, &MR](LinkGraph& G) { return rewrite_sites(MR, G); });
}

llvm::Error PatchPlugin::rewrite_sites(llvm::orc::MaterializationResponsibility& MR, LinkGraph& G) {
    Arch arch;
    switch (G.getTargetTriple().getArch()) {
    case llvm::Triple::x86_64: arch = Arch::X86_64; break;
    case llvm::Triple::aarch64: arch = Arch::AArch64; break;
    default:
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       llvm::Twine("beamlet jit: ") + G.getName() + ": patch sites need x86-64 or AArch64");
    }
    const auto* expected_nops = arch == Arch::X86_64 ? X86_64_ENTRY_NOPS : AARCH64_ENTRY_NOPS;
    const std::size_t size = Engine::site_size(arch);

    const auto symbols = G.defined_symbols();
    auto trampoline = std::find_if(symbols.begin(), symbols.end(), [](const Symbol* s) { return is_trampoline(*s); });

    std::vector<PatchSite> sites;
    for (Symbol* symbol : symbols) {
        if (!is_patchable(*symbol)) continue;
        if (trampoline == symbols.end())
            return site_error(G, *symbol, llvm::Twine("the module defines no ") + TRAMPOLINE_NAME);

        // The block's content is the working memory, i.e. the writable alias of its final
        // address (DualMapper::prepare), so this is where the bytes must change.
        auto content = symbol->getBlock().getAlreadyMutableContent();
        if (symbol->getOffset() + size > content.size()) return site_error(G, *symbol, "too short for a patch site");
        auto* writable = reinterpret_cast<std::uint8_t*>(content.data() + symbol->getOffset());
        if (std::memcmp(writable, expected_nops, size) != 0)
            return site_error(G, *symbol, "the entry is not the NOPs of \"patchable-function-entry\"");

        const std::uint64_t at = symbol->getAddress().getValue();
        const std::uint64_t target = (*trampoline)->getAddress().getValue();
        if (!in_reach(arch, at, target)) return site_error(G, *symbol, "the trampoline is out of call range");
        const auto form = Engine::disabled_form(arch, at, target);
        std::memcpy(writable, form.data(), form.size());
        sites.push_back(PatchSite{symbol->getAddress().toPtr<std::uint8_t*>(), writable, target});
    }

    std::lock_guard lock(m_mutex);
    m_pending[&MR] = std::move(sites);
    return llvm::Error::success();
}

llvm::Error PatchPlugin::notifyEmitted(llvm::orc::MaterializationResponsibility& MR) {
    std::vector<PatchSite> sites;
    {
        std::lock_guard lock(m_mutex);
        auto pending = m_pending.find(&MR);
        if (pending == m_pending.end()) return llvm::Error::success();
        sites = std::move(pending->second);
        m_pending.erase(pending);
    }
    // The resource key comes from the session (its lock), which calls notifyRemovingResources
    // with that lock held: never take the session's lock while holding ours.
    llvm::orc::ResourceKey key = 0;
    if (llvm::Error error = MR.withResourceKeyDo([&](llvm::orc::ResourceKey k) { key = k; })) return error;
    std::lock_guard lock(m_mutex);
    for (const PatchSite& site : sites) {
        m_sites.push_back(Record{site, key});
        m_by_entry[reinterpret_cast<std::uint64_t>(site.exec)] = &m_sites.back().site;
    }
    return llvm::Error::success();
}

llvm::Error PatchPlugin::notifyFailed(llvm::orc::MaterializationResponsibility& MR) {
    std::lock_guard lock(m_mutex);
    m_pending.erase(&MR);
    return llvm::Error::success();
}

llvm::Error PatchPlugin::notifyRemovingResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey K) {
    std::lock_guard lock(m_mutex);
    m_sites.remove_if([&](const Record& record) {
        if (record.key != K) return false;
        m_by_entry.erase(reinterpret_cast<std::uint64_t>(record.site.exec));
        return true;
    });
    return llvm::Error::success();
}

void PatchPlugin::notifyTransferringResources(llvm::orc::JITDylib&, llvm::orc::ResourceKey DstKey,
                                              llvm::orc::ResourceKey SrcKey) {
    std::lock_guard lock(m_mutex);
    for (Record& record : m_sites)
        if (record.key == SrcKey) record.key = DstKey;
}

const PatchSite* PatchPlugin::site(std::uint64_t entry) const {
    std::lock_guard lock(m_mutex);
    auto it = m_by_entry.find(entry);
    return it == m_by_entry.end() ? nullptr : it->second;
}

std::vector<const PatchSite*> PatchPlugin::sites() const {
    std::lock_guard lock(m_mutex);
    std::vector<const PatchSite*> result;
    result.reserve(m_sites.size());
    for (const Record& record : m_sites) result.push_back(&record.site);
    return result;
}

}  // namespace beamlet::jit
