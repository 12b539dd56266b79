// `html`: one self-contained page for a judge (no network: inline CSS, JS
// and SVG only) with the summary, a timeline, the conversation and the
// records they link to. What it embeds is capped so that a 300 MB trace
// still gives a page a browser opens at once; the page says what it left out.
#pragma once

#include <string>

#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/mask.h"
#include "core/walk.h"

namespace goalcup::inspect {

struct HtmlLimits {
  size_t exchanges = 300;      // conversation items
  size_t text_bytes = 8192;    // per answer or input text
  size_t marks = 4000;         // timeline marks per lane
  size_t records = 3000;       // rows in the records table
};

// Renders the page; returns the verify report of the pass. With `cheat`,
// the cheat checks run in the same pass and their findings lead the page.
// With `masker`, every text is masked before it is escaped into the page.
VerifyReport render_html(const std::string& path, const WalkOptions& options, const HtmlLimits& limits,
                         const cheat::CheatOptions* cheat, cheat::CredentialMasker* masker, std::string* page);

}  // namespace goalcup::inspect
