// The redb reader of the coop audit: any bytes as state.redb must give a
// result (read, or not understood) without crashing, reading out of bounds
// or looping; every row and stale piece it hands over lies in the input.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include "cheatcheck/coop/redb_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup::cheat;
  const int fd = memfd_create("state.redb", 0);
  if (fd < 0) return 0;
  if (write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  uint64_t seen = 0;
  auto touch = [&](std::string_view s) {
    for (const char c : s) seen += static_cast<unsigned char>(c);
  };
  RedbCallbacks cb;
  cb.on_row = [&](const RedbRow& r) {
    touch(r.key);
    touch(r.value);
    if (r.offset >= size) __builtin_trap();
  };
  cb.on_stale = [&](const RedbStale& s) {
    touch(s.key);
    touch(s.value);
    if (s.offset >= size || s.value.size() > size) __builtin_trap();
  };
  const RedbReadResult r = read_redb(fd, size, cb);
  if (!r.understood && r.why.empty()) __builtin_trap();
  close(fd);
  return seen == 1 ? 1 : 0;
}
