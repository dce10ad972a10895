#!/bin/sh
# A JSON-lines player in shell (docs/players.md): answers the first act it is offered.
while IFS= read -r line; do
  first=${line#*\"actions\": \[}
  echo "${first%%[],]*}"
done
