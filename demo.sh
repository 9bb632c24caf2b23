#!/usr/bin/env bash
# The demo, in one command: builds what it needs (the first time a few minutes, then under a minute), then runs
# both engines on one live shared table. ./demo.sh --help lists the flags.
set -euo pipefail
cd "$(dirname "$0")"
echo "[demo] building: mvn -q -B package -DskipTests -pl demo -am" >&2
mvn -q -B package -DskipTests -pl demo -am >&2
exec java -cp "demo/target/classes:$(cat demo/target/classpath.txt)" io.sharestream.demo.Demo "$@"
