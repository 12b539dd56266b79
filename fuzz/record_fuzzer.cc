// The strict record parser and body checks on one line.
#include <cstdint>
#include <string>

#include "core/bodies.h"
#include "core/lines.h"
#include "core/record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup;
  static RecordParser parser{Limits{}};
  std::string padded(reinterpret_cast<const char*>(data), size);
  padded.append(kLinePadding, '\0');
  auto r = parser.parse(std::string_view(padded.data(), size), 0);
  if (r) {
    (void)check_body(*r);
    (void)read_header(*r);
    (void)read_seal(*r);
    (void)wire_size(*r);
  }
  return 0;
}
