// The secret engine: rules, decoders, recall on the leaks sample, no noise
// on clean traces, and scan mode.
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <tuple>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cheatcheck/context.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/decoders.h"
#include "cheatcheck/secrets/engine.h"
#include "cheatcheck/secrets/file_scan.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/secrets/scan_cache.h"
#include "cheatcheck/secrets/scan_pool.h"
#include "cheatcheck/secrets/record_texts.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "cli/json_writer.h"
#include "core/keyring.h"
#include "core/record.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

std::vector<SecretHit> scan(std::string_view text) {
  SecretEngine engine{Limits{}};
  std::vector<SecretHit> hits;
  engine.scan(text, "", &hits);
  return hits;
}

// The data part of an age public key (bech32 characters, any checksum).
std::string random_chars_for_age() { return testing::random_chars(58, 72, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"); }

std::string rule_of(const SecretHit& h) { return std::string(secret_rules()[h.rule].id); }

::testing::AssertionResult finds(std::string_view text, std::string_view rule, std::string_view secret,
                                 std::string_view chain = "") {
  for (const auto& h : scan(text)) {
    if (rule_of(h) == rule && h.secret == secret && h.chain == chain) return ::testing::AssertionSuccess();
  }
  std::string got;
  for (const auto& h : scan(text)) got += rule_of(h) + "(" + h.chain + ") ";
  return ::testing::AssertionFailure() << "no " << rule << " [" << chain << "] in: " << text.substr(0, 80)
                                       << "; found: " << got;
}

Severity highest(std::string_view text) {
  Severity s = Severity::info;
  for (const auto& h : scan(text)) s = std::max(s, h.severity);
  return s;
}

TEST(SecretRules, ProviderFormats) {
  using testing::random_chars;
  const std::string ant = "sk-ant-api03-" + random_chars(93, 1) + "AA";
  EXPECT_TRUE(finds("key " + ant + " end", "anthropic-key", ant));
  const std::string oat = "sk-ant-oat01-" + random_chars(80, 2) + "AA";
  EXPECT_TRUE(finds(oat, "anthropic-oauth", oat));
  const std::string admin = "sk-ant-admin01-" + random_chars(93, 3) + "AA";
  EXPECT_TRUE(finds("x " + admin + " y", "anthropic-admin-key", admin));
  const std::string legacy = "sk-" + random_chars(20, 4) + "T3BlbkFJ" + random_chars(20, 5);
  EXPECT_TRUE(finds(legacy, "openai-key", legacy));
  const std::string svc = "sk-svcacct-" + random_chars(40, 6) + "T3BlbkFJ" + random_chars(40, 7);
  EXPECT_TRUE(finds(svc, "openai-key", svc));
  EXPECT_TRUE(finds("AKIAIOSFODNN7EXAMPLQ", "aws-key-id", "AKIAIOSFODNN7EXAMPLQ"));
  EXPECT_TRUE(finds("aws_secret_access_key = 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", "aws-secret-key",
                    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQWERTYKQa"));
  const std::string google = "AIza" + random_chars(35, 8);
  EXPECT_TRUE(finds(google, "google-api", google));
  const std::string glpat = "glpat-" + random_chars(20, 9);
  EXPECT_TRUE(finds(glpat, "gitlab-pat", glpat));
  const std::string hf = "hf_" + random_chars(34, 10, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  EXPECT_TRUE(finds(hf, "hf-token", hf));
  const std::string npm = "npm_" + random_chars(36, 11);
  EXPECT_TRUE(finds(npm, "npm-token", npm));
  const std::string stripe = "sk_live_" + random_chars(24, 12);
  EXPECT_TRUE(finds(stripe, "stripe-live", stripe));
  const std::string slack = "xoxb-123456789012-123456789012-" + random_chars(24, 13);
  EXPECT_TRUE(finds(slack, "slack-bot", slack));
  const std::string azure = "abc8Q~" + random_chars(34, 14);
  EXPECT_TRUE(finds("secret: " + azure, "azure-client-secret", azure));
  const std::string discord = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl." + random_chars(30, 15);
  EXPECT_TRUE(finds("token " + discord + " ok", "discord-bot-token", discord));
  const std::string fine = "github_pat_" + random_chars(22, 16) + "_" + random_chars(59, 17);
  EXPECT_TRUE(finds(fine, "github-fine-grained-pat", fine));
}

// Formats of issue 16's second round, each written from its provider's
// documentation: one that must be found, and a near miss that must not be.
TEST(SecretRules, DocumentedPrefixFormats) {
  using testing::random_chars;
  const std::string hex = "0123456789abcdef", lower = "0123456789abcdefghijklmnopqrstuvwxyz";
  const std::string up = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  struct Case {
    std::string rule, token, near_miss;
  };
  const std::vector<Case> cases{
      {"docker-hub-token", "dckr_pat_" + random_chars(27, 31), "dckr_pat_" + random_chars(20, 31)},
      {"doppler-token", "dp.st.prd." + random_chars(43, 32), "dp.st." + random_chars(20, 32)},
      {"vault-token", "hvs." + random_chars(24, 33), "hvs." + random_chars(12, 33)},
      {"terraform-token", random_chars(14, 34) + ".atlasv1." + random_chars(67, 35),
       random_chars(14, 34) + ".atlasv1." + random_chars(30, 35)},
      {"heroku-key", "HRKU-AA" + random_chars(58, 36), "HRKU-AA" + random_chars(40, 36)},
      {"supabase-token", "sbp_" + random_chars(40, 37, hex), "sbp_" + random_chars(39, 37, hex)},
      {"linear-key", "lin_api_" + random_chars(40, 38), "lin_api_" + random_chars(30, 38)},
      {"notion-token", "ntn_" + random_chars(11, 39, "0123456789") + random_chars(35, 40),
       "ntn_" + random_chars(30, 40)},
      {"sentry-token", "sntryu_" + random_chars(64, 41, hex), "sntryu_" + random_chars(60, 41, hex)},
      {"grafana-token", "glsa_" + random_chars(32, 42) + "_" + random_chars(8, 43, hex), "glsa_" + random_chars(32, 42)},
      {"postman-key", "PMAK-" + random_chars(24, 44, hex) + "-" + random_chars(34, 45, hex),
       "PMAK-" + random_chars(24, 44, hex)},
      {"new-relic-key", "NRAK-" + random_chars(27, 46, up), "NRAK-" + random_chars(20, 46, up)},
      {"new-relic-key", random_chars(36, 47, hex) + "NRAL", random_chars(30, 47, hex) + "NRAL"},
      {"square-token", "sq0atp-" + random_chars(22, 48), "sq0atp-" + random_chars(15, 48)},
      {"shopify-token", "shpat_" + random_chars(32, 49, hex), "shpat_" + random_chars(32, 49, "ghijklmnop")},
      {"google-oauth-token", "ya29." + random_chars(80, 50), "ya29." + random_chars(10, 50)},
      {"groq-key", "gsk_" + random_chars(52, 51), "gsk_" + random_chars(40, 51)},
      {"xai-key", "xai-" + random_chars(80, 52), "xai-" + random_chars(40, 52)},
      {"perplexity-key", "pplx-" + random_chars(48, 53), "pplx-" + random_chars(30, 53)},
      {"openrouter-key", "sk-or-v1-" + random_chars(64, 54, hex), "sk-or-v1-" + random_chars(40, 54, hex)},
      {"replicate-token", "r8_" + random_chars(37, 55), "r8_" + random_chars(20, 55)},
      {"langsmith-key", "lsv2_pt_" + random_chars(32, 56, hex) + "_" + random_chars(10, 57, hex),
       "lsv2_pt_" + random_chars(32, 56, hex)},
      {"atlassian-token", "ATATT3" + random_chars(180, 58) + "=" + random_chars(8, 59, up),
       "ATATT3" + random_chars(40, 58)},
      {"azure-devops-pat", random_chars(52, 60) + "JQQJ99" + random_chars(18, 61) + "AZDO" + random_chars(4, 62),
       random_chars(40, 60) + "JQQJ99" + random_chars(18, 61) + "AZDO" + random_chars(4, 62)},
      {"mapbox-secret-token", "sk.eyJ1Ijoi" + random_chars(60, 63) + "." + random_chars(22, 64),
       "sk.eyJ1Ijoi" + random_chars(10, 63)},
      {"nuget-key", "oy2" + random_chars(43, 65, lower), "oy2" + random_chars(30, 65, lower)},
      {"mongodb-atlas-secret", "mdb_sa_sk_" + random_chars(40, 66), "mdb_sa_sk_" + random_chars(30, 66)},
      {"github-refresh", "ghr_" + random_chars(76, 67), "ghr_" + random_chars(60, 67)},
      {"typeform-token", "tfp_" + random_chars(44, 73), "tfp_" + random_chars(30, 73)},
      {"langfuse-key", "sk-lf-" + random_chars(8, 74, hex) + "-" + random_chars(4, 75, hex) + "-" + random_chars(4, 76, hex) +
                           "-" + random_chars(4, 77, hex) + "-" + random_chars(12, 78, hex),
       "sk-lf-" + random_chars(8, 74, hex)},
      {"pinecone-key", "pcsk_" + random_chars(5, 79) + "_" + random_chars(64, 80), "pcsk_" + random_chars(5, 79) + "_" +
                                                                                      random_chars(30, 80)},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(finds("KEY " + c.token + " end", c.rule, c.token));
    EXPECT_TRUE(scan("KEY " + c.near_miss + " end").empty()) << c.rule << ": " << c.near_miss;
  }
}

// Formats found missing on other scanners' samples (the held-out measure in
// docs/SECRETS.md), each written from its provider's documentation.
TEST(SecretRules, HeldOutPrefixFormats) {
  using testing::random_chars;
  const std::string hex = "0123456789abcdef";
  const std::string dash = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  auto uuid = [&](uint32_t seed) {
    return random_chars(8, seed, hex) + "-" + random_chars(4, seed + 1, hex) + "-4" + random_chars(3, seed + 2, hex) +
           "-a" + random_chars(3, seed + 3, hex) + "-" + random_chars(12, seed + 4, hex);
  };
  struct Case {
    std::string rule, token, near_miss;
  };
  const Case cases[] = {
      {"sourcegraph-token", "sgp_" + random_chars(40, 81, hex), "sgp_" + random_chars(30, 81, hex)},
      {"sourcegraph-token", "sgp_" + random_chars(16, 82, hex) + "_" + random_chars(40, 83, hex),
       "sgp_" + random_chars(16, 82, hex) + "_" + random_chars(20, 83, hex)},
      {"sourcegraph-token", "sgp_local_" + random_chars(40, 84, hex), "sgp_local_" + random_chars(20, 84, hex)},
      {"tavily-key", "tvly-" + random_chars(32, 85), "tvly-" + random_chars(20, 85)},
      {"tavily-key", "tvly-dev-" + random_chars(32, 86), "tvly-dev-" + random_chars(20, 86)},
      {"dependency-track-key", "odt_" + random_chars(32, 87), "odt_" + random_chars(20, 87)},
      {"adafruit-io-key", "aio_" + random_chars(28, 88), "aio_" + random_chars(20, 88)},
      {"jina-key", "jina_" + random_chars(60, 89), "jina_" + random_chars(40, 89)},
      {"dropbox-token", "sl." + random_chars(140, 90, dash), "sl." + random_chars(60, 90, dash)},
      {"mailgun-key", "key-" + random_chars(32, 91, hex), "key-" + random_chars(20, 91, hex)},
      {"jfrog-token", "AKCp" + random_chars(69, 135), "AKCp" + random_chars(50, 135)},
      {"jfrog-token", "cmVmdGtuOjAxOj" + random_chars(50, 136), "cmVmdGtuOjAxOj" + random_chars(30, 136)},
      {"msteams-webhook",
       "outlook.office.com/webhook/" + uuid(92) + "@" + uuid(97) + "/IncomingWebhook/" + random_chars(32, 102, hex) +
           "/" + uuid(103),
       "outlook.office.com/webhook/" + random_chars(8, 92, hex)},
      {"msteams-webhook",
       ".webhook.office.com/webhookb2/" + uuid(108) + "@" + uuid(113) + "/IncomingWebhook/" +
           random_chars(32, 118, hex) + "/" + uuid(119),
       ".webhook.office.com/webhookb2/" + random_chars(8, 108, hex)},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(finds("KEY " + c.token + " end", c.rule, c.token));
    EXPECT_TRUE(scan("KEY " + c.near_miss + " end").empty()) << c.rule << ": " << c.near_miss;
  }
  // Docker's config.json as a string in another file (GitLab's
  // DOCKER_AUTH_CONFIG), its quotes escaped once or twice.
  EXPECT_TRUE(finds(R"(  environment = ["DOCKER_AUTH_CONFIG={\"auths\":{\"reg.internal\":{\"auth\":\"Y2ktYm90OlpxOHJUMnZMbTlLdw==\"}}}"])",
                    "docker-auth", "Y2ktYm90OlpxOHJUMnZMbTlLdw=="));
  EXPECT_TRUE(finds(R"(cfg: "{\\\"auths\\\":{\\\"r\\\":{\\\"auth\\\":\\\"Y2ktYm90OlpxOHJUMnZMbTlLdw==\\\"}}}")", "docker-auth", "Y2ktYm90OlpxOHJUMnZMbTlLdw=="));
  EXPECT_TRUE(scan(R"(  environment = ["DOCKER_AUTH_CONFIG={\"auths\":{\"reg.internal\":{\"auth\":\"Y2ktYm90LW5vLWNvbG9uLWhlcmU=\"}}}"])").empty());
  // A Teams webhook's tenant comes before it: the URL is found from its host.
  const std::string hook = ".webhook.office.com/webhookb2/" + uuid(124) + "@" + uuid(129);
  EXPECT_TRUE(finds("url: https://contoso" + hook, "msteams-webhook", hook));
  EXPECT_EQ(highest("url: https://contoso" + hook), Severity::warning);  // a connector's, not IncomingWebhook
  EXPECT_TRUE(finds("SRC_ACCESS_TOKEN=sgp_" + random_chars(40, 134, "0123456789abcdefABCDEF"), "sourcegraph-token",
                    "sgp_" + random_chars(40, 134, "0123456789abcdefABCDEF")));
  // Inside base64 of binary data (after '+' or '/') EAAA starts no Square token.
  const std::string square = "EAAA" + random_chars(60, 88);
  EXPECT_TRUE(finds("SQUARE_TOKEN=" + square, "square-token", square));
  EXPECT_TRUE(scan("data:image/png;base64,iVBORw0KGgo+" + square + "+AAB").empty());
  // "Authorization: SSWS <token>" (Okta's scheme): the token, not the scheme.
  const std::string okta = "00" + random_chars(40, 68);
  EXPECT_TRUE(finds("Authorization: SSWS " + okta, "auth-header", okta));
  const std::string sas = random_chars(43, 69) + "=";
  EXPECT_TRUE(finds("Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=" + sas,
                    "azure-shared-access-key", sas));
  EXPECT_TRUE(scan("SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=short").empty());
  // A SAS URL's signature (percent-encoded base64), not its other parameters.
  const std::string sig = random_chars(20, 81) + "%2B" + random_chars(20, 82) + "%3D";
  EXPECT_TRUE(finds("https://acct.blob.core.windows.net/c?sv=2024-05-04&sr=c&sp=r&sig=" + sig, "azure-sas-signature", sig));
  EXPECT_TRUE(scan("SAS_TOKEN=sp=r&st=2026-01-02T03:04:05Z&se=2026-02-02T03:04:05Z&spr=https&sv=2024-05-04&sr=c").empty());
  // Storage and access keys under their usual names.
  const std::string account_key = random_chars(86, 83) + "==";
  EXPECT_TRUE(finds("storageAccountKey: " + account_key, "generic-secret", account_key));
  EXPECT_TRUE(finds("accessKey = \"" + account_key + "\"", "generic-secret", account_key));
  // A token whose random part is two interleaved counts is a fixture.
  EXPECT_TRUE(scan("client_secret=shpss_a1b2c3d4e5f6" + random_chars(20, 85, hex)).empty());
  EXPECT_TRUE(finds("client_secret=shpss_" + random_chars(32, 84, hex), "shopify-token",
                    "shpss_" + random_chars(32, 84, hex)));
}

// Azure's identifiable and annotated keys (the signature at its place in
// random base64), Salesforce's access token, Twitch's chat token and
// Kubernetes' bootstrap token, each written from its documented layout:
// one that must be found, and a near miss that must not be.
TEST(SecretRules, AzureSalesforceTwitchAndBootstrapFormats) {
  using testing::random_chars;
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string url64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const std::string lower = "abcdefghijklmnopqrstuvwxyz0123456789";
  struct Case {
    std::string rule, token, near_miss;
  };
  const Case cases[] = {
      {"azure-storage-key", random_chars(76, 201, b64) + "+ASt" + random_chars(5, 202, b64) + "g==",
       random_chars(70, 201, b64) + "+ASt" + random_chars(5, 202, b64) + "g=="},
      {"azure-cosmosdb-key", random_chars(76, 203, b64) + "ACDb" + random_chars(5, 204, b64) + "Q==",
       random_chars(76, 203, b64) + "ACDb" + random_chars(5, 204, b64) + "B=="},
      {"azure-identifiable-key", random_chars(33, 205, b64) + "+ASb" + "K" + random_chars(5, 206, b64) + "=",
       random_chars(33, 205, b64) + "+ASb" + "Z" + random_chars(5, 206, b64) + "="},
      {"azure-container-registry-key", random_chars(42, 207, b64) + "+ACR" + "B" + random_chars(5, 208, b64),
       random_chars(42, 207, b64) + "+ACR" + "B" + random_chars(9, 208, b64)},
      {"azure-search-key", random_chars(42, 209, b64) + "AzSe" + "C" + random_chars(5, 210, b64),
       random_chars(42, 209, b64) + "AzSe" + "E" + random_chars(5, 210, b64)},
      {"azure-function-key", random_chars(44, 211, url64) + "AzFu" + random_chars(5, 212, url64) + "w==",
       random_chars(30, 211, url64) + "AzFu" + random_chars(5, 212, url64) + "w=="},
      {"azure-annotated-key",
       random_chars(52, 213) + "JQQJ99" + "B" + "C" + random_chars(16, 214) + "ACOG" + random_chars(4, 215),
       random_chars(52, 213) + "JQQJ99" + "B" + "Z" + random_chars(16, 214) + "ACOG" + random_chars(4, 215)},
      {"discord-webhook", "discord.com/api/webhooks/" + random_chars(18, 228, "0123456789") + "/" + random_chars(68, 229, url64),
       "discord.com/api/webhooks/" + random_chars(18, 228, "0123456789") + "/" + random_chars(20, 229, url64)},
      {"rubygems-key", "rubygems_" + random_chars(48, 230, "0123456789abcdef"),
       "rubygems_" + random_chars(40, 230, "0123456789abcdef")},
      {"salesforce-token", "00D" + random_chars(12, 216) + "!" + random_chars(96, 217),
       "00D" + random_chars(12, 216) + "!" + random_chars(40, 217)},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(finds("KEY " + c.token + " end", c.rule, c.token)) << c.rule;
    EXPECT_TRUE(scan("KEY " + c.near_miss + " end").empty()) << c.rule << ": " << c.near_miss;
  }
  // Twitch's chat token is the 30 characters after oauth: (a longer value
  // may be a generic secret, never Twitch's).
  const std::string twitch = random_chars(30, 218, lower);
  EXPECT_TRUE(finds("PASS oauth:" + twitch, "twitch-token", twitch));
  for (const auto& h : scan("PASS oauth:" + random_chars(31, 218, lower))) EXPECT_NE(rule_of(h), "twitch-token");
  // A storage key of the identifiable form is high; inside a longer base64 run it is not one.
  const std::string storage = cases[0].token;
  EXPECT_EQ(highest("AZURE_STORAGE=" + storage), Severity::high);
  EXPECT_TRUE(scan("blob " + random_chars(40, 219, b64) + storage + " end").empty());
  // Azure DevOps' annotated PAT keeps its own rule.
  const std::string ado = random_chars(52, 220) + "JQQJ99" + random_chars(18, 221) + "AZDO" + random_chars(4, 222);
  EXPECT_TRUE(finds("pat " + ado, "azure-devops-pat", ado));
  // Kubernetes bootstrap tokens where kubeadm puts them; kubeadm's
  // documented example counts up and is no token.
  const std::string boot = random_chars(6, 223, lower) + "." + random_chars(16, 224, lower);
  EXPECT_TRUE(finds("kubeadm join 10.0.0.5:6443 --token " + boot + " --discovery-token-unsafe-skip-ca-verification",
                    "kubernetes-bootstrap-token", boot));
  EXPECT_TRUE(finds("bootstrapTokens:\n- token: \"" + boot + "\"\n  ttl: 24h0m0s", "kubernetes-bootstrap-token", boot));
  EXPECT_EQ(highest("kubeadm join 10.0.0.5:6443 --token " + boot), Severity::high);
  EXPECT_TRUE(scan("kubeadm join 10.0.0.5:6443 --token abcdef.0123456789abcdef").empty());
  EXPECT_TRUE(scan("kubeadm join 10.0.0.5:6443 --token " + random_chars(6, 223, lower) + "." +
                   random_chars(20, 224, lower))
                  .empty());
  EXPECT_EQ(highest("kubeadm join 10.0.0.5:6443 --token 07401b.f395accd246ae52d"), Severity::warning);
  const std::string half = random_chars(16, 225, lower);
  EXPECT_TRUE(finds("stringData:\n  token-id: " + random_chars(6, 226, lower) + "\n  token-secret: " + half,
                    "kubernetes-bootstrap-token", half));
  // docker login's -p gives the registry's password.
  const std::string acr_password = random_chars(32, 227);
  EXPECT_TRUE(finds("docker login myreg.azurecr.io -u myreg -p " + acr_password, "cli-password", acr_password));
  EXPECT_TRUE(scan("docker login myreg.azurecr.io -u myreg -p $ACR_PASSWORD").empty());
}

// Keys with no prefix, found under a name holding their provider's name
// and only in that provider's shape: warnings.
TEST(SecretRules, ProviderNamedKeysOfTheirProvidersShape) {
  using testing::random_chars;
  const std::string hex = "0123456789abcdef";
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string uuid = random_chars(8, 231, hex) + "-" + random_chars(4, 232, hex) + "-4" + random_chars(3, 233, hex) +
                           "-b" + random_chars(3, 234, hex) + "-" + random_chars(12, 235, hex);
  const std::string hex32 = random_chars(32, 236, hex);
  struct Case {
    std::string text, secret;
  };
  const Case found[] = {
      {"HEROKU_KEY=" + uuid, uuid},
      {"heroku_api_key: " + uuid, uuid},
      {"TWILIO_AUTH_TOKEN = \"" + hex32 + "\"", hex32},
      {"AZURE_OPENAI_KEY=" + hex32, hex32},
      {"export DATADOG_APP_KEY=" + hex32 + random_chars(8, 237, hex), hex32 + random_chars(8, 237, hex)},
      {"MAILGUN_KEY=" + hex32 + "-" + random_chars(8, 238, hex) + "-" + random_chars(8, 239, hex),
       hex32 + "-" + random_chars(8, 238, hex) + "-" + random_chars(8, 239, hex)},
      {"okta_token: 00" + random_chars(40, 240), "00" + random_chars(40, 240)},
      {"COSMOS_KEY=" + random_chars(86, 241, b64) + "==", random_chars(86, 241, b64) + "=="},
      {"TWITCH_TOKEN=" + random_chars(30, 242, "abcdefghijklmnopqrstuvwxyz0123456789"),
       random_chars(30, 242, "abcdefghijklmnopqrstuvwxyz0123456789")},
  };
  for (const Case& c : found) {
    EXPECT_TRUE(finds(c.text, "provider-key", c.secret));
    EXPECT_EQ(highest(c.text), Severity::warning) << c.text;
  }
  const std::string near_misses[] = {
      "HEROKU_KEY=" + random_chars(32, 243, hex),                   // a Heroku key is a UUID
      "TWILIO_KEY=" + random_chars(31, 244, hex),                    // one short
      "DATADOG_KEY=0123456789abcdef0123456789abcdef",                 // a count
      "HEROKU_KEY=6ba7b810-9dad-11d1-80b4-00c04fd430c8",             // a time-based UUID is an id
      "OKTA_KEY=" + random_chars(42, 245),                           // no 00 head
      "ALGOLIA_KEY=" + random_chars(32, 246, hex) + random_chars(2, 247, "ghijk"),  // a longer run
  };
  for (const std::string& t : near_misses) EXPECT_TRUE(scan(t).empty()) << t;
}

TEST(SecretRules, TelegramBotTokensNeedTheirIdAndLength) {
  using testing::random_chars;
  const std::string bot = "7305518264:AA" + random_chars(33, 86);
  EXPECT_TRUE(finds("TELEGRAM_BOT=" + bot, "telegram-bot-token", bot));
  EXPECT_TRUE(scan("id 42:AA" + random_chars(33, 86)).empty());             // no bot id
  EXPECT_TRUE(scan("7305518264:AA" + random_chars(40, 86) + " x").empty());  // too long
  // The Bot API's URL puts "bot" before the id; another word glued to it is no boundary.
  EXPECT_TRUE(finds("curl -s https://api.telegram.org/bot" + bot + "/getUpdates", "telegram-bot-token", bot));
  EXPECT_TRUE(scan("curl -s https://api.telegram.org/xbot" + bot + "/getUpdates").empty());
  EXPECT_TRUE(scan("robot" + bot).empty());
}

// The tokens providers print as the example in their own docs, and a
// token whose random part is the alphabet, are not anyone's credential.
TEST(SecretRules, ProvidersDocumentedExampleTokensAreNotHigh) {
  using testing::random_chars;
  for (const char* line : {"It looks like `110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw`. Store it securely.",
                           "    \"access_token\": \"xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy\",",
                           "GOOGLE_API_KEY=AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
                           "  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',",
                           "SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"}) {
    EXPECT_NE(highest(line), Severity::high) << line;
  }
  EXPECT_EQ(highest("It looks like `110201543:AA" + random_chars(33, 87) + "`."), Severity::high);
  EXPECT_EQ(highest("GOOGLE_API_KEY=AIza" + random_chars(35, 88)), Severity::high);
}

// CRC32 (IEEE 802.3), as Bitbucket's app passwords carry it: for test
// values of our own.
uint32_t crc32_of(std::string_view s) {
  uint32_t c = 0xFFFFFFFFu;
  for (const unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

// ATBB, 24 random characters and their CRC32 in upper-case hex.
std::string bitbucket_app_password(uint32_t seed) {
  const std::string body = "ATBB" + testing::random_chars(24, seed);
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08X", crc32_of(body));
  return body + hex;
}

constexpr std::string_view kBase64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Formats of issue 16's review (16b #6), one test value of each written
// here from the provider's documented shape (random tails: no one's key).
struct ReviewFormat {
  std::string rule, token, near_miss;
};
std::vector<ReviewFormat> review_formats() {
  using testing::random_chars;
  const std::string hex = "0123456789abcdef", lower = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string up = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const std::string url64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const std::string b64(kBase64Chars);
  const std::string uuid = random_chars(8, 420, hex) + "-" + random_chars(4, 421, hex) + "-4" + random_chars(3, 422, hex) +
                           "-9" + random_chars(3, 423, hex) + "-" + random_chars(12, 424, hex);
  return {
      {"google-oauth-client-secret", "GOCSPX-" + random_chars(28, 401, url64), "GOCSPX-" + random_chars(20, 401, url64)},
      {"aws-session-token", "IQoJb3JpZ2luX2Vj" + random_chars(700, 402, b64), "IQoJb3JpZ2luX2Vj" + random_chars(40, 402, b64)},
      {"bitbucket-app-password", bitbucket_app_password(403), "ATBB" + random_chars(24, 403)},
      {"onepassword-service-token", "ops_eyJzaWduSW5BZGRyZXNzIjoi" + random_chars(520, 404, b64),
       "ops_eyJ" + random_chars(120, 404, b64)},
      {"braintree-token", "access_token$production$" + random_chars(16, 407, lower) + "$" + random_chars(32, 408, hex),
       "access_token$production$" + random_chars(16, 407, lower) + "$" + random_chars(20, 408, hex)},
      {"neon-api-key", "napi_" + random_chars(64, 409, lower), "napi_" + random_chars(50, 409, lower)},
      {"hubspot-token", "pat-na1-" + uuid, "pat-na1-" + uuid.substr(0, 13)},
      {"shippo-token", "shippo_live_" + random_chars(40, 410, hex), "shippo_live_" + random_chars(30, 410, hex)},
      {"easypost-key", "EZAK" + random_chars(54, 411), "EZAK" + random_chars(40, 411)},
      {"frameio-token", "fio-u-" + random_chars(64, 412, url64), "fio-u-" + random_chars(40, 412, url64)},
      {"clojars-token", "CLOJARS_" + random_chars(60, 413, lower), "CLOJARS_" + random_chars(40, 413, lower)},
      {"defined-networking-key", "dnkey-" + random_chars(26, 414, up) + "-" + random_chars(52, 415, up),
       "dnkey-" + random_chars(26, 414, up) + "-" + random_chars(30, 415, up)},
      {"duffel-token", "duffel_live_" + random_chars(43, 416, url64), "duffel_live_" + random_chars(30, 416, url64)},
      {"flutterwave-key", "FLWSECK-" + random_chars(32, 417, hex) + "-X", "FLWSECK-" + random_chars(24, 417, hex) + "-X"},
      {"infracost-key", "ico-" + random_chars(32, 418), "ico-" + random_chars(24, 418)},
      {"scalingo-token", "tk-us-" + random_chars(48, 419, url64), "tk-us-" + random_chars(30, 419, url64)},
      {"intra42-secret", "s-s4t2ud-" + random_chars(64, 425, hex), "s-s4t2ud-" + random_chars(40, 425, hex)},
      {"harness-token", "pat." + random_chars(22, 426, url64) + "." + random_chars(24, 427, hex) + "." + random_chars(20, 428),
       "pat." + random_chars(22, 426, url64) + "." + random_chars(24, 427, hex)},
  };
}

// Each is found whole and high; cut short, or with its random part a
// filler (a documentation's xxxx), it is no finding.
TEST(SecretRules, DistinctiveFormatsOfTheSecondReviewAreHigh) {
  for (const ReviewFormat& f : review_formats()) {
    EXPECT_TRUE(finds("KEY " + f.token + " end", f.rule, f.token));
    EXPECT_EQ(highest("KEY " + f.token + " end"), Severity::high) << f.rule;
    EXPECT_TRUE(scan("KEY " + f.near_miss + " end").empty()) << f.rule << ": " << f.near_miss;
    std::string filler = f.token;
    for (size_t i = filler.size() - 24; i < filler.size() - 4; ++i) filler[i] = 'x';
    EXPECT_TRUE(scan("KEY " + filler + " end").empty()) << f.rule << ": " << filler;
    // As an assignment's value, where the generic rule also looks.
    EXPECT_TRUE(finds("SECRET_TOKEN=" + f.token + "\n", f.rule, f.token));
  }
}

// The test, sandbox or unverified forms of those formats are warnings (and
// FCM's legacy server keys, whose API is gone), and shapes that only
// resemble them are no finding.
TEST(SecretRules, TestFormsAndLookAlikesOfTheSecondReviewsFormats) {
  using testing::random_chars;
  const std::string hex = "0123456789abcdef", lower = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string url64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const std::string b64(kBase64Chars);
  std::string bad_crc = bitbucket_app_password(431);
  bad_crc.back() = bad_crc.back() == 'A' ? 'B' : 'A';
  const std::string session = "IQoJb3JpZ2luX2Vj" + random_chars(700, 432, b64);
  const std::string presigned = "https://bucket.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Security-Token=" + session;
  for (const auto& [rule, line, secret] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"braintree-token", "", "access_token$sandbox$" + random_chars(16, 433, lower) + "$" + random_chars(32, 434, hex)},
           {"shippo-token", "", "shippo_test_" + random_chars(40, 435, hex)},
           {"easypost-key", "", "EZTK" + random_chars(54, 436)},
           {"duffel-token", "", "duffel_test_" + random_chars(43, 437, url64)},
           {"flutterwave-key", "", "FLWSECK_TEST-" + random_chars(32, 438, hex) + "-X"},
           {"bitbucket-app-password", "", bad_crc},
           {"bitbucket-app-password", "", "ATBB" + random_chars(40, 444)},
           {"aws-session-token", presigned, session},
           {"firebase-fcm-server-key", "", "AAAA" + random_chars(7, 405, url64) + ":APA91b" + random_chars(134, 406, url64)},
       }) {
    const std::string text = line.empty() ? "KEY " + secret + " end" : line;
    EXPECT_TRUE(finds(text, rule, secret));
    EXPECT_EQ(highest(text), Severity::warning) << rule;
  }
  // FCM's server keys are whole or none; a device's registration token has
  // the server key's tail after its instance id; a hex digest after ico-
  // names a file.
  EXPECT_TRUE(scan("KEY AAAA" + random_chars(7, 405, url64) + ":APA91b" + random_chars(100, 406, url64) + " end").empty());
  EXPECT_TRUE(scan("{\"to\": \"c" + random_chars(10, 439, url64) + ":APA91b" + random_chars(134, 440, url64) + "\"}").empty());
  EXPECT_TRUE(scan("<img src=\"/static/ico-" + random_chars(32, 441, hex) + ".png\">").empty());
  // Inside a longer base64 run, IQoJb3JpZ2luX2Vj is a piece of it.
  EXPECT_TRUE(scan("blob: " + random_chars(40, 442, b64) + "/" + session).empty());
}

// A PuTTY key file of our own making (random blobs: no one's key): version,
// encryption, line ending, and the private blob's length in characters.
std::string putty_key_file(const std::string& version, const std::string& encryption, const std::string& eol,
                           size_t private_chars, uint32_t seed) {
  using testing::random_chars;
  const std::string b64(kBase64Chars);
  std::string f = "PuTTY-User-Key-File-" + version + ": ssh-ed25519" + eol + "Encryption: " + encryption + eol +
                  "Comment: ed25519-key-20260101" + eol + "Public-Lines: 2" + eol + "AAAAC3NzaC1lZDI1NTE5AAAAI" +
                  random_chars(39, seed, b64) + eol + random_chars(4, seed + 1, b64) + eol;
  if (version == "3" && encryption != "none") {
    f += "Key-Derivation: Argon2id" + eol + "Argon2-Memory: 8192" + eol + "Argon2-Passes: 21" + eol +
         "Argon2-Parallelism: 1" + eol + "Argon2-Salt: " + random_chars(32, seed + 2, "0123456789abcdef") + eol;
  }
  const std::string blob = random_chars(private_chars, seed + 3, b64);
  f += "Private-Lines: " + std::to_string((private_chars + 63) / 64) + eol;
  for (size_t i = 0; i < blob.size(); i += 64) f += blob.substr(i, 64) + eol;
  return f + "Private-MAC: " + random_chars(64, seed + 4, "0123456789abcdef");
}

// PuTTY's .ppk private key files, versions 2 and 3, encrypted or not, as
// written (LF, CRLF, in a JSON string): from the first line to the MAC.
TEST(SecretRules, PuttyPrivateKeyFilesAreHigh) {
  for (const std::string& key : {putty_key_file("3", "none", "\n", 48, 451), putty_key_file("2", "aes256-cbc", "\r\n", 64, 452),
                                 putty_key_file("3", "aes256-cbc", "\n", 128, 453)}) {
    EXPECT_TRUE(finds("$ cat ~/.ssh/id.ppk\n" + key + "\n$ ", "putty-private-key", key)) << key;
    EXPECT_EQ(highest(key + "\n"), Severity::high);
  }
  // In a JSON string (a tool's output), found where its "\n" escapes are read.
  std::string escaped = putty_key_file("3", "none", "\\n", 48, 454);
  EXPECT_EQ(highest("{\"stdout\":\"" + escaped + "\\n\"}"), Severity::high);
  // A MAC line cut off: the key as far as it went.
  const std::string full = putty_key_file("3", "none", "\n", 48, 455);
  const std::string cut = full.substr(0, full.find("\nPrivate-MAC"));
  EXPECT_TRUE(finds(cut + "\n", "putty-private-key", cut));
}

TEST(SecretRules, PuttyKeyNamesAndTemplatesAreNotKeys) {
  // The header's name in a parser's code or in prose: no file follows.
  EXPECT_TRUE(scan("    if line.startswith(\"PuTTY-User-Key-File-2:\"):\n        return parse_ppk(lines)\n").empty());
  EXPECT_TRUE(scan("A .ppk file opens with PuTTY-User-Key-File-3: and the key's type.\n\nPrivate-Lines: 1\nAAAA\n").empty());
  // Templates: a private blob of x, of "...", or of base64 of text.
  std::string key = putty_key_file("3", "none", "\n", 48, 456);
  const size_t blob = key.find("Private-Lines: 1\n") + 17;
  std::string xs = key, dots = key, text = key;
  xs.replace(blob, 48, std::string(48, 'x'));
  dots.replace(blob, 48, "...");
  text.replace(blob, 48, base64_encode("this is where the private key goes"));
  for (const std::string& t : {xs, dots, text}) EXPECT_TRUE(scan(t).empty()) << t;
  // A blob too short to be a key's: a warning.
  std::string shorter = key;
  shorter.replace(blob, 48, testing::random_chars(20, 457, kBase64Chars));
  EXPECT_EQ(highest(shorter), Severity::warning);
}

// A .ppk file in a scanned tree is one finding at its first line, its
// lines joined as written; the name alone in a source file is none.
TEST(ScanMode, PuttyKeyFilesInPlainFiles) {
  const std::string key = putty_key_file("3", "none", "\n", 48, 458);
  const std::string path = testing::write_temp("id_ed25519.ppk", "# deploy key\n" + key + "\n");
  auto r = scan_file(path, Limits{}, Policy{}, true);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].secret.rule, "putty-private-key");
  EXPECT_EQ(r.findings[0].severity, Severity::high);
  EXPECT_EQ(r.findings[0].secret.secret_sha256, to_hex(sha256(key)));
  EXPECT_EQ(r.findings[0].secret.location, "line 2");
  const std::string crlf = putty_key_file("2", "none", "\r\n", 48, 459);
  auto rc = scan_file(testing::write_temp("crlf.ppk", crlf + "\r\n"), Limits{}, Policy{}, true);
  ASSERT_EQ(rc.findings.size(), 1u);
  EXPECT_EQ(rc.findings[0].secret.secret_sha256, to_hex(sha256(crlf)));
  const std::string code = testing::write_temp("ppk.py", "MAGIC = \"PuTTY-User-Key-File-3:\"\n\ndef parse(lines):\n    return lines\n");
  EXPECT_TRUE(scan_file(code, Limits{}, Policy{}, true).findings.empty());
}

TEST(SecretRules, AgeKeysAreHighOnlyWithTheirBech32Checksum) {
  // A key encoded here with BIP 173 from bytes of our own.
  const std::string good = "AGE-SECRET-KEY-1NRPGLS4MEXDZT6MFT5TF9GKJUANAALNGXJMXDQL4UHDW6WX8NXQS5UHVYD";
  auto hits = scan("# created: today\n" + good + "\n");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].severity, Severity::high);
  std::string bad = good;
  bad[40] = bad[40] == 'Q' ? 'P' : 'Q';  // one character changed: the checksum fails
  hits = scan(bad);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].severity, Severity::warning);
  EXPECT_TRUE(scan("# public key: age1" + random_chars_for_age()).empty());
}

// PyPI's token is a macaroon: high when it ends with its signature field,
// a warning when it was cut short or made of random characters.
TEST(SecretRules, PypiTokensAreHighOnlyAsWholeMacaroons) {
  std::string macaroon = std::string("\x02\x01\x08pypi.org\x02\x24", 13) + "5793529b-b2a6-4108-974d-000000000000";
  macaroon += std::string("\x00\x00\x06\x20", 4) + testing::random_chars(32, 87);
  auto b64url = [](std::string_view bytes) {
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
    sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    out.resize(out.find('\0'));
    return out;
  };
  const std::string whole = "pypi-" + b64url(macaroon);
  EXPECT_TRUE(finds("password = " + whole, "pypi-token", whole));
  EXPECT_EQ(highest("TWINE_PASSWORD=" + whole + "\n"), Severity::high);
  const std::string cut = "pypi-" + b64url(std::string_view(macaroon).substr(0, 60));
  EXPECT_EQ(highest("TWINE_PASSWORD=" + cut + "\n"), Severity::warning);
}

// An Azure client secret is 40 characters; the same shape inside a longer
// run of its characters (a Freenet key's "~q8Q~") is something else.
TEST(SecretRules, AzureClientSecretsEndWhereTheirRunEnds) {
  const std::string azure = "abc8Q~" + testing::random_chars(34, 88);
  EXPECT_TRUE(finds("secret: " + azure + ".", "azure-client-secret", azure));
  EXPECT_TRUE(finds("\"" + azure + "\"", "azure-client-secret", azure));
  for (const auto& hit : scan("Identity=\"USK@x," + azure + "~yk0,AQACAAE/x\"")) {
    EXPECT_NE(rule_of(hit), "azure-client-secret");
  }
}

// "apiKey: '...'" is a property in code (often a public search-only key),
// "x-api-key: ..." a header: the first a warning, the second high.
TEST(SecretRules, CamelCaseKeyNamesAreCodeNotHeaders) {
  const std::string key = testing::random_chars(32, 89, "0123456789abcdef");
  EXPECT_EQ(highest(",apiKey:\"" + key + "\","), Severity::warning);
  EXPECT_EQ(highest("const c = {xApiKey: '" + key + "'}"), Severity::warning);
  EXPECT_EQ(highest("x-api-key: " + key + "\n"), Severity::high);
  EXPECT_EQ(highest("-H 'X-Api-Key: " + key + "'"), Severity::high);
}

TEST(SecretRules, VaultUnsealKeysAsPrintedAndAsGiven) {
  const std::string key = testing::random_chars(43, 91) + "Q";
  EXPECT_TRUE(finds("Unseal Key 2: " + key + "\n", "vault-unseal-key", key));
  EXPECT_TRUE(finds("$ vault operator unseal " + key + "\n", "vault-unseal-key", key));
  EXPECT_TRUE(scan("Unseal Key 2: <unseal key>\nvault operator unseal -migrate\n").empty());
  EXPECT_TRUE(scan("Unseal Key 2: " + key + "xyz\n").empty());  // not 44 characters
}

// "pat" names a personal access token when it is a word of its own.
TEST(SecretRules, PatAsAWordNamesAToken) {
  const std::string pat = testing::random_chars(52, 90, "abcdefghijklmnopqrstuvwxyz234567");
  EXPECT_TRUE(finds("ado_pat = \"" + pat + "\"", "generic-secret", pat));
  EXPECT_TRUE(finds("GH_PAT=" + pat + "\n", "generic-secret", pat));
  EXPECT_TRUE(scan("pattern = \"" + pat + "\"").empty());
  EXPECT_TRUE(scan("spatial_index = \"" + pat + "\"").empty());
}

// A provider token whose random part is spelled in words is a placeholder
// from a provider's documentation; a password of words is still a password.
TEST(SecretRules, ATokenSpelledInWordsIsAPlaceholder) {
  EXPECT_TRUE(scan("SLACK_CONFIG_TOKEN=xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere").empty());
  EXPECT_TRUE(scan("token: xoxb-123456789012-PasteYourSlackTokenHere").empty());
  const std::string real = "xoxe.xoxp-1-" + testing::random_chars(140, 81);
  EXPECT_TRUE(finds("SLACK_CONFIG_TOKEN=" + real, "slack-token", real));
  EXPECT_TRUE(finds("password = \"CorrectHorseBatteryStaple\"", "password-assignment", "CorrectHorseBatteryStaple"));
}

TEST(SecretRules, GenericValuesThatFailAProviderRuleOrCountAreNotSecrets) {
  using testing::random_chars;
  // A provider's prefix with the wrong shape (too short here) is a typo or a sample.
  EXPECT_TRUE(scan("GROQ_TOKEN = \"gsk_" + random_chars(20, 70) + "\"").empty());
  EXPECT_TRUE(scan("docker_token: dckr_pat_" + random_chars(12, 71)).empty());
  // Counting fillers.
  EXPECT_TRUE(scan("api_secret = \"Xq9abcdefg7Lm2\"").empty());
  EXPECT_TRUE(scan("auth_token: Zk4-1234567890-Rw").empty());
  EXPECT_TRUE(scan("service_token=px-a1b2c3d4e5f6-q9").empty());
  // Lower-case words joined by - _ or . are an identifier or a phrase.
  EXPECT_TRUE(scan("secret_key_base: \"test-only-secret-key-base-for-the-dev-server\"").empty());
  EXPECT_TRUE(scan("\"auth-implementation\", \"original_repo_path\"").empty());
  // A short number as a word of its own (a Phoenix config an agent printed).
  EXPECT_TRUE(scan("  secret_key_base: \"test-only-secret-base-minimum-64-bytes-long-enough-for-phoenix-token-signing-ok\",").empty());
  EXPECT_TRUE(scan("DB_PASSWORD=change-me-in-prod-2024").empty());
  // The same shapes without the count are still reported.
  EXPECT_TRUE(finds("secret_key_base: \"test-0nly-Secret-key-base-for-the-dev-server\"", "generic-secret",
                    "test-0nly-Secret-key-base-for-the-dev-server"));
  EXPECT_TRUE(finds("api_secret = \"Xq9hbTdwr7Lm2\"", "generic-secret", "Xq9hbTdwr7Lm2"));
  EXPECT_TRUE(finds("auth_token: Zk4-8305127946-Rw", "generic-secret", "Zk4-8305127946-Rw"));
  // Numbers as words, but as many as the words, or long.
  EXPECT_TRUE(finds("auth_token: \"rx-8305-kq-2719-wz-6614\"", "generic-secret", "rx-8305-kq-2719-wz-6614"));
  EXPECT_TRUE(finds("auth_token: \"north-830512794613-river\"", "generic-secret", "north-830512794613-river"));
}

TEST(SecretRules, GithubChecksumRaisesConfidence) {
  // A token whose last six characters are base62(CRC32 of the 30 before).
  auto valid = scan("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");
  ASSERT_EQ(valid.size(), 1u);
  EXPECT_EQ(valid[0].severity, Severity::high);
  auto invalid = scan("ghp_bKPPznpGDz5IILSKqrX0m5XAnpBVjB03Qj1m");
  ASSERT_EQ(invalid.size(), 1u);
  EXPECT_EQ(invalid[0].severity, Severity::warning);
}

TEST(SecretRules, PemBlocksAndJwts) {
  const std::string pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
  EXPECT_TRUE(finds("cat key\n" + pem + "\n", "pem-private-key", pem));
  const std::string jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  EXPECT_TRUE(finds("token: " + jwt + ".", "jwt", jwt));
}

// A JWT no signer made, or the one tutorials publish, is reported but never
// high; one whose header was damaged still carries its claims.
// A host name or a filler counting in mixed case under a secret's name is
// no secret; a random value there is.
TEST(SecretRules, HostNamesAndMixedCaseCountsAreNotGenericSecrets) {
  EXPECT_TRUE(scan("acme_secret = '7b3e1d.tenant.acme-billing.com'").empty());
  EXPECT_TRUE(scan("API_SECRET=a1B2c3D4e5F6g7H8i9J0k1L2").empty());
  EXPECT_TRUE(finds("acme_secret = '7b3e1d9QtenantZacme4billing'", "generic-secret", "7b3e1d9QtenantZacme4billing"));
  EXPECT_TRUE(finds("API_SECRET=a7B2x3D9e1F6q7H8", "generic-secret", "a7B2x3D9e1F6q7H8"));
}

// Prefixes their providers document without a fixed length or checksum:
// warnings, each found whole and not when cut short.
TEST(SecretRules, DocumentedPrefixesWithoutChecksumAreWarnings) {
  using testing::random_chars;
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string lower = "abcdefghijklmnopqrstuvwxyz0123456789";
  struct Case {
    std::string rule, token, near_miss;
  };
  const Case cases[] = {
      {"twitch-stream-key", "live_126031192_" + random_chars(30, 301), "live_126031192_" + random_chars(20, 301)},
      {"segment-token", "sgp_" + random_chars(64, 302), "sgp_" + random_chars(50, 302)},
      {"readme-key", "rdme_" + random_chars(70, 303, lower), "rdme_" + random_chars(30, 303, lower)},
      {"teamwork-token", "tkn.v1_" + random_chars(68, 304, b64) + "=", "tkn.v1_" + random_chars(30, 304, b64)},
      {"ubidots-token", "BBFF-" + random_chars(30, 305), "BBFF-" + random_chars(20, 305)},
      {"alibaba-access-key-id", "LTAI" + random_chars(20, 306), "LTAI" + random_chars(8, 306)},
      {"cratesio-token", "cio" + random_chars(32, 307), "cio" + random_chars(20, 307)},
      {"posthog-key", "phx_" + random_chars(43, 308), "phx_" + random_chars(20, 308)},
      {"notion-token", "secret_" + random_chars(43, 309), "secret_" + random_chars(30, 309)},
      {"grafana-api-key", "eyJrIjoi" + random_chars(72, 310, b64), "eyJrIjoi" + random_chars(20, 310, b64)},
      {"teamcity-token", "eyJ0eXAiOiAiVENWMiJ9." + random_chars(36, 311) + "." + random_chars(48, 312),
       "eyJ0eXAiOiAiVENWMiJ9." + random_chars(30, 311)},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(finds("KEY " + c.token + " end", c.rule, c.token));
    for (const auto& h : scan("KEY " + c.token + " end")) EXPECT_NE(h.severity, Severity::high) << c.rule;
    EXPECT_TRUE(scan("KEY " + c.near_miss + " end").empty()) << c.rule << ": " << c.near_miss;
  }
}

// A name whose last word is key ("ticketmaster_key", "mailjetKey") names
// a credential when its value is a random token; a key of data (a cache's,
// a table's), an identifier or a name of words under it is none.
TEST(SecretRules, NamesEndingInKeyHoldRandomTokens) {
  const std::string key = "7BKWGCh4nXY9vFjQPtMDL3Z5RxS8qJaV";
  EXPECT_TRUE(finds("ticketmaster_key=" + key, "generic-secret", key));
  EXPECT_TRUE(finds("  mailjetKey: \"" + key + "\"", "generic-secret", key));
  EXPECT_TRUE(finds("config.facebook.key = \"" + key + "\"", "generic-secret", key));
  EXPECT_TRUE(finds("{\"zerobounceKEY\": \"" + key + "\"}", "generic-secret", key, "json"));
  EXPECT_TRUE(scan("cache_key = \"" + key + "\"").empty());
  EXPECT_TRUE(scan("partitionKey: \"" + key + "\"").empty());
  EXPECT_TRUE(scan("primaryKey=" + key).empty());
  EXPECT_TRUE(scan("s3BucketKey=" + key).empty());
  EXPECT_TRUE(scan("PRIMARY_KEY=" + key).empty());
  EXPECT_TRUE(finds("bitbucket_key=" + key, "generic-secret", key));  // bucket is part of the name's word
  EXPECT_TRUE(finds("azure_search_key = " + key, "generic-secret", key));
  EXPECT_TRUE(scan("schemaKey = 'DOC_Vector_5_32'").empty());
  EXPECT_TRUE(scan("\"result_key\": \"analyzedResources2\"").empty());
  EXPECT_TRUE(scan("ANY_KEY = ZHVtbXkgdGV4dCBkYXRhIGRhdGEgZGF0YQ==").empty());  // base64 of text
  EXPECT_TRUE(scan("dest_key = 'fs.s3.enableServerSideEncryption'").empty());
  EXPECT_TRUE(scan("monkey = \"" + key + "\"").empty());  // key inside a word
  // A provider provider-key knows is judged by its shape alone.
  EXPECT_TRUE(scan("HEROKU_KEY=" + key).empty());
}

// A credential word, spaces, then a token: "client secret <v>",
// "weatherbitSECRET <v>", "boxKEY <v>". The token must be whole and random;
// a file, a UUID (a lock's, a page's), an id after "public key" or a
// provider's prefix with the wrong shape is none.
TEST(SecretRules, TokensAfterACredentialWordAndSpaces) {
  const std::string token = "ff9cfa3aafd54870b8407ac660f17590";
  EXPECT_TRUE(finds("weatherbitSECRET " + token, "generic-secret", token));
  EXPECT_TRUE(finds("the client secret " + token + ".", "generic-secret", token));
  EXPECT_TRUE(finds("pushbullet Access token aa4a2cH7QOxs40mhF7wFufa4uH3Pn3tLQ0\n", "generic-secret",
                    "aa4a2cH7QOxs40mhF7wFufa4uH3Pn3tLQ0"));
  EXPECT_TRUE(finds("boxKEY " + token, "generic-secret", token));
  EXPECT_TRUE(finds("nimble key " + token, "generic-secret", token));
  EXPECT_TRUE(finds("pandadoc PRIVATE " + token, "generic-secret", token));
  EXPECT_TRUE(finds("scrapeowl ACCESS " + token, "generic-secret", token));
  EXPECT_TRUE(scan("KEY " + token).empty());                            // key needs a word before it
  EXPECT_TRUE(scan("access denied for " + token).empty());
  EXPECT_TRUE(scan("gpg: key " + token.substr(0, 16) + ": public key imported").empty());
  EXPECT_TRUE(scan("ssh host key " + token + " ok").empty());
  EXPECT_TRUE(scan("the token src/auth/refreshToken.ts").empty());
  EXPECT_TRUE(scan("--lifecycle-action-token bcd2f1b8-9a78-44d3-8a7a-4dd07d7cf635").empty());
  EXPECT_TRUE(scan("kubectl get secret db-credentials-7f8d9c -o yaml").empty());
  EXPECT_TRUE(scan("secret " + token + ":rest").empty());             // not whole
  EXPECT_TRUE(scan("token r8_fiTCpkOcx42mhSiwAtV2 end").empty());      // Replicate's prefix, too short
  EXPECT_TRUE(scan("secret 1234567890abcdef1234567890abcdef").empty());  // a filler
}

// A password given to a command is one, however little entropy it has; a
// variable, a placeholder or the next option is not.
TEST(SecretRules, CommandLinePasswordsAreFound) {
  EXPECT_TRUE(finds("PsExec.exe \\\\10.0.0.7 -u ops -p Zr8vK2m!q cmd /c dir", "cli-password", "Zr8vK2m!q"));
  EXPECT_TRUE(finds("sshpass -p 'Qw7!rT2x' ssh deploy@host", "cli-password", "Qw7!rT2x"));
  EXPECT_TRUE(finds("docker login -u ci --password=Hk3!x9Lq registry.internal", "cli-password", "Hk3!x9Lq"));
  EXPECT_TRUE(finds("Connect-VIServer -Server vc1 -User ops -Password VMw4re1!x", "cli-password", "VMw4re1!x"));
  EXPECT_TRUE(scan("psexec \\\\host -u ops -p $Password -i -d calc.exe").empty());
  EXPECT_TRUE(scan("PsExec.exe \\\\host -u ops -p %pw% -i 2").empty());
  EXPECT_TRUE(scan("PsExec.exe /accepteula -u DOMAIN\\ADMIN -p PASSWORD cmd").empty());
  EXPECT_TRUE(scan("echo \"$PW\" | docker login --password-stdin").empty());
  EXPECT_TRUE(scan("Connect-VIServer \"$endpoint\" -User \"$username\" -Password \"$password\"").empty());
  EXPECT_TRUE(scan("psql --password --host db").empty());
  EXPECT_TRUE(scan("psql -h db --password\nconnected_to_db42 ok").empty());  // the next line is no argument
}

// A password a person chose is shorter and plainer than a random key: a
// quoted word after a name ending in password is one, unless it names the
// field, refers to something else or is a label.
TEST(SecretRules, ChosenPasswordsAreFound) {
  EXPECT_TRUE(finds("db_password = \"hunt3r$2go\"", "password-assignment", "hunt3r$2go"));
  EXPECT_TRUE(finds("\"vm_password\": \"Tr0ut!99\",", "password-assignment", "Tr0ut!99"));
  EXPECT_TRUE(finds("if username == \"ops\" and password == \"gr33n-Apple\":", "password-assignment", "gr33n-Apple"));
  EXPECT_TRUE(scan("db_password = \"my_password\"").empty());
  EXPECT_TRUE(scan("db_password = \"${DB_PASSWORD}\"").empty());
  EXPECT_TRUE(scan("db_password = \"correct-horse-battery\"").empty());
  EXPECT_TRUE(scan("labels = {passwordLabel:\"Password:\",rememberLabel:\"Remember me:\"}").empty());
  EXPECT_TRUE(scan("{\"/docs/choosing-a-password\":\"/docs/v3/auth/choosing\"}").empty());
  EXPECT_TRUE(scan("password = \"12345678\"").empty());
}

// A Slack token cut short to its digits is not high; a whole one is.
TEST(SecretRules, SlackTokensOfDigitsOnlyAreWarnings) {
  EXPECT_EQ(highest("slack token - 'xoxa-73019284756?0011'"), Severity::warning);
  EXPECT_EQ(highest("slack token - 'xoxa-q7r2x9k4m1z8w5'"), Severity::high);
}

// Test files send keys that say so: reported, never high. A random key in
// the same header stays high.
TEST(SecretRules, TestValuesInHeadersAreWarnings) {
  for (const char* line : {"x-api-key: test-key-qrs123xyz", "x-api-key: mock_api_key_k1m2n3",
                           "X-API-Key: invalid-key-98765", "Authorization: Bearer test_token_qrs123",
                           "Authorization: Bearer invalid_token_xyz789", "x-api-key: sk-test-1234567890qwerty",
                           "X-Auth-Token: e2e-token-0001", "x-api-key: abc123def456ghi789",
                           "x-api-key: 1234567890qwerty",
                           // base64 of "admin:pass", of "synthetic-proxy-credential"
                           "Authorization: Basic YWRtaW46cGFzcw==", "const PROXY_AUTHORIZATION = 'Basic c3ludGhldGljLXByb3h5LWNyZWRlbnRpYWw=';"}) {
    EXPECT_EQ(highest(line), Severity::warning) << line;
  }
  EXPECT_EQ(highest("x-api-key: q8Zr2Lk9Vm3Xp7Wn5Ty1"), Severity::high);
  EXPECT_EQ(highest("Authorization: Bearer kQ7vR2xLm9TwZp4N8sYb"), Severity::high);
  // base64 of "deploy:Zq8rT2vLm9pXw"
  EXPECT_EQ(highest("Authorization: Basic ZGVwbG95OlpxOHJUMnZMbTlwWHc="), Severity::high);
  // RFC 7519's example token is documented.
  EXPECT_EQ(highest("Authorization: Bearer eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9."
                    "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ."
                    "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            Severity::warning);
}

// A token whose random part says it is a test's, and a private key block
// too short to hold any key, are reported but never high.
TEST(SecretRules, TokensThatSayTheyAreFakeAreWarnings) {
  using testing::random_chars;
  for (const std::string& line : {std::string("aws_access_key_id = AKIAQTESTQTESTQTESTQ"),
                                 std::string("STRIPE_KEY=sk_live_fakekeyforunitcases9Qz"),
                                 std::string("HF_TOKEN=hf_dummytokenforunitcasesonlyqzxwvutr"),
                                 std::string("aws_secret_access_key = mocksecretkeymocksecretkeymocksecretk9ab"),
                                 std::string("STRIPE_KEY=sk_live_51Qz8rT2vLm9PzK4wNxYabc123456"),
                                 std::string("STRIPE_KEY=sk_live_51Qz8rT2vLm9PzK4wNxY7812345"),
                                 std::string("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC\n"
                                             "-----END PRIVATE KEY-----")}) {
    EXPECT_EQ(highest(line), Severity::warning) << line;
  }
  EXPECT_EQ(highest("STRIPE_KEY=sk_live_" + random_chars(24, 140)), Severity::high);
  EXPECT_EQ(highest("-----BEGIN PRIVATE KEY-----\n" + random_chars(64, 141, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") +
                    "\n-----END PRIVATE KEY-----"),
            Severity::high);
}

// Microsoft's emulator keys and RFC 7617's Basic example are the same on
// every machine and in every doc: reported, never high.
TEST(SecretRules, PublishedEmulatorKeysAndRfcExamplesAreNotHigh) {
  const std::string azurite = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  const std::string cosmos = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
  EXPECT_EQ(highest("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + azurite + ";"),
            Severity::warning);
  EXPECT_NE(highest("AccountEndpoint=https://localhost:8081/;AccountKey=" + cosmos), Severity::high);
  EXPECT_EQ(highest("Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="), Severity::warning);
  EXPECT_NE(highest(R"({"auths":{"r":{"auth":"QWxhZGRpbjpvcGVuIHNlc2FtZQ=="}}})"), Severity::high);
  // A key of the same shape that nobody published, and a Basic pair, stay high.
  std::string key = testing::random_chars(86, 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") + "==";
  EXPECT_EQ(highest("DefaultEndpointsProtocol=https;AccountName=prodstore;AccountKey=" + key + ";"), Severity::high);
  EXPECT_EQ(highest("Authorization: Basic " + base64_encode("deploy:Zq8rT2vLm9Xk3Wp7")), Severity::high);
}

// A base64 value pads with '=' at its end only: in "AccountKey=AccountKey=<key>"
// the first name's value is the second name and the key, not a key; the key
// is one finding, itself. A run longer than any key is not one cut short.
TEST(SecretRules, AnAzureKeyAfterItsNameTwiceIsOneFinding) {
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string key = testing::random_chars(86, 311, b64) + "==";
  const std::string shared = testing::random_chars(43, 312, b64) + "=";
  for (const auto& [text, secret] : {std::pair{"AccountKey=AccountKey=" + key, key},
                                     std::pair{"conn=\"AccountKey=AccountKey=" + key + ";\"", key},
                                     std::pair{"SharedAccessKey=SharedAccessKey=" + shared, shared}}) {
    const auto hits = scan(text);
    ASSERT_EQ(hits.size(), 1u) << text;
    EXPECT_EQ(hits[0].secret, secret) << text;
    EXPECT_EQ(hits[0].severity, Severity::high) << text;
  }
  EXPECT_TRUE(finds("AccountKey=" + key + ";", "azure-storage-key", key));
  for (const auto& h : scan("AccountKey=" + key.substr(0, 86) + testing::random_chars(20, 313, b64))) {
    EXPECT_NE(rule_of(h), "azure-storage-key") << h.secret;  // not cut to a key's length (the generic rule may judge it)
  }
}

// What library docs print: OAuth RFCs' example credentials, a capital word
// naming the token, a flag named in prose.
TEST(SecretRules, DocumentationExamplesAreNotHigh) {
  EXPECT_EQ(highest("Authorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"), Severity::warning);
  EXPECT_NE(highest("Authorization: Bearer mF_9.B5f-4.1JqM"), Severity::high);
  EXPECT_EQ(highest("'Authorization': 'Bearer h480djs93hd8'"), Severity::warning);
  EXPECT_TRUE(scan("//registry.example.org/:_authToken=MYTOKEN1").empty());
  EXPECT_TRUE(scan("the --username and --password options instead of the URL").empty());
  EXPECT_EQ(highest("//registry.example.org/:_authToken=Qz7vR2xLm9TwZp4N8sYb"), Severity::high);
  EXPECT_TRUE(finds("svn co --username ops --password Hk3x9Lq2 https://svn.internal/r", "cli-password", "Hk3x9Lq2"));
}

// A header named for a token in a command carries one.
TEST(SecretRules, TokenHeadersOfCommandsAreFound) {
  EXPECT_TRUE(finds("curl -H \"Token: 7c1e04d9a2b35f68\" https://api.internal/v1/items", "api-key-header",
                    "7c1e04d9a2b35f68"));
  EXPECT_TRUE(finds("curl --header 'X-Access-Token: Qv8rT2xLm9PzK4wN' https://h/x", "api-key-header",
                    "Qv8rT2xLm9PzK4wN"));
  EXPECT_TRUE(scan("curl -H \"Token: $API_TOKEN\" https://api.internal/v1/items").empty());
  EXPECT_TRUE(scan("curl -H \"Token: your_token_here\" https://api.internal/v1/items").empty());
  EXPECT_TRUE(scan("curl -H \"Content-Type: application/json\" https://api.internal/v1/items").empty());
}

// A weak password in a URL is still one; a word naming the field, a
// template or the user's name again is not.
TEST(SecretRules, WeakPasswordsInUrlsAreFound) {
  // Under 8 characters the password is reported with its user.
  EXPECT_TRUE(finds("DATABASE_URL=postgresql://app:pass@db.internal:5432/orders", "url-credentials", "app:pass"));
  EXPECT_TRUE(finds("git clone https://deploy:secret@git.internal/repo.git", "url-credentials", "deploy:secret"));
  EXPECT_TRUE(finds("git clone https://deploy:Zq8rT2vLm9@git.internal/repo.git", "url-credentials", "Zq8rT2vLm9"));
  EXPECT_TRUE(scan("DATABASE_URL=postgresql://app:password@db.internal:5432/orders").empty());
  EXPECT_TRUE(scan("DATABASE_URL=postgresql://{user}:{pass}@db.internal:5432/orders").empty());
  EXPECT_TRUE(scan("DATABASE_URL=postgresql://pass:pass@db.internal:5432/orders").empty());
  EXPECT_TRUE(scan("DATABASE_URL=postgresql://app:abc@db.internal:5432/orders").empty());
}

// AWS's documentation keys stay examples when a copy changes their tail:
// reported, never high.
TEST(SecretRules, AwsDocumentedExampleKeysWithAnotherTailAreWarnings) {
  EXPECT_EQ(highest("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYQAKEYTEST"), Severity::warning);
  EXPECT_EQ(highest("aws_access_key_id = AKIAIOSFODNN7QAKEYTS"), Severity::warning);
  EXPECT_EQ(highest("aws_secret_access_key = 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"), Severity::high);
  EXPECT_TRUE(finds("aws_secret_access_key = Zp3Lr8XutnF1MI/K7qDENG/bPxRfiCYqZ7ke4TVw", "aws-secret-key",
                    "Zp3Lr8XutnF1MI/K7qDENG/bPxRfiCYqZ7ke4TVw"));
}

TEST(SecretRules, PlaceholderAndDocumentedJwtsAreWarnings) {
  const std::string header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
  const std::string claims = "eyJzdWIiOiJ1LTc3MzEiLCJyb2xlIjoib3BzIiwiaWF0IjoxNzAwMDAwMDAwfQ";
  const std::string john_doe = "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNzAwMDAwMDAwfQ";
  const std::string signature = "Qm9kN3xPq1vRt8ZsLw2Yk5HjC4uXe6Fa9GbTn0MdIyA";
  EXPECT_EQ(highest("token = \"" + header + "." + claims + "." + signature + "\""), Severity::high);
  EXPECT_TRUE(finds("t " + header + "." + claims + ".signature end", "jwt", header + "." + claims + ".signature"));
  EXPECT_EQ(highest("t " + header + "." + claims + ".signature end"), Severity::warning);
  EXPECT_EQ(highest("t " + header + "." + claims + ".SIGNATURE_HERE end"), Severity::warning);
  EXPECT_EQ(highest("t " + header + "." + john_doe + "." + signature), Severity::warning);
  // {"foo":"bar","iat":1700000000}, as JWT libraries' READMEs sign it.
  EXPECT_EQ(highest("t " + header + ".eyJmb28iOiJiYXIiLCJpYXQiOjE3MDAwMDAwMDB9." + signature), Severity::warning);
  // {"alg":"R\xcf256","kid":"k1"}: one byte damaged.
  const std::string damaged = "eyJhbGciOiJSzzI1NiIsImtpZCI6ImsxIn0." + claims + "." + signature;
  EXPECT_TRUE(finds("JWT := " + damaged, "jwt", damaged));
  EXPECT_EQ(highest("JWT := " + damaged), Severity::warning);
  EXPECT_TRUE(scan("eyJhbGciOiJSzzI1NiIsImtpZCI6ImsxIn0." + claims + ".short").empty());
  // A header cut short, or mostly binary, is no JWT's.
  EXPECT_TRUE(scan("eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn." + claims + "." + signature).empty());
  EXPECT_TRUE(scan("eyJhbGqwzxciOiJSUzqwzxI1NiIsImtpZCI6ImsxIn0." + claims + "." + signature).empty());
}

// An HS256 JWT of `claims` signed with `secret`, as a library makes it.
std::string hs256_jwt(std::string_view claims, std::string_view secret) {
  auto b64url = [](std::string_view bytes) {
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
    sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    out.resize(out.find('\0'));
    return out;
  };
  const std::string signed_part = b64url(R"({"alg":"HS256","typ":"JWT"})") + "." + b64url(claims);
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(secret.data()), secret.size());
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(signed_part.data()), signed_part.size());
  crypto_auth_hmacsha256_final(&st, mac);
  return signed_part + "." + b64url(std::string_view(reinterpret_cast<const char*>(mac), sizeof mac));
}

// A JWT anyone can mint (signed with a published default secret: the
// Supabase CLI's local stack prints such keys on every machine), one that
// expired years ago, and a library's example claims are reported, never
// high. The same claims under a secret of one's own, an unexpired token and
// one without exp stay high.
TEST(SecretRules, JwtsAnyoneCanMintOrNoServiceAcceptsAreWarnings) {
  const std::string role = R"({"iss":"supabase-demo","role":"service_role","exp":4102444800})";
  EXPECT_EQ(highest("service_role key: " + hs256_jwt(role, "super-secret-jwt-token-with-at-least-32-characters-long")),
            Severity::warning);
  EXPECT_EQ(highest("SERVICE_ROLE_KEY=" + hs256_jwt(role, "your-super-secret-jwt-token-with-at-least-32-characters-long")),
            Severity::warning);
  EXPECT_EQ(highest("service_role key: " + hs256_jwt(role, "k9Vq2xLm7RwZp4N8sYbT3cF6hJ1dG5aW")), Severity::high);
  const std::string auth0 = R"({"iss":"https://tenant.auth.example/","sub":"c1@clients","iat":1572006954,"exp":)";
  const std::string secret = "Zq8rT2vLm9pXw4Kc7Nf1Hd3Jb6Gs0Ay5";
  EXPECT_EQ(highest("token = \"" + hs256_jwt(auth0 + "1572006964}", secret) + "\""), Severity::warning);
  EXPECT_EQ(highest("token = \"" + hs256_jwt(auth0 + "4102444800}", secret) + "\""), Severity::high);
  EXPECT_EQ(highest("token = \"" + hs256_jwt(R"({"sub":"c1@clients","iat":1572006954})", secret) + "\""), Severity::high);
  // A library's test signs a placeholder claim.
  EXPECT_EQ(highest("encoded = \"" + hs256_jwt(R"({"test":1234})", secret) + "\""), Severity::warning);
  EXPECT_EQ(highest("encoded = \"" + hs256_jwt(R"({"test":1234,"sub":"u-7731"})", secret) + "\""), Severity::high);
  // RFC 6761's example names as its parties or claims (the jose library's docs).
  EXPECT_EQ(highest("jwt = '" + hs256_jwt(R"({"urn:example:claim":true,"iat":1669056488})", secret) + "'"),
            Severity::warning);
  EXPECT_EQ(highest("jwt = '" + hs256_jwt(R"({"iss":"https://auth.example.com","sub":"u-7731"})", secret) + "'"),
            Severity::warning);
  EXPECT_EQ(highest("jwt = '" + hs256_jwt(R"({"iss":"https://auth.example-corp.io","sub":"u-7731"})", secret) + "'"),
            Severity::high);
  // The CLI's default secret key of the local stack is the same published value.
  EXPECT_EQ(highest("Secret key: sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"), Severity::warning);
  EXPECT_EQ(highest("Secret key: sb_secret_Kq8vR2xLm9TwZp4N8sYbQ_3cF6hJ1dG"), Severity::high);
}

// Code holds a header's name in a constant; cassettes and API docs put a
// named marker where the token goes. Neither is a credential; a token in
// the same places stays high.
TEST(SecretRules, HeaderNamesAndNamedMarkersAreNotTokens) {
  for (const char* line : {"\tauthorization   = \"Authorization\"", "HeaderProxyAuthorization = \"Proxy-Authorization\"",
                           "authorization: Authorization", "Authorization = \"WWW-Authenticate\"",
                           "  \"authorization\": \"Bearer __ACCESS_TOKEN__\",", "x-api-key: __API_KEY__",
                           "Authorization: Bearer @@GITHUB_TOKEN@@",
                           "curl -H \"Authorization: Bearer ACCESS-TOKEN\" https://api.example.com/v1/me",
                           "x-api-key: YOUR-API-KEY-2",
                           "  authorization = ActionController::HttpAuthentication::Basic.encode_credentials(u, p)",
                           "headers: { Authorization: ActionController::HttpAuthentication::Token.encode_credentials(t) }",
                           // Typed API modules, status values, mappings, operation ids.
                           "    Authorization: ServiceAuthorization",
                           "    AggregationAuthorization: AggregationAuthorization | None",
                           "    authorization: MapOfStringToList | None", "  \"Authorization\": \"Unauthorized\",",
                           "  \"x-amzn-Remapped-Authorization\": \"response_param_Authorization\",",
                           "  \"v1-create-project-api-key\": \"v1CreateProjectApiKey\",",
                           // A provider's prefix and a stand-in (Slack's SDK docs and tests).
                           "                'Authorization': 'Bearer xoxb-1234-1243',",
                           "            bot_refresh_token=\"xoxe-1-refreshed\","}) {
    EXPECT_NE(highest(line), Severity::high) << line;
  }
  EXPECT_EQ(highest("Authorization: Bearer Kq8vR2xLm9TwZp4N8sYb | jq ."), Severity::high);
  EXPECT_EQ(highest("  \"v1-create-project-api-key\": \"Kq8vR2xLm9TwZp4N8sYb\","), Severity::high);
  EXPECT_EQ(highest("'Authorization': 'Bearer xoxe-1-" + testing::random_chars(120, 89) + "'"), Severity::high);
  EXPECT_EQ(highest("\tauthorization   = \"Kq8vR2xLm9TwZp4N8sYb\""), Severity::high);
  EXPECT_EQ(highest("  \"authorization\": \"Bearer __Kq8vR2xLm9TwZp4N8sYb\","), Severity::high);
  EXPECT_EQ(highest("x-api-key: 7KQ2X-KEYP9-9ZT4M-R8WQ3"), Severity::high);
}

// npm's and Docker's own test suites write fillers and user:pass pairs in
// .npmrc and config.json: reported at most as a test's, never high. A
// registry token and a drawn password stay high.
TEST(SecretRules, RegistryCredentialFillersAreNotHigh) {
  for (const std::string& line :
       {std::string("//registry.npmjs.org/:_authToken = deadbeefcafebadfoobarbaz42069"),
        std::string("'//registry.example/:_authToken = 0bad1de4'"), std::string("//registry.npmjs.org/:_authToken=foobar99"),
        "//registry.example/:_auth = " + base64_encode("foo:bar"),
        "//registry.example/:_auth = " + base64_encode("ci-user:ci_pass"),
        R"({ "auths": { "https://index.docker.io/v1/": { "auth": ")" + base64_encode("joejoe:hello") + "\" } } }",
        "\"auth\": \"" + base64_encode("env_user:env_pass") + "\""}) {
    EXPECT_NE(highest(line), Severity::high) << line;
  }
  EXPECT_TRUE(scan("//registry.example/:_auth = " + base64_encode("foo:bar")).empty());
  EXPECT_EQ(highest("//registry.npmjs.org/:_authToken=9f4c2b7e-3a1d-4e8f-b6c5-0d2e7a9f1b3c"), Severity::high);
  EXPECT_EQ(highest("//registry.example/:_auth = " + base64_encode("deploy:Zq8rT2vLm9pXw")), Severity::high);
  EXPECT_EQ(highest("\"auth\": \"" + base64_encode("ci-bot:Zq8rT2vLm9Kw") + "\""), Severity::high);
}

TEST(SecretRules, HeadersAndGenericAssignments) {
  EXPECT_TRUE(finds("Authorization: Bearer abcdef0123456789ABCDEFxyz", "auth-header", "abcdef0123456789ABCDEFxyz"));
  EXPECT_TRUE(finds("x-api-key: q8Zr2Lk9Vm3Xp7Wn5Ty1", "api-key-header", "q8Zr2Lk9Vm3Xp7Wn5Ty1"));
  EXPECT_TRUE(finds("DB_PASSWORD=Zq8!rT2#vLm9@pXw", "generic-secret", "Zq8!rT2#vLm9@pXw"));
  EXPECT_TRUE(finds("COOP_API_TOKEN=" + std::string("3f9a1c7e5b2d8f406a1e9c3b7d5f2a8e0c4b6d9f1a3e5c7b9d2f4a6c8e0b1d3f"),
                    "generic-secret", "3f9a1c7e5b2d8f406a1e9c3b7d5f2a8e0c4b6d9f1a3e5c7b9d2f4a6c8e0b1d3f"));
  // Not secrets: low entropy, placeholders, redaction markers.
  EXPECT_TRUE(scan("password = aaaaaaaaaaaaaaaa").empty());
  EXPECT_TRUE(scan("api_key=${ANTHROPIC_API_KEY}").empty());
  EXPECT_TRUE(scan("ANTHROPIC_API_KEY=[REDACTED:anthropic-key]").empty());
  EXPECT_TRUE(scan("token = your_token_here_please").empty());
  EXPECT_TRUE(scan("the tokenizer returns tokens quickly").empty());
  // Code that reads a key is not a key (as agents print source files).
  EXPECT_TRUE(scan("fetch(url, { headers: { apiKey: settings.provider_key || \"\" } });").empty());
  EXPECT_TRUE(scan("x-api-key: config.anthropic.apiKey").empty());
  EXPECT_TRUE(scan("const maxTokens = count(settings.system).length").empty());
  EXPECT_TRUE(finds("x-api-key: \"q8Zr2Lk9.Vm3Xp7Wn5Ty1\"", "api-key-header", "q8Zr2Lk9.Vm3Xp7Wn5Ty1"));
}

// What a real Elixir project's tree and its agent's notes hold (marot/spotter):
// a call ending in ! or ?, a compose file's ${VAR:?message}, a variable's
// name in prose. None is a credential; a value beside them still is.
TEST(SecretRules, NamesCallsAndExpansionsOfKeysAreNotKeys) {
  EXPECT_TRUE(scan("    api_key = System.fetch_env!(\"OPEN_AI_API_KEY\")").empty());
  EXPECT_TRUE(scan("    api_key_present = Runtime.anthropic_key_present?()").empty());
  EXPECT_TRUE(scan("      ANTHROPIC_API_KEY: ${ANTHROPIC_API_KEY:?ANTHROPIC_API_KEY is required}").empty());
  EXPECT_TRUE(scan("   - api_key: `ANTHROPIC_API_KEY` (fail fast if missing)").empty());
  EXPECT_TRUE(scan("export AUTH_TOKEN=OPEN_AI_API_KEY_2").empty());
  // A default in the expansion may be a key.
  EXPECT_FALSE(scan("      ANTHROPIC_API_KEY: ${ANTHROPIC_API_KEY:-Qx7rT2vLm9PzK4wN}").empty());
  EXPECT_TRUE(finds("AUTH_TOKEN=QX7RT2VLM9PZK4WN", "generic-secret", "QX7RT2VLM9PZK4WN"));
}

// Client code as agents print it (vercel/ai's providers, examples and
// tests): a header-like name set to a call, a variable, a variable's name,
// a phrase or SigV4's scheme is code, never a high finding; a key is.
TEST(SecretRules, HeaderLikeNamesInCodeAreNotKeys) {
  EXPECT_TRUE(scan("    apiKey: loadApiKey({ apiKey: options.apiKey, environmentVariableName: 'X' }),").empty());
  EXPECT_TRUE(scan("    apiKey: useRuntimeConfig().openaiApiKey,").empty());
  EXPECT_TRUE(scan("        apiKey: testApiKey,").empty());
  EXPECT_TRUE(scan("  apiKey: 'AIHUBMIX_API_KEY',").empty());
  EXPECT_TRUE(scan("        model: createXai({ apiKey: 'not-a-real-key' }).speech(),").empty());
  EXPECT_TRUE(scan("          authorization: 'AWS4-HMAC-SHA256 Credential=x/20250101/us-east-1/bedrock/aws4_request',").empty());
  EXPECT_TRUE(scan("    weather: { apiKey: 'weather-123' },").empty());
  EXPECT_TRUE(finds("        apiKey: 'kQ7vR2xLm9TwZp4N8sYb',", "api-key-header", "kQ7vR2xLm9TwZp4N8sYb"));
  EXPECT_TRUE(finds("        apiKey: 'weather-8305127946',", "api-key-header", "weather-8305127946"));
  EXPECT_TRUE(finds("        apiKey: kQ7vR2xLm9TwZp4N8sYb,", "api-key-header", "kQ7vR2xLm9TwZp4N8sYb"));
  // A test's stand-in: words and a number typed counting up or repeated.
  EXPECT_TRUE(scan("curl -H \"x-api-key: svc_valid_api_key_12345\" http://localhost:8080").empty());
  EXPECT_TRUE(scan("        apiKey: 'valid-api-key-4567890',").empty());
  EXPECT_TRUE(scan("api_key = \"svc_valid_api_key_00000\"").empty());
  EXPECT_TRUE(finds("curl -H \"x-api-key: svc_valid_api_key_83051\"", "api-key-header", "svc_valid_api_key_83051"));
}

// Go as agents read and run it: a struct literal setting a key from an
// exported constant, a struct field's tag, go test's status lines. The same
// places holding a drawn value are still found.
TEST(SecretRules, GoConstantsTagsAndTestStatusesAreNotSecrets) {
  EXPECT_TRUE(scan("payload := EventPayload{\n\tAPIKey:     PostHogAPIKey,\n}\n").empty());
  EXPECT_TRUE(scan("\tAPIKey: DatadogAPIKey,\n").empty());
  EXPECT_TRUE(scan("\tApiKey: DefaultKey,\n").empty());
  EXPECT_TRUE(scan("  \"X-API-KEY\": ProcessEnvKey,\n").empty());
  EXPECT_TRUE(scan("X-Api-Key: YourApiKeyHere\n").empty());
  EXPECT_TRUE(scan("cfg := Config{SecretToken: DefaultSecretToken}\n").empty());
  EXPECT_TRUE(scan("\tSecretToken string `json:\"secret_token\"`\n").empty());
  EXPECT_TRUE(scan("\tAPIKey      string `json:\"api_key\" yaml:\"api_key\"`\n").empty());
  EXPECT_TRUE(scan("--- PASS: TestIsGitSequenceOperation_Revert (0.01s)\n").empty());
  EXPECT_TRUE(scan("--- PASS: TestAPIKeyValidation/rejects_empty_key (0.00s)\n").empty());
  const std::string key = testing::random_chars(32, 92, "0123456789abcdef");
  EXPECT_EQ(highest("\tAPIKey: \"" + key + "\",\n"), Severity::warning);  // a property in code
  EXPECT_EQ(highest("x-api-key: " + key + "\n"), Severity::high);
  EXPECT_FALSE(scan("\tSecretToken string `" + key + "`\n").empty());
  EXPECT_FALSE(scan("DB_PASS: " + testing::random_chars(20, 93) + "\n").empty());
  // Random letters do not read as a constant's name.
  EXPECT_FALSE(scan("\tAPIKey: QxRtvLmPzKwNbYsJhDfG,\n").empty());
  EXPECT_FALSE(scan("    auth_token: QxRtvLmPzKwNbYsJhDfG").empty());
}

// TypeScript and JSX as agents print it (vercel/ai): optional chaining, a
// private field, an Authorization scheme before a phrase or a template, a
// JSX expression. A value after a scheme is still judged.
TEST(SecretRules, TypeScriptExpressionsAreNotSecrets) {
  EXPECT_TRUE(scan("      totalTokens: chunk.usage?.total_tokens,").empty());
  EXPECT_TRUE(scan("    credentials: this.#options.credentials,").empty());
  EXPECT_TRUE(scan("      Authorization: 'Bearer mock-auth-token',").empty());
  EXPECT_TRUE(scan("      Authorization: `Bearer ${await generateAuthToken()}`,").empty());
  EXPECT_TRUE(scan("    <ChatIdProvider storageKey={STORAGE_KEY}>").empty());
  // Types named in annotations and parameters.
  EXPECT_TRUE(scan("  async function saveTokens(tokens: OAuthTokens): Promise<void> {").empty());
  EXPECT_TRUE(scan("      getToken: async (tokenOptions: RealtimeFactoryV4GetTokenOptions) => {").empty());
  EXPECT_TRUE(scan("    credentials: GoogleCredentials,").empty());
  // Random letters do not read as a type.
  EXPECT_FALSE(scan("    auth_token: QxRtvLmPzKwNbYsJhDfG").empty());
  EXPECT_FALSE(scan("      upstream_auth: 'Bearer kQ7vR2xLm9TwZp4N8sYb',").empty());
}

TEST(SecretRules, CodeAndCommandsAssignedToCredentialNamesAreNotSecrets) {
  // Source files and package manifests an agent printed.
  EXPECT_TRUE(scan("      authMode: (env.APP_AUTH_MODE as 'sso' | 'key') || undefined,").empty());
  EXPECT_TRUE(scan("this._allowUnauthorized = allowUnauthorizedFallback, this._x = 1").empty());
  EXPECT_TRUE(scan("    \"check:secrets\": \"node tools/scan-for-secrets.mjs\",").empty());
  // The same places holding values that are drawn, not written.
  EXPECT_TRUE(finds("this._authToken = kT9vQ2xLm7RwZp4N, this._x = 1", "generic-secret", "kT9vQ2xLm7RwZp4N"));
  // npm's legacy tokens are UUIDs, a time-based one too.
  EXPECT_TRUE(finds("//registry.npmjs.org/:_authToken=5b1e7c2a-8f3d-11ee-b9d1-0242ac120002", "npmrc-auth",
                    "5b1e7c2a-8f3d-11ee-b9d1-0242ac120002"));
  EXPECT_TRUE(finds("//npm.corp.example/:_authToken= 5b1e7c2a-8f3d-11ee-b9d1-0242ac120002", "npmrc-auth",
                    "5b1e7c2a-8f3d-11ee-b9d1-0242ac120002"));
  // Under a key npm does not read, a time-based UUID stays an id.
  EXPECT_TRUE(scan("registry.npmjs.org/:_authToken=5b1e7c2a-8f3d-11ee-b9d1-0242ac120002").empty());
  EXPECT_TRUE(scan("//registry.npmjs.org:_authToken=5b1e7c2a-8f3d-11ee-b9d1-0242ac120002").empty());
  EXPECT_TRUE(finds("    \"api_secret\": \"q7 Zr2Lk9Vm3Xp7Wn5Ty\",", "generic-secret", "q7 Zr2Lk9Vm3Xp7Wn5Ty"));
}

TEST(SecretRules, AHeaderLikeNameSetToLowerCaseWordsIsASetting) {
  // A client's options in a source file an agent printed: the value names a
  // mode, it is not a credential.
  EXPECT_TRUE(scan("      options: { baseURL: base, apiKey: 'handled-by-gateway', timeout },").empty());
  EXPECT_TRUE(scan("Authorization: Bearer not-configured-yet").empty());
  EXPECT_TRUE(finds("      options: { apiKey: 'h4nd1ed-By-g4teway9', timeout },", "api-key-header", "h4nd1ed-By-g4teway9"));
}

TEST(Decoders, EachEncodingIsUndone) {
  std::string out;
  EXPECT_TRUE(decode_escapes(R"(\u0067hp\u005f \ud83d\ude00 \n)", &out));
  EXPECT_EQ(out, "ghp_ \xF0\x9F\x98\x80 \n");
  EXPECT_TRUE(decode_percent("a%2Db%41", &out));
  EXPECT_EQ(out, "a-bA");
  EXPECT_FALSE(decode_percent("100% sure", &out));
  std::vector<cheat::Run> runs;
  find_base64_runs("x c2stcHJvai1hYmNkZWZnaGlqa2xtbm9w== y short", &runs);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(decode_base64_text("c2stcHJvai1hYmNkZWZnaGlqa2xtbm9w==", &out));
  EXPECT_EQ(out, "sk-proj-abcdefghijklmnop");
  EXPECT_FALSE(decode_base64_text(std::string(64, 'f'), &out));  // hex decodes to binary, not text
}

TEST(Decoders, ChainsAreReported) {
  const std::string q = testing::random_chars(40, 21), r = testing::random_chars(40, 22);
  const std::string key = "sk-proj-" + q + "T3BlbkFJ" + r;
  const std::string b64 = base64_encode("OPENAI_API_KEY=" + key);
  EXPECT_TRUE(finds("echo " + b64 + " | base64 -d", "openai-key", key, "base64"));
  // JSON inside JSON, then \u escapes in the inner string.
  const std::string inner = R"({"output":"token=\\u0073k-proj-)" + q + "T3BlbkFJ" + r + R"("})";
  std::string outer = "{\"text\":";
  append_json_string(&outer, inner);
  outer += "}";
  EXPECT_TRUE(finds(outer, "openai-key", key, "json>json>unicode-escape"));
  // A token split across SSE deltas.
  std::string sse;
  const std::string ant = "sk-ant-api03-" + testing::random_chars(93, 23) + "AA";
  for (size_t i = 0; i < ant.size(); i += 9) {
    sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" +
           ant.substr(i, 9) + "\"}}\n\n";
  }
  EXPECT_TRUE(finds(sse, "anthropic-key", ant, "sse-join"));
}

// The checks' rebuild of a response stream is lent to the scan, which then
// reads it instead of rebuilding the same bytes: the same hits. Only for
// those bytes in place: the same text elsewhere is rebuilt as always.
TEST(Decoders, ALentAnswerStandsForTheStreamItWasRebuiltFrom) {
  std::string sse;
  const std::string ant = "sk-ant-api03-" + testing::random_chars(93, 31) + "AA";
  for (size_t i = 0; i < ant.size(); i += 9) {
    sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" +
           ant.substr(i, 9) + "\"}}\n\n";
  }
  auto hits = [](std::string_view text, std::string_view lent_text, const RebuiltAnswer* lent) {
    SecretEngine engine{Limits{}};
    engine.lend_answer(lent_text, lent);
    std::vector<SecretHit> out;
    engine.scan(text, "", &out);
    std::vector<std::string> found;
    found.reserve(out.size());
    for (const auto& h : out) found.push_back(rule_of(h) + " " + h.chain + " " + h.secret);
    return found;
  };
  const std::vector<std::string> rebuilt = hits(sse, {}, nullptr);
  ASSERT_EQ(rebuilt, std::vector<std::string>{"anthropic-key sse-join " + ant});
  const RebuiltAnswer answer = rebuild_answer(sse, Limits{});
  EXPECT_EQ(hits(sse, sse, &answer), rebuilt);
  // A lent answer is read: one that holds another key shows it...
  RebuiltAnswer other = answer;
  const std::string other_key = "sk-ant-api03-" + testing::random_chars(93, 32) + "AA";
  other.blocks.front().text = other_key;
  EXPECT_EQ(hits(sse, sse, &other), std::vector<std::string>{"anthropic-key sse-join " + other_key});
  // ...but only for the text it was lent for, not for a copy of it.
  const std::string copy = sse;
  EXPECT_EQ(hits(copy, sse, &other), rebuilt);
}

// The run's --max-depth reaches JSON the engine finds: past it, the text is
// scanned as it stands (the key still found, by its format, with no "json"
// step), within it the key is found inside the parsed JSON.
TEST(Decoders, JsonIsParsedUnderTheRunsDepth) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 31) + "AA";
  const std::string deep = std::string(10, '[') + "\"" + key + "\"" + std::string(10, ']');
  auto chains = [&](const Limits& limits) {
    SecretEngine engine(limits);
    std::vector<SecretHit> hits;
    engine.scan(deep, "", &hits);
    std::string out;
    for (const auto& h : hits) out += rule_of(h) + "(" + h.chain + ") ";
    return out;
  };
  EXPECT_EQ(chains(Limits{}), "anthropic-key(json) ");
  Limits shallow;
  shallow.max_depth = 8;
  EXPECT_EQ(chains(shallow), "anthropic-key() ");
}

// The same for the events of an SSE stream: a key split over deltas is
// joined when the events parse under the run's --max-depth; events nested
// deeper are bad events, so there is nothing to join.
TEST(Decoders, SseEventsAreParsedUnderTheRunsDepth) {
  const std::string ant = "sk-ant-api03-" + testing::random_chars(93, 24) + "AA";
  std::string sse;
  for (size_t i = 0; i < ant.size(); i += 9) {
    sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" +
           ant.substr(i, 9) + "\"}}\n\n";
  }
  auto found = [&](const Limits& limits) {
    SecretEngine engine(limits);
    std::vector<SecretHit> hits;
    engine.scan(sse, "", &hits);
    std::string out;
    for (const auto& h : hits) out += rule_of(h) + "(" + h.chain + ") ";
    return out;
  };
  EXPECT_EQ(found(Limits{}), "anthropic-key(sse-join) ");
  Limits shallow;
  shallow.max_depth = 1;
  EXPECT_EQ(found(shallow), "");
}

TEST(Decoders, NestingAndSizeAreBounded) {
  // Base64 of base64 of ... ten times: decoding stops at the depth limit
  // without failing, and the work stays proportional to the input.
  std::string s = "sk-ant-api03-" + std::string(90, 'w');
  for (int i = 0; i < 10; ++i) s = base64_encode(s);
  SecretEngine engine{Limits{}};
  std::vector<SecretHit> hits;
  engine.scan(s, "", &hits);
  EXPECT_LT(engine.scanned_bytes(), 20 * s.size());
}

// A 20-mer starting ACCA (1 in 256 guides of a CRISPR library) reads as an
// AWS key id; a key id's random part is never four letters only.
TEST(SecretRules, DnaSequencesAreNotAwsKeyIds) {
  EXPECT_TRUE(scan("guide_07\tACCAGTTCGATGCAAGTCGA\tchr3:1204417").empty());
  EXPECT_TRUE(scan("AKIAACGTACGTTTGGCCAA").empty());
  EXPECT_TRUE(finds("aws_access_key_id = ACCAGTTCGATGCAAGTC7Q", "aws-key-id", "ACCAGTTCGATGCAAGTC7Q"));
  EXPECT_EQ(highest("aws_access_key_id = ACCAGTTCGATGCAAGTC7Q"), Severity::high);
}

// The AWS CLI's docs print private keys whose bodies say EXAMPLE: a
// documented example, like AKIAIOSFODNN7EXAMPLE, never reported.
TEST(SecretRules, PrivateKeysThatSayExampleAreDocumentationExamples) {
  const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string body = "MIIEpAIBAAKCAQEA" + testing::random_chars(48, 11, chars) + "\n" + testing::random_chars(64, 12, chars) + "\n";
  const std::string example = "-----BEGIN RSA PRIVATE KEY-----\n" + body + testing::random_chars(40, 13, chars) +
                              "EXAMPLEKEY\n-----END RSA PRIVATE KEY-----";
  EXPECT_TRUE(scan(example).empty());
  const std::string real = "-----BEGIN RSA PRIVATE KEY-----\n" + body + testing::random_chars(50, 13, chars) +
                           "\n-----END RSA PRIVATE KEY-----";
  EXPECT_EQ(highest(real), Severity::high);
}

// A line of chained assignments ("secret=secret=...") is many empty values,
// not one value per name running to the end of the line: each bare value
// was read (and kept, when judged a secret) up to 64 KiB, so 1 MiB took
// about half an hour and gigabytes. Not timed here: the test's timeout is
// what a quadratic scan would run into.
TEST(SecretRules, ChainedAssignmentsOnOneLineScanInLinearTime) {
  for (std::string_view name : {"secret=", "api_key=", "AccountKey=", ":_authToken=", "SharedAccessKey=", "password="}) {
    std::string line;
    while (line.size() < (1u << 20)) line += name;
    size_t kept = 0;
    for (const auto& h : scan(line)) kept += h.secret.size();
    EXPECT_LT(kept, 2 * line.size()) << name;
  }
  // Many distinct secrets on one line, and values next to them: each kept
  // once, without comparing every one with every other (2 MB took minutes).
  std::string ids, mixed;
  const std::string base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  for (uint32_t i = 0; ids.size() < (2u << 20); ++i) ids += "AKIA" + testing::random_chars(16, i, base32) + " ";
  for (uint32_t i = 0; mixed.size() < (1u << 20); ++i) {
    mixed += "secret=" + testing::random_chars(20, i) + " AKIA" + testing::random_chars(16, i, base32) + " ";
  }
  EXPECT_GT(scan(ids).size(), 90000u);
  EXPECT_GT(scan(mixed).size(), 20000u);
  // The last value of a chain, and each value of a line of them, are still read.
  EXPECT_TRUE(finds("secret=secret=Zq8rT2vLm9Xk3Wp7", "generic-secret", "Zq8rT2vLm9Xk3Wp7"));
  EXPECT_TRUE(finds("a=1 api_key=Zq8rT2vLm9Xk3Wp7 token=Hk3x9Lq2Vb7Nm4Pz", "generic-secret", "Zq8rT2vLm9Xk3Wp7"));
  EXPECT_TRUE(finds("a=1 api_key=Zq8rT2vLm9Xk3Wp7 token=Hk3x9Lq2Vb7Nm4Pz", "generic-secret", "Hk3x9Lq2Vb7Nm4Pz"));
}

// Key block openers crowded onto one line with no END: each opener's END
// was looked for to the end of the text, so a 2.8 MB line of "-----BEGIN
// PRIVATE KEY-----" ran for minutes. Each search now stops at the next
// opener. The bound is a hang guard, some 50 times what the scan takes.
TEST(SecretRules, KeyBlockOpenersCrowdedOnOneLineScanInLinearTime) {
  const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string key = "\n-----BEGIN PRIVATE KEY-----\n" + testing::random_chars(64, 21, chars) + "\n" +
                          testing::random_chars(40, 22, chars) + "\n-----END PRIVATE KEY-----\n";
  for (std::string_view opener : {"-----BEGIN PRIVATE KEY----- ", "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- ",
                                  "-----BEGIN RSA PRIVATE KEY-----\\n", "-----END PRIVATE KEY-----BEGIN PRIVATE KEY"}) {
    std::string line;
    while (line.size() < (2u << 20)) line += opener;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_NE(highest(line), Severity::high) << opener;  // nothing of a key's length between the openers
    EXPECT_EQ(highest(line + key), Severity::high) << opener;  // a key after them is still found
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60.0) << opener;
  }
}

// Seconds `scan_it` takes: the hostile lines below scan in well under a
// second or two; their bound is a hang guard, a quadratic scan runs for
// minutes or hours.
template <typename F>
double seconds_of(F scan_it) {
  const auto start = std::chrono::steady_clock::now();
  scan_it();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
constexpr double kHangGuard = 60.0;

// Linear before too, some texts took fifty to a hundred times an ordinary
// text's time: those are timed against one (a bound that a loaded machine
// slows alike).
double ordinary_seconds(size_t bytes) {
  std::string prose;
  while (prose.size() < bytes) prose += "the quick brown fox jumps over 12 lazy dogs.\n";
  return seconds_of([&] { scan(prose); });
}

std::string repeated(std::string_view unit, size_t bytes) {
  std::string s;
  while (s.size() < bytes) s += unit;
  return s;
}

// A credential name followed by a million spaces: each space ended a match
// of the value rules' trailing \s* (or [ \t]+), and each candidate walked
// back over every space before it to find the name (hours for 1 MiB). The
// matcher keeps one candidate per run of spaces, and the walks are bounded.
TEST(SecretRules, SpacesAfterACredentialNameScanInLinearTime) {
  using testing::random_chars;
  const std::string lower = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string boot = random_chars(6, 231, lower) + "." + random_chars(16, 232, lower);
  const std::string password = random_chars(32, 233);
  const std::string tail = "\nsecret=secret=Zq8rT2vLm9Xk3Wp7\nkubeadm join 10.0.0.5:6443 --token " + boot +
                           "\ndocker login myreg.azurecr.io -u myreg -p " + password + "\n";
  for (std::string_view name : {"token:", " --password", "AccountKey=", "passwd:", "token: \t\n "}) {
    const std::string text = std::string(name) + std::string(1u << 20, ' ') + "Zx9Qw7Er5Ty3Ui1OpA" + tail;
    std::vector<SecretHit> hits;
    EXPECT_LT(seconds_of([&] { hits = scan(text); }), kHangGuard) << name;
    std::set<std::pair<std::string, std::string>> found;  // the credentials after the spaces are still found
    for (const auto& h : hits) found.emplace(rule_of(h), h.secret);
    EXPECT_TRUE(found.contains({"generic-secret", "Zq8rT2vLm9Xk3Wp7"})) << name;
    EXPECT_TRUE(found.contains({"kubernetes-bootstrap-token", boot})) << name;
    EXPECT_TRUE(found.contains({"cli-password", password})) << name;
  }
  // An aligned config's gap between name, operator and value is no run.
  EXPECT_TRUE(finds("api_key" + std::string(40, ' ') + "=" + std::string(100, ' ') + "Zq8rT2vLm9Xk3Wp7", "generic-secret",
                    "Zq8rT2vLm9Xk3Wp7"));
  EXPECT_TRUE(finds("api_key:\n" + std::string(60, ' ') + "\"Zq8rT2vLm9Xk3Wp7\"", "generic-secret", "Zq8rT2vLm9Xk3Wp7"));
  EXPECT_TRUE(finds("bootstrapTokens:\n- token:" + std::string(30, ' ') + boot, "kubernetes-bootstrap-token", boot));
}

// A line of unclosed "[REDACTED:" openers: each one's ']' was looked for to
// the end of the line (a 20 MB line ran for more than ten minutes). A
// marker's ']' comes within 80 bytes, and is looked for there only.
TEST(SecretRules, UnclosedRedactionMarkersAreReadInLinearTime) {
  const std::string line = repeated("[REDACTED:", 2u << 20) + std::string(100, ' ') + "[REDACTED:aws-access-key] [REDACTED:" +
                           std::string(80, 'x') + "]";
  absl::flat_hash_set<std::string> names;
  EXPECT_LT(seconds_of([&] { collect_markers(line, &names); }), 10.0);  // milliseconds; 40 s unbounded
  EXPECT_EQ(names, absl::flat_hash_set<std::string>{"aws-access-key"});  // the closed one, not the too long one
  EXPECT_EQ(redaction_marker_close("[REDACTED:a]", 0), 11u);
  EXPECT_EQ(redaction_marker_close("[REDACTED:" + std::string(70, 'x') + "]", 0), 80u);
  EXPECT_EQ(redaction_marker_close("[REDACTED:" + std::string(71, 'x') + "]", 0), std::string::npos);
}

// "eyJhbGciOi-" repeated: a JWT candidate every 11 bytes, each of which read
// the rest of the run looking for a dot (1 MiB: more than a minute). Each
// run is read once for all its candidates; a header has a bounded length.
TEST(SecretRules, JwtHeadsCrowdedInOneRunScanInLinearTime) {
  const std::string header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
  const std::string claims = "eyJzdWIiOiJ1LTc3MzEiLCJyb2xlIjoib3BzIiwiaWF0IjoxNzAwMDAwMDAwfQ";
  const std::string jwt = header + "." + claims + ".Qm9kN3xPq1vRt8ZsLw2Yk5HjC4uXe6Fa9GbTn0MdIyA";
  for (const std::string& end : {std::string("\n"), "." + claims + ".Qm9kN3xPq1vRt8ZsLw2Yk5HjC4uXe6Fa9GbTn0MdIyA\n"}) {
    const std::string line = repeated("eyJhbGciOi-", 2u << 20) + end;
    EXPECT_LT(seconds_of([&] { scan(line); }), kHangGuard);
    EXPECT_TRUE(finds(line + "t " + jwt + " end", "jwt", jwt));  // a token after the run is still found
  }
}

// "//r/:_auth=" repeated with no space: each candidate walked back to the
// start of the line for its registry's key (1 MiB: 48 s). A registry's key
// is short and looked for within 512 bytes.
TEST(SecretRules, NpmrcKeysCrowdedOnOneLineScanInLinearTime) {
  const std::string line = repeated("//r/:_auth=", 2u << 20);
  EXPECT_LT(seconds_of([&] { scan(line); }), kHangGuard);
  const std::string uuid = "5b1e7c2a-8f3d-11ee-b9d1-0242ac120002";  // time-based: a token under a registry's key only
  EXPECT_TRUE(finds(line + "\n//registry.npmjs.org/:_authToken=" + uuid, "npmrc-auth", uuid));
  EXPECT_TRUE(finds("//pkgs.dev.azure.com/org/project/_packaging/feed/npm/registry/:_authToken=" + uuid, "npmrc-auth",
                    uuid));
}

// "secret <token> " repeated on one line: each candidate looked back to the
// line's start for "kubeadm", lowercasing a copy of the line (400 KB: 4 s).
// kubeadm is looked for within 1 KiB before the token.
TEST(SecretRules, TokensAfterKeywordsCrowdedOnOneLineScanInLinearTime) {
  std::string line;
  for (uint32_t i = 0; line.size() < (1u << 20); ++i) line += "secret " + testing::random_chars(20, 240 + i) + " ";
  EXPECT_LT(seconds_of([&] { scan(line); }), kHangGuard);
  const std::string token = "ff9cfa3aafd54870b8407ac660f17590";
  EXPECT_TRUE(finds(line + "the client secret " + token + ".", "generic-secret", token));
  // kubeadm's token is its own rule's, still: looked for on the token's line.
  EXPECT_TRUE(scan("kubeadm join 10.0.0.5:6443 " + std::string(900, 'x') + " --token " + token).empty());
  EXPECT_TRUE(finds("kubeadm join 10.0.0.5:6443\n--token " + token, "generic-secret", token));
}

// "ASIA<16>-" repeated: every key id read its row's fields to 8 KiB, two
// rules each (1 MiB: 3.4 s, a hundred times an ordinary text). Each run of
// a row is read once for all the key ids in it.
TEST(SecretRules, AwsKeyIdsCrowdedInOneRowScanInLinearTime) {
  const std::string b64(kBase64Chars);
  const std::string secret = testing::random_chars(38, 241, b64) + "7q";
  const std::string token = "IQoJb3JpZ2luX2Vj" + testing::random_chars(400, 242, b64);
  const std::string asia = "ASIA" + testing::random_chars(16, 243, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
  const std::string row = "CREDENTIALS\t" + asia + "\t2026-12-02T03:00:00+00:00\t" + secret + "\t" + token + "\n";
  const double ordinary = ordinary_seconds(2u << 20);
  for (std::string_view unit : {"ASIAQWERTYUIOPASDFGH-", "ASIAQWERTYUIOPASDFGH-x "}) {
    const std::string line = "x " + repeated(unit, 2u << 20) + "\n";
    EXPECT_LT(seconds_of([&] { scan(line); }), 10 * ordinary + 2.0) << unit;
    EXPECT_TRUE(finds(line + row, "aws-secret-key", secret)) << unit;  // a row after them is still read
    EXPECT_TRUE(finds(line + row, "aws-session-token", token)) << unit;
  }
}

// Lines of PuTTY headers, none opening its line: each header walked up to
// 512 following lines (a 1 MB prompt: 50 s). A line that holds a header
// ends the walk: a key's own lines hold none.
TEST(SecretRules, PuttyHeadersOnEveryLineScanInLinearTime) {
  const std::string text = repeated("x " + repeated("PuTTY-User-Key-File-2: ", 10) + "\n", 2u << 20);
  EXPECT_LT(seconds_of([&] { scan(text); }), 10 * ordinary_seconds(text.size()) + 2.0);
  const std::string key = putty_key_file("3", "none", "\n", 48, 244);
  EXPECT_TRUE(finds(text + key + "\n", "putty-private-key", key));
  EXPECT_TRUE(finds(repeated("x PuTTY-User-Key-File-2: \\n", 2u << 20) + key + "\n", "putty-private-key", key));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SecretRecall, EveryCredentialOfTheLeaksSample) {
  CheatOptions opt;
  auto r = check_trace(testing::sample_path("claude-code-leaks.jsonl"), opt);
  simdjson::dom::parser p;
  auto truth = p.parse(read_file(testing::sample_path("claude-code-leaks.truth.json")));
  ASSERT_FALSE(truth.error());
  size_t found = 0, total = 0;
  for (auto s : truth["secrets"].get_array()) {
    ++total;
    const std::string_view sha = s["sha256"].get_string();
    bool hit = false;
    for (const auto& f : r.findings) hit |= f.has_secret && f.secret.secret_sha256 == sha;
    found += hit;
    EXPECT_TRUE(hit) << "missed " << std::string_view(s["kind"].get_string()) << " (" << std::string_view(s["where"].get_string()) << ")";
  }
  EXPECT_EQ(total, 15u);
  EXPECT_EQ(found, total);
}

TEST(SecretRecall, NothingHighOnCleanTraces) {
  for (auto style : {fixtures::HarnessStyle::claude_code, fixtures::HarnessStyle::codex}) {
    fixtures::TraceSpec spec;
    spec.style = style;
    spec.turns = 12;
    spec.tool_output_bytes = 4000;
    const auto path = testing::write_temp("clean.jsonl", fixtures::join(fixtures::conversation_lines(spec, testing::dev_key())));
    CheatOptions opt;
    Keyring ring = testing::dev_keyring();
    opt.walk.keyring = &ring;
    auto r = check_trace(path, opt);
    for (const auto& f : r.findings) EXPECT_FALSE(f.has_secret) << f.message;
  }
}

TEST(SecretRecall, PlantedSecretsAreFoundWithTheirExactText) {
  fixtures::TraceSpec spec;
  spec.plants = {"secret-plain", "secret-base64", "secret-uescape", "secret-url", "secret-sse-split", "secret-header"};
  fixtures::WrittenTrace written;
  const auto path = testing::write_temp("planted.jsonl", fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written)));
  CheatOptions opt;
  auto r = check_trace(path, opt);
  ASSERT_EQ(written.secrets.size(), 6u);
  for (const auto& [name, value] : written.secrets) {
    const std::string sha = to_hex(sha256(value));
    bool hit = false;
    for (const auto& f : r.findings) hit |= f.has_secret && f.secret.secret_sha256 == sha;
    EXPECT_TRUE(hit) << name;
  }
}

TEST(ScanMode, FilesDirectoriesZstdAndTar) {
  const std::string dir = testing::temp_dir() + "/scan";
  std::filesystem::create_directories(dir + "/sub");
  const std::string key = "glpat-" + testing::random_chars(20, 24);
  testing::write_temp("scan/plain.txt", "GITLAB=" + key + "\n");
  testing::write_temp("scan/sub/clean.txt", "nothing here\nat all");
  auto expanded = expand_scan_paths({dir}, Limits{});
  EXPECT_EQ(expanded.files.size(), 2u);
  EXPECT_TRUE(expanded.walks.empty());  // nothing was left out
  auto r = scan_file(dir + "/plain.txt", Limits{}, Policy{});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].secret.rule, "gitlab-pat");
  EXPECT_EQ(r.findings[0].secret.location, "line 1");
  EXPECT_TRUE(scan_file(dir + "/sub/clean.txt", Limits{}, Policy{}).findings.empty());
  // The leaks sample as a plain file, and zstd-compressed.
  auto leaks = scan_file(testing::sample_path("claude-code-leaks.jsonl"), Limits{}, Policy{});
  EXPECT_GE(leaks.findings.size(), 15u);
  auto z = scan_file(testing::sample_path("claude-code-verified.jsonl.zst"), Limits{}, Policy{});
  EXPECT_EQ(z.verify.verdict, Verdict::verified);
  // A zstd stream cut inside a frame is not "read in full".
  std::ifstream zin(testing::sample_path("claude-code-verified.jsonl.zst"), std::ios::binary);
  std::string zbytes((std::istreambuf_iterator<char>(zin)), std::istreambuf_iterator<char>());
  const auto cut = testing::write_temp("scan/cut.jsonl.zst", zbytes.substr(0, zbytes.size() - 9));
  auto c = scan_file(cut, Limits{}, Policy{});
  EXPECT_EQ(c.verify.verdict, Verdict::error);
  EXPECT_TRUE(testing::has_error(c.verify, Code::zstd_truncated));
  // A FIFO is refused, not read.
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(scan_file(fifo, Limits{}, Policy{}).verify.verdict, Verdict::error);
}

}  // namespace
}  // namespace goalcup::cheat

namespace goalcup::cheat {
namespace {

// The block-wise run finder against a byte-at-a-time reference.
std::vector<std::pair<size_t, size_t>> naive_runs(std::string_view in) {
  auto b64 = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
           c == '-' || c == '_';
  };
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < in.size();) {
    if (!b64(in[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < in.size() && b64(in[j])) ++j;
    size_t end = j;
    while (end < in.size() && end - j < 2 && in[end] == '=') ++end;
    if (end - i >= 20) out.emplace_back(i, end - i);
    i = end > j ? end : j;
  }
  return out;
}

TEST(Decoders, Base64RunsMatchAReferenceOnRandomText) {
  std::mt19937 rng(7);
  const std::string alphabet = "abcXYZ019+/-_= .\n\"\xc3\xa9";
  for (int round = 0; round < 2000; ++round) {
    std::string s;
    const size_t n = rng() % 400;
    // Long runs are made likely by picking from a few letters for a while.
    while (s.size() < n) {
      const bool long_run = rng() % 3 == 0;
      const size_t k = long_run ? 15 + rng() % 150 : 1 + rng() % 8;
      for (size_t i = 0; i < k; ++i) s += long_run ? "aZ9+"[rng() % 4] : alphabet[rng() % alphabet.size()];
    }
    std::vector<cheat::Run> runs;
    find_base64_runs(s, &runs);
    std::vector<std::pair<size_t, size_t>> got;
    for (const auto& r : runs) got.emplace_back(r.start, r.length);
    ASSERT_EQ(got, naive_runs(s)) << "input: " << s;
  }
}

TEST(Decoders, Base64RunsClassifyEveryByteValue) {
  // Each byte value once inside a long run: the vector classifier must
  // agree with the table on all 256.
  for (int b = 0; b < 256; ++b) {
    std::string s = std::string(40, 'Q') + static_cast<char>(b) + std::string(40, 'Q');
    std::vector<cheat::Run> runs;
    find_base64_runs(s, &runs);
    std::vector<std::pair<size_t, size_t>> got;
    for (const auto& r : runs) got.emplace_back(r.start, r.length);
    ASSERT_EQ(got, naive_runs(s)) << "byte " << b;
  }
}

}  // namespace
}  // namespace goalcup::cheat

#include "cheatcheck/secrets/redact.h"
#include "core/sha256.h"
#include "core/sse.h"

namespace goalcup::cheat {
namespace {

// A token as a URL's user, redacted (by redact or by the recorder), leaves
// a marker whose colon is no user:password separator: nothing to report,
// so redact can write the copy. A password after the marker still is one.
TEST(SecretRules, ARedactionMarkerInAUrlIsNoPassword) {
  const std::string token = "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";
  EXPECT_TRUE(scan("origin\thttps://[REDACTED:github-pat]@github.com/acme/app.git (fetch)").empty());
  EXPECT_TRUE(scan("git clone https://[REDACTED:github-pat]:x-oauth-basic@github.com/acme/app.git").empty());
  EXPECT_TRUE(scan("git clone https://[REDACTED:github-pat]:@github.com/acme/app.git").empty());
  EXPECT_TRUE(finds("git clone https://[REDACTED:user]:Zq8rT2vLm9@git.internal/r.git", "url-credentials", "Zq8rT2vLm9"));
  EXPECT_TRUE(finds("git clone https://Zq8rT2vLm9Xk3Wp7Hk3x:x-oauth-basic@github.com/a.git", "url-credentials",
                    "Zq8rT2vLm9Xk3Wp7Hk3x"));
  Redactor red(std::vector<KnownSecret>{{token, "github-pat", ""}}, Limits{});
  for (const std::string& line : {"origin\thttps://" + token + "@github.com/acme/app.git (fetch)",
                                  "git clone https://" + token + ":x-oauth-basic@github.com/acme/app.git",
                                  "git clone https://" + token + ":@github.com/acme/app.git"}) {
    const auto copy = red.redact(line);
    ASSERT_TRUE(copy) << line;
    EXPECT_TRUE(scan(*copy).empty()) << *copy;
  }
}

// A token redacted inside another value's base64 (GitHub Actions' Basic
// extraheader, a Docker config's auth) leaves base64 of text with a marker:
// the outer value is no credential any more, so redact can write the copy.
// The same values with the token in them stay findings.
TEST(Redact, AValueEncodingOnlyAMarkerIsNoCredential) {
  const std::string token = "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";
  Redactor red(std::vector<KnownSecret>{{token, "github-pat", ""}}, Limits{});
  const std::string header = "http.https://github.com/.extraheader=AUTHORIZATION: basic " +
                             base64_encode("x-access-token:" + token);
  const std::string docker = base64_encode(R"({"auths":{"ghcr.io":{"auth":")" + base64_encode("bob:" + token) + R"("}}})");
  for (const std::string& line : {header, docker}) {
    EXPECT_EQ(highest(line), Severity::high) << line;
    const auto copy = red.redact(line);
    ASSERT_TRUE(copy) << line;
    EXPECT_TRUE(scan(*copy).empty()) << *copy;
  }
}

TEST(Redact, EveryEncodingIsRedactedInPlace) {
  Redactor red(std::vector<KnownSecret>{{"sk-ant-api03-SECRETSECRETSECRET0123456789", "anthropic-key", ""}}, Limits{});
  const std::string key = "sk-ant-api03-SECRETSECRETSECRET0123456789";
  EXPECT_EQ(*red.redact("key=" + key + " end"), "key=[REDACTED:anthropic-key] end");
  // \u-escaped: the escapes that spelled the key are replaced, the rest kept.
  EXPECT_EQ(*red.redact(R"(a \u0073k-ant-api03-SECRETSECRETSECRET0123456789 \u00e9)"),
            R"(a [REDACTED:anthropic-key] \u00e9)");
  // Percent-encoded.
  EXPECT_EQ(*red.redact("x=sk%2Dant%2Dapi03%2DSECRETSECRETSECRET0123456789&y=1"), "x=[REDACTED:anthropic-key]&y=1");
  // Base64: decoded, redacted, re-encoded.
  std::string decoded;
  auto b64 = red.redact("AUTH=" + base64_encode("user:" + key) + " ok");
  ASSERT_TRUE(b64);
  ASSERT_TRUE(decode_base64_text(b64->substr(5, b64->size() - 8), &decoded));
  EXPECT_EQ(decoded, "user:[REDACTED:anthropic-key]");
  // JSON inside a string: re-serialized with the inner string redacted.
  EXPECT_EQ(*red.redact("{\"out\":\"" + key + "\",\"n\":1}"), "{\"out\":\"[REDACTED:anthropic-key]\",\"n\":1}");
  EXPECT_FALSE(red.redact("nothing to see here at all").has_value());
}

TEST(Redact, SecretsSplitAcrossDeltas) {
  const std::string key = "sk-ant-api03-SECRETSECRETSECRET0123456789";
  Redactor red(std::vector<KnownSecret>{{key, "anthropic-key", ""}}, Limits{});
  std::string sse;
  const std::string text = "your key is " + key + " ok";
  for (size_t i = 0; i < text.size(); i += 7) {
    std::string q;
    append_json_string(&q, text.substr(i, 7));
    sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":" + q + "}}\n\n";
  }
  auto out = red.redact(sse);
  ASSERT_TRUE(out);
  EXPECT_EQ(rebuild_answer(*out, Limits{}).text, "your key is [REDACTED:anthropic-key] ok");
  // The free-text input of an OpenAI custom tool call (Codex's apply_patch).
  std::string custom = "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,"
                       "\"item\":{\"type\":\"custom_tool_call\",\"call_id\":\"call_1\",\"name\":\"apply_patch\"}}\n\n";
  for (size_t i = 0; i < text.size(); i += 7) {
    std::string q;
    append_json_string(&q, text.substr(i, 7));
    custom += "event: response.custom_tool_call_input.delta\ndata: {\"type\":\"response.custom_tool_call_input.delta\","
              "\"output_index\":0,\"delta\":" + q + "}\n\n";
  }
  out = red.redact(custom);
  ASSERT_TRUE(out);
  const RebuiltAnswer a = rebuild_answer(*out, Limits{});
  ASSERT_EQ(a.tool_calls.size(), 1u);
  EXPECT_EQ(a.tool_calls[0].input, "your key is [REDACTED:anthropic-key] ok");
}

// What an answer streamed, joined: every block's text and every tool's input.
std::string streamed(const RebuiltAnswer& a) {
  std::string out;
  for (const auto& b : a.blocks) out += b.text;
  for (const auto& c : a.tool_calls) out += c.input;
  return out;
}

// `key` as the text of a delta kind: in prose, or a string of a tool's JSON
// input (there also spelled with a \u escape, which the scan decodes).
std::string said(const testing::DeltaKind& kind, const std::string& key, bool escaped = false) {
  if (!kind.json) return "the key is " + key + " ok";
  return R"({"command":"echo the key is )" + (escaped ? "\\u00" + to_hex(key.substr(0, 1)) + key.substr(1) : key) +
         R"( ok"})";
}

