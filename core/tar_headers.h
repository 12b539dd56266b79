// A second look at a tar's raw headers, beside libarchive, for what
// libarchive reads differently from the tar tools a judge extracts with.
//
// libarchive 3.6 ignores pax global headers (type 'g'), while GNU tar and
// Python's tarfile apply their `path` to the members after them: a tar can
// then hold "trace.jsonl" for one reader and "zzz.txt" for another, and the
// folder it extracts to holds a different trace than the one verified. The
// watch follows the header chain through the bytes libarchive is given and
// refuses a global header that sets a member's name, link or size.
//
// A member's name can also come from two headers before it: a GNU long
// name ('L', or 'K' for a link) and a pax 'x' `path` (`linkpath`).
// libarchive and Python's tarfile take the GNU one, GNU tar the pax one;
// two of the same kind (or a pax body naming `path` twice) are read first
// or last depending on the tool. The watch refuses a member named twice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/error.h"

namespace goalcup {

class TarHeaderWatch {
 public:
  // The next `n` bytes of the archive, in order.
  std::optional<Error> feed(const char* p, size_t n);

 private:
  std::optional<Error> on_header();
  std::optional<Error> on_pax_body();

  uint64_t offset_ = 0;       // bytes fed so far
  uint64_t next_header_ = 0;  // where the next header block starts
  std::string header_;        // the header block being gathered
  std::string pax_;           // the body of an 'x' or 'g' header being gathered
  uint64_t pax_left_ = 0;
  char pax_type_ = 0;
  std::optional<uint64_t> next_size_;  // a pax 'x' header's size for the next member
  // Headers before the next member that name it (or its link target).
  struct NameSources {
    unsigned gnu_name = 0, pax_path = 0, gnu_link = 0, pax_linkpath = 0;
  };
  NameSources names_;
  bool ended_ = false;                 // a zero block: the archive's end
};

}  // namespace goalcup
