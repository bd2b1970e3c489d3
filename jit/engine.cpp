// jit/engine.cpp — Engine: LLJIT with eager compilation, dual-mapped memory and patch sites.
#include "jit/engine.hpp"

#include <atomic>
#include <utility>

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/MapperJITLinkMemoryManager.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/dual_mapper.hpp"
#include "jit/patch_plugin.hpp"

namespace beamlet::jit {

namespace {

#if defined(__x86_64__)
constexpr Arch HOST_ARCH = Arch::X86_64;
#elif defined(__aarch64__)
constexpr Arch HOST_ARCH = Arch::AArch64;
#else
#error "beamlet's JIT supports x86-64 and AArch64 hosts only"
#endif

// Memory is reserved from the system in units this large, so that modules linked one after
// another share a range and rel32/BL between them (and to their trampolines) always reach.
constexpr std::size_t RESERVATION_BYTES = std::size_t{256} << 20;

// Site encodings. x86-64: one 5-byte instruction whose opcode toggles.
constexpr std::uint8_t X86_TEST_EAX_IMM32 = 0xA9;
constexpr std::uint8_t X86_CALL_REL32 = 0xE8;
// AArch64: word 0 saves LR in the scratch register X17; word 1 toggles between NOP and BL.
constexpr std::uint32_t AARCH64_MOV_X17_X30 = 0xAA1E03F1;
constexpr std::uint32_t AARCH64_NOP = 0xD503201F;
constexpr std::uint32_t AARCH64_BL = 0x94000000;
constexpr std::uint32_t AARCH64_BL_MASK = 0xFC000000;

// BL at [pc] to [target]; the displacement's bits 2..27 are the same whether the difference
// is read as signed or unsigned, so the unsigned arithmetic also covers backward calls.
constexpr std::uint32_t aarch64_bl(std::uint64_t pc, std::uint64_t target) {
    return AARCH64_BL | (static_cast<std::uint32_t>((target - pc) >> 2) & ~AARCH64_BL_MASK);
}

std::vector<std::uint8_t> site_bytes(Arch arch, std::uint64_t at, std::uint64_t trampoline, bool enabled) {
    auto append_le32 = [](std::vector<std::uint8_t>& bytes, std::uint32_t value) {
        for (int shift = 0; shift < 32; shift += 8) bytes.push_back(static_cast<std::uint8_t>(value >> shift));
    };
    std::vector<std::uint8_t> bytes;
    if (arch == Arch::X86_64) {
        bytes.push_back(enabled ? X86_CALL_REL32 : X86_TEST_EAX_IMM32);
        append_le32(bytes, static_cast<std::uint32_t>(trampoline - (at + 5)));
    } else {
        append_le32(bytes, AARCH64_MOV_X17_X30);
        append_le32(bytes, enabled ? aarch64_bl(at + 4, trampoline) : AARCH64_NOP);
    }
    return bytes;
}

// Stores the toggled part of [site] in its enabled or disabled form. One byte (x86-64) or one
// aligned word (AArch64), so another core executing the site sees the old or the new
// instruction, never a mix. Release order is only for the data the caller
// wrote before; instruction fetch is made to see the store by the caller's code barrier.
void store_toggle(const PatchSite& site, bool enabled) {
    if constexpr (HOST_ARCH == Arch::X86_64) {
        std::atomic_ref<std::uint8_t>(*site.writable)
            .store(enabled ? X86_CALL_REL32 : X86_TEST_EAX_IMM32, std::memory_order_release);
    } else {
        const auto pc = reinterpret_cast<std::uint64_t>(site.exec) + 4;
        std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(site.writable + 4))
            .store(enabled ? aarch64_bl(pc, site.trampoline) : AARCH64_NOP, std::memory_order_release);
        // Clean the data cache and invalidate the instruction cache by the executable address
        // (and under qemu-user, make it retranslate the page: dual_mapper.hpp).
        sync_code(site.exec + 4, 4);
    }
}

llvm::Error string_error(const std::string& message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

}  // namespace

struct Engine::Impl {
    Arch arch = HOST_ARCH;
    std::shared_ptr<PatchPlugin> patches = std::make_shared<PatchPlugin>();
    DualMapper* mapper = nullptr;  // owned by the JIT's memory manager

    // Serializes add_module and lookup: compilation happens on the calling thread.
    std::mutex mutex;

