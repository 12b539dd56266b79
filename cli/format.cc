#include "cli/format.h"

#include <array>
#include <utility>

namespace goalcup {
namespace {

constexpr std::array<std::pair<Format, std::string_view>, 5> kNames{{
    {Format::text, "text"},
    {Format::json, "json"},
    {Format::jsonl, "jsonl"},
    {Format::sarif, "sarif"},
    {Format::markdown, "markdown"},
}};

}  // namespace

std::string_view format_name(Format f) {
  for (const auto& [format, name] : kNames) {
    if (format == f) return name;
  }
  return "text";
}

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& [format, n] : kNames) {
    if (n == name) return format;
  }
  return std::nullopt;
}

}  // namespace goalcup
