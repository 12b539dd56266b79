#include "cheatcheck/secrets/rules.h"

#include "cheatcheck/secrets/decoders.h"

#include <strings.h>

#include <simdjson.h>
#include <sodium.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <tuple>
#include <vector>

namespace goalcup::cheat {
namespace {

constexpr Rule kRules[] = {
    // Anthropic
    {.id = "anthropic-key", .pattern = R"(sk-ant-api\d\d-[A-Za-z0-9_\-]{32})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 45, .max_len = 240, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Anthropic API key", .match_len = 45},
    {.id = "anthropic-admin-key", .pattern = R"(sk-ant-admin\d\d-[A-Za-z0-9_\-]{32})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 47, .max_len = 240, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Anthropic Admin API key", .match_len = 47},
    {.id = "anthropic-oauth", .pattern = R"(sk-ant-o[ar]t\d\d-[A-Za-z0-9_\-]{32})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 45, .max_len = 240, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Anthropic OAuth access or refresh token", .match_len = 45},
    // OpenAI
    {.id = "openai-key", .pattern = R"(sk-proj-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 28, .max_len = 320, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "OpenAI project key", .match_len = 28},
    {.id = "openai-key", .pattern = R"(sk-svcacct-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 31, .max_len = 320, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "OpenAI service account key", .match_len = 31},
    {.id = "openai-key", .pattern = R"(sk-admin-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 29, .max_len = 320, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "OpenAI admin key", .match_len = 29},
    {.id = "openai-key", .pattern = R"(sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "OpenAI legacy key", .match_len = 51},
    // GitHub
    // The checksum decides, so these need no boundary before them: a token
    // glued to a word ("provideghp_...") is found when its checksum holds.
    {.id = "github-pat", .pattern = R"(ghp_[A-Za-z0-9]{36})", .extract = Extract::github, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "GitHub personal access token", .match_len = 40},
    {.id = "github-oauth", .pattern = R"(gho_[A-Za-z0-9]{36})", .extract = Extract::github, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "GitHub OAuth token", .match_len = 40},
    {.id = "github-app", .pattern = R"(gh[us]_[A-Za-z0-9]{36})", .extract = Extract::github, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "GitHub App user-to-server or server-to-server token", .match_len = 40},
    {.id = "github-refresh", .pattern = R"(ghr_[A-Za-z0-9]{36})", .extract = Extract::github, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "GitHub refresh token", .match_len = 40},
    {.id = "github-refresh", .pattern = R"(ghr_[A-Za-z0-9]{76})", .description = "GitHub refresh token",
     .match_len = 80},
    {.id = "github-fine-grained-pat", .pattern = R"(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})",
     .extract = Extract::token, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = true, .description = "GitHub fine-grained personal access token",
     .match_len = 93},
    // GitLab
    {.id = "gitlab-pat", .pattern = R"(glpat-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash_dot, .min_len = 26, .max_len = 90, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab personal access token", .match_len = 26},
    {.id = "gitlab-token", .pattern = R"(gl(?:dt|rt|ft)-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash_dot, .min_len = 25, .max_len = 90, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab deploy, runner or feed token", .match_len = 25},
    {.id = "gitlab-token", .pattern = R"(glcbt-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 26, .max_len = 90, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab CI/CD, trigger, incoming mail or OAuth token", .match_len = 26},
    {.id = "gitlab-token", .pattern = R"(glptt-[A-Za-z0-9_\-]{40})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab pipeline trigger token", .match_len = 46},
    {.id = "gitlab-token", .pattern = R"(glimt-[A-Za-z0-9_\-]{25})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab incoming mail token", .match_len = 31},
    {.id = "gitlab-token", .pattern = R"(gloas-[A-Za-z0-9_\-]{64})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab OAuth application secret", .match_len = 70},
    {.id = "gitlab-token", .pattern = R"(glsoat-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 27, .max_len = 57, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab service account token", .match_len = 27},
    {.id = "gitlab-token", .pattern = R"(glagent-[A-Za-z0-9_\-]{50})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 58, .max_len = 120, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab agent token", .match_len = 58},
    {.id = "gitlab-token", .pattern = R"(glffct-[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 27, .max_len = 90, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab feature flags client token", .match_len = 27},
    {.id = "gitlab-token", .pattern = R"(GR1348941[A-Za-z0-9_\-]{20})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 29, .max_len = 59, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab runner registration token", .match_len = 29},
    {.id = "gitlab-session", .pattern = R"(_gitlab_session=[0-9a-z]{32})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "GitLab session cookie", .match_len = 48},
    // Cloud
    {.id = "aws-key-id", .pattern = R"((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "AWS access key id", .match_len = 20},
    {.id = "aws-secret-key",
     .pattern = R"(aws[A-Za-z0-9_\- ]{0,16}(?:secret|private)[A-Za-z0-9_\- ]{0,16}["']?\s*[:=]\s*["']?)",
     .extract = Extract::value, .chars = Chars::b64, .min_len = 40, .max_len = 40, .severity = Severity::high,
     .caseless = true, .left_boundary = false, .description = "AWS secret access key in an assignment"},
    // The AWS API's and CLI's own names for a new key's secret and an STS
    // session's token (create-access-key, get-session-token, assume-role:
    // JSON, YAML, table and XML output; Terraform's secret_access_key), and
    // the rows of the CLI's text output, where they follow the key id.
    {.id = "aws-secret-key", .pattern = R"(secret[_-]?access[_-]?key["']?\s*[:=|>]\s*["']?)",
     .extract = Extract::value, .chars = Chars::b64, .min_len = 40, .max_len = 40, .severity = Severity::high,
     .caseless = true, .left_boundary = false, .description = "AWS secret access key (SecretAccessKey)"},
    {.id = "aws-session-token", .pattern = R"((?:aws_?session_?token|sessiontoken)["']?\s*[:=|>]\s*["']?)",
     .extract = Extract::value, .chars = Chars::b64, .min_len = 100, .max_len = 4096, .severity = Severity::high,
     .caseless = true, .left_boundary = false, .description = "AWS STS session token"},
    // The token as SigV4 sends it: the X-Amz-Security-Token header (raw,
    // curl -H, a JSON or dict of headers) and a presigned URL's query
    // parameter (percent-encoded there, a warning: session_token_of_url).
    // Any STS token shape (IQoJ..., the older FwoG... and AQoD...).
    {.id = "aws-session-token", .pattern = R"(x-amz-security-token["']?\s*[:=]\s*["']?)", .extract = Extract::value,
     .chars = Chars::pct_b64, .min_len = 100, .max_len = 8000, .severity = Severity::high, .caseless = true,
     .left_boundary = false, .description = "AWS STS session token (X-Amz-Security-Token)"},
    {.id = "aws-secret-key", .pattern = R"((?:AKIA|ASIA)[A-Z2-7]{16})", .extract = Extract::aws_cli_row,
     .chars = Chars::b64, .min_len = 40, .max_len = 40, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "AWS secret access key on its key id's row", .match_len = 20},
    {.id = "aws-session-token", .pattern = R"(ASIA[A-Z2-7]{16})", .extract = Extract::aws_cli_row,
     .chars = Chars::b64, .min_len = 100, .max_len = 4096, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "AWS STS session token on its key id's row", .match_len = 20},
    {.id = "aws-bedrock-key", .pattern = R"(ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{40})", .extract = Extract::token,
     .chars = Chars::b64, .min_len = 62, .max_len = 400, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "AWS Bedrock long-term API key", .match_len = 62},
    {.id = "aws-bedrock-key", .pattern = R"(bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t)",
     .extract = Extract::token, .chars = Chars::b64, .min_len = 44, .max_len = 4000, .severity = Severity::high,
     .caseless = false, .left_boundary = true, .description = "AWS Bedrock short-term API key", .match_len = 44},
    {.id = "azure-storage-key", .pattern = R"(AccountKey\s*=\s*)", .extract = Extract::value,
     .chars = Chars::token68, .min_len = 86, .max_len = 90, .severity = Severity::high, .caseless = true,
     .left_boundary = false, .description = "Azure storage account key"},
    {.id = "google-api", .pattern = R"(AIza[0-9A-Za-z_\-]{35})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Google API key", .match_len = 39},
    {.id = "azure-client-secret", .pattern = R"(\dQ~[A-Za-z0-9_~.\-]{31})", .extract = Extract::azure,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = "Azure AD (Entra ID) client secret", .match_len = 34},
    {.id = "azure-shared-access-key", .pattern = R"(SharedAccessKey\s*=\s*)", .extract = Extract::value,
     .chars = Chars::token68, .min_len = 44, .max_len = 44, .left_boundary = false,
     .description = "Azure Service Bus, Event Hubs or IoT Hub shared access key"},
    // Azure DevOps PAT (84 characters): the annotated-key signature JQQJ99 at 52, AZDO at 76.
    {.id = "azure-devops-pat", .pattern = R"(JQQJ99[A-Za-z0-9]{18}AZDO)", .chars = Chars::alnum, .min_len = 84,
     .max_len = 84, .left_boundary = true, .description = "Azure DevOps personal access token", .match_len = 28,
     .lead = 52},
    {.id = "google-oauth-token", .pattern = R"(ya29\.[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash, .min_len = 40,
     .max_len = 2048, .description = "Google OAuth access token", .match_len = 25},
    // HashiCorp
    {.id = "vault-token", .pattern = R"(hv[sbr]\.[A-Za-z0-9_\-]{24})", .chars = Chars::alnum_dash, .min_len = 28,
     .max_len = 600, .description = "HashiCorp Vault service, batch or recovery token", .match_len = 28},
    // An unseal key share as "vault operator init" prints it, or given to
    // "vault operator unseal": base64 of 33 bytes.
    {.id = "vault-unseal-key", .pattern = R"((?:Unseal Key \d{1,2}:|vault operator unseal)[ \t]+)",
     .extract = Extract::value, .chars = Chars::b64, .min_len = 44, .max_len = 44, .severity = Severity::high,
     .caseless = false, .left_boundary = false, .description = "HashiCorp Vault unseal key"},
    {.id = "terraform-token", .pattern = R"(\.atlasv1\.[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash,
     .min_len = 83, .max_len = 93, .description = "Terraform Cloud / HCP Terraform API token", .match_len = 29,
     .lead = 14},
    // Platforms and developer services: a documented prefix and length.
    {.id = "docker-hub-token", .pattern = R"(dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27})",
     .description = "Docker Hub personal or organization access token", .match_len = 36},
    {.id = "doppler-token", .pattern = R"(dp\.(?:pt|st|ct|sa)\.[A-Za-z0-9]{2})", .chars = Chars::alnum_dash_dot,
     .min_len = 46, .max_len = 140, .description = "Doppler token", .match_len = 8},
    {.id = "doppler-token", .pattern = R"(dp\.scim\.[A-Za-z0-9]{2})", .chars = Chars::alnum_dash_dot, .min_len = 48,
     .max_len = 140, .description = "Doppler SCIM token", .match_len = 10},
    {.id = "doppler-token", .pattern = R"(dp\.audit\.[A-Za-z0-9]{2})", .chars = Chars::alnum_dash_dot, .min_len = 49,
     .max_len = 140, .description = "Doppler audit token", .match_len = 11},
    {.id = "heroku-key", .pattern = R"(HRKU-AA[A-Za-z0-9_\-]{58})", .description = "Heroku API key",
     .match_len = 65},
    {.id = "flyio-token", .pattern = R"(FlyV1 fm\d_[A-Za-z0-9+/]{20})", .chars = Chars::token68, .min_len = 80,
     .max_len = 4000, .description = "Fly.io macaroon token", .match_len = 30},
    {.id = "flyio-token", .pattern = R"(FlyV1 fm\d[a-z]_[A-Za-z0-9+/]{20})", .chars = Chars::token68, .min_len = 80,
     .max_len = 4000, .description = "Fly.io macaroon token", .match_len = 31},
    {.id = "supabase-token", .pattern = R"(sbp_[0-9a-z]{40})", .description = "Supabase access token",
     .match_len = 44},
    {.id = "supabase-token", .pattern = R"(sb_secret_[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash,
     .min_len = 40, .max_len = 100, .description = "Supabase secret key", .match_len = 30},
    {.id = "netlify-token", .pattern = R"(nfp_[A-Za-z0-9]{36})", .description = "Netlify personal access token",
     .match_len = 40},
    {.id = "linear-key", .pattern = R"(lin_api_[A-Za-z0-9]{40})", .description = "Linear API key", .match_len = 48},
    {.id = "notion-token", .pattern = R"(ntn_[0-9]{11}[A-Za-z0-9]{35})", .description = "Notion integration token",
     .match_len = 50},
    {.id = "atlassian-token", .pattern = R"(AT[AC]TT3[A-Za-z0-9_\-=]{20})", .chars = Chars::token68, .min_len = 150,
     .max_len = 400, .description = "Atlassian API token", .match_len = 26},
    {.id = "sentry-token", .pattern = R"(sntrys_eyJ[A-Za-z0-9+/=_]{20})", .chars = Chars::token68, .min_len = 80,
     .max_len = 600, .description = "Sentry organization auth token", .match_len = 30},
    {.id = "sentry-token", .pattern = R"(sntryu_[0-9a-f]{64})", .description = "Sentry user auth token",
     .match_len = 71},
    {.id = "grafana-token", .pattern = R"(glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8})",
     .description = "Grafana service account token", .match_len = 46},
    {.id = "grafana-token", .pattern = R"(glc_[A-Za-z0-9+/]{32})", .chars = Chars::token68, .min_len = 40,
     .max_len = 600, .description = "Grafana Cloud access policy token", .match_len = 36},
    {.id = "postman-key", .pattern = R"(PMAK-[0-9a-f]{24}-[0-9a-f]{34})", .description = "Postman API key",
     .match_len = 64},
    {.id = "pulumi-token", .pattern = R"(pul-[0-9a-z]{40})", .description = "Pulumi access token", .match_len = 44},
    {.id = "planetscale-token", .pattern = R"(pscale_tkn_[A-Za-z0-9_\-.]{20})", .chars = Chars::alnum_dash_dot,
     .min_len = 40, .max_len = 100, .description = "PlanetScale service token", .match_len = 31},
    {.id = "planetscale-token", .pattern = R"(pscale_pw_[A-Za-z0-9_\-.]{20})", .chars = Chars::alnum_dash_dot,
     .min_len = 40, .max_len = 100, .description = "PlanetScale database password", .match_len = 30},
    {.id = "tailscale-key", .pattern = R"(tskey-api-[A-Za-z0-9]{6})", .chars = Chars::alnum_dash,
     .min_len = 40, .max_len = 120, .description = "Tailscale API or auth key", .match_len = 16},
    {.id = "tailscale-key", .pattern = R"(tskey-auth-[A-Za-z0-9]{6})", .chars = Chars::alnum_dash,
     .min_len = 40, .max_len = 120, .description = "Tailscale auth key", .match_len = 17},
    {.id = "tailscale-key", .pattern = R"(tskey-client-[A-Za-z0-9]{6})", .chars = Chars::alnum_dash,
     .min_len = 40, .max_len = 120, .description = "Tailscale OAuth client secret", .match_len = 19},
    {.id = "jfrog-token", .pattern = R"(AKCp[A-Za-z0-9]{69})", .description = "JFrog Artifactory API key",
     .match_len = 73},
    {.id = "jfrog-token", .pattern = R"(cmVmdGtuOjAxOj[A-Za-z0-9]{50})",
     .description = "JFrog reference token (base64 of reftkn:01:)", .match_len = 64},
    {.id = "prefect-key", .pattern = R"(pnu_[A-Za-z0-9]{36})", .description = "Prefect API key", .match_len = 40},
    {.id = "sourcegraph-token", .pattern = R"(sgp_[0-9a-fA-F]{40})", .description = "Sourcegraph access token",
     .match_len = 44},
    {.id = "sourcegraph-token", .pattern = R"(sgp_[0-9a-fA-F]{16}_[0-9a-fA-F]{40})",
     .description = "Sourcegraph access token (with instance id)", .match_len = 61},
    {.id = "sourcegraph-token", .pattern = R"(sgp_local_[0-9a-fA-F]{40})",
     .description = "Sourcegraph local access token", .match_len = 50},
    {.id = "tavily-key", .pattern = R"(tvly-[A-Za-z0-9]{32})", .description = "Tavily API key", .match_len = 37},
    {.id = "tavily-key", .pattern = R"(tvly-dev-[A-Za-z0-9]{32})", .description = "Tavily development API key",
     .match_len = 41},
    {.id = "dependency-track-key", .pattern = R"(odt_[A-Za-z0-9]{32})", .chars = Chars::alnum, .min_len = 36,
     .max_len = 44, .description = "Dependency-Track API key", .match_len = 36},
    {.id = "adafruit-io-key", .pattern = R"(aio_[A-Za-z0-9]{28})", .description = "Adafruit IO key", .match_len = 32},
    // Riot Games' API keys: RGAPI- and a UUID, as the developer portal
    // shows them; Apify's API tokens: apify_api_ (no documented length).
    {.id = "riot-api-key", .pattern = R"(RGAPI-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
     .description = "Riot Games API key", .match_len = 42},
    {.id = "apify-token", .pattern = R"(apify_api_[A-Za-z0-9]{20})", .chars = Chars::alnum, .min_len = 30,
     .max_len = 80, .severity = Severity::warning, .description = "Apify API token", .match_len = 30},
    {.id = "jina-key", .pattern = R"(jina_[A-Za-z0-9]{60})", .description = "Jina AI API key", .match_len = 65},
    {.id = "dropbox-token", .pattern = R"(sl\.[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash, .min_len = 130,
     .max_len = 1400, .description = "Dropbox short-lived access token", .match_len = 23},
    {.id = "dropbox-token", .pattern = R"(sl\.u\.[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash, .min_len = 130,
     .max_len = 1400, .description = "Dropbox short-lived access token", .match_len = 25},
    {.id = "mailgun-key", .pattern = R"(key-[0-9a-f]{32})", .severity = Severity::warning,
     .description = "Mailgun API key (key-<32 hex>)", .match_len = 36},
    {.id = "msteams-webhook", .pattern = R"(outlook\.office\.com/webhook/[0-9a-f]{8}-[0-9a-f]{4}-)",
     .chars = Chars::url_path, .min_len = 63, .max_len = 400, .left_boundary = false,
     .description = "Microsoft Teams incoming webhook", .match_len = 41},
    {.id = "msteams-webhook", .pattern = R"(\.webhook\.office\.com/webhookb2/[0-9a-f]{8}-[0-9a-f]{4}-)",
     .chars = Chars::url_path, .min_len = 63, .max_len = 400, .left_boundary = false,
     .description = "Microsoft Teams incoming webhook", .match_len = 44},
    {.id = "sonar-token", .pattern = R"(sq[pau]_[0-9a-f]{40})", .description = "SonarQube / SonarCloud token",
     .match_len = 44},
    // Microsoft's identifiable keys (its security-utilities library documents
    // them): random base64 with a service's 4-character signature at a fixed
    // place, so the pattern starts at the signature and the random head is a
    // lead. 64-byte keys: <76> signature <5>[AQgw]==; 32-byte: <33> signature
    // [A-P]<5>=; Container Registry and Search: <42> signature [A-D]<5>.
    {.id = "azure-storage-key", .pattern = R"(\+ASt[A-Za-z0-9+/]{5}[AQgw]==)", .chars = Chars::b64, .min_len = 88,
     .max_len = 88, .description = "Azure storage account key (identifiable)", .match_len = 12, .lead = 76,
     .lead_chars = Chars::b64},
    {.id = "azure-cosmosdb-key", .pattern = R"(ACDb[A-Za-z0-9+/]{5}[AQgw]==)", .chars = Chars::b64, .min_len = 88,
     .max_len = 88, .description = "Azure Cosmos DB key (identifiable)", .match_len = 12, .lead = 76,
     .lead_chars = Chars::b64},
    {.id = "azure-identifiable-key", .pattern = R"((?:APIM|\+ABa|\+AMC)[A-Za-z0-9+/]{5}[AQgw]==)", .chars = Chars::b64,
     .min_len = 88, .max_len = 88, .description = "Azure API Management, Batch or ML key (identifiable)",
     .match_len = 12, .lead = 76, .lead_chars = Chars::b64},
    {.id = "azure-identifiable-key", .pattern = R"((?:AIoT|\+ASb|\+AEh|\+ARm)[A-P][A-Za-z0-9+/]{5}=)",
     .chars = Chars::b64, .min_len = 44, .max_len = 44,
     .description = "Azure Service Bus, Event Hubs, Relay or IoT key (identifiable)", .match_len = 11, .lead = 33,
     .lead_chars = Chars::b64},
    {.id = "azure-container-registry-key", .pattern = R"(\+ACR[A-D][A-Za-z0-9+/]{5})", .chars = Chars::b64,
     .min_len = 52, .max_len = 52, .description = "Azure Container Registry password (identifiable)",
     .match_len = 10, .lead = 42, .lead_chars = Chars::b64},
    {.id = "azure-search-key", .pattern = R"(AzSe[A-D][A-Za-z0-9+/]{5})", .chars = Chars::b64, .min_len = 52,
     .max_len = 52, .description = "Azure AI Search key (identifiable)", .match_len = 10, .lead = 42,
     .lead_chars = Chars::b64},
    {.id = "azure-function-key", .pattern = R"(AzFu[A-Za-z0-9_\-]{5}[AQgw]==)", .chars = Chars::alnum_dash,
     .min_len = 56, .max_len = 56, .description = "Azure Functions key (identifiable)", .match_len = 12, .lead = 44,
     .lead_chars = Chars::alnum_dash},
    // Microsoft's common annotated keys (84 characters: JQQJ9 at 52, the
    // service's signature at 76), Azure AI services' (Cognitive Services,
    // Azure OpenAI) among them; Azure DevOps' (AZDO) has a rule above.
    {.id = "azure-annotated-key", .pattern = R"(JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z])", .chars = Chars::alnum,
     .min_len = 84, .max_len = 84, .description = "Azure AI services or other Microsoft annotated key",
     .match_len = 25, .lead = 52},
    // Salesforce's session (access) token: the org id (00D + 12) then '!'.
    {.id = "salesforce-token", .pattern = R"(00D[A-Za-z0-9]{12}![A-Za-z0-9_.]{16})", .chars = Chars::alnum_dash_dot,
     .min_len = 96, .max_len = 140, .description = "Salesforce access token", .match_len = 32},
    // Twitch's chat (IRC) password: oauth: and the 30-character token (the
    // secret is the token, as a generic oauth: assignment would have it).
    {.id = "twitch-token", .pattern = R"(oauth:)", .extract = Extract::value, .chars = Chars::alnum, .min_len = 30,
     .max_len = 30, .severity = Severity::warning, .left_boundary = false, .description = "Twitch chat OAuth token"},
    // Kubernetes bootstrap tokens (<6>.<16>, [a-z0-9]) where kubeadm and the
    // bootstrap Secret put them: --token, token:, token-secret:.
    {.id = "kubernetes-bootstrap-token", .pattern = R"((?:--token[ =]|token:[ \t]*|token-secret:[ \t]*)["']?)",
     .extract = Extract::kube_token, .left_boundary = false, .description = "Kubernetes bootstrap token"},
    // Discord's webhooks: /api/webhooks/<17-20 digit id>/<token>, the URL
    // being what posts; RubyGems' API keys: rubygems_ + 48 hex.
    {.id = "discord-webhook", .pattern = R"(discord\.com/api/webhooks/\d{17})", .chars = Chars::url_path,
     .min_len = 100, .max_len = 160, .left_boundary = false, .description = "Discord webhook URL", .match_len = 42},
    {.id = "discord-webhook", .pattern = R"(discordapp\.com/api/webhooks/\d{17})", .chars = Chars::url_path,
     .min_len = 103, .max_len = 163, .left_boundary = false, .description = "Discord webhook URL", .match_len = 45},
    {.id = "rubygems-key", .pattern = R"(rubygems_[0-9a-f]{48})", .description = "RubyGems API key", .match_len = 57},
    // Keys with no prefix of their own, assigned to a name that holds their
    // provider's name and says key (HEROKU_API_KEY, TWILIO_AUTH_TOKEN,
    // COSMOS_KEY), kept only in that provider's documented shape: warnings.
    {.id = "provider-key",
     .pattern = R"((?:heroku|twilio|twitch|mailgun|okta|azure[_\-]?openai|openai[_\-]?azure|cognitive[_\-]?services?|cosmos|datadog|algolia|pagerduty)[A-Za-z0-9_\-.]{0,24}(?:key|token|secret)["'`]?\s*[:=]\s*["'`]?)",
     .extract = Extract::provider_value, .chars = Chars::token68, .min_len = 20, .max_len = 120,
     .severity = Severity::warning, .caseless = true, .left_boundary = false,
     .description = "a provider's key under a name that holds the provider's name"},

    {.id = "buildkite-token", .pattern = R"(bkua_[0-9a-f]{40})", .description = "Buildkite user access token",
     .match_len = 45},
    {.id = "circleci-token", .pattern = R"(CCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40})",
     .description = "CircleCI personal API token", .match_len = 70},
    {.id = "nuget-key", .pattern = R"(oy2[a-z0-9]{43})", .description = "NuGet API key", .match_len = 46},
    {.id = "figma-token", .pattern = R"(figd_[A-Za-z0-9_\-]{40})", .description = "Figma personal access token",
     .match_len = 45},
    {.id = "airtable-pat", .pattern = R"(pat[A-Za-z0-9]{14}\.[0-9a-f]{64})",
     .description = "Airtable personal access token", .match_len = 82},
    {.id = "contentful-token", .pattern = R"(CFPAT-[A-Za-z0-9_\-]{43})",
     .description = "Contentful personal access token", .match_len = 49},
    {.id = "dynatrace-token", .pattern = R"(dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64})", .description = "Dynatrace API token",
     .match_len = 96},
    {.id = "brevo-key", .pattern = R"(xkeysib-[0-9a-f]{64}-[A-Za-z0-9]{16})", .description = "Brevo (Sendinblue) API key",
     .match_len = 89},
    {.id = "mongodb-atlas-secret", .pattern = R"(mdb_sa_sk_[A-Za-z0-9_\-]{40})",
     .description = "MongoDB Atlas service account secret", .match_len = 50},
    {.id = "mapbox-secret-token", .pattern = R"(sk\.eyJ[A-Za-z0-9_\-]{8})", .chars = Chars::alnum_dash_dot, .min_len = 60,
     .max_len = 400, .description = "Mapbox secret access token", .match_len = 14},
    {.id = "new-relic-key", .pattern = R"(NRAK-[A-Z0-9]{27})", .description = "New Relic user API key", .match_len = 32},
    {.id = "new-relic-key", .pattern = R"(NRAA-[0-9a-f]{27})", .description = "New Relic admin API key", .match_len = 32},
    {.id = "new-relic-key", .pattern = R"(NRI[IQ]-[A-Za-z0-9_\-]{32})", .description = "New Relic insert or query key",
     .match_len = 37},
    {.id = "new-relic-key", .pattern = R"(NRJS-[0-9a-f]{19})", .description = "New Relic browser API key",
     .match_len = 24},
    {.id = "new-relic-key", .pattern = R"([A-Za-z0-9]{36}NRAL)", .description = "New Relic license key", .match_len = 40},
    {.id = "typeform-token", .pattern = R"(tfp_[A-Za-z0-9_\-]{40})", .chars = Chars::alnum_dash, .min_len = 44,
     .max_len = 100, .description = "Typeform personal access token", .match_len = 44},
    {.id = "langfuse-key", .pattern = R"(sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
     .description = "Langfuse secret key", .match_len = 42},
    {.id = "pinecone-key", .pattern = R"(pcsk_[A-Za-z0-9]{5}_[A-Za-z0-9]{20})", .chars = Chars::alnum, .min_len = 60,
     .max_len = 120, .description = "Pinecone API key", .match_len = 31},
    // Prefixes their providers document, with no checksum and a length the
    // documentation does not fix: warnings. Twitch's stream key
    // (live_<user id>_<30>), Segment's public API token (sgp_ + 64 mixed
    // case; Sourcegraph's sgp_ tokens are hex), ReadMe's API key (rdme_),
    // Teamwork's (tkn.v1_), Ubidots' (BBFF-), Alibaba Cloud's AccessKey id
    // (LTAI), crates.io's token (cio + 32), PostHog's personal API key
    // (phx_; its phc_ project keys are public), Notion's legacy integration
    // secret (secret_ + 43), Grafana's legacy API key (base64 of {"k":"),
    // TeamCity's access token (base64 of {"typ": "TCV2"}).
    {.id = "twitch-stream-key", .pattern = R"(live_[0-9]{6})", .chars = Chars::alnum_dash, .min_len = 43,
     .max_len = 48, .severity = Severity::warning, .description = "Twitch stream key", .match_len = 11},
    {.id = "segment-token", .pattern = R"(sgp_[A-Za-z0-9]{64})", .severity = Severity::warning,
     .description = "Segment public API token", .match_len = 68},
    {.id = "readme-key", .pattern = R"(rdme_[a-z0-9]{20})", .chars = Chars::alnum, .min_len = 60, .max_len = 90,
     .severity = Severity::warning, .description = "ReadMe API key", .match_len = 25},
    {.id = "teamwork-token", .pattern = R"(tkn\.v1_[A-Za-z0-9+/]{20})", .chars = Chars::pct_b64, .min_len = 50,
     .max_len = 120, .severity = Severity::warning, .description = "Teamwork API token", .match_len = 27},
    {.id = "ubidots-token", .pattern = R"(BBFF-[A-Za-z0-9]{30})", .severity = Severity::warning,
     .description = "Ubidots token", .match_len = 35},
    {.id = "alibaba-access-key-id", .pattern = R"(LTAI[A-Za-z0-9]{12})", .chars = Chars::alnum, .min_len = 16,
     .max_len = 30, .severity = Severity::warning, .description = "Alibaba Cloud AccessKey ID", .match_len = 16},
    {.id = "cratesio-token", .pattern = R"(cio[A-Za-z0-9]{32})", .severity = Severity::warning,
     .description = "crates.io API token", .match_len = 35},
    {.id = "posthog-key", .pattern = R"(phx_[A-Za-z0-9_]{20})", .chars = Chars::alnum_dash, .min_len = 40,
     .max_len = 80, .severity = Severity::warning, .description = "PostHog personal API key", .match_len = 24},
    {.id = "notion-token", .pattern = R"(secret_[A-Za-z0-9]{43})", .severity = Severity::warning,
     .description = "Notion integration secret (legacy)", .match_len = 50},
    {.id = "grafana-api-key", .pattern = R"(eyJrIjoi[A-Za-z0-9+/]{20})", .chars = Chars::b64, .min_len = 50,
     .max_len = 200, .severity = Severity::warning, .description = "Grafana API key (legacy)", .match_len = 28},
    {.id = "teamcity-token", .pattern = R"(eyJ0eXAiOiAiVENWMiJ9\.[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash_dot,
     .min_len = 60, .max_len = 200, .severity = Severity::warning, .description = "TeamCity access token",
     .match_len = 41},
    // A shared access signature: the HMAC that grants what the URL names.
    {.id = "azure-sas-signature", .pattern = R"([?&]sig=)", .extract = Extract::value, .chars = Chars::pct_b64,
     .min_len = 40, .max_len = 100, .severity = Severity::warning, .left_boundary = false,
     .description = "signature of a shared access (SAS) URL"},
    // Telegram's bot token: the bot's id, a colon, 35 characters starting "AA".
    {.id = "telegram-bot-token", .pattern = R"(\d:AA[A-Za-z0-9_\-]{32})", .extract = Extract::bot_token,
     .chars = Chars::alnum_dash, .left_boundary = false, .description = "Telegram bot token", .match_len = 36},
    // Model providers
    {.id = "groq-key", .pattern = R"(gsk_[A-Za-z0-9]{52})", .description = "Groq API key", .match_len = 56},
    {.id = "xai-key", .pattern = R"(xai-[A-Za-z0-9]{80})", .description = "xAI API key", .match_len = 84},
    {.id = "perplexity-key", .pattern = R"(pplx-[A-Za-z0-9]{48})", .description = "Perplexity API key",
     .match_len = 53},
    {.id = "openrouter-key", .pattern = R"(sk-or-v1-[0-9a-f]{64})", .description = "OpenRouter API key",
     .match_len = 73},
    {.id = "replicate-token", .pattern = R"(r8_[A-Za-z0-9]{37})", .description = "Replicate API token",
     .match_len = 40},
    {.id = "langsmith-key", .pattern = R"(lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10})", .description = "LangSmith API key",
     .match_len = 51},
    {.id = "elevenlabs-key", .pattern = R"(sk_[0-9a-f]{48})", .description = "ElevenLabs API key", .match_len = 51},
    {.id = "sk-hex-key", .pattern = R"(sk-[0-9a-f]{32})", .severity = Severity::warning,
     .description = "API key of the sk-<32 hex> form (DeepSeek and others)", .match_len = 35},
    // Formats the review of issue 16 (16b #6) found missing, each from its
    // provider's documented shape: a fixed prefix and an exact length and
    // alphabet (high), the test or sandbox form of the same (warning).
    // PuTTY's private key file (.ppk, versions 2 and 3): the header, then
    // "Private-Lines: n" and n lines of the private blob (putty_key).
    {.id = "putty-private-key", .pattern = R"(PuTTY-User-Key-File-[23]:)", .extract = Extract::putty_key,
     .left_boundary = false, .description = "PuTTY private key file (.ppk)", .match_len = 22},
    // Google's OAuth client secrets (client_secret.json) since 2021.
    {.id = "google-oauth-client-secret", .pattern = R"(GOCSPX-[A-Za-z0-9_\-]{28})",
     .description = "Google OAuth client secret", .match_len = 35},
    // An AWS STS session token: base64 whose first bytes spell "origin_ec"
    // (every token STS issues now opens with IQoJb3JpZ2luX2Vj); hundreds of
    // characters. Usable only with its secret access key: in a presigned
    // URL's X-Amz-Security-Token it is a warning (session_token_in_url).
    {.id = "aws-session-token", .pattern = R"(IQoJb3JpZ2luX2Vj[A-Za-z0-9+/]{20})", .chars = Chars::b64,
     .min_len = 100, .max_len = 8000, .description = "AWS STS session token", .match_len = 36},
    // Bitbucket's app password: ATBB, 24 random characters and the CRC32 of
    // those 28 in upper-case hex. High when the checksum holds; another
    // ATBB token of up to 64 letters and digits is a warning.
    {.id = "bitbucket-app-password", .pattern = R"(ATBB[A-Za-z0-9]{32})", .chars = Chars::alnum, .min_len = 36,
     .max_len = 64, .description = "Bitbucket app password", .match_len = 36},
    // 1Password's service account token: ops_ and base64 of a JSON object.
    {.id = "onepassword-service-token", .pattern = R"(ops_eyJ[A-Za-z0-9+/]{20})", .chars = Chars::b64,
     .min_len = 250, .max_len = 4000, .description = "1Password service account token", .match_len = 27},
    // Firebase Cloud Messaging's legacy server key: AAAA + 7 (the project
    // number's base64), ':APA91b' and 134 more; a device's registration
    // token has the same tail after its instance id (layout_ok). A warning:
    // Google shut the legacy FCM API these keys called down in 2024, so no
    // service takes one any more (as for a long-expired JWT).
    {.id = "firebase-fcm-server-key", .pattern = R"(:APA91b[A-Za-z0-9_\-]{20})", .chars = Chars::alnum_dash,
     .min_len = 152, .max_len = 152, .severity = Severity::warning,
     .description = "Firebase Cloud Messaging legacy server key (its API was shut down in 2024)", .match_len = 27,
     .lead = 11, .lead_chars = Chars::alnum_dash},
    {.id = "braintree-token", .pattern = R"(access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32})",
     .description = "Braintree production access token", .match_len = 73},
    {.id = "braintree-token", .pattern = R"(access_token\$sandbox\$[0-9a-z]{16}\$[0-9a-f]{32})",
     .severity = Severity::warning, .description = "Braintree sandbox access token", .match_len = 70},
    {.id = "neon-api-key", .pattern = R"(napi_[a-z0-9]{64})", .description = "Neon API key", .match_len = 69},
    {.id = "hubspot-token", .pattern = R"(pat-[a-z]{2}[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
     .description = "HubSpot private app access token", .match_len = 44},
    {.id = "shippo-token", .pattern = R"(shippo_live_[0-9a-f]{40})", .description = "Shippo live API token",
     .match_len = 52},
    {.id = "shippo-token", .pattern = R"(shippo_test_[0-9a-f]{40})", .severity = Severity::warning,
     .description = "Shippo test API token", .match_len = 52},
    {.id = "easypost-key", .pattern = R"(EZAK[A-Za-z0-9]{54})", .description = "EasyPost production API key",
     .match_len = 58},
    {.id = "easypost-key", .pattern = R"(EZTK[A-Za-z0-9]{54})", .severity = Severity::warning,
     .description = "EasyPost test API key", .match_len = 58},
    {.id = "frameio-token", .pattern = R"(fio-u-[A-Za-z0-9_=\-]{64})", .description = "Frame.io developer token",
     .match_len = 70},
    {.id = "clojars-token", .pattern = R"(CLOJARS_[A-Za-z0-9]{60})", .description = "Clojars deploy token",
     .match_len = 68},
    {.id = "defined-networking-key", .pattern = R"(dnkey-[A-Za-z0-9_=]{26}-[A-Za-z0-9_=]{52})",
     .description = "Defined Networking (Nebula) API key", .match_len = 85},
    {.id = "duffel-token", .pattern = R"(duffel_live_[A-Za-z0-9_=\-]{43})", .description = "Duffel live access token",
     .match_len = 55},
    {.id = "duffel-token", .pattern = R"(duffel_test_[A-Za-z0-9_=\-]{43})", .severity = Severity::warning,
     .description = "Duffel test access token", .match_len = 55},
    {.id = "flutterwave-key", .pattern = R"(FLWSECK-[0-9a-f]{32}-X)", .description = "Flutterwave secret key",
     .match_len = 42},
    {.id = "flutterwave-key", .pattern = R"(FLWSECK_TEST-[0-9a-f]{32}-X)", .severity = Severity::warning,
     .description = "Flutterwave test secret key", .match_len = 47},
    // Infracost's API key: ico- and 32 random letters and digits of both
    // cases (a hex digest after "ico-" names a file, layout_ok).
    {.id = "infracost-key", .pattern = R"(ico-[A-Za-z0-9]{32})", .description = "Infracost API key", .match_len = 36},
    {.id = "scalingo-token", .pattern = R"(tk-us-[A-Za-z0-9_\-]{48})", .description = "Scalingo API token",
     .match_len = 54},
    // 42's Intra API application secret (its public uid is u-s4t2ud-).
    {.id = "intra42-secret", .pattern = R"(s-s4t2ud-[0-9a-f]{64})", .description = "42 Intra API client secret",
     .match_len = 73},
    // Harness' personal and service account tokens: <account id>.<token id>.<secret>.
    {.id = "harness-token", .pattern = R"((?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20})",
     .description = "Harness personal or service account token", .match_len = 72},
    // Age (bech32, checksum verified)
    {.id = "age-secret-key", .pattern = R"(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})",
     .description = "age encryption secret key", .match_len = 74},
    // Chat and payments
    {.id = "slack-bot", .pattern = R"(xoxb-[0-9]{6})", .extract = Extract::token, .chars = Chars::alnum_dash,
     .min_len = 30, .max_len = 140, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Slack bot token", .match_len = 11},
    {.id = "slack-user", .pattern = R"(xoxp-[0-9]{6})", .extract = Extract::token, .chars = Chars::alnum_dash,
     .min_len = 30, .max_len = 160, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Slack user token", .match_len = 11},
    {.id = "slack-token", .pattern = R"(xox[aers]-[0-9A-Za-z][0-9A-Za-z\-]{5})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 15, .max_len = 160, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Slack app, refresh or other token", .match_len = 11},
    {.id = "slack-token", .pattern = R"(xapp-\d-[A-Z0-9]{6})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 30, .max_len = 200, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Slack app-level token", .match_len = 13},
    {.id = "slack-token", .pattern = R"(xoxe-\d-[A-Za-z0-9]{6})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 30, .max_len = 200, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Slack configuration refresh token", .match_len = 13},
    {.id = "slack-token", .pattern = R"(xoxe\.xox[bp]-\d-[A-Za-z0-9]{6})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 30, .max_len = 200, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Slack configuration token", .match_len = 18},
    {.id = "slack-token", .pattern = R"(xoxo-\d{6})", .extract = Extract::token, .chars = Chars::alnum_dash,
     .min_len = 30, .max_len = 160, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Slack legacy workspace token", .match_len = 11},
    {.id = "slack-webhook", .pattern = R"(hooks\.slack\.com/services/T[A-Z0-9]{6})", .extract = Extract::token,
     .chars = Chars::token68, .min_len = 60, .max_len = 160, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = "Slack incoming webhook", .match_len = 32},
    {.id = "slack-webhook", .pattern = R"(hooks\.slack\.com/workflows/T[A-Z0-9]{6})", .extract = Extract::token,
     .chars = Chars::token68, .min_len = 60, .max_len = 200, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = "Slack workflow webhook", .match_len = 33},
    {.id = "slack-webhook", .pattern = R"(hooks\.slack\.com/triggers/T[A-Z0-9]{6})", .extract = Extract::token,
     .chars = Chars::token68, .min_len = 60, .max_len = 200, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = "Slack workflow trigger", .match_len = 32},
    {.id = "discord-bot-token", .pattern = R"(\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27})",
     .extract = Extract::discord, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = false, .description = "Discord bot token", .match_len = 35},
    {.id = "stripe-live", .pattern = R"((?:sk|rk)_(?:live|prod)_[0-9A-Za-z]{20})", .extract = Extract::token,
     .chars = Chars::alnum, .min_len = 28, .max_len = 140, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Stripe live secret or restricted key", .match_len = 28},
    {.id = "stripe-test", .pattern = R"((?:sk|rk)_test_[0-9A-Za-z]{20})", .extract = Extract::token,
     .chars = Chars::alnum, .min_len = 28, .max_len = 140, .severity = Severity::warning, .caseless = false,
     .left_boundary = true, .description = "Stripe test key", .match_len = 28},
    {.id = "sendgrid-key", .pattern = R"(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "SendGrid API key", .match_len = 69},
    {.id = "sendgrid-key", .pattern = R"(SG\.[A-Za-z0-9_\-=.]{66})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::warning, .caseless = false,
     .left_boundary = true, .description = "SendGrid API key (not in the SG.<22>.<43> layout)", .match_len = 69},
    {.id = "twilio-key", .pattern = R"(SK[0-9a-fA-F]{32})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::warning, .caseless = false, .left_boundary = true,
     .description = "Twilio API key SID", .match_len = 34},
    {.id = "databricks-token", .pattern = R"(dapi[0-9a-fA-F]{32})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Databricks personal access token", .match_len = 36},
    {.id = "databricks-token", .pattern = R"(dapi[0-9a-fA-F]{32}-\d)", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Databricks personal access token", .match_len = 38},
    {.id = "digitalocean-token", .pattern = R"(do[opr]_v1_[0-9a-f]{64})", .extract = Extract::token,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "DigitalOcean token", .match_len = 71},
    {.id = "stripe-webhook", .pattern = R"(whsec_[0-9A-Za-z]{24})", .extract = Extract::token,
     .chars = Chars::alnum, .min_len = 30, .max_len = 100, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "Stripe webhook signing secret", .match_len = 30},
    {.id = "square-token", .pattern = R"(sq0atp-[A-Za-z0-9_\-]{22})", .description = "Square access token",
     .match_len = 29},
    {.id = "square-token", .pattern = R"(sq0csp-[A-Za-z0-9_\-]{43})", .description = "Square OAuth application secret",
     .match_len = 50},
    {.id = "square-token", .pattern = R"(EAAA[A-Za-z0-9_\-]{60})", .description = "Square access token",
     .match_len = 64},
    {.id = "shopify-token", .pattern = R"(shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32})",
     .description = "Shopify access token or shared secret", .match_len = 38},
    {.id = "mailchimp-key", .pattern = R"([0-9a-f]{32}-us\d)", .chars = Chars::alnum, .min_len = 36, .max_len = 37,
     .description = "Mailchimp API key", .match_len = 36},
    // Registries and hubs
    {.id = "hf-token", .pattern = R"(hf_[A-Za-z]{34})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Hugging Face access token", .match_len = 37},
    {.id = "hf-org-token", .pattern = R"(api_org_[A-Za-z]{34})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "Hugging Face org token", .match_len = 42},
    {.id = "npm-token", .pattern = R"(npm_[A-Za-z0-9]{36})", .extract = Extract::token, .chars = Chars::none,
     .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "npm access token", .match_len = 40},
    {.id = "pypi-token", .pattern = R"(pypi-AgE[IN][A-Za-z0-9]{16})", .extract = Extract::token,
     .chars = Chars::alnum_dash, .min_len = 60, .max_len = 400, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "PyPI API token", .match_len = 25},
    {.id = "npmrc-auth", .pattern = R"(:_auth(?:Token)?\s*=\s*["']?)", .extract = Extract::value,
     .chars = Chars::token68, .min_len = 8, .max_len = 400, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = ".npmrc registry credential"},
    {.id = "netrc-password", .pattern = R"(machine\s+[^\s]{1,255}\s+login\s+[^\s]{1,255}\s+password\s+)",
     .extract = Extract::value, .chars = Chars::value, .min_len = 6, .max_len = 200, .severity = Severity::warning,
     .caseless = false, .left_boundary = true, .description = ".netrc password"},
    {.id = "docker-auth", .pattern = R"("auth\\{0,3}"\s*:\s*\\{0,3}")", .extract = Extract::docker_auth, .chars = Chars::b64,
     .min_len = 8, .max_len = 400, .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "Docker registry credential (config.json auth)"},
    // Structured secrets
    {.id = "jwt", .pattern = R"(eyJ[A-Za-z0-9_\-]{8})", .extract = Extract::jwt, .chars = Chars::none, .min_len = 0,
     .max_len = 0, .severity = Severity::high, .caseless = false, .left_boundary = true,
     .description = "JSON Web Token", .match_len = 11},
    {.id = "pem-private-key", .pattern = R"(-----BEGIN[A-Z0-9 ]{0,24} PRIVATE KEY)", .extract = Extract::pem_block,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = false, .description = "PEM, OpenSSH or PGP private key"},
    {.id = "ssh2-private-key", .pattern = R"(---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----)",
     .extract = Extract::ssh2_block, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = false, .description = "RFC 4716 / ssh.com private key (PuTTYgen export)"},
    // A JSON Web Key's private members: the value's first 20 characters are
    // in the pattern, the object around it is checked (kty, its public part).
    {.id = "jwk-private-key", .pattern = R"(["'](?:d|p|q|dp|dq|qi|k)["']\s*:\s*["'][A-Za-z0-9_\-]{20})",
     .extract = Extract::jwk_member, .chars = Chars::none, .min_len = 20, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = false, .description = "JSON Web Key private key"},
    // Base64 of a DER private key without its armour (PRIVATE_KEY=MIIEv...):
    // the heads of PKCS#8's (version 0 or 1), SEC1's and PKCS#1's SEQUENCE {
    // INTEGER, ... } for each length form of the SEQUENCE (0x82 LL LL, 0x81
    // LL, LL).
    // A certificate's or a public key's SEQUENCE opens with another SEQUENCE.
    {.id = "der-private-key", .pattern = R"(MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:DA|AK|TA))", .extract = Extract::der_key,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "DER private key in base64 (PKCS#8, PKCS#1)", .match_len = 11},
    {.id = "der-private-key", .pattern = R"(MI[GH][A-Za-z0-9+/]AgE(?:AM|BB|BM))", .extract = Extract::der_key,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "DER private key in base64 (PKCS#8, SEC1)", .match_len = 9},
    {.id = "der-private-key", .pattern = R"(M[A-H][A-Za-z0-9+/]CAQ(?:Aw|EE|Ew))", .extract = Extract::der_key,
     .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high, .caseless = false,
     .left_boundary = true, .description = "DER private key in base64 (PKCS#8, SEC1)", .match_len = 8},
    // An encrypted PKCS#8 key (EncryptedPrivateKeyInfo, RFC 5958): SEQUENCE {
    // SEQUENCE { OID of PBES2 (1.2.840.113549.1.5.13), PBES1 (...1.5.x) or
    // PKCS#12's PBE (...1.12.1.x), params }, OCTET STRING }, for each length
    // form of the outer SEQUENCE; the OID sits at another base64 alignment
    // in each. Its passphrase is still needed, yet it is high as the
    // armoured "BEGIN ENCRYPTED PRIVATE KEY" is: a weak passphrase falls to
    // a dictionary, and a key has no business in a trace.
    {.id = "der-private-key",
     .pattern = R"(MII[A-Za-z0-9+/]{2}[DTjz][AB][A-Za-z0-9+/]Bg(?:kqhkiG9w0BBQ[0EMQYos]w|oqhkiG9w0BDAE[B-G]))",
     .extract = Extract::der_key, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = true, .description = "encrypted DER private key in base64 (PKCS#8)",
     .match_len = 24},
    {.id = "der-private-key",
     .pattern = R"(MI[GH][A-Za-z0-9+/]M[A-H][A-Za-z0-9+/]GC(?:SqGSIb3DQEF[A-D][DTjz]|iqGSIb3DQEMAQ))",
     .extract = Extract::der_key, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = true, .description = "encrypted DER private key in base64 (PKCS#8)",
     .match_len = 22},
    {.id = "der-private-key",
     .pattern = R"(M[E-H][A-Za-z0-9+/]w[A-Za-z0-9+/][AQgw]Y(?:JKoZIhvcNAQU[BDEGKLN]M|KKoZIhvcNAQwB[AB]))",
     .extract = Extract::der_key, .chars = Chars::none, .min_len = 0, .max_len = 0, .severity = Severity::high,
     .caseless = false, .left_boundary = true, .description = "encrypted DER private key in base64 (PKCS#8)",
     .match_len = 21},
    // Headers and assignments
    {.id = "auth-header", .pattern = R"(authorization["']?\s*[:=]\s*["']?(?:(?:bearer|token|api-token|basic|ssws)\s+)?)",
     .extract = Extract::value, .chars = Chars::token68, .min_len = 12, .max_len = 400, .severity = Severity::high,
     .caseless = true, .left_boundary = false, .description = "Authorization header value"},
    {.id = "api-key-header",
     .pattern = R"((?:x-api-key|api-key|apikey|api-token|x-[a-z]{1,20}-api-?key|private-token|x-goog-api-key|x-auth-token)["']?\s*:\s*["']?)",
     .extract = Extract::value, .chars = Chars::alnum_dash_dot, .min_len = 10, .max_len = 200,
     .severity = Severity::high, .caseless = true, .left_boundary = false,
     .description = "x-api-key style header value"},
    // A password given to a command: sshpass -p, PsExec -p, --password=,
    // PowerShell's -Password. Passwords people choose have little entropy:
    // judged by cli_password, a warning.
    {.id = "cli-password",
     .pattern = R"((?:sshpass|[Pp][Ss][Ee][Xx][Ee][Cc](?:\.[Ee][Xx][Ee])?|(?:docker|podman|nerdctl) login)\s(?:[^|;&\n]{0,300}\s)?-p[ \t]+)",
     .extract = Extract::cli_password, .chars = Chars::value, .min_len = 4, .max_len = 200,
     .severity = Severity::warning, .caseless = false, .left_boundary = false,
     .description = "password on a command line"},
    {.id = "cli-password", .pattern = R"(\s(?:--password=|--password[ \t]+|-[Pp]assword[ \t]+))",
     .extract = Extract::cli_password, .chars = Chars::value, .min_len = 4, .max_len = 200,
     .severity = Severity::warning, .caseless = false, .left_boundary = false,
     .description = "password on a command line"},
    // curl -H "Token: ..." / --header 'X-Access-Token: ...': a header a
    // command sends whose name says token carries one, whatever its name.
    {.id = "api-key-header", .pattern = R"((?:\s-H|--header)\s*["']?(?:[A-Za-z][A-Za-z\-]{0,24})?(?:token|Token|TOKEN):[ \t]*)",
     .extract = Extract::value, .chars = Chars::alnum_dash_dot, .min_len = 12, .max_len = 200,
     .severity = Severity::high, .caseless = false, .left_boundary = false,
     .description = "token header of a command"},
    {.id = "url-credentials",
     .pattern = R"([A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s/?#@:"'<>]{0,128}:[^\s/?#"'<>]{1,256}@)",
     .extract = Extract::url_userinfo, .chars = Chars::none, .min_len = 6, .max_len = 256,
     .severity = Severity::warning, .caseless = false, .left_boundary = false, .description = "password in a URL"},
    {.id = "basic-auth", .pattern = R"(curl\s(?:[^|;&]{0,400}\s)?(?:-u|--user)(?:\s+|=))",
     .extract = Extract::shell_user, .chars = Chars::none, .min_len = 6, .max_len = 256,
     .severity = Severity::warning, .caseless = false, .left_boundary = false,
     .description = "curl -u user:password"},
    // Assignments in the usual syntaxes: k = v, k: v, "k": "v", k := v,
    // var k string = "v", $k .= "v", "k" => "v", k ?= v, k == "v",
    // setProperty("k", "v"), secret("v"), <k>v</k>, password "v". The name
    // and the value are judged after the match (value_after).
    {.id = "generic-secret",
     .pattern = R"((?:api[_\-]?key|secret|token|passw(?:or)?d|passphrase|pwd|credential|creds|cred(?:_|\b)|pw(?:_|\b)|private[_\-]?key|(?:account|storage|access)[_\-]?key|auth|pass(?:_|\b))[A-Za-z0-9_\-.]{0,24}["'`]?(?:\[\d{0,4}\])?(?:\s+(?:string|str|String|char\s*\*))?(?:\s*(?:[:?.+!]?=|::=|:::=|===?|!==?|=>|:|,|>|\()\s*|\s+@?["'`]))",
     .extract = Extract::value, .chars = Chars::value, .min_len = 12, .max_len = 200, .severity = Severity::warning,
     .caseless = true, .left_boundary = false,
     .description = "key/token/secret/password assignment with a random value"},
    // A name that ends in the word key ("ticketmaster_key", "box-key",
    // "config.facebook.key", "zerobounceKEY", "mailjetKey"): case-sensitive,
    // so that the word is a word of the name; secret_name decides which
    // keys are credentials (not a cache's, a table's or a public one).
    {.id = "generic-secret",
     .pattern = R"((?:[A-Za-z0-9][_\-.](?:key|Key|KEY)|[a-z0-9](?:Key|KEY))["'`]?(?:\[\d{0,4}\])?(?:\s+(?:string|str|String|char\s*\*))?(?:\s*(?:[:?.+!]?=|::=|:::=|===?|!==?|=>|:|,|>|\()\s*|\s+@?["'`]))",
     .extract = Extract::value, .chars = Chars::value, .min_len = 12, .max_len = 200, .severity = Severity::warning,
     .caseless = false, .left_boundary = false,
     .description = "key/token/secret/password assignment with a random value"},
    // "pat" (personal access token) as a word of its own: ado_pat = "...",
    // GH_PAT=...; apart from the rule above so that "path" and "pattern"
    // never reach it.
    {.id = "generic-secret",
     .pattern = R"((?:[_\-]|\b)pat(?:[_\-.][A-Za-z0-9_\-.]{0,20})?["'`]?(?:\s*(?:[:?.+!]?=|:=|=>|:)\s*|\s+@?["'`]))",
     .extract = Extract::value, .chars = Chars::value, .min_len = 12, .max_len = 200, .severity = Severity::warning,
     .caseless = true, .left_boundary = false,
     .description = "key/token/secret/password assignment with a random value"},
    // A password a person chose, quoted after a name ending in password:
    // shorter and plainer than the generic rule asks of random values.
    {.id = "password-assignment",
     .pattern = R"((?:passw(?:or)?d|pwd)["'`]?\s*(?::=|=>|===?|[:=])\s*["'`])",
     .extract = Extract::value, .chars = Chars::value, .min_len = 8, .max_len = 64, .severity = Severity::warning,
     .caseless = true, .left_boundary = false, .description = "password assignment"},
    // The same in an XML element (Maven's settings.xml, FileZilla's
    // <Pass>, Tomcat's and .NET's configs): <password>v</password>.
    {.id = "password-assignment", .pattern = R"(<(?:passw(?:or)?d|pwd|passphrase|pass)>)", .extract = Extract::value,
     .chars = Chars::value, .min_len = 8, .max_len = 64, .severity = Severity::warning, .caseless = true,
     .left_boundary = false, .description = "password assignment"},
    // A credential word, spaces, then a token ("client secret <v>",
    // "weatherbitSECRET <v>", "boxKEY <v>", "nimble key <v>", "pandadoc
    // PRIVATE <v>", "scrapeowl ACCESS <v>"; key only after a word that says
    // whose: "KEY <v>" alone is the tests' way to write any token; not
    // "password <v>", which .netrc writes and netrc-password judges):
    // the value's first 16 characters are part of the pattern so that
    // prose ("the token is") never becomes a candidate. Judged by
    // keyword_value: random, token-shaped, whole; a warning.
    {.id = "generic-secret",
     .pattern = R"((?:secret|token|[a-z0-9][ _\-]?key|credentials?|access|private)[ \t]+(?:(?:key|token|secret|access|private|code)[ \t]+)?[A-Za-z0-9][A-Za-z0-9+/_\-=.]{15})",
     .extract = Extract::near_keyword, .chars = Chars::none, .min_len = 16, .max_len = 128,
     .severity = Severity::warning, .caseless = true, .left_boundary = false,
     .description = "token-shaped value after a credential word"},
    // A credential phrase of two words, then ':' or '=' ("API Key: <v>",
    // "Secret key = <v>", "auth token: <v>"), as dashboards, CLIs and
    // notes print a key; a name without a space is the assignment rules'.
    // Judged by keyword_value, as above.
    {.id = "generic-secret",
     .pattern = R"((?:[a-z0-9][ \t]key|(?:secret|token|access|private|auth|client|api)[ \t]+(?:token|secret))[ \t]*[:=][ \t]*[A-Za-z0-9][A-Za-z0-9+/_\-=.]{15})",
     .extract = Extract::near_keyword, .chars = Chars::none, .min_len = 16, .max_len = 128,
     .severity = Severity::warning, .caseless = true, .left_boundary = false,
     .description = "token-shaped value after a credential word"},
    // The value first: if ("v" == password).
    {.id = "generic-secret",
     .pattern = R"(["'`]\s*(?:===?|!==?)\s*[A-Za-z_]{0,24}(?:api[_\-]?key|secret|token|passw(?:or)?d|passphrase|pwd|credential|private[_\-]?key))",
     .extract = Extract::value_before, .chars = Chars::value, .min_len = 12, .max_len = 200,
     .severity = Severity::warning, .caseless = true, .left_boundary = false,
     .description = "key/token/secret/password compared with a random value"},
};

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// GitHub's checksum: CRC32 of the 30 random characters, base62, 6 digits.
bool github_checksum_ok(std::string_view token) {
  static constexpr char kB62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  if (token.size() != 40) return false;
  std::string_view body = token.substr(4, 30);
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  char out[7] = "000000";
  for (int i = 5; i >= 0 && crc; --i) {
    out[i] = kB62[crc % 62];
    crc /= 62;
  }
  return token.substr(34) == out;
}

// PyPI's tokens are macaroons (libmacaroons' v2 binary form, base64url):
// whatever their caveats, a whole one ends with its signature field, type
// 6 and length 32. One that does not was cut short or made up.
bool whole_macaroon(std::string_view b64url) {
  std::string bytes(b64url.size(), '\0');
  size_t n = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), b64url.data(), b64url.size(),
                        nullptr, &n, nullptr, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0) {
    return false;
  }
  constexpr size_t kSignatureField = 2 + 32;
  return n > kSignatureField && bytes[0] == 0x02 && bytes[n - kSignatureField] == 0x06 &&
         bytes[n - kSignatureField + 1] == 0x20;
}

