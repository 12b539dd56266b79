#include "core/sse.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <optional>

#include "core/json_strict.h"

namespace goalcup {
namespace {

std::string_view field_value(std::string_view line, size_t colon) {
  std::string_view v = line.substr(colon + 1);
  if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  return v;
}

std::string get_str(simdjson::dom::element e, std::string_view key) {
  std::string_view v;
  simdjson::dom::object o;
  if (e.get(o) || json::string(o, key, &v) != json::Get::ok) return {};
  return std::string(v);
}

int64_t get_int(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::object o;
  int64_t v = -1;
  if (e.get(o) || json::integer(o, key, &v) != json::Get::ok) return -1;
  return v;
}

// A member that may be absent (a default simdjson element is not usable).
std::optional<simdjson::dom::element> child(simdjson::dom::element e, std::string_view key) {
  simdjson::dom::element c;
  if (e.at_key(key).get(c)) return std::nullopt;
  return c;
}

std::optional<simdjson::dom::element> child(std::optional<simdjson::dom::element> e, std::string_view key) {
  return e ? child(*e, key) : std::nullopt;
}

std::string get_str(std::optional<simdjson::dom::element> e, std::string_view key) {
  return e ? get_str(*e, key) : std::string();
}

int64_t get_int(std::optional<simdjson::dom::element> e, std::string_view key) { return e ? get_int(*e, key) : -1; }

// Usage members that are present replace what an earlier event said:
// the last event to state a figure has the final, cumulative one.
void take(int64_t* field, std::optional<simdjson::dom::element> usage, std::string_view key) {
  const int64_t v = get_int(usage, key);
  if (v >= 0) *field = v;
}

bool one_of(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

// A block in the making. Blocks are kept by their index in the stream
// (Anthropic's index, OpenAI's output_index, or order of first appearance
// for Chat Completions), which is their order in the answer.
struct Block {
  int64_t key = 0;  // its key in the rebuilder's map
  RebuiltBlock::Kind kind = RebuiltBlock::Kind::other;
  std::string type;
  std::string text;
  RebuiltToolCall call;
  std::string start_input;  // an input given whole at the block's start
  int64_t summary_index = -1;
  std::vector<size_t> part_starts;  // RebuiltBlock::part_starts
  std::vector<size_t> raw_starts;   // RebuiltBlock::raw_starts
  std::string detail;               // RebuiltBlock::detail
  bool is_error = false;
  int64_t choice = 0;
};

bool is_empty_object(simdjson::dom::element e) {
  simdjson::dom::object o;
  return !e.get(o) && o.size() == 0;
}

RebuiltBlock::Kind anthropic_kind(std::string_view type) {
  using K = RebuiltBlock::Kind;
  if (type == "text") return K::text;
  if (one_of(type, {"tool_use", "server_tool_use", "mcp_tool_use"})) return K::tool_call;
  if (type == "thinking") return K::thinking;
  if (type == "redacted_thinking") return K::redacted_thinking;
  if (type.ends_with("_tool_result")) return K::tool_result;
  return K::other;
}

// A block's detail (a provider tool result's digest, a text's citations)
// is for people to read: bounded per block and per answer, each value in
// it clipped, a few hits of a list shown.
constexpr size_t kMaxDetail = 2048;
constexpr size_t kMaxAnswerDetail = 64 << 10;
constexpr size_t kMaxDetailValue = 400;
constexpr size_t kMaxDetailItems = 10;
constexpr int kMaxDetailDepth = 3;

std::string clipped(std::string_view s) { return clip_text(s, kMaxDetailValue, ClipNote::more_bytes); }

// A string (its last line end dropped), number or boolean as text; "" for
// anything else.
std::string scalar_text(simdjson::dom::element v) {
  std::string_view s;
  int64_t i = 0;
  bool b = false;
  if (!v.get(s)) return clipped(s.ends_with('\n') ? s.substr(0, s.size() - 1) : s);
  if (!v.get(i)) return std::to_string(i);
  if (!v.get(b)) return b ? "true" : "false";
  return {};
}

// "title <url>" of a search hit or a citation (a document's title, or the
// cited text, when it has no URL); "" when it has neither.
std::string source_line(simdjson::dom::element v) {
  std::string title = get_str(v, "title");
  if (title.empty()) title = get_str(v, "document_title");
  const std::string url = get_str(v, "url");
  if (title.empty() && url.empty()) {
    const std::string cited = get_str(v, "cited_text");
    return cited.empty() ? std::string() : "\"" + clip_text(cited, 120, ClipNote::more_bytes) + "\"";
  }
  return clipped(title) + (url.empty() ? "" : (title.empty() ? "<" : " <") + clipped(url) + ">");
}

// What a provider tool's result says, as lines people read: its error,
// output and return code, its hits; never its encrypted members. Sets
// `*error` when it reports a failure (an `..._error` content, is_error).
void digest_lines(simdjson::dom::element v, int depth, std::vector<std::string>& lines, bool* error) {
  simdjson::dom::array items;
  if (!v.get(items)) {
    size_t n = 0;
    for (auto item : items) {
      if (n++ < kMaxDetailItems && depth < kMaxDetailDepth) digest_lines(item, depth + 1, lines, error);
    }
    if (n > kMaxDetailItems) lines.push_back("(" + std::to_string(n - kMaxDetailItems) + " more not shown)");
    if (n == 0 && depth == 1) lines.push_back("(no results)");  // a result's own content, empty
    return;
  }
  if (!v.is_object()) {
    if (std::string s = scalar_text(v); !s.empty()) lines.push_back(std::move(s));
    return;
  }
  const std::string type = get_str(v, "type");
  bool failed = false;
  if (type.ends_with("_error") || (!v["is_error"].get(failed) && failed)) *error = true;
  const size_t before = lines.size();
  if (std::string hit = source_line(v); !hit.empty()) lines.push_back(std::move(hit));
  for (const char* key : {"error_code", "error_message", "stdout", "stderr", "return_code", "text"}) {
    auto member = child(v, key);
    if (!member) continue;
    if (std::string s = scalar_text(*member); !s.empty()) lines.push_back(std::string(key) + ": " + s);
  }
  if (auto content = child(v, "content"); content && depth < kMaxDetailDepth) {
    std::string_view s;
    if (!content->get(s)) lines.push_back("content: " + clipped(s));
    else digest_lines(*content, depth + 1, lines, error);
  }
  if (lines.size() == before && !type.empty()) lines.push_back("(" + clipped(type) + ")");
}

// Blocks kept apart: an answer has a few; a stream of a million tiny
// blocks must not cost a million entries.
constexpr size_t kMaxBlocks = 1024;
constexpr int64_t kOverflow = INT64_MAX;
// Raw reasoning's part numbers (content_index) are kept below -1 (no
// summary_index), so that a reasoning block streaming both its summary and
// its raw text keeps their parts apart.
constexpr int64_t kMaxRawReasoningPart = int64_t{1} << 40;

// Where a piece of a strand came from: the strand (a block's text or a
// tool call's input), the event, the JSON pointer of its string.
enum class Strand : uint8_t { text, input };
struct PieceSource {
  int64_t block;
  Strand strand;
  size_t event;
  std::string_view pointer;
};
using PieceSink = std::function<void(const PieceSource&, std::string_view piece)>;

// A parser for one rebuild. Constructing one allocates its buffers (and
// the kernel faults them in), which cost more than parsing the events of a
// short answer: each thread keeps a parser per bound for its rebuilds, lent
// to one rebuild at a time (a nested one makes its own). One grown past its
// first capacity for a long event is not kept: memory follows the longest
// event only while it is read, as with a parser per rebuild.
class ParserLease {
 public:
  explicit ParserLease(const Limits& limits) {
    for (Kept& k : kept()) {
      if (k.busy || (k.parser && (k.max_line_bytes != limits.max_line_bytes || k.max_depth != limits.max_depth))) continue;
      if (!k.parser) {
        k.parser.emplace(limits);
        k.max_line_bytes = limits.max_line_bytes;
        k.max_depth = limits.max_depth;
      }
      k.busy = true;
      lent_ = &k;
      return;
    }
    own_.emplace(limits);
  }
  ~ParserLease() {
    if (!lent_) return;
    lent_->busy = false;
    if (largest_ > kKeepUpTo) lent_->parser.reset();
  }
  ParserLease(const ParserLease&) = delete;
  ParserLease& operator=(const ParserLease&) = delete;

  StrictJsonParser* operator->() { return lent_ ? &*lent_->parser : &*own_; }
  // Notes the size of a document about to be parsed.
  ParserLease& sized(size_t bytes) {
    largest_ = std::max(largest_, bytes);
    return *this;
  }

 private:
  // StrictJsonParser's first capacity (see its constructor).
  static constexpr size_t kKeepUpTo = 1 << 16;
  struct Kept {
    std::optional<StrictJsonParser> parser;
    uint64_t max_line_bytes = 0;
    uint32_t max_depth = 0;
    bool busy = false;
  };
  // Two bounds are in use: a record's (answers) and nested_limits() (messages).
  static std::array<Kept, 2>& kept() {
    thread_local std::array<Kept, 2> parsers;
    return parsers;
  }

  Kept* lent_ = nullptr;
  std::optional<StrictJsonParser> own_;
  size_t largest_ = 0;
};

class Rebuilder {
 public:
  explicit Rebuilder(const Limits& limits, const PieceSink* sink = nullptr) : parser_(limits), sink_(sink) {}
  Rebuilder(const Rebuilder&) = delete;
  Rebuilder& operator=(const Rebuilder&) = delete;

  // `rank`: the event's rank among the dispatched events.
  void on_event(std::string_view data, size_t rank) {
    event_ = rank;
    ++out_.events;
    auto root = parser_.sized(data.size())->parse_copy(data, -1);
    if (!root) {
      ++out_.bad_events;
      return;
    }
    const simdjson::dom::element e = *root;
    const std::string type = get_str(e, "type");
    if (type.starts_with("response.")) {
      out_.provider = RebuiltAnswer::Provider::openai_responses;
      openai(type, e);
    } else if (type.empty() && child(e, "choices")) {
      out_.provider = RebuiltAnswer::Provider::openai_chat;
      chat(e);
    } else {
      if (!type.empty() && type != "error") out_.provider = RebuiltAnswer::Provider::anthropic;
      anthropic(type, e);
    }
  }

  // An answer returned whole (a request without "stream"): an Anthropic
  // Message (what a stream's message_start gives whole, finished), a Chat
  // Completion (each choice's message read as one delta) or an OpenAI
  // Response (its output items read as finished items, its status and usage
  // as response.completed gives them). Anything else is no answer.
  void on_message(std::string_view json) {
    ++out_.events;
    auto parsed = parser_.sized(json.size())->parse_copy(json, -1);
    if (!parsed) {
      ++out_.bad_events;
      return;
    }
    const simdjson::dom::element root = *parsed;
    const auto error = child(root, "error");  // a Response always has "error": null
    if (get_str(root, "type") == "error" || (error && error->is_object())) {
      take_error(root);  // a refused request: {"type":"error","error":{...}} or OpenAI's {"error":{...}}
      return;
    }
    const std::string object = get_str(root, "object");
    if (get_str(root, "type") == "message") {
      out_.provider = RebuiltAnswer::Provider::anthropic;
      start_message(root, "");
      out_.finished = true;
    } else if (object == "chat.completion") {
      out_.provider = RebuiltAnswer::Provider::openai_chat;
      chat(root, "message");
    } else if (object == "response") {
      out_.provider = RebuiltAnswer::Provider::openai_responses;
      whole_response(root);
    } else {
      ++out_.bad_events;
    }
  }

  RebuiltAnswer finish() {
    // OpenAI counts cached tokens inside input_tokens (prompt_tokens),
    // Anthropic apart: input_tokens is made the tokens not read from cache
    // for both, so that in + cache read is what the prompt held.
    if (out_.provider != RebuiltAnswer::Provider::anthropic && out_.input_tokens >= 0 && out_.cache_read_tokens >= 0) {
      out_.input_tokens -= std::min(out_.input_tokens, out_.cache_read_tokens);
    }
    for (auto& [index, b] : blocks_) {
      RebuiltBlock out{b.kind, b.type, {}, -1};
      out.detail = std::move(b.detail);
      out.is_error = b.is_error;
      out.choice = b.choice;
      if (b.kind == RebuiltBlock::Kind::tool_call) {
        if (b.call.input.empty()) b.call.input = b.start_input;
        b.call.choice = b.choice;
        out.call = static_cast<int64_t>(out_.tool_calls.size());
        out_.tool_calls.push_back(std::move(b.call));
      } else if (b.kind == RebuiltBlock::Kind::text) {
        if (b.choice == 0) out_.text += b.text;
        out.text = std::move(b.text);
      } else {
        out.text = std::move(b.text);
        if (b.kind == RebuiltBlock::Kind::reasoning) {
          out.part_starts = std::move(b.part_starts);
          out.raw_starts = std::move(b.raw_starts);
        }
      }
      out_.blocks.push_back(std::move(out));
    }
    return std::move(out_);
  }

 private:
  // The first error a stream reports: {"error": {type|code, message}} or
  // the members on the event itself.
  void take_error(std::optional<simdjson::dom::element> holder) {
    if (!holder || !out_.error.empty()) return;
    auto err = child(holder, "error");
    if (err && !err->is_object()) return;
    const auto source = err ? err : holder;
    std::string kind = get_str(source, "type");
    if (kind.empty() || kind == "error") kind = get_str(source, "code");
    const std::string message = get_str(source, "message");
    if (kind.empty() && message.empty()) return;
    out_.error = kind.empty() ? message : message.empty() ? kind : kind + ": " + message;
  }

  void anthropic(const std::string& type, simdjson::dom::element e) {
    const int64_t index = get_int(e, "index");
    if (type == "error" || (type.empty() && child(e, "error"))) {
      take_error(e);
    } else if (type == "message_start") {
      start_message(child(e, "message"), "/message");
    } else if (type == "content_block_start") {
      start_block(block(index), child(e, "content_block"), "/content_block");
    } else if (type == "content_block_delta") {
      auto d = child(e, "delta");
      const std::string kind = get_str(d, "type");
      Block& b = block(index);
      if (b.type.empty()) {  // a delta whose block start was not seen (a cut stream)
        b.kind = kind == "text_delta"         ? RebuiltBlock::Kind::text
                 : kind == "thinking_delta"   ? RebuiltBlock::Kind::thinking
                 : kind == "input_json_delta" ? RebuiltBlock::Kind::tool_call
                                              : b.kind;
      }
      if (kind == "text_delta") join(b, Strand::text, get_str(d, "text"), "/delta/text");
      else if (kind == "thinking_delta") join(b, Strand::text, get_str(d, "thinking"), "/delta/thinking");
      else if (kind == "input_json_delta") join(b, Strand::input, get_str(d, "partial_json"), "/delta/partial_json");
      else if (auto citation = child(d, "citation"); kind == "citations_delta" && citation) cite(b, *citation);
      else if (kind == "compaction_delta") join(b, Strand::text, get_str(d, "content"), "/delta/content");
    } else if (type == "message_delta") {
      const std::string stop = get_str(child(e, "delta"), "stop_reason");
      if (!stop.empty()) out_.stop_reason = stop;
      anthropic_usage(child(e, "usage"), true);
    } else if (type == "message_stop") {
      out_.finished = true;
    }
  }

  // A message's id, model and usage, and the content it starts with: a
  // message may start with its content given whole (a turn resumed after a
  // client tool ran inside code execution starts with the next call; a
  // Message returned whole holds all of it): those blocks come first, by
  // their place in the content.
  // `at`: the message's JSON pointer in its event ("" for a Message whole).
  void start_message(std::optional<simdjson::dom::element> m, std::string_view at) {
    out_.message_id = get_str(m, "id");
    out_.model = get_str(m, "model");
    // A stream's message_start states output_tokens as a placeholder (1):
    // the count comes in message_delta, which a cut stream never gets.
    anthropic_usage(child(m, "usage"), at.empty());
    simdjson::dom::array content;
    if (m && !(*m)["content"].get(content)) {
      int64_t n = 0;
      for (auto cb : content) {
        const std::string place = sink_ ? std::string(at) + "/content/" + std::to_string(n) : std::string();
        start_block(block(n++), cb, place);
      }
    }
    if (const std::string stop = get_str(m, "stop_reason"); !stop.empty()) out_.stop_reason = stop;
  }

  // A content block as it starts (in content_block_start, or whole in
  // message_start, at `place`): its kind, and the id, name, input or text it
  // opens with.
  void start_block(Block& b, std::optional<simdjson::dom::element> cb, std::string_view place) {
    b.type = get_str(cb, "type");
    b.kind = anthropic_kind(b.type);
    if (b.kind == RebuiltBlock::Kind::tool_call) {
      b.call = {get_str(cb, "id"), get_str(cb, "name"), {}, b.type, b.type != "tool_use"};
      if (auto input = child(cb, "input"); input && !is_empty_object(*input)) {
        b.start_input = simdjson::minify(*input);
      }
    } else if (b.kind == RebuiltBlock::Kind::tool_result) {
      b.text = get_str(cb, "tool_use_id");
      provider_result(b, cb);
    } else if (b.kind == RebuiltBlock::Kind::thinking) {
      join(b, Strand::text, get_str(cb, "thinking"), sink_ ? std::string(place) + "/thinking" : "");  // joined: blocks past kMaxBlocks share one
    } else if (b.type == "compaction") {  // the summary that replaces the history from here on
      join(b, Strand::text, get_str(cb, "content"), sink_ ? std::string(place) + "/content" : "");
    } else {
      join(b, Strand::text, get_str(cb, "text"), sink_ ? std::string(place) + "/text" : "");
      simdjson::dom::array citations;
      if (cb && !(*cb)["citations"].get(citations)) {
        for (auto c : citations) cite(b, c);
      }
    }
  }

  // A provider tool's result block: its digest, and whether it failed.
  void provider_result(Block& b, std::optional<simdjson::dom::element> cb) {
    if (!cb) return;
    std::vector<std::string> lines;
    bool error = false;
    digest_lines(*cb, 0, lines, &error);
    b.is_error = b.is_error || error;
    for (const std::string& line : lines) add_detail(b, line);
  }

  // A source a text block cites (a search hit, a document), once each.
  void cite(Block& b, simdjson::dom::element citation) {
    const std::string line = source_line(citation);
    if (!line.empty() && b.detail.find(line) == std::string::npos) add_detail(b, line);
  }

  // Adds a line to a block's detail while the bounds leave room; past
  // them, one line says the rest is not shown.
  void add_detail(Block& b, std::string_view line) {
    static constexpr std::string_view kFull = "(more not shown)";
    if (b.detail.ends_with(kFull)) return;
    const size_t size = line.size() + 1;
    const bool fits = b.detail.size() + size <= kMaxDetail && detail_bytes_ + size <= kMaxAnswerDetail;
    const std::string_view add = fits ? line : kFull;
    if (!b.detail.empty()) b.detail += '\n';
    b.detail += add;
    detail_bytes_ += add.size() + 1;
  }


  // `output_final`: whether its output_tokens is a count, not message_start's
  // placeholder. A request that sampled more than once (compaction, then the
  // answer) lists each sampling in `iterations`, and its top-level figures
  // leave out all but the last: the iterations are summed instead.
  void anthropic_usage(std::optional<simdjson::dom::element> usage, bool output_final) {
    simdjson::dom::array iterations;
    if (usage && !(*usage)["iterations"].get(iterations) && iterations.size() > 0) {
      sum_iterations(iterations);
      return;
    }
    take(&out_.input_tokens, usage, "input_tokens");
    if (output_final) take(&out_.output_tokens, usage, "output_tokens");
    take(&out_.cache_read_tokens, usage, "cache_read_input_tokens");
    take(&out_.cache_write_tokens, usage, "cache_creation_input_tokens");
  }

  void sum_iterations(simdjson::dom::array iterations) {
    constexpr int64_t kCap = INT64_MAX / 2;  // a crafted stream's figures cannot overflow the sum
    const std::pair<int64_t*, std::string_view> figures[] = {{&out_.input_tokens, "input_tokens"},
                                                             {&out_.output_tokens, "output_tokens"},
                                                             {&out_.cache_read_tokens, "cache_read_input_tokens"},
                                                             {&out_.cache_write_tokens, "cache_creation_input_tokens"}};
    for (const auto& figure : figures) {
      int64_t sum = -1;
      for (auto it : iterations) {
        const int64_t v = get_int(it, figure.second);
        if (v >= 0) sum = std::max<int64_t>(sum, 0) + std::min(v, kCap - std::max<int64_t>(sum, 0));
      }
      if (sum >= 0) *figure.first = sum;
    }
  }

  void openai(const std::string& type, simdjson::dom::element e) {
    const int64_t index = get_int(e, "output_index");
    if (type == "response.created" || type == "response.completed" || type == "response.in_progress" ||
        type == "response.incomplete" || type == "response.failed") {
      response_state(child(e, "response"), type.substr(9));
    } else if (type == "response.output_item.added" || type == "response.output_item.done") {
      item(type == "response.output_item.done", child(e, "item"), block(index));
    } else if (type == "response.output_text.delta" || type == "response.refusal.delta") {
      Block& b = block(index);
      b.kind = RebuiltBlock::Kind::text;
      if (type == "response.refusal.delta") mark_refusal(b);
      join(b, Strand::text, get_str(e, "delta"), "/delta");
    } else if (type == "response.refusal.done" ||
               ((type == "response.content_part.added" || type == "response.content_part.done") &&
                get_str(child(e, "part"), "type") == "refusal")) {
      Block& b = block(index);
      b.kind = RebuiltBlock::Kind::text;
      mark_refusal(b);
    } else if (type == "response.reasoning_summary_text.delta" || type == "response.reasoning_text.delta") {
      Block& b = block(index);
      b.kind = RebuiltBlock::Kind::reasoning;
      // Raw reasoning's parts go by content_index, apart from a summary's.
      const bool raw = type == "response.reasoning_text.delta";
      const int64_t part = raw ? -2 - std::clamp(get_int(e, "content_index"), int64_t{0}, kMaxRawReasoningPart) : get_int(e, "summary_index");
      if (part != b.summary_index && !b.text.empty()) {
        join(b, Strand::text, "\n\n", "");
        b.part_starts.push_back(b.text.size());
      }
      if (part != b.summary_index) part_kind(b, raw);
      b.summary_index = part;
      join(b, Strand::text, get_str(e, "delta"), "/delta");
    } else if (type == "response.function_call_arguments.delta" || type == "response.custom_tool_call_input.delta" ||
               type == "response.code_interpreter_call_code.delta" || type == "response.mcp_call_arguments.delta") {
      Block& b = block(index);
      b.kind = RebuiltBlock::Kind::tool_call;
      join(b, Strand::input, get_str(e, "delta"), "/delta");
    }
  }

  // A Response's id, model, usage and how it ended: `state` is its event's
  // (created, in_progress, completed, incomplete, failed), or its status
  // when it is returned whole.
  void response_state(std::optional<simdjson::dom::element> r, std::string_view state) {
    if (out_.message_id.empty()) out_.message_id = get_str(r, "id");
    if (out_.model.empty()) out_.model = get_str(r, "model");
    auto usage = child(r, "usage");
    take(&out_.input_tokens, usage, "input_tokens");
    take(&out_.output_tokens, usage, "output_tokens");
    take(&out_.cache_read_tokens, child(usage, "input_tokens_details"), "cached_tokens");
    take(&out_.reasoning_tokens, child(usage, "output_tokens_details"), "reasoning_tokens");
    if (state == "completed") {
      out_.finished = true;
      out_.stop_reason = get_str(r, "status");
    } else if (state == "incomplete" || state == "failed") {
      out_.stop_reason = state;
      take_error(r);
    }
  }

  // A Response returned whole: each output item as its
  // response.output_item.done gives it, then its status as the stream's
  // last event would state it.
  void whole_response(simdjson::dom::element r) {
    simdjson::dom::array output;
    if (!r["output"].get(output)) {
      int64_t n = 0;
      for (auto it : output) item(true, it, block(n++));
    }
    response_state(r, get_str(r, "status"));
  }

  // A reasoning part begins where the text now ends: raw reasoning or a
  // summary's. A part that streamed nothing before it leaves no mark.
  static void part_kind(Block& b, bool raw) {
    const size_t at = b.text.size();
    if (!b.raw_starts.empty() && b.raw_starts.back() == at) b.raw_starts.pop_back();
    if (raw) b.raw_starts.push_back(at);
  }

  // A text block that holds a refusal (OpenAI's refusal content part or
  // Chat Completions' refusal field): shown as one. Blocks merged past
  // kMaxBlocks keep their first type.
  static void mark_refusal(Block& b) {
    if (b.key != kOverflow) b.type = "refusal";
  }

  // Output items: a message, reasoning, a tool the client runs (a function
  // with JSON arguments, a custom tool with free text such as Codex's
  // apply_patch, the local shell) or one the provider runs. Inputs stream as
  // deltas; an item that streamed none carries its input whole when done.
  static void item(bool done, std::optional<simdjson::dom::element> it, Block& b) {
    const std::string kind = get_str(it, "type");
    if (kind == "message") {
      b.kind = RebuiltBlock::Kind::text;
      bool refused = false;
      const std::string whole = message_text(child(it, "content"), &refused);
      if (b.type != "refusal") b.type = kind;  // a refusal's deltas came first
      if (refused) mark_refusal(b);
      if (done && b.text.empty()) b.text = whole;
      return;
    }
    b.type = kind;
    if (kind == "reasoning") {
      b.kind = RebuiltBlock::Kind::reasoning;
      if (done && b.text.empty()) b.text = item_text(child(it, "summary"), "text", &b.part_starts);
      // Raw reasoning (content parts of type reasoning_text) given whole.
      if (done && b.text.empty()) {
        b.text = item_text(child(it, "content"), "text", &b.part_starts);
        if (!b.text.empty()) {
          b.raw_starts = {0};
          b.raw_starts.insert(b.raw_starts.end(), b.part_starts.begin(), b.part_starts.end());
        }
      }
      return;
    }
    if (kind.ends_with("_output")) {
      b.kind = RebuiltBlock::Kind::tool_result;
      b.text = get_str(it, "call_id");
      return;
    }
    if (!kind.ends_with("_call")) return;
    b.kind = RebuiltBlock::Kind::tool_call;
    const bool client = one_of(kind, {"function_call", "custom_tool_call", "local_shell_call"});
    b.call.kind = kind;
    b.call.provider_run = !client;
    if (b.call.id.empty()) b.call.id = get_str(it, client ? "call_id" : "id");
    if (b.call.name.empty()) {
      b.call.name = kind == "local_shell_call" ? "local_shell" : get_str(it, "name");
      if (b.call.name.empty() && !client) b.call.name = kind.substr(0, kind.size() - 5);
    }
    if (!done || !b.call.input.empty()) return;
    if (kind == "function_call" || kind == "mcp_call") b.call.input = get_str(it, "arguments");
    else if (kind == "custom_tool_call") b.call.input = get_str(it, "input");
    else if (kind == "code_interpreter_call") b.call.input = get_str(it, "code");
    else if (auto action = child(it, "action")) b.call.input = simdjson::minify(*action);
    else if (auto args = child(it, "arguments")) b.call.input = simdjson::minify(*args);
  }

  // A message item's content parts joined by blank lines: output_text's
  // text, a refusal part's refusal (`refused` set when there is one).
  static std::string message_text(std::optional<simdjson::dom::element> parts, bool* refused) {
    std::string out;
    simdjson::dom::array a;
    if (!parts || parts->get(a)) return out;
    for (auto p : a) {
      const bool refusal = get_str(p, "type") == "refusal";
      *refused = *refused || refusal;
      const std::string t = get_str(p, refusal ? "refusal" : "text");
      if (t.empty()) continue;
      out += (out.empty() ? "" : "\n\n") + t;
    }
    return out;
  }

  // The text parts of an item's content or summary, joined by blank lines.
  // `starts`, when given, gets where each part after the first starts.
  static std::string item_text(std::optional<simdjson::dom::element> parts, std::string_view key,
                               std::vector<size_t>* starts = nullptr) {
    std::string out;
    simdjson::dom::array a;
    if (!parts || parts->get(a)) return out;
    for (auto p : a) {
      const std::string t = get_str(p, key);
      if (t.empty()) continue;
      if (!out.empty()) {
        out += "\n\n";
        if (starts) starts->push_back(out.size());
      }
      out += t;
    }
    return out;
  }

  // A Chat Completions chunk: each choice's delta holds content, a
  // refusal, reasoning and tool_calls (each by its own index); the last
  // chunk may hold usage only. A request for several choices (n > 1)
  // streams them by their index, each rebuilt apart.
  // `part`: "delta" in a chunk, "message" in a Chat Completion returned
  // whole (the same members, given once).
  void chat(simdjson::dom::element e, std::string_view part = "delta") {
    if (out_.message_id.empty()) out_.message_id = get_str(e, "id");
    if (out_.model.empty()) out_.model = get_str(e, "model");
    if (auto usage = child(e, "usage"); usage && usage->is_object()) {
      take(&out_.input_tokens, usage, "prompt_tokens");
      take(&out_.output_tokens, usage, "completion_tokens");
      take(&out_.cache_read_tokens, child(usage, "prompt_tokens_details"), "cached_tokens");
      take(&out_.reasoning_tokens, child(usage, "completion_tokens_details"), "reasoning_tokens");
    }
    simdjson::dom::array choices;
    if (e["choices"].get(choices)) return;
    size_t at = 0;  // the choice's place in this chunk, for the pieces' pointers
    for (auto choice : choices) chat_choice(choice, at++, part);
  }

  void chat_choice(simdjson::dom::element choice, size_t at, std::string_view part) {
    int64_t number = get_int(choice, "index");
    if (number < 0) number = static_cast<int64_t>(at);  // a chunk without indexes lists them in order
    const std::string finish = get_str(choice, "finish_reason");
    if (!finish.empty()) {
      if (number == 0) out_.stop_reason = finish;
      out_.finished = true;
    }
    auto delta = child(choice, part);
    const std::string base = sink_ ? "/choices/" + std::to_string(at) + "/" + std::string(part) + "/" : std::string();
    for (const char* key : {"reasoning_content", "reasoning"}) {
      const std::string r = get_str(delta, key);
      if (!r.empty()) join(chat_block(number, -2, RebuiltBlock::Kind::reasoning), Strand::text, r, sink_ ? base + key : "");
    }
    const std::string content = get_str(delta, "content");
    if (!content.empty()) join(chat_block(number, -1, RebuiltBlock::Kind::text), Strand::text, content, sink_ ? base + "content" : "");
    // A refusal is the model's answer too, in a field of its own.
    const std::string refusal = get_str(delta, "refusal");
    if (!refusal.empty()) {
      Block& b = chat_block(number, -3, RebuiltBlock::Kind::text);
      mark_refusal(b);
      join(b, Strand::text, refusal, sink_ ? base + "refusal" : "");
    }
    simdjson::dom::array calls;
    if (!delta || (*delta)["tool_calls"].get(calls)) return;
    size_t call_at = 0;
    for (auto c : calls) {
      // A whole message's calls have no index: their place is theirs.
      const int64_t call_index = get_int(c, "index");
      Block& b = chat_block(number, call_index >= 0 ? call_index : static_cast<int64_t>(call_at), RebuiltBlock::Kind::tool_call);
      b.type = b.call.kind = "function";
      if (const std::string id = get_str(c, "id"); !id.empty()) b.call.id = id;
      auto fn = child(c, "function");
      if (const std::string name = get_str(fn, "name"); !name.empty()) b.call.name = name;
      const std::string place = sink_ ? base + "tool_calls/" + std::to_string(call_at) + "/function/arguments" : "";
      join(b, Strand::input, get_str(fn, "arguments"), place);
      ++call_at;
    }
  }

  // Chat Completions blocks in order of first appearance, by choice and
  // part: text is -1, reasoning -2, a refusal -3, tool calls their index.
  Block& chat_block(int64_t choice, int64_t part, RebuiltBlock::Kind kind) {
    std::pair<int64_t, int64_t> key{choice, part};
    if (chat_order_.size() >= kMaxBlocks && !chat_order_.contains(key)) key = {kOverflow, kOverflow};
    auto [it, fresh] = chat_order_.try_emplace(key, static_cast<int64_t>(chat_order_.size()));
    Block& b = block(it->second);
    if (fresh) {
      b.kind = kind;
      b.type = kind == RebuiltBlock::Kind::text ? "text" : kind == RebuiltBlock::Kind::reasoning ? "reasoning" : "function";
      b.choice = key.first == kOverflow ? 0 : choice;  // merged blocks stay in the answer's text, as before
    }
    return b;
  }

  // The block at `index`; past kMaxBlocks distinct blocks, one block that
  // all later ones share (their text is kept, in stream order).
  Block& block(int64_t index) {
    if (auto it = blocks_.find(index); it != blocks_.end()) return it->second;
    if (blocks_.size() >= kMaxBlocks) {
      ++out_.blocks_merged;
      index = kOverflow;
    }
    Block& b = blocks_[index];
    b.key = index;
    return b;
  }

  // Appends a piece of streamed text to a block's text or its call's input,
  // and tells the sink (if any) where it came from.
  void join(Block& b, Strand strand, std::string_view piece, std::string_view pointer) {
    (strand == Strand::text ? b.text : b.call.input) += piece;
    if (sink_ && !piece.empty()) (*sink_)(PieceSource{b.key, strand, event_, pointer}, piece);
  }

  ParserLease parser_;
  const PieceSink* sink_;
  size_t event_ = 0;
  RebuiltAnswer out_;
  std::map<int64_t, Block> blocks_;
  std::map<std::pair<int64_t, int64_t>, int64_t> chat_order_;
  size_t detail_bytes_ = 0;  // kMaxAnswerDetail
};

}  // namespace

std::vector<std::string_view> RebuiltBlock::summary_parts() const {
  std::vector<std::string_view> out;
  const std::string_view all = text;
  size_t from = 0;
  for (const size_t start : part_starts) {
    // Each start follows the blank line that ends the part before it.
    if (start < from + 2 || start > all.size()) continue;
    out.push_back(all.substr(from, start - 2 - from));
    from = start;
  }
  out.push_back(all.substr(from));
  return out;
}

std::vector<std::string_view> RebuiltBlock::reasoning_parts(bool raw) const {
  std::vector<std::string_view> out;
  const std::string_view all = text;
  size_t from = 0;
  auto take = [&](std::string_view part) {
    if (std::binary_search(raw_starts.begin(), raw_starts.end(), from) == raw) out.push_back(part);
  };
  for (const size_t start : part_starts) {
    if (start < from + 2 || start > all.size()) continue;  // as summary_parts()
    take(all.substr(from, start - 2 - from));
    from = start;
  }
  take(all.substr(from));
  return out;
}

bool looks_like_sse(std::string_view body) {
  return body.starts_with("event:") || body.starts_with("data:") || body.starts_with(":") ||
         body.starts_with("id:") || body.starts_with("retry:");
}

namespace {

// The one reading of an event stream: `on_event(event, data, data_lines)`
// for each dispatched event (data lines joined with LF, as the SSE spec
// says), stopping when it returns false. With `kSpans`, `data_lines` says
// where each data line of the event sits.
template <bool kSpans, typename F>
void read_events(std::string_view body, F&& on_event) {
  std::string_view event;
  std::string data;
  bool has_data = false;
  std::vector<SseLineSpan> lines;
  for (size_t pos = 0; pos < body.size();) {
    // A line ends in CRLF, LF or CR alone (the WHATWG event stream grammar).
    const size_t end = std::min(body.find_first_of("\r\n", pos), body.size());
    size_t next = end == body.size() ? end : end + 1;
    if (end < body.size() && body[end] == '\r' && next < body.size() && body[next] == '\n') ++next;
    const std::string_view line = body.substr(pos, end - pos);
    const size_t begin = pos;
    pos = next;
    if (line.empty()) {
      if (has_data && !on_event(event, data, lines)) return;
      event = {};
      data.clear();
      has_data = false;
      if constexpr (kSpans) lines.clear();
      continue;
    }
    if (line.front() == ':') continue;  // a comment
    size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : field_value(line, colon);
    if (name == "event") {
      event = value;
    } else if (name == "data") {
      if (has_data) data += '\n';
      data += value;
      has_data = true;
      if constexpr (kSpans) lines.push_back({begin, begin + line.size(), next});
    }
  }
  if (has_data) on_event(event, data, lines);  // a stream cut before its blank line
}

// Rebuilds `sse_body`, telling `sink` (if any) where each joined piece came from.
RebuiltAnswer rebuild(std::string_view sse_body, const Limits& limits, const PieceSink* sink) {
  Rebuilder r(limits, sink);
  size_t rank = 0;
  read_events<false>(sse_body, [&](std::string_view, std::string_view data, const std::vector<SseLineSpan>&) {
    if (data != "[DONE]") r.on_event(data, rank);
    ++rank;
    return true;
  });
  return r.finish();
}

}  // namespace

void for_each_sse_event(std::string_view body,
                        const std::function<bool(std::string_view, std::string_view)>& on_event) {
  read_events<false>(body, [&](std::string_view event, std::string_view data, const std::vector<SseLineSpan>&) {
    return on_event(event, data);
  });
}

void for_each_sse_event_lines(
    std::string_view body,
    const std::function<void(size_t rank, std::string_view data, const std::vector<SseLineSpan>& data_lines)>& on_event) {
  size_t rank = 0;
  read_events<true>(body, [&](std::string_view, std::string_view data, const std::vector<SseLineSpan>& lines) {
    on_event(rank++, data, lines);
    return true;
  });
}

std::vector<std::string_view> RebuiltAnswer::text_blocks() const {
  std::vector<std::string_view> out;
  for (const auto& b : blocks) {
    if (b.kind == RebuiltBlock::Kind::text) out.push_back(b.text);
  }
  return out;
}

RebuiltAnswer rebuild_message(std::string_view json_body, const Limits& limits) {
  // A tool input sits inside the Message (a stream sends it as a string):
  // the depth bound of JSON nested in a record applies.
  Rebuilder r(nested_limits(limits));
  r.on_message(json_body);
  return r.finish();
}

RebuiltAnswer rebuild_answer(std::string_view sse_body, const Limits& limits) { return rebuild(sse_body, limits, nullptr); }

std::vector<SseStrand> sse_strands(std::string_view sse_body, const Limits& limits) {
  std::vector<SseStrand> strands;
  std::map<std::pair<int64_t, Strand>, size_t> index;  // (block, strand) -> place in `strands`
  const PieceSink sink = [&](const PieceSource& from, std::string_view piece) {
    auto [it, fresh] = index.try_emplace({from.block, from.strand}, strands.size());
    if (fresh) strands.emplace_back();
    SseStrand& s = strands[it->second];
    s.pieces.push_back({from.event, std::string(from.pointer), s.text.size(), piece.size()});
    s.text += piece;
  };
  (void)rebuild(sse_body, limits, &sink);
  return strands;
}

}  // namespace goalcup
