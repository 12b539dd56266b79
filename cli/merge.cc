#include "cli/merge.h"

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "cli/printer.h"
#include "cli/safe_text.h"
#include "cli/term.h"

namespace goalcup {
namespace {

struct ShardFile {
  std::string path;
  Shard shard;
  uint64_t reports = 0;
};

bool is_summary_line(simdjson::dom::element e) {
  simdjson::dom::object o;
  return !e.get_object().get(o) && o.size() == 1 && !o["summary"].error();
}

// Pass 1: the shard a file is (from its summary line) and its report count.
std::optional<ShardFile> read_shard_file(const std::string& path, simdjson::dom::parser& parser, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = "cannot read " + path;
    return std::nullopt;
  }
  ShardFile f{path, {}, 0};
  std::string line, last;
  uint64_t lines = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++lines;
    last = std::move(line);
  }
  simdjson::dom::element doc;
  if (lines == 0 || parser.parse(last).get(doc) || !is_summary_line(doc)) {
    *err = path + " does not end with a summary line: not the whole output of a --format jsonl run";
    return std::nullopt;
  }
  uint64_t index = 0, count = 0, inputs = 0, list_inputs = 0;
  std::string_view list_sha256;
  auto summary = doc["summary"];
  if (summary["shard"]["index"].get(index) || summary["shard"]["count"].get(count) || summary["inputs"].get(inputs)) {
    *err = path + " was not made with --shard K/N";
    return std::nullopt;
  }
  if (summary["shard"]["list_inputs"].get(list_inputs) || summary["shard"]["list_sha256"].get(list_sha256)) {
    *err = path + " does not name the input list it was taken from (made by an older version?)";
    return std::nullopt;
  }
  if (count == 0 || index >= count || count > UINT32_MAX) {
    *err = path + " names an impossible shard";
    return std::nullopt;
  }
  f.shard = Shard{static_cast<unsigned>(index), static_cast<unsigned>(count), list_inputs, std::string(list_sha256)};
  f.reports = lines - 1;
  // Shard K of N holds inputs K, K+N, ... of the list: exactly this many.
  const uint64_t share = list_inputs > index ? (list_inputs - index + count - 1) / count : 0;
  if (inputs != share) {
    *err = path + " counts " + std::to_string(inputs) + " inputs, but shard " + std::to_string(index) + "/" +
           std::to_string(count) + " of a list of " + std::to_string(list_inputs) + " holds " + std::to_string(share);
    return std::nullopt;
  }
  if (f.reports != inputs) {
    *err = path + " holds " + std::to_string(f.reports) + " reports but its summary counts " + std::to_string(inputs) +
           (f.reports < inputs ? " (a shard written with -q leaves out the passing reports: run the shards without -q)"
                               : "");
    return std::nullopt;
  }
  return f;
}

