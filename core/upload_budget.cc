#include "core/upload_budget.h"

#include <string>

#include "core/source.h"

namespace goalcup {
namespace {

class BudgetedSource final : public ByteSource {
 public:
  BudgetedSource(std::unique_ptr<ByteSource> inner, std::shared_ptr<UploadBudget> budget)
      : inner_(std::move(inner)), budget_(std::move(budget)) {}
  Result<size_t> read(char* buf, size_t cap) override {
    auto n = inner_->read(buf, cap);
    if (!n) return n;
    GOALCUP_RETURN_IF_ERROR(budget_->add_read(*n));
    return n;
  }
  std::optional<Error> cut() const override { return inner_->cut(); }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::shared_ptr<UploadBudget> budget_;
};

}  // namespace

UploadBudget::UploadBudget(const Limits& limits)
    : limits_(limits), deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(limits.max_seconds)) {}

Status UploadBudget::check_time() const {
  if (std::chrono::steady_clock::now() <= deadline_) return {};
  return Error{Code::limit_time, -1,
               "reading the upload took more than " + std::to_string(limits_.max_seconds) +
                   " s in all; raise --max-seconds"};
}

Status UploadBudget::add_read(uint64_t n) {
  read_ += n;
  return check_time();
}

Status UploadBudget::add_inflated(uint64_t n) {
  const uint64_t inflated = inflated_ += n;
  if (inflated > limits_.max_total_bytes) {
    return Error{Code::limit_total_bytes, -1,
                 "the upload decompresses to more than " + std::to_string(limits_.max_total_bytes) +
                     " bytes in all; raise --max-total-bytes"};
  }
  if (inflated > kZstdRatioSlack + uint64_t{limits_.max_zstd_ratio} * read_.load()) {
    return Error{Code::limit_zstd_ratio, -1,
                 "the upload's members together decompress to more than " + std::to_string(limits_.max_zstd_ratio) +
                     "x its size (decompression bombs?); raise --max-zstd-ratio"};
  }
  return check_time();
}

Status UploadBudget::add_members(uint64_t n) {
  if ((members_ += n) > limits_.max_archive_members) {
    return Error{Code::limit_archive_members, -1,
                 "the upload has more than " + std::to_string(limits_.max_archive_members) +
                     " members and files in all; raise --max-archive-members"};
  }
  return {};
}

std::unique_ptr<ByteSource> budgeted_source(std::unique_ptr<ByteSource> inner, std::shared_ptr<UploadBudget> budget) {
  return std::make_unique<BudgetedSource>(std::move(inner), std::move(budget));
}

}  // namespace goalcup