// The rebuild reports each piece it joins (sse_strands): a strand is the
// text the engine scans, for every delta kind, and nothing else.
TEST(SseStrands, AreTheTextsTheRebuildJoins) {
  for (const auto& kind : testing::delta_kinds()) {
    SCOPED_TRACE(kind.name);
    const std::string text = said(kind, "sk-ant-api03-" + testing::random_chars(93, 5) + "AA");
    const std::string sse = testing::split_delta_stream(kind, text);
    const auto strands = sse_strands(sse, Limits{});
    ASSERT_EQ(strands.size(), 1u);
    EXPECT_EQ(strands[0].text, text);
    EXPECT_EQ(streamed(rebuild_answer(sse, Limits{})), text);
    EXPECT_EQ(strands[0].pieces.size(), (text.size() + 6) / 7);
  }
  // A stream that joins nothing has no strand.
  EXPECT_TRUE(sse_strands("event: ping\ndata: {\"type\":\"ping\"}\n\n", Limits{}).empty());
}

// Whatever delta kind a stream split a key over, the redaction replaces it
// (found in the text the rebuild joins): no piece left, the answer
// rebuilt around the marker. A stream without it is left as it was.
TEST(Redact, SecretsSplitAcrossEveryDeltaKindTheRebuildJoins) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 31) + "AA";
  Redactor red(std::vector<KnownSecret>{{key, "anthropic-key", ""}}, Limits{});
  SecretEngine engine{Limits{}};
  for (const auto& kind : testing::delta_kinds()) {
    for (const bool escaped : {false, true}) {
      if (escaped && !kind.json) continue;
      SCOPED_TRACE(kind.name + (escaped ? " (\\u escaped)" : ""));
      const std::string sse = testing::split_delta_stream(kind, said(kind, key, escaped));
      std::vector<SecretHit> hits;
      engine.scan(sse, "", &hits);
      ASSERT_FALSE(hits.empty()) << "the engine joins this kind";
      auto out = red.redact(sse);
      ASSERT_TRUE(out);
      EXPECT_EQ(streamed(rebuild_answer(*out, Limits{})), said(kind, "[REDACTED:anthropic-key]"));
      hits.clear();
      engine.scan(*out, "", &hits);
      EXPECT_TRUE(hits.empty()) << *out;
      for (size_t at = 0; at + 6 <= key.size(); at += 6) EXPECT_EQ(out->find(key.substr(at, 6)), std::string::npos) << *out;
    }
  }
  EXPECT_FALSE(red.redact(testing::split_delta_stream(testing::delta_kinds()[0], "nothing to hide in here")).has_value());
}

