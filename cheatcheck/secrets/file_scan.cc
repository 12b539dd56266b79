#include "cheatcheck/secrets/file_scan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "cheatcheck/secrets/trace_scan.h"
#include "core/lines.h"
#include "core/source.h"
#include "core/tree_walk.h"

namespace goalcup::cheat {
namespace {

// Some secrets span lines of a file, and lines are scanned one by one:
// a private key from its BEGIN line to its END line (a PuTTY key file from
// its first line to its Private-MAC line), a shell command
// continued with a trailing backslash (curl ... \ -u user:password), a
// .netrc entry whose login and password follow its machine line, and base64
// wrapped over lines (`base64 .env` writes 76 columns: a key's encoding
// spans two or three lines, none of which decodes to it alone). Those lines
// are also joined as written (LF between them, CR kept) and scanned as one
// text, located at the first line. A key block that never closes is scanned
// as far as it went (64 KB, 2000 lines, or the end of the file); a longer
// wrapped run is scanned in blocks of that size, each opening with the last
// lines of the one before, so that a key across two blocks is whole in one.
// A block of lines being joined (text_, from line start_) and the last one
// joined, handed over to be scanned.
class HeldBlock {
 public:
  // The joined block, with the padding the scanners need after it.
  std::string_view take(uint64_t* start) {
    *start = ready_start_;
    const size_t n = ready_.size();
    ready_.append(kLinePadding, '\0');
    return std::string_view(ready_).substr(0, n);
  }

 protected:
  // The block gathered so far becomes the one `take()` returns; true.
  bool hand_over() {
    ready_.swap(text_);
    ready_start_ = start_;
    return true;
  }
  uint64_t start_ = 0, ready_start_ = 0;
  std::string text_, ready_;
};

class LineJoiner : public HeldBlock {
 public:
  // Feeds a line; returns true when `take()` holds a block to scan.
  bool add(std::string_view line, uint64_t index) {
    if ((kind_ == Kind::base64 && !wraps_on(line)) || (kind_ == Kind::putty && !putty_line(line))) {
      const bool ready = finish();
      open(line, index);
      return ready;
    }
    if (kind_ == Kind::none) {
      open(line, index);
      return false;
    }
    text_ += '\n';
    text_.append(line);
    ++lines_;
    const bool too_long = text_.size() > kMaxBytes || lines_ > kMaxLines;
    if (kind_ == Kind::base64) {
      if (!last_line_) {
        if (too_long) return keep_overlap(index);
        return false;
      }
      return finish();
    }
    const bool done = kind_ == Kind::key     ? closes_key(line)
                      : kind_ == Kind::putty ? line.find("Private-MAC:") != std::string_view::npos
                      : kind_ == Kind::netrc ? line.find("password") != std::string_view::npos || lines_ >= 3
                                             : !continues(line);
    return (done || too_long) && finish();
  }
  // Closes the block still open (at the end of the file too); true when
  // `take()` then holds it (a wrapped run of one line is no block).
  bool finish() {
    const bool whole = kind_ != Kind::none && (kind_ != Kind::base64 || lines_ >= 2);
    kind_ = Kind::none;
    if (!whole) return false;
    return hand_over();
  }

