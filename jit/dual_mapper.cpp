// jit/dual_mapper.cpp — DualMapper: memfd-backed JIT memory with an executable view and a
// writable alias.
#include "jit/dual_mapper.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/Process.h>

#include "vm/config.hpp"

namespace beamlet::jit {

using llvm::orc::ExecutorAddr;

namespace {

// MFD_EXEC (Linux 6.3): asks for an executable memfd even when vm.memfd_noexec makes new
// memfds non-executable by default. glibc 2.36 does not define it yet.
constexpr unsigned MEMFD_EXEC = 0x0010U;

llvm::Error system_error(const char* what) {
    const int error = errno;
    return llvm::createStringError(std::error_code(error, std::generic_category()),
                                   llvm::Twine("beamlet jit memory: ") + what + ": " + std::strerror(error));
}

int create_memfd() {
    const int fd = memfd_create("beamlet-jit", MFD_CLOEXEC | MEMFD_EXEC);
    // Kernels before 6.3 reject the unknown flag; their memfds are executable anyway.
    if (fd < 0 && errno == EINVAL) return memfd_create("beamlet-jit", MFD_CLOEXEC);
    return fd;
}

int to_prot(llvm::orc::MemProt prot) {
    using llvm::sys::Memory;
    const unsigned flags = llvm::orc::toSysMemoryProtectionFlags(prot);
    const bool exec = flags & Memory::MF_EXEC;
    int result = PROT_NONE;
    if (flags & Memory::MF_READ) result |= PROT_READ;
    // W^X on the executable view: code is patched through the alias, never in place.
    if ((flags & Memory::MF_WRITE) && !exec) result |= PROT_WRITE;
    if (exec) result |= PROT_EXEC;
    return result;
}

#if defined(__aarch64__)
// Whether code written through a writable alias and made visible by cache maintenance alone
// is what runs: a page mapped twice, `mov w0, #1; ret` run once from the executable view, then
// `mov w0, #2` stored through the alias, the cache maintenance, and a second run. On hardware
// the architecture guarantees the new instruction (Arm ARM B2.2.5: the maintenance by the
// executable address, then the ISB on this thread); qemu-user runs its stale translation.
// If the probe cannot map its page, nothing is known against the architecture's rule: true.
bool cache_maintenance_reaches_fetch() {
    const long page = sysconf(_SC_PAGESIZE);
    const int fd = create_memfd();
    if (page <= 0 || fd < 0) return true;
    bool result = true;
    void* writable = MAP_FAILED;
    void* exec = MAP_FAILED;
    if (ftruncate(fd, page) == 0) {
        writable = mmap(nullptr, std::size_t(page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        exec = mmap(nullptr, std::size_t(page), PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
    }
    if (writable != MAP_FAILED && exec != MAP_FAILED) {
        constexpr std::uint32_t MOV_W0_1 = 0x52800020, MOV_W0_2 = 0x52800040, RET = 0xD65F03C0;
        auto* words = static_cast<std::uint32_t*>(writable);
        auto* code = static_cast<char*>(exec);
        auto run = reinterpret_cast<int (*)()>(exec);
        words[0] = MOV_W0_1;
        words[1] = RET;
        __builtin___clear_cache(code, code + 8);
        const int first = run();
        __atomic_store_n(&words[0], MOV_W0_2, __ATOMIC_RELEASE);
        __builtin___clear_cache(code, code + 8);
        asm volatile("isb" ::: "memory");
        const int second = run();
        result = !(first == 1 && second == 1);
    }
    if (writable != MAP_FAILED) munmap(writable, std::size_t(page));
    if (exec != MAP_FAILED) munmap(exec, std::size_t(page));
    close(fd);
    return result;
}
#endif

bool decide_code_sync_remaps() {
#if defined(__aarch64__)
    if (const auto& sync = vm::config().jit_code_sync) {
        if (*sync == "remap") return true;
        if (*sync == "cache") return false;
    }
    return !cache_maintenance_reaches_fetch();
#else
    return false;
#endif
}

}  // namespace

bool code_sync_remaps() {
    static const bool remaps = decide_code_sync_remaps();
    return remaps;
}

void sync_code(std::uint8_t* exec, std::size_t size) {
#if defined(__aarch64__)
    __builtin___clear_cache(reinterpret_cast<char*>(exec), reinterpret_cast<char*>(exec + size));
    if (code_sync_remaps()) {
        // Execute permission stays throughout: other threads may be running this code.
        const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
        const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(exec) & ~(page - 1);
        const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(exec + size) + page - 1) & ~(page - 1);
        void* pages = reinterpret_cast<void*>(first);
        if (mprotect(pages, end - first, PROT_READ | PROT_WRITE | PROT_EXEC) != 0 ||
            mprotect(pages, end - first, PROT_READ | PROT_EXEC) != 0) {
            std::perror("beamlet jit: mprotect (code sync)");
            std::abort();
        }
    }
    asm volatile("isb" ::: "memory");
#else
    (void)exec;
    (void)size;
#endif
}

llvm::Expected<std::unique_ptr<DualMapper>> DualMapper::create() {
    auto page_size = llvm::sys::Process::getPageSize();
    if (!page_size) return page_size.takeError();
    return std::unique_ptr<DualMapper>(new DualMapper(*page_size));
}

DualMapper::~DualMapper() {
    for (const auto& [base, reservation] : m_reservations) {
        munmap(reservation.exec, reservation.size_bytes + m_page_size);
        munmap(reservation.writable, reservation.size_bytes);
    }
}

std::size_t DualMapper::round_to_pages(std::size_t size_bytes) const {
    return (size_bytes + m_page_size - 1) / m_page_size * m_page_size;
}

const DualMapper::Reservation* DualMapper::find_locked(std::uint64_t exec) const {
    auto it = m_reservations.upper_bound(exec);
    if (it == m_reservations.begin()) return nullptr;
    --it;
    if (exec >= it->first + it->second.size_bytes) return nullptr;
    return &it->second;
}

std::uint8_t* DualMapper::writable_alias(std::uint64_t exec) const {
    std::lock_guard lock(m_mutex);
    const Reservation* reservation = find_locked(exec);
    if (!reservation) return nullptr;
    return reservation->writable + (exec - reinterpret_cast<std::uint64_t>(reservation->exec));
}

void DualMapper::reserve(std::size_t NumBytes, OnReservedFunction OnReserved) {
    const std::size_t size_bytes = round_to_pages(NumBytes);
    const int fd = create_memfd();
    if (fd < 0) return OnReserved(system_error("memfd_create"));
    if (ftruncate(fd, static_cast<off_t>(size_bytes)) != 0) {
        auto error = system_error("ftruncate");
        close(fd);
        return OnReserved(std::move(error));
    }
    void* writable = mmap(nullptr, size_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    // One guard page after the executable view keeps any two reservations apart: the memory
    // manager merges adjacent free ranges, and an allocation straddling two reservations would
    // have no contiguous writable alias.
    void* exec = mmap(nullptr, size_bytes + m_page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (writable == MAP_FAILED || exec == MAP_FAILED ||
        mmap(exec, size_bytes, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        auto error = system_error("mmap");
        if (writable != MAP_FAILED) munmap(writable, size_bytes);
        if (exec != MAP_FAILED) munmap(exec, size_bytes + m_page_size);
        close(fd);
        return OnReserved(std::move(error));
    }
    // The two mappings keep the memory alive; the descriptor is no longer needed.
    close(fd);
    {
        std::lock_guard lock(m_mutex);
        m_reservations[reinterpret_cast<std::uint64_t>(exec)] =
            Reservation{static_cast<std::uint8_t*>(exec), static_cast<std::uint8_t*>(writable), size_bytes};
    }
    OnReserved(llvm::orc::ExecutorAddrRange(ExecutorAddr::fromPtr(exec), size_bytes));
}

char* DualMapper::prepare(ExecutorAddr Addr, std::size_t) {
    return reinterpret_cast<char*>(writable_alias(Addr.getValue()));
}

void DualMapper::initialize(AllocInfo& AI, OnInitializedFunction OnInitialized) {
    std::size_t extent_bytes = 0;
    for (const auto& segment : AI.Segments) {
        const std::size_t size_bytes = segment.ContentSize + segment.ZeroFillSize;
        if (size_bytes == 0) continue;
        auto* exec = (AI.MappingBase + segment.Offset).toPtr<std::uint8_t*>();
        // JITLink wrote the content through the working memory prepare() returned, which is
        // already the alias of [exec]: only the zero-fill tail is left to write.
        std::memset(writable_alias(reinterpret_cast<std::uint64_t>(exec)) + segment.ContentSize, 0,
                    segment.ZeroFillSize);
        const int prot = to_prot(segment.AG.getMemProt());
        if (mprotect(exec, round_to_pages(size_bytes), prot) != 0) return OnInitialized(system_error("mprotect"));
        // The code was written through another virtual address: make the instruction fetch
        // side see it (AArch64: clean to PoU and invalidate by the executable address). The
        // range may have held code before (a removed module) that qemu-user translated.
        if (prot & PROT_EXEC) sync_code(exec, size_bytes);
        extent_bytes = std::max<std::size_t>(extent_bytes, segment.Offset + round_to_pages(size_bytes));
    }

    auto dealloc_actions = llvm::orc::shared::runFinalizeActions(AI.Actions);
    if (!dealloc_actions) return OnInitialized(dealloc_actions.takeError());
    {
        std::lock_guard lock(m_mutex);
        m_allocations[AI.MappingBase.getValue()] = Allocation{extent_bytes, std::move(*dealloc_actions)};
    }
    // MapperJITLinkMemoryManager keys its bookkeeping by the mapping base: return exactly that.
    OnInitialized(AI.MappingBase);
}

void DualMapper::deinitialize(llvm::ArrayRef<ExecutorAddr> Allocations, OnDeinitializedFunction OnDeinitialized) {
    llvm::Error errors = llvm::Error::success();
    for (ExecutorAddr base : llvm::reverse(Allocations)) {
        Allocation allocation;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_allocations.find(base.getValue());
            if (it == m_allocations.end()) continue;
            allocation = std::move(it->second);
            m_allocations.erase(it);
        }
        if (llvm::Error error = llvm::orc::shared::runDeallocActions(allocation.dealloc_actions))
            errors = llvm::joinErrors(std::move(errors), std::move(error));
        // A stale jump into freed code faults instead of running whatever is linked there
        // next; MADV_REMOVE hands the pages back (a later allocation of the range reads zeros).
        if (mprotect(base.toPtr<void*>(), allocation.size_bytes, PROT_NONE) != 0)
            errors = llvm::joinErrors(std::move(errors), system_error("mprotect"));
        if (madvise(writable_alias(base.getValue()), allocation.size_bytes, MADV_REMOVE) != 0)
            errors = llvm::joinErrors(std::move(errors), system_error("madvise"));
    }
    OnDeinitialized(std::move(errors));
}

void DualMapper::release(llvm::ArrayRef<ExecutorAddr>, OnReleasedFunction OnReleased) {
    // MapperJITLinkMemoryManager (LLVM 19) calls release() only to abandon a failed link, and
    // passes the allocation's address, not a reservation's; it never returns whole
    // reservations. The abandoned range was never made accessible in the executable view
    // (it is PROT_NONE), so there is nothing to undo; the reservations are unmapped when the
    // mapper is destroyed.
    OnReleased(llvm::Error::success());
}

}  // namespace beamlet::jit
