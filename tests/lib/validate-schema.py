#!/usr/bin/python3
"""Validate Deliberate dataset files against a JSON Schema (draft 2020-12).

usage: validate-schema.py [--expect-invalid] [-q] [-v] SCHEMA FILE...

Each FILE is
  *.json                   one JSON document
  *.ndjson, *.jsonl        one JSON document per line (an empty line is an error)
  *.ndjson.gz, *.jsonl.gz  the same, gzip-compressed

Every error is printed as "FILE:LINE: json.path: message" (for a .json file
LINE is 1, the line where the document starts), then one summary line
"N documents, M invalid".

Exit status: 0 when every document is valid (with --expect-invalid: when
every document is invalid, and there is at least one), 1 otherwise,
2 on bad usage, an unreadable file or schema, or an invalid schema.

Needs Debian's python3-jsonschema (run with /usr/bin/python3).  When the
installed jsonschema cannot check the "date-time" format itself (it needs
the optional rfc3339-validator module), a strict RFC 3339 checker built
from the standard library is used instead, so the format is always
enforced; -v tells which one is in use.
"""

import datetime
import gzip
import json
import re
import sys

USAGE = "usage: validate-schema.py [--expect-invalid] [-q] [-v] SCHEMA FILE..."

try:
    import jsonschema
    from jsonschema import Draft202012Validator, FormatChecker
except ImportError as exc:  # pragma: no cover - depends on the machine
    print("validate-schema.py: cannot import jsonschema (%s); install "
          "python3-jsonschema and run with /usr/bin/python3" % exc,
          file=sys.stderr)
    sys.exit(2)


_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?"
    r"([Zz]|([+-])(\d{2}):(\d{2}))$")


def rfc3339_date_time(instance):
    """Strict RFC 3339 section 5.6 date-time check (stdlib only)."""
    if not isinstance(instance, str):
        return True
    m = _RFC3339.match(instance)
    if not m:
        raise ValueError("%r is not an RFC 3339 date-time" % instance)
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    if second == 60:  # leap second: allowed by RFC 3339
        second = 59
    datetime.datetime(year, month, day, hour, minute, second)  # ValueError
    if m.group(9):
        if int(m.group(10)) > 23 or int(m.group(11)) > 59:
            raise ValueError("%r has an invalid zone offset" % instance)
    return True


def make_format_checker():
    checker = FormatChecker()  # a copy of every format known to jsonschema
    if "date-time" in checker.checkers:
        return checker, "jsonschema (rfc3339-validator)"
    checker.checks("date-time", raises=ValueError)(rfc3339_date_time)
    return checker, "built-in RFC 3339 fallback"


class DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise DuplicateKey("duplicate key %r" % key)
        obj[key] = value
    return obj


def _no_constant(name):
    raise ValueError("%s is not valid JSON" % name)


def parse(text):
    """json.loads, but rejecting duplicate keys and NaN/Infinity."""
    return json.loads(text, object_pairs_hook=_no_duplicates,
                      parse_constant=_no_constant)


def documents(path):
    """Yield (line, text) pairs; raise OSError/UnicodeError on bad files."""
    if path.endswith(".json"):
        with open(path, "rb") as f:
            yield 1, f.read().decode("utf-8")
        return
    if path.endswith((".ndjson.gz", ".jsonl.gz")):
        opener = gzip.open
    elif path.endswith((".ndjson", ".jsonl")):
        opener = open
    else:
        raise ValueError("unknown file type (want .json, .ndjson, .jsonl "
                         "or .ndjson.gz)")
    with opener(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    for number, line in enumerate(lines, 1):
        yield number, line


def main(argv):
    expect_invalid = quiet = verbose = False
    args = []
    for arg in argv:
        if arg == "--expect-invalid":
            expect_invalid = True
        elif arg in ("-q", "--quiet"):
            quiet = True
        elif arg in ("-v", "--verbose"):
            verbose = True
        elif arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif arg.startswith("-") and arg != "-":
            print("validate-schema.py: unknown option %s\n%s" % (arg, USAGE),
                  file=sys.stderr)
            return 2
        else:
            args.append(arg)
    if len(args) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    schema_path, files = args[0], args[1:]

    try:
        with open(schema_path, "rb") as f:
            schema = json.loads(f.read().decode("utf-8"))
        Draft202012Validator.check_schema(schema)
    except (OSError, UnicodeError, ValueError) as exc:
        print("%s: cannot read schema: %s" % (schema_path, exc),
              file=sys.stderr)
        return 2
    except jsonschema.exceptions.SchemaError as exc:
        print("%s: not a valid draft 2020-12 schema: %s at %s"
              % (schema_path, exc.message, exc.json_path), file=sys.stderr)
        return 2

    checker, how = make_format_checker()
    if verbose:
        print("date-time format checked by: %s" % how, file=sys.stderr)
    validator = Draft202012Validator(schema, format_checker=checker)

    total = invalid = 0
    unreadable = False
    for path in files:
        try:
            for line, text in documents(path):
                total += 1
                if text.strip() == "":
                    problems = [("$", "empty line")]
                else:
                    try:
                        doc = parse(text)
                    except ValueError as exc:
                        problems = [("$", "invalid JSON: %s" % exc)]
                    else:
                        errors = sorted(validator.iter_errors(doc),
                                        key=lambda e: (list(map(str, e.absolute_path)), e.message))
                        problems = [(e.json_path, e.message) for e in errors]
                if problems:
                    invalid += 1
                    if not quiet:
                        for where, message in problems:
                            print("%s:%d: %s: %s" % (path, line, where, message))
        except (OSError, EOFError, UnicodeError, ValueError) as exc:
            print("%s: cannot read: %s" % (path, exc), file=sys.stderr)
            unreadable = True

    print("%d documents, %d invalid" % (total, invalid))
    if unreadable:
        return 2
    if expect_invalid:
        return 0 if total > 0 and invalid == total else 1
    return 0 if invalid == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
