#include "cheatcheck/coop/audit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "cheatcheck/context.h"
#include "cheatcheck/coop/json_values.h"
#include "cheatcheck/coop/manifest_serde.h"
#include "cheatcheck/coop/redb_reader.h"
#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "core/json_strict.h"
#include "core/sha256.h"
#include "core/tree_walk.h"
#include "core/upload_budget.h"

namespace goalcup::cheat {
namespace {

constexpr uint64_t kMaxSmallFile = 1u << 20;  // discord.json, vault.json: small when in shape
constexpr size_t kMaxPlacesNamed = 8;
constexpr size_t kMaxPending = 4096;            // raw-byte hits held until the structured passes end

std::string mode_text(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

// A regular file's bytes, at most `max` of them (links are not followed).
std::optional<std::string> read_file(const std::string& path, uint64_t max) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string out(std::min<uint64_t>(static_cast<uint64_t>(st.st_size), max), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

// What stands for a run id in the fingerprints of a data directory's or a
// manifest's findings (their keys name a field or file, not the input): the
// path as given, normalized ("./a/" is "a").
std::string input_identity(const std::string& path) {
  std::string p = std::filesystem::path(path).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string str(simdjson::dom::object o, std::string_view key) {
  std::string_view v;
  return json::string(o, key, &v) == json::Get::ok ? std::string(v) : std::string();
}

// A regular file read in pieces (links are not followed), so that memory
// does not follow the file's size; holes of a sparse file are skipped.
// With a budget, reading stops when it runs out and `limit()` says why.
// Opened non-blocking, so that a FIFO is refused, not waited on.
class FileReader {
 public:
  explicit FileReader(const std::string& path, UploadBudget* budget = nullptr) : budget_(budget) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st {};
    if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))) {
      not_regular_ = true;
      close_fd();
    }
    if (fd_ >= 0) size_ = static_cast<uint64_t>(st.st_size);
  }
  ~FileReader() { close_fd(); }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Opened, but a FIFO, device, socket or folder.
  bool not_regular() const { return not_regular_; }
  int fd() const { return fd_; }
  const std::optional<Error>& limit() const { return limit_; }
  uint64_t size() const { return size_; }

  // Pieces of at most kChunk bytes, cut after a line end when there is one
  // (a secret does not span lines), each with its offset.
  void for_each_chunk(const std::function<void(std::string_view, uint64_t)>& f) const {
    std::string buf;
    for (uint64_t pos = next_data(0); pos < size_; pos = next_data(pos)) {
      if (!read(pos, std::min<uint64_t>(kChunk, size_ - pos), &buf)) return;
      size_t len = buf.size();
      if (pos + len < size_) {
        const size_t nl = buf.rfind('\n');
        if (nl != std::string::npos && nl > 0) len = nl + 1;
      }
      f(std::string_view(buf).substr(0, len), pos);
      pos += len;
    }
  }

  // Windows of kChunk bytes plus `lookahead`; `f(window, offset, limit)`
  // handles what starts before `limit` and returns where the next starts.
  void for_each_window(size_t lookahead,
                       const std::function<size_t(std::string_view, uint64_t, size_t)>& f) const {
    std::string buf;
    for (uint64_t pos = next_data(0); pos < size_; pos = next_data(pos)) {
      if (!read(pos, std::min<uint64_t>(kChunk + lookahead, size_ - pos), &buf)) return;
      const size_t limit = pos + buf.size() >= size_ ? buf.size() : std::min(buf.size(), kChunk);
      pos += std::max<size_t>(1, f(buf, pos, limit));
    }
  }

 private:
  static constexpr size_t kChunk = 1u << 20;

  uint64_t next_data(uint64_t pos) const {
    if (pos >= size_) return size_;
    const off_t data = ::lseek(fd_, static_cast<off_t>(pos), SEEK_DATA);
    return data < 0 ? size_ : std::max(pos, static_cast<uint64_t>(data));
  }

  bool read(uint64_t pos, uint64_t len, std::string* out) const {
    if (budget_ && !limit_) {
      if (Status st = budget_->add_read(len); !st) limit_ = st.error();
    }
    if (limit_) return false;
    out->resize(static_cast<size_t>(len));
    size_t done = 0;
    while (done < out->size()) {
      const ssize_t n = ::pread(fd_, out->data() + done, out->size() - done, static_cast<off_t>(pos + done));
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    out->resize(done);
    return done > 0;
  }

  void close_fd() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  int fd_ = -1;
  uint64_t size_ = 0;
  bool not_regular_ = false;
  UploadBudget* budget_;
  mutable std::optional<Error> limit_;
};

// A redb key as text: control bytes escaped ("local.coop/aria\\0<id>").
std::string printable_key(std::string_view key) {
  std::string out;
  for (const char c : key.substr(0, 256)) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0) {
      out += "\\0";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return key.size() > 256 ? out + "..." : out;
}

// coop's HenId::workdir_key: `<coop>__<name>`, every character outside
// [a-z0-9-] replaced with '-'.
std::string workdir_key(std::string_view hen_id) {
  const size_t slash = hen_id.find('/');
  auto sanitize = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) c = '-';
    }
    return out;
  };
  if (slash == std::string_view::npos) return sanitize(hen_id) + "__" + sanitize(hen_id);
  return sanitize(hen_id.substr(0, slash)) + "__" + sanitize(hen_id.substr(slash + 1));
}

