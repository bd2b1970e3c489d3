// jit/dual_mapper.hpp — DualMapper: JIT memory mapped twice, an executable view and a writable
// alias of the same pages (as OTP's BeamAsm maps its JIT memory twice: erts/emulator/beam/jit/
// beam_jit_main.cpp).
//
// An orc::MemoryMapper for LLVM's stock MapperJITLinkMemoryManager. Each reservation is one
// memfd mapped twice: JITLink writes code and data through the read-write view (the working
// memory prepare() hands out), and the code runs from the other view, whose pages get their
// final protections at initialize() and are never writable when executable. Patching finalized
// code is then a plain store through writable_alias(), with no mprotect and no TLB shootdown.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <llvm/ExecutionEngine/Orc/MemoryMapper.h>

namespace beamlet::jit {

// Makes the code stored through the writable alias at executable [exec, exec + size) what this
// thread fetches from now on; other threads fetch it after their code barrier (an ISB at their
// thread-progress point). The pages must be executable code pages (read + execute).
//
// AArch64: DC CVAU, DSB ISH, IC IVAU by the executable address, DSB ISH, ISB
// (__builtin___clear_cache). Where that is not enough — qemu-user, whose IC IVAU is a no-op
// and which drops its translations of guest code only when the guest writes to that code's
// own addresses or makes its pages writable, so that it keeps running stale code after a store
// through the alias — the pages are also made writable and read-only again by their
// executable address (mprotect), which makes qemu retranslate them. A probe at the first call
// decides (code_sync_remaps()); BEAMLET_JIT_CODE_SYNC=cache or =remap forces either way.
// x86-64: nothing (its instruction fetch snoops stores, whatever the virtual address).
void sync_code(std::uint8_t* exec, std::size_t size);
// Whether sync_code also remaps the pages (see above). Always false on x86-64.
bool code_sync_remaps();

class DualMapper final : public llvm::orc::MemoryMapper {
public:
    // A mapper for this process, or an error if the page size is unknown.
    static llvm::Expected<std::unique_ptr<DualMapper>> create();
    ~DualMapper() override;

    // The writable alias of executable address [exec], or null if no reservation holds it.
    std::uint8_t* writable_alias(std::uint64_t exec) const;

    unsigned int getPageSize() override { return m_page_size; }
    void reserve(std::size_t NumBytes, OnReservedFunction OnReserved) override;
    char* prepare(llvm::orc::ExecutorAddr Addr, std::size_t ContentSize) override;
    void initialize(AllocInfo& AI, OnInitializedFunction OnInitialized) override;
    void deinitialize(llvm::ArrayRef<llvm::orc::ExecutorAddr> Allocations,
                      OnDeinitializedFunction OnDeinitialized) override;
    void release(llvm::ArrayRef<llvm::orc::ExecutorAddr> Reservations, OnReleasedFunction OnReleased) override;

private:
    explicit DualMapper(unsigned page_size) : m_page_size(page_size) {}

    // One memfd mapped at [exec] (executable view) and [writable] (read-write view).
    struct Reservation {
        std::uint8_t* exec;
        std::uint8_t* writable;
        std::size_t size_bytes;
    };
    // One initialized allocation: the page range its segments cover, in the executable view,
    // and what to run when it is deallocated.
    struct Allocation {
        std::size_t size_bytes;
        std::vector<llvm::orc::shared::WrapperFunctionCall> dealloc_actions;
    };

    // The reservation holding [exec]; m_mutex must be held.
    const Reservation* find_locked(std::uint64_t exec) const;
    std::size_t round_to_pages(std::size_t size_bytes) const;

    const unsigned m_page_size;
    mutable std::mutex m_mutex;
    std::map<std::uint64_t, Reservation> m_reservations;  // by executable base address
    std::map<std::uint64_t, Allocation> m_allocations;    // by executable base address
};

}  // namespace beamlet::jit