// A trace that leaks in a request's query string and across deltas of
// every kind is redacted, passes its own scan and verifies under the dev
// key; a trace with nothing to redact comes out with no secret replaced.
TEST(Redact, QueryStringsAndDeltasOfEveryKindComeOutClean) {
  const testing::LeakyTrace leaky = testing::leaky_trace("leaky.jsonl");
  const std::string out = testing::temp_dir() + "/leaky-redacted.jsonl";
  std::filesystem::remove(out);
  auto r = redact_trace(leaky.path, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->secrets, leaky.secrets.size());
  const std::string copy = testing::read_file(out);
  for (const auto& secret : leaky.secrets) {
    for (size_t at = 0; at + 8 <= secret.size(); at += 8) EXPECT_EQ(copy.find(secret.substr(at, 8)), std::string::npos) << secret;
  }
  EXPECT_NE(copy.find("key=[REDACTED:google-api]"), std::string::npos);
  Keyring ring = testing::dev_keyring();
  WalkOptions opt;
  opt.keyring = &ring;
  EXPECT_VERDICT(walk_trace(out, opt), Verdict::verified);
  for (const auto& f : scan_file(out, Limits{}, Policy{}).findings) ADD_FAILURE() << f.message;

  const std::string clean = testing::write_temp("clean.jsonl", fixtures::join(testing::valid_trace()));
  auto none = redact_trace(clean, testing::temp_dir() + "/clean-redacted.jsonl",
                           testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_EQ(none->secrets, 0u);
  EXPECT_EQ(none->records_changed, 0u);
}

TEST(Redact, CodexPatchSplitAcrossDeltasComesOutClean) {
  fixtures::TraceSpec spec;
  spec.style = fixtures::HarnessStyle::codex;
  spec.turns = 4;
  spec.plants = {"secret-patch-split"};
  const auto in = testing::write_temp("patch-split.jsonl", fixtures::join(fixtures::conversation_lines(spec, testing::dev_key())));
  const std::string out = testing::temp_dir() + "/patch-split-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(r->secrets, 1u);
  auto s = scan_file(out, Limits{}, Policy{});
  for (const auto& f : s.findings) ADD_FAILURE() << f.message;
}

TEST(Redact, TheLeaksSampleBecomesCleanAndVerifiesWithTheDevKey) {
  const std::string out = testing::temp_dir() + "/redacted.jsonl";
  auto r = redact_trace(testing::sample_path("claude-code-leaks.jsonl"), out,
                        testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_GE(r->secrets, 15u);
  // It verifies with the dev key, and only with it.
  Keyring ring = testing::dev_keyring();
  WalkOptions opt;
  opt.keyring = &ring;
  auto v = walk_trace(out, opt);
  EXPECT_VERDICT(v, Verdict::verified);
  EXPECT_EQ(v.key_source, KeySource::supplied);
  EXPECT_VERDICT(walk_trace(out, WalkOptions{}), Verdict::invalid);
  // It scans clean, trace checks included (GC13 holds: digests and markers updated).
  CheatOptions copt;
  copt.walk.keyring = &ring;
  auto c = check_trace(out, copt);
  for (const auto& f : c.findings) {
    EXPECT_FALSE(f.has_secret) << f.message;
    EXPECT_NE(f.check, "GC13") << f.message;
  }
  // Nothing of any truth secret is left, in any encoding the engine decodes.
  auto s = scan_file(out, Limits{}, Policy{});
  EXPECT_TRUE(s.findings.empty());
}

}  // namespace
}  // namespace goalcup::cheat