bool has(simdjson::dom::object o, std::string_view key) { return o.at_key(key).error() == simdjson::SUCCESS; }

// The hen id of a value shaped like coop's Hen (an id and a manifest).
std::optional<std::string> hen_of(simdjson::dom::object o) {
  const std::string id = str(o, "id");
  simdjson::dom::object manifest;
  if (id.empty() || o.at_key("manifest").get(manifest) != simdjson::SUCCESS) return std::nullopt;
  return id;
}

// The table and key a value belongs in, from its shape (coop's Hen, Job
// and MemoryEntry), or "" when it has none of them.
std::string table_and_key(simdjson::dom::object o) {
  if (auto hen = hen_of(o)) return "hens_v1 " + printable_key(*hen);
  const std::string id = str(o, "id"), hen = str(o, "hen_id");
  if (id.empty() || hen.empty()) return "";
  if (has(o, "job_id") && has(o, "summary")) return "memories_v1 " + printable_key(hen + std::string(1, '\0') + id);
  if (has(o, "prompt") && has(o, "status")) return "jobs_v1 " + printable_key(id);
  return "";
}

std::string table_of(simdjson::dom::object o) {
  const std::string tk = table_and_key(o);
  return tk.empty() ? "a row" : tk.substr(0, tk.find(' '));
}

std::string name_of(simdjson::dom::object o, uint64_t offset) {
  const std::string tk = table_and_key(o);
  return tk.empty() ? "value @" + std::to_string(offset) : tk;
}

class CoopAudit {
 public:
  CoopAudit(const std::string& dir, const Limits& limits, const Policy& policy)
      : dir_(dir), limits_(limits), budget_(limits), ctx_(policy, limits), engine_(limits) {
    ctx_.facts().run_id = "coop:" + input_identity(dir);  // a baseline of one farm does not cover another
  }

  CheatReport run() {
    CheatReport rep;
    rep.file = dir_;
    rep.verify.verdict = Verdict::verified;  // "read": there is no chain here
    struct stat st {};
    if (auto refused = root_refused(&st)) {
      rep.verify.verdict = Verdict::error;
      rep.verify.errors.push_back(std::move(*refused));
      return rep;
    }
    owner_ = st.st_uid;
    modes(st);
    secrets();
    discord();
    vault();
    workdirs();
    emit_secrets();
    rep.findings = std::move(ctx_.findings());
    for (auto& f : rep.findings) f.seqs.clear();  // no records here: places are in the message
    rep.skipped = std::move(ctx_.skipped());
    sort_findings(rep.findings);
    // What the walks could not read was not audited: the copy is not judged whole.
    rep.verify.errors = std::move(walk_errors_);
    if (!rep.verify.errors.empty()) rep.verify.verdict = Verdict::error;
    return rep;
  }

 private:
  void emit(const char* check, Severity sev, const std::string& message, const std::string& key) {
    ctx_.emit(finding(check, sev, {}, message), key);
  }

  // The data directory named on the command line is followed if it is a
  // link (/var/lib/coop -> /data/coop is common, and the judge chose it);
  // links inside it are the copy's and are never followed. Why it cannot
  // be audited, if it cannot: *st is the directory's own stat.
  std::optional<Error> root_refused(struct stat* st) const {
    if (::stat(dir_.c_str(), st) != 0) {
      const int err = errno;
      if (err == ENOENT || err == ENOTDIR) return Error{Code::not_found, -1, dir_ + " does not exist"};
      return Error{Code::io_error, -1, dir_ + ": " + std::strerror(err)};
    }
    if (!S_ISDIR(st->st_mode)) return Error{Code::usage, -1, dir_ + " is not a directory: coop audits a data directory"};
    return std::nullopt;
  }

