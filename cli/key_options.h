// --dev-key, the option every tool takes to trust a development key beside
// the pinned production keys, and the keyring it makes.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/keyring.h"

namespace goalcup {

inline constexpr const char* kDevKeyHelp = "also trust this Ed25519 key for statements (see goalcup-verify)";

void add_dev_key_option(CLI::App& app, std::vector<std::string>& dev_keys, const char* help = kDevKeyHelp);

// The production keys and every --dev-key; the first key that does not load
// is the error.
Result<Keyring> load_keyring(const std::vector<std::string>& dev_keys);

}  // namespace goalcup