// BIP 173 bech32 checksum (age keys: "AGE-SECRET-KEY-1" + data + 6 checksum
// characters, case-insensitive).
bool bech32_checksum_ok(std::string_view key) {
  static constexpr std::string_view kCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
  const size_t sep = key.rfind('1');
  if (sep == std::string_view::npos || sep == 0) return false;
  uint32_t chk = 1;
  auto step = [&chk](uint32_t v) {
    static constexpr uint32_t kGen[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
    const uint32_t top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (int i = 0; i < 5; ++i) chk ^= ((top >> i) & 1) ? kGen[i] : 0;
  };
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  for (size_t i = 0; i < sep; ++i) step(static_cast<uint32_t>(static_cast<unsigned char>(lower(key[i]))) >> 5);
  step(0);
  for (size_t i = 0; i < sep; ++i) step(static_cast<uint32_t>(static_cast<unsigned char>(lower(key[i]))) & 31);
  for (size_t i = sep + 1; i < key.size(); ++i) {
    const size_t v = kCharset.find(lower(key[i]));
    if (v == std::string_view::npos) return false;
    step(static_cast<uint32_t>(v));
  }
  return chk == 1;
}

// Bitbucket's app passwords end with the CRC32 of the 28 characters before
// (ATBB and 24 random ones) in 8 upper-case hex digits, as Atlassian's
// tokens do.
bool atlassian_checksum_ok(std::string_view token) {
  if (token.size() != 36) return false;
  const std::string_view body = token.substr(0, 28);
  const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08lX", static_cast<unsigned long>(crc));
  return token.substr(28) == hex;
}

// A session token given as a presigned URL's X-Amz-Security-Token: the URL
// grants what its signature covers, and the token signs nothing without
// its secret access key.
bool session_token_of_url(std::string_view text, size_t start) {
  constexpr std::string_view kParam = "security-token=";
  if (start < kParam.size()) return false;
  return strncasecmp(text.data() + start - kParam.size(), kParam.data(), kParam.size()) == 0;
}

std::string_view lowercase(std::string_view v, std::string* buf) {
  buf->assign(v);
  for (char& c : *buf) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return *buf;
}

bool contains_nocase(std::string_view hay, std::string_view lower_needle) {
  thread_local std::string buf;
  return lowercase(hay, &buf).find(lower_needle) != std::string_view::npos;
}

// "__ACCESS_TOKEN__", "@@API_KEY@@", "##TOKEN##": a name between two pairs
// of the same symbol, the markers recorded HTTP cassettes and templating
// put where a scrubbed or substituted value goes.
bool wrapped_name(std::string_view v) {
  if (v.size() < 5) return false;
  for (std::string_view mark : {"__", "@@", "##"}) {
    if (!v.starts_with(mark) || !v.ends_with(mark)) continue;
    const std::string_view name = v.substr(2, v.size() - 4);
    const bool word = std::ranges::all_of(name, [](char c) { return is_alnum(c) || c == '_' || c == '-' || c == '.'; });
    const bool letter = std::ranges::any_of(name, [](char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; });
    return word && letter;
  }
  return false;
}

// "prefix_{}", "user-{0}": a format string's replacement field, empty or
// numbered (Python's str.format, C#'s String.Format, Rust's format!,
// SLF4J), where the value is filled in at run time.
bool format_field(std::string_view v) {
  for (size_t open = v.find('{'); open != std::string_view::npos; open = v.find('{', open + 1)) {
    size_t i = open + 1;
    while (i < v.size() && i - open <= 2 && v[i] >= '0' && v[i] <= '9') ++i;
    if (i < v.size() && v[i] == '}') return true;
  }
  return false;
}

// A value that is obviously not a real secret: a template, a reference to
// one, a redaction marker, a word that names the secret instead of being it.
bool placeholder(std::string_view v) {
  if (v.empty()) return true;
  // $VAR, %VAR%, {name}, <name>, [NAME]: references, not values.
  if (v.front() == '$' || v.front() == '%' || (v.front() == '{' && v.back() == '}') ||
      (v.front() == '<' && v.back() == '>') || (v.front() == '[' && v.back() == ']')) {
    return true;
  }
  if (wrapped_name(v) || format_field(v)) return true;
  thread_local std::string buf;
  const std::string_view low = lowercase(v, &buf);
  static constexpr std::string_view kParts[] = {
      "redacted", "xxxx", "****", "...", "%s", "example", "changeme", "change_me",
      "placeholder", "your_", "your-", "yourpass", "dummy", "process.env", "os.environ", "getenv", "password",
      "passwd", "fake", "sample", "insert_", "replace_", "todo"};
  for (auto n : kParts) {
    if (low.find(n) != std::string_view::npos) return true;
  }
  static constexpr std::string_view kWhole[] = {"none", "null", "nil", "undefined", "true", "false", "secret",
                                                "token", "pass", "test", "admin", "string", "empty"};
  for (auto n : kWhole) {
    if (low == n) return true;
  }
  return false;
}

// Two counts interleaved over 12 characters ("a1b2c3d4e5f6", "a1B2c3D4e5F6"):
// typed, not drawn.
bool interleaved_count(std::string_view v) {
  auto lower = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  size_t run = 0;
  for (size_t i = 2; i < v.size(); ++i) {
    run = is_alnum(v[i]) && lower(v[i]) == lower(v[i - 2]) + 1 ? run + 1 : 0;
    if (run >= 10) return true;
  }
  return false;
}

// A published sample or a filler: "EXAMPLE" in it (AWS's documented
// AKIAIOSFODNN7EXAMPLE), or the same character 8 times in a row
// (ghp_xxxx..., sk_live_AAAA...), which random tokens never have.
// A provider token's random part spelled in words, a placeholder:
// "xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere", "...YourApiKeyHere".
// Four capitalized words of four letters or more in a row come out of
// random base62 about once in a million positions. (Only for tokens: a
// password of words, "CorrectHorseBatteryStaple", is a password.)
bool spelled_in_words(std::string_view t) {
  if (t.ends_with("Here") || t.ends_with("HERE") || t.ends_with("_here")) return true;
  size_t words = 0, letters = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    const char c = i < t.size() ? t[i] : '\0';
    if (c >= 'a' && c <= 'z' && letters > 0) {
      ++letters;
      continue;
    }
    words = letters >= 4 ? words + 1 : 0;
    if (words >= 4) return true;
    letters = c >= 'A' && c <= 'Z' ? 1 : 0;
    if (letters == 0) words = 0;
  }
  return false;
}