#include "cheatcheck/secrets/matcher.h"
#include "cheatcheck/secrets/rule_database.h"

namespace goalcup::cheat {
namespace {

// The matcher uses the database compiled at build time; on another CPU it
// compiles the same rules at start. Both must find the same candidates.
// The matcher takes a candidate's start as end - match_len: a row whose
// match_len is not its pattern's width is refused when the database is built.
TEST(RuleDatabase, RefusesAMatchLenThatIsNotThePatternsWidth) {
  std::vector<Rule> rules(secret_rules().begin(), secret_rules().end());
  std::string error;
  EXPECT_TRUE(compile_rule_database(rules, &error) != nullptr) << error;
  const auto fixed = std::find_if(rules.begin(), rules.end(), [](const Rule& r) { return r.match_len != 0; });
  ASSERT_NE(fixed, rules.end());
  ++fixed->match_len;
  EXPECT_TRUE(compile_rule_database(rules, &error) == nullptr);
  EXPECT_NE(error.find("match_len " + std::to_string(fixed->match_len)), std::string::npos) << error;
  EXPECT_NE(error.find(std::string(fixed->id)), std::string::npos) << error;
}

TEST(Matcher, BuildTimeAndRunTimeDatabasesAgree) {
  std::string error;
  const HsDatabase db = compile_rule_database(&error);
  ASSERT_TRUE(db != nullptr) << error;
  HsScratch owned;
  hs_scratch_t* scratch = ready_scratch(owned, db.get());
  ASSERT_NE(scratch, nullptr);
  std::ifstream in(testing::sample_path("claude-code-leaks.jsonl"), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<std::pair<unsigned, unsigned long long>> runtime;
  hs_scan(db.get(), text.data(), static_cast<unsigned>(text.size()), 0, scratch,
          [](unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
            static_cast<std::vector<std::pair<unsigned, unsigned long long>>*>(ctx)->emplace_back(id, to);
            return 0;
          },
          &runtime);
  std::vector<Candidate> built;
  Matcher::instance().scan(text, &built);
  std::set<std::pair<unsigned, unsigned long long>> a(runtime.begin(), runtime.end()), b;
  for (const auto& c : built) b.emplace(c.rule, c.end);
  EXPECT_EQ(a, b);
  EXPECT_GT(a.size(), 15u);
}

}  // namespace
}  // namespace goalcup::cheat

#include "core/sse.h"

namespace goalcup::cheat {
namespace {

void base64_readings(std::string_view text, int depth, std::vector<std::string>* out);

// Every way `text` can be read: itself, its JSON strings, its escapes and
// %XX undone, its base64 runs decoded (at each of the four alignments a cut
// run can have), an event stream's deltas joined; recursively.
void readings(std::string_view text, int depth, std::vector<std::string>* out) {
  if (depth > 6 || text.size() < 9 || out->size() > 200000) return;
  out->emplace_back(text);
  if (text.front() == '{' || text.front() == '[') {
    simdjson::dom::parser p;
    auto doc = p.parse(std::string(text));
    if (!doc.error()) {
      std::vector<std::string> strings;
      std::function<void(simdjson::dom::element)> walk = [&](simdjson::dom::element e) {
        simdjson::dom::object o;
        simdjson::dom::array a;
        std::string_view s;
        if (!e.get(o)) {
          for (auto f : o) walk(f.value);
        } else if (!e.get(a)) {
          for (auto v : a) walk(v);
        } else if (!e.get(s)) {
          strings.emplace_back(s);
        }
      };
      walk(doc.value());
      for (const auto& s : strings) readings(s, depth + 1, out);
    }
  }
  std::string d;
  if (decode_escapes(text, &d)) readings(d, depth + 1, out);
  if (decode_percent(text, &d)) readings(d, depth + 1, out);
  if (looks_like_sse(text)) {
    const RebuiltAnswer a = rebuild_answer(text, Limits{});
    for (std::string_view b : a.text_blocks()) readings(b, depth + 1, out);
    for (const auto& c : a.tool_calls) readings(c.input, depth + 1, out);
  }
  base64_readings(text, depth, out);
  // Base64 wrapped over lines (base64's 76 columns), read with every line
  // break and the indentation after it taken out, escaped or not.
  std::string unwrapped;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool escaped = text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == 'n' || text[i + 1] == 'r');
    if (text[i] == '\r' || text[i] == '\n' || escaped) {
      i += escaped;
      while (i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\t')) ++i;
      continue;
    }
    unwrapped += text[i];
  }
  if (unwrapped.size() != text.size()) base64_readings(unwrapped, depth, out);
}

// What each base64 run of `text` reads as, at each of the four alignments a
// cut run can have.
void base64_readings(std::string_view text, int depth, std::vector<std::string>* out) {
  std::vector<Run> runs;
  find_base64_runs(text, &runs);
  for (const Run& r : runs) {
    for (size_t skip = 0; skip < 4 && skip + 12 < r.length; ++skip) {
      std::string bytes;
      uint32_t acc = 0;
      int bits = 0;
      for (char c : text.substr(r.start + skip, r.length - skip)) {
        const char* at = std::strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", c);
        const char* url = std::strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", c);
        if (c == '\0' || (!at && !url)) break;
        const auto v = static_cast<uint32_t>(at ? at - "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                                                : url - "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          bytes += static_cast<char>((acc >> bits) & 0xFF);
        }
      }
      readings(bytes, depth + 1, out);
    }
  }
}

// A redacted copy verifies and gives no finding of warning or worse: the
// redaction left a trace that checks as its original did.
void expect_copy_checks_clean(const std::string& out) {
  CheatOptions copt;
  Keyring ring = testing::dev_keyring();
  copt.walk.keyring = &ring;
  const CheatReport copy = check_trace(out, copt);
  EXPECT_VERDICT(copy.verify, Verdict::verified);
  for (const Finding& f : copy.findings) EXPECT_LT(f.severity, Severity::warning) << f.check << ": " << f.message;
}

// The first 9-character piece of any secret that some reading of `bytes`
// still holds, or "".
std::string leftover(const std::string& bytes, const std::vector<std::string>& secrets) {
  std::vector<std::string> all;
  std::istringstream lines(bytes);
  for (std::string line; std::getline(lines, line);) readings(line, 0, &all);
  for (const auto& s : secrets) {
    for (size_t i = 0; i + 9 <= s.size(); ++i) {
      const std::string piece = s.substr(i, 9);
      if (piece.find('\n') != std::string::npos || piece.find("-----") != std::string::npos) continue;
      for (const auto& r : all) {
        if (r.find(piece) != std::string::npos) return piece;
      }
    }
  }
  return "";
}

std::vector<std::string> truth_values() {
  simdjson::dom::parser p;
  auto truth = p.parse(read_file(testing::sample_path("claude-code-leaks.truth.json")));
  std::vector<std::string> out;
  for (auto s : truth["secrets"].get_array()) out.emplace_back(std::string_view(s["value"].get_string()));
  return out;
}

// Redaction removes the whole thing: on the leaks sample and on traces with
// every planted secret (multi-line keys, base64 in an environment variable,
// JSON twice, percent-encoded URLs, split deltas), no byte sequence of the
// copy reads, in any encoding, as 9 characters of a credential.
TEST(Redact, NothingThatDecodesToAPartOfACredentialIsLeft) {
  const std::string key = testing::source_path("fixtures/keys/dev-key.json");
  struct Case {
    std::string path;
    std::vector<std::string> secrets;
  };
  std::vector<Case> cases{{testing::sample_path("claude-code-leaks.jsonl"), truth_values()}};
  for (auto style : {fixtures::HarnessStyle::claude_code, fixtures::HarnessStyle::codex}) {
    fixtures::TraceSpec spec;
    spec.style = style;
    for (const auto& n : fixtures::plant_names()) {
      if (n.starts_with("secret-")) spec.plants.push_back(n);
    }
    fixtures::WrittenTrace written;
    const std::string path = testing::write_temp(style == fixtures::HarnessStyle::codex ? "planted-codex.jsonl" : "planted-cc.jsonl",
                                                 fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written)));
    Case c{path, {}};
    for (const auto& [name, value] : written.secrets) c.secrets.push_back(value);
    ASSERT_GE(c.secrets.size(), 9u);
    cases.push_back(c);
  }
  for (const auto& c : cases) {
    // Before: each secret reads from the trace (the check can fail).
    EXPECT_NE(leftover(read_file(c.path), c.secrets), "") << c.path;
    const std::string out = testing::temp_dir() + "/redacted-all.jsonl";
    auto r = redact_trace(c.path, out, key, Limits{});
    ASSERT_TRUE(r.ok()) << c.path << ": " << r.error().message;
    EXPECT_EQ(leftover(read_file(out), c.secrets), "") << c.path;
  }
}