 private:
  enum class Kind { none, key, putty, shell, netrc, base64 };
  void open(std::string_view line, uint64_t index) {
    kind_ = opens_key(line)      ? Kind::key
            : line.find("PuTTY-User-Key-File-") != std::string_view::npos ? Kind::putty
            : continues(line)    ? Kind::shell
            : opens_netrc(line) ? Kind::netrc
            : opens_base64(line) ? Kind::base64
                                 : Kind::none;
    if (kind_ != Kind::none) lines_ = 1, start_ = index, text_.assign(line);
  }
  // A wrapped run too long for one block: this block is scanned, and the
  // next opens with its last lines.
  bool keep_overlap(uint64_t index) {
    ready_ = text_;
    ready_start_ = start_;
    size_t from = text_.size();
    for (size_t k = 0; k < kOverlapLines && from != std::string::npos && from > 0; ++k) from = text_.rfind('\n', from - 1);
    text_.erase(0, from == std::string::npos ? 0 : from + 1);
    lines_ = std::count(text_.begin(), text_.end(), '\n') + 1;
    start_ = index + 1 - lines_;
    return true;
  }
  static std::string_view trim_end(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    return line;
  }
  static bool base64_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
           c == '-' || c == '_';
  }
  // A line ending with a full line of wrapped base64: 20 or more base64
  // characters, a multiple of 4, unpadded (as add_wrapped_base64_runs has it).
  // Tools wrap at 64 or 76: a width past kMaxWidth is no wrapping, and
  // would make a block's overlap as long as the block.
  bool opens_base64(std::string_view line) {
    line = trim_end(line);
    size_t n = 0;
    while (n < line.size() && n <= kMaxWidth && base64_char(line[line.size() - 1 - n])) ++n;
    if (n < 20 || n % 4 != 0 || n > kMaxWidth) return false;
    width_ = n;
    last_line_ = false;
    return true;
  }
  // The next line of the wrapped run: indented, then base64 of the run's
  // width, or shorter (then padded or not) as its last line.
  bool wraps_on(std::string_view line) {
    line = trim_end(line);
    const size_t from = line.find_first_not_of(" \t");
    if (from == std::string_view::npos) return false;
    line.remove_prefix(from);
    size_t n = 0, pad = 0;
    while (n < line.size() && base64_char(line[n])) ++n;
    while (n + pad < line.size() && pad < 2 && line[n + pad] == '=') ++pad;
    if (n == 0 || n + pad != line.size() || line.size() > width_) return false;
    last_line_ = n < width_ || pad > 0;
    return true;
  }
  // A .netrc entry written over lines: "machine host" with its login and
  // password on the lines after it.
  static bool opens_netrc(std::string_view line) {
    const size_t from = line.find_first_not_of(" \t");
    return from != std::string_view::npos && line.substr(from).starts_with("machine ") &&
           line.find("password") == std::string_view::npos;
  }
  // PEM's "-----BEGIN ... PRIVATE KEY-----", RFC 4716's (ssh.com, PuTTYgen)
  // "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----".
  static bool opens_key(std::string_view line) {
    size_t begin = line.find("-----BEGIN");
    if (begin == std::string_view::npos) begin = line.find("---- BEGIN SSH2");
    return begin != std::string_view::npos && line.find("PRIVATE KEY", begin) != std::string_view::npos &&
           !closes_key(line.substr(begin));
  }
  static bool closes_key(std::string_view line) {
    return line.find("-----END") != std::string_view::npos || line.find("---- END SSH2") != std::string_view::npos;
  }
  // A line of a PuTTY key file: "Name: value" or base64 (anything else, a
  // blank line too, ends the block: the name was mentioned, no file).
  static bool putty_line(std::string_view line) {
    line = trim_end(line);
    const size_t from = line.find_first_not_of(" \t");
    if (from == std::string_view::npos) return false;
    line.remove_prefix(from);
    const size_t name_end = line.find(": ");
    const std::string_view name = line.substr(0, name_end);
    const bool header = name_end != std::string_view::npos && name_end > 0 &&
                        std::ranges::all_of(name, [](char c) { return base64_char(c) && c != '+' && c != '/'; });
    return header || std::ranges::all_of(line, [](char c) { return base64_char(c) || c == '='; });
  }
  static bool continues(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    return line.ends_with('\\');
  }
  static constexpr size_t kMaxBytes = 64 << 10, kMaxLines = 2000, kOverlapLines = 4, kMaxWidth = 1024;
  Kind kind_ = Kind::none;
  size_t lines_ = 0, width_ = 0;
  bool last_line_ = false;
};

// A JSON object written over lines (a pretty-printed JSON Web Key or key
// set): its members are on lines of their own, and its "kty" may come after
// its private part ("d", sorted first). From a line that opens more braces
// than it closes to the line that closes them (64 KB, 2000 lines at most),
// joined as written and scanned as one text when it holds "kty".
class ObjectJoiner : public HeldBlock {
 public:
  // How often `c` occurs in `line`, by memchr: every line of a file passes
  // here (a sanitizer build took 13 s per 64 MiB counting char by char).
  static long occurrences(std::string_view line, char c) {
    long n = 0;
    for (const char *at = line.data(), *end = at + line.size();
         (at = static_cast<const char*>(std::memchr(at, c, static_cast<size_t>(end - at)))) != nullptr; ++at) {
      ++n;
    }
    return n;
  }
  // Feeds a line; returns true when `take()` holds a block to scan.
  bool add(std::string_view line, uint64_t index) {
    const long opens = occurrences(line, '{') - occurrences(line, '}');
    if (depth_ <= 0) {
      if (opens <= 0) return false;
      depth_ = opens, lines_ = 1, start_ = index, text_.assign(line);
      kty_ = line.find("kty") != std::string_view::npos;
      return false;
    }
    text_ += '\n';
    text_.append(line);
    ++lines_;
    depth_ += opens;
    kty_ = kty_ || line.find("kty") != std::string_view::npos;
    if (depth_ > 0 && text_.size() <= kMaxBytes && lines_ <= kMaxLines) return false;
    depth_ = 1;  // closed or too long: taken as it is
    return finish();
  }
  // Closes the block still open; true when `take()` then holds it.
  bool finish() {
    const bool keep = depth_ > 0 && lines_ >= 2 && kty_;
    depth_ = 0;
    if (!keep) return false;
    return hand_over();
  }

