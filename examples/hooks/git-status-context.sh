#!/bin/sh
# SessionStart: plain stdout becomes context for the model at the start of the conversation.
cat >/dev/null
cd "${CLAUDE_PROJECT_DIR:-.}" || exit 0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "Current git status (branch $(git branch --show-current 2>/dev/null)):"
  git status --short
else
  echo "This project is not a git repository."
fi
