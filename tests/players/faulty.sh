#!/bin/sh
# A JSON-lines player that fails: $1 is crash (ends at its third question), slow (never
# answers its second, the first time it runs: $2 is a file it makes then), junk (answers
# a word) or illegal (answers 999).
n=0
while IFS= read -r line; do
  n=$((n + 1))
  case "$1:$n" in
    crash:3) exit 3 ;;
    slow:2) [ -e "$2" ] || { : > "$2"; exec sleep 30; } ;;
    junk:*) echo "pass" ; continue ;;
    illegal:*) echo 999 ; continue ;;
  esac
  first=${line#*\"actions\": \[}
  echo "${first%%[],]*}"
done
