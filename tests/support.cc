#include "tests/support.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace goalcup::testing {

std::string source_path(const std::string& relative) { return std::string(GOALCUP_SOURCE_DIR) + "/" + relative; }
std::string sample_path(const std::string& name) { return source_path("fixtures/samples/" + name); }

std::string shared_samples_dir() {
  std::string d = std::string(GOALCUP_SOURCE_DIR) + "/../shared/samples";
  return std::filesystem::is_directory(d) ? d : "";
}

const fixtures::SigningKey& dev_key() {
  static const auto key = fixtures::SigningKey::from_file(source_path("fixtures/keys/dev-key.json"));
  return key;
}

Keyring dev_keyring() {
  Keyring ring = Keyring::production();
  auto key = Keyring::supplied_from_base64(dev_key().public_key_base64());
  EXPECT_TRUE(key.ok());
  ring.add(*key);
  return ring;
}

VerifyReport verify_bytes(const std::string& bytes, const Keyring& ring, Limits limits) {
  WalkOptions opt;
  opt.limits = limits;
  opt.keyring = &ring;
  bool zstd = false;
  auto src = sniff_compression(memory_source(bytes), limits, &zstd);
  EXPECT_TRUE(src.ok());
  return walk_source(std::move(*src), opt);
}

VerifyReport verify_lines(const fixtures::Lines& lines, const Keyring& ring) {
  return verify_bytes(fixtures::join(lines), ring);
}

fixtures::Lines valid_trace(fixtures::HarnessStyle style, fixtures::Ending ending, uint32_t turns) {
  fixtures::TraceSpec spec;
  spec.style = style;
  spec.ending = ending;
  spec.turns = turns;
  spec.ack_every = 5;
  return fixtures::conversation_lines(spec, dev_key());
}

bool has_error(const VerifyReport& r, Code code) {
  for (const auto& e : r.errors) {
    if (e.code == code) return true;
  }
  return false;
}

std::string error_codes(const VerifyReport& r) {
  std::string s;
  for (const auto& e : r.errors) s += std::string(code_name(e.code)) + "@" + std::to_string(e.seq) + " ";
  return s.empty() ? "(none)" : s;
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string temp_dir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/goalcup-test-XXXXXX";
    return std::string(::mkdtemp(tmpl));
  }();
  return dir;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace goalcup::testing
