// GC13: stored bodies are the recorder's own account of what crossed the
// wire; sha256, size and redactions must describe them, and requests must
// ask for an allowed model.
#include <absl/cleanup/cleanup.h>

#include <algorithm>
#include <map>
#include <optional>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

// Where the JSON string opening at json[at] ('"') ends (past its closing
// quote), or npos when the text ends first.
size_t string_end(std::string_view json, size_t at) {
  for (size_t j = at + 1; j < json.size(); ++j) {
    if (json[j] == '\\') ++j;
    else if (json[j] == '"') return j + 1;
  }
  return std::string_view::npos;
}

// Where the JSON value opening at json[at] ends, or npos when the text ends
// first. Brackets and strings only: a cut body is not checked for syntax.
size_t value_end(std::string_view json, size_t at) {
  size_t depth = 0;
  for (size_t j = at; j < json.size(); ++j) {
    const char c = json[j];
    if (c == '"') {
      j = string_end(json, j);
      if (j == std::string_view::npos) return j;
      if (depth == 0) return j;
      --j;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']' || c == ',') {
      if (depth == 0) return j;  // a scalar's end
      if (c != ',' && --depth == 0) return j + 1;
    }
  }
  return std::string_view::npos;
}

// The literal of the first top-level member `key` of an object text cut
// anywhere, when its value is a string wholly before the cut.
std::optional<std::string_view> top_level_member(std::string_view json, std::string_view key) {
  size_t i = 0;
  auto skip_space = [&] { i = std::min(json.size(), json.find_first_not_of(" \t\r\n", i)); };
  skip_space();
  if (i >= json.size() || json[i] != '{') return std::nullopt;
  for (++i;;) {
    skip_space();
    if (i >= json.size() || json[i] != '"') return std::nullopt;
    const size_t key_end = string_end(json, i);
    if (key_end == std::string_view::npos) return std::nullopt;
    const std::string_view name = json.substr(i + 1, key_end - i - 2);
    i = key_end;
    skip_space();
    if (i >= json.size() || json[i] != ':') return std::nullopt;
    ++i;
    skip_space();
    if (i >= json.size()) return std::nullopt;
    const size_t end = value_end(json, i);
    if (end == std::string_view::npos) return std::nullopt;
    if (name == key) return json[i] == '"' ? std::optional(json.substr(i, end - i)) : std::nullopt;
    i = end;
    skip_space();
    if (i >= json.size() || json[i] != ',') return std::nullopt;
    ++i;
  }
}

