// GC13: stored bodies are the recorder's own account of what crossed the
// wire; sha256, size and redactions must describe them, and requests must
// ask for an allowed model.
#include <absl/cleanup/cleanup.h>

#include <map>

#include "cheatcheck/checks/check.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

class Gc13 final : public Check {
 public:
  std::string_view id() const override { return "GC13"; }

  void on_record(const Record& r, Context& ctx) override {
    if (r.kind != Kind::wire) return;
    const WireBody& body = ctx.wire_body();
    if (!body.present) return;
    if (!body.base64_ok) return bad_digest_.add(r.seq);
    std::string_view digest;
    if (json::string(r.body, "sha256", &digest) == json::Get::ok) check_digest(r.seq, body.bytes(), digest, ctx);
    check_size(r, body);
    check_redactions(r, body);
    check_model(r, body, ctx);
  }

  void finish(const VerifyReport&, Context& ctx) override {
    if (BodyDigests* digests = ctx.body_digests()) bad_digest_.merge(digests->mismatches());
    emit(ctx, bad_digest_, "wire record(s) whose sha256 does not match the stored body.", "digest");
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
                 "not decode): the model they asked for was not checked against the allowed list.",
                 "unread-request");
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
    if (!root) return ctx.body_not_parsed("GC13", root.error());
    simdjson::dom::object o;
    std::string_view model;
    if (!root || root->get(o) || json::string(o, "model", &model) != json::Get::ok) return;
    const auto& allowed = ctx.policy().models;
    if (std::find(allowed.begin(), allowed.end(), model) != allowed.end()) return;
    models_.add(model, r.seq);
  }

  static void emit(Context& ctx, const SeqList& list, const std::string& what, const std::string& key) {
    emit_counted(ctx, "GC13", Severity::high, list, what, key);
  }

  SeqList bad_digest_, bad_size_, bad_redaction_, ambiguous_, unread_;
  NamedSeqs models_;
};

}  // namespace

// The rule the reports list this check under (text help, SARIF), and its factory.
const CheckRegistrar kRegistered({.id = "GC13",
                                  .name = "StoredBodies",
                                  .gap = "Stored bodies are the recorder's own account of the wire.",
                                  .bound = "sha256, size and redactions describe each stored body.",
                                  .evidence = "A sha256 or size that does not match the stored body; a redaction span without its marker; a request model not on the allowed list."},
                                 make_check<Gc13>);

}  // namespace goalcup::cheat
