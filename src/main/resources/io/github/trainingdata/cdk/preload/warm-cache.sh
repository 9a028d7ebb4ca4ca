#!/bin/sh
# Warms an FSx for Lustre cache: makes the file system load every file under PRELOAD_ROOT from its S3
# data repository. Runs in the preload worker's container: POSIX sh, GNU coreutils and findutils (and sed
# on the lfs path).
# Every step works in batches (one lfs, head or sed process for many files), never a process per file.
# With lfs on PATH (and able to reach the mount: lfs path2fid succeeds): lfs hsm_restore, at most
# @MAX_RESTORE_BATCH@ files a call (Lustre refuses larger HSM requests), then poll lfs hsm_action until a
# file shows NOOP and lfs hsm_state no longer shows it released (NOOP but released: restored again).
# Without lfs, and for names with a newline (lfs prints a line per file): read one byte of each file,
# which makes FSx load the whole file from S3. A read waits for that load (tens of ms), so reads are
# latency-bound: readers in flight = files/s x latency (Little's law); the default @DEFAULT_PARALLELISM@
# readers give ~2,500 files/s at 50 ms. Batches shrink so that every reader has work.
# Logs "files=N bytes=B seconds=S" lines; the last one is the result that the preload:files,
# preload:bytes and preload:seconds metrics pick up. First it logs how many channel directories
# (data locations) PRELOAD_ROOT holds: the preload:locations metric, fewer than configured when some
# locations held no object yet (status PARTIAL).
# Settings: PRELOAD_ROOT (required), PRELOAD_PARALLELISM (@DEFAULT_PARALLELISM@), PRELOAD_BATCH_SIZE
# (@DEFAULT_BATCH_SIZE@), PRELOAD_POLL_SECONDS (@DEFAULT_POLL_SECONDS@), PRELOAD_MAX_POLLS (@DEFAULT_MAX_POLLS@).
# The defaults come from PreloadDefaults (WarmUpScript fills them in), as LustrePreload's and the advisor's do.
set -u
export LC_ALL=C
root=${PRELOAD_ROOT:-}
par=${PRELOAD_PARALLELISM:-@DEFAULT_PARALLELISM@}
batch=${PRELOAD_BATCH_SIZE:-@DEFAULT_BATCH_SIZE@}
poll=${PRELOAD_POLL_SECONDS:-@DEFAULT_POLL_SECONDS@}
max_polls=${PRELOAD_MAX_POLLS:-@DEFAULT_MAX_POLLS@}
restore_batch=@MAX_RESTORE_BATCH@
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
[ "$batch" -ge "$restore_batch" ] || restore_batch=$batch
echo "preload locations: warmed=$(find "$root" -mindepth 1 -maxdepth 1 -type d | wc -l)"

WORK=$(mktemp -d) || fail "cannot create a work directory"
export WORK
trap 'rm -rf "$WORK"' EXIT

report() { # WHAT FILES BYTES
  echo "preload $1: files=$2 bytes=$3 seconds=$(($(date +%s) - start))"
}

# Sizes, one a line, on stdin: prints "COUNT BYTES".
total() {
  set -- $(paste -s -d ' ' -)
  IFS=+
  echo "$# $(($* + 0))"
  unset IFS
}

# Prints, then removes, the files $WORK/NAME.PID that batch processes appended to. Processes that run
# at the same time have different ids, so a batch's lines stay whole.
gather() {
  set -- "$WORK/$1".*
  [ -e "$1" ] || return 0
  cat -- "$@"
  rm -f -- "$@"
}

