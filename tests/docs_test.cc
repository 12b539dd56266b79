// Documentation that must stay in step with the code.
#include <fstream>
#include <sstream>

#include "tests/support.h"

namespace goalcup {
namespace {

std::string read(const std::string& rel) {
  std::ifstream in(testing::source_path(rel));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Docs, EveryErrorCodeIsDocumented) {
  const std::string doc = read("docs/ERRORS.md");
  ASSERT_FALSE(doc.empty());
  for (Code c : all_codes()) {
    EXPECT_NE(doc.find("`" + std::string(code_name(c)) + "`"), std::string::npos) << code_name(c);
  }
}

TEST(Docs, VerifyReportSchemaNamesEveryField) {
  const std::string schema = read("schemas/verify-report.schema.json");
  for (const char* field : {"file", "verdict", "incomplete_reason", "key_source", "warnings", "errors", "entry_id",
                            "run_id", "records", "head", "attested_through_seq", "unattested_records",
                            "unattested_wire_bytes", "statements", "checks"}) {
    EXPECT_NE(schema.find("\"" + std::string(field) + "\""), std::string::npos) << field;
  }
}

}  // namespace
}  // namespace goalcup
