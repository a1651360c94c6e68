"""A stand-in for yajsv (github.com/neilpa/yajsv), the JSON Schema validator that the CLICS spec's
check-api.sh calls, which no package here provides: the same command line as check-api.sh uses it
(`-q -s SCHEMA -r 'GLOB' DOCUMENT...`), validated by the jsonschema package (draft 2020-12, the
schemas' own; a `$ref` is found among the -r schemas by its `$id`), and yajsv's answers: a line
`DOCUMENT: fail: MESSAGE` per failure (`pass` too without -q), exit status 1 on any failure, 2 on a
document that is not JSON, 4 on a usage or schema error."""

from __future__ import annotations

import argparse
import glob
import json
import sys


def main(argv: list[str]) -> int:
    import jsonschema
    from referencing import Registry, Resource

    parser = argparse.ArgumentParser(prog="yajsv")
    parser.add_argument("-s", dest="schema", required=True)
    parser.add_argument("-r", dest="refs", action="append", default=[])
    parser.add_argument("-q", dest="quiet", action="store_true")
    parser.add_argument("documents", nargs="+")
    try:
        options = parser.parse_args(argv)
    except SystemExit:
        return 4
    try:
        with open(options.schema) as file:
            schema = json.load(file)
        referenced = []
        for pattern in options.refs:
            for path in sorted(glob.glob(pattern)):
                with open(path) as file:
                    referenced.append(json.load(file))
        registry = Registry().with_resources((each["$id"], Resource.from_contents(each)) for each in referenced + [schema])
        validator = jsonschema.validators.validator_for(schema)(schema, registry=registry)
        validator.check_schema(schema)
    except (OSError, ValueError, KeyError, jsonschema.SchemaError) as err:
        print(f"{options.schema}: invalid schema: {err}", file=sys.stderr)
        return 4
    status = 0
    for path in options.documents:
        try:
            with open(path) as file:
                document = json.load(file)
        except (OSError, ValueError) as err:
            print(f"{path}: error: {err}")
            status |= 2
            continue
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print(f"{path}: fail: {where}: {error.message}")
        if errors:
            status |= 1
        elif not options.quiet:
            print(f"{path}: pass")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
