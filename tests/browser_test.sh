#!/usr/bin/env bash
# The inspect HTML page in a real browser: Debian's chromium, headless, with
# an empty profile. The DOM it renders must hold the summary, the timeline
# with its exchange bars, and the conversation; nothing may be fetched.
set -euo pipefail
inspect=$1 samples=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "FAIL: chromium is not installed (scripts/packages.txt)"; exit 1; }
"$inspect" html "$samples/claude-code-verified.jsonl.zst" -o "$work/page.html" 2>/dev/null
dom=$(timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
  --dump-dom "file://$work/page.html" 2>/dev/null)
fail=0
check() { if grep -q -- "$1" <<<"$dom"; then echo "ok: $2"; else echo "FAIL: $2"; fail=1; fi; }
check 'id="summary"' "summary section rendered"
check 'class="verdict verified"' "verdict shown"
check 'id="timeline-svg"' "timeline SVG rendered"
check 'class="exchange-bar"' "exchanges drawn as bars"
check 'id="conversation"' "conversation section rendered"
check 'class="answer"' "assistant answers present"
check 'class="tool-result"' "tool outputs collapsible"
check 'id="seq-' "records the items link to"
n=$(grep -o 'class="exchange"' <<<"$dom" | wc -l)
[ "$n" -ge 10 ] && echo "ok: $n exchanges" || { echo "FAIL: only $n exchanges"; fail=1; }
exit $fail
