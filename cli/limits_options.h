// The limit options every tool accepts (docs/LIMITS.md), on one CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include "core/limits.h"

namespace goalcup {

void add_limit_options(CLI::App& app, Limits& limits);

// Called first in every tool's main: memory must follow the longest line
// (docs/LIMITS.md). glibc raises its mmap threshold to the size of the
// largest block freed (up to 32 MiB), after which a long line's buffers
// come from the heap, are copied when they grow and stay mapped once freed;
// a fixed threshold keeps every big buffer in its own mapping.
void bound_allocator();

}  // namespace goalcup
