// The judge's reference lists and thresholds (schemas/cheatcheck-policy.schema.json).
// Checks that need a list are skipped, and say so, when it is absent;
// thresholds have documented defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/bodies.h"
#include "core/error.h"

namespace goalcup::cheat {

struct HarnessBuild {
  std::string version;         // optional
  std::string program_digest;  // optional; at least one digest is given
  std::string image_digest;    // optional
};

using DecryptRule = CaptureRule;

struct ConnectorRelease {
  std::string id;
  std::string version;
  std::string digest;
  std::vector<DecryptRule> decrypt;
  bool has_decrypt = false;
  // The hosts the release always passes through (capture.tunnel), when listed.
  std::vector<std::string> tunnel;
  bool has_tunnel = false;
};

struct Thresholds {
  double max_exit_to_seal_seconds = 30;
  double max_clock_skew_seconds = 5;
  // How long after a record the server may ack it: acks are rate-limited
  // and a large body takes time to upload, so this is wider than the skew.
  double max_ack_delay_seconds = 60;
  double max_unattested_share = 0;  // of records; above it GC01 is high
};

struct Policy {
  bool loaded = false;
  std::vector<std::pair<std::string, std::vector<HarnessBuild>>> harness_builds;  // by harness id
  bool has_harness_builds = false;
  std::vector<ConnectorRelease> connectors;
  bool has_connectors = false;
  std::vector<std::string> models;
  bool has_models = false;
  std::vector<std::string> redactor_rules;  // rule names the recorder's redactor knows
  Thresholds thresholds;
};

Result<Policy> load_policy(const std::string& path);
Result<Policy> parse_policy(std::string_view json_text);

}  // namespace goalcup::cheat
