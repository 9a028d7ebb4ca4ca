#!/bin/sh
# Stand-in for head that appends its file count to $FAKE_HEAD_CALLS, logs every absolute path it is
# asked to read to $FAKE_HEAD_LOG (NUL-terminated), and fails with an I/O error for paths ending with
# $FAKE_UNREADABLE, and the first time only for paths ending with $FAKE_FLAKY; otherwise runs the real
# head found on $REAL_PATH. Like head, it reads every file it can before it fails.
failed=
n=0
for a do
  case $a in
    /*)
      n=$((n + 1))
      printf '%s\0' "$a" >> "$FAKE_HEAD_LOG"
      case $a in
        *"${FAKE_UNREADABLE:-/}")
          echo "head: error reading '$a': Input/output error" >&2
          failed=1 ;;
        *"${FAKE_FLAKY:-/}")
          if mkdir "$FAKE_HEAD_LOG.flaky" 2> /dev/null; then
            echo "head: error reading '$a': Input/output error" >&2
            failed=1
          fi ;;
      esac ;;
  esac
done
[ -z "${FAKE_HEAD_CALLS:-}" ] || [ "$n" -eq 0 ] || echo "$n" >> "$FAKE_HEAD_CALLS"
[ -z "$failed" ] || exit 1
PATH=$REAL_PATH exec head "$@"
