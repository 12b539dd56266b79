// Writing a parsed JSON value back out (inspect's pretty views, redaction's
// rewritten records). Numbers keep their text as parsed.
#pragma once

#include <simdjson.h>

#include "cli/json_writer.h"

namespace goalcup {

void write_dom(JsonWriter& w, simdjson::dom::element e);
void write_dom(JsonWriter& w, simdjson::dom::object o);

}  // namespace goalcup