bool filler_token(std::string_view t) {
  for (std::string_view f : {"EXAMPLE", "example", "xxxxx", "XXXXX"}) {
    if (t.find(f) != std::string_view::npos) return true;
  }
  if (t.find("abcdefgh") != std::string_view::npos || t.find("ABCDEFGH") != std::string_view::npos) return true;
  if (interleaved_count(t)) return true;
  size_t run = 1;
  for (size_t i = 1; i < t.size(); ++i) {
    run = t[i] == t[i - 1] ? run + 1 : 1;
    if (run >= 12) return true;
  }
  return false;
}

// Checks a provider's documented layout beyond its pattern.
bool layout_ok(std::string_view id, std::string_view token) {
  // sk-ant-api03-<93>AA, sk-ant-admin01-<93>AA
  if (id == "anthropic-key") return token.size() == 108 && token.ends_with("AA");
  if (id == "anthropic-admin-key") return token.size() == 110 && token.ends_with("AA");
  // Every OpenAI key holds "T3BlbkFJ", base64 of "OpenAI".
  if (id == "openai-key") return token.find("T3BlbkFJ") != std::string_view::npos;
  if (id.starts_with("slack-")) return !token.ends_with('-');
  // /api/webhooks/<id>/<token>: the token after the id, 60 or more.
  if (id == "discord-webhook") {
    const size_t slash = token.find('/', token.find("webhooks/") + 9);
    if (slash == std::string_view::npos) return false;
    const std::string_view secret = token.substr(slash + 1, token.find('/', slash + 1) - slash - 1);  // then /slack, /github
    return secret.size() >= 60 && std::ranges::all_of(secret, [](char c) { return is_alnum(c) || c == '-' || c == '_'; });
  }
  // live_<user id>_<30 letters and digits>
  if (id == "twitch-stream-key") {
    const size_t cut = token.rfind('_');
    return cut != std::string_view::npos && token.size() - cut - 1 == 30 &&
           token.substr(5, cut - 5).find_first_not_of("0123456789") == std::string_view::npos &&
           std::ranges::all_of(token.substr(cut + 1), is_alnum);
  }
  // Azure DevOps' annotated PATs (AZDO at 76) have their own rule.
  if (id == "azure-annotated-key") return token.substr(76, 4) != "AZDO";
  // A server key's head is the project number in base64 (AAAA...); any
  // other head is a device's instance id: a registration token, no key.
  if (id == "firebase-fcm-server-key") return token.starts_with("AAAA");
  // 32 random letters and digits hold both cases and a digit; a hex
  // digest ("ico-<md5>.png") is a file's name.
  if (id == "infracost-key") {
    const std::string_view random = token.substr(4);
    return std::ranges::any_of(random, [](char c) { return c >= 'a' && c <= 'z'; }) &&
           std::ranges::any_of(random, [](char c) { return c >= 'A' && c <= 'Z'; }) &&
           std::ranges::any_of(random, [](char c) { return c >= '0' && c <= '9'; });
  }
  return true;
}

// "ACCAGTTCGATGCAAGTCGA": a DNA sequence (a guide, a primer, a read), not
// the 16 random base32 characters of an AWS key id, which all fall in
// {A,C,G,T} about once in 10^15 ids.
bool nucleotides(std::string_view v) { return v.find_first_not_of("ACGT") == std::string_view::npos; }

bool weak_head(const Rule& rule) { return rule.pattern.starts_with("EAAA") || rule.pattern.ends_with("NRAL"); }

// A time-based (version 1) UUID is an identifier: random tokens are v4.
bool time_uuid(std::string_view v) {
  return v.size() == 36 && v[8] == '-' && v[13] == '-' && v[18] == '-' && v[23] == '-' && v[14] == '1';
}

constexpr std::string_view kHex = "0123456789abcdefABCDEF";

bool hex_of(std::string_view v, size_t n) { return v.size() == n && v.find_first_not_of(kHex) == std::string_view::npos; }

bool uuid_shape(std::string_view v) {
  if (v.size() != 36) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? v[i] != '-' : kHex.find(v[i]) == std::string_view::npos) return false;
  }
  return true;
}

// Classes of characters present (lower, upper, digit, other).
int char_classes(std::string_view v) {
  bool l = false, u = false, d = false, o = false;
  for (char c : v) {
    if (c >= 'a' && c <= 'z') l = true;
    else if (c >= 'A' && c <= 'Z') u = true;
    else if (c >= '0' && c <= '9') d = true;
    else o = true;
  }
  return l + u + d + o;
}

bool in_chars(Chars set, char c) {
  const bool alnum = is_alnum(c);
  switch (set) {
    case Chars::none: return false;
    case Chars::alnum: return alnum;
    case Chars::alnum_dash: return alnum || c == '-' || c == '_';
    case Chars::alnum_dash_dot: return alnum || c == '-' || c == '_' || c == '.';
    case Chars::b64: return alnum || c == '+' || c == '/';
    case Chars::pct_b64: return alnum || c == '%' || c == '+' || c == '/' || c == '=';
    case Chars::token68: return alnum || c == '-' || c == '_' || c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
    case Chars::url_path: return alnum || c == '-' || c == '_' || c == '.' || c == '~' || c == '/' || c == '@' || c == '%';
    case Chars::value:
      return static_cast<unsigned char>(c) > 0x20 && c != '"' && c != '\'' && c != '\\' && c != ',' && c != ';' &&
             c != '<' && c != '>' && c != '{' && c != '}' && c != '(' && c != ')' && c != '[' && c != ']' && c != 0x7f;
  }
  return false;
}

// Grows [from, ...) over the rule's characters, up to its max length
// counted from `start`.
size_t grow(std::string_view text, size_t start, size_t from, const Rule& rule) {
  size_t end = from;
  const size_t limit = rule.max_len ? std::min(text.size(), start + rule.max_len) : text.size();
  while (end < limit && in_chars(rule.chars, text[end])) ++end;
  return end;
}

bool name_char(char c) { return is_alnum(c) || c == '_' || c == '-' || c == '.'; }

// How far back an operator and its spacing are looked for from a value: an
// aligned config's gap is a few dozen spaces; a run of a million is no
// assignment, and reading it back from every candidate in it is quadratic.
constexpr size_t kMaxOperatorGap = 256;

// The name assigned to in `k = v`, `"k": "v"`, `var k string = "v"`,
// `setProperty("k", "v")`, `<k>v`: the identifier before the operator.
std::string_view assigned_name(std::string_view text, size_t value_start) {
  size_t i = value_start;
  auto skip_operator = [&] {
    while (i > 0 && value_start - i < kMaxOperatorGap &&
           std::string_view(" \t\r\n\"'`[]:=?.+!>,*(").find(text[i - 1]) != std::string_view::npos) {
      --i;
    }
  };
  auto read_word = [&] {
    const size_t end = i;
    while (i > 0 && end - i < 64 && name_char(text[i - 1])) --i;
    return text.substr(i, end - i);
  };
  skip_operator();
  std::string_view name = read_word();
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos && i > 0 && text[i - 1] == '[') {
    --i;  // char secret[25] = "..."
    name = read_word();
  }
  if (i > 0 && text[i - 1] == '/') return {};  // ".../token": a path, not a name
  for (std::string_view type : {"string", "str", "String", "char"}) {
    if (name == type && i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) {
      while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
      return read_word();
    }
  }
  return name;
}

// The providers whose keys provider_value knows by their shape.
constexpr std::string_view kShapedProviders[] = {"heroku", "twilio",  "twitch",  "mailgun", "okta",     "openai",
                                                 "cognitive", "cosmos", "datadog", "algolia", "pagerduty"};