# Reads the first byte of the files in $1 (NUL-terminated "SIZE PATH" records), $2 files per head
# process, $par at once; appends "COUNT BYTES" of each batch read to $WORK/read and the records of a
# batch that failed to $WORK/failed.PID. A batch of n records cuts the paths and sizes of records 1
# to n out of the expansions that write_expansions wrote, instead of looping over its records.
read_batches() {
  xargs -0 -r -n "$2" -P "$par" sh -c '
    [ $# -eq 1 ] || exec 2> /dev/null
    . "$WORK/expansions"
    n=$(($# + 1))
    paths=${paths%%" \"\${$n#"*} sizes=${sizes%%"+\${$n%"*}
    eval "b=\$((0$sizes))"
    if eval "head -q -c 1 --$paths" > /dev/null; then echo "$# $b" >> "$WORK/read"
    else printf "%s\0" "$@" >> "$WORK/failed.$$"; fi' sh < "$1"
}

# Writes $WORK/expansions, which sets paths to ' "${1#* }" "${2#* }" ...' and sizes to
# '+${1%% *}+${2%% *}...', for records 1 to $1.
write_expansions() {
  set -- $(seq "$1")
  printf "paths='%s'\nsizes='%s'\n" "$(printf ' "${%s#* }"' "$@")" "$(printf '+${%s%%%% *}' "$@")" \
    > "$WORK/expansions"
}

# Reads the files in $1 in batches, then the files of failed batches once more one at a time; those
# that fail again end up in $WORK/unread.
read_files() {
  read_batches "$1" "$2"
  gather failed > "$WORK/retry"
  if [ -s "$WORK/retry" ]; then
    echo "preload: reading $(tr -cd '\0' < "$WORK/retry" | wc -c) files of failed batches once more," \
      "one at a time" >&2
    read_batches "$WORK/retry" 1
  fi
  gather failed > "$WORK/unread"
}

# Fails naming a file that could not be read, if any.
check_unread() { # TOTAL
  [ -s "$WORK/unread" ] || return 0
  fail "$(tr -cd '\0' < "$WORK/unread" | wc -c) of $1 files could not be read, e.g." \
    "$(tr '\0\n' '\n\0' < "$WORK/unread" | head -n 1 | cut -d ' ' -f 2- | tr '\0' '\n')"
}

# Runs lfs $1 on the NUL-separated paths on stdin, $batch at a time, $par at once; output goes to
# $WORK/$1.PID, errors to $WORK/errors.PID.
lfs_batches() {
  xargs -0 -r -n "$batch" -P "$par" sh -c 'exec lfs "$0" "$@" >> "$WORK/$0.$$" 2>> "$WORK/errors.$$"' "$1"
}

restore() { # FILE: restores the newline-separated paths in FILE
  tr '\n' '\0' < "$1" | xargs -0 -r -n "$restore_batch" -P "$par" lfs hsm_restore
}

# Lists every file: with lfs, "PATH<NUL>SIZE" lines to restore in $WORK/lfs, and "SIZE PATH<NUL>"
# records to read in $WORK/read-list; without lfs, every file is read.
: > "$WORK/lfs"
: > "$WORK/read"
why=
use_lfs=
if command -v lfs > /dev/null 2>&1; then
  if lfs path2fid "$root" > /dev/null 2>&1; then
    use_lfs=1
  else
    echo "preload: lfs path2fid $root failed (no Lustre mount this lfs can reach): reading every file instead" >&2
  fi
fi
if [ -n "$use_lfs" ]; then
  nl='
'
  why=" (names with a newline: lfs prints one line per file)"
  find "$root" -type f \( -path "*$nl*" -fprintf "$WORK/read-list" '%s %p\0' \
    -o -fprintf "$WORK/lfs" '%p\0%s\n' \)
else
  find "$root" -type f -printf '%s %p\0' > "$WORK/read-list"
fi || fail "cannot list every file under $root"
set -- $(tr '\n\0' ' \n' < "$WORK/read-list" | cut -d ' ' -f 1 | total) $(cut -d '' -f 2 "$WORK/lfs" | total)
read_files=$1 read_bytes=$2 lfs_files=$3 lfs_bytes=$4
total_files=$((read_files + lfs_files)) total_bytes=$((read_bytes + lfs_bytes))

if [ "$lfs_files" -gt 0 ]; then
  echo "preload: restoring $lfs_files files ($lfs_bytes bytes) under $root with lfs hsm_restore," \
    "batches of $restore_batch, $par at a time"
  cut -d '' -f 1 "$WORK/lfs" > "$WORK/paths"
  restore "$WORK/paths" ||
    echo "preload: some lfs hsm_restore calls failed; their files are restored again while polling" >&2
fi

if [ "$read_files" -gt 0 ]; then
  size=$(((read_files + par - 1) / par))
  [ "$size" -le "$batch" ] || size=$batch
  echo "preload: reading the first byte of $read_files files ($read_bytes bytes) under $root$why," \
    "batches of $size, $par at a time"
  interval=$poll
  [ "$interval" -ge 1 ] || interval=1
  # Progress while reading (when there is nothing to restore; otherwise the polls report it).
  (while [ "$lfs_files" -eq 0 ] && sleep "$interval" > /dev/null 2>&1; do
    set -- $(cut -d ' ' -f 1 "$WORK/read" | total) $(cut -d ' ' -f 2 "$WORK/read" | total)
    report progress "$2" "$4"
  done) &
  reporter=$!
  write_expansions "$size"
  read_files "$WORK/read-list" "$size"
  kill "$reporter" 2> /dev/null
  wait "$reporter" 2> /dev/null
  check_unread "$read_files"
  set -- $(cut -d ' ' -f 1 "$WORK/read" | total)
  [ "$2" -eq "$read_files" ] || fail "read $2 of $read_files files"
fi

if [ "$lfs_files" -gt 0 ]; then
  sort -t '\0' -k 1,1 "$WORK/lfs" > "$WORK/pending"
  # lfs hsm_state lines: "PATH: (0x0000000d) released exists archived, archive_id:1"; the flag
  # 0x00000004 is "released".
  released=': (0x[0-9a-f]\{7\}[4-7c-f])[ a-z_,:0-9]*$' state=': (0x[0-9a-f]\{8\})[ a-z_,:0-9]*$'
  polls=0
  while :; do
    # Done: hsm_action shows NOOP and hsm_state shows it not released. A file without an answer (an
    # lfs call failed or was killed) is asked again next time.
    cut -d '' -f 1 "$WORK/pending" | tr '\n' '\0' | lfs_batches hsm_action
    gather hsm_action | sed -n 's/: NOOP$//p' | tr '\n' '\0' | lfs_batches hsm_state
    gather hsm_state | sed -n -e "s/$released//w $WORK/released" -e t -e "s/$state//p" | sort > "$WORK/loaded"
    restore "$WORK/released" > /dev/null 2>> "$WORK/errors.restore"
    error=$(gather errors | head -n 1)
    [ -z "$error" ] || echo "preload: some lfs calls failed; their files are checked again, e.g.: $error" >&2
    join -t '\0' -v 1 "$WORK/pending" "$WORK/loaded" > "$WORK/next"
    mv "$WORK/next" "$WORK/pending"
    set -- $(cut -d '' -f 2 "$WORK/pending" | total)
    report progress $((total_files - $1)) $((total_bytes - $2))
    [ "$1" -eq 0 ] && break
    polls=$((polls + 1))
    [ "$polls" -lt "$max_polls" ] || fail "$1 files still have an HSM action or are released after" \
      "$polls polls, e.g. $(head -n 1 "$WORK/pending" | cut -d '' -f 1)"
    sleep "$poll"
  done
fi
report done "$total_files" "$total_bytes"
