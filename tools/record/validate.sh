#!/bin/bash
# Validate the recorder: convert every fixture of conformance/fixtures back into a scenario spec,
# re-record it with the real plugins and real libcni, and diff against the original.
# Usage (root): tools/record/validate.sh [workdir]   (default /tmp/cnirec/validate)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-/tmp/cnirec/validate}
rm -rf "$work/scenarios" "$work/out"
npx tsx tools/record/convert.ts conformance/fixtures --out "$work/scenarios" >/dev/null
npx tsx tools/record/record.ts --out "$work/out" "$work/scenarios" || true
npx tsx tools/record/compare.ts conformance/fixtures "$work/out" | tee "$work/diff.txt"