// "ticketmaster_key", "config.facebook.key", "mailjetKey", "boxKEY": a name
// whose last word is key, after a word that makes it a provider's or an
// application's key. Not a key of data (a cache's, a table's, a map's, a
// lock's, a message's), a public one (a site key, a publishable or anon
// key, a host's) or an identifier (a GPG or SSH key's).
bool ends_in_key_word(std::string_view name) {
  if (name.size() < 5) return false;
  const std::string_view head = name.substr(0, name.size() - 3), tail = name.substr(name.size() - 3);
  const char before = head.back();
  const bool lower_before = (before >= 'a' && before <= 'z') || (before >= '0' && before <= '9');
  const bool word = tail == "key" ? (before == '_' || before == '-' || before == '.')
                                  : tail == "Key" ? lower_before || before == '_' || before == '-' || before == '.'
                                  : tail == "KEY" && (lower_before || before == '_' || before == '-' || before == '.');
  if (!word) return false;
  thread_local std::string buf;
  const std::string_view low = lowercase(head, &buf);
  // Anywhere in the name: a public, an SSH or GPG key, a cache's.
  static constexpr std::string_view kAnywhere[] = {"public", "publish", "gpg", "pgp", "ssh", "cache", "idempot",
                                                   "dedup", "partition", "i18n", "transl"};
  for (auto w : kAnywhere) {
    if (low.find(w) != std::string_view::npos) return false;
  }
  // The word just before key ("s3BucketKey": bucket, not "bitbucket_key").
  size_t word_end = head.size();
  while (word_end > 0 && !is_alnum(head[word_end - 1])) --word_end;
  size_t word_start = word_end;
  while (word_start > 0 && is_alnum(head[word_start - 1])) {
    --word_start;
    const char c = head[word_start], prev = word_start > 0 ? head[word_start - 1] : ' ';
    if (c >= 'A' && c <= 'Z' && ((prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9'))) break;  // camelCase
  }
  const std::string_view last_word = low.substr(word_start, word_end - word_start);
  static constexpr std::string_view kDataKeys[] = {
      "primary", "foreign", "sort", "routing", "object", "lock", "row", "map", "lookup", "index", "group", "shard",
      "unique", "composite", "hot", "short", "site", "anon", "pub", "host", "message", "msg", "label", "bucket",
      "s3", "query", "dict", "hash", "react", "list", "item", "node", "entry", "state", "store", "event", "column",
      "table", "redis", "memo", "prop", "local", "session", "storage", "press", "keyboard", "shortcut", "field",
      "sign", "range", "sequence", "parent", "child", "natural", "surrogate", "cluster", "dest",
      "source", "src", "result", "output", "input", "data", "config", "setting", "env", "i18n"};
  if (std::ranges::find(kDataKeys, last_word) != std::end(kDataKeys)) return false;
  // HEROKU_KEY, TWILIO_KEY: keys of the providers provider-key knows are
  // found only in their provider's shape.
  for (auto p : kShapedProviders) {
    if (low.find(p) != std::string_view::npos) return false;
  }
  return true;
}

// Whether a name says its value is a credential: it holds a keyword as a
// word of its own (not "author", "tokenizer"), and no word that makes the
// value something about the credential (its URL, type, length, file...).
bool names_a_credential(std::string_view name, bool key_word);
bool secret_name(std::string_view name) { return names_a_credential(name, true); }

// A name whose only sign is its last word, key: said by the generic rule's
// older words (secret, token, api_key...) or not.
bool key_word_only(std::string_view name) { return !names_a_credential(name, false); }

bool names_a_credential(std::string_view name, bool key_word) {
  // "--- PASS: TestLogin (0.01s)": go test's (and TAP's) status of a test,
  // not a password; one in capitals has more to its name (DB_PASS).
  if (name == "PASS") return false;
  std::string n(name);
  for (char& c : n) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (size_t p = n.find("author"); p != std::string::npos; p = n.find("author", p + 1)) {
    if (n.compare(p, 8, "authoriz") != 0) n.replace(p, 6, "######");
  }
  std::string about = n;  // "account" is not a count
  for (size_t p = about.find("account"); p != std::string::npos; p = about.find("account", p + 1)) {
    about.replace(p + 2, 5, "kount");
  }
  static constexpr std::string_view kAbout[] = {
      "url", "uri", "endpoint", "path", "file", "type", "name", "length", "size", "count", "ttl", "expir",
      "format", "field", "param", "prompt", "limit", "budget", "usage", "tokeniz", "header", "policy", "rotation",
      "version", "_id", "-id", ".id", "hash", "digest", "salt", "public", "csrf"};
  for (auto w : kAbout) {
    if (about.find(w) != std::string::npos) return false;
  }
  if (n.ends_with("id") || n.ends_with("ids")) return false;  // credentialsId: names a stored credential
  if (key_word && ends_in_key_word(name)) return true;
  for (std::string_view k : {"api_key", "api-key", "apikey", "secret", "token", "password", "passwd", "pwd",
                             "passphrase", "cred", "auth", "private_key", "private-key", "privatekey", "accountkey",
                             "account_key", "account-key", "storagekey", "storage_key", "storage-key", "accesskey",
                             "access_key", "access-key"}) {
    if (n.find(k) != std::string::npos) return true;
  }
  // "pass" as a word of its own (db_pass), not compass or passthrough.
  for (size_t p = n.find("pass"); p != std::string::npos; p = n.find("pass", p + 1)) {
    if (p + 4 == n.size() || !(n[p + 4] >= 'a' && n[p + 4] <= 'z')) return true;
  }
  // "pat", a personal access token, as a word of its own (ado_pat, GH_PAT),
  // not path, pattern or spatial.
  auto letter = [](char c) { return c >= 'a' && c <= 'z'; };
  // "pw", password's usual short form, as a word of its own (pw, db_pw,
  // adminPw), not in a word (npwr, pwm).
  for (size_t p = n.find("pw"); p != std::string::npos; p = n.find("pw", p + 1)) {
    const bool starts_word = p == 0 || !letter(n[p - 1]) || (name[p] == 'P' && name[p - 1] >= 'a' && name[p - 1] <= 'z');
    if (starts_word && (p + 2 == n.size() || !letter(n[p + 2]))) return true;
  }
  for (size_t p = n.find("pat"); p != std::string::npos; p = n.find("pat", p + 1)) {
    if ((p == 0 || !letter(n[p - 1])) && (p + 3 == n.size() || !letter(n[p + 3]))) return true;
  }
  return false;
}

// The name of a function or macro: System.fetch_env!, present?, env!
// (Elixir and Ruby end a name in ! or ?, Rust's macros in !).
bool callee(std::string_view name) {
  if (name.ends_with('!') || name.ends_with('?')) name.remove_suffix(1);
  return !name.empty() &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$") == std::string_view::npos;
}

// A value that is code, not data: obj.api_key, config.secret,
// std::string_view, self->token, f(...), encode(x).length.
bool code_expression(std::string_view text, std::string_view value, size_t value_end) {
  if (value_end < text.size() && text[value_end] == '(') return true;
  // A path going on past the value's characters: Ruby's and C++'s
  // ActionController::HttpAuthentication::Basic.encode_credentials(...).
  if (text.substr(value_end, 2) == "::" && !value.empty() && !(value.front() >= '0' && value.front() <= '9')) {
    return true;
  }
  // A call: encode(chat.prompt).length, os.getenv("KEY").
  const size_t call = value.find('(');
  if (call != std::string_view::npos && call > 0 && !(value.front() >= '0' && value.front() <= '9') &&
      callee(value.substr(0, call))) {
    return true;
  }
  if (value.find_first_of(".:>") == std::string_view::npos) return false;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (is_alnum(c) || c == '_' || c == '.') continue;
    if (c == ':' && i + 1 < value.size() && value[i + 1] == ':') ++i;
    else if (c == '-' && i + 1 < value.size() && value[i + 1] == '>') ++i;
    else if (c == '?' && i + 1 < value.size() && value[i + 1] == '.') ++i;  // usage?.total_tokens
    else if (c == '#' && i > 0 && value[i - 1] == '.') continue;            // this.#options
    else return false;
  }
  return !(value.front() >= '0' && value.front() <= '9');
}

bool is_quote(char c) { return c == '"' || c == '\'' || c == '`'; }

// A counting filler: 7 characters in a row that count up ("abcdefg",
// "1234567") or two interleaved counts ("a1b2c3d4"). Random values of a
// generic assignment do not; fixtures do.
bool counting_run(std::string_view v) {
  auto counts = [&v](size_t step) {
    size_t run = 0;
    for (size_t i = step; i < v.size(); ++i) {
      run = is_alnum(v[i]) && v[i] == v[i - step] + 1 ? run + 1 : 0;
      if (run >= 6) return true;
    }
    return false;
  };
  return counts(1) || counts(2);
}

// "12345", "0000000": a number typed as a stand-in, counting up or one digit
// repeated ("gw_valid_api_key_12345" in a test), not drawn at random.
bool typed_number(std::string_view digits) {
  if (digits.size() < 5) return false;
  bool up = true, same = true;
  for (size_t i = 1; i < digits.size(); ++i) {
    up = up && (digits[i] == digits[i - 1] + 1 || (digits[i - 1] == '9' && digits[i] == '0'));
    same = same && digits[i] == digits[i - 1];
  }
  return up || same;
}

// Five digits typed counting up or repeated (12345, 00000) anywhere in a value.
bool typed_number_in(std::string_view v) {
  size_t up = 0, same = 0;  // digits so far in a counting / repeating run
  for (size_t i = 0; i < v.size(); ++i) {
    const bool digit = v[i] >= '0' && v[i] <= '9';
    const bool prev = i > 0 && v[i - 1] >= '0' && v[i - 1] <= '9';
    up = !digit ? 0 : prev && v[i] == v[i - 1] + 1 ? up + 1 : 1;
    same = !digit ? 0 : prev && v[i] == v[i - 1] ? same + 1 : 1;
    if (up >= 5 || same >= 5) return true;
  }
  return false;
}

// "original_repo_path", "test-only-secret-base-minimum-64-bytes": lower-case
// words joined by '-', '_' or '.', an identifier or a phrase a person wrote,
// not a random value (honest logs are full of them next to words like
// "auth"). A phrase may hold a short number as a word of its own (a size,
// a year), never letters and digits mixed in one word as random values do.
bool joined_words(std::string_view v) {
  size_t words = 0, numbers = 0, letters = 0, digits = 0;
  auto end_word = [&](size_t at) {
    if (letters >= 2 && digits == 0) ++words;
    else if (letters == 0 && ((digits >= 1 && digits <= 4) || typed_number(v.substr(at - digits, digits)))) ++numbers;
    else if (letters != 1 || digits != 0) return false;  // "a" in "not-a-real-key"
    letters = digits = 0;
    return true;
  };
  for (size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c >= 'a' && c <= 'z') {
      ++letters;
    } else if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '-' || c == '_' || c == '.') {
      if (!end_word(i)) return false;
    } else {
      return false;
    }
  }
  return end_word(v.size()) && words >= 2 && words > numbers;
}

// "ANTHROPIC_API_KEY", "OPEN_AI_API_KEY_2": a constant's or an environment
// variable's name, upper-case words joined by '_', names a key (in prose,
// a compose file, a README) and is not one.
bool constant_name(std::string_view v) {
  size_t words = 0, letters = 0, digits = 0;
  for (size_t i = 0; i <= v.size(); ++i) {
    const char c = i < v.size() ? v[i] : '_';
    if (c >= 'A' && c <= 'Z' && digits == 0) {
      ++letters;
    } else if (c >= '0' && c <= '9' && letters == 0) {
      ++digits;
    } else if (c == '_') {
      if (letters >= 2) ++words;
      else if (digits == 0 || digits > 4) return false;
      letters = digits = 0;
    } else {
      return false;
    }
  }
  return words >= 2;
}

// AWS SigV4's scheme and credential scope ("AWS4-HMAC-SHA256 Credential=
// AKIA.../20250101/us-east-1/s3/aws4_request"): the signature is made per
// request and the key id has a rule of its own.
bool sigv4_part(std::string_view v) { return v.starts_with("AWS4-HMAC-SHA256") || v.ends_with("/aws4_request"); }

// "node scripts/check-secrets.js": a command, lower-case words with a path
// among them. (A phrase without a path may be a passphrase.)
bool lower_case_command(std::string_view v) {
  if (v.find(' ') == std::string_view::npos || v.find('/') == std::string_view::npos) return false;
  return std::ranges::all_of(v, [](char c) { return (c >= 'a' && c <= 'z') || std::string_view(" -_./").find(c) != std::string_view::npos; });
}

// "rejectUnauthorizedDefault": a camelCase identifier, each capital opening
// a word of lower-case letters. Bare, it names a variable; random letters
// put capitals side by side or at word ends.
bool camel_case_identifier(std::string_view v) {
  if (v.empty() || !(v.front() >= 'a' && v.front() <= 'z')) return false;
  size_t word = 0, capitals = 0;
  for (const char c : v) {
    if (c >= 'a' && c <= 'z') {
      ++word;
    } else if (c >= 'A' && c <= 'Z') {
      if (word < 2) return false;
      ++capitals;
      word = 0;
    } else {
      return false;
    }
  }
  return capitals >= 1 && word >= 2;
}

// "DatadogAPIKey", "PostHogAPIKey", "DefaultSecretToken": an exported Go
// name (a C# or Java constant too) in PascalCase, written unquoted where a
// struct literal or an options object sets a key from a constant, or a
// placeholder ("YourApiKeyHere"). Its words are capitalised syllables,
// maybe an acronym of up to five capitals; random letters leave lone
// lower-case ones or runs without a vowel.
bool pascal_case_identifier(std::string_view v) {
  while (!v.empty() && std::string_view("):,;]}").find(v.back()) != std::string_view::npos) v.remove_suffix(1);
  if (v.size() < 6 || !(v.front() >= 'A' && v.front() <= 'Z')) return false;
  const auto vowel = [](char c) { return std::string_view("aeiouy").find(c) != std::string_view::npos; };
  size_t words = 0, lower = 0, run = 0, capitals = 0, unvoiced = 0;
  bool voiced = false;
  for (size_t i = 0; i <= v.size(); ++i) {
    const char c = i < v.size() ? v[i] : 'A';
    if (c >= 'a' && c <= 'z') {
      ++run, ++lower;
      voiced = voiced || vowel(c);
      capitals = 0;
      continue;
    }
    if (run > 0) {
      // One abbreviation without a vowel is code's way ("ProcessEnvKey").
      if (run < 2 || (!voiced && ++unvoiced > 1)) return false;
      ++words;
      run = 0;
      voiced = false;
    }
    if (c < 'A' || c > 'Z' || ++capitals > 5) return false;
  }
  return words >= 2 && lower * 2 >= v.size();
}

// "OAuthTokens):", "RealtimeFactoryV4GetTokenOptions)", "LoadAPIKeyError":
// a type or class named in code (a TypeScript annotation, a parameter),
// with the punctuation after it. Its lower-case letters come in runs of
// words and make most of it; random letters leave lone lower-case ones.
bool type_name(std::string_view v) {
  while (!v.empty() && std::string_view("):,;]").find(v.back()) != std::string_view::npos) v.remove_suffix(1);
  if (v.size() < 6 || !(v.front() >= 'A' && v.front() <= 'Z')) return false;
  size_t lower = 0, digits = 0, run = 0;
  for (size_t i = 0; i <= v.size(); ++i) {
    const char c = i < v.size() ? v[i] : 'A';
    if (c >= 'a' && c <= 'z') {
      ++lower, ++run;
      continue;
    }
    if (run == 1) return false;
    run = 0;
    if (c >= '0' && c <= '9') ++digits;
    else if (!(c >= 'A' && c <= 'Z')) return false;
  }
  return digits <= 2 && lower * 5 >= v.size() * 3;
}

// "sp=r&st=2025-03-04&sv=2022-11-02": parameters of a URL, whose secret
// part (a signature, a token) has a rule of its own.
bool query_string(std::string_view v) {
  const size_t amp = v.find('&');
  if (amp == std::string_view::npos) return false;
  auto param = [&v](size_t from) {
    size_t i = from;
    while (i < v.size() && (is_alnum(v[i]) || v[i] == '_')) ++i;
    return i > from && i < v.size() && v[i] == '=';
  };
  return param(0) && param(amp + 1);
}

// "/docs/v3/auth/choosing", "./config/keys": a path of lower-case words
// (a page, a file) is where something is, not a secret.
// "src/auth/session_token.ts": a relative path ending in a file's
// extension is named the same way.
bool lower_case_path(std::string_view v) {
  const size_t dot = v.rfind('.');
  const bool file = v.find('/') != std::string_view::npos && dot != std::string_view::npos && v.size() - dot >= 2 &&
                    v.size() - dot <= 6 && std::ranges::all_of(v.substr(dot + 1), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!(v.starts_with("/") || v.starts_with("./") || v.starts_with("~/") || file)) return false;
  return std::ranges::all_of(v, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || std::string_view("/._-~").find(c) != std::string_view::npos;
  });
}

// "4f2a9c.tenant.example.com": a host name (lower-case labels, a top-level
// domain of letters) names where a key is used, it is not the key.
bool host_name(std::string_view v) {
  const size_t dot = v.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || v.size() - dot - 1 < 2 || v.size() - dot - 1 > 6) return false;
  const std::string_view tld = v.substr(dot + 1);
  if (!std::ranges::all_of(tld, [](char c) { return c >= 'a' && c <= 'z'; })) return false;
  if (!std::ranges::all_of(v, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'; })) {
    return false;
  }
  static constexpr std::string_view kTlds[] = {"com", "net", "org", "io", "dev", "app", "co", "ai", "cloud", "info",
                                               "biz", "us", "uk", "de", "fr", "jp", "cn", "ru", "in", "eu", "me", "tech",
                                               "local", "internal", "site", "online"};
  return std::ranges::find(kTlds, tld) != std::end(kTlds);
}

// The literal heads of the token rules (4+ characters, e.g. "dckr_pat_",
// "sk-or-v1-"): a generic value that starts with one but failed its rule.
std::span<const std::string> provider_prefixes() {
  static const std::vector<std::string> prefixes = [] {
    std::vector<std::string> out;
    for (const Rule& r : kRules) {
      if (r.extract != Extract::token || r.severity != Severity::high || r.lead) continue;
      std::string head;
      for (size_t i = 0; i < r.pattern.size(); ++i) {
        const char c = r.pattern[i];
        if (c == '\\' && i + 1 < r.pattern.size() && std::string_view(".-/_$").find(r.pattern[i + 1]) != std::string_view::npos) {
          head += r.pattern[++i];
        } else if (std::string_view("\\[](){}?*+|^$.").find(c) == std::string_view::npos) {
          head += c;
        } else {
          if (c == '?' || c == '*' || c == '{') head.clear();  // the last character was optional
          break;
        }
      }
      if (head.size() >= 4) out.push_back(head);
    }
    return out;
  }();
  return prefixes;
}

// The longest run of letters and digits ("123e4567-..." has 12): a token's
// random part is one long run, a name ("db-credentials-7f8d9c") is words.
size_t longest_alnum_run(std::string_view v) {
  size_t best = 0, run = 0;
  for (const char c : v) {
    run = is_alnum(c) ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// A value's characters after a credential word: a token's alphabet.
bool key_char(char c) { return is_alnum(c) || std::string_view("+/_-=.").find(c) != std::string_view::npos; }

// A key's value where only the word key says credential: one random run of
// `run` characters or more with digits and letters (not "DOC_Vector_5_32",
// a name of words, or "analyzedResources"), or a random UUID where `uuid`
// says one may be a key, and not base64 of text ("ZHVtbXkgdGV4dCBk...").
bool token_shaped(std::string_view v, size_t run, bool uuid) {
  if (uuid_shape(v)) return uuid && !time_uuid(v);
  // Random characters hold digits and letters ("analyzedResources" is a name).
  const bool digit = v.find_first_of("0123456789") != std::string_view::npos;
  const bool letter = std::ranges::any_of(v, [](char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; });
  std::string decoded;
  return digit && letter && longest_alnum_run(v) >= run && !(v.size() >= 16 && decode_base64_text(v, &decoded));
}

// `json:"secret_token"`, `yaml:"api_key,omitempty" db:"key"`: a Go struct
// tag, keys of lower-case letters each with a quoted value.
bool struct_tag(std::string_view v) {
  size_t i = 0;
  while (i < v.size() && ((v[i] >= 'a' && v[i] <= 'z') || v[i] == '_')) ++i;
  return i > 0 && v.substr(i, 2) == ":\"";
}

// "Optional[str]", "Dict[str,", "list[SecretStr]": a type with its
// parameters, as a Python annotation names it ("password: Optional[str] =
// None"); the type is a word of letters, the parameters names.
bool type_subscript(std::string_view v) {
  const size_t open = v.find('[');
  if (open == 0 || open == std::string_view::npos || open + 1 == v.size()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const std::string_view type = v.substr(0, open), params = v.substr(open + 1);
  return std::ranges::all_of(type, [&](char c) { return letter(c) || c == '.' || c == '_'; }) &&
         std::ranges::all_of(params, [&](char c) { return is_alnum(c) || std::string_view("_.,[]| ").find(c) != std::string_view::npos; }) &&
         letter(params.front());
}

// "ApiKey: !ImportValue SharedKey", "!Ref KeyParam", "!Sub ...": a YAML
// tag (CloudFormation's short-form functions, Home Assistant's !secret)
// with its argument after it; the value is computed or looked up.
bool yaml_tag(std::string_view text, std::string_view value, size_t end) {
  if (value.size() < 2 || value.front() != '!' || !((value[1] | 0x20) >= 'a' && (value[1] | 0x20) <= 'z') ||
      !std::ranges::all_of(value.substr(1), is_alnum)) {
    return false;
  }
  return end + 1 < text.size() && (text[end] == ' ' || text[end] == '\t') && static_cast<unsigned char>(text[end + 1]) > ' ';
}

// Judges a generic value [start, end) assigned to a credential-like name.
std::optional<Extracted> judge_generic(const Rule& rule, std::string_view text, size_t start, size_t end,
                                       bool quoted, std::string_view name) {
  std::string_view value = text.substr(start, end - start);
  // Cheapest first: most candidates fail on their name.
  if (value.size() < rule.min_len || !secret_name(name)) return std::nullopt;
  // "Authorization: 'Bearer mock-auth-token'": the scheme is not the secret;
  // what follows it is judged alone.
  for (std::string_view scheme : {"Bearer ", "Token ", "Basic "}) {
    if (value.starts_with(scheme)) return judge_generic(rule, text, start + scheme.size(), end, quoted, name);
  }
  // storageKey={STORAGE_KEY}> in JSX: an expression, closed before the tag.
  if (const size_t close = value.find('}'); value.front() == '{' && close != std::string_view::npos &&
                                            value.find_first_not_of("/>", close + 1) == std::string_view::npos) {
    return std::nullopt;
  }
  // A value opening with '[' is a list, an index or a marker such as
  // [REDACTED:rule], never a secret: the prefilter skips such lines too.
  if (value.front() == '[') return std::nullopt;
  if (placeholder(value) || filler_token(value) || time_uuid(value) ||
      value.find("://") != std::string_view::npos) {  // URLs: see url-credentials
    return std::nullopt;
  }
  if (shannon_entropy(value) < 3.5 || char_classes(value) < 2 || counting_run(value) || joined_words(value) ||
      constant_name(value) || lower_case_command(value) || sigv4_part(value)) {
    return std::nullopt;
  }
  if (!quoted && (code_expression(text, value, end) || camel_case_identifier(value) || type_name(value) ||
                  pascal_case_identifier(value) || yaml_tag(text, value, end) || type_subscript(value))) {
    return std::nullopt;
  }
  // SecretToken string `json:"secret_token"`: a Go struct field's tag.
  if (start > 0 && text[start - 1] == '`' && struct_tag(value)) return std::nullopt;
  // "(env.AUTH_METHOD as Mode)": a parenthesised expression.
  if (!quoted && value.front() == '(' && code_expression(text, value.substr(1), end)) return std::nullopt;
  // A provider's prefix with the wrong shape failed that provider's rule:
  // a sample or a typo, not a secret of unknown kind.
  for (std::string_view prefix : {"xox", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-ant-",
                                  "sk-proj-", "sk_live_", "sk_test_", "rk_live_", "AKIA", "AIza", "hf_", "npm_",
                                  "pypi-", "SG.", "dapi", "dop_v1_", "hvs.", "hvb.", "AGE-SECRET-KEY-"}) {
    if (value.starts_with(prefix)) return std::nullopt;
  }
  for (std::string_view prefix : provider_prefixes()) {
    if (value.starts_with(prefix)) return std::nullopt;
  }
  for (std::string_view middle : {".atlasv1.", "JQQJ99"}) {  // the literals of the rules with a lead
    if (value.find(middle) != std::string_view::npos) return std::nullopt;
  }
  if (query_string(value) || host_name(value) || lower_case_path(value)) return std::nullopt;
  // Only the word key says credential: the value must look like one, a
  // token of a key's characters, not an identifier ("Ec2SubnetIds",
  // "fs.s3.enableServerSideEncryption") or an ARN.
  if (key_word_only(name)) {
    std::string_view stem = value;  // "analyzedResources2": a name and a number
    while (!stem.empty() && stem.back() >= '0' && stem.back() <= '9') stem.remove_suffix(1);
    if (!token_shaped(value, 12, true) || !std::ranges::all_of(value, key_char) || type_name(stem) ||
        camel_case_identifier(stem) || code_expression(text, value, end)) {
      return std::nullopt;
    }
  }
  return Extracted{start, end, rule.severity, ""};
}

// Where a bare value ends before the next pair of a list of name=value
// pairs: "Password=x;Encrypt=true;..." (an ADO.NET or ODBC connection
// string), "token=x&user=y" (a query string). The name may hold spaces
// ("User ID") and must be followed by '='.
bool next_pair(std::string_view text, size_t at, size_t limit) {
  if (at >= limit || (text[at] != ';' && text[at] != '&')) return false;
  size_t i = at + 1;
  if (i >= limit || !((text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'z')) return false;
  while (i < limit && i - at <= 48 && (is_alnum(text[i]) || text[i] == '_' || text[i] == '-' || text[i] == '.' ||
                                       text[i] == ' ')) {
    ++i;
  }
  return i < limit && text[i] == '=';
}

// A generated password holding ';', ',', '&' or '(' ("Kx9...;klm..."),
// whose whole fails as code, a list or a filler: its part before the first
// such symbol is judged alone (read up to there, no call after it), and a
// finding covers the whole value, since a redaction cut at the symbol would
// leave the rest of the password behind.
std::optional<Extracted> judged_before_symbol(const Rule& rule, std::string_view text, size_t start, size_t end,
                                              std::string_view name) {
  const size_t cut = text.substr(start, end - start).find_first_of(";,&(");
  if (cut == std::string_view::npos || cut == 0) return std::nullopt;
  // Only a random token starts a password: a name before '(' is a call
  // (System.fetch_env!(...), present?()), one before ';' a statement.
  const std::string_view part = text.substr(start, cut);
  if (part.find_first_of(".$!?") != std::string_view::npos || !token_shaped(part, 12, false)) return std::nullopt;
  auto found = judge_generic(rule, text.substr(0, start + cut), start, start + cut, false, name);
  if (found) found->end = end;
  return found;
}

// A generic assignment's value: quoted (anything up to the same quote on
// the line) or bare (up to a space or a separator).
std::optional<Extracted> generic_value(const Rule& rule, std::string_view text, size_t end, size_t value_limit) {
  const std::string_view name = assigned_name(text, end);
  if (!secret_name(name)) return std::nullopt;  // before reading a value that may be long
  // "${API_KEY:?API_KEY is required}": a shell expansion that fails with a
  // message when the variable is unset; the message is not its value (a
  // default, "${API_KEY:-value}", may be one).
  const size_t name_at = static_cast<size_t>(name.data() - text.data());
  const std::string_view after = text.substr(name_at + name.size());
  if (name_at >= 2 && text.substr(name_at - 2, 2) == "${" && (after.starts_with(":?") || after.starts_with("?"))) {
    return std::nullopt;
  }
  size_t i = end;
  char quote = end > 0 && is_quote(text[end - 1]) ? text[end - 1] : 0;
  if (!quote) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '@')) ++i;
    if (i < text.size() && is_quote(text[i])) quote = text[i++];
  }
  if (quote) {
    size_t close = i;
    while (close < text.size() && close - i <= rule.max_len && text[close] != quote && text[close] != '\n') ++close;
    if (close >= text.size() || text[close] != quote) return std::nullopt;
    // Spaces in a value only after = or : (a sentence after `password`,
    // `"name", ` or `f(` is prose or an argument), and never around it.
    const std::string_view value = text.substr(i, close - i);
    size_t op = i - 1;
    while (op > 0 && (text[op - 1] == ' ' || text[op - 1] == '\t' || text[op - 1] == '@')) --op;
    const bool assigned = op > 0 && (text[op - 1] == '=' || text[op - 1] == ':' || text[op - 1] == '>');
    if ((!assigned && value.find_first_of(" \t") != std::string_view::npos) || value.empty() || value.front() == ' ' ||
        value.back() == ' ') {
      return std::nullopt;
    }
    return judge_generic(rule, text, i, close, true, name);
  }
  if (i != end) return std::nullopt;  // "the token is": a bare value needs an operator before it
  if (i > 0 && text[i - 1] == ':' && i < text.size() && text[i] == ':') return std::nullopt;  // Secret::scan
  // A bare value runs to its end, however long (a base64 blob in AUTH=...):
  // cut short, its redaction would leave the rest behind.
  constexpr size_t kMaxBareValue = 64 << 10;
  size_t e = i;
  const size_t limit = std::min({text.size(), value_limit, i + kMaxBareValue});
  while (e < limit && static_cast<unsigned char>(text[e]) > ' ' && !is_quote(text[e]) &&
         text[e] != '<' && text[e] != '\\' && !next_pair(text, e, limit)) {
    ++e;
  }
  while (e > i && (text[e - 1] == ',' || text[e - 1] == ';')) --e;
  // A bare value follows =, : or >; after a comma or a parenthesis only a
  // quoted one does (setProperty("k", "v"), not "type=secret,id=x" or f(x)).
  size_t op = i;
  while (op > 0 && (text[op - 1] == ' ' || text[op - 1] == '\t')) --op;
  if (e == i || op == 0 || std::string_view("=:>").find(text[op - 1]) == std::string_view::npos) return std::nullopt;
  if (auto whole = judge_generic(rule, text, i, e, false, name)) return whole;
  return judged_before_symbol(rule, text, i, e, name);
}

// `"v" == password`: the match ends in the name; the value is the quoted
// text before the operator.
std::optional<Extracted> value_before(const Rule& rule, std::string_view text, size_t end) {
  size_t name_end = end;
  while (name_end < text.size() && name_char(text[name_end])) ++name_end;
  size_t i = end;
  while (i > 0 && name_char(text[i - 1])) --i;
  const std::string_view name = text.substr(i, name_end - i);
  while (i > 0 && std::string_view(" \t=!").find(text[i - 1]) != std::string_view::npos) --i;
  if (i == 0 || !is_quote(text[i - 1])) return std::nullopt;
  const size_t close = i - 1;
  const size_t open = text.rfind(text[close], close == 0 ? 0 : close - 1);
  if (open == std::string_view::npos || close - open > rule.max_len + 1u) return std::nullopt;
  return judge_generic(rule, text, open + 1, close, true, name);
}

// An unquoted member path such as customModel.api_key or config.auth.token:
// code that reads a credential, not one. Each dot-separated part is a short
// identifier (a JWT's parts are long, and its own rule finds it).
bool member_path(std::string_view text, size_t start) {
  size_t parts = 1, part_len = 0;
  for (size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (part_len == 0) return false;
      ++parts;
      part_len = 0;
    } else if (is_alnum(c) || c == '_' || c == '$') {
      if (part_len == 0 && c >= '0' && c <= '9') return false;
      if (++part_len > 40) return false;
    } else {
      break;
    }
  }
  return parts >= 2 && part_len > 0;
}