// A key inside base64 in a wire request (`base64 -w0 .env` as a tool's
// output) is redacted inside the encoding, so the copy's body shows no
// marker and lists no span: its size is then the size stored, and the copy
// checks clean (red-team 14b #7: GC13 was high on it).
TEST(Redact, AKeyInsideBase64InARequestLeavesACopyThatChecksClean) {
  const std::string secret = "sk-ant-api03-" + testing::random_chars(93, 31) + "AA";
  const std::string in = testing::claude_trace_with_tool_output(
      "base64-env.jsonl", "$ base64 -w0 .env\n" + base64_encode("APP_ENV=production\nANTHROPIC_API_KEY=" + secret + "\n"));
  const std::string out = testing::temp_dir() + "/base64-env-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(leftover(read_file(out), {secret}), "");
  expect_copy_checks_clean(out);
}

// Keys of the newer rules are removed whole, plainly and inside base64 in
// an environment variable, and the copy holds nothing the engine finds.
TEST(Redact, NewFormatsAreRemovedWhole) {
  using testing::random_chars;
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string storage = random_chars(76, 251, b64) + "+ASt" + random_chars(5, 252, b64) + "A==";
  const std::string salesforce = "00D" + random_chars(12, 253) + "!" + random_chars(100, 254);
  for (const std::string& text : {"conn: " + storage + " end", "env SF=" + base64_encode("sf=" + salesforce + "\n") + " ok",
                                  "x " + salesforce + "."}) {
    const auto hits = scan(text);
    ASSERT_FALSE(hits.empty()) << text;
    std::vector<KnownSecret> known;
    for (const auto& h : hits) known.push_back({h.secret, rule_of(h), ""});
    Redactor red(known, Limits{});
    const auto out = red.redact(text);
    ASSERT_TRUE(out) << text;
    EXPECT_TRUE(scan(*out).empty()) << *out;
    EXPECT_EQ(out->find(storage.substr(60, 20)), std::string::npos) << *out;
    EXPECT_EQ(out->find(salesforce.substr(40, 20)), std::string::npos) << *out;
  }
}

