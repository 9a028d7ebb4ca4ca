#!/bin/sh
# Stand-in for Lustre's lfs (hsm_restore, hsm_action, hsm_state), keeping its state in $FAKE_LFS_STATE:
# - hsm_restore appends "hsm_restore <file count>" to calls and the files to restored;
#   with FAKE_LFS_FAIL_FIRST_RESTORE set, the first call fails without restoring anything.
# - hsm_action shows a running RESTORE the first time it is asked about a restored file, then NOOP
#   (and appends the file to noop); the file named by FAKE_LFS_STUCK always shows a running RESTORE;
#   with FAKE_LFS_KILL_FIRST_POLL set, the first call kills the process that called it.
# - hsm_state shows "released" until a file is restored.
state=${FAKE_LFS_STATE:?}
cmd=$1
shift
case $cmd in
  hsm_restore)
    echo "hsm_restore $#" >> "$state/calls"
    if [ -n "${FAKE_LFS_FAIL_FIRST_RESTORE:-}" ] && mkdir "$state/failed-once" 2> /dev/null; then
      echo "lfs hsm_restore: Input/output error" >&2
      exit 5
    fi
    for f do printf '%s\n' "$f" >> "$state/restored"; done ;;
  hsm_action)
    if [ -n "${FAKE_LFS_KILL_FIRST_POLL:-}" ] && mkdir "$state/killed-once" 2> /dev/null; then
      kill -9 "$PPID"
      exit 1
    elif [ "$1" = "${FAKE_LFS_STUCK:-}" ]; then
      echo "$1: RESTORE running (from 0 to EOF)"
    elif grep -Fxq -- "$1" "$state/restored" 2> /dev/null && ! grep -Fxq -- "$1" "$state/seen" 2> /dev/null; then
      printf '%s\n' "$1" >> "$state/seen"
      echo "$1: RESTORE running (from 0 to EOF)"
    else
      grep -Fxq -- "$1" "$state/restored" 2> /dev/null && printf '%s\n' "$1" >> "$state/noop"
      echo "$1: NOOP"
    fi ;;
  hsm_state)
    if grep -Fxq -- "$1" "$state/restored" 2> /dev/null; then
      echo "$1: (0x00000009) exists archived, archive_id:1"
    else
      echo "$1: (0x0000000d) released exists archived, archive_id:1"
    fi ;;
  *)
    echo "fake lfs: unsupported command $cmd" >&2
    exit 2 ;;
esac
