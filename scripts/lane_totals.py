"""Adds up the test lanes' JUnit XML files into one closing line:
`lanes: N passed, N failed, N skipped` (errors count as failed)."""

import sys
import xml.etree.ElementTree as ET


def main(paths: list[str]) -> int:
    passed = failed = skipped = 0
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as exc:
            print(f"lane results unreadable: {path}: {exc}", file=sys.stderr)
            failed += 1
            continue
        for suite in root.iter("testsuite"):
            tests = int(suite.get("tests", 0))
            bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            skip = int(suite.get("skipped", 0))
            passed += tests - bad - skip
            failed += bad
            skipped += skip
    print(f"lanes: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
