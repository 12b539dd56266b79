#include "core/error.h"

#include <array>

namespace goalcup {
namespace {

struct CodeInfo {
  std::string_view name;
  ErrorClass cls;
};

constexpr std::array kCodeInfo = {
#define GOALCUP_X(name, cls) CodeInfo{#name, ErrorClass::cls},
    GOALCUP_ERROR_CODES(GOALCUP_X)
#undef GOALCUP_X
};

constexpr std::array kCodes = {
#define GOALCUP_X(name, cls) Code::name,
    GOALCUP_ERROR_CODES(GOALCUP_X)
#undef GOALCUP_X
};

}  // namespace

std::string_view code_name(Code code) { return kCodeInfo[static_cast<size_t>(code)].name; }
ErrorClass code_class(Code code) { return kCodeInfo[static_cast<size_t>(code)].cls; }
std::span<const Code> all_codes() { return kCodes; }

}  // namespace goalcup
