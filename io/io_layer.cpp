// io/io_layer.cpp — installing the I/O layer into a VM.
#include "io/io_layer.hpp"

#include "vm/vm.hpp"

namespace beamlet::io {

void install(vm::Vm& vm) { vm.services.io = std::make_unique<IoLayer>(vm); }

IoLayer& layer(vm::Vm& vm) { return static_cast<IoLayer&>(*vm.services.io); }

}  // namespace beamlet::io