  // COOP01: the modes and owners coop promises (set best-effort, so a
  // failure to set them was silent).
  void modes(const struct stat& dir_st) {
    if (dir_st.st_mode & 077) {
      emit("COOP01", Severity::high,
           "The data directory has mode " + mode_text(dir_st.st_mode) + "; coop promises 0700.", "mode:dir");
    }
    for (const char* name : {"state.redb", "vault.json", "discord.json"}) {
      struct stat st {};
      const std::string path = dir_ + "/" + name;
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISLNK(st.st_mode)) {
        emit("COOP01", Severity::high, std::string(name) + " is a symbolic link; coop writes a regular file.",
             std::string("link:") + name);
        continue;
      }
      if (st.st_mode & 077) {
        emit("COOP01", Severity::high,
             std::string(name) + " has mode " + mode_text(st.st_mode) + "; coop promises 0600.", std::string("mode:") + name);
      }
      if (st.st_uid != owner_) {
        emit("COOP01", Severity::warning,
             std::string(name) + " is owned by uid " + std::to_string(st.st_uid) + ", not the data directory's owner " +
                 std::to_string(owner_) + ".",
             std::string("owner:") + name);
      }
    }
  }

  // COOP02: every file through the secret engine. state.redb is read as
  // redb: each live row's value by its fields, named by table, key and
  // field; then the bytes no live tree reaches, where stale copies of
  // overwritten or deleted rows lie. A file the reader does not understand
  // is scanned for embedded values instead, and says so.
  void secrets() {
    uint64_t links = 0;
    std::string first_link;
    walk("COOP02", 0, [&](const TreeEntry& e) {
      if (S_ISLNK(e.st.st_mode) && links++ == 0) first_link = e.rel;
      if (!S_ISREG(e.st.st_mode)) return TreeStep::go_on;
      FileReader file(dir_ + "/" + e.rel, &budget_);
      if (!file.ok()) {
        walk_errors_.push_back(Error{Code::io_error, -1, dir_ + "/" + e.rel + ": cannot be read"});
        return TreeStep::go_on;
      }
      if (e.rel == "state.redb") {
        redb(file);
      } else {
        file.for_each_chunk([&](std::string_view chunk, uint64_t) { scan(chunk, live_, "raw bytes", e.rel); });
      }
      out_of_time(file.limit());
      return timed_out_ ? TreeStep::stop : TreeStep::go_on;
    });
    if (links > 0) {
      ctx_.skip("COOP02", std::to_string(links) + " symbolic link(s) not followed, such as " + first_link);
    }
  }

  // The time budget (--max-seconds) ran out: the copy was not read whole,
  // so it is not judged (an error of the report, said once).
  bool out_of_time(const std::optional<Error>& limit) {
    if (!limit) return false;
    if (!timed_out_) walk_errors_.push_back(*limit);
    timed_out_ = true;
    return true;
  }

  // The one bounded walk (core/tree_walk.h) below the data directory, at
  // most `max_depth` folders deep (0: as deep as the limits allow); what it
  // could not read becomes an error of the report.
  void walk(const char* check, uint32_t max_depth, const TreeVisitor& visit) {
    Limits bounds = limits_;
    if (max_depth > 0) bounds.max_walk_depth = std::min(bounds.max_walk_depth, max_depth);
    const TreeWalkResult w = walk_tree(dir_, bounds, visit);
    if (w.error) walk_errors_.push_back(*w.error);
    for (const auto& skip : w.skipped) {
      // A folder deeper than a check looks is not a gap in what it audits.
      if (max_depth > 0 && skip.code == Code::limit_walk_depth) continue;
      if (!walk_skips_.insert(skip.rel).second) continue;  // both walks met it
      walk_errors_.push_back(Error{skip.code, -1, std::string(check) + ": " + dir_ + "/" + skip.rel + ": " + skip.why});
    }
  }

  void scan(std::string_view text, SecretCollector& into, const std::string& location, const std::string& file) {
    std::vector<SecretHit> hits;
    engine_.scan(text, "", &hits);
    for (const auto& h : hits) add(into, h, location, file);
  }

  // Every place is named in the finding, not only the first.
  void add(SecretCollector& into, const SecretHit& hit, const std::string& location, const std::string& file) {
    into.add(hit, 0, location, file);
    auto& places = places_[&into == &live_][to_hex(sha256(hit.secret))];
    const std::string place = file + " " + location;
    if (places.size() < kMaxPlacesNamed && std::find(places.begin(), places.end(), place) == places.end()) {
      places.push_back(place);
    }
  }

  void name_other_places(Finding& f, bool live) {
    const auto it = places_[live].find(f.secret.secret_sha256);
    if (it == places_[live].end() || it->second.size() < 2) return;
    std::string also;
    for (size_t i = 1; i < it->second.size(); ++i) also += (also.empty() ? "" : "; ") + it->second[i];
    f.message += " Also in: " + also + (f.secret.occurrences > it->second.size() ? "; ..." : "") + ".";
  }

  // Raw-byte hits of state.redb: they count only for a secret that no row
  // or value holds (the same bytes are not a second place).
  struct Pending {
    SecretHit hit;
    std::string location;
  };
  void pend(std::string_view text, std::vector<Pending>* into, const std::string& location) {
    std::vector<SecretHit> hits;
    engine_.scan(text, "", &hits);
    for (auto& h : hits) {
      if (into->size() < kMaxPending) into->push_back(Pending{std::move(h), location});
    }
  }

  static absl::flat_hash_set<std::string> shas(const SecretCollector& c) {
    absl::flat_hash_set<std::string> out;
    for (const auto& g : c.groups()) out.insert(g.sha256);
    return out;
  }

  void settle(const std::vector<Pending>& pending, const absl::flat_hash_set<std::string>& known,
                     SecretCollector* into) {
    for (const auto& p : pending) {
      if (!known.contains(to_hex(sha256(p.hit.secret)))) add(*into, p.hit, p.location, "state.redb");
    }
  }

  // Live secrets are findings by their rule; a secret seen only in stale
  // copies is a warning that says so.
  void emit_secrets() {
    settle(live_pending_, shas(live_), &live_);
    const auto live = shas(live_);
    auto known = live;
    for (const auto& g : stale_.groups()) known.insert(g.sha256);
    settle(stale_pending_, known, &stale_);
    const size_t first_live = ctx_.findings().size();
    live_.emit(ctx_, {}, "COOP02");
    const size_t first_stale = ctx_.findings().size();
    for (size_t i = first_live; i < first_stale; ++i) name_other_places(ctx_.findings()[i], true);
    stale_.emit(ctx_, {}, "COOP02");
    auto& found = ctx_.findings();
    for (size_t i = found.size(); i-- > first_stale;) {
      Finding& f = found[i];
      if (f.has_secret && live.contains(f.secret.secret_sha256)) {
        found.erase(found.begin() + static_cast<ptrdiff_t>(i));  // also live: the live finding stands
        continue;
      }
      f.severity = std::min(f.severity, Severity::warning);
      name_other_places(f, false);
      f.message += " Stale: only in a copy of a row that was overwritten or deleted, in bytes redb has freed but "
                   "not yet reused; coop no longer reads it, but anyone with the file can.";
    }
    if (!redb_note_.empty()) ctx_.emit(finding("COOP02", Severity::info, {}, redb_note_ + "."), "redb-read");
  }

  // Every string of a JSON value, each with its field ("<where> .error").
  void scan_value(simdjson::dom::object o, SecretCollector& into, const std::string& where) {
    for (auto field : o) {
      std::string path = where + " ." + std::string(field.key);
      for_each_string_at(field.value, path,
                         [&](std::string_view text, const std::string& at) { scan(text, into, at, "state.redb"); });
    }
  }

  // state.redb read as redb, or (not understood) its bytes scanned for
  // embedded values instead.
  void redb(FileReader& file) {
    StrictJsonParser parser{limits_};
    // The embedded-value scan tries every '{': hostile bytes make it slow,
    // so it asks the time budget too.
    const std::function<bool()> spent = [this] {
      Status st = budget_.add_read(0);
      return !st && out_of_time(st.error());
    };
    RedbCallbacks cb;
    cb.on_row = [&](const RedbRow& row) {
      const std::string where = std::string(row.table) + " " + printable_key(row.key);
      if (row.table == "hens_v1") hens_.insert(workdir_key(row.key));
      scan(row.key, live_, where + " (key)", "state.redb");
      simdjson::dom::object o;
      auto root = parser.parse_copy(row.value, -1);
      if (root && !root->get(o)) {
        scan_value(o, live_, where);
      } else {
        scan(row.value, live_, where + " (value bytes)", "state.redb");
      }
    };
    cb.on_stale = [&](const RedbStale& s) {
      if (s.leaf_entry) {
        simdjson::dom::object o;
        auto root = parser.parse_copy(s.value, -1);
        const bool json = root && !root->get(o);
        const std::string where = "stale copy of " + (json ? table_of(o) : std::string("a row")) + " " + printable_key(s.key);
        if (json) {
          scan_value(o, stale_, where);
        } else {
          scan(s.value, stale_, where + " (value bytes)", "state.redb");
        }
        return;
      }
      // An object that ends in the repeated bytes was whole in the last piece.
      for_each_embedded_object(
          s.value, [&](size_t at, simdjson::dom::object o) { scan_value(o, stale_, "stale copy of " + name_of(o, s.offset + at)); },
          limits_, std::string_view::npos, s.repeated, spent);
      pend(s.value.substr(s.repeated), &stale_pending_, "stale bytes @" + std::to_string(s.offset + s.repeated));
    };
    const RedbReadResult r = read_redb(file.fd(), file.size(), cb, &budget_);
    if (out_of_time(r.limit)) return;
    if (r.understood) {
      hens_known_ = true;  // an empty hens_v1 means every workdir is an orphan
      redb_note_ = "state.redb read as redb (" + r.note + "): " + std::to_string(r.live_rows) + " live rows";
      return;
    }
    redb_note_ = "state.redb was not read as redb (" + r.why + "): its bytes were scanned for embedded values instead, "
                 "so live and stale copies cannot be told apart";
    file.for_each_window(kMaxEmbeddedObject, [&](std::string_view window, uint64_t offset, size_t limit) {
      return for_each_embedded_object(
          window,
          [&](size_t at, simdjson::dom::object o) {
            scan_value(o, live_, name_of(o, offset + at));
            if (auto hen = hen_of(o)) hens_.insert(workdir_key(*hen));
          },
          limits_, limit, 0, spent);
    });
    if (spent()) return;
    file.for_each_chunk([&](std::string_view chunk, uint64_t) { pend(chunk, &live_pending_, "raw bytes"); });
  }

  // COOP03: discord.json keeps the bot token in plain text.
  void discord() {
    auto bytes = read_file(dir_ + "/discord.json", kMaxSmallFile);
    if (!bytes) return;
    StrictJsonParser p{limits_};
    auto root = p.parse_copy(*bytes, -1);
    simdjson::dom::object o;
    if (!root || root->get(o)) {
      emit("COOP03", Severity::warning, "discord.json is not a JSON object.", "discord-shape");
      return;
    }
    const std::string token = str(o, "token");
    if (!token.empty()) {
      emit("COOP03", Severity::high,
           "discord.json holds the Discord bot token in plain text (" + std::to_string(token.size()) +
               " chars, SHA-256 " + to_hex(sha256(token)).substr(0, 16) + "...): anyone who reads this copy can run the bot.",
           "discord-token");
    }
  }

  // COOP04: vault.json must be {version: 1, salt: 32-byte hex, nonce:
  // 24-byte hex, ciphertext: hex}. It is never opened.
  void vault() {
    auto bytes = read_file(dir_ + "/vault.json", kMaxSmallFile);
    if (!bytes) return;
    StrictJsonParser p{limits_};
    auto root = p.parse_copy(*bytes, -1);
    simdjson::dom::object o;
    std::vector<std::string> wrong;
    if (!root || root->get(o)) {
      wrong.push_back("not a JSON object");
    } else {
      uint64_t version = 0;
      if (json::uint(o, "version", &version) != json::Get::ok || version != 1) wrong.push_back("version is not 1");
      if (!is_lower_hex(str(o, "salt"), 64)) wrong.push_back("salt is not 32 bytes of hex");
      if (!is_lower_hex(str(o, "nonce"), 48)) wrong.push_back("nonce is not 24 bytes of hex");
      const std::string ct = str(o, "ciphertext");
      if (ct.empty() || ct.size() % 2 || !is_lower_hex(ct, ct.size())) wrong.push_back("ciphertext is not hex");
      for (auto f : o) {
        if (f.key != "version" && f.key != "salt" && f.key != "nonce" && f.key != "ciphertext") {
          wrong.push_back("unexpected member \"" + std::string(f.key) + "\"");
        }
      }
    }
    if (wrong.empty()) return;
    std::string what;
    for (const auto& w : wrong) what += (what.empty() ? "" : "; ") + w;
    emit("COOP04", Severity::high, "vault.json does not have the sealed vault's shape: " + what + ".", "vault-shape");
  }

  // COOP05 and COOP06: workdir names, and workdirs no hen owns.
  void workdirs() {
    static const std::regex kName("^[a-z0-9-]+__[a-z][a-z0-9-]{0,31}$");
    struct stat st {};
    if (::lstat((dir_ + "/workdirs").c_str(), &st) != 0) return;
    if (S_ISLNK(st.st_mode)) {
      // The copy's own link: not followed, and not passed over in silence.
      for (const char* check : {"COOP05", "COOP06"}) ctx_.skip(check, "workdirs is a symbolic link, not followed");
      return;
    }
    if (!S_ISDIR(st.st_mode)) return;
    bool any = false;
    walk("COOP05", 2, [&](const TreeEntry& e) {
      if (e.depth == 1) return e.name == "workdirs" ? TreeStep::go_on : TreeStep::skip_folder;
      const std::string& name = e.name;
      any = true;
      if (!std::regex_match(name, kName)) {
        emit("COOP05", Severity::warning,
             "workdirs/" + name + " does not match coop's <coop>__<name> pattern, so no hen can own it.", "name:" + name);
        return TreeStep::skip_folder;
      }
      if (hens_known() && !hens_.contains(name)) {
        emit("COOP06", Severity::warning, "workdirs/" + name + " belongs to no hen recorded in state.redb.", "orphan:" + name);
      }
      return TreeStep::skip_folder;
    });
    if (any && !hens_known()) ctx_.skip("COOP06", "no hen records could be read from state.redb");
  }

  std::string dir_;
  Limits limits_;
  UploadBudget budget_;  // the whole directory is one upload
  bool timed_out_ = false;
  Context ctx_;
  std::vector<Error> walk_errors_;
  std::set<std::string> walk_skips_;
  uid_t owner_ = 0;
  SecretEngine engine_;
  SecretCollector live_, stale_;
  std::vector<Pending> live_pending_, stale_pending_;
  std::array<absl::flat_hash_map<std::string, std::vector<std::string>>, 2> places_;  // [live] sha -> places
  std::string redb_note_;
  // Hens are known when state.redb was read as redb, or (in the byte scan)
  // when at least one hen-shaped value turned up.
  bool hens_known() const { return hens_known_ || !hens_.empty(); }

  std::set<std::string> hens_;
  bool hens_known_ = false;
};