// "apiKey: '...'", "xApiKey = ...": a camelCase name without a hyphen is a
// property or variable in code; headers are written lower case or
// hyphenated ("x-api-key", "X-Api-Key"). Code's keys are often public
// (search-only keys in front-end bundles), so such a value is a warning.
bool camel_case_name_before(std::string_view text, size_t end) {
  size_t i = end;
  while (i > 0 && (is_quote(text[i - 1]) || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == ':')) --i;
  const size_t name_end = i;
  while (i > 0 && (is_alnum(text[i - 1]) || text[i - 1] == '-' || text[i - 1] == '_')) --i;
  const std::string_view name = text.substr(i, name_end - i);
  if (name.find('-') != std::string_view::npos) return false;
  const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  for (size_t k = 1; k < name.size(); ++k) {
    if (lower(name[k - 1]) && upper(name[k])) return true;  // apiKey
    // APIKey: an acronym, then a capitalised word.
    if (k >= 2 && upper(name[k - 2]) && upper(name[k - 1]) && lower(name[k])) return true;
  }
  return false;
}

// The rules for a credential sent as a header (Authorization, x-api-key).
bool header_rule(const Rule& rule) { return rule.id == "auth-header" || rule.id == "api-key-header"; }

// "weather-123", "calculator_456": a word and a short number, a test's
// stand-in for a key. No provider issues keys of that shape.
bool word_and_number(std::string_view v) {
  const size_t cut = v.find_first_of("-_");
  if (cut == std::string_view::npos || cut < 3) return false;
  const std::string_view word = v.substr(0, cut), number = v.substr(cut + 1);
  return std::ranges::all_of(word, [](char c) { return c >= 'a' && c <= 'z'; }) && !number.empty() &&
         number.size() <= 5 && std::ranges::all_of(number, [](char c) { return c >= '0' && c <= '9'; });
}

// "test-key-abc123xyz", "mock_api_key_a1b2c3", "invalid_token_xyz789",
// "1234567890abcdef": what a test sends as a key. A word that says test
// among its parts, a count typed in it (abc123, xyz789, 12345, a1b2c3):
// reported, never high, since honest runs read test files all the time.
bool test_value(std::string_view v) {
  static constexpr std::string_view kMarkers[] = {"test", "tests", "testing", "mock", "mocked", "fake", "dummy",
                                                  "invalid", "valid", "sample", "demo", "fixture", "e2e", "stub",
                                                  "example", "foo", "bar", "baz", "abc", "xyz"};
  thread_local std::string buf;
  const std::string_view low = lowercase(v, &buf);
  size_t from = 0;
  while (from <= low.size()) {
    size_t to = low.find_first_of("-_.", from);
    if (to == std::string_view::npos) to = low.size();
    std::string_view part = low.substr(from, to - from);
    // "abc123": a word and the count after it is one part.
    const size_t digits = part.find_first_of("0123456789");
    if (digits != std::string_view::npos && digits > 0 && part.find_first_not_of("0123456789", digits) == std::string_view::npos) {
      part = part.substr(0, digits);
    }
    if (std::ranges::find(kMarkers, part) != std::end(kMarkers)) return true;
    from = to + 1;
  }
  for (std::string_view head : {"test", "mock", "fake", "dummy", "abc123", "123abc"}) {
    if (low.starts_with(head)) return true;
  }
  return counting_run(v) || typed_number_in(v);
}

// "MYTOKEN1", "APIKEY2", "SECRETKEY", "ACCESS-TOKEN", "API-KEY": capital
// words that name the secret they stand for (npm's docs write
// _authToken=MYTOKEN1, API docs "Bearer ACCESS-TOKEN"), not the secret.
// Joined by '-', each word is letters and at most a number after them
// (a random key in groups, "7KQ2X-KEYPV", mixes them).
bool names_a_secret(std::string_view v) {
  constexpr std::string_view kWords[] = {"TOKEN", "KEY", "SECRET", "PASS", "AUTH"};
  auto capital_word = [](std::string_view w) {
    const size_t digits = w.find_first_of("0123456789");
    const std::string_view letters = w.substr(0, digits);
    return !letters.empty() && std::ranges::all_of(letters, [](char c) { return c >= 'A' && c <= 'Z'; }) &&
           (digits == std::string_view::npos || w.find_first_not_of("0123456789", digits) == std::string_view::npos);
  };
  auto names = [&](std::string_view w) {
    return std::ranges::any_of(kWords, [&](std::string_view k) { return w.find(k) != std::string_view::npos; });
  };
  if (v.find('-') == std::string_view::npos) {
    const bool capitals = std::ranges::all_of(v, [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
    return v.size() <= 24 && capitals && names(v);
  }
  if (v.size() > 40) return false;
  bool named = false;
  for (size_t from = 0; from <= v.size();) {
    const size_t to = std::min(v.find('-', from), v.size());
    const std::string_view w = v.substr(from, to - from);
    if (!capital_word(w)) return false;
    named = named || names(w);
    from = to + 1;
  }
  return named;
}

// "Authorization", "Proxy-Authorization", "WWW-Authenticate", "X-Api-Key":
// an HTTP header's name, capitalized words (or a short acronym) of letters
// joined by '-'. Code holds header names in constants (Go's
// `authorization = "Authorization"`); a credential is never one.
bool header_name(std::string_view v) {
  for (size_t from = 0; from <= v.size();) {
    const size_t to = std::min(v.find('-', from), v.size());
    const std::string_view w = v.substr(from, to - from);
    const bool acronym = !w.empty() && w.size() <= 4 && std::ranges::all_of(w, [](char c) { return c >= 'A' && c <= 'Z'; });
    const bool capitalized = w.size() >= 2 && w.front() >= 'A' && w.front() <= 'Z' &&
                             std::ranges::all_of(w.substr(1), [](char c) { return c >= 'a' && c <= 'z'; });
    if (!acronym && !capitalized) return false;
    from = to + 1;
  }
  return !v.empty();
}

// Basic credentials that decode to a placeholder password ("user:pass").
bool weak_basic_credentials(std::string_view text, size_t end, std::string_view value) {
  if (end < 6 || !contains_nocase(text.substr(end - 6, 6), "basic ")) return false;
  std::string decoded(value.size(), '\0');
  size_t n = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(decoded.data()), decoded.size(), value.data(), value.size(),
                        nullptr, &n, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0 &&
      sodium_base642bin(reinterpret_cast<unsigned char*>(decoded.data()), decoded.size(), value.data(), value.size(),
                        nullptr, &n, nullptr, sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0) {
    return false;
  }
  decoded.resize(n);
  const size_t colon = decoded.find(':');
  // No pair at all, a phrase ("synthetic-proxy-credential"): a test's value.
  if (colon == std::string::npos) return joined_words(decoded);
  const std::string_view password = std::string_view(decoded).substr(colon + 1);
  return password.size() < 6 || placeholder(password) || filler_token(password);
}

// Letters and digits of `v`, lower case: "v1-create-project-api-key" and
// "v1CreateProjectApiKey" are both "v1createprojectapikey".
std::string folded(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (is_alnum(c)) out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return out;
}

// A header value that names a header or its field instead of holding a
// credential: the name assigned to, written another way (an OpenAPI map's
// "v1-create-project-api-key": "v1CreateProjectApiKey"), or the word
// authorization in it ("ServiceAuthorization", "Unauthorized",
// "response_param_Authorization": a type, a status, a mapping).
bool names_its_header(std::string_view text, size_t start, std::string_view value) {
  if (contains_nocase(value, "authoriz")) return true;
  const std::string name = folded(assigned_name(text, start));
  return name.size() >= 6 && name == folded(value);
}

// "authorization: MapOfStringToList | None": a Python or TypeScript
// annotation, the type of a field that may be absent.
bool optional_type(std::string_view text, size_t value_end) {
  size_t i = value_end;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i >= text.size() || text[i] != '|') return false;
  ++i;
  while (i < text.size() && text[i] == ' ') ++i;
  const std::string_view rest = text.substr(i);
  for (std::string_view none : {"None", "null", "undefined"}) {
    if (rest.starts_with(none) && (rest.size() == none.size() || !is_alnum(rest[none.size()]))) return true;
  }
  return false;
}

// "Bearer xoxb-1234-1243" (a docstring of Slack's SDK): a provider's prefix
// with a stand-in after it, too short for any of its tokens, failed that
// provider's rule; a long random tail is left to the header rule.
bool provider_head_stand_in(std::string_view value) {
  for (std::string_view head : provider_prefixes()) {
    if (value.starts_with(head) && value.size() - head.size() < 16) return true;
  }
  return false;
}

// A source file an agent read names its keys in code: "apiKey:
// 'proxy-handled'" (a setting in words), "apiKey: loadApiKey(...)" or
// "apiKey: testApiKey" (a call, a variable), "apiKey: 'AIHUBMIX_API_KEY'"
// (a variable's name), "authorization: 'AWS4-HMAC-SHA256 ...'" (SigV4's
// scheme, its signature made per request; the key id has a rule of its own).
bool header_value_is_code(std::string_view text, size_t start, std::string_view value) {
  if (joined_words(value) || constant_name(value) || sigv4_part(value) || word_and_number(value) ||
      header_name(value) || names_its_header(text, start, value)) {
    return true;
  }
  const bool quoted = start > 0 && is_quote(text[start - 1]);
  return !quoted && (code_expression(text, value, start + value.size()) || camel_case_identifier(value) ||
                     pascal_case_identifier(value) || optional_type(text, start + value.size()));
}

// ".npmrc": "//registry.npmjs.org/:_authToken=" names a registry, its
// path ending in '/' before the ':' (npm ignores keys of another shape).
// A registry's URL is short: the key is looked for within kMaxRegistryKey
// bytes, not back to the line's start from every candidate of a line of
// "//r/:_auth=//r/:_auth=...".
constexpr size_t kMaxRegistryKey = 512;
bool npmrc_registry_key(std::string_view text, size_t end) {
  const size_t colon = text.rfind(":_auth", end);
  if (colon == std::string_view::npos || colon == 0 || text[colon - 1] != '/') return false;
  size_t start = colon;
  while (start > 0 && colon - start < kMaxRegistryKey && text[start - 1] > ' ' && text[start - 1] != '"' &&
         text[start - 1] != '\'') {
    --start;
  }
  const std::string_view key = text.substr(start, colon - start);
  return key.starts_with("//") && key.size() > 3 && key[2] != '/';
}

// `password = "super$ecret"`: the quoted value, one word a person chose.
// Two kinds of character and a little entropy, not a word that names the
// field, a template, a filler, a phrase or a constant's name.
std::optional<Extracted> password_value(const Rule& rule, std::string_view text, size_t end) {
  const char quote = text[end - 1];
  size_t close = text.find(quote == '>' ? '<' : quote, end);
  if (close == std::string_view::npos || close - end > rule.max_len) return std::nullopt;
  if (quote == '>') {  // an element's text, closed by its end tag, blanks around it dropped
    if (text.substr(close, 2) != "</") return std::nullopt;
    while (end < close && (text[end] == ' ' || text[end] == '\t')) ++end;
    while (close > end && (text[close - 1] == ' ' || text[close - 1] == '\t')) --close;
  }
  const std::string_view value = text.substr(end, close - end);
  if (value.size() < rule.min_len || value.find_first_of(" \t\n\\") != std::string_view::npos) return std::nullopt;
  // `"Password:",next:` closes a label, it opens no value; "/en/..." is a path.
  if (std::string_view(",;:)]}/").find(value.front()) != std::string_view::npos || value.back() == ':') {
    return std::nullopt;
  }
  if (placeholder(value) || filler_token(value) || counting_run(value) || joined_words(value) ||
      constant_name(value) || char_classes(value) < 2 || shannon_entropy(value) < 2.5 ||
      value.find("://") != std::string_view::npos) {
    return std::nullopt;
  }
  return Extracted{end, close, rule.severity, ""};
}

// A base64 value (RFC 7235's token68: Azure's AccountKey=, SharedAccessKey=)
// pads with '=' at its end only, and is whole: a value holding '=' before
// other characters is a name and its '=' ("AccountKey=AccountKey=<key>",
// whose key the next match reads), and one that runs on past the rule's
// longest is something else.
bool token68_value(std::string_view text, std::string_view value, size_t value_end, const Rule& rule) {
  const size_t eq = value.find('=');
  if (eq != std::string_view::npos && value.find_first_not_of('=', eq) != std::string_view::npos) return false;
  return value_end >= text.size() || !in_chars(rule.chars, text[value_end]);
}

// "user:password" from base64 (Docker's "auth", npm's _auth, a Basic
// header), however short; none when it does not decode to printable text
// holding a colon.
std::optional<std::string> base64_user_password(std::string_view value) {
  std::string decoded(value.size(), '\0');
  size_t n = 0;
  auto decode = [&](int variant) {
    return sodium_base642bin(reinterpret_cast<unsigned char*>(decoded.data()), decoded.size(), value.data(),
                             value.size(), nullptr, &n, nullptr, variant) == 0;
  };
  if (!decode(sodium_base64_VARIANT_ORIGINAL) && !decode(sodium_base64_VARIANT_ORIGINAL_NO_PADDING)) return std::nullopt;
  decoded.resize(n);
  const bool printable = std::ranges::all_of(decoded, [](char c) { return c >= ' ' && c <= '~'; });
  if (!printable || decoded.find(':') == std::string::npos) return std::nullopt;
  return decoded;
}

// What a registry password stands for: nothing when it names the field or
// is a template ("pass", "${PASSWORD}", "bar"), a test's stand-in when it
// is short (registries ask 8 characters or more), words joined
// ("env_pass"), a constant's name, a count, a filler or says test.
enum class Password { none, stand_in, real };
Password judge_password(std::string_view password) {
  if (password.size() < 4 || placeholder(password)) return Password::none;
  if (password.size() < 8 || joined_words(password) || constant_name(password) || test_value(password) ||
      filler_token(password) || counting_run(password)) {
    return Password::stand_in;
  }
  return Password::real;
}

// ".npmrc": `_auth` is base64 of user:password, judged as Docker's "auth"
// is; `_authToken` a registry's token, 20 characters or more (GitLab's
// 20, npm's UUIDs 36, npm_ 40) and random: one shorter, of little
// entropy or that says test is a test suite's filler ("0bad1de4").
std::optional<Extracted> npmrc_value(std::string_view text, size_t end, std::string_view value) {
  const Extracted real{end, end + value.size(), Severity::high, ""};
  const Extracted stand_in{end, end + value.size(), Severity::warning, "a test's filler?"};
  const size_t at = text.rfind(":_auth", end);
  const bool token = at != std::string_view::npos && text.substr(at + 6, 5) == "Token";
  if (!token) {
    if (const auto pair = base64_user_password(value)) {
      switch (judge_password(std::string_view(*pair).substr(pair->find(':') + 1))) {
        case Password::none: return std::nullopt;
        case Password::stand_in: return stand_in;
        case Password::real: return real;
      }
    }
  }
  if (value.size() < 20 || shannon_entropy(value) < 3.0 || test_value(value)) return stand_in;
  return real;
}

std::optional<Extracted> value_after(const Rule& rule, std::string_view text, size_t end, size_t value_limit) {
  if (rule.id == "generic-secret") return generic_value(rule, text, end, value_limit);
  if (rule.id == "password-assignment") return password_value(rule, text, end);
  if (end > 0 && !is_quote(text[end - 1]) && member_path(text, end)) return std::nullopt;
  const size_t value_end = grow(text, end, end, rule);
  std::string_view value = text.substr(end, value_end - end);
  while (!value.empty() && (value.back() == '.' || value.back() == ':')) value.remove_suffix(1);
  // npm's legacy tokens are UUIDs, of any version: under a registry's key
  // ("//host/:_authToken=") a time-based UUID is the credential, not an id.
  const auto uuid_is_token = [&] { return rule.id == "npmrc-auth" && npmrc_registry_key(text, end); };
  if (value.size() < rule.min_len || placeholder(value) || filler_token(value) ||
      (time_uuid(value) && !uuid_is_token())) {
    return std::nullopt;
  }
  if (rule.min_len == rule.max_len && value_end < text.size() && in_chars(rule.chars, text[value_end])) {
    return std::nullopt;  // a fixed-length secret inside a longer run is something else
  }
  if (rule.chars == Chars::token68 && !token68_value(text, value, value_end, rule)) return std::nullopt;
  // "Authorization: Api-Token x": the scheme is not the credential.
  if (value_end + 1 < text.size() && text[value_end] == ' ' && in_chars(rule.chars, text[value_end + 1]) &&
      value.find_first_of("0123456789") == std::string_view::npos) {
    return std::nullopt;
  }
  if (rule.chars != Chars::b64 && char_classes(value) < 2) return std::nullopt;
  if (names_a_secret(value)) return std::nullopt;
  if (rule.id == "npmrc-auth") return npmrc_value(text, end, value);
  // An STS session token is base64 of binary data; base64 of text is not one.
  std::string decoded;
  if (rule.id == "aws-session-token" && decode_base64_text(value, &decoded)) return std::nullopt;
  if (rule.id == "aws-session-token" && session_token_of_url(text, end)) {
    return Extracted{end, end + value.size(), Severity::warning, "a presigned URL's session token: no use without its secret key"};
  }
  if (header_rule(rule) && (header_value_is_code(text, end, value) || provider_head_stand_in(value))) {
    return std::nullopt;
  }
  if (header_rule(rule) && (test_value(value) || weak_basic_credentials(text, end, value))) {
    return Extracted{end, end + value.size(), Severity::warning, "a test's value?"};
  }
  if (rule.id == "api-key-header" && camel_case_name_before(text, end)) {
    return Extracted{end, end + value.size(), Severity::warning, "a property in code, not a header?"};
  }
  return Extracted{end, end + value.size(), rule.severity, ""};
}

// "postgres://user:pass@db", "://user:secret@": a weak password, but a
// password, where a URL's userinfo holds it. (A word that names the field,
// "password", "YOUR_PASSWORD", or a template, "{pass}", is no value.)
bool weak_url_password(std::string_view user, std::string_view password) {
  return (password == "pass" || password == "secret") && user != password;
}

// A command's password argument: one shell word, quoted or bare. A
// variable, a template, a placeholder or the next option is not one.
std::optional<Extracted> cli_password(const Rule& rule, std::string_view text, size_t end) {
  if (end >= text.size()) return std::nullopt;
  size_t from = end, to = end;
  if (is_quote(text[end])) {
    from = end + 1;
    to = text.find(text[end], from);
    if (to == std::string_view::npos || to - from > rule.max_len || text.substr(from, to - from).find('\n') != std::string_view::npos) {
      return std::nullopt;
    }
  } else {
    while (to < text.size() && to - from < rule.max_len && static_cast<unsigned char>(text[to]) > ' ' &&
           text[to] != ';' && text[to] != '|' && text[to] != '&' && text[to] != ')' && !is_quote(text[to])) {
      ++to;
    }
  }
  const std::string_view value = text.substr(from, to - from);
  // "--password options" in prose: after a spaced --password or -Password a
  // lone lower-case word is the sentence going on (sshpass -p takes any).
  size_t flag_end = end;
  while (flag_end > 0 && end - flag_end < kMaxOperatorGap && (text[flag_end - 1] == ' ' || text[flag_end - 1] == '\t')) {
    --flag_end;
  }
  if (flag_end < end && flag_end >= 7 && contains_nocase(text.substr(flag_end - 7, 7), "assword") &&
      char_classes(value) < 2) {
    return std::nullopt;
  }
  if (value.size() < rule.min_len || value.front() == '-' || value.front() == '@' || placeholder(value) ||
      filler_token(value) || constant_name(value) || value.find("${") != std::string_view::npos ||
      value.find("$(") != std::string_view::npos) {
    return std::nullopt;
  }
  return Extracted{from, to, rule.severity, ""};
}

// The colon that ends a URL's user: the first outside a redaction marker
// ("https://[REDACTED:github-pat]@github.com", ours or a recorder's), whose
// own colon separates nothing. A marker is never a password.
size_t userinfo_colon(std::string_view userinfo) {
  size_t from = 0;
  while (true) {
    const size_t colon = userinfo.find(':', from), marker = userinfo.find("[REDACTED:", from);
    if (colon == std::string_view::npos || marker == std::string_view::npos || colon < marker) return colon;
    from = userinfo.find(']', marker);
    if (from == std::string_view::npos) return from;
  }
}

// "scheme://user:password@host": the match ends at the '@'.
std::optional<Extracted> url_userinfo(const Rule& rule, std::string_view text, size_t end) {
  const size_t at = end - 1;
  // With an '@' in the password, the last '@' before the host is the one.
  for (size_t i = end; i < text.size() && i < end + 256; ++i) {
    const char c = text[i];
    if (c == '@') return std::nullopt;
    if (c <= ' ' || c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>') break;
  }
  const size_t scheme = text.rfind("://", at);
  if (scheme == std::string_view::npos || at - scheme > 400) return std::nullopt;
  const std::string_view userinfo = text.substr(scheme + 3, at - scheme - 3);
  const size_t colon = userinfo_colon(userinfo);
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view user = userinfo.substr(0, colon), password = userinfo.substr(colon + 1);
  // GitHub's token-as-user form: https://<token>:x-oauth-basic@github.com
  if (password == "x-oauth-basic") {
    if (user.size() < rule.min_len || placeholder(user) || filler_token(user)) return std::nullopt;
    return Extracted{scheme + 3, scheme + 3 + colon, rule.severity, ""};
  }
  if (!weak_url_password(user, password) &&
      (password.size() < rule.min_len || password == user || placeholder(password) || filler_token(password) ||
       shannon_entropy(password) < 2.5)) {
    return std::nullopt;
  }
  const size_t from = scheme + 3 + colon + 1;
  // A short password is reported with its user ("user:pass"): alone its
  // hash would name every URL with that password, allowlisted as one.
  if (password.size() < 8 && !user.empty()) return Extracted{scheme + 3, from + password.size(), rule.severity, ""};
  return Extracted{from, from + password.size(), rule.severity, ""};
}

// `curl -u user:password`: one shell word, quotes removed; the password is
// the secret, or the user part when it is all there is ("-u token:").
std::optional<Extracted> shell_user(const Rule& rule, std::string_view text, size_t end) {
  size_t i = end, colon = std::string_view::npos;
  char quote = 0;
  for (; i < text.size() && i - end < 256; ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c <= ' ') {
      break;
    }
    if (c == ':' && colon == std::string_view::npos) colon = i;
  }
  auto unquoted = [&](size_t a, size_t b) {
    while (a < b && (text[a] == '"' || text[a] == '\'')) ++a;
    while (b > a && (text[b - 1] == '"' || text[b - 1] == '\'')) --b;
    return std::pair{a, b};
  };
  if (colon == std::string_view::npos) return std::nullopt;
  auto [ua, ub] = unquoted(end, colon);
  auto [pa, pb] = unquoted(colon + 1, i);
  if (pa == pb) std::tie(pa, pb) = std::pair{ua, ub};
  const std::string_view user = text.substr(ua, ub - ua), secret = text.substr(pa, pb - pa);
  if (secret.size() < rule.min_len || (secret == user && pa != ua) || placeholder(secret) || filler_token(secret) ||
      shannon_entropy(secret) < 2.5) {
    return std::nullopt;
  }
  return Extracted{pa, pb, rule.severity, ""};
}

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

size_t lower_alnum_run(std::string_view text, size_t from) {
  size_t e = from;
  while (e < text.size() && lower_alnum(text[e])) ++e;
  return e - from;
}

// A Kubernetes bootstrap token, <id>.<secret> of 6 and 16 of [a-z0-9]
// (kubeadm join --token, a kubeadm config's token:), or the secret half
// alone after token-secret: (the bootstrap Secret's key; a warning, the
// name is less telling). kubeadm's documented abcdef.0123456789abcdef
// counts up: no token.
std::optional<Extracted> kube_token(std::string_view text, size_t end) {
  size_t name_end = end;
  while (name_end > 0 && end - name_end < kMaxOperatorGap &&
         std::string_view(" \t\"':=").find(text[name_end - 1]) != std::string_view::npos) {
    --name_end;
  }
  const bool secret_half = text.substr(0, name_end).ends_with("token-secret");
  size_t i = end;
  if (!secret_half) {
    if (lower_alnum_run(text, i) != 6 || i + 6 >= text.size() || text[i + 6] != '.') return std::nullopt;
    i += 7;
  }
  if (lower_alnum_run(text, i) != 16) return std::nullopt;
  const size_t stop = i + 16;
  if (stop < text.size() && (is_alnum(text[stop]) || text[stop] == '-' || text[stop] == '_' ||
                             (text[stop] == '.' && stop + 1 < text.size() && is_alnum(text[stop + 1])))) {
    return std::nullopt;
  }
  const std::string_view secret = text.substr(i, 16), whole = text.substr(end, stop - end);
  if (char_classes(secret) < 2 || shannon_entropy(secret) < 3.0 || filler_token(whole) || counting_run(whole) ||
      placeholder(whole)) {
    return std::nullopt;
  }
  // The Kubernetes docs' example tokens (07401b.f395accd246ae52d,
  // 5emitj.kq4gihvszzgn1p0r), copied into tutorials: never high.
  for (std::string_view example : {"f395accd246ae52d", "kq4gihvszzgn1p0r"}) {
    if (secret == example) return Extracted{end, stop, Severity::warning, "the Kubernetes docs' example token"};
  }
  return Extracted{end, stop, secret_half ? Severity::warning : Severity::high, ""};
}


// Each provider's documented key shape: Heroku's API key a UUID, Twilio's
// auth token, Algolia's and Azure OpenAI's (classic) keys 32 hex, Datadog's
// API key 32 hex and application key 40, Mailgun's private key
// <32 hex>-<8 hex>-<8 hex>, Okta's API token 00 + 40, Twitch's token 30 of
// [a-z0-9], a Cosmos DB key 88 base64, PagerDuty's API key 20.
bool provider_shape(std::string_view provider, std::string_view v) {
  if (provider == "heroku") return uuid_shape(v) && !time_uuid(v);
  if (provider == "datadog") return hex_of(v, 32) || hex_of(v, 40);
  if (provider == "twitch") return v.size() == 30 && std::ranges::all_of(v, lower_alnum);
  if (provider == "mailgun") {
    return v.size() == 50 && hex_of(v.substr(0, 32), 32) && v[32] == '-' && hex_of(v.substr(33, 8), 8) &&
           v[41] == '-' && hex_of(v.substr(42), 8);
  }
  if (provider == "okta") {
    return v.size() == 42 && v.starts_with("00") && std::ranges::all_of(v, [](char c) { return in_chars(Chars::alnum_dash, c); });
  }
  if (provider == "cosmos") {
    return v.size() == 88 && v.ends_with("==") && std::ranges::all_of(v.substr(0, 86), [](char c) { return in_chars(Chars::b64, c); });
  }
  if (provider == "pagerduty") {
    return v.size() == 20 && std::ranges::all_of(v, [](char c) { return in_chars(Chars::alnum_dash, c) || c == '+'; });
  }
  return hex_of(v, 32);  // twilio, algolia, azure openai, cognitive services
}

// The provider named just before a match ("HEROKU_API_KEY=": heroku), the
// nearest one if several are.
std::string_view provider_named(std::string_view text, size_t end) {

  const size_t from = end > 64 ? end - 64 : 0;
  thread_local std::string buf;
  const std::string_view name = lowercase(text.substr(from, end - from), &buf);
  size_t best_at = 0;
  std::string_view best;
  for (std::string_view p : kShapedProviders) {
    const size_t at = name.rfind(p);
    if (at != std::string_view::npos && (best.empty() || at > best_at)) {
      best = p;
      best_at = at;
    }
  }
  return best;
}

// A key with no prefix under a name holding its provider's name: found
// only in that provider's shape, random, not a placeholder or a count.
std::optional<Extracted> provider_value(const Rule& rule, std::string_view text, size_t end) {
  const std::string_view provider = provider_named(text, end);
  if (provider.empty()) return std::nullopt;
  const size_t value_end = grow(text, end, end, rule);
  if (value_end - end == rule.max_len) return std::nullopt;  // a longer run: something else
  const std::string_view value = text.substr(end, value_end - end);
  if (value.size() < rule.min_len || !provider_shape(provider, value)) return std::nullopt;
  if (placeholder(value) || filler_token(value) || counting_run(value) || typed_number_in(value) ||
      char_classes(value) < 2 || shannon_entropy(value) < 3.0) {
    return std::nullopt;
  }
  return Extracted{end, value_end, rule.severity, ""};
}

// The literal heads of every token rule, 3 characters or more, with a
// group of literal alternatives or a small class of letters spelled out
// ("dp.pt.", "dp.st.", "ATATT3", "ATCTT3", "r8_", "oy2", "sl.", "key-"): a
// value after a credential word that opens with one but failed its rule is
// that provider's token cut short or made up, not a token of unknown kind.
void expand_heads(std::string_view pattern, std::string head, std::vector<std::string>* out) {
  size_t i = 0;
  auto done = [&] {
    if (head.size() >= 3) out->push_back(head);
  };
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size() && std::string_view(".-/_$").find(pattern[i + 1]) != std::string_view::npos) {
      head += pattern[i + 1];
      i += 2;
    } else if (pattern.substr(i).starts_with("(?:")) {
      const size_t close = pattern.find(')', i);
      if (close == std::string_view::npos || pattern.substr(i + 3, close - i - 3).find_first_of("[(\\*+?{") != std::string_view::npos) {
        return done();
      }
      if (close + 1 < pattern.size() && std::string_view("?*{").find(pattern[close + 1]) != std::string_view::npos) return done();
      std::string_view alts = pattern.substr(i + 3, close - i - 3);
      for (size_t from = 0; from <= alts.size();) {
        size_t bar = alts.find('|', from);
        if (bar == std::string_view::npos) bar = alts.size();
        expand_heads(pattern.substr(close + 1), head + std::string(alts.substr(from, bar - from)), out);
        from = bar + 1;
      }
      return;
    } else if (c == '[') {
      const size_t close = pattern.find(']', i);
      const std::string_view set = close == std::string_view::npos ? "" : pattern.substr(i + 1, close - i - 1);
      const bool small = !set.empty() && set.size() <= 3 && std::ranges::all_of(set, is_alnum) &&
                         !(close + 1 < pattern.size() && std::string_view("?*{+").find(pattern[close + 1]) != std::string_view::npos);
      if (!small) return done();
      for (const char alt : set) expand_heads(pattern.substr(close + 1), head + alt, out);
      return;
    } else if (std::string_view("\\[](){}?*+|^$.").find(c) == std::string_view::npos) {
      head += c;
      ++i;
    } else {
      if (c == '?' || c == '*' || c == '{') head.pop_back();  // the last character was optional
      return done();
    }
  }
  done();
}

