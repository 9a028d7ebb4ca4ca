#!/bin/sh
# Warms an FSx for Lustre cache: makes the file system load every file under PRELOAD_ROOT from its S3
# data repository. Runs in the preload worker's training container (POSIX sh, GNU coreutils, findutils).
# With lfs on PATH: lfs hsm_restore in batches, then poll lfs hsm_action until every file shows NOOP
# (a file that is NOOP but still released is restored again). Without lfs: read one byte of every
# file, which makes FSx load the whole file. Logs "files=N bytes=B seconds=S" lines; the last one is
# the result that the preload:files, preload:bytes and preload:seconds metrics pick up.
# Settings: PRELOAD_ROOT (required), PRELOAD_PARALLELISM (8), PRELOAD_BATCH_SIZE (256),
# PRELOAD_POLL_SECONDS (10), PRELOAD_MAX_POLLS (8640).
set -u
root=${PRELOAD_ROOT:-}
par=${PRELOAD_PARALLELISM:-8}
batch=${PRELOAD_BATCH_SIZE:-256}
poll=${PRELOAD_POLL_SECONDS:-10}
max_polls=${PRELOAD_MAX_POLLS:-8640}
start=$(date +%s)

fail() {
  echo "preload failed: $*" >&2
  exit 1
}

number() { # NAME VALUE MIN
  case $2 in
    '' | *[!0-9]*) fail "$1 must be a whole number, got '$2'" ;;
  esac
  [ "$2" -ge "$3" ] || fail "$1 must be at least $3, got '$2'"
}

number PRELOAD_PARALLELISM "$par" 1
number PRELOAD_BATCH_SIZE "$batch" 1
number PRELOAD_POLL_SECONDS "$poll" 0
number PRELOAD_MAX_POLLS "$max_polls" 1
[ -n "$root" ] || fail "PRELOAD_ROOT is not set: set it to the mounted channel directory"
[ -d "$root" ] || fail "PRELOAD_ROOT $root is not a directory: is the channel mounted?"

WORK=$(mktemp -d) || fail "cannot create a work directory"
export WORK
trap 'rm -rf "$WORK"' EXIT

report() { # WHAT FILES BYTES
  echo "preload $1: files=$2 bytes=$3 seconds=$(($(date +%s) - start))"
}

# Adds up "COUNT BYTES" lines.
sum() {
  n=0 b=0
  while read -r cn cb; do n=$((n + ${cn:-0})) b=$((b + ${cb:-0})); done
  echo "$n $b"
}

# Records are "SIZE PATH", NUL-terminated. Prints "COUNT BYTES" of a record file.
tally() {
  xargs -0 -r sh -c 'n=0 b=0; for r do n=$((n + 1)) b=$((b + ${r%% *})); done; echo "$n $b"' sh < "$1" | sum
}

first_path() {
  r=$(head -z -n 1 "$1" | tr -d '\0')
  echo "${r#* }"
}

find "$root" -type f -printf '%s %p\0' > "$WORK/all" || fail "cannot list every file under $root"
set -- $(tally "$WORK/all")
total_files=$1 total_bytes=$2

if command -v lfs > /dev/null 2>&1; then
  echo "preload: restoring $total_files files ($total_bytes bytes) under $root with lfs hsm_restore," \
    "batches of $batch, $par at a time"
  xargs -0 -r -n "$batch" -P "$par" sh -c \
    'for r do shift; set -- "$@" "${r#* }"; done; lfs hsm_restore "$@"' sh < "$WORK/all" ||
    echo "preload: some lfs hsm_restore calls failed; their files are restored again while polling" >&2
  cp "$WORK/all" "$WORK/pending"
  polls=0
  while :; do
    : > "$WORK/next"
    # A file is done when hsm_action shows NOOP and hsm_state does not show released. A round that
    # did not run to the end (a checker was killed) says nothing about the files it skipped: repeat it.
    xargs -0 -r -n "$batch" -P "$par" sh -c '
      for r do
        f=${r#* }
        a=$(lfs hsm_action "$f" 2> /dev/null) || a=failed
        case $a in
          *NOOP)
            s=$(lfs hsm_state "$f" 2> /dev/null) || s=" released"
            case ${s#"$f: "} in
              *" released"*) lfs hsm_restore "$f" > /dev/null 2>&1 ;;
              *) continue ;;
            esac ;;
        esac
        printf "%s\0" "$r" >> "$WORK/next"
      done' sh < "$WORK/pending" && mv "$WORK/next" "$WORK/pending" ||
      echo "preload: a poll round did not finish; repeating it" >&2
    set -- $(tally "$WORK/pending")
    report progress $((total_files - $1)) $((total_bytes - $2))
    [ "$1" -eq 0 ] && break
    polls=$((polls + 1))
    [ "$polls" -lt "$max_polls" ] ||
      fail "$1 files still have an HSM action or are released after $polls polls, e.g. $(first_path "$WORK/pending")"
    sleep "$poll"
  done
else
  echo "preload: reading the first byte of $total_files files ($total_bytes bytes) under $root," \
    "batches of $batch, $par at a time"
  # Reads one byte of each file in $1; appends "COUNT BYTES" per batch to $WORK/read and the records
  # that could not be read to $WORK/unread.
  read_all() {
    : > "$WORK/unread"
    xargs -0 -r -n "$batch" -P "$par" sh -c '
      n=0 b=0
      for r do
        if head -c 1 -- "${r#* }" > /dev/null; then
          n=$((n + 1)) b=$((b + ${r%% *}))
        else
          printf "%s\0" "$r" >> "$WORK/unread"
        fi
      done
      echo "$n $b" >> "$WORK/read"' sh < "$1"
  }
  : > "$WORK/read"
  interval=$poll
  [ "$interval" -ge 1 ] || interval=1
  (while sleep "$interval" > /dev/null 2>&1; do report progress $(sum < "$WORK/read"); done) &
  reporter=$!
  read_all "$WORK/all"
  if [ -s "$WORK/unread" ]; then
    mv "$WORK/unread" "$WORK/retry"
    echo "preload: $(tally "$WORK/retry" | cut -d ' ' -f 1) files could not be read; trying them once more" >&2
    read_all "$WORK/retry"
  fi
  kill "$reporter" 2> /dev/null
  wait "$reporter" 2> /dev/null
  if [ -s "$WORK/unread" ]; then
    set -- $(tally "$WORK/unread")
    fail "$1 of $total_files files could not be read, e.g. $(first_path "$WORK/unread")"
  fi
  set -- $(sum < "$WORK/read")
  [ "$1" -eq "$total_files" ] || fail "read $1 of $total_files files"
fi
report done "$total_files" "$total_bytes"
