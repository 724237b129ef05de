#!/usr/bin/env python3
"""test/Lsp/Inputs/lsp_session.py — a scripted LSP session from a template.

`lsp_session.py TEMPLATE DIR [--framed]` prints the messages of TEMPLATE
(the lines between `# BEGIN-SESSION` and `# END-SESSION`, `// -----`
separated) with `@URI(name)@` replaced by the file URI of DIR/name and
`@TEXT(name)@` by DIR/name's content as a JSON string. With --framed, the
messages get Content-Length headers (the protocol's own framing) instead.
"""
import json
import os
import re
import sys


def main():
    template, directory = sys.argv[1], os.path.abspath(sys.argv[2])
    text = open(template).read()
    body = text.split("# BEGIN-SESSION\n", 1)[1].split("# END-SESSION", 1)[0]
    body = re.sub(r"@URI\(([^)]*)\)@",
                  lambda m: "file://" + os.path.join(directory, m.group(1)),
                  body)
    body = re.sub(r"@TEXT\(([^)]*)\)@",
                  lambda m: json.dumps(
                      open(os.path.join(directory, m.group(1))).read()),
                  body)
    if "--framed" not in sys.argv:
        sys.stdout.write(body)
        return
    for chunk in body.split("// -----\n"):
        lines = [l for l in chunk.splitlines() if not l.startswith("//")]
        payload = "\n".join(lines).strip().encode()
        if payload:
            sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(payload))
            sys.stdout.buffer.write(payload)


if __name__ == "__main__":
    main()