class Gc13 final : public Check {
 public:
  std::string_view id() const override { return "GC13"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind != Kind::wire) return;
    const WireBody& body = ctx.wire_body();
    if (!body.present) return no_body_.add(r.seq);
    if (!body.base64_ok) return bad_digest_.add(r.seq);
    std::string_view digest;
    // The format gives every stored body its digest: without one, nothing
    // says the body is what the recorder stored.
    if (json::string(r.body, "sha256", &digest) == json::Get::ok) check_digest(r.seq, body.bytes(), digest, ctx);
    else no_digest_.add(r.seq);
    check_size(r, body);
    check_redactions(r, body);
    check_model(r, body, ctx);
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (BodyDigests* digests = ctx.body_digests()) bad_digest_.merge(digests->mismatches());
    emit(ctx, bad_digest_, "wire record(s) whose sha256 does not match the stored body.", "digest");
    emit(ctx, no_digest_, "wire record(s) store a body with no sha256 (absent, or not a string): nothing describes it.",
         "no-digest");
    emit_counted(ctx, "GC13", Severity::warning, no_body_,
                 "wire record(s) store no body (absent, null or not a string): what crossed the wire there is not "
                 "in the trace.",
                 "no-body");
    emit(ctx, bad_size_, "wire record(s) whose size does not match the stored body (no redactions, complete).", "size");
    emit(ctx, bad_redaction_, "wire record(s) with a redaction span that does not hold its [REDACTED:...] marker.",
         "redaction");
    if (!ctx.policy().has_models) {
      ctx.skip("GC13", "the policy lists no models, so request models were not checked");
    }
    emit(ctx, ambiguous_,
         "request(s) whose JSON body repeats a member name: the provider may have read another model (or other "
         "values) than the ones checked here.",
         "ambiguous-request");
    emit_counted(ctx, "GC13", Severity::warning, unread_,
                 "request(s) whose content could not be read (a content coding this tool does not know or that does "
                 "not decode, or more than 4 codings stacked): the model they asked for was not checked against "
                 "the allowed list.",
                 "unread-request");
    emit_counted(ctx, "GC13", Severity::warning, cut_unread_,
                 "request(s) stored cut at the recorder's size cap: the model named before the cut (if any) was "
                 "checked, but a model member repeated past the cut could not be.",
                 "cut-request-model");
    for (const auto& [model, list] : models_.all()) {
      ctx.emit(finding("GC13", Severity::high, list.seqs,
                       std::to_string(list.count) + " request(s) ask for model " + model +
                           ", which is not on the allowed list."),
               "model:" + model);
    }
  }

 private:
  void check_digest(uint64_t seq, std::string_view bytes, std::string_view stated, Context& ctx) {
    // No digest_ref() has another length: such a statement is wrong unhashed
    // (and a crafted long one is not copied to the workers).
    constexpr size_t kRefSize = std::string_view("sha256:").size() + 64;
    if (stated.size() != kRefSize) return bad_digest_.add(seq);
    if (BodyDigests* digests = ctx.body_digests()) return digests->check(seq, bytes, stated);
    if (stated != digest_ref(sha256(bytes))) bad_digest_.add(seq);
  }

  void check_size(const Record& r, const WireBody& body) {
    uint64_t size = 0;
    bool complete = true;
    simdjson::dom::array redactions;
    if (json::uint(r.body, "size", &size) != json::Get::ok) return;
    (void)json::boolean(r.body, "complete", &complete);
    const bool redacted = json::array(r.body, "redactions", &redactions) == json::Get::ok && redactions.size() > 0;
    if (!redacted && complete && size != body.bytes().size()) bad_size_.add(r.seq);
  }

  void check_redactions(const Record& r, const WireBody& body) {
    simdjson::dom::array spans;
    if (json::array(r.body, "redactions", &spans) != json::Get::ok) return;
    for (auto s : spans) {
      simdjson::dom::object span;
      uint64_t offset = 0, length = 0;
      std::string_view rule;
      if (s.get(span) || json::uint(span, "offset", &offset) != json::Get::ok ||
          json::uint(span, "length", &length) != json::Get::ok || json::string(span, "rule", &rule) != json::Get::ok ||
          offset > body.bytes().size() || length > body.bytes().size() - offset ||
          body.bytes().substr(offset, length) != "[REDACTED:" + std::string(rule) + "]") {
        return bad_redaction_.add(r.seq);
      }
    }
  }

  void check_model(const Record& r, const WireBody& body, Context& ctx) {
    std::string_view dir;
    if (!ctx.policy().has_models || json::string(r.body, "dir", &dir) != json::Get::ok || dir != "request") return;
    if (!body.content_readable()) return unread_.add(r.seq);
    // JSON may open with white space; the provider reads such a body all the same.
    const std::string_view content = body.content();
    const size_t start = content.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos || content[start] != '{') return;
    StrictJsonParser& parser = ctx.body_parser();
    auto root = parser.parse_copy(content.substr(start), static_cast<int64_t>(r.seq));
    const absl::Cleanup release = [&] { parser.release_if_large(content.size()); };
    // A repeated member (two "model"s): JSON readers keep the last value or
    // the first, so the provider may have read another model than this check.
    if (!root && root.error().code == Code::duplicate_member) return ambiguous_.add(r.seq);
    if (!root && cut_at_cap(r, body)) return cut_model(content.substr(start), r.seq, ctx);
    if (!root) return ctx.body_not_parsed("GC13", root.error());
    simdjson::dom::object o;
    std::string_view model;
    if (!root || root->get(o) || json::string(o, "model", &model) != json::Get::ok) return;
    const auto& allowed = ctx.policy().models;
    if (std::find(allowed.begin(), allowed.end(), model) != allowed.end()) return;
    models_.add(model, r.seq);
  }

  // A request stored cut at the cap is no whole JSON: its model is read
  // from the members before the cut (both harnesses write it first).
  void cut_model(std::string_view prefix, uint64_t seq, Context& ctx) {
    // A member repeated past the cut is never seen, so the request is
    // listed either way; a model read before the cut is judged as usual.
    cut_unread_.add(seq);
    const std::optional<std::string_view> literal = top_level_member(prefix, "model");
    if (!literal) return;
    auto value = ctx.body_parser().parse_copy(*literal, static_cast<int64_t>(seq));
    std::string_view model;
    if (!value || value->get(model)) return;
    const auto& allowed = ctx.policy().models;
    if (std::find(allowed.begin(), allowed.end(), model) == allowed.end()) models_.add(model, seq);
  }

  static void emit(Context& ctx, const SeqList& list, const std::string& what, const std::string& key) {
    emit_counted(ctx, "GC13", Severity::high, list, what, key);
  }

  SeqList bad_digest_, bad_size_, bad_redaction_, ambiguous_, unread_, no_digest_, no_body_, cut_unread_;
  NamedSeqs models_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegisteredGc13({.id = "GC13",
                                  .name = "StoredBodies",
                                  .gap = "Stored bodies are the recorder's own account of the wire.",
                                  .bound = "sha256, size and redactions describe each stored body.",
                                  .evidence = "A sha256 or size that does not match the stored body; a redaction span without its marker; a request model not on the allowed list."},
                                 make_check<Gc13>);

}  // namespace goalcup::cheat
