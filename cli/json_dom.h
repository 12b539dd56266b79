// Writing a parsed JSON value back out (inspect's pretty views, redaction's
// rewritten records). Numbers keep their text as parsed.
#pragma once

#include <simdjson.h>

#include <functional>
#include <string>
#include <string_view>

#include "cli/json_writer.h"

namespace goalcup {

// Given `shape`, every key and string passes through it first (a view
// that clips what it shows).
using StringShape = std::function<std::string(std::string_view)>;
void write_dom(JsonWriter& w, simdjson::dom::element e, const StringShape* shape = nullptr);
void write_dom(JsonWriter& w, simdjson::dom::object o, const StringShape* shape = nullptr);

}  // namespace goalcup
