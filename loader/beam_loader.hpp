// loader/beam_loader.hpp — reads a .beam file into a verified vm::GenericModule.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "vm/generic_code.hpp"
#include "vm/result.hpp"
#include "vm/vm.hpp"

namespace beamlet::loader {

// Parses and validates [bytes] (a .beam file, possibly gzip-compressed) named [path] for
// messages. Errors name the file, and the chunk, function and opcode where they apply.
vm::Result<vm::GenericModule> load_beam(std::span<const std::uint8_t> bytes, const std::string& path,
                                       vm::ExportTable& exports);
// Reads the file at [path] and loads it.
vm::Result<vm::GenericModule> load_beam_file(const std::string& path, vm::ExportTable& exports);

}  // namespace beamlet::loader
