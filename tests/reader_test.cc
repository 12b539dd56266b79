// Sources and framing: every way a trace arrives, and every way it is cut.
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>

#include "core/lines.h"
#include "core/source.h"
#include "core/source_internal.h"
#include "tests/support.h"

namespace goalcup {
namespace {

using testing::write_temp;

// Compresses `data` as one frame per `frame` bytes (frames cut inside lines).
std::string zstd_frames(const std::string& data, size_t frame) {
  std::string out;
  for (size_t i = 0; i < data.size(); i += frame) {
    std::string part = data.substr(i, frame);
    std::string buf(ZSTD_compressBound(part.size()), '\0');
    buf.resize(ZSTD_compress(buf.data(), buf.size(), part.data(), part.size(), 3));
    out += buf;
  }
  return out;
}

std::string skippable_frame(const std::string& payload) {
  std::string f = "\x50\x2a\x4d\x18";
  uint32_t n = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  return f + payload;
}

struct TarMember {
  TarMember(std::string n, std::string d, mode_t t = AE_IFREG, std::string l = "")
      : name(std::move(n)), data(std::move(d)), type(t), link(std::move(l)) {}
  std::string name;
  std::string data;
  mode_t type;
  std::string link;  // symlink target or hardlink name
};

std::string make_tar(const std::vector<TarMember>& members) {
  std::string path = testing::temp_dir() + "/t" + std::to_string(::rand()) + ".tar";
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_open_filename(a, path.c_str());
  for (const auto& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_filetype(e, m.type);
    archive_entry_set_perm(e, 0644);
    if (m.type == AE_IFLNK) archive_entry_set_symlink(e, m.link.c_str());
    if (!m.link.empty() && m.type == AE_IFREG) archive_entry_set_hardlink(e, m.link.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(m.data.size()));
    archive_write_header(a, e);
    if (!m.data.empty()) archive_write_data(a, m.data.data(), m.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return path;
}

VerifyReport verify_path(const std::string& path, const Limits& limits = {}) {
  WalkOptions opt;
  opt.limits = limits;
  Keyring ring = testing::dev_keyring();
  opt.keyring = &ring;
  return walk_trace(path, opt);
}

std::string trace_text() { return fixtures::join(testing::valid_trace()); }

TEST(Reader, PlainFile) {
  auto r = verify_path(write_temp("plain.jsonl", trace_text()));
  EXPECT_VERDICT(r, Verdict::verified);
}

TEST(Reader, ZstdWithManyFramesSplitInsideLines) {
  const std::string text = trace_text();
  for (size_t frame : {size_t{7}, size_t{1000}, size_t{1} << 20}) {
    auto r = verify_path(write_temp("z.jsonl.zst", zstd_frames(text, frame)));
    EXPECT_VERDICT(r, Verdict::verified);
    EXPECT_EQ(r.bytes, text.size());
  }
  // Skippable frames carry nothing.
  std::string z = skippable_frame("hello") + zstd_frames(text, 5000) + skippable_frame(std::string(100, 'x'));
  EXPECT_VERDICT(verify_path(write_temp("skip.zst", z)), Verdict::verified);
}

TEST(Reader, CompressionIsRecognisedByContentNotName) {
  auto r = verify_path(write_temp("misnamed.jsonl", zstd_frames(trace_text(), 4096)));
  EXPECT_VERDICT(r, Verdict::verified);
}

// A recorder that dies leaves its last zstd frame open. What it flushed
// before is judged like a plain file cut at the same byte, with a warning.
TEST(Reader, TruncatedZstdIsJudgedAsFarAsItGoes) {
  const fixtures::Lines lines = testing::valid_trace();
  auto has_warning = [](const VerifyReport& r) {
    return std::find(r.warnings.begin(), r.warnings.end(), WarningCode::zstd_truncated) != r.warnings.end();
  };
  // One frame per line: the cut falls inside the seal's frame, after a
  // whole line, so the trace is unsealed.
  std::string z;
  for (size_t i = 0; i + 2 < lines.size(); ++i) z += zstd_frames(lines[i] + "\n", 1 << 20);
  const std::string seal = zstd_frames(lines[lines.size() - 2] + "\n", 1 << 20);
  auto r = verify_path(write_temp("cut.zst", z + seal.substr(0, seal.size() - 9)));
  EXPECT_VERDICT(r, Verdict::incomplete);
  EXPECT_EQ(r.incomplete_reason, IncompleteReason::unsealed);
  EXPECT_EQ(r.records, lines.size() - 2);
  EXPECT_TRUE(has_warning(r));
  // Cut inside a line: the last record is malformed, as in a plain file.
  std::string mid = zstd_frames(trace_text(), 1000);
  auto m = verify_path(write_temp("cut-mid.zst", mid.substr(0, mid.size() / 2)));
  EXPECT_VERDICT(m, Verdict::invalid);
  EXPECT_TRUE(testing::has_error(m, Code::missing_final_lf)) << testing::error_codes(m);
  EXPECT_TRUE(has_warning(m));
  // A whole stream has no such warning.
  EXPECT_FALSE(has_warning(verify_path(write_temp("whole.zst", mid))));
  // Cut before a single line decodes: nothing to judge, not an empty trace.
  auto none = verify_path(write_temp("cut-early.zst", mid.substr(0, 12)));
  EXPECT_VERDICT(none, Verdict::error);
  EXPECT_TRUE(testing::has_error(none, Code::zstd_truncated)) << testing::error_codes(none);
  EXPECT_FALSE(testing::has_error(none, Code::empty_trace)) << testing::error_codes(none);
}

// gzip, xz, bzip2, zip: not formats a trace comes in, and never a trace
// (whose first byte is '{'). Could not judge, saying what the bytes are,
// rather than lines of binary judged invalid.
TEST(Reader, OtherCompressorsAreNotJudgedAsLines) {
  for (const std::string& magic : {std::string("\x1f\x8b\x08\x00", 4), std::string("BZh91AY"),
                                  std::string("\xfd" "7zXZ\x00", 6), std::string("PK\x03\x04", 4)}) {
    auto r = verify_path(write_temp("packed", magic + std::string(600, '\x01')));
    EXPECT_VERDICT(r, Verdict::error);
    EXPECT_TRUE(testing::has_error(r, Code::unsupported_format)) << testing::error_codes(r);
    EXPECT_FALSE(testing::has_error(r, Code::invalid_utf8)) << testing::error_codes(r);
  }
  // A trace is still a trace.
  EXPECT_VERDICT(verify_path(write_temp("plain.jsonl", trace_text())), Verdict::verified);
}

TEST(Reader, ZstdEndingOnAFullReadIsWhole) {
  // 4 MiB in one frame, read 2 MiB at a time: the last read fills the
  // buffer exactly, and the stream is still whole (it was called cut).
  const std::string plain(4 << 20, 'x');
  bool zstd = false;
  auto src = sniff_compression(memory_source(zstd_frames(plain, plain.size())), Limits{}, &zstd);
  ASSERT_TRUE(src && zstd);
  std::string buf(2 << 20, '\0');
  uint64_t total = 0;
  for (;;) {
    auto n = (*src)->read(buf.data(), buf.size());
    ASSERT_TRUE(n) << n.error().message;
    if (*n == 0) break;
    total += *n;
  }
  EXPECT_EQ(total, plain.size());
  EXPECT_FALSE((*src)->cut().has_value()) << (*src)->cut()->message;
}

TEST(Reader, ZstdWindowAndRatioLimits) {
  // A frame header that declares a 1 GiB window (exponent 20: 2^(10+20)),
  // followed by an empty last raw block.
  const std::string out("\x28\xb5\x2f\xfd\x00\xa0\x01\x00\x00", 9);
  auto r = verify_path(write_temp("window.zst", out));
  EXPECT_TRUE(testing::has_error(r, Code::limit_zstd_window)) << testing::error_codes(r);
  EXPECT_VERDICT(r, Verdict::error);

  // A bomb: 200 MB of newlines-free text from a few KB.
  std::string bomb = zstd_frames(std::string(200 << 20, 'x'), 200 << 20);
  ASSERT_LT(bomb.size(), 100000u);
  Limits small;
  small.max_line_bytes = 1ull << 30;  // so that the ratio cap is what stops it
  auto b = testing::verify_bytes(bomb, testing::dev_keyring(), small);
  EXPECT_TRUE(testing::has_error(b, Code::limit_zstd_ratio)) << testing::error_codes(b);
}

TEST(Reader, TarHoldingTheTrace) {
  const std::string text = trace_text();
  EXPECT_VERDICT(verify_path(make_tar({{"README", "hi"}, {"trace.jsonl", text}})), Verdict::verified);
  EXPECT_VERDICT(verify_path(make_tar({{"./trace.jsonl.zst", zstd_frames(text, 999)}})), Verdict::verified);
  // `tar cf entry.tar entry/` puts the trace in a folder.
  EXPECT_VERDICT(verify_path(make_tar({{"entry/", "", AE_IFDIR}, {"entry/notes.md", "hi"}, {"entry/trace.jsonl", text}})),
                 Verdict::verified);
  EXPECT_VERDICT(verify_path(make_tar({{"./a/b/trace.jsonl.zst", zstd_frames(text, 999)}})), Verdict::verified);
  // One trace member, wherever it is.
  auto two = verify_path(make_tar({{"trace.jsonl", text}, {"old/trace.jsonl", text}}));
  EXPECT_TRUE(testing::has_error(two, Code::ambiguous_submission)) << testing::error_codes(two);
}

TEST(Reader, CompressedTarHoldingTheTrace) {
  const std::string text = trace_text();
  std::ifstream in(make_tar({{"entry/trace.jsonl", text}}), std::ios::binary);
  const std::string tar((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto r = verify_path(write_temp("entry.tar.zst", zstd_frames(tar, 4096)));
  EXPECT_VERDICT(r, Verdict::verified);
  EXPECT_EQ(r.source, "entry/trace.jsonl in tar.zst");
  // A trace.jsonl.zst inside a .tar.zst is read through both.
  std::ifstream in2(make_tar({{"trace.jsonl.zst", zstd_frames(text, 999)}}), std::ios::binary);
  const std::string tar2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
  EXPECT_VERDICT(verify_path(write_temp("double.tar.zst", zstd_frames(tar2, 4096))), Verdict::verified);
}

TEST(Reader, TarRefusesLinksAndOddMembers) {
  const std::string text = trace_text();
  auto sym = verify_path(make_tar({{"trace.jsonl", "", AE_IFLNK, "/etc/passwd"}}));
  EXPECT_TRUE(testing::has_error(sym, Code::unsafe_path)) << testing::error_codes(sym);
  auto hard = verify_path(make_tar({{"trace.jsonl", "", AE_IFREG, "../../etc/passwd"}}));
  EXPECT_TRUE(testing::has_error(hard, Code::unsafe_path)) << testing::error_codes(hard);
  // Paths with ".." are never taken for the trace: tar refuses to extract them.
  auto escape = verify_path(make_tar({{"../trace.jsonl", text}, {"a/../../trace.jsonl", text}}));
  EXPECT_TRUE(testing::has_error(escape, Code::no_trace_in_submission)) << testing::error_codes(escape);
  // A leading "/" is stripped, as tar does when it extracts: "/trace.jsonl"
  // is the trace, and beside another one the upload is ambiguous, as the
  // extracted folder is (a cheater's edited copy must not hide behind it).
  auto rooted = verify_path(make_tar({{"/trace.jsonl", text}}));
  EXPECT_VERDICT(rooted, Verdict::verified);
  auto shadow = verify_path(make_tar({{"e/trace.jsonl", text}, {"/trace.jsonl", text}}));
  EXPECT_TRUE(testing::has_error(shadow, Code::ambiguous_submission)) << testing::error_codes(shadow);
  auto two = verify_path(make_tar({{"trace.jsonl", text}, {"trace.jsonl.zst", zstd_frames(text, 999)}}));
  EXPECT_TRUE(testing::has_error(two, Code::ambiguous_submission)) << testing::error_codes(two);
  std::vector<TarMember> many;
  for (int i = 0; i < 10001; ++i) many.push_back({"f" + std::to_string(i), ""});
  many.push_back({"trace.jsonl", text});
  Limits tight;
  tight.max_archive_members = 10000;
  auto crowd = verify_path(make_tar(many), tight);
  EXPECT_TRUE(testing::has_error(crowd, Code::limit_archive_members)) << testing::error_codes(crowd);
  // The default leaves room for an upload that carries its project's
  // dependencies beside the trace (a node_modules holds tens of thousands).
  EXPECT_VERDICT(verify_path(make_tar(many)), Verdict::verified);
}

TEST(Reader, SubmissionDirectory) {
  namespace fs = std::filesystem;
  const std::string dir = testing::temp_dir() + "/submission";
  fs::create_directories(dir);
  write_temp("submission/trace.jsonl", trace_text());
  write_temp("submission/notes.txt", "other files are ignored");
  EXPECT_VERDICT(verify_path(dir), Verdict::verified);

  const std::string evil = testing::temp_dir() + "/evil";
  fs::create_directories(evil);
  fs::create_symlink("/etc/passwd", evil + "/trace.jsonl");
  auto r = verify_path(evil);
  EXPECT_TRUE(testing::has_error(r, Code::unsafe_path)) << testing::error_codes(r);

  const std::string empty = testing::temp_dir() + "/empty";
  fs::create_directories(empty);
  EXPECT_TRUE(testing::has_error(verify_path(empty), Code::no_trace_in_submission));
}

TEST(Reader, SubmissionDirectoryWithTheTraceInAFolder) {
  namespace fs = std::filesystem;
  const std::string text = trace_text();
  // An extracted `tar cf entry.tar entry/` gets the archive's verdict.
  const std::string dir = testing::temp_dir() + "/extracted";
  fs::create_directories(dir + "/entry/logs");
  write_temp("extracted/entry/logs/trace.jsonl.zst", zstd_frames(text, 999));
  write_temp("extracted/entry/notes.txt", "other files are ignored");
  auto r = verify_path(dir);
  EXPECT_VERDICT(r, Verdict::verified);
  EXPECT_EQ(r.source.substr(0, r.source.find(',')), "entry/logs/trace.jsonl.zst in directory");

  // A trace at the top does not hide another below it, as in a .tar.
  const std::string top = testing::temp_dir() + "/top";
  fs::create_directories(top + "/old");
  write_temp("top/trace.jsonl", text);
  write_temp("top/old/trace.jsonl", "not even JSON\n");
  auto hidden = verify_path(top);
  EXPECT_TRUE(testing::has_error(hidden, Code::ambiguous_submission)) << testing::error_codes(hidden);

  // Further down, only one may exist.
  const std::string two = testing::temp_dir() + "/two";
  fs::create_directories(two + "/a");
  fs::create_directories(two + "/b");
  write_temp("two/a/trace.jsonl", text);
  write_temp("two/b/trace.jsonl", text);
  auto amb = verify_path(two);
  EXPECT_TRUE(testing::has_error(amb, Code::ambiguous_submission)) << testing::error_codes(amb);

  // Links are never followed, to a folder or to the trace.
  const std::string linked = testing::temp_dir() + "/linked";
  fs::create_directories(linked);
  fs::create_directory_symlink(dir + "/entry", linked + "/entry");
  auto via_link = verify_path(linked);
  EXPECT_TRUE(testing::has_error(via_link, Code::no_trace_in_submission)) << testing::error_codes(via_link);
  const std::string evil = testing::temp_dir() + "/evil-deep";
  fs::create_directories(evil + "/entry");
  fs::create_symlink("/etc/passwd", evil + "/entry/trace.jsonl");
  auto deep_link = verify_path(evil);
  EXPECT_TRUE(testing::has_error(deep_link, Code::unsafe_path)) << testing::error_codes(deep_link);

  // The search is bounded like a .tar's member count.
  const std::string crowd = testing::temp_dir() + "/crowd";
  fs::create_directories(crowd + "/files");
  for (int i = 0; i < 10001; ++i) std::ofstream(crowd + "/files/f" + std::to_string(i));
  Limits tight;
  tight.max_archive_members = 10000;
  auto many = verify_path(crowd, tight);
  EXPECT_TRUE(testing::has_error(many, Code::limit_archive_members)) << testing::error_codes(many);
}

TEST(Reader, FifoIsRefusedWithoutBlocking) {
  const std::string fifo = testing::temp_dir() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = verify_path(fifo);  // no writer: opening must not hang
  EXPECT_TRUE(testing::has_error(r, Code::not_regular_file)) << testing::error_codes(r);
  EXPECT_TRUE(testing::has_error(verify_path("/nonexistent/trace.jsonl"), Code::not_found));
}

TEST(Framing, CutAndOverlongLines) {
  std::string text = trace_text();
  auto cut = testing::verify_bytes(text.substr(0, text.size() - 1));
  EXPECT_TRUE(testing::has_error(cut, Code::missing_final_lf)) << testing::error_codes(cut);
  EXPECT_VERDICT(cut, Verdict::invalid);

  Limits small;
  small.max_line_bytes = 1000;
  auto longr = testing::verify_bytes(text, testing::dev_keyring(), small);
  EXPECT_TRUE(testing::has_error(longr, Code::limit_line_bytes)) << testing::error_codes(longr);
  EXPECT_VERDICT(longr, Verdict::error);

  auto empty = testing::verify_bytes("");
  EXPECT_TRUE(testing::has_error(empty, Code::empty_trace));
  EXPECT_VERDICT(empty, Verdict::invalid);
}

// The lines before an over-long one are read, counted and verified: the
// limit stops reading at that line, not at the start of its block.
TEST(Framing, LinesBeforeAnOverlongLineAreRead) {
  const std::string text = trace_text();
  size_t longest = 0, at = 0, start = 0;
  for (size_t i = 0; start < text.size(); ++i) {
    const size_t end = text.find('\n', start);
    if (end - start > longest && i > 0) longest = end - start, at = i;
    start = end + 1;
  }
  ASSERT_GT(at, 0u);
  Limits small;
  small.max_line_bytes = longest - 1;
  auto r = testing::verify_bytes(text, testing::dev_keyring(), small);
  EXPECT_TRUE(testing::has_error(r, Code::limit_line_bytes)) << testing::error_codes(r);
  EXPECT_EQ(r.records, at) << "every line before the long one is a record read";
  EXPECT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors.back().seq, static_cast<int64_t>(at));
  EXPECT_VERDICT(r, Verdict::error);
}

TEST(Framing, LinesSpanAnyReadBoundary) {
  // A source that returns one byte at a time.
  class Trickle final : public ByteSource {
   public:
    explicit Trickle(std::string s) : s_(std::move(s)) {}
    Result<size_t> read(char* buf, size_t cap) override {
      if (pos_ == s_.size() || cap == 0) return size_t{0};
      buf[0] = s_[pos_++];
      return size_t{1};
    }

   private:
    std::string s_;
    size_t pos_ = 0;
  };
  for (unsigned threads : {1u, 2u}) {
    WalkOptions opt;
    Keyring ring = testing::dev_keyring();
    opt.keyring = &ring;
    opt.threads = threads;
    auto r = walk_source(std::make_unique<Trickle>(trace_text()), opt);
    EXPECT_VERDICT(r, Verdict::verified);
  }
}

TEST(Framing, PipelinedReadingSeesEveryLineOnce) {
  // A trace bigger than several blocks, read on two threads, with a
  // visitor that stops half way.
  fixtures::TraceSpec spec;
  spec.target_bytes = 12 << 20;
  spec.tool_output_bytes = 20000;
  auto text = fixtures::join(fixtures::conversation_lines(spec, testing::dev_key()));
  struct Counter final : RecordVisitor {
    uint64_t seen = 0, stop_at = UINT64_MAX;
    bool on_record(const Record& r, const Line&, const Digest&) override {
      EXPECT_EQ(r.seq, seen);
      return ++seen < stop_at;
    }
  };
  Keyring ring = testing::dev_keyring();
  WalkOptions opt;
  opt.keyring = &ring;
  opt.threads = 2;
  Counter all;
  auto r = walk_source(memory_source(text), opt, &all);
  EXPECT_VERDICT(r, Verdict::verified);
  EXPECT_EQ(all.seen, r.records);
  Counter half;
  half.stop_at = r.records / 2;
  auto h = walk_source(memory_source(text), opt, &half);
  EXPECT_EQ(half.seen, r.records / 2);
  // Stopping is not an error: nothing wrong was read, but not all was.
  EXPECT_VERDICT(h, Verdict::incomplete);
  EXPECT_EQ(h.incomplete_reason, IncompleteReason::not_read_to_end);
  EXPECT_EQ(h.error_count, 0u) << testing::error_codes(h);
  EXPECT_FALSE(h.complete_read);
  // A tampered line before the stop still makes the verdict.
  auto lines = fixtures::conversation_lines(spec, testing::dev_key());
  fixtures::edit_body_byte(lines, 10);
  Counter early;
  early.stop_at = 40;
  auto t = walk_source(memory_source(fixtures::join(lines)), opt, &early);
  EXPECT_VERDICT(t, Verdict::invalid);
  EXPECT_TRUE(testing::has_error(t, Code::prev_mismatch));
}

TEST(Framing, GrowingFileIsNotJudged) {
  // A source whose file gets longer than it was when opened.
  const std::string path = write_temp("grow.jsonl", trace_text());
  auto opened = open_trace(path, Limits{});
  ASSERT_TRUE(opened.ok());
  {
    std::ofstream more(path, std::ios::app);
    more << "{\"seq\":999}\n";
  }
  WalkOptions opt;
  Keyring ring = testing::dev_keyring();
  opt.keyring = &ring;
  auto r = walk_source(std::move(opened->source), opt);
  EXPECT_TRUE(testing::has_error(r, Code::file_changed)) << testing::error_codes(r);
  EXPECT_VERDICT(r, Verdict::error);
}

}  // namespace
}  // namespace goalcup

namespace goalcup {
namespace {

// Everything a zstd reader gives, and how it ends.
struct Drained {
  std::string bytes;
  std::string end;  // "" for a clean end, else the error code or the cut's

  bool operator==(const Drained&) const = default;
};

Drained drain(ByteSource& src) {
  Drained d;
  std::string buf(1 << 20, '\0');
  for (;;) {
    auto n = src.read(buf.data(), buf.size());
    if (!n) {
      d.end = std::string(code_name(n.error().code));
      return d;
    }
    if (*n == 0) break;
    d.bytes.append(buf.data(), *n);
  }
  if (auto cut = src.cut()) d.end = std::string(code_name(cut->code));
  return d;
}

Drained framed(const std::string& z, unsigned threads, Limits limits = {}) {
  auto src = zstd_source(memory_source(z), limits);
  src->use_threads(threads);
  return drain(*src);
}

Drained streamed(const std::string& z, Limits limits = {}) {
  auto src = zstd_stream_source(memory_source(z), limits, nullptr, ZstdCounts{});
  return drain(*src);
}

std::string some_text(size_t n) {
  std::string s;
  for (uint32_t i = 0; s.size() < n; ++i) s += "line " + std::to_string(i * 2654435761u) + " of the trace\n";
  s.resize(n);
  return s;
}

// A frame without a declared content size (as a streaming writer leaves it).
std::string unsized_frame(const std::string& data) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
  std::string out(ZSTD_compressBound(data.size()) + 64, '\0');
  out.resize(ZSTD_compress2(c, out.data(), out.size(), data.data(), data.size()));
  ZSTD_freeCCtx(c);
  return out;
}

// Multi-frame zstd is read frame by frame, and inflated on several threads;
// whatever it holds, it gives what the streaming reader gives, the same on
// any number of threads.
TEST(FramedZstd, GivesWhatTheStreamingReaderGives) {
  const std::string text = some_text(9 << 20);
  const std::string many = zstd_frames(text, 300000);
  std::string corrupt = many;
  corrupt[corrupt.size() / 2] ^= 0x55;
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"many frames", many},
      {"one frame", zstd_frames(text, text.size())},
      {"frames over the 2 MiB a frame is trusted with", zstd_frames(text, 3 << 20)},
      {"small and large frames", zstd_frames(text.substr(0, 1000), 10) + zstd_frames(text, 5 << 20)},
      {"an unsized frame in the middle", zstd_frames(text.substr(0, 4 << 20), 500000) + unsized_frame(text.substr(4 << 20)) +
                                             zstd_frames(text, 700000)},
      {"a skippable frame in the middle", zstd_frames(text.substr(0, 1 << 20), 100000) + skippable_frame("note") +
                                              zstd_frames(text, 400000)},
      {"a corrupt frame", corrupt},
      {"cut inside the last frame", many.substr(0, many.size() - 1000)},
      {"cut inside a header", many + std::string("\x28\xb5\x2f", 3)},
      {"garbage after the frames", many + "not zstd at all"},
      {"empty", ""},
  };
  for (const auto& [name, z] : inputs) {
    SCOPED_TRACE(name);
    const Drained want = streamed(z);
    for (unsigned threads : {1u, 2u, 5u}) {
      const Drained got = framed(z, threads);
      EXPECT_EQ(got.bytes.size(), want.bytes.size()) << threads << " threads";
      EXPECT_TRUE(got.bytes == want.bytes) << threads << " threads";
      EXPECT_EQ(got.end, want.end) << threads << " threads";
    }
  }
  EXPECT_EQ(streamed(many).bytes, text);
  EXPECT_EQ(streamed(corrupt).end, "zstd_error");
  EXPECT_EQ(streamed(many.substr(0, many.size() - 1000)).end, "zstd_truncated");
}

TEST(FramedZstd, BombsAndHugeWindowsStillStop) {
  // Frames of 1 MiB of one byte each: far over 200:1 once past the slack.
  const std::string bomb = zstd_frames(std::string(200 << 20, 'x'), 1 << 20);
  Limits small;
  for (unsigned threads : {1u, 4u}) {
    const Drained d = framed(bomb, threads, small);
    EXPECT_EQ(d.end, "limit_zstd_ratio") << threads << " threads";
    EXPECT_LT(d.bytes.size(), 80u << 20);
    EXPECT_EQ(d, framed(bomb, 1, small));
  }
  // A frame declaring a 1 GiB window is refused, not inflated.
  const std::string wide("\x28\xb5\x2f\xfd\x00\xa0\x01\x00\x00", 9);
  EXPECT_EQ(framed(wide, 4).end, "limit_zstd_window");
  EXPECT_EQ(streamed(wide).end, "limit_zstd_window");
}

}  // namespace
}  // namespace goalcup
