#!/bin/sh
# Stop: keeps the turn going until the tests pass, shown by a marker file the test run leaves
# (.tests-passed in the project). Lets the turn end once it already continued, to avoid loops.
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0 ;; esac
if [ -e "${CLAUDE_PROJECT_DIR:-.}/.tests-passed" ]; then exit 0; fi
echo "The tests have not passed yet: run them and fix what fails before finishing." >&2
exit 2
