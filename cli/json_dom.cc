#include "cli/json_dom.h"

namespace goalcup {

void write_dom(JsonWriter& w, simdjson::dom::object o, const StringShape* shape) {
  w.begin_object();
  for (auto field : o) {
    if (shape) w.key((*shape)(field.key));
    else w.key(field.key);
    write_dom(w, field.value, shape);
  }
  w.end_object();
}

void write_dom(JsonWriter& w, simdjson::dom::element e, const StringShape* shape) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  bool b;
  if (!e.get(o)) {
    write_dom(w, o, shape);
  } else if (!e.get(a)) {
    w.begin_array();
    for (auto v : a) write_dom(w, v, shape);
    w.end_array();
  } else if (!e.get(s)) {
    if (shape) w.value((*shape)(s));
    else w.value(s);
  } else if (!e.get(b)) {
    w.value(b);
  } else if (e.is_null()) {
    w.null();
  } else {
    w.raw(simdjson::minify(e));  // numbers as written
  }
}

}  // namespace goalcup