    // Link errors (e.g. a bad patch site) reach the ExecutionSession's error reporter, not the
    // lookup that triggered them: add_module collects them to return them to its caller.
    std::mutex errors_mutex;
    bool collecting_errors = false;
    std::string link_errors;

    void report(llvm::Error error) {
        std::lock_guard lock(errors_mutex);
        if (!collecting_errors) {
            llvm::logAllUnhandledErrors(std::move(error), llvm::errs(), "beamlet jit: ");
            return;
        }
        if (!link_errors.empty()) link_errors += "; ";
        link_errors += llvm::toString(std::move(error));
    }
    void start_collecting_errors() {
        std::lock_guard lock(errors_mutex);
        collecting_errors = true;
    }
    std::string take_errors() {
        std::lock_guard lock(errors_mutex);
        collecting_errors = false;
        return std::exchange(link_errors, {});
    }

    std::string cpu;

    // Last, so that it goes first: ending the session may still report errors.
    std::unique_ptr<llvm::orc::LLJIT> jit;
};

std::unique_ptr<Engine> Engine::create(int opt_level, std::string* error, llvm::ObjectCache* cache) {
    auto fail = [&](llvm::Error e) -> std::unique_ptr<Engine> {
        if (error) *error = llvm::toString(std::move(e));
        return nullptr;
    };
    static std::once_flag targets_initialized;
    std::call_once(targets_initialized, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        // Trampolines are naked functions made of inline asm.
        llvm::InitializeNativeTargetAsmParser();
    });

    auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machine) return fail(machine.takeError());
    const auto host_arch = machine->getTargetTriple().getArch();
    if ((HOST_ARCH == Arch::X86_64 && host_arch != llvm::Triple::x86_64) ||
        (HOST_ARCH == Arch::AArch64 && host_arch != llvm::Triple::aarch64))
        return fail(string_error("beamlet jit: unsupported host " + machine->getTargetTriple().str()));
    // LLJIT sets Small + PIC only when it builds the linking layer itself; with our own
    // creator the backend's JIT default (Large: movabs and indirect calls) would apply.
    machine->setCodeModel(llvm::CodeModel::Small);
    machine->setRelocationModel(llvm::Reloc::PIC_);
    machine->setCodeGenOptLevel(opt_level >= 1 ? llvm::CodeGenOptLevel::Less : llvm::CodeGenOptLevel::None);

    auto impl = std::make_unique<Impl>();
    auto create_layer = [&impl](llvm::orc::ExecutionSession& session, const llvm::Triple&)
        -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
        auto mapper = DualMapper::create();
        if (!mapper) return mapper.takeError();
        impl->mapper = mapper->get();
        auto memory = std::make_unique<llvm::orc::MapperJITLinkMemoryManager>(RESERVATION_BYTES, std::move(*mapper));
        auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(session, std::move(memory));
        layer->addPlugin(impl->patches);
        return std::unique_ptr<llvm::orc::ObjectLayer>(std::move(layer));
    };
    // No IR pass pipeline (no IRTransformLayer): O1/O2's tail-recursion elimination and
    // inlining would bypass entry breakpoints. The inactive platform
    // skips static-initializer support: generated modules have no constructors. Process symbols
    // (LLJIT's default ProcessSymbols JITDylib) stay linked, so modules may call exported C
    // functions by name as well as by absolute address.
    std::string cpu = machine->getCPU();
    // The compiler consults [cache] before generating code and fills it after.
    auto create_compiler = [cache](llvm::orc::JITTargetMachineBuilder builder)
        -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
        auto target = builder.createTargetMachine();
        if (!target) return target.takeError();
        return std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*target), cache);
    };
    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*machine))
                   .setObjectLinkingLayerCreator(create_layer)
                   .setCompileFunctionCreator(create_compiler)
                   .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                   .create();
    if (!jit) return fail(jit.takeError());
    impl->jit = std::move(*jit);
    Impl* raw = impl.get();
    impl->jit->getExecutionSession().setErrorReporter([raw](llvm::Error e) { raw->report(std::move(e)); });

    impl->cpu = cpu;
    std::unique_ptr<Engine> engine(new Engine());
    engine->m_impl = std::move(impl);
    return engine;
}

Engine::~Engine() = default;

Arch Engine::arch() const { return m_impl->arch; }

std::string Engine::triple() const { return m_impl->jit->getTargetTriple().str(); }

std::string Engine::data_layout() const { return m_impl->jit->getDataLayout().getStringRepresentation(); }