std::span<const std::string> token_heads() {
  static const std::vector<std::string> heads = [] {
    std::vector<std::string> out;
    for (const Rule& r : kRules) {
      if (r.id != "generic-secret" && r.extract == Extract::token && !r.lead) expand_heads(r.pattern, "", &out);
    }
    return out;
  }();
  return heads;
}

// "weatherbitSECRET ff9cfa3a...", "client secret 7Jq...", "pushbullet Access
// aa4a2c...": a credential word, spaces, then a token with no operator. The
// match ends 16 characters into the value. The value must be whole (a
// space, a quote or punctuation after it, not ':' as in "gpg: key
// 4AA4...: public key"), token-shaped (letters and digits, one long random
// run or a random UUID, no file name) and pass the generic rule's judgement
// of random values.
std::optional<Extracted> keyword_value(const Rule& rule, std::string_view text, size_t end) {
  if (end < 16) return std::nullopt;
  const size_t start = end - 16;
  size_t e = end;
  while (e < text.size() && e - start <= rule.max_len && key_char(text[e])) ++e;
  while (e > start && text[e - 1] == '.') --e;  // the end of a sentence
  if (e - start > rule.max_len || e - start < rule.min_len) return std::nullopt;
  if (e < text.size() && std::string_view(" \t\r\n\"'`,;)]}>").find(text[e]) == std::string_view::npos &&
      !(text[e] == '.' && (e + 1 == text.size() || text[e + 1] == ' ' || text[e + 1] == '\n'))) {
    return std::nullopt;
  }
  const std::string_view value = text.substr(start, e - start);
  // A UUID after "token" is as often a lock's, a page's or a request's
  // ("--lifecycle-action-token <uuid>"): only a random run says key here.
  if (!token_shaped(value, 16, false) || value.ends_with("NRAL")) return std::nullopt;  // NRAL: New Relic's licence
  for (std::string_view head : token_heads()) {
    if (value.starts_with(head)) return std::nullopt;
  }
  // "src/auth/token.ts", "v1.2.3": a path or a file, not a token.
  const size_t dot = value.rfind('.');
  if (value.find('/') != std::string_view::npos && dot != std::string_view::npos && value.size() - dot <= 5) {
    return std::nullopt;
  }
  // kubeadm's --token has its own rule, which judges its shape. The command
  // is looked for on the token's line, within kMaxKubeadmReach before it (not
  // back to the start of a line of a million tokens, from every one).
  constexpr size_t kMaxKubeadmReach = 1024;
  const size_t reach = start > kMaxKubeadmReach ? start - kMaxKubeadmReach : 0;
  const size_t line = text.substr(reach, start - reach).rfind('\n');
  const size_t from = line == std::string_view::npos ? reach : reach + line + 1;
  if (contains_nocase(text.substr(from, start - from), "kubeadm")) return std::nullopt;
  // The keyword (what the pattern matched before the spaces) names the value.
  auto skip_blanks = [&](size_t at) {
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t')) --at;
    return at;
  };
  size_t kw_end = skip_blanks(start);
  const bool after_operator = kw_end > 0 && (text[kw_end - 1] == ':' || text[kw_end - 1] == '=');
  if (after_operator) kw_end = skip_blanks(kw_end - 1);
  size_t kw_start = kw_end;
  while (kw_start > 0 && kw_end - kw_start < 64 && name_char(text[kw_start - 1])) --kw_start;
  // "API Key: <v>" names a credential; "Primary key:", "Partition key:",
  // "SSH key:" name a key of data or a public one, told by the word before
  // key as for a name ending in key.
  if (after_operator && kw_end - kw_start == 3 && contains_nocase(text.substr(kw_start, 3), "key")) {
    const size_t word_end = skip_blanks(kw_start);
    size_t word_start = word_end;
    while (word_start > 0 && word_end - word_start < 64 && is_alnum(text[word_start - 1])) --word_start;
    if (word_start == word_end || !ends_in_key_word(std::string(text.substr(word_start, word_end - word_start)) + "_key")) {
      return std::nullopt;
    }
  }
  // "public key AAAA...", "host key ...": a public key or an id, named so.
  const std::string_view before = text.substr(kw_start > 16 ? kw_start - 16 : 0, kw_start > 16 ? 16 : kw_start);
  for (std::string_view w : {"public", "host", "pub", "fingerprint", "gpg", "pgp"}) {
    if (contains_nocase(before, w)) return std::nullopt;
  }
  return judge_generic(rule, text, start, e, true, "secret");
}

// Docker's config.json: "auth" is base64 of "user:password".
std::optional<Extracted> docker_auth(const Rule& rule, std::string_view text, size_t end) {
  size_t e = end;
  while (e < text.size() && e - end < rule.max_len && (in_chars(Chars::b64, text[e]) || text[e] == '=')) ++e;
  // The closing quote, escaped when the config is a string in another file
  // (GitLab's DOCKER_AUTH_CONFIG="{\"auths\": ...}").
  if (e - end < rule.min_len || e >= text.size() || (text[e] != '"' && text[e] != '\\')) return std::nullopt;
  std::string decoded;
  const std::string_view v = text.substr(end, e - end);
  if (!decode_base64_text(v, &decoded) || decoded.find(':') == std::string::npos) return std::nullopt;
  switch (judge_password(std::string_view(decoded).substr(decoded.find(':') + 1))) {
    case Password::none: return std::nullopt;
    case Password::stand_in: return Extracted{end, e, Severity::warning, "a test's placeholder password?"};
    case Password::real: break;
  }
  return Extracted{end, e, rule.severity, ""};
}

// A JWT segment that decodes (base64url, no padding) to a JSON object.
bool json_segment(std::string_view segment, std::string* decoded) {
  decoded->resize(segment.size());
  size_t n = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(decoded->data()), decoded->size(), segment.data(),
                        segment.size(), nullptr, &n, nullptr, sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0) {
    return false;
  }
  decoded->resize(n);
  std::string_view d = *decoded;
  while (!d.empty() && (d.back() == ' ' || d.back() == '\n' || d.back() == '\r')) d.remove_suffix(1);
  return d.starts_with('{') && d.ends_with('}');
}

// A signature no signer made: a word ("signature", "SIGNATURE", "sig_here")
// or fewer than 16 characters, where an HMAC-SHA256 alone takes 43.
bool placeholder_signature(std::string_view sig) {
  if (sig.size() < 16) return true;
  const bool lower = std::ranges::all_of(sig, [](char c) { return (c >= 'a' && c <= 'z') || c == '_' || c == '-'; });
  const bool upper = std::ranges::all_of(sig, [](char c) { return (c >= 'A' && c <= 'Z') || c == '_' || c == '-'; });
  return lower || upper || placeholder(sig) || filler_token(sig);
}

// The claims of the example tokens jwt.io, RFC 7519 and the JWT libraries'
// READMEs publish ({"sub":"1234567890","name":"John Doe",...},
// {"iss":"joe",...}, {"some":"payload"}), signed with a published secret:
// documented examples, never high.
bool documented_example_claims(std::string_view payload) {
  if (payload.find("\"1234567890\"") != std::string_view::npos &&
      payload.find("\"John Doe\"") != std::string_view::npos) {
    return true;
  }
  // RFC 7519's own example: {"iss":"joe", ... "http://example.com/is_root":true}
  if (payload.find("\"joe\"") != std::string_view::npos &&
      payload.find("http://example.com/is_root") != std::string_view::npos) {
    return true;
  }
  // The libraries' READMEs: PyJWT's {"some": "payload"}, jsonwebtoken's
  // {"foo":"bar","iat":...}: one placeholder claim and at most a time.
  if (payload.size() > 64) return false;
  std::string compact;
  for (char c : payload) {
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') compact += c;
  }
  for (std::string_view pair : {"\"some\":\"payload\"", "\"foo\":\"bar\"", "\"hello\":\"world\""}) {
    if (compact.find(pair) != std::string::npos) return true;
  }
  return false;
}

// The payload's top-level claims, or none when it is not a JSON object.
std::optional<simdjson::dom::object> claims_of(std::string_view payload) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object claims;
  if (parser.parse(payload.data(), payload.size(), true).get(claims)) return std::nullopt;
  return claims;
}

// A token's expiry (RFC 7519 "exp", seconds since 1970) more than 30 days
// before the scan: nothing accepts it any more, whoever reads it (the
// pyjwt docs' Auth0 token of 2019). A token without exp, or one that
// expired days ago (while the run was going on), is judged as any other.
bool long_expired(std::string_view payload) {
  const auto claims = claims_of(payload);
  double exp = 0;
  if (!claims || (*claims)["exp"].get(exp)) return false;
  constexpr double kGrace = 30.0 * 24 * 3600;
  return exp + kGrace < static_cast<double>(std::time(nullptr));
}

// JWT libraries' docs and tests sign a placeholder claim and at most a
// time ({"test":1234}, {"some":"payload"}, {"foo":"bar","iat":...}): a
// claim named by a word that stands in for data, and no other.
bool placeholder_claims(std::string_view payload) {
  static constexpr std::string_view kStandIns[] = {"test", "foo", "bar", "baz", "some", "hello", "example",
                                                   "sample", "demo", "dummy", "fake", "mock"};
  static constexpr std::string_view kTimes[] = {"iat", "exp", "nbf"};
  const auto claims = claims_of(payload);
  if (!claims || payload.size() > 96) return false;
  size_t stand_ins = 0;
  for (auto [key, value] : *claims) {
    if (std::ranges::find(kStandIns, key) != std::end(kStandIns)) ++stand_ins;
    else if (std::ranges::find(kTimes, key) == std::end(kTimes)) return false;
  }
  return stand_ins > 0;
}

// RFC 2606's and RFC 6761's example names as the token's parties or claim
// names ("iss":"urn:example:issuer", "aud":"https://api.example.com",
// {"urn:example:claim":true}, the jose library's docs and tests): no
// service issues tokens for a name reserved for documentation.
bool example_parties(std::string_view payload) {
  const auto claims = claims_of(payload);
  if (!claims) return false;
  auto example_name = [](std::string_view v) {
    if (v.starts_with("urn:example:")) return true;
    const size_t scheme = v.find("://");
    std::string_view host = scheme == std::string_view::npos ? std::string_view{} : v.substr(scheme + 3);
    host = host.substr(0, host.find_first_of("/:?#"));
    for (std::string_view tld : {"example.com", "example.org", "example.net"}) {
      if (host == tld || (host.ends_with(tld) && host[host.size() - tld.size() - 1] == '.')) return true;
    }
    return false;
  };
  for (auto [key, value] : *claims) {
    std::string_view party;
    if (example_name(key)) return true;
    if ((key == "iss" || key == "aud") && !value.get(party) && example_name(party)) return true;
  }
  return false;
}

// The JWT secrets published as defaults: the Supabase CLI's local stack
// and Supabase's self-hosting .env.example (the anon and service_role
// keys every `supabase start` prints), jwt.io's debugger, and "secret",
// the libraries' examples. A token they sign anyone can mint.
bool signed_with_published_secret(std::string_view header, std::string_view signed_part, std::string_view signature) {
  if (header.find("\"HS256\"") == std::string_view::npos) return false;
  static constexpr std::string_view kSecrets[] = {"super-secret-jwt-token-with-at-least-32-characters-long",
                                                  "your-super-secret-jwt-token-with-at-least-32-characters-long",
                                                  "your-256-bit-secret", "secret"};
  for (std::string_view secret : kSecrets) {
    std::array<unsigned char, crypto_auth_hmacsha256_BYTES> mac{};
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(secret.data()), secret.size());
    crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(signed_part.data()), signed_part.size());
    crypto_auth_hmacsha256_final(&st, mac.data());
    std::array<char, sodium_base64_ENCODED_LEN(crypto_auth_hmacsha256_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)>
        b64{};
    sodium_bin2base64(b64.data(), b64.size(), mac.data(), mac.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    if (signature == std::string_view(b64.data())) return true;
  }
  return false;
}

bool spend_reading(std::string_view text, size_t bytes);

// Bumped by note_new_scan: what memo_run_end remembers of a text holds only
// until the next scan, since a buffer may then hold another text of the
// same size at the same address.
thread_local uint64_t scans_on_this_thread = 0;

// Where the run of `in_run` characters that holds `from` ends. Candidates
// crowded into one run (a line of "eyJ...-eyJ...-", of "ASIA...-ASIA...")
// each read it to its end; remembered per text, each run is read once. A
// few runs are kept (a candidate's fields span several), and the type of
// `in_run` (a lambda of its caller) keeps each caller's own.
template <typename InRun>
size_t memo_run_end(std::string_view text, size_t from, InRun in_run) {
  struct Run {
    size_t begin = 0, end = 0;
  };
  constexpr size_t kRuns = 8;
  thread_local const char* data = nullptr;
  thread_local size_t size = 0, next = 0;
  thread_local uint64_t scan = 0;
  thread_local std::array<Run, kRuns> runs{};
  const uint64_t now = scans_on_this_thread;
  if (text.data() != data || text.size() != size || scan != now) {
    data = text.data(), size = text.size(), scan = now;
    runs.fill(Run{SIZE_MAX, SIZE_MAX});
  }
  for (const Run& r : runs) {
    if (r.begin <= from && from <= r.end) return r.end;
  }
  size_t end = from;
  while (end < text.size() && in_run(text[end])) ++end;
  runs[next] = Run{from, end};
  next = (next + 1) % kRuns;
  return end;
}

// A JWT's header is a few hundred bytes (a certificate chain in x5c a few
// KiB); longer, a run of base64url is no header.
constexpr size_t kMaxJwtHeader = 16 << 10;