// The shards, ordered by index, when they make exactly one batch.
std::optional<std::vector<ShardFile>> collect_shards(const std::vector<std::string>& files, std::string* err) {
  simdjson::dom::parser parser;
  std::map<unsigned, ShardFile> by_index;
  unsigned count = 0;
  for (const auto& path : files) {
    auto f = read_shard_file(path, parser, err);
    if (!f) return std::nullopt;
    if (count != 0 && f->shard.count != count) {
      *err = path + " is a shard of " + std::to_string(f->shard.count) + ", the others of " + std::to_string(count);
      return std::nullopt;
    }
    if (!by_index.empty() && (f->shard.list_inputs != by_index.begin()->second.shard.list_inputs ||
                              f->shard.list_sha256 != by_index.begin()->second.shard.list_sha256)) {
      *err = path + " was taken from another input list (" + std::to_string(f->shard.list_inputs) + " inputs, " +
             f->shard.list_sha256 + ") than " + by_index.begin()->second.path + " (" +
             std::to_string(by_index.begin()->second.shard.list_inputs) + " inputs, " +
             by_index.begin()->second.shard.list_sha256 + "): every shard must see the same list";
      return std::nullopt;
    }
    count = f->shard.count;
    const unsigned index = f->shard.index;
    if (!by_index.emplace(index, std::move(*f)).second) {
      *err = "shard " + std::to_string(index) + "/" + std::to_string(count) + " is given twice";
      return std::nullopt;
    }
  }
  if (by_index.size() != count) {
    std::string missing;
    for (unsigned k = 0; k < count; ++k) {
      if (!by_index.count(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    }
    *err = "shards missing from the batch of " + std::to_string(count) + ": " + missing;
    return std::nullopt;
  }
  std::vector<ShardFile> out;
  out.reserve(by_index.size());
  for (auto& [index, f] : by_index) out.push_back(std::move(f));
  // Shard k holds inputs k, k+N, ...: the counts can differ by one at most,
  // the earlier shards holding the extra ones.
  for (size_t k = 1; k < out.size(); ++k) {
    if (out[k].reports > out[0].reports || out[k].reports + 1 < out[0].reports ||
        out[k].reports > out[k - 1].reports) {
      *err = "the shards' report counts do not come from one batch split by --shard";
      return std::nullopt;
    }
  }
  return out;
}

// One report line of a shard, as written, and what the tool made of it.
struct MergedLine {
  std::string_view json;
  const MergedReport& judged;
};

class MergedText final : public BatchPrinter<MergedLine> {
 public:
  explicit MergedText(std::ostream& out) : out_(out) {}
  void print(const MergedLine& r) override { out_ << r.judged.text_line << "\n"; }
  void finish(const BatchSummary& summary) override { out_ << summary.text(Style::plain()); }

 private:
  std::ostream& out_;
};

class MergedJson final : public BatchPrinter<MergedLine> {
 public:
  MergedJson(std::ostream& out, const MergeOptions& opt) : doc_(out, opt.tool, opt.version, opt.header) {}
  void print(const MergedLine& r) override { doc_.add([&](JsonWriter& w) { w.raw(r.json); }); }
  void finish(const BatchSummary& summary) override { doc_.finish(summary); }

 private:
  JsonBatchDocument doc_;
};

// The merged batch's printer, chosen once: the text lines, one JSON
// document, or the shards' own JSON Lines passed on as written.
std::unique_ptr<BatchPrinter<MergedLine>> make_merge_printer(const MergeOptions& opt, std::ostream& out) {
  switch (opt.format) {
    case Format::json: return std::make_unique<MergedJson>(out, opt);
    case Format::jsonl:
      return std::make_unique<JsonLinesPrinter<MergedLine>>(
          out, JsonLinesPrinter<MergedLine>::Hooks{.write = [](JsonWriter& w, const MergedLine& r) { w.raw(r.json); },
                                                  .listed = {},  // --quiet is applied before
                                                  .each = {}});
    case Format::text:
    case Format::sarif:
    case Format::markdown: break;  // merge offers text, json and jsonl
  }
  return std::make_unique<MergedText>(out);
}

}  // namespace

int merge_shards(const std::vector<std::string>& files, const MergeOptions& opt, BatchSummary& summary,
                 const ReportJudge& judge, std::ostream& out) {
  auto fail = [&](const std::string& message) {
    std::cerr << opt.tool << " merge: " << message << "\n";
    return 2;
  };
  if (files.empty()) return fail("no shard outputs given");
  std::string err;
  auto shards = collect_shards(files, &err);
  if (!shards) return fail(err);

  std::vector<std::unique_ptr<std::ifstream>> streams;
  for (const auto& s : *shards) streams.push_back(std::make_unique<std::ifstream>(s.path, std::ios::binary));
  const auto printer = make_merge_printer(opt, out);
  simdjson::dom::parser parser;
  // A file named twice means the list was not one list: refused. Hashes of
  // the names only, so memory stays small (8 bytes and a node per input).
  std::unordered_set<size_t> files_seen;
  // Round j takes line j of every shard that has one: the input order.
  for (uint64_t j = 0; j < (*shards)[0].reports; ++j) {
    for (size_t k = 0; k < shards->size(); ++k) {
      if (j >= (*shards)[k].reports) continue;
      std::string line;
      do {
        if (!std::getline(*streams[k], line)) return fail((*shards)[k].path + " changed while it was merged");
      } while (line.empty());
      simdjson::dom::element report;
      if (parser.parse(line).get(report) || !report.is_object()) {
        return fail((*shards)[k].path + ": report line " + std::to_string(j + 1) + " is not a JSON object");
      }
      std::string_view file;
      if (!report["file"].get(file) && !files_seen.insert(std::hash<std::string_view>{}(file)).second) {
        return fail((*shards)[k].path + ": " + safe_text(file) + " is reported twice: not one batch split by --shard");
      }
      const MergedReport m = judge(report, summary);
      if (opt.quiet && m.passed) continue;
      printer->print({line, m});
    }
  }
  printer->finish(summary);
  out.flush();
  return summary.exit_code();
}

}  // namespace goalcup