// ---- manifests --------------------------------------------------------
//
// coop's own rules, with coop's defaults (crates/coopd-core manifest.rs and
// net.rs; HenId::new at create; the hatch gate in api.rs): each finding of
// MAN00-MAN10 is a refusal coop itself would make; MAN12 and MAN13 are
// risks coop accepts.

constexpr uint64_t kMaxManifestParsed = 2u << 20;  // larger files are not parsed (yaml-cpp holds a tree)
// Nor are files of more nodes: a 2 MiB list of one-letter entries is a
// million nodes, half a gigabyte as yaml-cpp's tree. coop's own manifests
// hold dozens; a long system prompt is one.
constexpr uint64_t kMaxManifestNodes = 20'000;

// Counts the nodes of a YAML stream from the parser's events, holding none
// of them (a tree is built only once the count is known to be small).
class NodeCounter final : public YAML::EventHandler {
 public:
  uint64_t nodes = 0;
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { ++nodes; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++nodes; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { ++nodes; }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++nodes;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++nodes;
  }
  void OnMapEnd() override {}
};

uint64_t yaml_nodes(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  NodeCounter counter;
  while (counter.nodes <= kMaxManifestNodes && parser.HandleNextDocument(counter)) {
  }
  return counter.nodes;
}

bool is_cli_agent(const std::string& kind) { return kind == "claude-code" || kind == "codex" || kind == "gh-copilot"; }

