// A harness's own log line, as a native record carries it: the Claude Code
// and Codex readers (cheatcheck/native.cc) on any text, well-formed or not.
// The first byte picks the harness; the rest is the line.
#include <cstdint>
#include <string>

#include "cheatcheck/native.h"
#include "core/lines.h"
#include "core/record.h"
#include "fuzz/json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup;
  using fuzz::json_escaped;
  if (size == 0) return 0;
  static const Limits limits{};
  static RecordParser record_parser{limits};
  static StrictJsonParser parser{limits}, input_parser{limits};
  const char* source = (data[0] & 1) != 0 ? "codex" : "claude-code";
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string line = R"({"seq":3,"t":"2026-11-29T17:05:16Z","kind":"native","prev":"sha256:)" + std::string(64, '0') +
                     R"(","body":{"source":")" + source + R"(","file":"s.jsonl","line_no":1,"text":")" +
                     json_escaped(text) + "\"}}";
  const size_t length = line.size();
  line.append(kLinePadding, '\0');
  auto record = record_parser.parse(std::string_view(line.data(), length), 3);
  if (!record) return 0;
  const cheat::NativeInfo n = cheat::read_native(*record, parser, input_parser);
  // What the reader keeps of a line comes from the line.
  if (n.text.size() > size * 6 + 64 || n.calls.size() > size) __builtin_trap();
  return 0;
}
