#include "cheatcheck/codex_reviews.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <span>

#include <absl/container/flat_hash_map.h>

#include "cheatcheck/said_text.h"
#include "core/json_strict.h"

namespace goalcup::cheat {
namespace codex_reviews_detail {

using simdjson::dom::element;
using simdjson::dom::element_type;
using Members = absl::flat_hash_map<std::string_view, element>;

// Compared member by member to this depth, deeper as minified text.
constexpr int kMaxDepth = 64;
// serde_json's recursion limit: Codex reads no deeper answer as JSON.
constexpr int kSerdeDepth = 128;

// A member of Codex's ReviewOutputEvent (or of a struct in it); `list`: an
// array of `members`-shaped objects.
struct Field {
  std::string_view name;
  std::span<const Field> members = {};
  bool list = false;
};
constexpr Field kLineRange[] = {{"start"}, {"end"}};
constexpr Field kLocation[] = {{"absolute_file_path"}, {"line_range", kLineRange}};
constexpr Field kFinding[] = {{"title"}, {"body"}, {"confidence_score"}, {"priority"}, {"code_location", kLocation}};
constexpr Field kOutput[] = {
    {"findings", kFinding, true}, {"overall_correctness"}, {"overall_explanation"}, {"overall_confidence_score"}};

// Typed views of an element whose type was checked (defaults otherwise).
std::string_view text_of(element e) {
  std::string_view s;
  return e.get(s) ? std::string_view() : s;
}
simdjson::dom::array array_of(element e) {
  simdjson::dom::array a;
  return e.get(a) ? simdjson::dom::array() : a;
}
simdjson::dom::object object_of(element e) {
  simdjson::dom::object o;
  return e.get(o) ? simdjson::dom::object() : o;
}
double number_of(element e) {
  double d = 0;
  return e.get_double().get(d) ? 0 : d;
}
bool bool_of(element e) {
  bool b = false;
  return e.get(b) ? false : b;
}

// An object's members by name: the first of a name that repeats (as
// simdjson's lookup finds it), `repeats` set then.
Members members_of(simdjson::dom::object o, bool* repeats = nullptr) {
  Members m;
  m.reserve(o.size());
  for (auto field : o) {
    if (!m.try_emplace(field.key, field.value).second && repeats) *repeats = true;
  }
  return m;
}

std::optional<element> member_of(const Members& m, std::string_view key) {
  const auto it = m.find(key);
  return it == m.end() ? std::nullopt : std::optional<element>(it->second);
}

bool is_number(element e) {
  const element_type t = e.type();
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

// What Codex writes for a member the answer left out (serde's default):
// null, "", 0, false, [] or an object of such.
bool is_default(element e, int depth = 0) {
  switch (e.type()) {
    case element_type::NULL_VALUE:
      return true;
    case element_type::STRING:
      return text_of(e).empty();
    case element_type::BOOL:
      return !bool_of(e);
    case element_type::ARRAY:
      return array_of(e).size() == 0;
    case element_type::OBJECT:
      if (depth >= kMaxDepth) return false;
      for (auto field : object_of(e)) {
        if (!is_default(field.value, depth + 1)) return false;
      }
      return true;
    default:
      return number_of(e) == 0;
  }
}

// Numbers by value: Codex holds scores as f32 and writes them back in
// their shortest form (0.95 logged for 0.950 answered, 0.12345679 for
// 0.123456789).
bool same_number(element a, element b) {
  const double x = number_of(a), y = number_of(b);
  if (x == y) return true;
  const bool in_float = std::abs(x) <= FLT_MAX && std::abs(y) <= FLT_MAX;
  return in_float && static_cast<float>(x) == static_cast<float>(y);
}

// A value as logged and as answered, a member absent on either side being
// its default; members only the answer has are ones Codex drops.
bool same_value(std::optional<element> logged, std::optional<element> answered, int depth = 0) {
  if (!logged || !answered) return !logged ? !answered || is_default(*answered) : is_default(*logged);
  const element l = *logged, a = *answered;
  if (is_number(l) && is_number(a)) return same_number(l, a);
  if (l.type() != a.type()) return false;
  if ((l.type() == element_type::ARRAY || l.type() == element_type::OBJECT) && depth >= kMaxDepth) {
    return simdjson::minify(l) == simdjson::minify(a);
  }
  switch (l.type()) {
    case element_type::STRING:
      return text_of(l) == text_of(a);
    case element_type::BOOL:
      return bool_of(l) == bool_of(a);
    case element_type::ARRAY: {
      const simdjson::dom::array la = array_of(l), aa = array_of(a);
      if (la.size() != aa.size()) return false;
      auto it = aa.begin();
      for (element item : la) {
        if (it == aa.end() || !same_value(item, *it, depth + 1)) return false;
        ++it;
      }
      return true;
    }
    case element_type::OBJECT: {
      const Members answered_members = members_of(a);
      for (auto field : object_of(l)) {
        if (!same_value(field.value, member_of(answered_members, field.key), depth + 1)) return false;
      }
      return true;
    }
    default:
      return true;  // null
  }
}

std::string member_path(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : std::string(path) + "." + std::string(name);
}

std::string differs_in(std::optional<element> logged, std::optional<element> answered, std::span<const Field> shape,
                       const std::string& path);

// A list of Codex's structs (findings): as many, each the same.
std::string list_differs(std::optional<element> logged, std::optional<element> answered, std::span<const Field> shape,
                         const std::string& path) {
  const bool l_list = !logged || logged->type() == element_type::ARRAY;
  const bool a_list = !answered || answered->type() == element_type::ARRAY;
  if (!l_list || !a_list) return same_value(logged, answered) ? "" : path + " differs";
  const size_t l_count = logged ? array_of(*logged).size() : 0;
  const size_t a_count = answered ? array_of(*answered).size() : 0;
  if (l_count != a_count) {
    return "the number of " + path + " differs (" + std::to_string(l_count) + " logged, " + std::to_string(a_count) +
           " answered)";
  }
  if (l_count == 0) return "";
  const simdjson::dom::array la = array_of(*logged), aa = array_of(*answered);
  auto it = aa.begin();
  size_t i = 0;
  for (element item : la) {
    std::string d = differs_in(item, *it, shape, path + "[" + std::to_string(i++) + "]");
    if (!d.empty()) return d;
    ++it;
  }
  return "";
}

// The first member of a Codex struct (of `shape`) the log holds otherwise
// than the answer, as "<path> differs"; empty when none. An absent struct
// is one of defaults; members only the log has must be defaults.
std::string differs_in(std::optional<element> logged, std::optional<element> answered, std::span<const Field> shape,
                       const std::string& path) {
  const bool l_object = !logged || logged->type() == element_type::OBJECT;
  const bool a_object = !answered || answered->type() == element_type::OBJECT;
  if (!l_object || !a_object) return same_value(logged, answered) ? "" : path + " differs";
  const Members l = logged ? members_of(object_of(*logged)) : Members();
  const Members a = answered ? members_of(object_of(*answered)) : Members();
  for (const Field& f : shape) {
    const std::string at = member_path(path, f.name);
    const auto lv = member_of(l, f.name), av = member_of(a, f.name);
    std::string d = f.list                ? list_differs(lv, av, f.members, at)
                    : !f.members.empty() ? differs_in(lv, av, f.members, at)
                    : same_value(lv, av) ? std::string()
                                         : at + " differs";
    if (!d.empty()) return d;
  }
  if (!logged) return "";
  for (auto field : object_of(*logged)) {
    const bool known = std::any_of(shape.begin(), shape.end(), [&](const Field& f) { return f.name == field.key; });
    if (!known && !same_value(field.value, member_of(a, field.key))) return member_path(path, field.key) + " differs";
  }
  return "";
}

bool deeper_than(element e, int depth) {
  if (depth <= 0) return true;
  if (e.type() == element_type::ARRAY) {
    for (element item : array_of(e)) {
      if (deeper_than(item, depth - 1)) return true;
    }
  } else if (e.type() == element_type::OBJECT) {
    for (auto field : object_of(e)) {
      if (deeper_than(field.value, depth - 1)) return true;
    }
  }
  return false;
}

bool is_integer_in(std::optional<element> e, int64_t low, int64_t high) {
  if (!e) return false;
  int64_t i = 0;
  uint64_t u = 0;
  if (e->type() == element_type::INT64 && !e->get_int64().get(i)) return i >= low && i <= high;
  if (e->type() == element_type::UINT64 && !e->get_uint64().get(u)) return high >= 0 && u <= static_cast<uint64_t>(high);
  return false;
}

bool is_type(std::optional<element> e, element_type t) { return e && e->type() == t; }
bool is_num(std::optional<element> e) { return e && is_number(*e); }

// The members of a struct, each once; false when it is no object.
std::optional<Members> struct_members(std::optional<element> e) {
  if (!is_type(e, element_type::OBJECT)) return std::nullopt;
  bool repeats = false;
  Members m = members_of(object_of(*e), &repeats);
  if (repeats) return std::nullopt;
  return m;
}

bool valid_finding(element e) {
  const auto f = struct_members(e);
  if (!f || !is_type(member_of(*f, "title"), element_type::STRING) || !is_type(member_of(*f, "body"), element_type::STRING) ||
      !is_num(member_of(*f, "confidence_score")) || !is_integer_in(member_of(*f, "priority"), INT32_MIN, INT32_MAX)) {
    return false;
  }
  const auto location = struct_members(member_of(*f, "code_location"));
  if (!location || !is_type(member_of(*location, "absolute_file_path"), element_type::STRING)) return false;
  const auto range = struct_members(member_of(*location, "line_range"));
  return range && is_integer_in(member_of(*range, "start"), 0, UINT32_MAX) && is_integer_in(member_of(*range, "end"), 0, UINT32_MAX);
}

// An answer every Codex release reads as these values (all members there,
// of their types, none repeated): it cannot have become a plain
// explanation.
bool read_by_every_release(element answer) {
  const auto o = struct_members(answer);
  if (!o || !is_type(member_of(*o, "overall_correctness"), element_type::STRING) ||
      !is_type(member_of(*o, "overall_explanation"), element_type::STRING) || !is_num(member_of(*o, "overall_confidence_score"))) {
    return false;
  }
  const auto findings = member_of(*o, "findings");
  if (!is_type(findings, element_type::ARRAY)) return false;
  for (element f : array_of(*findings)) {
    if (!valid_finding(f)) return false;
  }
  return !deeper_than(answer, kSerdeDepth);
}

// What Codex makes of an answer it does not read as JSON: the answer as
// the explanation, nothing else.
std::string plain_differs(element logged, std::string_view answer) {
  if (logged.type() != element_type::OBJECT) return "review_output differs";
  const Members l = members_of(object_of(logged));
  for (const Field& f : kOutput) {
    const auto lv = member_of(l, f.name);
    if (f.name == "overall_explanation") {
      if (!is_type(lv, element_type::STRING) || trimmed_text(text_of(*lv)) != trimmed_text(answer)) {
        return "overall_explanation differs from the reviewer's plain answer";
      }
    } else if (lv && !is_default(*lv)) {
      return std::string(f.name) + " differs (the reviewer answered in plain text)";
    }
  }
  for (auto field : object_of(logged)) {
    const bool known = std::any_of(std::begin(kOutput), std::end(kOutput), [&](const Field& f) { return f.name == field.key; });
    if (!known && !is_default(field.value)) return std::string(field.key) + " differs (the reviewer answered in plain text)";
  }
  return "";
}

enum class Read { json, plain, unsure };

// The answer as Codex reads it: JSON from its first '{' to its last '}',
// or plain text. Unsure where serde may read what simdjson does not (a
// number past its range, a whole answer that is an array: serde reads a
// struct from a sequence too).
Read read_answer(std::string_view text, simdjson::dom::parser& parser, element* out) {
  const std::string_view whole = trimmed_text(text);
  if (whole.starts_with('[')) {
    element root;
    if (!parser.parse(whole.data(), whole.size(), true).get(root) && root.type() == element_type::ARRAY) return Read::unsure;
  }
  const size_t open = text.find('{'), close = text.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return Read::plain;
  const auto error = parser.parse(text.data() + open, close - open + 1, true).get(*out);
  if (!error) return Read::json;
  const bool number = error == simdjson::NUMBER_ERROR || error == simdjson::NUMBER_OUT_OF_RANGE;
  return number ? Read::unsure : Read::plain;
}

struct Outcome {
  Read read = Read::plain;
  std::string differs;  // empty: the log holds what Codex read
};

Outcome compare(element logged, std::string_view answer, simdjson::dom::parser& parser) {
  element answered;
  const Read read = read_answer(answer, parser, &answered);
  if (read == Read::unsure) return {read, {}};
  std::string as_json;
  if (read == Read::json) {
    as_json = differs_in(logged, answered, kOutput, "");
    if (as_json.empty() || read_by_every_release(answered)) return {read, std::move(as_json)};
  }
  // Releases that need every member read an answer short of one as plain text.
  std::string as_plain = plain_differs(logged, answer);
  if (as_plain.empty()) return {read, {}};
  return {read, read == Read::json ? std::move(as_json) : std::move(as_plain)};
}

}  // namespace codex_reviews_detail

namespace crd = codex_reviews_detail;

void CodexReviews::logged(simdjson::dom::element line, std::string_view file, uint64_t seq) {
  simdjson::dom::object o, payload;
  std::string_view type, event;
  if (line.get(o) || json::string(o, "type", &type) != json::Get::ok || type != "event_msg" ||
      json::object(o, "payload", &payload) != json::Get::ok || json::string(payload, "type", &event) != json::Get::ok) {
    return;
  }
  // Later releases (0.171) log a review's start and verdict as completed
  // items (EnteredReviewMode, ExitedReviewMode with its review_output), not
  // as events: read as the events they stand for.
  simdjson::dom::object item;
  std::string_view item_type;
  if (event == "item_completed" && json::object(payload, "item", &item) == json::Get::ok &&
      json::string(item, "type", &item_type) == json::Get::ok) {
    if (item_type == "EnteredReviewMode") event = "entered_review_mode";
    if (item_type == "ExitedReviewMode") {
      event = "exited_review_mode";
      payload = item;
    }
  }
  if (event == "entered_review_mode") {
    open_file_ = std::string(file);
    last_.reset();
    return;
  }
  if (event != "exited_review_mode") return;
  const bool opened = open_file_ && *open_file_ == file;
  std::optional<Answer> answer = opened ? std::move(last_) : std::nullopt;
  open_file_.reset();
  last_.reset();
  simdjson::dom::element output;
  if (payload.at_key("review_output").get(output) || output.type() != simdjson::dom::element_type::OBJECT) return;
  if (!opened) unopened_.add(seq);
  if (!answer || !answer->ends_turn || reviews_.size() >= kMaxReviews) return;
  std::string minified = simdjson::minify(output);
  uint64_t bytes = minified.size();
  for (const std::string& text : answer->texts) bytes += text.size();
  if (kept_bytes_ + bytes > kMaxKeptBytes) return;
  kept_bytes_ += bytes;
  reviews_.push_back({seq, std::move(minified), std::move(*answer)});
}

void CodexReviews::streamed(const RebuiltAnswer& a, uint64_t seq, bool comparable) {
  if (!open_file_) return;
  Answer answer{seq, false, {}};
  const bool calls = std::any_of(a.tool_calls.begin(), a.tool_calls.end(),
                                 [](const RebuiltToolCall& c) { return !c.provider_run && c.choice == 0; });
  std::string_view last;
  for (std::string_view block : a.text_blocks()) {
    if (!trimmed_text(block).empty()) last = block;
  }
  answer.ends_turn = comparable && a.finished && a.error.empty() && !calls && !last.empty() &&
                     a.stop_reason != "max_tokens" && a.stop_reason != "incomplete";
  if (answer.ends_turn) {
    answer.texts.emplace_back(last);
    if (a.text != last) answer.texts.push_back(a.text);
  }
  last_ = std::move(answer);
}

CodexReviews::Judgement CodexReviews::judge() {
  Judgement j;
  j.unopened = unopened_;
  for (const Review& r : reviews_) {
    simdjson::dom::element logged;
    if (logged_parser_.parse(r.output).get(logged)) continue;
    std::optional<std::string> differs;
    bool unsure = false;
    for (const std::string& text : r.answer.texts) {
      crd::Outcome outcome = crd::compare(logged, text, answer_parser_);
      if (outcome.read == crd::Read::unsure) {
        unsure = true;
      } else if (outcome.differs.empty()) {
        differs.reset();
        unsure = false;
        break;
      } else if (!differs) {
        differs = std::move(outcome.differs);
      }
    }
    if (unsure) continue;  // not judged: GC04 holds its texts as before
    j.judged.insert(r.seq);
    if (differs) j.differs.push_back({r.seq, r.answer.seq, std::move(*differs)});
  }
  return j;
}

}  // namespace goalcup::cheat
