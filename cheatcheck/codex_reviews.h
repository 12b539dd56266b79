// A Codex review's verdict held to the reviewer's own answer (red-team 20b
// #3). /review runs a reviewer turn between an entered_review_mode and an
// exited_review_mode event; Codex takes that turn's last answer and reads
// it as a ReviewOutputEvent (the text from its first '{' to its last '}',
// JSON {findings: [{title, body, confidence_score, priority, code_location:
// {absolute_file_path, line_range: {start, end}}}], overall_correctness,
// overall_explanation, overall_confidence_score}); an answer that does not
// read so becomes the explanation whole. exited_review_mode logs what it
// read (review_output), so each logged value must be the answer's: the same
// findings with every member equal, the same correctness and explanation.
//
// The reviewer's answer is the last answer streamed after the review's
// entered_review_mode line and before its exited_review_mode line, when
// that answer ends the turn (text, no tool call) and is whole and stored
// unredacted; otherwise it is not known and the review is not judged here
// (GC04 then holds the verdict's texts to the answers streamed, as before).
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "cheatcheck/finding.h"
#include "core/sse.h"

namespace goalcup::cheat {

class CodexReviews {
 public:
  // A Codex rollout line as parsed (`line`: its document), of `file`.
  void logged(simdjson::dom::element line, std::string_view file, uint64_t seq);
  // An answer streamed by a provider Codex talks to (not Anthropic's).
  // `comparable`: stored whole and unredacted.
  void streamed(const RebuiltAnswer& a, uint64_t seq, bool comparable);

  struct Differs {
    uint64_t seq = 0;         // the exited_review_mode line's
    uint64_t answer_seq = 0;  // the reviewer's answer's response
    std::string what;         // what the log says otherwise, for people
  };
  struct Judgement {
    std::vector<Differs> differs;
    absl::flat_hash_set<uint64_t> judged;  // exited_review_mode lines held to their reviewer's answer
    // Verdicts whose file logs no entered_review_mode before them: Codex
    // persists both events, so the review's start was taken out (or a
    // release does not write it); the reviewer's answer is not known.
    SeqList unopened;
  };
  Judgement judge();

 private:
  struct Answer {
    uint64_t seq = 0;
    bool ends_turn = false;          // finished, comparable, text and no tool call
    std::vector<std::string> texts;  // its last message's text, then (when other) all its text
  };
  struct Review {
    uint64_t seq = 0;
    std::string output;  // review_output, minified
    Answer answer;
  };
  static constexpr size_t kMaxReviews = 4096;
  static constexpr uint64_t kMaxKeptBytes = 16ull << 20;

  std::optional<std::string> open_file_;  // the file whose review is open
  std::optional<Answer> last_;            // the last answer streamed while it is
  std::vector<Review> reviews_;
  SeqList unopened_;
  uint64_t kept_bytes_ = 0;
  simdjson::dom::parser logged_parser_, answer_parser_;
};

}  // namespace goalcup::cheat