 private:
  static constexpr size_t kMaxBytes = 64 << 10, kMaxLines = 2000;
  long depth_ = 0;
  size_t lines_ = 0;
  bool kty_ = false;
};

class FileScanner {
 public:
  FileScanner(const Limits& limits, std::shared_ptr<UploadBudget> budget, CheatReport& report, bool keep_text,
              unsigned threads)
      : limits_(limits),
        budget_(std::move(budget)),
        report_(report),
        collector_(keep_text),
        pool_(threads, [this, limits] { return make_text_line_scanner(true, limits, &cache_); }, [this](ScanOutput& out) { collect(out); }) {}

  // Scans a stream of text (plain or zstd) shown as `name`; false when a
  // limit of the upload stopped it.
  bool scan_stream(std::unique_ptr<ByteSource> raw, const std::string& name) {
    file_ = name;
    bool zstd = false;
    auto src = sniff_compression(std::move(raw), limits_, &zstd, budget_);
    if (!src) return fail(src.error());
    LineReader lines(std::move(*src), limits_, true);
    Line line;
    LineJoiner joined;
    ObjectJoiner object;
    for (;;) {
      auto st = lines.next(&line);
      if (st == LineReader::Status::line) {
        pool_.add(line.bytes, line.index);
        if (joined.add(line.bytes, line.index)) add_block(joined);
        if (object.add(line.bytes, line.index)) add_block(object);
        continue;
      }
      if (joined.finish()) add_block(joined);
      if (object.finish()) add_block(object);
      pool_.flush();  // every hit of this stream is collected under its name
      if (st == LineReader::Status::error) return fail(lines.error());
      // A cut zstd stream was scanned as far as it goes, not in full.
      if (auto cut = lines.cut()) return fail(*cut);
      return true;
    }
  }

  void scan_tar(std::unique_ptr<ByteSource> raw, const std::string& name);
  absl::flat_hash_set<std::string>& markers() { return markers_; }
  SecretCollector& collector() { return collector_; }

 private:
  // The block is located at its first line. (Taking it and reading its
  // start in one call's arguments read the start before take() set it.)
  template <class Joiner>
  void add_block(Joiner& joined) {
    uint64_t start = 0;
    const std::string_view block = joined.take(&start);
    pool_.add(block, start);
  }

  void collect(ScanOutput& out) {
    for (const auto& m : out.markers) {
      if (markers_.size() < 1000) markers_.insert(m);
    }
    for (const auto& h : out.hits) collector_.add(h.hit, h.seq, h.location, file_);
  }

  // Records the first error; false when it is a limit, which ends the upload.
  bool fail(const Error& e) {
    if (report_.verify.errors.empty()) report_.verify.errors.push_back(e);
    report_.verify.verdict = Verdict::error;
    return code_class(e.code) != ErrorClass::limit;
  }

  static constexpr size_t kMaxSkipsListed = 100;

  Limits limits_;
  std::shared_ptr<UploadBudget> budget_;
  CheatReport& report_;
  SecretCollector collector_;
  absl::flat_hash_set<std::string> markers_;
  std::string file_;
  ScanCache cache_;
  ScanPool pool_;  // last: its workers stop before the rest goes
};

void FileScanner::scan_tar(std::unique_ptr<ByteSource> raw, const std::string& name) {
  auto reader = TarReader::open(std::move(raw), limits_, budget_);
  if (!reader) {
    fail(reader.error());
    return;
  }
  for (;;) {
    auto more = (*reader)->next();
    if (!more) {
      fail(more.error());
      return;
    }
    if (!*more) return;
    const TarMember& m = (*reader)->member();
    if (m.type == S_IFDIR) continue;
    if (m.type != S_IFREG || m.hard_link) {
      if (report_.skipped.size() < kMaxSkipsListed) {
        report_.skipped.push_back({"scan", name + ":" + m.path + ": a link or special member, not followed"});
      }
      continue;
    }
    // A budget spent is spent for every member that follows.
    if (!scan_stream((*reader)->member_source(), name + ":" + m.path)) return;
  }
}

}  // namespace

