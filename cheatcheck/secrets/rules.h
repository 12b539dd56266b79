// The credential formats the scanner knows. Token formats are public facts
// (each provider documents its prefixes); the patterns are our own. Each
// rule finds candidates with one multi-pattern scan (matcher.h) and then
// extracts and validates the secret itself (checksums, entropy, blocks).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cheatcheck/finding.h"

namespace goalcup::cheat {

// How the secret is cut out of a candidate. Candidates are short, fixed
// patterns (Hyperscan keeps them small and fast); the secret is then grown
// over its character set here.
enum class Extract : uint8_t {
  token,         // the match, grown right over `chars` up to max_len
  github,        // a token whose CRC32 checksum is verified
  jwt,           // three dot-separated base64url segments
  discord,       // grown both ways around its ".xxxxxx." middle
  azure,         // three characters before "<digit>Q~", grown right
  pem_block,     // from BEGIN to the end of the END line
  putty_key,     // a PuTTY .ppk private key file, from its first line to its Private-MAC line
  value,         // the value after the match (key=value, headers, bearer)
  url_userinfo,  // the password of scheme://user:password@host (match ends at '@')
  shell_user,    // curl -u user:password: the password (the user if none)
  docker_auth,   // "auth": base64 of user:password
  value_before,  // the quoted value before `== name`
  bot_token,     // <bot id>:<secret>, the id's 8-10 digits before the match
  cli_password,  // the password argument of a command (-p X, --password=X, -Password X)
  kube_token,    // a Kubernetes bootstrap token (<6>.<16>) or its secret half after the match
  provider_value,  // a key of its provider's shape assigned to a name holding the provider's name
  near_keyword,    // a token-like value after a credential word and spaces ("client secret <v>")
  ssh2_block,      // an RFC 4716 / ssh.com key block ("---- BEGIN SSH2 ... PRIVATE KEY ----")
  jwk_member,      // a private member of a JSON Web Key ("d", "p", "k"...) in an object with "kty"
  der_key,         // base64 of a DER private key (PKCS#8 plain or encrypted, PKCS#1, SEC1), its structure checked
  aws_cli_row,     // the secret (or session token) on an AWS key id's row of the AWS CLI's text output
};

// Character sets for growing a token.
enum class Chars : uint8_t { none, alnum, alnum_dash, alnum_dash_dot, b64, pct_b64, token68, url_path, value };

struct Rule {
  std::string_view id;       // also the name a recorder's redactor would use
  std::string_view pattern;  // Hyperscan syntax, fixed or short repeats only
  Extract extract = Extract::token;
  Chars chars = Chars::none;  // what the secret may grow over
  uint16_t min_len = 0, max_len = 0;  // of the secret (0: no bound)
  Severity severity = Severity::high;
  bool caseless = false;
  bool left_boundary = true;  // the char before must not be a letter or digit
  std::string_view description;
  // Length of every match of `pattern`, so that its start is end - length
  // (the matcher reports ends only: start-of-match tracking would cost
  // Hyperscan far more). 0 for rules that only need the end (values) or
  // find their start themselves (PEM).
  uint16_t match_len = 0;
  // Characters of the secret before its match, all alphanumeric: a random
  // head the pattern leaves out so that it can start with a literal
  // (Terraform's <14>.atlasv1., Azure DevOps' <52>JQQJ99).
  uint8_t lead = 0;
  // What the lead may hold: letters and digits, or base64 (Azure's
  // identifiable keys, whose signature sits at a fixed place inside).
  Chars lead_chars = Chars::alnum;
};

std::span<const Rule> secret_rules();
// Called by the matcher before each scan: the extractors' memory of the
// runs of a text (read once for all its candidates) is forgotten then.
void note_new_scan();
// Index of the rule with this id, if any.
std::optional<size_t> rule_index(std::string_view id);

// Validates and cuts the secret out of a candidate match [start, end) in
// `text`. Returns the secret's [start, end) and its severity, or nothing.
struct Extracted {
  size_t start = 0, end = 0;
  Severity severity = Severity::high;
  std::string note;  // e.g. "checksum does not match"
};
// A generic assignment's bare value stops at `value_limit`, where the next
// assignment on the line begins: `secret=secret=...` is many empty values,
// not one value per name each running to the end of the line (which made a
// line of chained assignments cost its length squared).
std::optional<Extracted> extract_secret(const Rule& rule, std::string_view text, size_t start, size_t end,
                                        size_t value_limit = SIZE_MAX);
// Where the assignment whose value starts at `value_start` begins: the
// first character of the name assigned to (value_start if there is none).
size_t assignment_start(std::string_view text, size_t value_start);

// Whether `value` assigned to `name` (a JSON member, a header) passes the
// generic-secret rule's judgement of names and values.
bool generic_assignment(std::string_view name, std::string_view value);
// False when generic_assignment(name, value) is false for certain: the
// cheap first test of its judgement (the value's length, the name).
bool may_be_generic_assignment(std::string_view name, std::string_view value);

// HTTP header names whose values are credentials whatever their format
// (compared without regard to case, as HTTP does).
std::span<const std::string_view> sensitive_header_names();
bool sensitive_header(std::string_view name);

// Masked preview: a short prefix and the length, never the secret.
std::string mask_secret(std::string_view secret);
// Shannon entropy in bits per character.
double shannon_entropy(std::string_view s);

}  // namespace goalcup::cheat