// header.payload.signature (RFC 7519), the header and payload base64url
// JSON objects. "header.payload." is an unsigned JWT (alg none); a bare
// "header.payload" has lost its signature but still carries its claims.
std::optional<Extracted> jwt(std::string_view text, size_t start) {
  // Each segment's run is read once for all the candidates in it (a run of
  // "eyJ...-" is a candidate every 11 bytes); a candidate whose header has
  // no dot after it, or a header too long to be one, reads nothing more.
  const auto in_header = [](char c) { return in_chars(Chars::alnum_dash, c); };
  const auto in_payload = [](char c) { return in_chars(Chars::alnum_dash, c); };
  const auto in_signature = [](char c) { return in_chars(Chars::alnum_dash, c); };
  size_t end = memo_run_end(text, start, in_header);
  if (end >= text.size() || text[end] != '.' || end - start > kMaxJwtHeader) return std::nullopt;
  end = memo_run_end(text, end + 1, in_payload);
  if (end < text.size() && text[end] == '.') end = memo_run_end(text, end + 1, in_signature);
  std::string_view t = text.substr(start, end - start);
  while (!t.empty() && t.back() == '.') t.remove_suffix(1);
  const size_t d1 = t.find('.'), d2 = d1 == std::string_view::npos ? d1 : t.find('.', d1 + 1);
  if (d1 == std::string_view::npos || d1 < 10 || t.substr(d1 + 1, 3) != "eyJ") return std::nullopt;
  // Headers longer than real ones are charged to the text's reading budget.
  if (d1 > 1024 && !spend_reading(text, d1)) return std::nullopt;
  std::string header, payload;
  // The header is ASCII JSON (RFC 7515 parameter names and values). An
  // object with a byte or two that are not, before claims and a signature,
  // is a token damaged in the copy (or edited by hand): still its claims,
  // not high. A header cut short or mostly binary is no JWT's. (Judged
  // before the payload, which the candidates of one header share.)
  if (!json_segment(t.substr(0, d1), &header)) return std::nullopt;
  const auto binary = std::count_if(header.begin(), header.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x7f || (static_cast<unsigned char>(c) < 0x20 && !std::isspace(c));
  });
  if (binary > 2) return std::nullopt;
  const size_t payload_end = d2 == std::string_view::npos ? t.size() : d2;
  if (payload_end - d1 > 4096 && !spend_reading(text, payload_end - d1)) return std::nullopt;
  if (!json_segment(t.substr(d1 + 1, payload_end - d1 - 1), &payload)) return std::nullopt;
  const bool header_ok = binary == 0;
  if (d2 != std::string_view::npos) {
    const std::string_view signature = t.substr(d2 + 1);
    if (signature.size() < 8) return std::nullopt;
    if (!header_ok) {
      if (signature.size() < 16) return std::nullopt;
      return Extracted{start, start + t.size(), Severity::warning, "the header is not ASCII JSON: damaged?"};
    }
    if (placeholder_signature(signature)) {
      return Extracted{start, start + t.size(), Severity::warning, "the signature is a placeholder"};
    }
    if (documented_example_claims(payload) || placeholder_claims(payload) || example_parties(payload)) {
      return Extracted{start, start + t.size(), Severity::warning, "a JWT library's documented example claims"};
    }
    if (signed_with_published_secret(header, t.substr(0, d2), signature)) {
      return Extracted{start, start + t.size(), Severity::warning,
                       "signed with a published default secret (Supabase's local stack, jwt.io)"};
    }
    if (long_expired(payload)) {
      return Extracted{start, start + t.size(), Severity::warning, "expired long ago: no longer accepted"};
    }
    return Extracted{start, start + t.size(), Severity::high, ""};
  }
  if (!header_ok) return std::nullopt;
  if (end > start + t.size() && contains_nocase(header, "none")) {
    const bool example = long_expired(payload) || example_parties(payload) || placeholder_claims(payload);
    const Severity severity = example ? Severity::warning : Severity::high;
    return Extracted{start, start + t.size() + 1, severity, "unsigned (alg none)"};
  }
  return Extracted{start, start + t.size(), Severity::warning, "no signature"};
}

// "123456789:AA...": 8 to 10 digits of id (the match holds the last), and
// 34 or 35 characters after the colon, the whole word.
std::optional<Extracted> bot_token(std::string_view text, size_t start, size_t end) {
  size_t left = start + 1;
  while (left > 0 && left + 10 > start + 1 && text[left - 1] >= '0' && text[left - 1] <= '9') --left;
  // The Bot API's URLs hold the token after "bot": https://api.telegram.org/bot<token>/getMe.
  const bool in_url = left >= 4 && text.substr(left - 4, 4) == "/bot";
  if (start + 1 - left < 8 || (left > 0 && !in_url && in_chars(Chars::alnum_dash, text[left - 1]))) return std::nullopt;
  size_t right = end;
  if (right < text.size() && in_chars(Chars::alnum_dash, text[right])) ++right;
  if (right < text.size() && in_chars(Chars::alnum_dash, text[right])) return std::nullopt;
  if (filler_token(text.substr(start + 2, right - start - 2))) return std::nullopt;
  return Extracted{left, right, Severity::high, ""};
}

std::optional<Extracted> discord(std::string_view text, size_t start, size_t end) {
  size_t left = start;
  while (left > 0 && start - left < 26 && in_chars(Chars::alnum_dash, text[left - 1])) --left;
  if (start - left < 24 || (text[left] != 'M' && text[left] != 'N' && text[left] != 'O')) return std::nullopt;
  if (left > 0 && in_chars(Chars::alnum_dash, text[left - 1])) return std::nullopt;
  size_t right = end;
  while (right < text.size() && right - end < 11 && in_chars(Chars::alnum_dash, text[right])) ++right;
  if (right < text.size() && in_chars(Chars::alnum_dash, text[right])) return std::nullopt;
  return Extracted{left, right, Severity::high, ""};
}

std::optional<Extracted> azure(std::string_view text, size_t start, size_t end) {
  auto ok = [](char c) { return is_alnum(c) || c == '_' || c == '~' || c == '.'; };
  auto head = [](char c) { return is_alnum(c) || c == '_' || c == '.' || c == '-' || c == '~'; };
  if (start < 3 || !head(text[start - 1]) || !head(text[start - 2]) || !head(text[start - 3])) return std::nullopt;
  if (start > 3 && (ok(text[start - 4]) || text[start - 4] == '-')) return std::nullopt;  // inside a longer run
  size_t right = end;
  while (right < text.size() && right - end < 3 && (ok(text[right]) || text[right] == '-')) ++right;
  // A secret is 40 characters: more of its characters after it make a longer
  // run, something else (a '.' closing a sentence excepted).
  const bool sentence_end = right < text.size() && text[right] == '.' &&
                            (right + 1 == text.size() || !(ok(text[right + 1]) || text[right + 1] == '-'));
  if (right < text.size() && (ok(text[right]) || text[right] == '-') && !sentence_end) return std::nullopt;
  if (filler_token(text.substr(start - 3, right - start + 3))) return std::nullopt;
  return Extracted{start - 3, right, Severity::high, ""};
}

// PuTTY's private key file (.ppk, versions 2 and 3) as PuTTYgen writes it:
// "PuTTY-User-Key-File-3: <algorithm>", "Encryption:", "Comment:",
// "Public-Lines: n" and n lines of base64, (version 3, encrypted) the
// Argon2 lines, "Private-Lines: n" and n lines of base64 (the private blob,
// encrypted or not), "Private-MAC: <hex>"; as written (CRLF, indented, or
// with JSON's "\n" escapes still in it). The finding runs from the first
// line to the MAC line (to the last private line when the MAC was cut off).
constexpr size_t kMaxPuttyKey = 64 << 10, kMaxPuttyLines = 512, kMaxPuttyHeader = 256;

struct KeyLine {
  size_t begin = 0, end = 0, next = 0;  // its content [begin, end), where the next line starts
};

// The line at `pos` (up to a line feed or an escaped "\n"), without its
// indentation and its CR (or escaped "\r").
KeyLine key_line(std::string_view text, size_t pos) {
  size_t cut = text.find_first_of("\n\\", pos);  // read once, up to the first line end of either kind
  while (cut != std::string_view::npos && text[cut] == '\\' && (cut + 1 == text.size() || text[cut + 1] != 'n')) {
    cut = text.find_first_of("\n\\", cut + 1);
  }
  if (cut == std::string_view::npos) cut = text.size();
  KeyLine line{pos, cut, cut == text.size() ? cut : cut + (text[cut] == '\n' ? 1 : 2)};
  while (line.begin < line.end && (text[line.begin] == ' ' || text[line.begin] == '\t')) ++line.begin;
  if (line.end > line.begin && text[line.end - 1] == '\r') --line.end;
  if (line.end >= line.begin + 2 && text.substr(line.end - 2, 2) == "\\r") line.end -= 2;
  return line;
}

bool base64_line(std::string_view v) {
  return !v.empty() &&
         v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == std::string_view::npos;
}

// "Private-Lines: n": n, or 0 when the line is another.
size_t private_lines(std::string_view v) {
  constexpr std::string_view kName = "Private-Lines:";
  if (!v.starts_with(kName)) return 0;
  v.remove_prefix(kName.size());
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string_view::npos) return 0;
  size_t n = 0;
  for (const char c : v) n = n * 10 + static_cast<size_t>(c - '0');
  return n <= kMaxPuttyLines ? n : 0;
}

std::optional<Extracted> putty_key(std::string_view text, size_t start) {
  const std::string_view window = text.substr(0, std::min(text.size(), start + kMaxPuttyKey));
  auto content = [&](const KeyLine& l) { return window.substr(l.begin, l.end - l.begin); };
  // The header lines and the public blob, up to "Private-Lines: n". A blank
  // line or another key's header first: the name in code or prose, no file.
  // The header line is short ("...: ssh-ed25519"): looked for in its first
  // bytes only, so that a line of a million headers costs no more than one.
  const std::string_view head = window.substr(0, std::min(window.size(), start + kMaxPuttyHeader));
  KeyLine line = key_line(head, start);
  if (line.next >= head.size()) return std::nullopt;
  size_t count = 0;
  for (size_t seen = 0; count == 0; ++seen) {
    if (line.next >= window.size() || seen == kMaxPuttyLines) return std::nullopt;
    line = key_line(window, line.next);
    const std::string_view v = content(line);
    // Any line that holds a header ends the walk: the lines of a key hold
    // none, and a run of headers on every line is walked once, not from each.
    if (v.empty() || v.find("PuTTY-User-Key-File-") != std::string_view::npos) return std::nullopt;
    count = private_lines(v);
  }
  std::string blob;
  size_t end = line.end;
  for (size_t i = 0; i < count && line.next < window.size(); ++i) {
    const KeyLine next = key_line(window, line.next);
    if (!base64_line(content(next))) break;  // cut short
    line = next;
    blob.append(content(line));
    end = line.end;
  }
  if (line.next < window.size()) {
    const KeyLine mac = key_line(window, line.next);
    if (content(mac).starts_with("Private-MAC:") || content(mac).starts_with("Private-Hash:")) end = mac.end;
  }
  // "xxxx", "AAAA...", EXAMPLE, base64 of text: a template, not a key.
  std::string decoded;
  if (blob.empty() || filler_token(blob) || decode_base64_text(blob, &decoded)) return std::nullopt;
  // The smallest private blob, Ed25519's, takes 48 characters.
  if (blob.size() >= 40) return Extracted{start, end, Severity::high, ""};
  return Extracted{start, end, Severity::warning, "a short private blob: a truncated or test key?"};
}

// A private key block: "-----BEGIN <label>-----", a body (RFC 7468 base64,
// OpenSSH or OpenPGP armor, possibly with "Name: value" header lines, and
// as written: indented, CRLF, or with JSON's "\n" escapes still in it),
// "-----END <label>-----". A block whose END never comes (cut output) runs
// to its first blank line after the body, to a line holding "-----", or to
// the end of the text.
constexpr size_t kMaxPemBlock = 64 << 10;

// Where the body's next line break is, and how long it is: a real LF, or
// a JSON escape of one at any depth (backslashes, then `r` or `n`: a CRLF
// PEM inside JSON text writes its breaks as the escapes `\r\n`, and JSON
// inside a JSON string as `\\r\\n`). Base64 holds no backslash, so
// nothing of the key is taken for a break.
std::pair<size_t, size_t> pem_line_break(std::string_view body, size_t from) {
  for (size_t i = from; i < body.size(); ++i) {
    if (body[i] == '\n') return {i, 1};
    if (body[i] != '\\') continue;
    size_t j = i;
    while (j < body.size() && body[j] == '\\') ++j;
    if (j < body.size() && (body[j] == 'n' || body[j] == 'r')) return {i, j + 1 - i};
    i = j - 1;
  }
  return {std::string_view::npos, 0};
}

// The body's characters that carry data: whitespace, line breaks (real or
// escaped, LF or CRLF), RFC 4716 continuation lines and "Name: value" armor
// headers removed.
std::string pem_payload(std::string_view body) {
  std::string out;
  size_t i = 0;
  bool continued = false;  // the header line before ended with a backslash
  while (i < body.size()) {
    const auto [cut, width] = pem_line_break(body, i);
    std::string_view line = body.substr(i, cut == std::string_view::npos ? std::string_view::npos : cut - i);
    i = cut == std::string_view::npos ? body.size() : cut + width;
    const bool header = continued || line.find(": ") != std::string_view::npos;  // Proc-Type, DEK-Info, Comment
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    continued = header && line.ends_with('\\');
    if (header) continue;
    for (char c : line) {
      if (c != ' ' && c != '\t' && c != '\r') out += c;
    }
  }
  return out;
}

// Where an unterminated block's body ends: the end of its last line before
// a blank line, a line with "-----", `until` (the next block's BEGIN) or the
// end of the text.
size_t unterminated_end(std::string_view text, size_t from, size_t until) {
  const size_t limit = std::min({text.size(), from + kMaxPemBlock, until});
  size_t end = from, pos = from;
  bool body = false;
  while (pos < limit) {
    size_t nl = text.substr(0, limit).find('\n', pos);  // never past the limit: a huge line is read once
    if (nl == std::string_view::npos) nl = limit;
    std::string_view line = text.substr(pos, nl - pos);
    if (line.find("-----") != std::string_view::npos) break;
    const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (blank && body) break;
    if (!blank) {
      body = true;
      end = pos + line.size() - (line.ends_with('\r') ? 1 : 0);
    }
    pos = nl + 1;
  }
  return end;
}

std::optional<Extracted> key_body(std::string_view body, size_t start, size_t block_end);

// `needle` in text[from, until), npos if not there: the block's searches
// stop at a bound, so that a text of many BEGIN lines and no END is not
// read to its end once per line.
size_t find_before(std::string_view text, std::string_view needle, size_t from, size_t until) {
  until = std::min(until, text.size());
  if (from >= until) return std::string_view::npos;
  return text.substr(0, until).find(needle, from);
}

std::optional<Extracted> pem_block(std::string_view text, size_t start) {
  const size_t header_close = find_before(text, "-----", start + 10, start + 64 + 5);
  if (header_close == std::string_view::npos) return std::nullopt;
  const size_t body_from = header_close + 5;
  // A block ends at its END line, before the next block's BEGIN, within
  // kMaxPemBlock: the END is looked for only up to the next BEGIN, so
  // crowded BEGIN lines cost the bytes between them, not kMaxPemBlock each.
  const size_t next_begin = find_before(text, "-----BEGIN", body_from, body_from + kMaxPemBlock + 8);
  const size_t end_marker = find_before(text, "-----END", body_from, std::min(next_begin, body_from + kMaxPemBlock + 8));
  size_t block_end = 0, body_end = 0;
  if (end_marker != std::string_view::npos) {
    const size_t close = find_before(text, "-----", end_marker + 8, end_marker + 64 + 5);
    body_end = end_marker;
    if (close != std::string_view::npos) {
      block_end = close + 5;
    } else {  // "-----END PRIVATE KEY----": the END line as far as it goes
      block_end = end_marker + 8;
      while (block_end < text.size() && ((text[block_end] >= 'A' && text[block_end] <= 'Z') || text[block_end] == ' ' ||
                                         text[block_end] == '-')) {
        ++block_end;
      }
    }
  } else {
    block_end = body_end = unterminated_end(text, body_from, next_begin);
  }
  return key_body(text.substr(body_from, body_end - body_from), start, block_end);
}

// The judgement of an armoured key's body (PEM, OpenSSH, PGP, RFC 4716).
std::optional<Extracted> key_body(std::string_view body, size_t start, size_t block_end) {
  const std::string payload = pem_payload(body);
  // "...", "xxx", "***", a few characters: a template, not a key. Key
  // material is base64 of binary data; a body that decodes to text is an
  // example ("YWJj..." for "abc...").
  if (payload.size() < 12 || payload.find("...") != std::string::npos ||
      payload.find_first_not_of("xX*.-_<>") == std::string::npos) {
    return std::nullopt;
  }
  // A documented example: AWS's CLI docs print private keys whose bodies
  // say EXAMPLE (a random body holds it about once in 10^12 keys).
  if (payload.find("EXAMPLE") != std::string::npos) return std::nullopt;
  const bool base64 = payload.find_first_not_of(
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == std::string::npos;
  std::string decoded;
  if (base64 && decode_base64_text(payload, &decoded)) return std::nullopt;
  // The smallest private key, Ed25519 in PKCS#8, is 48 bytes: 64 base64
  // characters. A shorter body is a key's first line, cut for a test.
  if (base64 && payload.size() >= 64) return Extracted{start, block_end, Severity::high, ""};
  return Extracted{start, block_end, Severity::warning,
                   base64 ? "a short body: a truncated or test key?" : "its body is not base64: a test or example key?"};
}

// Bytes read around the candidates of one text (a JWK's object, a DER run
// and its lines): a bounded multiple of the text's size, so that a text of
// many candidates (a million "d" members in one object, a head on every
// line of a wrapped run) is not read again for each. Real texts spend a
// few times their size at most.
bool spend_reading(std::string_view text, size_t bytes) {
  thread_local const char* data = nullptr;
  thread_local size_t size = 0, spent = 0;
  if (text.data() != data || text.size() != size) data = text.data(), size = text.size(), spent = 0;
  spent += bytes;
  return spent <= 32 * size + (1 << 20);
}

// An RFC 4716 / ssh.com private key ("---- BEGIN SSH2 ENCRYPTED PRIVATE
// KEY ----", PuTTYgen's "Export ssh.com key"): four dashes and spaces, a
// "Comment:" header (continued by a trailing backslash), base64 of the key
// blob, "---- END SSH2 ENCRYPTED PRIVATE KEY ----". Judged as a PEM body.
std::optional<Extracted> ssh2_block(std::string_view text, size_t end) {
  const size_t from = end > 64 ? end - 64 : 0;
  const size_t begin = text.substr(from, end - from).rfind("---- BEGIN SSH2");
  if (begin == std::string_view::npos) return std::nullopt;
  const size_t start = from + begin;
  // As for PEM: the END within kMaxPemBlock and before the next BEGIN.
  const size_t next_begin = find_before(text, "---- BEGIN SSH2", end, end + kMaxPemBlock);
  const size_t end_marker = find_before(text, "---- END SSH2", end, std::min(next_begin, end + kMaxPemBlock));
  size_t block_end = 0, body_end = 0;
  if (end_marker != std::string_view::npos) {
    body_end = end_marker;
    const size_t close = find_before(text, " ----", end_marker + 13, end_marker + 64 + 5);
    block_end = close != std::string_view::npos ? close + 5 : end_marker + 13;
  } else {
    block_end = body_end = unterminated_end(text, end, next_begin);
  }
  return key_body(text.substr(end, body_end - end), start, block_end);
}

// JSON Web Keys (RFC 7517, 7518, 8037). A private key is an object whose
// "kty" says RSA, EC or OKP and which holds "d" (RSA also the factors "p",
// "q" and their CRT values "dp", "dq", "qi", each enough to rebuild the key),
// or an "oct" key's "k" (a symmetric key). A public JWK has none of these.
constexpr size_t kMaxJwk = 16 << 10;

bool base64url_char(char c) { return is_alnum(c) || c == '-' || c == '_'; }

// The innermost object around `at`: the offsets of its '{' and its '}'
// (a key's members are base64url and names: they hold no braces).
std::optional<std::pair<size_t, size_t>> enclosing_object(std::string_view text, size_t at) {
  size_t open = std::string_view::npos, i = at;
  int depth = 0;
  for (const size_t stop = at > kMaxJwk ? at - kMaxJwk : 0; i-- > stop;) {
    if (text[i] == '}') ++depth;
    if (text[i] == '{' && depth-- == 0) {
      open = i;
      break;
    }
  }
  if (!spend_reading(text, at - i) || open == std::string_view::npos) return std::nullopt;
  depth = 0;
  for (i = at; i < std::min(text.size(), at + kMaxJwk); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && depth-- == 0) break;
  }
  // The object is read again for its members ("kty", "x", "n").
  if (!spend_reading(text, 4 * (i - open)) || i >= std::min(text.size(), at + kMaxJwk)) return std::nullopt;
  return std::pair{open, i + 1};
}

// The string value of the member `name` of `object` (its braces included),
// at the object's own level: members of objects and arrays inside are not
// its own.
std::optional<std::string_view> member_string(std::string_view object, std::string_view name) {
  int depth = 0;
  for (size_t i = 0; i < object.size(); ++i) {
    const char c = object[i];
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (depth != 1 || (c != '"' && c != '\'') || object.substr(i + 1, name.size()) != name ||
        i + 1 + name.size() >= object.size() || object[i + 1 + name.size()] != c) {
      continue;
    }
    size_t j = object.find_first_not_of(" \t\r\n", i + 2 + name.size());
    if (j == std::string_view::npos || object[j] != ':') continue;
    j = object.find_first_not_of(" \t\r\n", j + 1);
    if (j == std::string_view::npos || (object[j] != '"' && object[j] != '\'')) continue;
    const size_t close = object.find(object[j], j + 1);
    if (close == std::string_view::npos) return std::nullopt;
    return object.substr(j + 1, close - j - 1);
  }
  return std::nullopt;
}

// Whether `name` is a private member of a key of type `kty`, and the value
// has the size the key's public part gives it: an EC or OKP key's "d" is as
// long as its "x"; an RSA key's members are at least half its modulus "n"
// (the factors and CRT values) and the modulus 512 bits or more; an oct
// key's "k" 128 bits or more.
bool jwk_private_value(std::string_view object, std::string_view name, std::string_view value) {
  const auto kty = member_string(object, "kty");
  if (!kty) return false;
  if (*kty == "oct") return name == "k" && value.size() >= 22;
  if (*kty == "EC" || *kty == "OKP") {
    const auto x = member_string(object, "x");
    return name == "d" && x && value.size() + 2 >= x->size() && value.size() <= x->size() + 2;
  }
  if (*kty == "RSA") {
    const auto n = member_string(object, "n");
    return name != "k" && n && n->size() >= 86 && value.size() + 4 >= n->size() / 2 && value.size() <= n->size() + 4;
  }
  return false;
}

// The published example keys of the JOSE RFCs (RFC 7515 A.2 and A.3, RFC
// 7517 A.2, RFC 8037 A.1), copied into every JOSE library's docs and tests:
// reported, never high. Told by their public part ("x", "n"), which all of
// a key's private members share.
bool rfc_example_jwk(std::string_view object) {
  const auto x = member_string(object, "x"), n = member_string(object, "n");
  for (std::string_view f : {"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4", "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                             "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78L",
                             "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0"}) {
    if ((x && x->starts_with(f)) || (n && n->starts_with(f))) return true;
  }
  return false;
}

std::optional<Extracted> jwk_member(const Rule& rule, std::string_view text, size_t end) {
  const size_t value_start = end - rule.min_len;  // the pattern's 20 value characters
  const char quote = text[value_start - 1];
  size_t value_end = end;
  while (value_end < text.size() && value_end - value_start < kMaxJwk && base64url_char(text[value_end])) ++value_end;
  if (value_end >= text.size() || text[value_end] != quote) return std::nullopt;
  // The member's name: back over the quote, spaces, ':' and spaces.
  size_t name_end = text.find_last_not_of(" \t\r\n", value_start - 2);
  if (name_end == std::string_view::npos || text[name_end] != ':') return std::nullopt;
  name_end = text.find_last_not_of(" \t\r\n", name_end - 1);
  const size_t name_start = name_end == std::string_view::npos ? name_end : text.rfind(text[name_end], name_end - 1);
  if (name_start == std::string_view::npos) return std::nullopt;
  const std::string_view name = text.substr(name_start + 1, name_end - name_start - 1);
  const std::string_view value = text.substr(value_start, value_end - value_start);
  const auto span = enclosing_object(text, value_start);
  if (!span) return std::nullopt;
  const std::string_view object = text.substr(span->first, span->second - span->first);
  if (!jwk_private_value(object, name, value) || filler_token(value) || shannon_entropy(value) < 3.0) {
    return std::nullopt;
  }
  if (rfc_example_jwk(object)) return Extracted{value_start, value_end, Severity::warning, "a JOSE RFC's example key"};
  return Extracted{value_start, value_end, rule.severity, ""};
}

