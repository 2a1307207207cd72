#!/bin/sh
# PreToolUse (matcher "Bash"): refuses recursive forced removals; the reason goes to the model.
input=$(cat)
command=$(printf '%s' "$input" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(String(JSON.parse(s).tool_input.command||""))}catch{}})')
case "$command" in
  *"rm -rf"*|*"rm -fr"*|*"rm -r -f"*|*"rm -f -r"*)
    echo "Blocked: '$command' removes files recursively. Delete specific files instead." >&2
    exit 2 ;;
esac
exit 0
