#include "cli/key_options.h"

namespace goalcup {

void add_dev_key_option(CLI::App& app, std::vector<std::string>& dev_keys, const char* help) {
  app.add_option("--dev-key", dev_keys, help)->allow_extra_args(false);
}

Result<Keyring> load_keyring(const std::vector<std::string>& dev_keys) {
  Keyring ring = Keyring::production();
  for (const auto& k : dev_keys) {
    auto key = Keyring::load_supplied(k);
    if (!key) return key.take_error();
    ring.add(*key);
  }
  return ring;
}

}  // namespace goalcup
