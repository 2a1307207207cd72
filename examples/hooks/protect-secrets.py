#!/usr/bin/env python3
"""PreToolUse (matcher "Edit|Write|Read"): keeps the model away from .env files and keys.

Answers with the JSON output form: a deny decision and its reason, which the model reads.
"""
import json
import os
import sys

PROTECTED = (".env", ".pem", "id_rsa", "id_ed25519")

data = json.load(sys.stdin)
path = str(data.get("tool_input", {}).get("file_path", ""))
name = os.path.basename(path)
if name.startswith(".env") or name.endswith(PROTECTED):
    json.dump({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"{name} may hold secrets; it is off limits.",
        }
    }, sys.stdout)
sys.exit(0)
