// The limit options every tool accepts (docs/LIMITS.md), on one CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include "core/limits.h"

namespace goalcup {

void add_limit_options(CLI::App& app, Limits& limits);

}  // namespace goalcup
