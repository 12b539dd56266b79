#include "inspect/json_items.h"

#include <ostream>

#include "cli/json_writer.h"

namespace goalcup::inspect {

JsonItemStream::JsonItemStream(std::ostream& out, const VerdictView& verdict, std::string_view items_key) : out_(out) {
  std::string head;
  JsonWriter w(&head);
  w.begin_object().field("file", verdict.report().file).field("verdict", verdict_name(verdict.report().verdict));
  w.key("verify");
  write_verify_json(w, verdict.report());
  // The object stays open: the items follow as they are read.
  head += ",";
  append_json_string(&head, items_key);
  out_ << head << ":[";
}

void JsonItemStream::add(std::string_view item_json) {
  out_ << (first_ ? "\n" : ",\n") << item_json;
  first_ = false;
}

void JsonItemStream::end() { out_ << (first_ ? "]}\n" : "\n]}\n"); }

}  // namespace goalcup::inspect