// Why coop refuses a manifest: the rule and its words.
struct Refusal {
  const char* check;
  std::string key, message;
};

// The rule a refusal of coop's parser (manifest_serde.h) falls under, by
// the key it is about.
const char* serde_check(const SerdeRefusal& r) {
  const std::string& key = r.key;
  if (r.repeated || key.empty()) return "MAN00";
  if (key == "spec_version") return "MAN01";
  if (key == "name") return "MAN02";
  if (key == "agent_kind") return "MAN03";
  if (key.starts_with("brain")) return "MAN07";
  if (key.starts_with("lease")) return "MAN08";
  if (key.starts_with("network.allow[") && key.find(".ports") != std::string::npos) return "MAN06";
  if (key.starts_with("network.allow[") && key.find(".host") != std::string::npos) return "MAN05";
  if (key.starts_with("network")) return "MAN04";
  return "MAN00";
}

// coop's validate(), HenId::new and the hatch gate, on a manifest its
// parser accepted (manifest_serde.h): every value has the type coop's
// struct gives it, and a String field's text is what serde_yaml hands it
// (a plain `null` is "null").
class ManifestRules {
 public:
  explicit ManifestRules(std::string_view text) : text_(text) {}

  // Every refusal, in the order coop checks (coop stops at the first).
  std::vector<Refusal> check(const YAML::Node& m) {
    if (!m.IsMap()) {
      refuse("MAN00", "", "the manifest is not a mapping (coop's parser expects AgentManifest)");
      return out_;
    }
    if (!m["spec_version"]) refuse("MAN01", "spec_version", "is missing (a required field)");
    if (!m["name"]) refuse("MAN02", "name", "is missing (a required field)");
    if (!m["brain"] || m["brain"].IsNull()) refuse("MAN07", "brain", "is missing (a required field, for every agent_kind)");
    kind_ = "anthropic";  // coop's default
    if (const auto k = m["agent_kind"]) {
      static const std::set<std::string> kKinds = {"anthropic", "claude-code", "codex", "gh-copilot", "shell"};
      kind_ = variant(k);
      kind_known_ = kKinds.count(kind_) > 0;
      if (!kind_known_) refuse("MAN03", "agent_kind", "\"" + kind_ + "\" is not a known agent kind");
    }
    brain_fields(m["brain"]);
    lease_fields(m["lease"]);
    network_fields(m["network"]);
    if (m["spec_version"] && scalar(m["spec_version"]) != "coop/v1") {
      refuse("MAN01", "spec_version", "\"" + scalar(m["spec_version"]) + "\" is not coop/v1");
    }
    name(scalar(m["name"]), m["name"].IsDefined());
    if (kind_ == "anthropic" && m["brain"] && m["brain"].IsMap()) brain(m["brain"]);
    lease(m);
    network(m["network"]);
    return out_;
  }