// The formats of issue 16's second review are replaced whole, plainly and
// inside base64 in an environment variable, and in a trace's tool output
// (all of them, a PuTTY key file among them): nothing the engine finds is
// left, no reading of the copy holds a piece of one, and the copy checks
// clean.
TEST(Redact, TheSecondReviewsFormatsAreRemovedWhole) {
  std::vector<ReviewFormat> formats = review_formats();
  formats.push_back({"putty-private-key", putty_key_file("3", "none", "\n", 128, 461), ""});
  const std::string url64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  formats.push_back({"firebase-fcm-server-key",
                     "AAAA" + testing::random_chars(7, 462, url64) + ":APA91b" + testing::random_chars(134, 463, url64), ""});
  std::string output = "$ cat deploy.env deploy.ppk\n";
  std::vector<std::string> secrets;
  for (const ReviewFormat& f : formats) {
    for (const std::string& text : {"export TOKEN=" + f.token + "\n", "env AUTH=" + base64_encode("T=" + f.token + "\n") + " ok"}) {
      const auto hits = scan(text);
      ASSERT_FALSE(hits.empty()) << f.rule << ": " << text;
      std::vector<KnownSecret> known;
      known.reserve(hits.size());
      for (const auto& h : hits) known.push_back({h.secret, rule_of(h), ""});
      Redactor red(known, Limits{});
      const auto out = red.redact(text);
      ASSERT_TRUE(out) << text;
      EXPECT_TRUE(scan(*out).empty()) << f.rule << ": " << *out;
      EXPECT_EQ(out->find(f.token.substr(30, 16)), std::string::npos) << f.rule << ": " << *out;
    }
    output += f.token + "\n";
    // The key file's private lines are its secret; its header lines are words anyone writes.
    if (f.rule == "putty-private-key") {
      const size_t blob = f.token.find("Private-Lines: 2\n") + 17;
      secrets.push_back(f.token.substr(blob, 64));
      secrets.push_back(f.token.substr(blob + 65, 64));
    } else {
      secrets.push_back(f.token);
    }
  }
  const std::string in = testing::claude_trace_with_tool_output("review-formats.jsonl", output);
  EXPECT_NE(leftover(read_file(in), secrets), "");
  // The trace's checks report them (GC02/GC03), each high one by its rule.
  CheatOptions copt;
  Keyring ring = testing::dev_keyring();
  copt.walk.keyring = &ring;
  std::set<std::string> reported;
  for (const Finding& f : check_trace(in, copt).findings) {
    if ((f.check == "GC02" || f.check == "GC03") && f.severity == Severity::high && f.has_secret) {
      reported.insert(f.secret.rule);
    }
  }
  for (const ReviewFormat& f : formats) {
    if (f.rule != "firebase-fcm-server-key") {
      EXPECT_TRUE(reported.contains(f.rule)) << f.rule;
    }
  }
  const std::string out = testing::temp_dir() + "/review-formats-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(leftover(read_file(out), secrets), "");
  expect_copy_checks_clean(out);
}

// A redaction that leaves a secret behind writes nothing and says what and
// where (a first pass that missed the key is simulated by skipping its rule).
TEST(Redact, TheCopyIsScannedAgainBeforeItIsWritten) {
  fixtures::TraceSpec spec;
  spec.plants = {"secret-pem"};
  fixtures::WrittenTrace written;
  const std::string in = testing::write_temp("self-scan.jsonl",
                                             fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written)));
  const std::string out = testing::temp_dir() + "/self-scan-out.jsonl";
  std::filesystem::remove(out);
  auto ok = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_TRUE(std::filesystem::exists(out));
  std::filesystem::remove(out);
  auto bad = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{}, "pem-private-key");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("pem-private-key"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("at seq"), std::string::npos) << bad.error().message;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace goalcup::cheat

#include "cheatcheck/secrets/mask.h"

namespace goalcup::cheat {
namespace {

TEST(Mask, CredentialsShowAsTheirFindingsPreviewWhereverTheySit) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 31) + "AA";
  const std::string preview = mask_secret(key);
  CredentialMasker m{Limits{}};
  EXPECT_EQ(m.masked("export ANTHROPIC_API_KEY=" + key + "\n"), "export ANTHROPIC_API_KEY=" + preview + "\n");
  // Inside a JSON string inside JSON, and base64-encoded: no piece of it stays.
  std::string inner = "{\"k\":";
  append_json_string(&inner, key);
  std::string outer = "{\"text\":";
  append_json_string(&outer, inner + "}");
  outer += "}";
  const std::string masked = m.masked(outer);
  EXPECT_EQ(masked.find(key.substr(20, 20)), std::string::npos) << masked;
  EXPECT_NE(masked.find("(108 chars)"), std::string::npos) << masked;
  const std::string b64 = m.masked("AUTH=" + base64_encode("key " + key) + " end");
  std::string decoded;
  ASSERT_TRUE(decode_base64_text(b64.substr(5, b64.size() - 9), &decoded)) << b64;
  EXPECT_EQ(decoded, "key " + preview);
  EXPECT_EQ(m.count(), 1u);  // one credential, three places
  EXPECT_FALSE(m.mask("nothing secret here, only words and numbers 12345").has_value());
}

// A key split across deltas of any kind the rebuild joins shows as its
// preview in the rebuilt answer, and no piece of it stays in the events.
TEST(Mask, SecretsSplitAcrossEveryDeltaKindShowAsTheirPreview) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 32) + "AA";
  CredentialMasker m{Limits{}};
  for (const auto& kind : testing::delta_kinds()) {
    SCOPED_TRACE(kind.name);
    const std::string masked = m.masked(testing::split_delta_stream(kind, said(kind, key)));
    EXPECT_EQ(streamed(rebuild_answer(masked, Limits{})), said(kind, mask_secret(key)));  // (which shows its prefix)
    for (size_t at = 12; at + 6 <= key.size(); at += 6) EXPECT_EQ(masked.find(key.substr(at, 6)), std::string::npos) << masked;
  }
  const std::string plain = testing::split_delta_stream(testing::delta_kinds()[0], "nothing to hide in here");
  EXPECT_EQ(m.masked(plain), plain);
}

// A record is masked as the trace scan reads it: a credential header's
// value that no rule knows (a bearer token) is masked too, the rest of the
// record kept.
TEST(Mask, ARecordsCredentialHeaderIsMaskedThoughNoRuleKnowsIt) {
  const std::string token = testing::random_chars(48, 33);
  const auto line = [&](const std::string& header) {
    return fixtures::record_line(5, "2026-11-26T00:00:01.000Z", "wire", Digest{},
                                 testing::wire_body_json(0, R"("dir":"request","method":"POST","path":"/v1/messages")",
                                                         "api.example.com", "{}", R"([[")" + header + R"(","Bearer )" + token + R"("]])"));
  };
  CredentialMasker m{Limits{}};
  auto masked = m.mask_record(line("authorization"));
  ASSERT_TRUE(masked);
  EXPECT_EQ(masked->find(token), std::string::npos) << *masked;
  EXPECT_NE(masked->find("Bearer " + mask_secret(token)), std::string::npos) << *masked;
  // The same value under a header that names no credential is no finding.
  EXPECT_FALSE(m.mask_record(line("x-request-id")).has_value());
}

}  // namespace
}  // namespace goalcup::cheat

namespace goalcup::cheat {
namespace {

std::string rsa_block(const std::string& indent, const std::string& eol, bool terminated) {
  std::string out = indent + "-----BEGIN RSA PRIVATE KEY-----" + eol;
  for (uint32_t i = 0; i < 12; ++i) {
    out += indent + testing::random_chars(64, 40 + i, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") + eol;
  }
  return out + (terminated ? indent + "-----END RSA PRIVATE KEY-----" : "");
}

// A key written the ordinary way, on lines of its own (LF or CRLF, indented
// in YAML, or cut before its END line), is one finding whose secret_sha256
// is that of the block as written; the pre-commit hook's command refuses it.
TEST(ScanMode, NetrcEntriesOverLines) {
  const std::string password = testing::random_chars(18, 87);
  const std::string path =
      testing::write_temp("netrc-lines", "machine api.example.net\n  login deploy\n  password " + password + "\n");
  auto r = scan_file(path, Limits{}, Policy{}, true);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].secret.rule, "netrc-password");
  EXPECT_EQ(r.findings[0].secret.text, password);
  const std::string other = testing::write_temp("netrc-none", "machine api.example.net\n  login deploy\n  macdef init\n");
  EXPECT_TRUE(scan_file(other, Limits{}, Policy{}, true).findings.empty());
}

TEST(ScanMode, MultiLinePrivateKeysInPlainFiles) {
  struct Case {
    std::string name, before, block, after;
  };
  const std::vector<Case> cases{
      {"key.pem", "", rsa_block("", "\n", true), "\n"},
      {"key-crlf.pem", "", rsa_block("", "\r\n", true), "\r\n"},
      {"values.yaml", "tls:\n  key: |\n", rsa_block("    ", "\n", true), "\n  cert: none\n"},
      {"cut.log", "$ cat id_rsa\n", rsa_block("", "\n", false), "\n"},
  };
  std::filesystem::create_directories(testing::temp_dir() + "/keys");
  for (const auto& c : cases) {
    const std::string path = testing::write_temp("keys/" + c.name, c.before + c.block + c.after);
    auto r = scan_file(path, Limits{}, Policy{}, true);
    std::string block = c.block;
    if (c.name == "values.yaml") block = block.substr(4);  // from BEGIN on
    if (c.name == "cut.log") block.pop_back();            // the last line, without its LF
    ASSERT_EQ(r.findings.size(), 1u) << c.name;
    EXPECT_EQ(r.findings[0].secret.rule, "pem-private-key") << c.name;
    EXPECT_EQ(r.findings[0].secret.secret_sha256, to_hex(sha256(block))) << c.name << ": " << r.findings[0].secret.text;
    // Located at its BEGIN line.
    const auto begin_line = std::count(c.before.begin(), c.before.end(), '\n') + 1;
    EXPECT_EQ(r.findings[0].secret.location, "line " + std::to_string(begin_line)) << c.name;
    EXPECT_NE(testing::run_command(std::string(GOALCUP_CHEATCHECK_BIN) + " scan --no-progress --fail-on warning " + path).exit_code, 0)
        << c.name;
  }
}

// A reused batch starts empty: each line's provider-key mark reaches the sink
// once, however many batches the lines fill (they were counted again with
// every reuse, a count that changed with timing).
TEST(ScanPool, EachLineIsDeliveredOnceAcrossReusedBatches) {
  class MarkEveryLine final : public LineScanner {
   public:
    void scan(std::string_view, uint64_t seq, const LineTexts*, ScanOutput* out) override {
      out->provider_key_lines.push_back(seq);
    }
  };
  for (unsigned threads : {0U, 2U}) {
    std::vector<uint64_t> seen;
    {
      ScanPool pool(threads, [] { return std::make_unique<MarkEveryLine>(); },
                    [&](ScanOutput& out) { seen.insert(seen.end(), out.provider_key_lines.begin(), out.provider_key_lines.end()); });
      const std::string line(100, 'x');
      for (uint64_t seq = 0; seq < 20000; ++seq) pool.add(line, seq);
      pool.finish();
    }
    ASSERT_EQ(seen.size(), 20000U) << threads << " threads";
    for (uint64_t seq = 0; seq < seen.size(); ++seq) ASSERT_EQ(seen[seq], seq);
  }
}

// A long text seen before is not scanned again, and what its hits add to a
// scan is what scanning it again adds: the same secrets, rules and chains,
// in the same order, for a text inside other JSON and at other depths.
TEST(ScanCache, ATextSeenBeforeGivesTheSameHitsWithoutAScan) {
  std::string leaf;
  while (leaf.size() < 3000) leaf += "the build log says nothing of note here ";
  leaf += "key AKIAIOSFODNN7EXAMPLQ and " + base64_encode("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");
  const std::string first = "{\"a\": \"" + leaf + "\"}";
  const std::string second = "{\"b\": [\"" + leaf + "\", \"x\"], \"c\": {\"d\": \"" + leaf + "\"}}";
  auto describe = [](const std::vector<SecretHit>& hits) {
    std::string out;
    for (const auto& h : hits) out += rule_of(h) + "(" + h.chain + ")" + h.secret + " ";
    return out;
  };
  SecretEngine plain{Limits{}};
  std::vector<SecretHit> expect1, expect2;
  plain.scan(first, "", &expect1);
  plain.scan(second, "", &expect2);
  ASSERT_NE(describe(expect1).find("aws-key-id(json)"), std::string::npos) << describe(expect1);
  ASSERT_NE(describe(expect1).find("github-pat(json>base64)"), std::string::npos) << describe(expect1);

  ScanCache cache;
  SecretEngine one{Limits{}}, two{Limits{}};
  one.use_cache(&cache);
  two.use_cache(&cache);
  std::vector<SecretHit> got1, got2;
  one.scan(first, "", &got1);
  EXPECT_EQ(cache.found(), 0U);
  two.scan(second, "", &got2);
  EXPECT_EQ(cache.found(), 2U);  // both places in the second text
  EXPECT_EQ(describe(got1), describe(expect1));
  EXPECT_EQ(describe(got2), describe(expect2));
  EXPECT_EQ(one.scanned_bytes() + two.scanned_bytes(), plain.scanned_bytes());
  // The same text at the same depth reached by another decoding is another
  // entry: its hits name the decoding that reached it ("url", not "json").
  std::string encoded;
  for (unsigned char c : leaf) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%%%02X", c);
    encoded += hex;
  }
  std::vector<SecretHit> expect3, got3;
  plain.scan(encoded, "", &expect3);
  ASSERT_NE(describe(expect3).find("aws-key-id(url)"), std::string::npos) << describe(expect3);
  two.scan(encoded, "", &got3);
  EXPECT_EQ(describe(got3), describe(expect3));
  EXPECT_EQ(cache.found(), 2U);
}

// Everything a scan of a line reported, in order: rule, secret, decoding
// chain, severity, note, seq and place; then markers and provider-key lines.
std::string describe_output(const ScanOutput& o) {
  std::string d;
  for (const auto& h : o.hits) {
    d += std::to_string(h.seq) + " " + h.location + " " + rule_of(h.hit) + " (" + h.hit.chain + ") " + h.hit.secret +
         " " + std::to_string(static_cast<int>(h.hit.severity)) + " " + h.hit.note + "\n";
  }
  std::vector<std::string> markers(o.markers.begin(), o.markers.end());
  std::sort(markers.begin(), markers.end());
  for (const auto& m : markers) d += "marker " + m + "\n";
  for (uint64_t seq : o.provider_key_lines) d += "provider key line " + std::to_string(seq) + "\n";
  return d;
}

// Every line of planted traces whose tool outputs are re-sent by later
// requests: what a cached scanner reports is byte for byte what an uncached
// one reports, rule, secret, decoding chain, note, seq and place, in order.
TEST(ScanCache, FindingsOfATraceAreTheSameWithAndWithoutIt) {
  for (auto style : {fixtures::HarnessStyle::claude_code, fixtures::HarnessStyle::codex}) {
    fixtures::TraceSpec spec;
    spec.style = style;
    spec.turns = 10;
    spec.history_turns = 4;
    spec.tool_output_bytes = 3000;
    for (const auto& n : fixtures::plant_names()) {
      if (n.starts_with("secret-")) spec.plants.push_back(n);
    }
    const auto lines = fixtures::conversation_lines(spec, testing::dev_key());
    ScanCache cache;
    auto plain = make_record_line_scanner(true, Limits{});
    auto cached = make_record_line_scanner(true, Limits{}, &cache);
    size_t with_hits = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string padded = lines[i] + std::string(kLinePadding, '\0');
      const std::string_view line(padded.data(), lines[i].size());
      ScanOutput a, b;
      plain->scan(line, i, &a);
      cached->scan(line, i, &b);
      EXPECT_EQ(describe_output(a), describe_output(b)) << "line " << i;
      with_hits += !a.hits.empty();
    }
    EXPECT_GE(with_hits, 5U);      // not vacuous: the planted secrets are found
    EXPECT_GT(cache.found(), 10U);  // and re-sent texts were replayed
  }
}

// The lines of two six-turn traces (Claude Code, Codex) with every secret
// plant the fixture writer has; `written` says what was planted.
std::vector<std::string> secret_planted_lines(fixtures::WrittenTrace* written) {
  std::vector<std::string> lines;
  for (auto style : {fixtures::HarnessStyle::claude_code, fixtures::HarnessStyle::codex}) {
    fixtures::TraceSpec spec;
    spec.style = style;
    spec.turns = 6;
    for (const auto& n : fixtures::plant_names()) {
      if (n.starts_with("secret-")) spec.plants.push_back(n);
    }
    for (auto& l : fixtures::conversation_lines(spec, testing::dev_key(), written)) lines.push_back(std::move(l));
  }
  return lines;
}

// The scan of a trace check reads each record's texts from the walk's parse
// (TextArena) instead of parsing the line again: it must report exactly what
// a scanner parsing the line itself reports, for every kind of record, with
// headers (numbered past a malformed one), base64 bodies (valid or not),
// native lines showing a provider's key, markers and lines that do not parse.
TEST(RecordTexts, ScanOfTheWalksTextsIsTheScanOfTheLine) {
  fixtures::WrittenTrace written;
  std::vector<std::string> lines = secret_planted_lines(&written);
  ASSERT_FALSE(written.secrets.empty());
  const std::string& secret = written.secrets.front().second;
  const std::string prev = "\"prev\":\"sha256:" + std::string(64, '0') + "\"";
  auto record = [&](std::string_view kind, const std::string& body) {
    return "{\"seq\":1,\"t\":\"2026-11-26T10:00:00Z\",\"kind\":\"" + std::string(kind) + "\"," + prev + ",\"body\":" + body + "}";
  };
  std::string json_secret;
  JsonWriter(&json_secret).value(secret);
  lines.push_back(record("wire", R"({"dir":"request","headers":[["a"],42,["x-api-key","k1234567890abcdef"],["authorization","Bearer [REDACTED:auth]"]],"encoding":"base64","body":")" +
                                     base64_encode("{\"note\":" + json_secret + "}") + R"("})"));
  lines.push_back(record("wire", R"({"dir":"response","encoding":"base64","body":"not base64 )" + secret + R"("})"));
  lines.push_back(record("native", R"({"source":"claude-code","text":{"a":[)" + json_secret + R"(,{"b":"[REDACTED:openai-key]"}]}})"));
  lines.push_back(record("native", R"({"source":"claude-code")"));  // does not parse
  Limits limits;
  RecordParser parser(limits);
  auto self = make_record_line_scanner(true, limits);
  auto given = make_record_line_scanner(true, limits);
  size_t with_hits = 0, markers = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string padded = lines[i] + std::string(kLinePadding, '\0');
    const std::string_view line(padded.data(), lines[i].size());
    ScanOutput a, b;
    self->scan(line, i, &a);
    if (auto r = parser.parse(line, i)) {
      TextArena arena;
      const LineTexts texts{&arena, arena.add(*r)};
      given->scan(line, i, &texts, &b);
    } else {
      EXPECT_GE(i, lines.size() - 1) << "only the last hand-written line is broken: " << r.error().message;
      given->scan(line, i, nullptr, &b);
    }
    EXPECT_EQ(describe_output(b), describe_output(a)) << lines[i].substr(0, 300);
    with_hits += !a.hits.empty();
    markers += a.markers.size();
  }
  EXPECT_GE(with_hits, 8U);  // not vacuous
  EXPECT_GE(markers, 2U);
  // The hand-written lines, read as the format says.
  ScanOutput request, native;
  const std::string padded = lines[lines.size() - 4] + std::string(kLinePadding, '\0');
  self->scan(std::string_view(padded.data(), lines[lines.size() - 4].size()), 7, &request);
  const std::string request_found = describe_output(request);
  EXPECT_NE(request_found.find("7 body.headers[2] api-key-header () k1234567890abcdef"), std::string::npos) << request_found;
  EXPECT_NE(request_found.find("7 body.body "), std::string::npos) << request_found;
  EXPECT_NE(request_found.find("(base64>json) " + secret), std::string::npos) << request_found;
  const std::string padded_native = lines[lines.size() - 2] + std::string(kLinePadding, '\0');
  self->scan(std::string_view(padded_native.data(), lines[lines.size() - 2].size()), 9, &native);
  EXPECT_NE(describe_output(native).find("9 body.text.a[0] "), std::string::npos) << describe_output(native);
  EXPECT_NE(describe_output(native).find("marker openai-key"), std::string::npos) << describe_output(native);
}

// The checks parse each request's content and each native line's text; the
// scan then reads their strings from that parse (TextArena::add_parsed)
// instead of parsing them again. It must report exactly what a scanner
// parsing the line itself reports: for bodies stored as base64, bodies that
// open with white space or are no JSON, repeated members, names that make a
// generic assignment, and documents deeper than the scan's --max-depth
// (which the checks, under a looser bound, parse: those are not shared).
TEST(RecordTexts, ScanOfTheChecksParseIsTheScanOfTheLine) {
  fixtures::WrittenTrace written;
  std::vector<std::string> lines = secret_planted_lines(&written);
  ASSERT_FALSE(written.secrets.empty());
  std::string secret;
  JsonWriter(&secret).value(written.secrets.front().second);
  const std::string deep = std::string(7, '[') + secret + std::string(7, ']');
  auto record = [&](std::string_view kind, const std::string& body) {
    return "{\"seq\":1,\"t\":\"2026-11-26T10:00:00Z\",\"kind\":\"" + std::string(kind) + "\",\"prev\":\"sha256:" +
           std::string(64, '0') + "\",\"body\":" + body + "}";
  };
  auto request = [&](const std::string& content, bool base64 = false) {
    std::string stored;
    JsonWriter(&stored).value(base64 ? base64_encode(content) : content);
    return record("wire", R"({"dir":"request","headers":[["content-type","application/json"]],"encoding":")" +
                              std::string(base64 ? "base64" : "utf8") + R"(","body":)" + stored + "}");
  };
  auto native = [&](const std::string& text) {
    std::string stored;
    JsonWriter(&stored).value(text);
    return record("native", R"({"source":"claude-code","text":)" + stored + "}");
  };
  const std::string assignment = R"({"db_password":"Zq8rT2vLm9pXwQ4sKd","messages":[{"content":)" + secret + "}]}";
  for (const std::string& content : std::vector<std::string>{assignment, " " + assignment, "{\"a\":" + secret + ",\"a\":1}",
                                     "{\"deep\":" + deep + "}", "[" + secret + "]", "{\"short\":\"x\"}"}) {
    lines.push_back(request(content));
    lines.push_back(request(content, true));
    lines.push_back(native(content));
  }
  size_t with_hits = 0, shared = 0, kept_whole = 0;
  for (const uint32_t max_depth : {64u, 8u, 7u}) {  // the deep body: within, at and past the scan's bound
    Limits limits;
    limits.max_depth = max_depth;
    RecordParser parser(limits);
    Context ctx(Policy{}, limits);
    auto self = make_record_line_scanner(true, limits);
    auto given = make_record_line_scanner(true, limits);
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string padded = lines[i] + std::string(kLinePadding, '\0');
      const std::string_view line(padded.data(), lines[i].size());
      auto r = parser.parse(line, i);
      if (!r) continue;
      ctx.begin_record(*r);
      std::optional<ParsedBody> parsed;
      if (r->kind == Kind::native) {
        (void)ctx.native();
        parsed = ctx.parsed_native();
      } else if (r->kind == Kind::wire && ctx.wire_body().present) {
        (void)ctx.request_json();
        parsed = ctx.parsed_request();
      }
      TextArena arena;
      const LineTexts texts{&arena, arena.add(*r, parsed ? &*parsed : nullptr, max_depth)};
      const auto items = arena.items(texts.record);
      const bool read_parsed = std::any_of(items.begin(), items.end(), [](const TextItem& t) {
        return t.role == TextItem::Role::json_body || t.role == TextItem::Role::json_field;
      });
      shared += read_parsed;
      kept_whole += parsed && !read_parsed;
      ScanOutput a, b;
      self->scan(line, i, &a);
      given->scan(line, i, &texts, &b);
      EXPECT_EQ(describe_output(b), describe_output(a)) << "max depth " << max_depth << ": " << lines[i].substr(0, 300);
      with_hits += !a.hits.empty();
    }
  }
  EXPECT_GE(with_hits, 30U);  // not vacuous
  EXPECT_GE(shared, 30U);
  EXPECT_GE(kept_whole, 4U);  // the deep body at and past the bound, the one opening with a space
}

// The copy handed to the scan's workers stays within a small factor of the
// line however the JSON nests: a path per string, kept, would have made a
// line of short strings deep in arrays take many times its size.
TEST(RecordTexts, TheCopyOfADeeplyNestedLineStaysNearItsSize) {
  const int depth = 60;
  std::string value = std::string(depth, '[');
  for (int i = 0; i < 20000; ++i) value += std::string(i ? "," : "") + "\"abcdefghijkl\"";
  value += std::string(depth, ']');
  const std::string line = "{\"seq\":1,\"t\":\"2026-11-26T10:00:00Z\",\"kind\":\"native\",\"prev\":\"sha256:" +
                           std::string(64, '0') + "\",\"body\":{\"deep\":" + value + "}}";
  const std::string padded = line + std::string(kLinePadding, '\0');
  RecordParser parser(Limits{});  // 60 arrays deep, within the default depth
  auto r = parser.parse(std::string_view(padded.data(), line.size()), 1);
  ASSERT_TRUE(r) << r.error().message;
  TextArena arena;
  const RecordTexts texts = arena.add(*r);
  EXPECT_EQ(texts.count, 20000U);  // every string long enough to hold a secret
  EXPECT_LT(arena.bytes(), 4 * line.size()) << arena.bytes() << " bytes for a line of " << line.size();
  EXPECT_EQ(record_string_path(*r, 19999), "body.deep" + [&] {
    std::string p;
    for (int i = 1; i < depth; ++i) p += "[0]";
    return p + "[19999]";
  }());
}

}  // namespace
}  // namespace goalcup::cheat