// DER (X.690): a tag, a length (short, or 0x81/0x82 and 1 or 2 bytes), the
// content. Reads one element at `at`; false if it runs past `size`.
struct Der {
  uint8_t tag = 0;
  size_t content = 0, end = 0;
};
bool read_der(std::string_view der, size_t at, Der* out) {
  if (at + 2 > der.size()) return false;
  out->tag = static_cast<uint8_t>(der[at]);
  size_t len = static_cast<uint8_t>(der[at + 1]), head = 2;
  if (len == 0x81 || len == 0x82) {
    const size_t n = len - 0x80;
    if (at + 2 + n > der.size()) return false;
    len = 0;
    for (size_t i = 0; i < n; ++i) len = len << 8 | static_cast<uint8_t>(der[at + 2 + i]);
    head += n;
  } else if (len > 0x7f) {
    return false;
  }
  out->content = at + head;
  out->end = out->content + len;
  return out->end <= der.size();
}

// The elements of a SEQUENCE's content, in order (at most `max`); false if
// they do not fill it exactly.
bool der_children(std::string_view der, const Der& seq, std::vector<Der>* out, size_t max) {
  for (size_t at = seq.content; at < seq.end;) {
    Der child;
    if (out->size() == max || !read_der(der, at, &child) || child.end > seq.end) return false;
    out->push_back(child);
    at = child.end;
  }
  return true;
}

// PKCS#8's EncryptedPrivateKeyInfo (RFC 5958), whole: SEQUENCE { SEQUENCE
// { OID of a password-based encryption, its parameters (a SEQUENCE) },
// OCTET STRING of 32+ bytes } (the smallest, Ed25519 under 3DES, is 48).
// The OIDs: PBES2 1.2.840.113549.1.5.13, PBES1 1.2.840.113549.1.5.{1,3,4,
// 6,10,11}, PKCS#12's PBE 1.2.840.113549.1.12.1.{1-6}.
bool der_encrypted_private_key(std::string_view der, const std::vector<Der>& kids) {
  if (kids.size() != 2 || kids[0].tag != 0x30 || kids[1].tag != 0x04 || kids[1].end - kids[1].content < 32) {
    return false;
  }
  Der oid, params;
  if (!read_der(der, kids[0].content, &oid) || oid.tag != 0x06 || !read_der(der, oid.end, &params) ||
      params.tag != 0x30 || params.end != kids[0].end) {
    return false;
  }
  constexpr std::string_view kPkcs5 = "\x2a\x86\x48\x86\xf7\x0d\x01\x05", kPkcs12Pbe = "\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01";
  const std::string_view value = der.substr(oid.content, oid.end - oid.content);
  if (value.size() == kPkcs5.size() + 1 && value.starts_with(kPkcs5)) {
    return std::string_view("\x0d\x01\x03\x04\x06\x0a\x0b").find(value.back()) != std::string_view::npos;
  }
  return value.size() == kPkcs12Pbe.size() + 1 && value.starts_with(kPkcs12Pbe) && value.back() >= 1 &&
         value.back() <= 6;
}

// A private key's structure, whole: PKCS#8 PrivateKeyInfo / OneAsymmetricKey
// (INTEGER 0|1, SEQUENCE { OID, ... }, OCTET STRING of 32+ bytes, ...),
// PKCS#1 RSAPrivateKey (INTEGER 0 and eight INTEGERs: n, e, d, p, q, dp, dq,
// qi), SEC1 ECPrivateKey (INTEGER 1, OCTET STRING of 20-72 bytes, ...) or
// an encrypted PKCS#8 key.
bool der_private_key(std::string_view der) {
  Der top;
  std::vector<Der> kids;
  if (!read_der(der, 0, &top) || top.tag != 0x30 || top.end != der.size() || !der_children(der, top, &kids, 12) ||
      kids.size() < 2) {
    return false;
  }
  if (der_encrypted_private_key(der, kids)) return true;
  if (kids[0].tag != 0x02 || kids[0].end - kids[0].content != 1) return false;
  const auto version = static_cast<uint8_t>(der[kids[0].content]);
  const auto size = [](const Der& d) { return d.end - d.content; };
  if (kids[1].tag == 0x30 && kids.size() >= 3 && version <= 1) {  // PKCS#8
    Der oid;
    return read_der(der, kids[1].content, &oid) && oid.tag == 0x06 && kids[2].tag == 0x04 && size(kids[2]) >= 32;
  }
  if (kids[1].tag == 0x04 && version == 1) return size(kids[1]) >= 20 && size(kids[1]) <= 72;  // SEC1
  return version == 0 && kids.size() == 9 &&  // PKCS#1
         std::ranges::all_of(kids, [](const Der& d) { return d.tag == 0x02; }) && size(kids[1]) >= 64;
}

bool std_base64_char(char c) { return is_alnum(c) || c == '+' || c == '/'; }

// After a line of base64 at `at`: the start of the next line's base64 when
// one line break (LF, CRLF, or their JSON escapes at any depth) and any
// indentation lead to it; npos otherwise.
size_t next_wrapped_line(std::string_view text, size_t at) {
  size_t i = at;
  bool line_feed = false;
  for (int k = 0; k < 2 && !line_feed && i < text.size(); ++k) {
    size_t j = i;
    while (j < text.size() && text[j] == '\\') ++j;
    if (j >= text.size()) return std::string_view::npos;
    const char c = text[j];
    if ((j == i && c == '\n') || (j > i && c == 'n')) line_feed = true;
    else if (!((j == i && c == '\r') || (j > i && c == 'r'))) return std::string_view::npos;
    i = j + 1;
  }
  if (!line_feed) return std::string_view::npos;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i < text.size() && std_base64_char(text[i]) ? i : std::string_view::npos;
}

// Base64 of a DER private key without armour, on one line or wrapped as
// `base64` and `openssl base64` write it: high when it decodes to a whole
// private key's structure, a warning when only its head is there (64
// characters or more: a key cut short); a certificate or a public key does
// not open with these heads, nor decodes to this structure.
std::optional<Extracted> der_key(std::string_view text, size_t start) {
  if (start > 0 && std_base64_char(text[start - 1])) return std::nullopt;
  // The body of an armoured block is its rule's (pem-private-key,
  // ssh2-private-key), which also knows its examples.
  const std::string_view before = text.substr(start > 256 ? start - 256 : 0, std::min<size_t>(start, 256));
  const size_t armour = before.rfind("BEGIN ");
  if (armour != std::string_view::npos && before.find("END ", armour) == std::string_view::npos) return std::nullopt;
  std::string payload;
  size_t pos = start, end = start, width = 0, first_end = 0;
  if (!spend_reading(text, 0)) return std::nullopt;
  for (;;) {
    size_t e = pos;
    while (e < text.size() && std_base64_char(text[e])) ++e;
    const size_t line = e - pos;
    payload.append(text.substr(pos, line));
    while (e < text.size() && text[e] == '=' && e - pos < line + 2) payload += text[e++];
    end = e;
    if (first_end == 0) first_end = e;
    if (e - pos != line || (width && line < width) || line % 4 != 0 || line < 40 || payload.size() > kMaxPemBlock) {
      break;
    }
    if (width == 0) width = line;
    const size_t next = next_wrapped_line(text, e);
    if (next == std::string_view::npos) break;
    size_t next_end = next;
    while (next_end < text.size() && std_base64_char(text[next_end])) ++next_end;
    if (next_end - next > width) break;
    pos = next;
  }
  if (!spend_reading(text, end - start)) return std::nullopt;
  const auto whole_key = [](std::string_view b64) {
    std::string der(b64.size(), '\0');
    size_t n = 0;
    if (sodium_base642bin(reinterpret_cast<unsigned char*>(der.data()), der.size(), b64.data(), b64.size(), nullptr,
                          &n, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0 &&
        sodium_base642bin(reinterpret_cast<unsigned char*>(der.data()), der.size(), b64.data(), b64.size(), nullptr,
                          &n, nullptr, sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0) {
      return false;
    }
    der.resize(n);
    return der_private_key(der);
  };
  if (whole_key(payload)) return Extracted{start, end, Severity::high, ""};
  const std::string_view first = text.substr(start, first_end - start);
  if (end != first_end && whole_key(first)) return Extracted{start, first_end, Severity::high, ""};
  if (payload.size() < 64) return std::nullopt;
  return Extracted{start, end, Severity::warning, "a private key's DER head, not a whole key: cut short?"};
}

// The AWS CLI's text output puts a new key's fields on one row, tab
// separated, after the row's name: `ACCESSKEY <id> <date> <secret> Active
// <user>` (iam create-access-key), `CREDENTIALS <id> <expiration> <secret>
// <session token>` (sts assume-role, get-session-token); a credentials.csv
// row has them after commas. On the key id's row, the first field after it
// of exactly 40 base64 characters, random, is the secret; a session token
// is the field after that secret, 100 base64 characters or more of binary.
std::optional<Extracted> aws_cli_row(const Rule& rule, std::string_view text, size_t end) {
  const auto separator = [&](size_t i) {
    const char c = text[i];
    return c == ' ' || c == '\t' || c == '|' || c == ',' || c == '"' || c == '\'';
  };
  const size_t limit = std::min(text.size(), end + 8192);
  bool after_secret = false;
  for (size_t i = end, fields = 0; i < limit && fields < 8;) {
    if (text[i] == '\n' || text[i] == '\r') return std::nullopt;  // the row ends
    if (text[i] == '\\') {  // an escaped tab is a separator, an escaped line break ends the row
      size_t j = i;
      while (j < limit && text[j] == '\\') ++j;
      if (j < limit && (text[j] == 'n' || text[j] == 'r')) return std::nullopt;
      i = j + 1;
      continue;
    }
    if (separator(i)) {
      ++i;
      continue;
    }
    // Both runs read once for all the key ids in them (a row of
    // "ASIA...-ASIA...-" is a candidate every 21 bytes).
    size_t e = std::min(limit, memo_run_end(text, i, [](char c) { return std_base64_char(c); }));
    const size_t chars = e - i;
    while (e < limit && text[e] == '=' && e - i < chars + 2) ++e;
    const bool whole = e >= text.size() || separator(e) || text[e] == '\n' || text[e] == '\r' || text[e] == '\\';
    const std::string_view field = text.substr(i, e - i);
    ++fields;
    if (whole && !after_secret && chars == 40 && e == i + 40 && char_classes(field) >= 3 &&
        shannon_entropy(field) >= 4.0 && !filler_token(field)) {
      if (rule.id == "aws-secret-key") return Extracted{i, e, rule.severity, ""};
      after_secret = true;
    } else if (whole && after_secret) {
      std::string decoded;
      if (chars < rule.min_len || chars > rule.max_len || decode_base64_text(field, &decoded)) return std::nullopt;
      return Extracted{i, e, rule.severity, ""};
    } else if (after_secret) {
      return std::nullopt;
    }
    e = std::min(limit, memo_run_end(text, e, [](char c) {
                  return c != ' ' && c != '\t' && c != '|' && c != ',' && c != '"' && c != '\'' && c != '\n' &&
                         c != '\r' && c != '\\';
                }));
    i = e;
  }
  return std::nullopt;
}

}  // namespace

std::span<const Rule> secret_rules() { return kRules; }

void note_new_scan() { ++scans_on_this_thread; }

size_t assignment_start(std::string_view text, size_t value_start) {
  const std::string_view name = assigned_name(text, value_start);
  return name.empty() ? value_start : static_cast<size_t>(name.data() - text.data());
}

bool generic_assignment(std::string_view name, std::string_view value) {
  static const Rule& rule = kRules[*rule_index("generic-secret")];
  return judge_generic(rule, value, 0, value.size(), true, name).has_value();
}

bool may_be_generic_assignment(std::string_view name, std::string_view value) {
  static const Rule& rule = kRules[*rule_index("generic-secret")];
  return value.size() >= rule.min_len && secret_name(name);  // judge_generic's first test
}

std::optional<size_t> rule_index(std::string_view id) {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].id == id) return i;
  }
  return std::nullopt;
}

namespace {

// AWS's documented example keys with their EXAMPLE tail changed
// (wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTKEY): the published sample, copied
// into a test or a tutorial. Scanners' suites call it a key and a non-key
// alike: reported, never high.
bool documented_key_stem(std::string_view secret) {
  for (std::string_view f : {"AKIAIOSFODNN7", "wJalrXUtnFEMI/K7MDENG", "je7MtGbClwBF/2Zp9Utk"}) {
    if (secret.find(f) != std::string_view::npos) return true;
  }
  return false;
}

// The credentials OAuth 2.0's RFCs use in their examples (RFC 6749: client
// s6BhdRkqt3 / gX1fBat3bV and its Basic form, tokens 2YotnFZFEjr1zCsicMWpAA,
// tGzv3JOkF0XG5Qx2TlKWIA, code SplxlOBeZQQYbYS6WxSbIA; RFC 6750's
// mF_9.B5f-4.1JqM; the MAC draft's h480djs93hd8), copied into every OAuth
// library's docs and tests.
bool rfc_example_credential(std::string_view secret) {
  for (std::string_view f : {"s6BhdRkqt3", "gX1fBat3bV", "czZCaGRSa3F0MzpnWDFmQmF0M2JW", "2YotnFZFEjr1zCsicMWpAA",
                             "tGzv3JOkF0XG5Qx2TlKWIA", "SplxlOBeZQQYbYS6WxSbIA", "mF_9.B5f-4.1JqM", "h480djs93hd8"}) {
    if (secret.find(f) != std::string_view::npos) return true;
  }
  return false;
}

// Credentials published as the same value for everyone: the keys of
// Microsoft's local emulators (Azurite's and the Storage Emulator's
// devstoreaccount1, the Cosmos DB Emulator's), printed in its docs and in
// every local.settings.json and docker-compose file that uses them, the
// Supabase CLI's default secret key of the local stack (`supabase start`
// and `supabase status` print it on every machine; its demo JWTs are told
// by their signature), and RFC 7617's Basic example "Aladdin:open sesame"
// (also MDN's).
bool published_credential(std::string_view secret) {
  for (std::string_view f : {"Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw",
                             "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw",
                             "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz", "QWxhZGRpbjpvcGVuIHNlc2FtZQ"}) {
    if (secret.find(f) != std::string_view::npos) return true;
  }
  return false;
}

// The tokens providers print as THE example in their own docs, copied into
// READMEs, placeholders and scanners' tests: Telegram's Bot API docs'
// 110201543:AAHdqTcv..., the Standard Webhooks specification's test vector
// (whsec_MfKQ9r8G...), Slack's oauth.v2.access sample, Google's API key
// example.
bool provider_documented_token(std::string_view secret) {
  for (std::string_view f : {"110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                             "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",
                             "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe"}) {
    if (secret.find(f) != std::string_view::npos) return true;
  }
  return false;
}

// "AKIATESTTESTTESTTEST", "sk_live_testkeyfortesting...", "hf_faketoken...":
// a token whose random part spells that it is a test's. Random characters
// spell a 4-letter word about once in a million places, so only short
// secrets are judged (a private key's or a JWT's body is long enough to).
bool says_it_is_fake(const Rule& rule, std::string_view secret) {
  if (secret.size() > 120 || rule.extract == Extract::pem_block || rule.extract == Extract::jwt ||
      rule.extract == Extract::jwk_member || rule.extract == Extract::der_key) {
    return false;  // key material, judged by its structure
  }
  // Hexspeak and foobar, the fillers test suites type (npm's own tests:
  // _authToken = deadbeefcafebadfoobarbaz42069), and the alphabet in mixed
  // case ("AbCdEfGhIjKl..."): 6 to 8 characters that a random token spells
  // about once in 10^8.
  static constexpr std::string_view kWords[] = {"test",     "fake",     "dummy",    "mock",    "sample",
                                                "invalid",  "notreal",  "placeholder", "abc123", "foobar",
                                                "deadbeef", "cafebabe", "feedface", "decafbad", "badf00d",
                                                "c0ffee",   "abcdefgh"};
  for (std::string_view w : kWords) {
    if (contains_nocase(secret, w)) return true;
  }
  // A count typed into it (...abc123456, ...12345): not in ids of digits
  // (Slack's, Telegram's), where random digits count up now and then.
  return !rule.id.starts_with("slack-") && rule.id != "telegram-bot-token" && typed_number_in(secret);
}

std::optional<Extracted> extract_candidate(const Rule& rule, std::string_view text, size_t start, size_t end,
                                           size_t value_limit);

}  // namespace

std::optional<Extracted> extract_secret(const Rule& rule, std::string_view text, size_t start, size_t end,
                                        size_t value_limit) {
  auto found = extract_candidate(rule, text, start, end, value_limit);
  if (!found || found->severity != Severity::high) return found;
  const std::string_view secret = text.substr(found->start, found->end - found->start);
  if (documented_key_stem(secret)) {
    found->severity = Severity::warning;
    found->note = "AWS's documented example key";
  } else if (rfc_example_credential(secret)) {
    found->severity = Severity::warning;
    found->note = "an OAuth RFC's example credential";
  } else if (provider_documented_token(secret)) {
    found->severity = Severity::warning;
    found->note = "the provider's documented example token";
  } else if (published_credential(secret)) {
    found->severity = Severity::warning;
    found->note = "a published example (an emulator's key, an RFC's)";
  } else if (says_it_is_fake(rule, secret)) {
    found->severity = Severity::warning;
    found->note = "it says it is a test's";
  }
  return found;
}

namespace {

std::optional<Extracted> extract_candidate(const Rule& rule, std::string_view text, size_t start, size_t end,
                                           size_t value_limit) {
  if (rule.lead) {  // the random head before the literal
    if (start < rule.lead) return std::nullopt;
    for (size_t i = start - rule.lead; i < start; ++i) {
      if (!in_chars(rule.lead_chars, text[i])) return std::nullopt;
    }
    start -= rule.lead;
    // Inside a longer run of the lead's characters it is something else.
    if (start > 0 && in_chars(rule.lead_chars, text[start - 1])) return std::nullopt;
  }
  if (rule.left_boundary && start > 0 && is_alnum(text[start - 1])) return std::nullopt;
  switch (rule.extract) {
    case Extract::token: {
      size_t e = rule.chars == Chars::none ? end : grow(text, start, end, rule);
      // A dot may separate a token's parts, but one at its end closes a sentence.
      while (rule.chars == Chars::alnum_dash_dot && e > end && text[e - 1] == '.') --e;
      if (rule.min_len && e - start < rule.min_len) return std::nullopt;
      // A token inside a longer run of its characters is not it.
      if (rule.chars == Chars::none && e < text.size() && (is_alnum(text[e]) || text[e] == '_' || text[e] == '-')) {
        return std::nullopt;
      }
      if (rule.max_len && e - start == rule.max_len && e < text.size() && in_chars(rule.chars, text[e])) {
        return std::nullopt;
      }
      const std::string_view token = text.substr(start, e - start);
      if (filler_token(token) || spelled_in_words(token) || !layout_ok(rule.id, token)) return std::nullopt;
      if (rule.id == "aws-key-id" && nucleotides(token.substr(4))) return std::nullopt;
      // Heads that base64 of binary data spells often (EAAA: zero bytes):
      // after '+' or '/' the match is a piece of such a run, not a token.
      if ((weak_head(rule) || rule.id == "aws-session-token") && start > 0 &&
          (text[start - 1] == '+' || text[start - 1] == '/')) {
        return std::nullopt;
      }
      // Random characters include letters: 16 digits in a row end no real token.
      const std::string_view tail = token.substr(token.size() > 16 ? token.size() - 16 : 0);
      if (!rule.id.starts_with("slack-") && tail.find_first_not_of("0123456789-_") == std::string_view::npos) {
        return std::nullopt;  // (Slack's ids are digits)
      }
      // Slack tokens end in random letters and digits; digits alone after
      // the prefix, with no second part, are a token cut short or an id.
      if (rule.id == "slack-token" && token.size() < 30 &&
          token.find_first_not_of("0123456789", 5) == std::string_view::npos) {
        return Extracted{start, e, Severity::warning, "digits only: a token cut short?"};
      }
      // A short one whose last part is a word of lower-case letters is a
      // test's stand-in ("xoxe-1-refreshed"): random parts mix in digits.
      const std::string_view last_part = token.substr(token.rfind('-') + 1);
      if (rule.id == "slack-token" && token.size() < 30 &&
          std::ranges::all_of(last_part, [](char c) { return c >= 'a' && c <= 'z'; })) {
        return Extracted{start, e, Severity::warning, "a word where random characters belong: a stand-in?"};
      }
      // Teams' incoming webhook posts as anyone; a connector's (JenkinsCI,
      // ...) only as its service.
      if (rule.id == "msteams-webhook" && token.find("/IncomingWebhook/") == std::string_view::npos) {
        return Extracted{start, e, Severity::warning, "a connector's webhook, not an incoming webhook"};
      }
      if (rule.id == "pypi-token" && !whole_macaroon(token.substr(5))) {
        return Extracted{start, e, Severity::warning, "not a whole macaroon: cut short or made up?"};
      }
      if (rule.id == "age-secret-key" && !bech32_checksum_ok(token)) {
        return Extracted{start, e, Severity::warning, "bech32 checksum does not match: a fake or test key?"};
      }
      if (rule.id == "bitbucket-app-password" && !atlassian_checksum_ok(token)) {
        return Extracted{start, e, Severity::warning, "not ATBB, 24 characters and their CRC32: a fake or test password?"};
      }
      if (rule.id == "aws-session-token" && session_token_of_url(text, start)) {
        return Extracted{start, e, Severity::warning, "a presigned URL's session token: no use without its secret key"};
      }
      return Extracted{start, e, rule.severity, ""};
    }
    case Extract::github: {
      const std::string_view token = text.substr(start, end - start);
      if (filler_token(token) || (end < text.size() && is_alnum(text[end]))) return std::nullopt;
      if (github_checksum_ok(token)) return Extracted{start, end, Severity::high, ""};
      if (start > 0 && is_alnum(text[start - 1])) return std::nullopt;  // glued to a word: only a checksum says so
      return Extracted{start, end, Severity::warning, "checksum does not match: a fake or test token?"};
    }
    case Extract::url_userinfo: return url_userinfo(rule, text, end);
    case Extract::shell_user: return shell_user(rule, text, end);
    case Extract::docker_auth: return docker_auth(rule, text, end);
    case Extract::value_before: return value_before(rule, text, end);
    case Extract::jwt: return jwt(text, start);
    case Extract::discord: return discord(text, start, end);
    case Extract::bot_token: return bot_token(text, start, end);
    case Extract::cli_password: return cli_password(rule, text, end);
    case Extract::kube_token: return kube_token(text, end);
    case Extract::provider_value: return provider_value(rule, text, end);
    case Extract::near_keyword: return keyword_value(rule, text, end);
    case Extract::azure: return azure(text, start, end);
    case Extract::putty_key: return putty_key(text, start);
    case Extract::pem_block: {
      // The pattern ends at "PRIVATE KEY"; its BEGIN is just before.
      const size_t from = end > 64 ? end - 64 : 0;
      const size_t begin = text.substr(from, end - from).rfind("-----BEGIN");
      if (begin == std::string_view::npos) return std::nullopt;
      return pem_block(text, from + begin);
    }
    case Extract::value: return value_after(rule, text, end, value_limit);
    case Extract::ssh2_block: return ssh2_block(text, end);
    case Extract::jwk_member: return jwk_member(rule, text, end);
    case Extract::der_key: return der_key(text, start);
    case Extract::aws_cli_row: return aws_cli_row(rule, text, end);
  }
  return std::nullopt;
}

}  // namespace

std::span<const std::string_view> sensitive_header_names() {
  static constexpr std::string_view kNames[] = {"authorization", "proxy-authorization", "x-api-key", "api-key",
                                                "x-goog-api-key", "x-auth-token", "openai-api-key",
                                                "x-amz-security-token"};
  return kNames;
}

bool sensitive_header(std::string_view name) {
  for (auto h : sensitive_header_names()) {
    if (h.size() == name.size() && strncasecmp(h.data(), name.data(), h.size()) == 0) return true;
  }
  return false;
}

std::string mask_secret(std::string_view secret) {
  // At most a quarter of the secret, never more than 8 characters, and
  // never past the first line (PEM blocks).
  size_t shown = std::min<size_t>(secret.size() / 4, 8);
  size_t nl = secret.find('\n');
  if (nl != std::string_view::npos) shown = std::min(shown, nl);
  if (secret.starts_with("-----BEGIN")) shown = std::min<size_t>(secret.find("-----", 5) + 5, secret.size());
  std::string out(secret.substr(0, shown));
  return out + "... (" + std::to_string(secret.size()) + " chars)";
}

double shannon_entropy(std::string_view s) {
  if (s.empty()) return 0;
  std::array<uint32_t, 256> counts{};
  for (unsigned char c : s) ++counts[c];
  double h = 0;
  const double n = static_cast<double>(s.size());
  for (uint32_t c : counts) {
    if (!c) continue;
    const double p = c / n;
    h -= p * std::log2(p);
  }
  return h;
}

}  // namespace goalcup::cheat