  // Base URLs pointing at the metadata address that coop does not check
  // (the brain of a tmux CLI agent).
  std::vector<std::string> unchecked_metadata_urls(const YAML::Node& m) const {
    std::vector<std::string> keys;
    if (kind_ == "anthropic" || !m.IsMap() || !m["brain"] || !m["brain"].IsMap()) return keys;
    auto look = [&](const YAML::Node& b, const std::string& key) {
      if (b.IsMap() && scalar(b["base_url"]).find("169.254.169.254") != std::string::npos) keys.push_back(key + ".base_url");
    };
    look(m["brain"], "brain");
    if (const auto fbs = m["brain"]["fallbacks"]; fbs && fbs.IsSequence()) {
      for (size_t i = 0; i < fbs.size(); ++i) look(fbs[i], "brain.fallbacks[" + std::to_string(i) + "]");
    }
    return keys;
  }

 private:
  std::string scalar(const YAML::Node& n) const { return n ? serde_string(text_, n) : std::string(); }

  // A unit enum's name: the scalar, or a local tag `!name` on an empty one.
  std::string variant(const YAML::Node& n) const {
    const std::string& tag = n.Tag();
    return n.IsScalar() && tag.size() > 1 && tag[0] == '!' && n.Scalar().empty() ? tag.substr(1) : scalar(n);
  }

  void refuse(const char* check, const std::string& key, const std::string& message) {
    out_.push_back(Refusal{check, key, message});
  }

  // serde_yaml's bool: true/True/TRUE, false/False/FALSE; anything else is a type error.
  std::optional<bool> boolean(const YAML::Node& n, const std::string& key, const char* check) {
    if (!n || n.IsNull()) return std::nullopt;
    const std::string v = scalar(n);
    if (v == "true" || v == "True" || v == "TRUE") return true;
    if (v == "false" || v == "False" || v == "FALSE") return false;
    refuse(check, key, "\"" + v + "\" is not a boolean (true or false)");
    return std::nullopt;
  }

  // The fields serde requires and the types it checks.
  void brain_fields(const YAML::Node& b) {
    if (!b || b.IsNull()) return;
    if (!b.IsMap()) return refuse("MAN07", "brain", "is not a mapping");
    auto spec = [&](const YAML::Node& n, const std::string& key) {
      if (!n.IsMap()) return refuse("MAN07", key, "is not a mapping");
      if (!n["provider_id"]) refuse("MAN07", key + ".provider_id", "is missing (a required field)");
      if (!n["model"]) refuse("MAN07", key + ".model", "is missing (a required field)");
    };
    spec(b, "brain");
    if (const auto fbs = b["fallbacks"]; fbs && fbs.IsSequence()) {
      for (size_t i = 0; i < fbs.size(); ++i) spec(fbs[i], "brain.fallbacks[" + std::to_string(i) + "]");
    }
  }

  void lease_fields(const YAML::Node& l) {
    if (!l || l.IsNull() || !l.IsMap()) return;
    allow_lease_ = boolean(l["allow_lease"], "lease.allow_lease", "MAN08").value_or(false);
    require_framework_ = boolean(l["require_framework"], "lease.require_framework", "MAN08").value_or(true);
  }

  void network_fields(const YAML::Node& n) {
    if (!n || n.IsNull()) return;
    if (!n.IsMap()) return refuse("MAN04", "network", "is not a mapping");
    if (!n["policy"]) return refuse("MAN04", "network.policy", "is missing: coop requires it whenever network is given");
    const std::string policy = variant(n["policy"]);
    if (policy != "off" && policy != "allowlist" && policy != "open") {
      refuse("MAN04", "network.policy", "\"" + policy + "\" is not off, allowlist or open (lowercase)");
    }
  }