namespace goalcup::cheat {
namespace {

// `b64` cut into lines of `width` joined by `line_break`, as `base64` (76
// columns) and `openssl base64` (64) write it.
std::string wrap(std::string_view b64, size_t width, std::string_view line_break) {
  std::string out;
  for (size_t at = 0; at < b64.size(); at += width) {
    if (at > 0) out += line_break;
    out += b64.substr(at, width);
  }
  return out;
}

// An .env holding an Anthropic key, base64-encoded: 208 characters, on
// three lines at 76 columns, of which none decodes to the key alone.
struct WrappedEnv {
  std::string key = "sk-ant-api03-" + testing::random_chars(93, 301) + "AA";
  std::string b64 = base64_encode("APP_ENV=production\nANTHROPIC_API_KEY=" + key + "\nDEBUG=0\n");
};

TEST(Decoders, WrappedBase64RunsAreFoundWithTheirLines) {
  const WrappedEnv env;
  const std::string text = "$ base64 .env\n" + wrap(env.b64, 76, "\n") + "\n$ ls\n";
  std::vector<cheat::Run> runs;
  find_base64_runs(text, &runs);
  const size_t lines = runs.size();
  add_wrapped_base64_runs(text, &runs);
  ASSERT_EQ(runs.size(), lines + 1);
  EXPECT_EQ(runs[0].width, 76u);
  EXPECT_EQ(runs[0].pieces, lines);
  std::string joined;
  EXPECT_EQ(base64_chars(text, runs[0], &joined), env.b64);
  EXPECT_EQ(wrap_like(env.b64, text, runs[0]), wrap(env.b64, 76, "\n"));
  // Lines of another width, or a blank line between, are not one run.
  for (const std::string& other : {env.b64.substr(0, 76) + "\n" + env.b64.substr(76, 80) + "\n" + env.b64.substr(156),
                                   env.b64.substr(0, 76) + "\n\n" + env.b64.substr(76)}) {
    runs.clear();
    find_base64_runs(other, &runs);
    add_wrapped_base64_runs(other, &runs);
    for (const cheat::Run& r : runs) EXPECT_FALSE(r.width != 0 && r.start == 0) << other;  // the first line wraps on no other
  }
}

// `base64 .env` wraps at 76 columns and splits the key across lines; the
// lines are read as one run, however they are broken, indented or escaped.
TEST(Decoders, AKeyInBase64WrappedOverLinesIsFound) {
  const WrappedEnv env;
  struct Shape {
    const char* name;
    size_t width;
    std::string line_break, before, after;
  };
  const std::vector<Shape> shapes{
      {"base64, LF", 76, "\n", "$ base64 .env\n", "\n$ "},
      {"openssl base64, CRLF", 64, "\r\n", "", "\r\n"},
      {"YAML block, indented", 76, "\n    ", "data:\n  env: |\n    ", "\n  other: 1\n"},
      {"heredoc, tabs", 64, "\n\t", "cat <<EOF\n\t", "\nEOF\n"},
      {"in a JSON string of a text", 76, "\\n", "config: {\"env\": \"", "\\n\"} end"},
      {"JSON twice, CRLF", 64, "\\\\r\\\\n", "log \"{\\\"env\\\": \\\"", "\\\"}\""},
      {"an assignment", 76, "\n", "AUTH=", "\n"},
  };
  for (const auto& s : shapes) {
    const std::string text = s.before + wrap(env.b64, s.width, s.line_break) + s.after;
    EXPECT_TRUE(finds(text, "anthropic-key", env.key, "base64")) << s.name;
  }
  std::string json = "{\"env\":";
  append_json_string(&json, wrap(env.b64, 76, "\n") + "\n");
  EXPECT_TRUE(finds(json + "}", "anthropic-key", env.key, "json>base64"));
}

// Lines of one width can also be separate values: each line's key is found
// as when the lines were read alone (joined, each key would be glued to the
// one before it).
TEST(Decoders, ALinePerBase64ValueIsStillReadLineByLine) {
  std::vector<std::string> keys;
  std::string text = "$ cat keys.b64\n";
  for (uint32_t i = 0; i < 3; ++i) {
    keys.push_back("AIza" + testing::random_chars(35, 340 + i));
    text += base64_encode(keys.back()) + "\n";  // 39 bytes: 52 characters, unpadded
  }
  std::vector<cheat::Run> runs;
  find_base64_runs(text, &runs);
  add_wrapped_base64_runs(text, &runs);
  ASSERT_EQ(runs.front().width, 52u);  // read as wrapped too
  for (const auto& k : keys) EXPECT_TRUE(finds(text, "google-api", k, "base64")) << k;
  std::vector<KnownSecret> known;
  for (const auto& k : keys) known.push_back({k, "google-api", ""});
  const auto out = Redactor(known, Limits{}).redact(text);
  ASSERT_TRUE(out);
  EXPECT_TRUE(scan(*out).empty()) << *out;
  EXPECT_EQ(leftover(*out, keys), "") << *out;
}

// Wrapped base64 of what holds no credential (a text, an image, a list of
// digests) is no finding.
TEST(Decoders, WrappedBase64OfNoCredentialIsNoFinding) {
  std::string prose;
  for (int i = 0; i < 12; ++i) prose += "The match report lists every tool call the agent made, in order. ";
  std::string image = "\x89PNG\r\n\x1a\n";
  std::mt19937 rng(5);
  for (int i = 0; i < 3000; ++i) image += static_cast<char>(rng());
  std::string digests;
  for (int i = 0; i < 20; ++i) digests += testing::random_chars(40, 400 + i, "0123456789abcdef") + "\n";
  for (const std::string& text : {wrap(base64_encode(prose), 76, "\n"), wrap(base64_encode(image), 76, "\n"),
                                  wrap(base64_encode(image), 64, "\r\n"), digests}) {
    EXPECT_TRUE(scan(text).empty()) << text.substr(0, 100);
    EXPECT_TRUE(scan("$ base64 f\n" + text + "\n").empty()) << text.substr(0, 100);
  }
}

// In plain files the wrapped lines are joined like a key block's, and the
// finding is located at the run's first line; its secret_sha256 is that of
// the key (the secret found through decoding).
TEST(ScanMode, Base64WrappedOverLinesInPlainFiles) {
  const WrappedEnv env;
  for (const std::string eol : {"\n", "\r\n"}) {
    const std::string path = testing::write_temp(eol == "\n" ? "env-b64.txt" : "env-b64-crlf.txt",
                                                 "$ base64 .env" + eol + wrap(env.b64, 76, eol) + eol + "$ ls" + eol);
    auto r = scan_file(path, Limits{}, Policy{}, true);
    ASSERT_EQ(r.findings.size(), 1u) << path;
    EXPECT_EQ(r.findings[0].secret.rule, "anthropic-key");
    EXPECT_EQ(r.findings[0].secret.text, env.key);
    EXPECT_EQ(r.findings[0].secret.secret_sha256, to_hex(sha256(env.key)));
    EXPECT_EQ(r.findings[0].secret.location, "line 2");
  }
  std::string image = "GIF89a";
  std::mt19937 rng(6);
  for (int i = 0; i < 200000; ++i) image += static_cast<char>(rng());
  const std::string path = testing::write_temp("image-b64.txt", wrap(base64_encode(image), 76, "\n") + "\n");
  EXPECT_TRUE(scan_file(path, Limits{}, Policy{}).findings.empty());
}

// Redaction replaces every line of the wrapped run (wrapped again at its
// width), so that no line of the copy decodes to a piece of the key.
TEST(Redact, Base64WrappedOverLinesIsReplacedWhole) {
  const WrappedEnv env;
  struct Shape {
    const char* name;
    std::string output;
  };
  const std::vector<Shape> shapes{
      {"plain", "$ base64 .env\n" + wrap(env.b64, 76, "\n") + "\n"},
      {"crlf", "$ base64 .env\r\n" + wrap(env.b64, 76, "\r\n") + "\r\n"},
      {"json-escaped", "$ cat cfg.json\n{\"env\": \"" + wrap(env.b64, 76, "\\n") + "\\n\", \"x\": 1"},
      {"indented", "values:\n  env: |\n    " + wrap(env.b64, 64, "\n    ") + "\n"},
  };
  for (const auto& s : shapes) {
    const std::string in = testing::claude_trace_with_tool_output(std::string("wrapped-") + s.name + ".jsonl", s.output);
    EXPECT_NE(leftover(read_file(in), {env.key}), "") << s.name;
    const std::string out = testing::temp_dir() + "/wrapped-redacted.jsonl";
    auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
    ASSERT_TRUE(r.ok()) << s.name << ": " << r.error().message;
    EXPECT_EQ(leftover(read_file(out), {env.key}), "") << s.name;
  }
}

// "cred" and "pw" as words of a name say credential as "pass" does
// (gosec's and talisman's tests write pw = "...", creds files cred = ...);
// inside a word (credit, snpw) they do not.
TEST(SecretRules, CredAndPwAsWordsOfANameAreCredentialNames) {
  EXPECT_TRUE(finds("db_cred = \"Rv8kTq2LzW5nXp7Yc3Hd\"", "generic-secret", "Rv8kTq2LzW5nXp7Yc3Hd"));
  EXPECT_TRUE(finds("\tcred = \"Rv8kTq2LzW5n/Xp7Yc3Hd==\"", "generic-secret", "Rv8kTq2LzW5n/Xp7Yc3Hd=="));
  EXPECT_TRUE(finds("pw: Rv8kTq2LzW5nXp7Yc3Hd", "generic-secret", "Rv8kTq2LzW5nXp7Yc3Hd"));
  EXPECT_TRUE(finds("SMTP_PW=Rv8kTq2LzW5nXp7Yc3Hd", "generic-secret", "Rv8kTq2LzW5nXp7Yc3Hd"));
  EXPECT_TRUE(finds("const adminPw = 'Rv8kTq2LzW5nXp7Yc3Hd';", "generic-secret", "Rv8kTq2LzW5nXp7Yc3Hd"));
  EXPECT_TRUE(scan("credit_card_ref = \"Rv8kTq2LzW5nXp7Yc3Hd\"").empty());
  EXPECT_TRUE(scan("snpw_ratio = \"Rv8kTq2LzW5nXp7Yc3Hd\"").empty());
  EXPECT_TRUE(scan("pwm_channel: Rv8kTq2LzW5nXp7Yc3Hd").empty());
}

// A format string's replacement field ("{}", "{0}") and a YAML tag with
// its argument ("!ImportValue Export") stand where the value is made at
// run time (whispers' fixtures); the same values without them are found.
TEST(SecretRules, FormatFieldsAndYamlTagsAreNotGenericSecrets) {
  EXPECT_TRUE(scan("session_password = \"prefix_{}\".format(user_id)").empty());
  EXPECT_TRUE(scan("api_secret = \"Xq9hbTdwr7Lm2-{0}\"").empty());
  EXPECT_TRUE(scan("  ApiSecret: !ImportValue SharedApiSecretExport").empty());
  EXPECT_TRUE(scan("  client_secret: !GetAtt SecretsStackOutputs.ClientSecretValue").empty());
  EXPECT_TRUE(finds("api_secret = \"Xq9hbTdwr7Lm2-{q}\"", "generic-secret", "Xq9hbTdwr7Lm2-{q}"));
  EXPECT_TRUE(finds("session_password = \"prefix_Kx9abcdEF12\"", "password-assignment", "prefix_Kx9abcdEF12"));
  EXPECT_TRUE(finds("  ApiSecret: !Xq9hbTdwr7Lm2Zk", "generic-secret", "!Xq9hbTdwr7Lm2Zk"));
}

// A Python annotation names a type, not a value ("pw: Optional[str] =
// None", in pip's sources); a random value holding brackets is found.
TEST(SecretRules, TypeAnnotationsAreNotGenericSecrets) {
  EXPECT_TRUE(scan("    password: Optional[str] = None").empty());
  EXPECT_TRUE(scan("    client_secret: Optional[SecretStr] = None").empty());
  EXPECT_TRUE(scan("    auth_tokens: Dict[str, typing.Any] = {}").empty());
  EXPECT_TRUE(finds("password: Kq7v[R2mXw9zL4]", "generic-secret", "Kq7v[R2mXw9zL4]"));
}

// A credential phrase of two words before ':' or '=' ("API Key: <v>",
// "Secret key = <v>"), as a dashboard or a CLI prints a key (titus' and
// kingfisher's examples); key after a word that makes it a key of data or
// a public one ("Primary key:", "SSH key:") is none.
TEST(SecretRules, SpacedCredentialPhrasesBeforeAnOperator) {
  EXPECT_TRUE(finds("API Key: Qm9x7Lr2TzWv8Np4YcK1", "generic-secret", "Qm9x7Lr2TzWv8Np4YcK1"));
  EXPECT_TRUE(finds("  Secret key = Rv8kTq2LzW5nXp7Yc3HdA9", "generic-secret", "Rv8kTq2LzW5nXp7Yc3HdA9"));
  EXPECT_TRUE(finds("acme tracking api key: Kx9abcdEF12gh34LmNq", "generic-secret", "Kx9abcdEF12gh34LmNq"));
  EXPECT_TRUE(finds("Your auth token: Qm9x7Lr2TzWv8Np4YcK1.", "generic-secret", "Qm9x7Lr2TzWv8Np4YcK1"));
  EXPECT_TRUE(scan("Primary key: Qm9x7Lr2TzWv8Np4YcK1").empty());
  EXPECT_TRUE(scan("Partition key = Qm9x7Lr2TzWv8Np4YcK1").empty());
  EXPECT_TRUE(scan("SSH key: Qm9x7Lr2TzWv8Np4YcK1").empty());
  EXPECT_TRUE(scan("Public key: Qm9x7Lr2TzWv8Np4YcK1").empty());
  EXPECT_TRUE(scan("API Key: my-service-production-key").empty());
  EXPECT_TRUE(scan("Access token: src/auth/session_token.ts").empty());
  EXPECT_TRUE(finds("auth_token: Qm9x7Lr2/TzWv8Np4YcK1", "generic-secret", "Qm9x7Lr2/TzWv8Np4YcK1"));
}

// A password a person chose as an XML element's text (Maven's settings.xml,
// FileZilla's <Pass>), as after password = "...": a template, Maven's
// encrypted {...} form or a one-class word is none.
TEST(SecretRules, ChosenPasswordsInXmlElements) {
  EXPECT_TRUE(finds("<server><id>repo</id><username>deploy</username><password>hunt3r!Q9</password></server>",
                    "password-assignment", "hunt3r!Q9"));
  EXPECT_TRUE(finds("<Server><Host>ftp.example.org</Host><Pass>Tr0ub4dor&3x</Pass></Server>", "password-assignment",
                    "Tr0ub4dor&3x"));
  EXPECT_TRUE(finds("  <passphrase>  Gpg-Sign9Key  </passphrase>", "password-assignment", "Gpg-Sign9Key"));
  EXPECT_TRUE(scan("<password>${env.MAVEN_REPO_PASS}</password>").empty());
  EXPECT_TRUE(scan("<password>{COQLCE6DU6GtcS5P=}</password>").empty());
  EXPECT_TRUE(scan("<password>changeit</password>").empty());
  EXPECT_TRUE(scan("<password>hunt3r!Q9 and more").empty());
}

// Riot Games' keys (RGAPI- and a UUID) and Apify's tokens (apify_api_),
// as their providers document them.
TEST(SecretRules, RiotAndApifyKeys) {
  using testing::random_chars;
  const std::string riot = "RGAPI-7f3c9e21-4b8d-4a6f-9c2e-d51b7a3e8f04";
  EXPECT_TRUE(finds("RIOT_KEY=" + riot, "riot-api-key", riot));
  EXPECT_EQ(highest("curl -H 'X-Riot-Token: " + riot + "' https://euw1.api.riotgames.com/x"), Severity::high);
  // A typed example key is a warning at most, never high.
  EXPECT_LT(highest("RGAPI-12345678-abcd-1234-abcd-123456789abc"), Severity::high);
  EXPECT_TRUE(scan("RGAPI-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx").empty());
  EXPECT_TRUE(scan("RGAPI-7f3c9e21-4b8d-4a6f-9c2e").empty());
  const std::string apify = "apify_api_" + random_chars(36, 91);
  EXPECT_TRUE(finds("export APIFY=" + apify, "apify-token", apify));
  EXPECT_TRUE(scan("apify_api_" + random_chars(12, 92)).empty());
  EXPECT_TRUE(scan("see docs/apify_api_reference_guide_v2").empty());
}

// A bare generic value ends where a list of Name=value pairs goes on (a
// connection string's ';', a query string's '&'), and a generated password
// holding ';' ',' '&' or '(' is found whole (red-team 16b #8). Names, calls
// and statements before such a symbol stay no secret.
TEST(SecretRules, GenericValuesEndAtTheNextPairAndKeepTheirSymbols) {
  EXPECT_TRUE(finds("Server=tcp:x.database.windows.net,1433;Database=db;User ID=app;Password=Kx9abcdEF12gh34;"
                    "Encrypt=true;TrustServerCertificate=false;",
                    "generic-secret", "Kx9abcdEF12gh34"));
  EXPECT_TRUE(finds("Data Source=db;Password=Kx9abcdEF12gh34;User ID=app", "generic-secret", "Kx9abcdEF12gh34"));
  EXPECT_TRUE(finds("GET /cb?token=Kx9abcdEF12gh34ij&user=bob 200", "generic-secret", "Kx9abcdEF12gh34ij"));
  for (const std::string v : {"Kx9abcdEF12gh34ij;klmnopqrstu", "Kx9abcdEF12gh34ij,klmnopqrstu",
                              "Kx9abcdEF12gh34ij&klmnopq*rstu", "Kx9abcdEF12gh34ij(klmnop)qrstu"}) {
    EXPECT_TRUE(finds("token=" + v, "generic-secret", v));
    EXPECT_TRUE(finds("secret: " + v, "generic-secret", v));
  }
  EXPECT_TRUE(scan("api_key=os.environ.get(name);").empty());
  EXPECT_TRUE(scan("token=readTokenFromDisk(path),").empty());
  EXPECT_TRUE(scan("secret=abcdefghijklmnopqrst;x").empty());
}

// Two credentials that are member names of one object (a tool input's
// env) become two distinct markers: the copy's JSON names each member once
// (red-team 16b #9: both became [REDACTED:github-pat], and the copy failed
// GC12 and GC04). One secret keeps the plain marker; the same secret keeps
// its marker wherever it shows.
TEST(Redact, DistinctSecretsOfOneRuleGetDistinctMarkers) {
  const std::string a = "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", b = "ghp_Zq8rT2vLm9Xw4Yh6Jk1Np3Qs5Rt7Uv9Wx0Ab";
  Redactor one(std::vector<KnownSecret>{{a, "github-pat", ""}}, Limits{});
  EXPECT_EQ(*one.redact(R"({"env":{")" + a + R"(":"first","PLAIN":"second"}})"),
            R"({"env":{"[REDACTED:github-pat]":"first","PLAIN":"second"}})");
  Redactor two(std::vector<KnownSecret>{{a, "github-pat", ""}, {b, "github-pat", ""}}, Limits{});
  const auto out = two.redact(R"({"env":{")" + a + R"(":"first",")" + b + R"(":"second"},"again":")" + a + R"("})");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, R"({"env":{"[REDACTED:github-pat]":"first","[REDACTED:github-pat#2]":"second"},)"
                  R"("again":"[REDACTED:github-pat]"})");
}

// Redaction read each text once per known secret and shifted the rest of
// the text at each replacement: 8000 distinct key ids in a 200 KB prompt
// took 3.7 s, one key repeated over 4 MB 32 s, and over a stream of small
// deltas 1.6 MB 48 s (review 18 #5). All secrets are sought in one pass and
// each output is built once; what is replaced is the same as before.
TEST(Redact, ManySecretsAndManyPlacesTakeOnePass) {
  constexpr size_t kKeys = 20000;
  std::vector<KnownSecret> known;
  std::string text, expected;
  for (size_t i = 0; i < kKeys; ++i) {
    known.push_back({"AKIA" + testing::random_chars(16, static_cast<uint32_t>(i + 7)), "aws-key-id", ""});
    text += "key " + known.back().text + "\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const Redactor many(known, Limits{});
  const auto out = many.redact(text);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find("AKIA"), std::string::npos);
  EXPECT_EQ(out->substr(0, 26), "key [REDACTED:aws-key-id]\n");

  const std::string key = "AKIAQ3EGTNXHQ5ZK7RWP";
  const Redactor one(std::vector<KnownSecret>{{key, "aws-key-id", ""}}, Limits{});
  std::string repeated;
  while (repeated.size() < (4u << 20)) repeated += "key " + key + "\n";
  const auto plain = one.redact(repeated);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->size(), repeated.size() / 25 * 26);  // each line: "key [REDACTED:aws-key-id]\n"
  EXPECT_EQ(plain->find(key), std::string::npos);

  std::string sse;  // the same, streamed in 7-byte deltas
  const std::string streamed = repeated.substr(0, 1u << 20);
  for (size_t i = 0; i < streamed.size(); i += 7) {
    std::string q;
    append_json_string(&q, streamed.substr(i, 7));
    sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
           "\"text_delta\",\"text\":" + q + "}}\n\n";
  }
  const auto stream = one.redact(sse);
  ASSERT_TRUE(stream);
  const std::string answer = rebuild_answer(*stream, Limits{}).text;
  EXPECT_EQ(answer.find(key), std::string::npos);
  EXPECT_EQ(answer.substr(0, 31), "key [REDACTED:aws-key-id]\nkey [");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
}

// Replaced longest first, each where the longer ones left it: a shorter
// secret cut from a base64 run takes the run's rest, and when a longer
// one's masked preview follows, the preview's base64 opening goes with it,
// as when each secret was replaced in turn in the text.
TEST(Redact, SecretsAreReplacedLongestFirstWhereTheLongerLeftThem) {
  const Redactor red(std::vector<KnownSecret>{{"xyzw5678", "b", ""}, {"AAAABBBBCCCCDDDD1234", "a", "AAAA\xe2\x80\xa6(20)"}},
                     Limits{});
  EXPECT_EQ(*red.redact("xyzw5678AAAABBBBCCCCDDDD1234 end"), "[REDACTED:b]\xe2\x80\xa6(20) end");
  const Redactor marks(std::vector<KnownSecret>{{"xyzw5678", "b", ""}, {"AAAABBBBCCCCDDDD1234", "a", ""}}, Limits{});
  EXPECT_EQ(*marks.redact("xyzw5678AAAABBBBCCCCDDDD1234 xyzw5678Qz9 xyzw56"),
            "[REDACTED:b][REDACTED:a] [REDACTED:b] xyzw56");
  // Overlapping places: the longer wins, the shorter is not found in what it left.
  const Redactor overlap(std::vector<KnownSecret>{{"pppp-qqqq", "s", ""}, {"qqqq-rrrr-ssss", "l", ""}}, Limits{});
  EXPECT_EQ(*overlap.redact("pppp-qqqq-rrrr-ssss and pppp-qqqq."), "pppp-[REDACTED:l] and [REDACTED:s].");
}

// The trace-level shape: the copy of a trace whose tool input names two
// tokens as members checks as clean as the original (no GC12, no GC04).
TEST(Redact, TokensAsMemberNamesOfAToolInputLeaveACopyThatChecksClean) {
  fixtures::TraceSpec spec;
  spec.turns = 3;
  spec.plants = {"secret-member-names"};
  fixtures::WrittenTrace written;
  const std::string in = testing::write_temp("member-names.jsonl",
                                             fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written)));
  ASSERT_EQ(written.secrets.size(), 2u);
  const std::string out = testing::temp_dir() + "/member-names-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(leftover(read_file(out), {written.secrets[0].second, written.secrets[1].second}), "");
  expect_copy_checks_clean(out);
}

// What the model itself wrote and the scan reads only after decoding, split
// across deltas: base64 of an .env in its answer text (a Secret manifest)
// and an escaped PEM in a tool input's JSON. The redaction replaces it in
// every delta that carries a part of it and the stream rebuilds to the
// redacted text (red-team 16b #12: redact refused the whole trace).
TEST(Redact, SecretsTheModelWroteEncodedAcrossDeltasAreReplaced) {
  const std::string token = "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";
  const std::string b64 = base64_encode("GITHUB_TOKEN=" + token + "\nOTHER=1\n");
  Redactor red(std::vector<KnownSecret>{{token, "github-pat", ""}}, Limits{});
  SecretEngine engine{Limits{}};
  for (const auto& kind : testing::delta_kinds()) {
    SCOPED_TRACE(kind.name);
    const std::string text = kind.json ? R"({"command":"echo )" + b64 + R"( | base64 -d"})" : "data:\n  .env: " + b64 + "\n";
    const std::string sse = testing::split_delta_stream(kind, text);
    auto out = red.redact(sse);
    ASSERT_TRUE(out);
    const std::string rebuilt = streamed(rebuild_answer(*out, Limits{}));
    EXPECT_EQ(rebuilt, *red.redact(text));
    std::vector<SecretHit> hits;
    engine.scan(*out, "", &hits);
    EXPECT_TRUE(hits.empty()) << *out;
    EXPECT_EQ(leftover(*out, {token}), "") << *out;
  }
}

// The same in a trace, Claude Code's shape: the copy is written, holds no
// readable part of either secret, and checks as the original does apart
// from the secret findings.
TEST(Redact, ATraceWhoseModelWroteEncodedSecretsIsRedactedAndChecksAsBefore) {
  for (const char* plant : {"secret-sse-base64", "secret-tool-pem"}) {
    SCOPED_TRACE(plant);
    fixtures::TraceSpec spec;
    spec.turns = 3;
    spec.plants = {plant};
    fixtures::WrittenTrace written;
    const std::string in = testing::write_temp("model-wrote.jsonl",
                                               fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written)));
    ASSERT_EQ(written.secrets.size(), 1u);
    const std::string out = testing::temp_dir() + "/model-wrote-redacted.jsonl";
    auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(leftover(read_file(out), {written.secrets[0].second}), "");
    expect_copy_checks_clean(out);
  }
}

// A connection string's password ends where the next Name= pair begins: the
// redaction replaces the password and keeps the settings after it (red-team
// 16b #8: Encrypt=true;TrustServerCertificate=false were deleted).
TEST(Redact, AConnectionStringKeepsItsSettingsAfterThePassword) {
  const std::string in = testing::claude_trace_with_tool_output(
      "odbc.jsonl", "$ cat appsettings.txt\nServer=tcp:x.database.windows.net,1433;Database=db;User ID=app;"
                    "Password=Kx9abcdEF12gh34;Encrypt=true;TrustServerCertificate=false;\n");
  const std::string out = testing::temp_dir() + "/odbc-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const std::string copy = read_file(out);
  EXPECT_NE(copy.find("Password=[REDACTED:generic-secret];Encrypt=true;TrustServerCertificate=false;"), std::string::npos);
  EXPECT_EQ(copy.find("Kx9abcdEF12gh34"), std::string::npos);
}

}  // namespace
}  // namespace goalcup::cheat

#include "cheatcheck/secrets/matcher.h"

