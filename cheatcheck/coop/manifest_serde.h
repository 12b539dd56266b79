// What coop's parser makes of a hen manifest: serde_yaml 0.9.34
// (`serde_yaml::from_str::<AgentManifest>`, src/de.rs at that tag) with
// coop's AgentManifest, NetworkSpec and their parts (coop 8a1ef75,
// crates/coopd-core/src/manifest.rs and net.rs), replayed on yaml-cpp's tree.
//
// serde_yaml types a scalar by the field it lands in, not by YAML's
// resolution: a plain `null` or `~` in a String field is the text "null" or
// "~"; an integer is plain only (0x/0o/0b and a leading + allowed, a leading
// zero or quotes refused); a bool is plain true/True/TRUE/false/False/FALSE;
// an enum is its variant's exact name; a sequence or mapping may also be an
// empty plain scalar; collections nest at most 128 deep; a stream holds one
// document. yaml-cpp loses two things it needs: a null's text (recovered
// from the input at the node's mark) and a scalar's style (its tag: "?"
// plain, "!" quoted or block).
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace goalcup::cheat {

struct SerdeRefusal {
  std::string key;      // where, as "brain.fallbacks[0].model"
  std::string message;  // why, in serde's terms
  bool repeated = false;  // a field or mapping key given twice
};

struct SerdeVerdict {
  std::optional<SerdeRefusal> refusal;  // nullopt: serde_yaml accepts it
  bool judged = true;  // false: too many nodes to walk (aliases), not judged
};

// `text` is the manifest, `root` its first document as yaml-cpp read it.
SerdeVerdict serde_manifest(std::string_view text, const YAML::Node& root);

// The text serde_yaml hands a String field for this scalar (a null's own
// text: "null", "~", or "" when nothing was written).
std::string serde_string(std::string_view text, const YAML::Node& node);

// serde_yaml's parse_unsigned_int as u64 (nullopt: not an unsigned integer).
std::optional<uint64_t> serde_unsigned(std::string_view scalar);

}  // namespace goalcup::cheat
