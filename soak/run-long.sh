#!/usr/bin/env bash
# The soak's long form: at least 100 random faults and 20 SIGKILLs per engine (the Connect worker, the Spark
# driver), and the plugin on every Connect line on every Java installed here. Prints each soak's counts.
# Extra arguments go to Maven, e.g. -Dsoak.seed=<seed> to repeat a run, -Dsoak.kills=40.
set -uo pipefail
cd "$(dirname "$0")/.."
mvn -B -q install -DskipTests -pl soak/tests -am || exit 1
mvn -B verify -pl soak/tests -Dsoak.faults=100 -Dsoak.kills=20 -Dsoak.matrix=full "$@" > soak/tests/target/long.log
status=$?
grep -E "Tests run:|FAIL" soak/tests/target/long.log
grep -h -A4 "^soak of" soak/tests/target/failsafe-reports/*-output.txt
exit $status