  // HenId::new at create: [a-z][a-z0-9-]{0,31}; validate(): not empty.
  void name(const std::string& n, bool present) {
    if (!present) return;
    static const std::regex kName("^[a-z][a-z0-9-]{0,31}$");
    if (!std::regex_match(n, kName)) {
      refuse("MAN02", "name", "\"" + n + "\" is not a valid hen name ([a-z][a-z0-9-]{0,31}): refused at create");
    }
  }

  // validate_brain_provider, for the main brain and every fallback; only
  // for the in-process anthropic agent (tmux CLI agents bring their own).
  void brain(const YAML::Node& b) {
    auto one = [&](const YAML::Node& n, const std::string& key) {
      if (!n.IsMap()) return;
      if (n["provider_id"] && scalar(n["provider_id"]).empty()) refuse("MAN07", key + ".provider_id", "is empty");
      if (n["model"] && scalar(n["model"]).empty()) refuse("MAN07", key + ".model", "is empty");
      const std::string provider = n["provider"] ? scalar(n["provider"]) : "anthropic";  // a plain null is "null"
      if (provider == "anthropic" || provider == "openai") return;
      if (provider != "openai-compat") return refuse("MAN07", key + ".provider", "\"" + provider + "\" is not a known provider");
      const std::string url = n["base_url"] && !n["base_url"].IsNull() ? scalar(n["base_url"]) : "";
      if (url.empty()) return refuse("MAN07", key + ".base_url", "is required for provider openai-compat");
      if (!(url.starts_with("http://") || url.starts_with("https://"))) {
        return refuse("MAN07", key + ".base_url", "\"" + url + "\" is not an http(s) URL");
      }
      if (url.find("169.254.169.254") != std::string::npos) {
        refuse("MAN07", key + ".base_url", "targets the cloud metadata endpoint 169.254.169.254");
      }
    };
    one(b, "brain");
    if (const auto fbs = b["fallbacks"]; fbs && fbs.IsSequence()) {
      for (size_t i = 0; i < fbs.size(); ++i) one(fbs[i], "brain.fallbacks[" + std::to_string(i) + "]");
    }
  }

  void lease(const YAML::Node& m) {
    const YAML::Node l = m["lease"];
    if (!l || !l.IsMap()) return;
    if (allow_lease_ && require_framework_ && !is_cli_agent(kind_)) {
      refuse("MAN08", "lease.allow_lease",
             "true with require_framework (default true) needs agent_kind claude-code, codex or gh-copilot, not \"" + kind_ +
                 "\"");
    }
    std::set<std::string> tools;
    if (m["tools"] && m["tools"].IsSequence()) {
      for (const auto& t : m["tools"]) tools.insert(scalar(t));
    }
    if (l["allowed_tools"] && l["allowed_tools"].IsSequence()) {
      for (const auto& t : l["allowed_tools"]) {
        if (!tools.count(scalar(t))) refuse("MAN09", "lease.allowed_tools", "\"" + scalar(t) + "\" is not among tools");
      }
    }
  }

  // NetworkSpec::validate, then the hatch gate.
  void network(const YAML::Node& n) {
    if (!n || !n.IsMap() || !n["policy"]) return;
    const std::string policy = variant(n["policy"]);
    const YAML::Node allow = n["allow"];
    if (allow && allow.IsSequence() && allow.size() > 0 && policy != "allowlist") {
      refuse("MAN04", "network.allow", "is only valid with policy allowlist (got \"" + policy + "\")");
    }
    if (allow && allow.IsSequence()) {
      for (size_t i = 0; i < allow.size(); ++i) {
        const std::string key = "network.allow[" + std::to_string(i) + "]";
        if (!allow[i]["host"]) refuse("MAN05", key + ".host", "is missing (a required field)");
        if (auto why = host_refusal(scalar(allow[i]["host"]))) refuse("MAN05", key + ".host", *why);
        const YAML::Node ports = allow[i]["ports"];
        if (!ports || !ports.IsSequence()) continue;
        for (size_t j = 0; j < ports.size(); ++j) {
          if (serde_unsigned(scalar(ports[j])) == 0u) {
            refuse("MAN06", key + ".ports[" + std::to_string(j) + "]", "port 0 is invalid");
          }
        }
      }
    }
    if ((policy == "off" || policy == "allowlist") && kind_ != "anthropic" && kind_known_) {
      refuse("MAN10", "network.policy",
             "\"" + policy + "\" with a tmux CLI agent (" + kind_ + ") is refused at hatch: only anthropic is enforced");
    }
  }

