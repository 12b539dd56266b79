# bash completion for goalcup-verify, goalcup-inspect and goalcup-cheatcheck.
# Installed as share/bash-completion/completions/<tool> (one copy per tool).

_goalcup_files() {
  mapfile -t COMPREPLY < <(compgen -f -- "$1")
  compopt -o filenames 2>/dev/null
}

_goalcup() {
  local cur prev cmd=${COMP_WORDS[0]##*/}
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local common="--help --version --no-progress -j --jobs --threads --shard --files-from -r --batch -q --quiet --dev-key
    --max-line-bytes --max-depth --max-records --max-total-bytes --max-zstd-window-log --max-zstd-ratio
    --max-archive-members --max-statements --ack-window --max-errors"
  local opts subs=""
  case $cmd in
    goalcup-verify)
      opts="$common --format"; subs="merge"
      [[ $prev == --format ]] && { mapfile -t COMPREPLY < <(compgen -W "text json jsonl" -- "$cur"); return; } ;;
    goalcup-cheatcheck)
      opts="$common --format --fail-on --policy --baseline --allowlist --no-secrets --show-secrets --sarif-base"
      subs="scan coop manifest redact merge"
      case $prev in
        --format) mapfile -t COMPREPLY < <(compgen -W "text json jsonl sarif" -- "$cur"); return ;;
        --fail-on) mapfile -t COMPREPLY < <(compgen -W "info warning high" -- "$cur"); return ;;
        --sarif-base) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); compopt -o filenames 2>/dev/null; return ;;
      esac ;;
    goalcup-inspect)
      opts="--help --version --threads --dev-key --json --format --kind --seq -o --max-changes --max-edits --max-steps --show-secrets"
      subs="summary records show conversation html diff"
      [[ $prev == --format ]] && { mapfile -t COMPREPLY < <(compgen -W "text json markdown" -- "$cur"); return; } ;;
  esac
  case $prev in
    --policy|--baseline|--allowlist|--files-from|--dev-key|-o) _goalcup_files "$cur"; return ;;
    -j|--jobs|--threads|--shard) return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  elif [[ $COMP_CWORD -eq 1 && -n $subs ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
    local f
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
  else
    _goalcup_files "$cur"
  fi
}
complete -F _goalcup goalcup-verify goalcup-inspect goalcup-cheatcheck
