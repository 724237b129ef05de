#!/usr/bin/env python3
"""test/Lsp/Inputs/fuzz_session.py — half-typed input for `modelc lsp`.

`fuzz_session.py gen STEP FILE...` prints an LSP session (--lit-test form)
that opens each file, then replaces its text with every prefix cut at
every STEP-th byte and with the whole text less the byte there, asking
after each change for a hover, a completion, a definition, the inlay hints,
the document symbols and a formatting at the cut.

`fuzz_session.py gen-framed STEP FILE...` prints the same session with the
protocol's Content-Length headers instead of `// -----` lines.

`fuzz_session.py check SESSION REPLIES` reads the session and the server's
output and prints how many requests were answered, or which were not.
"""
import json
import re
import sys


def position(text, offset):
    """The LSP position of byte `offset` of `text`."""
    before = text[:offset]
    line = before.count("\n")
    return {"line": line, "character": len(before) - (before.rfind("\n") + 1)}


def session(step, files, framed=False):
    messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
                 "params": {"processId": None, "rootUri": None,
                            "capabilities": {}}}]
    next_id = 1

    def request(method, params):
        nonlocal next_id
        messages.append({"jsonrpc": "2.0", "id": next_id, "method": method,
                         "params": params})
        next_id += 1

    for n, path in enumerate(files):
        text = open(path, encoding="utf-8").read()
        uri = "file:///lsp-fuzz/f%d.model" % n
        doc = {"uri": uri}
        messages.append({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                         "params": {"textDocument": {
                             "uri": uri, "languageId": "modelc",
                             "version": 1, "text": text}}})
        version = 1
        for cut in range(0, len(text), step):
            for variant in (text[:cut], text[:cut] + text[cut + 1:]):
                version += 1
                messages.append({
                    "jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri,
                                                "version": version},
                               "contentChanges": [{"text": variant}]}})
                at = position(variant, min(cut, len(variant)))
                where = {"textDocument": doc, "position": at}
                request("textDocument/hover", where)
                request("textDocument/completion", where)
                request("textDocument/definition", where)
                request("textDocument/inlayHint", {
                    "textDocument": doc,
                    "range": {"start": {"line": 0, "character": 0},
                              "end": {"line": 100000, "character": 0}}})
                request("textDocument/documentSymbol", {"textDocument": doc})
                request("textDocument/formatting", {
                    "textDocument": doc,
                    "options": {"tabSize": 2, "insertSpaces": True}})
        messages.append({"jsonrpc": "2.0", "method": "textDocument/didClose",
                         "params": {"textDocument": doc}})
    request("shutdown", None)
    messages.append({"jsonrpc": "2.0", "method": "exit"})
    if framed:
        return "".join("Content-Length: %d\r\n\r\n%s" % (len(body), body)
                       for body in map(json.dumps, messages))
    return "\n// -----\n".join(json.dumps(m) for m in messages) + "\n"


def check(session_path, replies_path):
    ids = set()
    text = open(session_path).read()
    chunks = (re.split(r"Content-Length: \d+\s*\n", text)
              if text.startswith("Content-Length") else text.split("\n// -----\n"))
    for chunk in chunks:
        if not chunk.strip():
            continue
        message = json.loads(chunk)
        if "id" in message:
            ids.add(message["id"])
    output = open(replies_path).read()
    answered = set()
    for body in re.split(r"Content-Length: \d+\s*\n", output):
        if body.strip():
            reply = json.loads(body)
            if "id" in reply:
                answered.add(reply["id"])
    missing = sorted(ids - answered)
    if missing:
        print("unanswered requests: %s" % missing[:20])
        return 1
    print("answered all %d requests" % len(ids))
    return 0


if __name__ == "__main__":
    if sys.argv[1] in ("gen", "gen-framed"):
        sys.stdout.write(session(int(sys.argv[2]), sys.argv[3:],
                                 framed=sys.argv[1] == "gen-framed"))
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