ScanInputs expand_scan_paths(const std::vector<std::string>& paths, const Limits& limits) {
  ScanInputs out;
  for (const auto& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      out.files.push_back(p);  // scan_file says why it cannot be read, if it cannot
      continue;
    }
    const std::string root = p.ends_with('/') && p.size() > 1 ? p.substr(0, p.size() - 1) : p;
    CheatReport walk_report;
    walk_report.file = root;
    walk_report.verify.verdict = Verdict::verified;  // "read in full"
    auto budget = std::make_shared<UploadBudget>(limits);  // one for the folder's files together
    std::vector<std::string> found;
    const TreeWalkResult walk = walk_tree(root, limits, [&](const TreeEntry& e) {
      if (S_ISDIR(e.st.st_mode)) {
        // Version control and build output are not the files to gate.
        return e.name == ".git" || e.name.starts_with("build") ? TreeStep::skip_folder : TreeStep::go_on;
      }
      if (S_ISREG(e.st.st_mode)) found.push_back(root + "/" + e.rel);
      else if (walk_report.skipped.size() < TreeWalkResult::kMaxSkipsKept) {
        walk_report.skipped.push_back(
            {"scan", e.rel + (S_ISLNK(e.st.st_mode) ? ": a symbolic link, not followed" : ": not a regular file")});
      }
      return TreeStep::go_on;
    });
    // What could not be read was not scanned: the folder is not judged whole.
    if (walk.error) walk_report.verify.errors.push_back(*walk.error);
    for (const auto& skip : walk.skipped) {
      walk_report.verify.errors.push_back(Error{skip.code, -1, root + "/" + skip.rel + ": " + skip.why});
    }
    // The files count among the upload's members, with those of its archives.
    if (auto over = budget->add_members(found.size()); !over) walk_report.verify.errors.push_back(over.take_error());
    if (!walk_report.verify.errors.empty()) walk_report.verify.verdict = Verdict::error;
    if (!walk_report.verify.errors.empty() || !walk_report.skipped.empty()) out.walks.push_back(std::move(walk_report));
    for (const auto& f : found) out.budgets.emplace(f, budget);
    out.files.insert(out.files.end(), found.begin(), found.end());
  }
  return out;
}

CheatReport scan_file(const std::string& path, const Limits& limits, const Policy& policy, bool show_secrets,
                      unsigned threads, std::shared_ptr<UploadBudget> budget) {
  if (!budget) budget = std::make_shared<UploadBudget>(limits);
  CheatReport report;
  report.file = path;
  report.verify.verdict = Verdict::verified;  // "read in full"; scan mode has no chain to verify
  Context ctx(policy, limits);
  FileScanner scanner(limits, budget, report, show_secrets, threads);
  auto raw = open_regular_file(path, false);
  if (!raw) {
    report.verify.verdict = Verdict::error;
    report.verify.errors.push_back(raw.take_error());
    return report;
  }
  // zstd first (a .tar.zst is a tar inside), then tar by its header.
  bool zstd = false;
  auto src = sniff_compression(budgeted_source(std::move(*raw), budget), limits, &zstd, budget);
  std::optional<Result<std::string>> prefix;
  if (src) prefix.emplace(read_prefix(**src, 512));
  if (!src || !*prefix) {
    report.verify.verdict = Verdict::error;
    report.verify.errors.push_back(!src ? src.take_error() : prefix->take_error());
    return report;
  }
  const bool tar = looks_like_tar(**prefix);
  auto stream = prefixed_source(std::move(**prefix), std::move(*src));
  if (tar) scanner.scan_tar(std::move(stream), path);
  else scanner.scan_stream(std::move(stream), path);
  absl::flat_hash_set<std::string> known = scanner.markers();
  for (const auto& r : policy.redactor_rules) known.insert(r);
  scanner.collector().emit(ctx, known);
  ctx.note_dropped();
  report.findings = std::move(ctx.findings());
  sort_findings(report.findings);
  return report;
}

}  // namespace goalcup::cheat
