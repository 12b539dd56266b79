#!/usr/bin/env bash
# The inspect HTML page in a real browser: Debian's chromium, headless, with
# an empty profile, for each kind of page (verified, dev key, invalid,
# unsealed, with findings), at 1400 and 390 px wide, with script on and off.
# With script on, an audit script appended to a copy of the page checks the
# rendered DOM: every in-page link has its target, nothing is wider than the
# window, tables scroll inside their cards, and the timeline zooms. With
# script off, the page must still hold everything, the timeline included.
set -euo pipefail
inspect=$1 samples=$2
keys=${3:-$(dirname "$samples")/keys/dev-key.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "FAIL: chromium is not installed (scripts/packages.txt)"; exit 1; }
browse() {  # browse WIDTH FILE: the DOM after load
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
    --window-size="$1",900 --hide-scrollbars --virtual-time-budget=3000 --dump-dom "file://$2" 2>/dev/null
}
# Appended to a copy of the page. Script off is a Content-Security-Policy
# that lets only this audit run (chromium dumps no DOM with scripts disabled).
audit='<script nonce="audit">
(function(){const out=[];const ctl=document.getElementById("tl-controls");const mode=ctl.hidden?"off":"on";
document.querySelectorAll("a[href^=\"#\"]").forEach(a=>{const id=a.getAttribute("href").slice(1);
  if(!document.getElementById(id))out.push("dead-link:"+id);});
if(document.documentElement.scrollWidth>window.innerWidth+1)out.push("page-overflow:"+document.documentElement.scrollWidth+">"+window.innerWidth);
document.querySelectorAll("section").forEach(s=>{if(s.getBoundingClientRect().right>window.innerWidth+1)out.push("section-overflow:"+s.id);});
const bar=document.querySelector(".exchange-bar");
if(!bar||!(+bar.getAttribute("width")>0))out.push("no-timeline-bar");
else if(mode=="on"){const w0=+bar.getAttribute("width");ctl.querySelector("[data-z=in]").click();
  const w1=+bar.getAttribute("width");if(!(w1>w0))out.push("no-zoom:"+w0+"->"+w1);}
const badge=document.getElementById("verdict-badge").className,found=document.querySelectorAll(".finding").length;
const text="AUDIT-"+mode+"-"+innerWidth+":"+out.join(" ")+":END badge="+badge+" findings="+found;
if(parent!==window)parent.postMessage(text,"*");
const p=document.createElement("pre");p.id="audit";p.textContent=text;document.body.appendChild(p);})();
</script>'
# Headless chromium windows are at least 500 px wide: each page is audited
# in an iframe of the width wanted. Every page, width and mode goes into one
# wrapper page, rendered by one chromium run (a launch costs about 2 s; one
# per variant made this the suite's longest test): each iframe posts its
# audit to the wrapper, which lists it under the iframe's name.
frames=""
frame() {  # frame NAME WIDTH PAGE: adds PAGE to the wrapper in an iframe WIDTH px wide
  frames+="<iframe name=\"$1\" data-src=\"$(basename "$3")\" style=\"width:$2px;height:900px;border:0\"></iframe>"
}
# The wrapper loads its frames one after another, each once the one before
# has posted its audit: all at once, the last ones were still loading when
# chromium dumped the page.
wrapper() {
  echo "<!doctype html><body style=\"margin:0\">$frames
<script>const all=[...document.querySelectorAll('iframe')];let next=0;
function load(){if(next<all.length){all[next].src=all[next].dataset.src;next++;}}
addEventListener('message',e=>{const f=all.find(x=>x.contentWindow===e.source);
const p=document.createElement('pre');p.className='audit';p.textContent=(f?f.name:'?')+'|'+e.data;document.body.appendChild(p);load();});
load();</script>"
}
csp='<meta http-equiv="Content-Security-Policy" content="script-src '"'"'nonce-audit'"'"'">'
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
check() { if grep -q -- "$2" <<<"$1"; then ok "$3"; else bad "$3"; fi; }
declare -A badges
page() {  # page NAME WANT_BADGE ARGS...: render, then frame it at both widths, script on and off
  local name=$1
  badges[$name]=$2
  shift 2
  "$inspect" "$@" -o "$work/$name.html" 2>/dev/null || true
  [ -s "$work/$name.html" ] || { bad "$name: no page written"; return; }
  if grep -Eq '(src|href)="(https?:)?//' "$work/$name.html"; then bad "$name: fetches something remote"; fi
  { cat "$work/$name.html"; echo "$audit"; } >"$work/$name-on.html"
  { sed "s|<head>|<head>$csp|" "$work/$name.html"; echo "$audit"; } >"$work/$name-off.html"
  for width in 1400 390; do
    for mode in on off; do frame "$name-$mode-$width" "$width" "$work/$name-$mode.html"; done
  done
}
audit_all() {  # renders the wrapper once, then judges each page's four audits
  wrapper >"$work/all.html"
  local dom name result
  dom=$(browse 1400 "$work/all.html")
  for name in "${!badges[@]}"; do
    for width in 1400 390; do
      for mode in on off; do
        result=$(grep -o "<pre class=\"audit\">$name-$mode-$width|[^<]*" <<<"$dom" | head -c 400 || true)
        check "$result" "AUDIT-$mode-$width::END" "$name $width px script $mode: no dead link, no overflow, timeline drawn$([ $mode = on ] && echo ' and zooms') [$result]"
        check "$result" "badge=${badges[$name]}" "$name $width px script $mode: header badge ${badges[$name]}"
        if [ "$name" = findings ]; then check "$result" "findings=[1-9]" "$name $width px script $mode: findings listed"; fi
      done
    done
  done
}
page verified 'verdict verified' html "$samples/claude-code-verified.jsonl.zst"
page devkey 'verdict verified devkey' --dev-key "$keys" html "$samples/claude-code-devkey.jsonl"
page invalid 'verdict invalid' html "$samples/tampered-edit_mid.jsonl"
page unsealed 'verdict incomplete' html "$samples/claude-code-unsealed.jsonl.zst"
page findings 'verdict verified' html "$samples/claude-code-leaks.jsonl"
audit_all
# What each kind of page must show.
dom=$(browse 1400 "$work/verified.html")
check "$dom" 'class="answer"' "verified: assistant answers present"
check "$dom" 'class="tool-result"' "verified: tool outputs collapsible"
n=$(grep -o 'class="exchange[ "]' <<<"$dom" | wc -l)
[ "$n" -ge 10 ] && ok "verified: $n exchanges" || bad "verified: only $n exchanges"
check "$(browse 1400 "$work/invalid.html")" 'class="after-break"' "invalid: records after the break marked"
dom=$(browse 1400 "$work/unsealed.html")
n=$(grep -o 'class="exchange unattested"' <<<"$dom" | wc -l)
m=$(grep -o 'class="exchange[ "]' <<<"$dom" | wc -l)
[ "$n" -ge 1 ] && [ "$n" = "$m" ] && ok "unsealed: $n of $m exchanges marked not attested" || bad "unsealed: $n of $m exchanges marked"
check "$(browse 1400 "$work/devkey.html")" 'DEV KEY: not the production server' "devkey: badged as a dev-key run"
# A missing input writes no page.
if "$inspect" html "$work/missing.jsonl" -o "$work/missing.html" 2>/dev/null || [ -e "$work/missing.html" ]; then
  bad "a missing input wrote a page or exited 0"
else
  ok "a missing input writes no page"
fi
exit $fail
