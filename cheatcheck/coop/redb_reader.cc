#include "cheatcheck/coop/redb_reader.h"

#include <absl/container/flat_hash_set.h>
#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "core/upload_budget.h"

namespace goalcup::cheat {
namespace {

constexpr std::array<uint8_t, 9> kMagic = {'r', 'e', 'd', 'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A};
constexpr size_t kHeaderBytes = 320;  // header (64) + two commit slots (128 each)
constexpr size_t kSlotBytes = 128;
constexpr size_t kSlotChecksumAt = kSlotBytes - 16;
constexpr uint8_t kPrimaryBit = 1, kRecoveryRequired = 2, kTwoPhaseCommit = 4;
constexpr uint8_t kLeaf = 1, kBranch = 2;
constexpr uint8_t kNormalTable = 3, kMultimapTable = 4;
constexpr uint64_t kMaxPageBytes = 16u << 20;  // one page in memory at a time, never more
constexpr size_t kMaxDepth = 64;
constexpr uint64_t kMaxPages = 1u << 20;  // pages walked per tree set (4 GiB of 4 KiB pages)
constexpr size_t kMaxTables = 4096;
constexpr size_t kMaxRawChunk = 1u << 20;  // raw stale bytes handed over at once
constexpr size_t kRawOverlap = 64u << 10;   // repeated at the start of the next piece

uint16_t le16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint32_t le32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint64_t le64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// XXH3-128 with seed 0, as redb stores it (a little-endian u128).
bool checksum_matches(std::string_view data, const char* stored) {
  const XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
  return le64(stored) == h.low64 && le64(stored + 8) == h.high64;
}

struct BtreeHeader {
  uint64_t root = 0;  // a page number as redb encodes it
  std::array<char, 16> checksum{};
  uint64_t length = 0;
};

BtreeHeader btree_header(const char* p) {
  BtreeHeader h;
  h.root = le64(p);
  std::memcpy(h.checksum.data(), p + 8, 16);
  h.length = le64(p + 24);
  return h;
}

struct Slot {
  uint8_t version = 0;
  std::optional<BtreeHeader> user_root;
  uint64_t transaction_id = 0;
  bool valid = false;  // a known version and a matching slot checksum
};

Slot parse_slot(const char* p) {
  Slot s;
  s.version = static_cast<uint8_t>(p[0]);
  if (p[1] != 0) s.user_root = btree_header(p + 8);
  s.transaction_id = le64(p + 104);
  s.valid = (s.version == 2 || s.version == 3) && checksum_matches(std::string_view(p, kSlotChecksumAt), p + kSlotChecksumAt);
  return s;
}

// Entries of a leaf page: [key_begin, key_end, value_end) offsets.
struct LeafEntry {
  size_t key_begin, key_end, value_end;
};

struct TableDef {
  std::string name;
  std::optional<BtreeHeader> root;
  std::optional<uint32_t> fixed_key, fixed_value;
};

// The entries of a leaf page laid out as redb lays them out (key ends, then
// value ends, for variable-width types; no alignment padding, which &str
// and &[u8] never need), or nullopt when the bytes are not such a page.
// `used` (when given) is the length the page's checksum covers.
std::optional<std::vector<LeafEntry>> leaf_entries(std::string_view page, std::optional<uint32_t> fk,
                                                   std::optional<uint32_t> fv, size_t* used) {
  if (page.size() < 4 || static_cast<uint8_t>(page[0]) != kLeaf) return std::nullopt;
  const size_t n = le16(page.data() + 2);
  if (n == 0) return std::nullopt;
  size_t keys_at = 4 + (fk ? 0 : 4 * n) + (fv ? 0 : 4 * n);
  if (keys_at > page.size()) return std::nullopt;
  std::vector<LeafEntry> out(n);
  size_t prev = keys_at;
  for (size_t i = 0; i < n; ++i) {
    const size_t end = fk ? keys_at + size_t{*fk} * (i + 1) : le32(page.data() + 4 + 4 * i);
    if (end < prev || end > page.size()) return std::nullopt;
    out[i].key_begin = prev;
    out[i].key_end = end;
    prev = end;
  }
  const size_t values_at = prev;
  for (size_t i = 0; i < n; ++i) {
    const size_t end = fv ? values_at + size_t{*fv} * (i + 1) : le32(page.data() + 4 + (fk ? 0 : 4 * n) + 4 * i);
    if (end < prev || end > page.size()) return std::nullopt;
    out[i].value_end = end;
    prev = end;
  }
  if (used) *used = prev;
  return out;
}

// The table tree's value: redb's InternalTableDefinition (file format v2+).
std::optional<TableDef> table_def(std::string_view name, std::string_view v, std::string* why) {
  if (v.size() < 60) return std::nullopt;
  const auto type = static_cast<uint8_t>(v[0]);
  if (type != kNormalTable && type != kMultimapTable) {
    *why = "table " + std::string(name) + " has table type " + std::to_string(type);
    return std::nullopt;
  }
  TableDef t;
  t.name = std::string(name);
  if (v[9] != 0) t.root = btree_header(v.data() + 10);
  if (v[42] != 0) t.fixed_key = le32(v.data() + 43);
  if (v[47] != 0) t.fixed_value = le32(v.data() + 48);
  if (le32(v.data() + 52) > 1 || le32(v.data() + 56) > 1) {
    *why = "table " + t.name + " needs aligned keys or values";
    return std::nullopt;
  }
  if (type == kMultimapTable) t.root.reset();  // not read: coop keeps none
  return t;
}

const std::string& too_many_pages() {
  static const std::string text = "more than " + std::to_string(kMaxPages) + " pages";
  return text;
}
const std::string& too_deep() {
  static const std::string text = "a tree deeper than " + std::to_string(kMaxDepth);
  return text;
}

// The bytes at the start of a page that say how many bytes its checksum
// covers: a leaf's or branch's header with its offset tables.
size_t header_bytes(std::string_view page, std::optional<uint32_t> fk, std::optional<uint32_t> fv) {
  if (page.size() < 4) return 4;
  const size_t n = le16(page.data() + 2);
  if (static_cast<uint8_t>(page[0]) == kLeaf) return 4 + (fk ? 0 : 4 * n) + (fv ? 0 : 4 * n);
  return 8 + 24 * (n + 1) + (fk ? 0 : 4 * n);  // a branch (other types fail later)
}

// How many bytes of a page its checksum covers (its last entry's end), from
// its header (`header_bytes` of them), or nullopt when the header is not
// one of redb's.
std::optional<size_t> used_bytes(std::string_view page, std::optional<uint32_t> fk, std::optional<uint32_t> fv) {
  const size_t n = le16(page.data() + 2);
  const size_t head = header_bytes(page, fk, fv);
  if (n == 0 || page.size() < head) return std::nullopt;
  size_t used = 0;
  if (static_cast<uint8_t>(page[0]) == kLeaf) {
    const size_t keys_end = fk ? head + size_t{*fk} * n : le32(page.data() + 4 + 4 * (n - 1));
    used = fv ? keys_end + size_t{*fv} * n : le32(page.data() + 4 + (fk ? 0 : 4 * n) + 4 * (n - 1));
  } else {
    used = fk ? head + size_t{*fk} * n : le32(page.data() + 8 + 24 * (n + 1) + 4 * (n - 1));
  }
  if (used < head) return std::nullopt;
  return used;
}

class Reader {
 public:
  Reader(int fd, uint64_t size, UploadBudget* budget) : fd_(fd), size_(size), budget_(budget) {}

  RedbReadResult run(const RedbCallbacks& cb) {
    RedbReadResult r;
    std::string header;
    if (size_ < kHeaderBytes || !read_at(0, kHeaderBytes, &header)) return fail(r, "shorter than a redb header");
    if (std::memcmp(header.data(), kMagic.data(), kMagic.size()) != 0) return fail(r, "no redb magic number");
    const auto god = static_cast<uint8_t>(header[9]);
    page_size_ = le32(header.data() + 12);
    region_header_pages_ = le32(header.data() + 16);
    region_max_data_pages_ = le32(header.data() + 20);
    if (page_size_ < 512 || page_size_ > 65536 || (page_size_ & (page_size_ - 1)) != 0) {
      return fail(r, "page size " + std::to_string(page_size_) + " is not a power of two in 512..65536");
    }
    if (region_max_data_pages_ == 0 || region_max_data_pages_ > (1u << 20) || region_header_pages_ > (1u << 20)) {
      return fail(r, "region layout out of range");
    }
    const unsigned primary = god & kPrimaryBit;
    std::array<Slot, 2> slots = {parse_slot(header.data() + 64), parse_slot(header.data() + 64 + kSlotBytes)};
    const Slot& p = slots[primary];
    const Slot& s = slots[primary ^ 1];
    // The slot redb opens: the primary; when the file needs recovery
    // (header.rs pick_primary_for_repair), an intact secondary instead if the
    // primary is corrupted or older (1-phase commits only: after a 2-phase
    // commit redb never trusts the secondary). A slot whose trees fail their
    // checksums is passed over.
    std::vector<const Slot*> order;
    if (god & kTwoPhaseCommit) {
      order = {&p};
    } else if ((god & kRecoveryRequired) && (!p.valid || (s.valid && s.transaction_id > p.transaction_id))) {
      order = {&s, &p};
    } else {
      order = {&p, &s};
    }
    const Slot* chosen = nullptr;
    std::string first_failure;
    for (const Slot* slot : order) {
      if (!slot->valid) continue;
      std::string why;
      if (walk_all(*slot, nullptr, &why)) {
        chosen = slot;
        break;
      }
      if (first_failure.empty()) first_failure = why;
    }
    if (limit_) return out_of_time(r);
    if (!chosen) {
      return fail(r, first_failure.empty() ? "no commit slot with a valid checksum" : first_failure);
    }
    r.note = std::string(chosen == &p ? "primary" : "secondary") + " commit slot " +
             std::to_string(chosen == &p ? primary : primary ^ 1) + ", transaction " +
             std::to_string(chosen->transaction_id) +
             ((god & kRecoveryRequired) ? "; the file was copied while the database was open" : "") +
             (chosen != &p ? "; the primary slot did not verify: " + first_failure : "");
    r.transaction_id = chosen->transaction_id;
    std::string why;
    used_.clear();
    visited_.clear();
    if (!walk_all(*chosen, &cb, &why)) return limit_ ? out_of_time(r) : fail(r, why);  // or it changed under us
    r.understood = true;
    r.live_rows = rows_;
    r.pages_read = pages_;
    if (cb.on_stale) stale(cb);
    r.limit = limit_;
    r.bytes_read = bytes_;
    return r;
  }

 private:
  static RedbReadResult fail(RedbReadResult& r, std::string why) {
    r.understood = false;
    r.why = std::move(why);
    return r;
  }

  RedbReadResult out_of_time(RedbReadResult& r) const {
    r.limit = limit_;
    return fail(r, limit_->message);
  }

  // `len` bytes at `offset`, counted against the upload's budget: false
  // when they cannot be read or the budget ran out (`limit_` set).
  bool read_at(uint64_t offset, size_t len, std::string* out) {
    if (limit_) return false;
    if (budget_) {
      if (Status st = budget_->add_read(len); !st) {
        limit_ = st.error();
        return false;
      }
    }
    bytes_ += len;
    out->resize(len);
    size_t done = 0;
    while (done < len) {
      const ssize_t n = ::pread(fd_, out->data() + done, len - done, static_cast<off_t>(offset + done));
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }

  // A page's place in the file (redb's PageNumber::address_range).
  std::optional<std::pair<uint64_t, uint64_t>> page_range(uint64_t raw) const {
    const auto order = static_cast<unsigned>(raw >> 59);
    if (order > 20) return std::nullopt;
    const uint64_t index = raw & (0xFFFFFull >> order);
    const uint64_t region = (raw >> 20) & 0xFFFFF;
    const uint64_t len = uint64_t{page_size_} << order;
    if (len > kMaxPageBytes || (index << order) >= region_max_data_pages_) return std::nullopt;
    const uint64_t region_bytes = (uint64_t{region_header_pages_} + region_max_data_pages_) * page_size_;
    const uint64_t start = page_size_ + region * region_bytes + uint64_t{region_header_pages_} * page_size_ + index * len;
    if (start + len > size_) return std::nullopt;
    return std::make_pair(start, len);
  }

  // The user table tree, then every table's tree; with `cb`, rows are
  // handed over and the pages in use remembered.
  bool walk_all(const Slot& slot, const RedbCallbacks* cb, std::string* why) {
    rows_ = 0;
    pages_ = 0;
    visited_.clear();
    if (!slot.user_root) return true;  // no table yet
    std::vector<TableDef> tables;
    const bool ok = walk(*slot.user_root, std::nullopt, std::nullopt, cb != nullptr, why,
                         [&](std::string_view key, std::string_view value, uint64_t) {
                           if (tables.size() >= kMaxTables) return;
                           std::string skip;
                           if (auto t = table_def(key, value, &skip)) tables.push_back(std::move(*t));
                         });
    if (!ok) return false;
    for (const TableDef& t : tables) {
      if (!t.root) continue;
      const bool table_ok = walk(*t.root, t.fixed_key, t.fixed_value, cb != nullptr, why,
                                 [&](std::string_view key, std::string_view value, uint64_t offset) {
                                   ++rows_;
                                   if (cb && cb->on_row) cb->on_row(RedbRow{t.name, key, value, offset});
                                 });
      if (!table_ok) {
        *why = "table " + t.name + ": " + *why;
        return false;
      }
    }
    return true;
  }

  // A page's bytes that its checksum covers, read from its header on (a
  // page of 16 MiB that uses 12 bytes costs 12 bytes, not 16 MiB), checked
  // against `checksum`.
  bool read_page(uint64_t start, uint64_t len, const std::array<char, 16>& checksum, std::optional<uint32_t> fk,
                 std::optional<uint32_t> fv, std::string* page, std::string* why) {
    if (!read_at(start, static_cast<size_t>(std::min<uint64_t>(len, page_size_)), page)) {
      return set(why, "a page could not be read");
    }
    const auto type = static_cast<uint8_t>((*page)[0]);
    if (type != kLeaf && type != kBranch) return set(why, "a page of unknown type " + std::to_string(type));
    const char* kind = type == kLeaf ? "a leaf page" : "a branch page";
    const size_t head = header_bytes(*page, fk, fv);
    if (head > len) return set(why, std::string(kind) + " is malformed");
    if (head > page->size() && !read_at(start, head, page)) return set(why, "a page could not be read");
    const auto used = used_bytes(*page, fk, fv);
    if (!used || *used > len) return set(why, std::string(kind) + " is malformed");
    if (*used > page->size() && !read_at(start, *used, page)) return set(why, "a page could not be read");
    page->resize(*used);
    if (!checksum_matches(*page, checksum.data())) return set(why, std::string(kind) + " fails its checksum");
    return true;
  }

  // Depth first, in key order. A branch is a frame (where it is, how many
  // children, the next one to visit); a child's page number and checksum
  // are read from the file when it is its turn, so memory is one page and
  // at most kMaxDepth small frames however wide the branches are.
  template <class OnEntry>
  bool walk(const BtreeHeader& root, std::optional<uint32_t> fk, std::optional<uint32_t> fv, bool remember,
            std::string* why, OnEntry&& on_entry) {
    struct Frame {
      uint64_t start;  // of the branch page in the file
      size_t children, next;
    };
    std::vector<Frame> stack;
    std::string page, child;
    uint64_t number = root.root;
    std::array<char, 16> checksum = root.checksum;
    for (;;) {
      const auto range = page_range(number);
      if (!range) return set(why, "a page number points outside the file");
      if (!visited_.insert(range->first).second) return set(why, "a page is reached twice");
      if (++pages_ > kMaxPages) return set(why, too_many_pages());
      if (!read_page(range->first, range->second, checksum, fk, fv, &page, why)) return false;
      if (static_cast<uint8_t>(page[0]) == kLeaf) {
        auto entries = leaf_entries(page, fk, fv, nullptr);
        if (!entries) return set(why, "a leaf page is malformed");
        for (const LeafEntry& e : *entries) {
          const size_t value_begin = &e == entries->data() ? (*entries).back().key_end : (&e - 1)->value_end;
          on_entry(std::string_view(page).substr(e.key_begin, e.key_end - e.key_begin),
                   std::string_view(page).substr(value_begin, e.value_end - value_begin), range->first);
        }
      } else {
        stack.push_back(Frame{range->first, size_t{le16(page.data() + 2)} + 1, 0});
      }
      if (remember) used_.emplace_back(range->first, range->first + page.size());
      while (!stack.empty() && stack.back().next == stack.back().children) stack.pop_back();
      if (stack.empty()) return true;
      if (stack.size() > kMaxDepth) return set(why, too_deep());
      Frame& f = stack.back();
      const size_t i = f.next++;
      std::string number_bytes;
      if (!read_at(f.start + 8 + 16 * i, 16, &child) ||
          !read_at(f.start + 8 + 16 * f.children + 8 * i, 8, &number_bytes)) {
        return set(why, "a page could not be read");
      }
      std::memcpy(checksum.data(), child.data(), 16);
      number = le64(number_bytes.data());
    }
  }

  static bool set(std::string* why, std::string text) {
    *why = std::move(text);
    return false;
  }

  // Bytes after the super-header that no live page uses: stale leaf pages
  // are split into entries, the rest is handed over raw (holes of a sparse
  // file are skipped).
  void stale(const RedbCallbacks& cb) {
    std::sort(used_.begin(), used_.end());
    uint64_t pos = page_size_;
    for (const auto& [begin, end] : used_) {
      if (begin > pos) stale_gap(pos, begin, cb);
      pos = std::max(pos, end);
    }
    if (pos < size_) stale_gap(pos, size_, cb);
  }

  void stale_gap(uint64_t begin, uint64_t end, const RedbCallbacks& cb) {
    std::string raw, block, leaf;
    uint64_t raw_at = begin;
    size_t repeated = 0;
    auto flush = [&] {
      if (raw.size() > repeated) cb.on_stale(RedbStale{false, {}, raw, raw_at, repeated});
      raw.clear();
      repeated = 0;
    };
    for (uint64_t pos = begin; pos < end;) {
      const off_t data = ::lseek(fd_, static_cast<off_t>(pos), SEEK_DATA);
      if (data < 0) break;  // only a hole is left
      if (static_cast<uint64_t>(data) > pos) {
        flush();
        pos = std::max(pos, static_cast<uint64_t>(data) / page_size_ * page_size_);
        if (pos >= end) break;
      }
      const uint64_t next = std::min(end, (pos / page_size_ + 1) * page_size_);
      if (pos % page_size_ == 0 && stale_leaf(pos, end, cb, &leaf)) {
        flush();
        pos += (leaf.size() + page_size_ - 1) / page_size_ * page_size_;
        continue;
      }
      if (!read_at(pos, static_cast<size_t>(next - pos), &block)) break;
      if (raw.empty()) raw_at = pos;
      raw += block;
      if (raw.size() >= kMaxRawChunk) {  // hand over, keeping a tail for a value across the cut
        cb.on_stale(RedbStale{false, {}, raw, raw_at, repeated});
        repeated = std::min(kRawOverlap, raw.size());
        raw_at += raw.size() - repeated;
        raw.erase(0, raw.size() - repeated);
      }
      pos = next;
    }
    flush();
  }

  // A leaf page starting at `pos` that no live tree reaches: its entries.
  bool stale_leaf(uint64_t pos, uint64_t end, const RedbCallbacks& cb, std::string* page) {
    const size_t first = static_cast<size_t>(std::min<uint64_t>(page_size_, end - pos));
    if (first < 4 || !read_at(pos, first, page) || static_cast<uint8_t>((*page)[0]) != kLeaf) return false;
    // The page may be of a higher order: its value ends say how long it is.
    const size_t n = le16(page->data() + 2);
    if (n == 0 || 4 + 8 * n > first) return false;
    const uint64_t last = le32(page->data() + 4 + 4 * n + 4 * (n - 1));
    if (last > std::min<uint64_t>(end - pos, kMaxPageBytes) || last < 4 + 8 * n) return false;
    if (last > first && !read_at(pos, static_cast<size_t>(last), page)) return false;
    size_t used = 0;
    auto entries = leaf_entries(*page, std::nullopt, std::nullopt, &used);
    if (!entries) return false;
    page->resize(used);
    for (const LeafEntry& e : *entries) {
      const size_t value_begin = &e == entries->data() ? entries->back().key_end : (&e - 1)->value_end;
      cb.on_stale(RedbStale{true, std::string_view(*page).substr(e.key_begin, e.key_end - e.key_begin),
                            std::string_view(*page).substr(value_begin, e.value_end - value_begin), pos});
    }
    return true;
  }

  int fd_;
  uint64_t size_;
  UploadBudget* budget_;
  std::optional<Error> limit_;  // the budget ran out
  uint64_t bytes_ = 0;
  uint32_t page_size_ = 0, region_header_pages_ = 0, region_max_data_pages_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> used_;  // [begin, end) of live pages' used bytes
  absl::flat_hash_set<uint64_t> visited_;
  uint64_t rows_ = 0, pages_ = 0;
};

}  // namespace

RedbReadResult read_redb(int fd, uint64_t size, const RedbCallbacks& callbacks, UploadBudget* budget) {
  return Reader(fd, size, budget).run(callbacks);
}

}  // namespace goalcup::cheat
