// The limit and thread options every tool accepts (docs/LIMITS.md,
// docs/BATCH.md#threads), on one CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include "core/limits.h"

namespace goalcup {

void add_limit_options(CLI::App& app, Limits& limits);

// --threads N: the cores one run keeps busy (default: the cores this
// process may run on), shared by the traces of a batch and the threads
// inside each trace. Sizes CorePool::shared() once parsed.
void add_threads_option(CLI::App& app, unsigned& threads);

// Called first in every tool's main: memory must follow the longest line
// (docs/LIMITS.md). glibc raises its mmap threshold to the size of the
// largest block freed (up to 32 MiB), after which a long line's buffers
// come from the heap, are copied when they grow and stay mapped once freed;
// a fixed threshold keeps every big buffer in its own mapping.
void bound_allocator();

}  // namespace goalcup