namespace goalcup::cheat {
namespace {

// The matcher keeps at most kMaxCandidates of a text; a line of more decoys
// than that before a key is read again in windows, so the key is found.
TEST(Matcher, DecoysBeforeAKeyDoNotHideIt) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 321) + "AA";
  std::string text;
  const std::string decoy = "token=x ";
  text.reserve((Matcher::kMaxCandidates + 1000) * decoy.size() + key.size() + 1);
  for (size_t i = 0; i < Matcher::kMaxCandidates + 1000; ++i) text += decoy;
  std::vector<Candidate> cands;
  ASSERT_FALSE(Matcher::instance().scan(text, &cands)) << "the decoys must fill the list";
  text += key + "\n";
  EXPECT_TRUE(finds(text, "anthropic-key", key));
  // The same in a window's last bytes and across two windows.
  const size_t w = Matcher::window_bytes();
  for (size_t at : {w - 50, 2 * w - key.size() / 2, 5 * w + 3}) {
    std::string t = text.substr(0, text.size() - key.size() - 1);
    t.insert(at - at % decoy.size(), key + " ");
    EXPECT_TRUE(finds(t, "anthropic-key", key)) << at;
  }
  // Decoys alone stay no finding.
  EXPECT_TRUE(scan(text.substr(0, text.size() - key.size() - 1)).empty());
}

}  // namespace
}  // namespace goalcup::cheat

// Private keys outside PEM armour, CRLF PEM in JSON text, and the AWS CLI's
// outputs of new credentials. The keys are made here, at test time, with
// OpenSSL: no key is kept in the repository.
namespace goalcup::cheat {
namespace {

std::string der_of(EVP_PKEY* key, int (*to_der)(const EVP_PKEY*, unsigned char**)) {
  unsigned char* buf = nullptr;
  const int n = to_der(key, &buf);
  std::string out(reinterpret_cast<char*>(buf), n > 0 ? static_cast<size_t>(n) : 0);
  OPENSSL_free(buf);
  return out;
}
int pkcs8_der(const EVP_PKEY* key, unsigned char** out) {
  PKCS8_PRIV_KEY_INFO* p8 = EVP_PKEY2PKCS8(key);
  const int n = i2d_PKCS8_PRIV_KEY_INFO(p8, out);
  PKCS8_PRIV_KEY_INFO_free(p8);
  return n;
}
int traditional_der(const EVP_PKEY* key, unsigned char** out) { return i2d_PrivateKey(key, out); }
int public_der(const EVP_PKEY* key, unsigned char** out) { return i2d_PUBKEY(key, out); }
// A self-signed certificate of `key`: base64 of it opens with MII too.
int certificate_der(const EVP_PKEY* key, unsigned char** out) {
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 7);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
  X509_set_pubkey(cert, const_cast<EVP_PKEY*>(key));
  X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("goalcup test"), -1, -1, 0);
  X509_set_issuer_name(cert, X509_get_subject_name(cert));
  X509_sign(cert, const_cast<EVP_PKEY*>(key), EVP_sha256());
  const int n = i2d_X509(cert, out);
  X509_free(cert);
  return n;
}

struct OwnedKey {
  EVP_PKEY* key;
  ~OwnedKey() { EVP_PKEY_free(key); }
};
OwnedKey rsa_key() { return {EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{2048})}; }
OwnedKey ec_key() { return {EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")}; }
OwnedKey ed25519_key() { return {EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519")}; }

std::string b64url(std::string_view bytes) {
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(out.size() - 1);
  return out;
}
std::string bn_param(EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) return "";
  std::string bytes(static_cast<size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(bn);
  return b64url(bytes);
}
using Members = std::vector<std::pair<std::string, std::string>>;
std::string jwk_json(const Members& members, std::string_view indent = "") {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    out += std::string(i ? "," : "") + (indent.empty() ? "" : "\n") + std::string(indent) + "\"" + members[i].first +
           "\": \"" + members[i].second + "\"";
  }
  return out + (indent.empty() ? "}" : "\n}");
}
Members ec_jwk(EVP_PKEY* k, bool with_private) {
  Members m{{"kty", "EC"}, {"crv", "P-256"}, {"x", bn_param(k, OSSL_PKEY_PARAM_EC_PUB_X)},
            {"y", bn_param(k, OSSL_PKEY_PARAM_EC_PUB_Y)}};
  if (with_private) m.insert(m.begin(), {"d", bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY)});  // sorted first, as sort_keys writes it
  return m;
}
Members rsa_jwk(EVP_PKEY* k, bool with_private) {
  Members m{{"kty", "RSA"}, {"n", bn_param(k, OSSL_PKEY_PARAM_RSA_N)}, {"e", "AQAB"}};
  if (!with_private) return m;
  for (auto [name, param] : std::initializer_list<std::pair<const char*, const char*>>{
           {"d", OSSL_PKEY_PARAM_RSA_D}, {"p", OSSL_PKEY_PARAM_RSA_FACTOR1}, {"q", OSSL_PKEY_PARAM_RSA_FACTOR2},
           {"dp", OSSL_PKEY_PARAM_RSA_EXPONENT1}, {"dq", OSSL_PKEY_PARAM_RSA_EXPONENT2},
           {"qi", OSSL_PKEY_PARAM_RSA_COEFFICIENT1}}) {
    m.emplace_back(name, bn_param(k, param));
  }
  return m;
}
Members okp_jwk(EVP_PKEY* k) {
  std::string pub(32, '\0'), priv(32, '\0');
  size_t n = 32;
  EVP_PKEY_get_raw_public_key(k, reinterpret_cast<unsigned char*>(pub.data()), &n);
  EVP_PKEY_get_raw_private_key(k, reinterpret_cast<unsigned char*>(priv.data()), &n);
  return {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", b64url(pub)}, {"d", b64url(priv)}};
}

std::vector<std::string> secrets_of(std::string_view text, std::string_view rule, Severity severity) {
  std::vector<std::string> out;
  for (const auto& h : scan(text)) {
    if (rule_of(h) == rule && h.severity == severity) out.push_back(h.secret);
  }
  std::ranges::sort(out);
  return out;
}

// Redacts what the engine finds in `text`: the copy must scan clean and hold
// no 16 characters of any of `pieces`.
void expect_redacted_clean(const std::string& text, const std::vector<std::string>& pieces) {
  std::vector<KnownSecret> known;
  for (const auto& h : scan(text)) known.push_back({h.secret, rule_of(h), ""});
  const auto copy = Redactor(known, Limits{}).redact(text);
  ASSERT_TRUE(copy) << text.substr(0, 120);
  EXPECT_TRUE(scan(*copy).empty()) << *copy;
  for (const auto& p : pieces) {
    for (size_t at = 0; at + 16 <= p.size(); at += 8) EXPECT_EQ(copy->find(p.substr(at, 16)), std::string::npos) << *copy;
  }
}

std::string pem_of(std::string_view label, std::string_view der, std::string_view eol) {
  return "-----BEGIN " + std::string(label) + "-----" + std::string(eol) + wrap(base64_encode(der), 64, eol) +
         std::string(eol) + "-----END " + std::string(label) + "-----" + std::string(eol);
}

// A PEM whose line breaks are JSON's escapes of CRLF (a service-account JSON
// written on Windows, pretty-printed; a tool output holding that JSON) is
// the key it is, as with LF; a body of words is still no key's.
TEST(PrivateKeys, PemWithCrlfEscapesInJsonTextIsAKey) {
  OwnedKey k = rsa_key();
  const std::string der = der_of(k.key, pkcs8_der);
  for (std::string_view eol : {"\\n", "\\r\\n", "\\\\r\\\\n", "\r\n"}) {
    const std::string json = "{\n  \"type\": \"service_account\",\n  \"private_key\": \"" +
                             pem_of("PRIVATE KEY", der, eol) + "\",\n  \"client_email\": \"a@b.iam\"\n}\n";
    EXPECT_EQ(highest(json), Severity::high) << eol;
    EXPECT_EQ(secrets_of(json, "pem-private-key", Severity::warning), std::vector<std::string>{}) << eol;
    expect_redacted_clean(json, {base64_encode(der).substr(100, 200)});
  }
  const std::string words = "-----BEGIN PRIVATE KEY-----\\r\\nthis is where the key goes, paste yours\\r\\n"
                            "-----END PRIVATE KEY-----";
  EXPECT_EQ(highest("{\"private_key\": \"" + words + "\"}"), Severity::warning);
}

// A JWK with its private members is a private key (each member that gives
// the key away is found); the same key's public JWK, and a "d" outside a
// JWK, are not.
TEST(PrivateKeys, JsonWebKeysWithPrivateMembersAreKeys) {
  OwnedKey ec = ec_key(), rsa = rsa_key(), ed = ed25519_key();
  const Members ec_private = ec_jwk(ec.key, true), rsa_private = rsa_jwk(rsa.key, true), okp = okp_jwk(ed.key);
  EXPECT_EQ(secrets_of(jwk_json(ec_private), "jwk-private-key", Severity::high),
            std::vector<std::string>{ec_private[0].second});
  EXPECT_EQ(secrets_of("key = " + jwk_json(okp), "jwk-private-key", Severity::high),
            std::vector<std::string>{okp[3].second});
  const std::string jwks = "{\n  \"keys\": [\n    " + jwk_json(rsa_private, "      ") + "\n  ]\n}\n";
  std::vector<std::string> rsa_secrets;
  for (size_t i = 3; i < rsa_private.size(); ++i) rsa_secrets.push_back(rsa_private[i].second);
  std::ranges::sort(rsa_secrets);
  EXPECT_EQ(secrets_of(jwks, "jwk-private-key", Severity::high), rsa_secrets);
  const std::string oct = R"({"kty":"oct","alg":"HS256","k":")" + b64url(testing::random_chars(32, 31)) + "\"}";
  EXPECT_EQ(highest(oct), Severity::high);
  expect_redacted_clean(jwks, rsa_secrets);
  // RFC 8037's example key (A.1), in every JOSE library's tests: reported, not high.
  EXPECT_EQ(highest(R"({"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",)"
                    R"("x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"})"),
            Severity::warning);
  // The public keys, a JWKS of them, and a "d" or "k" outside a JWK.
  const std::string pub_ec = jwk_json(ec_jwk(ec.key, false)), pub_rsa = jwk_json(rsa_jwk(rsa.key, false));
  for (const std::string& text :
       {pub_ec, pub_rsa, "{\"keys\": [" + pub_ec + ", " + pub_rsa + "]}",
        R"({"id": 3, "d": ")" + ec_private[0].second + R"(", "k": ")" + b64url(testing::random_chars(32, 32)) + "\"}",
        R"({"kty": "EC", "crv": "P-256", "x": ")" + ec_private[3].second + R"(", "d": "short-d-value-that-is-no-key"})"}) {
    EXPECT_TRUE(secrets_of(text, "jwk-private-key", Severity::high).empty()) << text;
    EXPECT_NE(highest(text), Severity::high) << text;
  }
}

// A pretty-printed JWKS in a plain file is one object over many lines, its
// "kty" after the private part.
TEST(PrivateKeys, JsonWebKeysOverLinesOfAFile) {
  OwnedKey ec = ec_key();
  const Members m = ec_jwk(ec.key, true);
  const std::string dir = testing::temp_dir() + "/jwk-scan";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/jwks.json") << "{\n  \"keys\": [\n    " << jwk_json(m, "      ") << "\n  ]\n}\n";
  std::ofstream(dir + "/public.json") << "{\n  \"keys\": [\n    " << jwk_json(ec_jwk(ec.key, false), "      ")
                                      << "\n  ]\n}\n";
  const auto found = scan_file(dir + "/jwks.json", Limits{}, Policy{});
  ASSERT_EQ(found.findings.size(), 1u);
  EXPECT_EQ(found.findings[0].severity, Severity::high);
  EXPECT_TRUE(scan_file(dir + "/public.json", Limits{}, Policy{}).findings.empty());
}

// Base64 of a DER private key without its armour (PKCS#8, PKCS#1, SEC1; RSA,
// EC, Ed25519; on one line or wrapped) is a private key; base64 of a
// certificate or of a public key, which open with MII as well, is not, and a
// key's head cut short is a warning.
TEST(PrivateKeys, DerPrivateKeysInBase64AreKeysByTheirStructure) {
  OwnedKey rsa = rsa_key(), ec = ec_key(), ed = ed25519_key();
  for (const std::string& der : {der_of(rsa.key, pkcs8_der), der_of(rsa.key, traditional_der), der_of(ec.key, pkcs8_der),
                                 der_of(ec.key, traditional_der), der_of(ed.key, pkcs8_der)}) {
    const std::string b64 = base64_encode(der);
    EXPECT_EQ(secrets_of("PRIVATE_KEY=" + b64 + "\n", "der-private-key", Severity::high), std::vector<std::string>{b64});
    EXPECT_TRUE(finds("{\"env\": {\"JWT_KEY\": \"" + b64 + "\"}}", "der-private-key", b64, "json")) << b64;
    if (b64.size() > 64) {
      const std::string wrapped = wrap(b64, 64, "\n");
      EXPECT_EQ(secrets_of("key:\n" + wrapped + "\n", "der-private-key", Severity::high),
                std::vector<std::string>{wrapped});
      EXPECT_EQ(secrets_of("KEY=" + b64.substr(0, 80) + " cut", "der-private-key", Severity::warning).size(), 1u);
      EXPECT_NE(highest("KEY=" + b64.substr(0, 80) + " cut"), Severity::high);
    }
    expect_redacted_clean("PRIVATE_KEY=" + b64 + "\n", {b64});
    // Armoured, it is the PEM rule's alone.
    EXPECT_TRUE(secrets_of(pem_of("PRIVATE KEY", der, "\n"), "der-private-key", Severity::high).empty());
  }
  for (const std::string& der : {der_of(rsa.key, certificate_der), der_of(rsa.key, public_der),
                                 der_of(ec.key, certificate_der), der_of(ec.key, public_der), der_of(ed.key, public_der)}) {
    const std::string text = "CERT=" + base64_encode(der) + "\n" + wrap(base64_encode(der), 64, "\n") + "\n";
    EXPECT_TRUE(scan(text).empty()) << text;
  }
}

// PKCS#8's EncryptedPrivateKeyInfo as DER, made by OpenSSL under PBES2 (its
// default, AES) or PKCS#12's PBE (3DES, `openssl pkcs8 -v1`): `nid` is a
// PBE's NID, or -1 for PBES2 with `cipher`.
std::string encrypted_pkcs8_der(EVP_PKEY* key, int nid, const EVP_CIPHER* cipher) {
  BIO* bio = BIO_new(BIO_s_mem());
  char pass[] = "correct horse";
  const int ok = nid == -1 ? i2d_PKCS8PrivateKey_bio(bio, key, cipher, pass, 13, nullptr, nullptr)
                           : i2d_PKCS8PrivateKey_nid_bio(bio, key, nid, pass, 13, nullptr, nullptr);
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio, &data);
  std::string out = ok == 1 && n > 0 ? std::string(data, static_cast<size_t>(n)) : "";
  BIO_free(bio);
  return out;
}

// An encrypted private key as unarmoured DER in base64 (on one line, in
// JSON, wrapped) is high, as its armoured "BEGIN ENCRYPTED PRIVATE KEY" is:
// by its structure, whatever the length form of its SEQUENCE (Ed25519 under
// 3DES is 90 bytes, RSA 1.3 kB); its head cut short is a warning, the
// armoured block stays the PEM rule's, and a public key or a certificate
// stays none (the DER test above).
TEST(PrivateKeys, EncryptedDerPrivateKeysInBase64AreKeys) {
  OwnedKey rsa = rsa_key(), ec = ec_key(), ed = ed25519_key();
  int made = 0;
  for (EVP_PKEY* key : {rsa.key, ec.key, ed.key}) {
    for (const auto& [nid, cipher] : std::vector<std::pair<int, const EVP_CIPHER*>>{
             {-1, EVP_aes_256_cbc()}, {-1, EVP_aes_128_cbc()}, {NID_pbe_WithSHA1And3_Key_TripleDES_CBC, nullptr}}) {
      const std::string der = encrypted_pkcs8_der(key, nid, cipher);
      ASSERT_FALSE(der.empty());
      ++made;
      const std::string b64 = base64_encode(der);
      EXPECT_EQ(secrets_of("PRIVATE_KEY=" + b64 + "\n", "der-private-key", Severity::high),
                std::vector<std::string>{b64});
      EXPECT_TRUE(finds("{\"env\": {\"SIGNING_KEY\": \"" + b64 + "\"}}", "der-private-key", b64, "json")) << b64;
      if (b64.size() > 76) {
        const std::string wrapped = wrap(b64, 76, "\n");
        EXPECT_EQ(secrets_of("key:\n" + wrapped + "\n", "der-private-key", Severity::high),
                  std::vector<std::string>{wrapped});
      }
      EXPECT_EQ(secrets_of("KEY=" + b64.substr(0, 80) + " cut", "der-private-key", Severity::warning).size(), 1u);
      EXPECT_NE(highest("KEY=" + b64.substr(0, 80) + " cut"), Severity::high);
      expect_redacted_clean("PRIVATE_KEY=" + b64 + "\n", {b64});
      const std::string pem = pem_of("ENCRYPTED PRIVATE KEY", der, "\n");
      EXPECT_TRUE(secrets_of(pem, "der-private-key", Severity::high).empty());
      EXPECT_EQ(highest(pem), Severity::high);
    }
  }
  EXPECT_EQ(made, 9);
  // Its documented head with an ellipsis is an example, not a key.
  const std::string head = base64_encode(encrypted_pkcs8_der(rsa.key, -1, EVP_aes_256_cbc())).substr(0, 40);
  EXPECT_TRUE(scan("PRIVATE_KEY=" + head + "...\n").empty());
}

// RFC 4716's (ssh.com's) private key armour, as PuTTYgen exports it: a
// finding like a PEM block's, in a text and over the lines of a file; its
// public key block is not one.
TEST(PrivateKeys, Ssh2PrivateKeyBlocks) {
  std::string blob;
  std::mt19937 rng(43);
  for (int i = 0; i < 600; ++i) blob += static_cast<char>(rng());
  const std::string block = "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key-20260101 made \\\nfor a test\"\n" +
                            wrap(base64_encode(blob), 70, "\n") + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----";
  EXPECT_TRUE(finds("cat key.ssh2\n" + block + "\n", "ssh2-private-key", block));
  EXPECT_EQ(highest(block), Severity::high);
  const std::string dir = testing::temp_dir() + "/ssh2-scan";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/key.ssh2") << block << "\n";
  const auto found = scan_file(dir + "/key.ssh2", Limits{}, Policy{});
  ASSERT_EQ(found.findings.size(), 1u);
  EXPECT_EQ(found.findings[0].severity, Severity::high);
  std::string escaped;
  for (char c : block) {
    escaped += c == '\n' ? std::string("\\n") : c == '"' || c == '\\' ? "\\" + std::string(1, c) : std::string(1, c);
  }
  expect_redacted_clean("{\"out\": \"" + escaped + "\"}", {base64_encode(blob)});
  const std::string pub = "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"rsa-key\"\n" + wrap(base64_encode(blob), 70, "\n") +
                          "\n---- END SSH2 PUBLIC KEY ----";
  EXPECT_TRUE(scan(pub).empty());
}

// The AWS CLI's outputs of new credentials (iam create-access-key, sts
// get-session-token / assume-role) in JSON, table and text form: the secret
// access key and the session token are found high; a 40-character value
// with no key id or name of AWS's stays what it was, and a key id's row with
// a digest on it gives no secret.
TEST(AwsCredentials, CliOutputsOfNewCredentials) {
  const std::string b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string secret = testing::random_chars(38, 51, b64) + "7q";
  const std::string token = "IQoJb3JpZ2luX2Vj" + testing::random_chars(400, 52, b64);
  const std::string asia = "ASIA" + testing::random_chars(16, 53, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
  const std::string akia = "AKIA" + asia.substr(4);
  const std::string sts = "{\n    \"Credentials\": {\n        \"AccessKeyId\": \"" + asia +
                          "\",\n        \"SecretAccessKey\": \"" + secret + "\",\n        \"SessionToken\": \"" + token +
                          "\",\n        \"Expiration\": \"2026-12-02T03:00:00+00:00\"\n    }\n}\n";
  const std::string iam = "{\n    \"AccessKey\": {\n        \"UserName\": \"Bob\",\n        \"SecretAccessKey\": \"" +
                          secret + "\",\n        \"AccessKeyId\": \"" + akia + "\"\n    }\n}\n";
  const std::string table = "||  AccessKeyId      |  " + akia + "   ||\n||  SecretAccessKey  |  " + secret + "  ||\n";
  const std::string text = "ACCESSKEY\t" + akia + "\t2026-03-09T18:39:23.411Z\t" + secret + "\tActive\tBob\n";
  const std::string sts_text = "CREDENTIALS\t" + asia + "\t2026-12-02T03:00:00+00:00\t" + secret + "\t" + token + "\n";
  const std::string xml = "<AccessKeyId>" + asia + "</AccessKeyId>\n<SecretAccessKey>" + secret +
                          "</SecretAccessKey>\n<SessionToken>" + token + "</SessionToken>";
  for (const std::string& out : {sts, iam, table, text, sts_text, xml, "{\"output\": \"" + sts_text.substr(0, sts_text.size() - 1) + "\\n\"}"}) {
    EXPECT_EQ(secrets_of(out, "aws-secret-key", Severity::high), std::vector<std::string>{secret}) << out;
    expect_redacted_clean(out, {secret, token});
  }
  for (const std::string& out : {sts, sts_text, xml}) {
    EXPECT_EQ(secrets_of(out, "aws-session-token", Severity::high), std::vector<std::string>{token}) << out;
  }
  // No key id and no AWS name: as before (the generic rule's warning at most).
  const std::string plain_value = "\"token\": \"" + secret + "\"";
  EXPECT_NE(highest(plain_value), Severity::high);
  for (const std::string& out : {plain_value, "ROW\tAB12\t2026-03-09\t" + secret + "\tActive\n",
                                 "ACCESSKEY\t" + akia + "\t" + testing::random_chars(40, 54, "0123456789abcdef") + "\n",
                                 "\"SessionToken\": \"" + base64_encode(std::string(120, 'a') + " is text") + "\""}) {
    EXPECT_TRUE(secrets_of(out, "aws-secret-key", Severity::high).empty()) << out;
    EXPECT_TRUE(secrets_of(out, "aws-session-token", Severity::high).empty()) << out;
  }
}

// An STS session token of any era: base64 of binary, its head that of the
// token's protobuf ("\x17\n\x06er/aws" for FwoG..., "\x01\n\x03aws" for
// AQoD...), which no rule of its own knows.
constexpr std::string_view kFwoGHead = "\x17\n\x06" "er/aws\x10", kAQoDHead = "\x01\n\x03" "aws\x10";
std::string old_session_token(std::string_view head, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(head);
  for (int i = 0; i < 300; ++i) bytes += static_cast<char>(rng());
  return base64_encode(bytes);
}

std::string percent_encoded(std::string_view b64) {
  std::string out;
  for (char c : b64) out += c == '+' ? "%2B" : c == '/' ? "%2F" : c == '=' ? "%3D" : std::string(1, c);
  return out;
}

// The session token as SigV4 sends it, in the X-Amz-Security-Token header
// (raw, curl -H, a dict of headers) is high as the other credential headers
// are, in a presigned URL's query a warning as the IQoJ token there is (it
// signs nothing without its secret key); both are redacted. A marker, a
// placeholder, a variable or base64 of text in its place is none. In a wire
// record the header is a credential header: any unredacted value is high.
TEST(AwsCredentials, SessionTokenInTheSecurityTokenHeaderAndQuery) {
  for (const std::string& token : {old_session_token(kFwoGHead, 71), old_session_token(kAQoDHead, 72)}) {
    for (const std::string& text :
         {"x-amz-security-token: " + token + "\n", "curl -H 'X-Amz-Security-Token: " + token + "' https://s3.amazonaws.com/b/k",
          "headers = {'X-Amz-Security-Token': '" + token + "', 'Host': 'sts.amazonaws.com'}"}) {
      EXPECT_EQ(secrets_of(text, "aws-session-token", Severity::high), std::vector<std::string>{token}) << text;
      expect_redacted_clean(text, {token});
    }
    const std::string query = percent_encoded(token);
    const std::string url = "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261202T090000Z&"
                            "X-Amz-Expires=900&X-Amz-Security-Token=" + query + "&X-Amz-Signature=" +
                            testing::random_chars(64, 73, "0123456789abcdef");
    // As written, and decoded from its percent-escapes.
    std::vector<std::string> both{query, token};
    std::ranges::sort(both);
    EXPECT_EQ(secrets_of(url, "aws-session-token", Severity::warning), both) << url;
    EXPECT_NE(highest(url), Severity::high);
    expect_redacted_clean(url, {query});
  }
  for (const std::string& text :
       {std::string("x-amz-security-token: [REDACTED:aws-session-token]"), std::string("X-Amz-Security-Token: <SESSION_TOKEN>"),
        std::string("curl -H \"x-amz-security-token: $AWS_SESSION_TOKEN\""),
        std::string("-H \"X-Amz-Security-Token: ${AWS_SESSION_TOKEN}\""), std::string("&X-Amz-Security-Token=YOUR_SESSION_TOKEN&"),
        "x-amz-security-token: " + std::string(160, 'x'),
        "x-amz-security-token: " + base64_encode("this stands where the session token of the role goes, " + std::string(80, '.'))}) {
    EXPECT_TRUE(scan(text).empty()) << text;
  }
  // A wire record's header: found with any value, redacted or not.
  const std::string token = old_session_token(kFwoGHead, 74);
  auto wire = [](std::string_view header_value) {
    return R"({"seq":3,"t":"2026-11-26T10:00:00Z","kind":"wire","prev":"sha256:)" + std::string(64, '0') +
           R"(","body":{"conn":1,"exchange":0,"dir":"request","host":"bedrock-runtime.us-east-1.amazonaws.com","method":"POST","path":"/model/m/invoke","headers":[["content-type","application/json"],["X-Amz-Security-Token",")" +
           std::string(header_value) + R"("]],"body":"{}","encoding":"utf8"}})";
  };
  auto scanned = [](const std::string& line) {
    const std::string padded = line + std::string(kLinePadding, '\0');
    ScanOutput out;
    make_record_line_scanner(true, Limits{})->scan(std::string_view(padded.data(), line.size()), 3, &out);
    return describe_output(out);
  };
  EXPECT_NE(scanned(wire("AbCdEf0123456789opaque")).find("3 body.headers[1] aws-session-token () AbCdEf0123456789opaque 2"),
            std::string::npos)
      << scanned(wire("AbCdEf0123456789opaque"));
  EXPECT_NE(scanned(wire(token)).find("aws-session-token () " + token), std::string::npos);
  EXPECT_EQ(scanned(wire("[REDACTED:aws-session-token]")), "marker aws-session-token\n");
  // And redact takes it out of a trace's tool output.
  const std::string in = testing::claude_trace_with_tool_output(
      "amz-token.jsonl", "$ cat req.sh\ncurl -H 'x-amz-security-token: " + token + "' https://b.s3.amazonaws.com/k\n");
  const std::string out = testing::temp_dir() + "/amz-token-redacted.jsonl";
  auto r = redact_trace(in, out, testing::source_path("fixtures/keys/dev-key.json"), Limits{});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(leftover(read_file(out), {token}), "");
  expect_copy_checks_clean(out);
}

}  // namespace
}  // namespace goalcup::cheat
