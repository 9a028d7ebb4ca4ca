#!/bin/sh
# Stand-in for head that logs every absolute path it is asked to read to $FAKE_HEAD_LOG and fails with
# an I/O error for paths ending with $FAKE_UNREADABLE; otherwise runs the real head found on $REAL_PATH.
for a do
  case $a in
    /*)
      printf '%s\n' "$a" >> "$FAKE_HEAD_LOG"
      case $a in
        *"$FAKE_UNREADABLE")
          echo "head: error reading '$a': Input/output error" >&2
          exit 1 ;;
      esac ;;
  esac
done
PATH=$REAL_PATH exec head "$@"
