// The JSON form of inspect's streamed views (records, conversation), used by
// their JSON printers.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "inspect/verdict_view.h"

namespace goalcup::inspect {

// The JSON form every streamed view shares: {"file", "verdict", "verify",
// "<items_key>": [...]}, the head written at once, each item as it comes,
// so that memory holds one item at a time.
class JsonItemStream {
 public:
  JsonItemStream(std::ostream& out, const VerdictView& verdict, std::string_view items_key);
  void add(std::string_view item_json);
  void end();

 private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace goalcup::inspect
