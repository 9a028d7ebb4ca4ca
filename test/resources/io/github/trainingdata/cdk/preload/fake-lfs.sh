#!/bin/sh
# Stand-in for Lustre's lfs path2fid, hsm_restore, hsm_action and hsm_state, many files per call, printing what
# lustre/utils/lfs.c prints: one line per file ("<path>: NOOP", "<path>: RESTORE waiting (from 0 to
# EOF)", "<path>: (0x0000000d) released exists archived, archive_id:1"), errors on stderr.
# Keeps its state in $FAKE_LFS_STATE: "calls" gets "<command> <file count>" per call; the sets
# restored, seen and noop are the union of the files <set>.*, each written whole (calls run in parallel).
# - hsm_restore refuses more than 52 files, as Lustre does (the request must stay under
#   MDS_MAXREQSIZE / 3); with FAKE_LFS_FAIL_FIRST_RESTORE set, the first call fails; files whose path
#   contains FAKE_LFS_LOSE are dropped by their first restore (they stay released, with no action).
# - hsm_action shows a restore waiting the first time it is asked about a restored file, then NOOP
#   (the file joins noop); the file FAKE_LFS_STUCK always shows a restore running; a file never
#   restored shows NOOP. With FAKE_LFS_KILL_FIRST_POLL set, the first call kills itself.
# - hsm_state shows "released" until hsm_action has shown the file's restore done.
# - path2fid prints a FID; with FAKE_LFS_NOT_LUSTRE set it fails, as on a path outside a Lustre mount.
# A path with a newline fails the call (the warm-up script must read such files instead).
set -u
state=${FAKE_LFS_STATE:?}
cmd=$1
shift
echo "$cmd $#" >> "$state/calls"
for f do
  case $f in
    *'
'*) echo "fake lfs: $cmd was given a path with a newline" >&2
      : > "$state/newline"
      exit 2 ;;
  esac
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stuck=${FAKE_LFS_STUCK:-}

set_of() { # NAME: the sorted set
  cat "$state/$1".* 2> /dev/null | sort -u
}

add() { # NAME FILE: adds the lines of FILE to the set NAME, whole
  [ -s "$2" ] || return 0
  mv "$2" "$(mktemp "$state/$1.XXXXXX")"
}

printf '%s\n' "$@" | sort -u > "$tmp/args"
set_of restored > "$tmp/restored"
set_of seen > "$tmp/seen"
case $cmd in
  path2fid)
    if [ -n "${FAKE_LFS_NOT_LUSTRE:-}" ]; then
      echo "lfs path2fid: cannot get fid for '$1': Inappropriate ioctl for device" >&2
      exit 25
    fi
    echo '[0x200000007:0x1:0x0]' ;;
  hsm_restore)
    if [ $# -gt 52 ]; then
      echo "Cannot send HSM request (use of $1): Argument list too long" >&2
      exit 7
    fi
    if [ -n "${FAKE_LFS_FAIL_FIRST_RESTORE:-}" ] && mkdir "$state/failed-once" 2> /dev/null; then
      echo "Cannot send HSM request (use of $1): Input/output error" >&2
      exit 5
    fi
    : > "$tmp/lose"
    if [ -n "${FAKE_LFS_LOSE:-}" ]; then
      grep -F -- "$FAKE_LFS_LOSE" "$tmp/args" | sort > "$tmp/matching"
      set_of lost | comm -13 - "$tmp/matching" > "$tmp/lose"
      cp "$tmp/lose" "$tmp/lost"
      add lost "$tmp/lost"
    fi
    comm -23 "$tmp/args" "$tmp/lose" > "$tmp/new"
    add restored "$tmp/new" ;;
  hsm_action)
    if [ -n "${FAKE_LFS_KILL_FIRST_POLL:-}" ] && mkdir "$state/killed-once" 2> /dev/null; then
      kill -9 $$
    fi
    printf '%s\n' "$stuck" > "$tmp/stuck"
    comm -12 "$tmp/args" "$tmp/stuck" > "$tmp/running"
    comm -12 "$tmp/args" "$tmp/restored" | comm -23 - "$tmp/running" > "$tmp/asked"
    comm -23 "$tmp/asked" "$tmp/seen" > "$tmp/waiting"
    comm -12 "$tmp/asked" "$tmp/seen" > "$tmp/noop"
    sed 's/$/: RESTORE running (4096 bytes moved)/' "$tmp/running"
    sed 's/$/: RESTORE waiting (from 0 to EOF)/' "$tmp/waiting"
    sort -m "$tmp/running" "$tmp/waiting" | comm -23 "$tmp/args" - | sed 's/$/: NOOP/'
    add seen "$tmp/waiting"
    add noop "$tmp/noop" ;;
  hsm_state)
    comm -12 "$tmp/args" "$tmp/seen" | grep -vFx -- "$stuck" > "$tmp/loaded"
    sed 's/$/: (0x00000009) exists archived, archive_id:1/' "$tmp/loaded"
    comm -23 "$tmp/args" "$tmp/loaded" | sed 's/$/: (0x0000000d) released exists archived, archive_id:1/' ;;
  *)
    echo "fake lfs: unsupported command $cmd" >&2
    exit 2 ;;
esac