llvm::Error Engine::add_module(llvm::orc::ThreadSafeModule module,
                               std::shared_ptr<llvm::orc::ResourceTracker>* tracker) {
    std::lock_guard lock(m_impl->mutex);
    llvm::orc::LLJIT& jit = *m_impl->jit;

    // Every symbol the module exports. Looking them all up materializes the module now, so
    // its patch sites exist when add_module returns and no compilation happens later.
    llvm::orc::SymbolLookupSet symbols;
    module.withModuleDo([&](llvm::Module& m) {
        for (const llvm::GlobalValue& value : m.global_values())
            if (!value.isDeclaration() && !value.hasLocalLinkage() && !value.hasAppendingLinkage() &&
                !value.hasAvailableExternallyLinkage())
                symbols.add(jit.mangleAndIntern(value.getName()));
    });

    auto resources = jit.getMainJITDylib().createResourceTracker();
    if (llvm::Error error = jit.addIRModule(resources, std::move(module)))
        return llvm::joinErrors(std::move(error), resources->remove());

    m_impl->start_collecting_errors();
    auto linked = jit.getExecutionSession().lookup(
        llvm::orc::makeJITDylibSearchOrder(&jit.getMainJITDylib(), llvm::orc::JITDylibLookupFlags::MatchAllSymbols),
        std::move(symbols));
    std::string link_errors = m_impl->take_errors();
    if (!linked) {
        // The link's own message (a bad patch site, an undefined symbol) comes first; the
        // lookup only says which symbols failed. Removing the tracker frees the module's
        // names for a corrected module.
        llvm::Error error = string_error(link_errors.empty() ? llvm::toString(linked.takeError())
                                                             : link_errors + " (" + llvm::toString(linked.takeError()) + ")");
        return llvm::joinErrors(std::move(error), resources->remove());
    }
    // ORC's trackers are intrusively counted; the shared_ptr owns one reference. Like any ORC
    // tracker it must be released before the engine is destroyed.
    *tracker = std::shared_ptr<llvm::orc::ResourceTracker>(resources.get(),
                                                           [reference = resources](llvm::orc::ResourceTracker*) {});
    return llvm::Error::success();
}

llvm::Error Engine::define_absolute(const std::vector<std::pair<std::string, std::uint64_t>>& symbols) {
    std::lock_guard lock(m_impl->mutex);
    llvm::orc::LLJIT& jit = *m_impl->jit;
    llvm::orc::SymbolMap map;
    for (const auto& [name, address] : symbols)
        map[jit.mangleAndIntern(name)] = {llvm::orc::ExecutorAddr(address), llvm::JITSymbolFlags::Exported};
    return jit.getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(map)));
}

std::string Engine::cpu() const { return m_impl->cpu; }

llvm::Expected<std::uint64_t> Engine::lookup(const std::string& name) {
    std::lock_guard lock(m_impl->mutex);
    auto address = m_impl->jit->lookup(name);
    if (!address) return address.takeError();
    return address->getValue();
}

const PatchSite* Engine::site(std::uint64_t entry) const { return m_impl->patches->site(entry); }

std::vector<const PatchSite*> Engine::sites() const { return m_impl->patches->sites(); }

void Engine::arm(const PatchSite& site) { store_toggle(site, true); }

void Engine::disarm(const PatchSite& site) { store_toggle(site, false); }

bool Engine::armed(const PatchSite& site) {
    if constexpr (HOST_ARCH == Arch::X86_64) {
        return std::atomic_ref<std::uint8_t>(*site.writable).load(std::memory_order_acquire) == X86_CALL_REL32;
    } else {
        const std::uint32_t word =
            std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(site.writable + 4)).load(std::memory_order_acquire);
        return (word & AARCH64_BL_MASK) == AARCH64_BL;
    }
}

std::size_t Engine::site_size(Arch arch) { return arch == Arch::X86_64 ? 5 : 8; }

std::vector<std::uint8_t> Engine::disabled_form(Arch arch, std::uint64_t at, std::uint64_t trampoline) {
    return site_bytes(arch, at, trampoline, false);
}

std::vector<std::uint8_t> Engine::enabled_form(Arch arch, std::uint64_t at, std::uint64_t trampoline) {
    return site_bytes(arch, at, trampoline, true);
}

std::uint8_t* Engine::writable_alias(std::uint64_t exec) const { return m_impl->mapper->writable_alias(exec); }

}  // namespace beamlet::jit
