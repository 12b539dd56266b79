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

// The report schemas are checked against what the tools emit, both ways, by
// tests/schema_check.py (CTest: SchemaCheck), not against a list kept here.

}  // namespace
}  // namespace goalcup
