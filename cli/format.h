// The report formats the tools write, named once. Each tool accepts its own
// subset on --format; a run parses the name once and then compares enums.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace goalcup {

enum class Format : uint8_t { text, json, jsonl, sarif, markdown };

std::string_view format_name(Format f);
std::optional<Format> parse_format(std::string_view name);

}  // namespace goalcup