  // net.rs validate_host_pattern.
  static std::optional<std::string> host_refusal(const std::string& host) {
    const std::string quoted = "\"" + host + "\" ";
    if (host.empty()) return quoted + "is empty";
    if (!std::all_of(host.begin(), host.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
      return quoted + "is not ASCII (IDNs must be punycode)";
    }
    if (host.find_first_of(" \t/:@?#") != std::string::npos) {
      return quoted + "must be a bare host (no scheme, path, port, or whitespace)";
    }
    if (host.starts_with("*.")) {
      if (host.size() == 2 || host.find('*', 2) != std::string::npos) {
        return quoted + "has a wildcard that is not a single leading *. followed by a domain";
      }
    } else if (host.find('*') != std::string::npos) {
      return quoted + "has a * that is not a leading *. label";
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::vector<Refusal> out_;
  std::string kind_ = "anthropic";
  bool allow_lease_ = false, require_framework_ = true, kind_known_ = true;
};

class ManifestAudit {
 public:
  ManifestAudit(const std::string& path, const Limits& limits, const Policy& policy)
      : path_(path), ctx_(policy, limits), engine_(limits) {
    ctx_.facts().run_id = "manifest:" + input_identity(path);  // nor one hen's manifest another's
  }

  CheatReport run() {
    CheatReport rep;
    rep.file = path_;
    rep.verify.verdict = Verdict::verified;
    FileReader file(path_);
    if (!file.ok()) {
      rep.verify.verdict = Verdict::error;
      rep.verify.errors.push_back(file.not_regular()
                                      ? Error{Code::not_regular_file, -1, path_ + " is not a regular file (a FIFO, device or socket?)"}
                                      : Error{Code::not_found, -1, path_ + ": cannot read"});
      return rep;
    }
    if (file.size() > kMaxManifestParsed) {
      ctx_.emit(finding("MAN00", Severity::warning, {},
                        "the manifest is " + std::to_string(file.size()) + " bytes, over the " +
                            std::to_string(kMaxManifestParsed) + " parsed; its rules were not checked"),
                "too-large");
    } else {
      std::string text;
      file.for_each_chunk([&](std::string_view chunk, uint64_t) { text += chunk; });
      try {
        if (const uint64_t nodes = yaml_nodes(text); nodes > kMaxManifestNodes) {
          ctx_.emit(finding("MAN00", Severity::warning, {},
                            "the manifest holds over " + std::to_string(kMaxManifestNodes) +
                                " YAML nodes (yaml-cpp's tree costs ~500 bytes each); its rules were not checked"),
                    "too-many-nodes");
        } else {
          rules(text, YAML::LoadAll(text));
        }
      } catch (const YAML::DeepRecursion& e) {
        // coop's parser ignores an unknown field however deep, and refuses
        // a read value nested past 128: which this is, yaml-cpp cannot say.
        ctx_.emit(finding("MAN00", Severity::warning, {},
                          "the manifest nests deeper than yaml-cpp reads (500 levels); its rules were not checked"),
                  "too-deep");
      } catch (const YAML::Exception& e) {
        emit("MAN00", Severity::high, "", std::string("coop refuses this: not valid YAML or JSON: ") + e.what());
      }
    }
    size_t line_no = 0;
    file.for_each_chunk([&](std::string_view chunk, uint64_t) {
      for (size_t at = 0; at < chunk.size();) {
        const size_t nl = std::min(chunk.find('\n', at), chunk.size());
        ++line_no;
        std::vector<SecretHit> hits;
        engine_.scan(chunk.substr(at, nl - at), "", &hits);
        for (const auto& h : hits) collector_.add(h, 0, "line " + std::to_string(line_no), path_);
        at = nl + 1;
      }
    });
    const size_t first = ctx_.findings().size();
    collector_.emit(ctx_, {}, "MAN12");
    for (size_t i = first; i < ctx_.findings().size(); ++i) {
      Finding& f = ctx_.findings()[i];
      f.severity = std::min(f.severity, Severity::warning);
      f.message += " coop accepts this, but the key then sits in the manifest and in every copy of the hen record.";
    }
    rep.findings = std::move(ctx_.findings());
    for (auto& f : rep.findings) f.seqs.clear();
    sort_findings(rep.findings);
    return rep;
  }

 private:
  // coop's parser (serde_yaml: one document, coop's types), then coop's
  // rules on what it accepted; coop stops at the parser's refusal.
  void rules(const std::string& text, const std::vector<YAML::Node>& documents) {
    if (documents.size() != 1) {
      emit("MAN00", Severity::high, "",
           "coop refuses this: the file holds " + std::to_string(documents.size()) +
               " YAML documents; coop's parser (serde_yaml from_str) reads exactly one");
      return;
    }
    const YAML::Node& root = documents[0];
    const SerdeVerdict serde = serde_manifest(text, root);
    if (!serde.judged) {
      ctx_.emit(finding("MAN00", Severity::warning, {},
                        "the manifest's aliases repeat too many nodes to walk; its rules were not checked"),
                "too-many-nodes");
      return;
    }
    if (serde.refusal) {
      const SerdeRefusal& r = *serde.refusal;
      emit(serde_check(r), Severity::high, r.key, "coop refuses this: " + r.message);
      return;
    }
    ManifestRules rules(text);
    for (const Refusal& r : rules.check(root)) emit(r.check, Severity::high, r.key, "coop refuses this: " + r.message);
    for (const std::string& key : rules.unchecked_metadata_urls(root)) {
      emit("MAN13", Severity::warning, key,
           "points at the cloud metadata address 169.254.169.254 (coop accepts this: it checks base_url only for "
           "anthropic hens)");
    }
  }

  void emit(const char* check, Severity sev, const std::string& key, const std::string& message) {
    ctx_.emit(finding(check, sev, {}, (key.empty() ? "" : key + ": ") + message), key + ":" + message);
  }

  std::string path_;
  Context ctx_;
  SecretEngine engine_;
  SecretCollector collector_;
};

}  // namespace

CheatReport audit_coop_dir(const std::string& dir, const Limits& limits, const Policy& policy) {
  return CoopAudit(dir, limits, policy).run();
}

CheatReport audit_manifest(const std::string& path, const Limits& limits, const Policy& policy) {
  return ManifestAudit(path, limits, policy).run();
}

}  // namespace goalcup::cheat
