// vm/code_engine.cpp — what the threaded code needs to know of a native-code engine.
#include "vm/code_engine.hpp"

namespace beamlet::vm {

bool has_native_emitter(const GenericModule& g, const GenericInstr& in) {
    if (!is_native(in.op)) return false;
    if (in.op == Op::select_val)
        for (Word k = 0; k < g.operand(in, 2).value; k += 2)
            if (!is_immediate(g.operand(in, 3 + std::uint32_t(k)).value)) return false;
    return true;
}

}  // namespace beamlet::vm
